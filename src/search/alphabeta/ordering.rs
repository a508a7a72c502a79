//! Move ordering for the alpha-beta worker: the table move and killers first (staged, so
//! a cut-off among them saves scoring the rest), then captures by hint, then quiet moves
//! by history plus hint.

use super::picker::MovePicker;
use super::{HISTORY_LIMIT, Worker};
use crate::search::game::AlphaBetaGame;

/// Order scores: the table move above every capture, captures above the killers,
/// killers above any history score (which [`update_history`] keeps below
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
    fn with_index(self, index: usize) -> Self {
        Ranked::new(self.score(), index)
    }
}

fn update_history(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_LIMIT;
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

impl<G: AlphaBetaGame> Worker<'_, G> {
    pub(super) fn reward_quiet(
        &mut self,
        position: &G,
        mv: G::Move,
        depth: i32,
        ply: usize,
        picker: &MovePicker<G::Move>,
    ) {
        let (moves, tried) = (&picker.moves, &picker.tried);
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        let slot = position.history_index(mv);
        update_history(&mut self.history[slot], bonus);
        for &index in tried {
            let slot = position.history_index(moves[index]);
            update_history(&mut self.history[slot], -bonus);
        }
    }

    /// The moves tried before any other is scored: the table move, then the killers that
    /// are legal quiet moves here. A cut-off among them saves scoring the rest, which is
    /// most of a node's cost when it has many moves.
    pub(super) fn first_moves(
        &self,
        position: &G,
        moves: &[G::Move],
        table_move: Option<usize>,
        ply: usize,
        order: &mut Vec<Ranked>,
    ) {
        order.clear();
        if let Some(index) = table_move {
            order.push(Ranked::new(TABLE_SCORE, index));
        }
        let killers = self.killers[ply];
        if killers[0].is_none() {
            return;
        }
        // One tight search per killer (legal move lists never repeat a move).
        let found =
            killers.map(|killer| killer.and_then(|killer| position.find_move(moves, killer)));
        for (slot, index) in found.into_iter().enumerate() {
            if let Some(index) = index
                && Some(index) != table_move
                && !position.is_noisy(moves[index])
            {
                order.push(Ranked::new(KILLER_SCORE - slot as i32, index));
            }
        }
    }

    /// [`Self::first_moves`] for a position whose moves are not listed yet (all moves
    /// quiet: [`AlphaBetaGame::quiet_move_count`]; the table move, if any, known by its code):
    /// `moves` receives the table move and the killers that are legal here, and `order`
    /// points at them, in the same order.
    pub(super) fn staged_first_moves(
        &self,
        position: &G,
        table_move: Option<G::Move>,
        ply: usize,
        moves: &mut Vec<G::Move>,
        order: &mut Vec<Ranked>,
    ) {
        moves.clear();
        order.clear();
        let table_move = table_move.filter(|&mv| position.is_legal_quiet(mv));
        if let Some(mv) = table_move {
            order.push(Ranked::new(TABLE_SCORE, 0));
            moves.push(mv);
        }
        for (slot, killer) in self.killers[ply].into_iter().enumerate() {
            if let Some(killer) = killer
                && Some(killer) != table_move
                && position.is_legal_quiet(killer)
            {
                order.push(Ranked::new(KILLER_SCORE - slot as i32, moves.len()));
                moves.push(killer);
            }
        }
    }

    /// Appends every move not among the first `tried` entries of `order`, scored:
    /// forcing moves by their hint, quiet ones by history plus hint.
    pub(super) fn score_rest(
        &mut self,
        position: &G,
        moves: &[G::Move],
        tried: usize,
        order: &mut Vec<Ranked>,
    ) {
        let mut hints = std::mem::take(&mut self.hints);
        position.order_hints(moves, &mut hints);
        for (index, (&mv, &hint)) in moves.iter().zip(&hints).enumerate() {
            if order[..tried].iter().any(|first| first.index() == index) {
                continue;
            }
            let hint = hint.clamp(-1 << 20, 1 << 20);
            let score = if position.is_noisy(mv) {
                NOISY_SCORE + hint
            } else {
                self.history[position.history_index(mv)] + hint
            };
            order.push(Ranked::new(score, index));
        }
        self.hints = hints;
    }
}

/// Lists the legal moves once the staged moves (all of `moves`: the table move and the
/// killers, at most three) failed to cut, and points the entries of `order`, `tried` and
/// `best` at their places in the full list, so the search goes on exactly as if it had
/// listed the moves at once.
pub(super) fn list_after_staged<G: AlphaBetaGame>(
    position: &G,
    moves: &mut Vec<G::Move>,
    order: &mut [Ranked],
    tried: &mut [usize],
    best: &mut Option<usize>,
) {
    debug_assert!(moves.len() <= 3);
    let staged: [Option<G::Move>; 3] = std::array::from_fn(|index| moves.get(index).copied());
    position.legal_moves(moves);
    let place = |index: usize| {
        staged[index]
            .and_then(|mv| position.find_move(moves, mv))
            .expect("a staged move is a legal move")
    };
    for entry in order.iter_mut() {
        *entry = entry.with_index(place(entry.index()));
    }
    for index in tried.iter_mut().chain(best) {
        *index = place(*index);
    }
}
