//! Fixed-width bitsets over the cells of a hex board, in the padded layout of
//! [`super::hex`]: a cell at axial `(x, y)` is bit `x + width * y`, so a step in any of
//! the six directions is one shift of the whole set.
//!
//! `N` is the number of 64-bit words: 1 for side 4, 2 for sides 5 and 6 (Kruzno), 3 for
//! side 7, 4 for side 8 and 5 for side 9. Shifting never needs a guard column because the
//! hexagon's cut corners keep wrapped bits off valid cells (see `super::hex`); callers
//! mask with the board's valid set after a shift.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells as `N` 64-bit words, bit `i` of word `w` being cell `64 * w + i`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexSet<const N: usize> {
    words: [u64; N],
}

impl<const N: usize> HexSet<N> {
    pub const EMPTY: Self = HexSet { words: [0; N] };
    /// The number of bits the set can hold.
    pub const BITS: usize = 64 * N;

    #[inline]
    pub const fn from_words(words: [u64; N]) -> Self {
        HexSet { words }
    }

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
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&word| word == 0)
    }

    #[inline]
    pub fn len(&self) -> u32 {
        self.words.iter().map(|word| word.count_ones()).sum()
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

    /// `self` without the cells of `other`.
    #[inline]
    pub fn without(self, other: Self) -> Self {
        let mut words = self.words;
        for (word, other) in words.iter_mut().zip(other.words) {
            *word &= !other;
        }
        HexSet { words }
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

    /// The cells in increasing order (canonical order: by row, then cell number).
    #[inline]
    pub fn iter(&self) -> HexSetIter<N> {
        HexSetIter { rest: *self }
    }
}

impl<const N: usize> Default for HexSet<N> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const N: usize> std::fmt::Debug for HexSet<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterator over the cells of a [`HexSet`], lowest first.
#[derive(Clone)]
pub struct HexSetIter<const N: usize> {
    rest: HexSet<N>,
}

impl<const N: usize> Iterator for HexSetIter<N> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        self.rest.pop_first()
    }
}

impl<const N: usize> IntoIterator for HexSet<N> {
    type Item = usize;
    type IntoIter = HexSetIter<N>;

    fn into_iter(self) -> HexSetIter<N> {
        self.iter()
    }
}

impl<const N: usize> FromIterator<usize> for HexSet<N> {
    fn from_iter<I: IntoIterator<Item = usize>>(cells: I) -> Self {
        let mut set = Self::EMPTY;
        for cell in cells {
            set.insert(cell);
        }
        set
    }
}

macro_rules! word_operator {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl<const N: usize> $trait for HexSet<N> {
            type Output = Self;
            #[inline]
            fn $method(mut self, other: Self) -> Self {
                self.$assign_method(other);
                self
            }
        }

        impl<const N: usize> $assign_trait for HexSet<N> {
            #[inline]
            fn $assign_method(&mut self, other: Self) {
                for (word, other) in self.words.iter_mut().zip(other.words) {
                    *word $op other;
                }
            }
        }
    };
}

word_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
word_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
word_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const N: usize> Not for HexSet<N> {
    type Output = Self;

    /// The complement over all `64 * N` bits; mask with the board's valid cells.
    #[inline]
    fn not(self) -> Self {
        HexSet {
            words: self.words.map(|word| !word),
        }
    }
}

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
