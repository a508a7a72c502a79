//! A move's place in the alpha-beta search order: the order scores of the stages and the
//! packed (score, index) word the picker selects by.

/// Order scores: the table move above every capture, captures above the killers,
/// killers above any history score (which the history update keeps below
/// `HISTORY_LIMIT`).
pub(super) const TABLE_SCORE: i32 = 1 << 30;
pub(super) const NOISY_SCORE: i32 = 1 << 28;
pub(super) const KILLER_SCORE: i32 = 1 << 27;

/// A move's place in the search order: its order score and its index in the move list
/// packed in one word, smaller first (higher score, then lower index), so selection and
/// sorting compare plain integers: comparing `(score, index)` pairs was most of
/// [`pick_best`]'s cost.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Ranked(u64);

impl Ranked {
    #[inline]
    pub(super) fn new(score: i32, index: usize) -> Self {
        debug_assert!(index <= u32::MAX as usize);
        // The flipped sign bit orders scores as unsigned; the inversion puts high first.
        let rank = !((score as u32) ^ 0x8000_0000);
        Ranked(u64::from(rank) << 32 | index as u64)
    }

    #[inline]
    pub(super) fn score(self) -> i32 {
        (!self.rank() ^ 0x8000_0000) as i32
    }

    /// The score's part of the word: smaller for a higher score.
    #[inline]
    fn rank(self) -> u32 {
        (self.0 >> 32) as u32
    }

    #[inline]
    pub(super) fn index(self) -> usize {
        self.0 as u32 as usize
    }

    /// The same score at another index.
    #[inline]
    pub(super) fn with_index(self, index: usize) -> Self {
        Ranked::new(self.score(), index)
    }
}

/// Selection steps before [`pick_best`] sorts the rest at once: most cut-offs come from
/// the first few moves, and a node that got past them usually searches every move, where
/// selection would cost a quadratic number of comparisons.
const SELECTION_STEPS: usize = 3;

/// Moves the best-scored remaining entry to `number`: selection for the first few
/// moves, then one sort of the rest (ties keep generation order, so searches stay
/// deterministic).
#[inline]
pub(super) fn pick_best(order: &mut [Ranked], number: usize) {
    if number >= SELECTION_STEPS {
        if number == SELECTION_STEPS {
            order[number..].sort_unstable();
        }
        return;
    }
    let mut best = number;
    for candidate in number + 1..order.len() {
        // By score alone: among equal scores the first entry stays, as the swaps left them.
        if order[candidate].rank() < order[best].rank() {
            best = candidate;
        }
    }
    order.swap(number, best);
}
