//! Fixed-width bitsets over the cells of a hex board, in the padded layout of
//! [`super::hex`]: a cell at axial `(x, y)` is bit `x + width * y`, so a step in any of
//! the six directions is one shift of the whole set.
//!
//! `N` is the number of 64-bit words: 1 for side 4, 2 for sides 5 and 6 (Kruzno), 3 for
//! side 7, 4 for side 8 and 5 for side 9. Shifting never needs a guard column because the
//! hexagon's cut corners keep wrapped bits off valid cells (see `super::hex`); callers
//! mask with the board's valid set after a shift.

/// A set of cells as `N` 64-bit words, bit `i` of word `w` being cell `64 * w + i`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexSet<const N: usize> {
    words: [u64; N],
}

impl<const N: usize> HexSet<N> {
    #[inline]
    pub fn words(&self) -> &[u64; N] {
        &self.words
    }

    /// The set holding one cell.
    #[inline]
    pub fn single(cell: usize) -> Self {
        let mut set = Self::EMPTY;
        set.insert(cell);
        set
    }

    #[inline]
    pub fn contains(&self, cell: usize) -> bool {
        cell < Self::BITS && self.words[cell / 64] >> (cell % 64) & 1 == 1
    }

    #[inline]
    pub fn insert(&mut self, cell: usize) {
        self.words[cell / 64] |= 1 << (cell % 64);
    }

    #[inline]
    pub fn remove(&mut self, cell: usize) {
        self.words[cell / 64] &= !(1 << (cell % 64));
    }

    #[inline]
    pub fn toggle(&mut self, cell: usize) {
        self.words[cell / 64] ^= 1 << (cell % 64);
    }

    /// The lowest cell, if any.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        self.words
            .iter()
            .enumerate()
            .find(|(_, word)| **word != 0)
            .map(|(index, word)| index * 64 + word.trailing_zeros() as usize)
    }

    /// Removes and returns the lowest cell.
    #[inline]
    pub fn pop_first(&mut self) -> Option<usize> {
        for (index, word) in self.words.iter_mut().enumerate() {
            if *word != 0 {
                let bit = word.trailing_zeros() as usize;
                *word &= *word - 1;
                return Some(index * 64 + bit);
            }
        }
        None
    }

    /// Moves every cell by `offset` bits (positive towards higher cells); bits shifted
    /// past either end are lost. `|offset|` must be below 64.
    #[inline]
    #[allow(clippy::needless_range_loop)] // each word reads its neighbour: indices are clearer
    pub fn shifted(self, offset: isize) -> Self {
        debug_assert!(offset.unsigned_abs() < 64, "shift {offset} too wide");
        let amount = offset.unsigned_abs() as u32;
        if amount == 0 {
            return self;
        }
        let mut words = [0u64; N];
        if offset > 0 {
            for index in 0..N {
                let carry = if index > 0 {
                    self.words[index - 1] >> (64 - amount)
                } else {
                    0
                };
                words[index] = (self.words[index] << amount) | carry;
            }
        } else {
            for index in 0..N {
                let carry = if index + 1 < N {
                    self.words[index + 1] << (64 - amount)
                } else {
                    0
                };
                words[index] = (self.words[index] >> amount) | carry;
            }
        }
        HexSet { words }
    }
}

// The empty set, counting, operators and iteration: written once for both layouts.
word_set!(HexSet, HexSetIter);

#[cfg(test)]
mod tests {
    use super::HexSet;

    #[test]
    fn shifts_carry_across_words_and_drop_at_the_ends() {
        let set: HexSet<3> = [0, 63, 64, 190].into_iter().collect();
        let up: Vec<usize> = set.shifted(5).iter().collect();
        assert_eq!(up, vec![5, 68, 69]);
        let down: Vec<usize> = set.shifted(-17).iter().collect();
        assert_eq!(down, vec![46, 47, 173]);
        assert_eq!(set.shifted(0), set);
    }

    #[test]
    fn set_operations_and_iteration() {
        let a: HexSet<2> = [1, 70, 100].into_iter().collect();
        let b: HexSet<2> = [70, 3].into_iter().collect();
        assert_eq!((a & b).iter().collect::<Vec<_>>(), vec![70]);
        assert_eq!((a | b).len(), 4);
        assert_eq!(a.without(b).iter().collect::<Vec<_>>(), vec![1, 100]);
        assert_eq!((a ^ b).iter().collect::<Vec<_>>(), vec![1, 3, 100]);
        assert!(a.contains(100) && !a.contains(99) && !a.contains(500));
        let mut c = a;
        assert_eq!(c.pop_first(), Some(1));
        c.remove(70);
        c.toggle(5);
        assert_eq!(c.iter().collect::<Vec<_>>(), vec![5, 100]);
        assert_eq!(c.first(), Some(5));
        assert!(HexSet::<2>::EMPTY.is_empty());
        assert_eq!((!HexSet::<1>::EMPTY).len(), 64);
    }
}
