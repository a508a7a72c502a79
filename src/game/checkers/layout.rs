//! What every position on one board shares: the geometry, the cells, the restricted ring,
//! the step offsets and the placement terms. One static layout per side and border rule,
//! so a position holds one pointer instead of copies (the search copies a position at
//! every node it visits).

use std::sync::OnceLock;

use super::placement;
use crate::board::hex::{Direction, HexGeometry, MAX_SIDE, MAX_WORDS, geometry};
use crate::board::hexset::HexSet;
use crate::board::strided::StridedSet;

/// The constant tables of one board.
pub(super) struct Layout {
    pub(super) geometry: &'static HexGeometry,
    /// Every cell of the board, as the words of a [`StridedSet`] of `N` words at index
    /// `N - 1` (the word count changes where a cell sits; unused for `N` too small).
    valid: [[u64; MAX_WORDS]; MAX_WORDS],
    /// The restricted ring (the border when the rule is on, empty otherwise), as `valid`.
    restricted: [[u64; MAX_WORDS]; MAX_WORDS],
    /// The cells of each row (row `a` first), as `valid`.
    rows: [[[u64; MAX_WORDS]; MAX_WORDS]; 2 * MAX_SIDE - 1],
    /// Bit offset of one step per direction (`Direction::ALL` order).
    pub(super) offsets: [i16; 6],
    /// [`placement::table`] for this board.
    pub(super) placement_terms: &'static [[u64; 2]],
    /// Kruzno's border rule (obligations).
    pub(super) border_rule: bool,
}

impl Layout {
    fn new(geometry: &'static HexGeometry, border_rule: bool) -> Self {
        let offsets = Direction::ALL.map(|direction| geometry.offset(direction) as i16);
        // Generation pairs each direction with its opposite and shifts by the positive one.
        debug_assert!((0..3).all(|d| offsets[d] > 0 && offsets[d + 3] == -offsets[d]));
        let width = geometry.width() as i16;
        debug_assert_eq!(offsets[..3], [1, width + 1, width], "see `Layout::width`");
        let restricted = if border_rule {
            geometry.border::<MAX_WORDS>()
        } else {
            HexSet::EMPTY
        };
        let valid = geometry.valid::<MAX_WORDS>();
        Layout {
            geometry,
            valid: std::array::from_fn(|index| interleaved(valid, index + 1)),
            restricted: std::array::from_fn(|index| interleaved(restricted, index + 1)),
            rows: std::array::from_fn(|y| {
                let row = if y < geometry.rows() {
                    geometry.row_cells::<MAX_WORDS>(y)
                } else {
                    HexSet::EMPTY
                };
                std::array::from_fn(|index| interleaved(row, index + 1))
            }),
            offsets,
            placement_terms: placement::table(geometry.side()),
            border_rule,
        }
    }

    /// Every cell of the board.
    #[inline]
    pub(super) fn valid<const N: usize>(&self) -> StridedSet<N> {
        prefix(&self.valid[N - 1])
    }

    /// The restricted ring (empty without the border rule).
    #[inline]
    pub(super) fn restricted<const N: usize>(&self) -> StridedSet<N> {
        prefix(&self.restricted[N - 1])
    }

    /// The cells of row `y` (0 is row `a`).
    #[inline]
    pub(super) fn row<const N: usize>(&self, y: usize) -> StridedSet<N> {
        prefix(&self.rows[y][N - 1])
    }

    /// The row width `W` of the padded layout: the positive offsets are `1`, `W + 1` and
    /// `W`, in `Direction::ALL` order.
    #[inline]
    pub(super) fn width(&self) -> usize {
        self.offsets[2] as usize
    }
}

impl std::fmt::Debug for Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Layout")
            .field("side", &self.geometry.side())
            .field("border_rule", &self.border_rule)
            .finish()
    }
}

/// The words of `set` as a [`StridedSet`] of `count` words, padded to `MAX_WORDS`;
/// cells that do not fit are left out (such a board never uses that word count).
fn interleaved(set: HexSet<MAX_WORDS>, count: usize) -> [u64; MAX_WORDS] {
    let mut words = [0; MAX_WORDS];
    for cell in set.iter().filter(|&cell| cell < 64 * count) {
        words[cell % count] |= 1 << (cell / count);
    }
    words
}

/// The first `N` words of a board-wide set (`N` holds the board: see `empty_board`).
#[inline(always)]
fn prefix<const N: usize>(words: &[u64; MAX_WORDS]) -> StridedSet<N> {
    StridedSet::from_words(std::array::from_fn(|index| words[index]))
}

/// The layout of the board of `side` with or without the border rule, if the side has a
/// geometry.
pub(super) fn layout(side: usize, border_rule: bool) -> Option<&'static Layout> {
    static LAYOUTS: [[OnceLock<Layout>; 2]; MAX_SIDE + 1] =
        [const { [const { OnceLock::new() }; 2] }; MAX_SIDE + 1];
    let geometry = geometry(side)?;
    Some(LAYOUTS[side][usize::from(border_rule)].get_or_init(|| Layout::new(geometry, border_rule)))
}
