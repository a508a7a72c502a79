//! Strided ("interleaved") sets over the padded cells of a hex board: cell `c` is bit
//! `c / N` of word `c % N`, where a [`HexSet`] keeps it at bit `c % 64` of word `c / 64`.
//!
//! Moving every cell by a constant `k = N * q + r` then sends word `j` whole to word
//! `(j + r) % N`, shifted by `q` bits, or by `q + 1` when the word index wraps: one plain
//! shift per word, where a [`HexSet`] shift merges two source words per word (a double
//! shift, several micro-operations on some processors). Checkers' move generation shifts
//! whole sets a dozen times per node, so it keeps its men in this form.
//!
//! Both forms hold the same cells `0..64 * N` and lose the same cells when shifted past
//! either end, so a strided shift equals the [`HexSet`] shift cell for cell; callers mask
//! the result with the board's valid cells as before. Iteration goes in increasing cell
//! order, as a [`HexSet`]'s does.

use super::hexset::HexSet;

/// A set of cells as `N` interleaved 64-bit words (see the module doc).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct StridedSet<const N: usize> {
    words: [u64; N],
}

impl<const N: usize> StridedSet<N> {
    /// The words: cell `c` is bit `c / N` of word `c % N`.
    #[inline]
    pub fn words(&self) -> &[u64; N] {
        &self.words
    }

    /// The word and bit of `cell`.
    #[inline(always)]
    fn place(cell: usize) -> (usize, u32) {
        (cell % N, (cell / N) as u32)
    }

    #[inline]
    pub fn contains(&self, cell: usize) -> bool {
        let (word, bit) = Self::place(cell);
        cell < Self::BITS && self.words[word] >> bit & 1 == 1
    }

    #[inline]
    pub fn insert(&mut self, cell: usize) {
        let (word, bit) = Self::place(cell);
        self.words[word] |= 1 << bit;
    }

    #[inline]
    pub fn remove(&mut self, cell: usize) {
        let (word, bit) = Self::place(cell);
        self.words[word] &= !(1 << bit);
    }

    /// [`Self::insert`] for a set kept in registers: every word is updated, the right one
    /// selected by comparison. A write at a computed index keeps the set in memory, and a
    /// whole-set read right after it then stalls on the partial write (chain generation
    /// did so at every jump). A set in memory anyway (a position's) does better with
    /// `insert`, which writes one word.
    #[inline]
    pub fn insert_by_select(&mut self, cell: usize) {
        let (word, bit) = Self::place(cell);
        for (index, value) in self.words.iter_mut().enumerate() {
            *value |= u64::from(index == word) << bit;
        }
    }

    /// [`Self::remove`] for a set kept in registers (see [`Self::insert_by_select`]).
    #[inline]
    pub fn remove_by_select(&mut self, cell: usize) {
        let (word, bit) = Self::place(cell);
        for (index, value) in self.words.iter_mut().enumerate() {
            *value &= !(u64::from(index == word) << bit);
        }
    }

    /// Every cell `c` moved to `c + amount`; cells past the last are lost. One plain
    /// shift per word: with a constant `amount`, the word moves and shift counts are
    /// constants too.
    #[inline(always)]
    pub fn shifted_up(self, amount: usize) -> Self {
        let (quotient, remainder) = ((amount / N) as u32, amount % N);
        debug_assert!(quotient < 63, "shift {amount} too wide");
        let mut words = [0; N];
        for (index, &word) in self.words.iter().enumerate() {
            let target = index + remainder;
            if target < N {
                words[target] = word << quotient;
            } else {
                words[target - N] = word << (quotient + 1);
            }
        }
        StridedSet { words }
    }

    /// Every cell `c` moved to `c - amount`; cells below 0 are lost (see
    /// [`Self::shifted_up`]).
    #[inline(always)]
    pub fn shifted_down(self, amount: usize) -> Self {
        let (quotient, remainder) = ((amount / N) as u32, amount % N);
        debug_assert!(quotient < 63, "shift {amount} too wide");
        let mut words = [0; N];
        for (index, &word) in self.words.iter().enumerate() {
            if index >= remainder {
                words[index - remainder] = word >> quotient;
            } else {
                words[index + N - remainder] = word >> (quotient + 1);
            }
        }
        StridedSet { words }
    }

    /// Every cell moved by `offset` (positive towards higher cells), as
    /// [`HexSet::shifted`].
    #[inline]
    pub fn shifted(self, offset: isize) -> Self {
        if offset >= 0 {
            self.shifted_up(offset as usize)
        } else {
            self.shifted_down(offset.unsigned_abs())
        }
    }

