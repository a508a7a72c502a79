//! Board geometry shared by the games: hex coordinates and bitsets. (Cheversi's 8x8
//! bitboards live with Cheversi, its only user.)

/// What every word-array cell set shares, whatever the cell layout of its words: the
/// empty set, construction from words, counting, set operators and iteration in
/// increasing cell order. A set type supplies `words: [u64; N]` and its own `insert`
/// and `pop_first` (which say where a cell sits); the rest is written once, here.
macro_rules! word_set {
    ($set:ident, $iter:ident) => {
        impl<const N: usize> $set<N> {
            pub const EMPTY: Self = $set { words: [0; N] };
            /// The number of cells the set can hold.
            pub const BITS: usize = 64 * N;

            #[inline]
            pub const fn from_words(words: [u64; N]) -> Self {
                $set { words }
            }

            #[inline]
            pub fn is_empty(&self) -> bool {
                self.words.iter().all(|&word| word == 0)
            }

            #[inline]
            pub fn len(&self) -> u32 {
                self.words.iter().map(|word| word.count_ones()).sum()
            }

            /// `self` without the cells of `other`.
            #[inline]
            pub fn without(self, other: Self) -> Self {
                let mut words = self.words;
                for (word, other) in words.iter_mut().zip(other.words) {
                    *word &= !other;
                }
                $set { words }
            }

            /// The cells in increasing order.
            #[inline]
            pub fn iter(&self) -> $iter<N> {
                $iter { rest: *self }
            }
        }

        impl<const N: usize> Default for $set<N> {
            fn default() -> Self {
                Self::EMPTY
            }
        }

        impl<const N: usize> std::fmt::Debug for $set<N> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_set().entries(self.iter()).finish()
            }
        }

        #[doc = concat!("Iterator over the cells of a [`", stringify!($set), "`], lowest first.")]
        #[derive(Clone)]
        pub struct $iter<const N: usize> {
            rest: $set<N>,
        }

        impl<const N: usize> Iterator for $iter<N> {
            type Item = usize;

            #[inline]
            fn next(&mut self) -> Option<usize> {
                self.rest.pop_first()
            }
        }

        impl<const N: usize> IntoIterator for $set<N> {
            type Item = usize;
            type IntoIter = $iter<N>;

            fn into_iter(self) -> $iter<N> {
                self.iter()
            }
        }

        impl<const N: usize> FromIterator<usize> for $set<N> {
            fn from_iter<I: IntoIterator<Item = usize>>(cells: I) -> Self {
                let mut set = Self::EMPTY;
                for cell in cells {
                    set.insert(cell);
                }
                set
            }
        }

        word_set!(@operator $set, BitAnd, bitand, BitAndAssign, bitand_assign, &=);
        word_set!(@operator $set, BitOr, bitor, BitOrAssign, bitor_assign, |=);
        word_set!(@operator $set, BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

        impl<const N: usize> std::ops::Not for $set<N> {
            type Output = Self;

            /// The complement over all `64 * N` cells; mask with the board's valid cells.
            #[inline]
            fn not(self) -> Self {
                $set {
                    words: self.words.map(|word| !word),
                }
            }
        }
    };
    (@operator $set:ident, $trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl<const N: usize> std::ops::$trait for $set<N> {
            type Output = Self;
            #[inline]
            fn $method(mut self, other: Self) -> Self {
                std::ops::$assign_trait::$assign_method(&mut self, other);
                self
            }
        }

        impl<const N: usize> std::ops::$assign_trait for $set<N> {
            #[inline]
            fn $assign_method(&mut self, other: Self) {
                for (word, other) in self.words.iter_mut().zip(other.words) {
                    *word $op other;
                }
            }
        }
    };
}

pub mod hex;
pub mod hexset;
pub mod strided;

pub use hex::{Direction, HexGeometry, geometry};
pub use hexset::HexSet;
pub use strided::StridedSet;