    /// Calls `visit` with every cell in increasing order. The bit positions holding any
    /// cell are taken in turn, then the words holding that bit: a cell is
    /// `N * bit + word`, so this is cell order.
    #[inline(always)]
    pub fn for_each(self, mut visit: impl FnMut(usize)) {
        let mut bits = self.words.iter().fold(0, |any, word| any | word);
        while bits != 0 {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            for (index, &word) in self.words.iter().enumerate() {
                if word >> bit & 1 == 1 {
                    visit(N * bit as usize + index);
                }
            }
        }
    }

    /// Removes and returns the lowest cell.
    #[inline]
    pub fn pop_first(&mut self) -> Option<usize> {
        let bit = self
            .words
            .iter()
            .fold(0, |any, word| any | word)
            .trailing_zeros();
        if bit == 64 {
            return None;
        }
        let index = self.words.iter().position(|word| word >> bit & 1 == 1)?;
        self.words[index] &= !(1 << bit);
        Some(N * bit as usize + index)
    }
}

// The empty set, counting, operators and iteration: written once for both layouts.
word_set!(StridedSet, StridedSetIter);

impl<const N: usize> From<HexSet<N>> for StridedSet<N> {
    fn from(set: HexSet<N>) -> Self {
        set.iter().collect()
    }
}

impl<const N: usize> From<StridedSet<N>> for HexSet<N> {
    fn from(set: StridedSet<N>) -> Self {
        set.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::StridedSet;
    use crate::board::hexset::HexSet;
    use crate::random::SplitMix64;

    /// A random set of `64 * N` cells, sparse or dense.
    fn random_set<const N: usize>(rng: &mut SplitMix64) -> HexSet<N> {
        let density = rng.below(4);
        HexSet::from_words(std::array::from_fn(|_| {
            (0..density).fold(rng.next_u64(), |word, _| word & rng.next_u64())
        }))
    }

    /// Every shift the checkers boards use (and a few more) moves the same cells as the
    /// [`HexSet`] shift.
    fn shifts_match<const N: usize>() {
        let mut rng = SplitMix64::new(N as u64);
        for _ in 0..500 {
            let set = random_set::<N>(&mut rng);
            let strided = StridedSet::from(set);
            assert_eq!(HexSet::from(strided), set);
            for amount in 1..=40 {
                let amount = amount as isize;
                for offset in [amount, -amount] {
                    assert_eq!(
                        HexSet::from(strided.shifted(offset)),
                        set.shifted(offset),
                        "{set:?} by {offset}"
                    );
                }
            }
        }
    }

    #[test]
    fn shifts_move_the_same_cells_as_hexset_shifts() {
        shifts_match::<1>();
        shifts_match::<2>();
        shifts_match::<3>();
        shifts_match::<5>();
    }

    #[test]
    fn set_operations_and_iteration_in_cell_order() {
        let a: StridedSet<5> = [1, 70, 100, 288, 319].into_iter().collect();
        let b: StridedSet<5> = [70, 3].into_iter().collect();
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![1, 70, 100, 288, 319]);
        assert_eq!((a & b).iter().collect::<Vec<_>>(), vec![70]);
        assert_eq!((a | b).len(), 6);
        assert_eq!(
            a.without(b).iter().collect::<Vec<_>>(),
            vec![1, 100, 288, 319]
        );
        assert_eq!(
            (a ^ b).iter().collect::<Vec<_>>(),
            vec![1, 3, 100, 288, 319]
        );
        assert!(a.contains(288) && !a.contains(99) && !a.contains(500));
        let mut c = a;
        assert_eq!(c.pop_first(), Some(1));
        c.remove(70);
        c.insert(5);
        let mut visited = Vec::new();
        c.for_each(|cell| visited.push(cell));
        assert_eq!(visited, vec![5, 100, 288, 319]);
        assert!(StridedSet::<2>::EMPTY.is_empty() && !c.is_empty());
        assert_eq!((!StridedSet::<2>::EMPTY).len(), 128);
        let mut rng = SplitMix64::new(9);
        for _ in 0..200 {
            let set = random_set::<2>(&mut rng);
            let strided = StridedSet::from(set);
            assert_eq!(
                strided.iter().collect::<Vec<_>>(),
                set.iter().collect::<Vec<_>>()
            );
            assert_eq!(strided.len(), set.len());
        }
    }
}
