//! What every position on one board shares: the geometry, the cells, the restricted ring,
//! the step offsets and the placement terms. One static layout per side and border rule,
//! so a position holds one pointer instead of copies (the search copies a position at
//! every node it visits).

use std::sync::OnceLock;

use super::placement;
use crate::board::hex::{Direction, HexGeometry, MAX_SIDE, MAX_WORDS, geometry};
use crate::board::hexset::HexSet;

/// The constant tables of one board.
pub(super) struct Layout {
    pub(super) geometry: &'static HexGeometry,
    /// Every cell of the board.
    valid: [u64; MAX_WORDS],
    /// The restricted ring: the border when the rule is on, empty otherwise.
    restricted: [u64; MAX_WORDS],
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
        let restricted = if border_rule {
            geometry.border::<MAX_WORDS>()
        } else {
            HexSet::EMPTY
        };
        Layout {
            geometry,
            valid: *geometry.valid::<MAX_WORDS>().words(),
            restricted: *restricted.words(),
            offsets,
            placement_terms: placement::table(geometry.side()),
            border_rule,
        }
    }

    /// Every cell of the board.
    #[inline]
    pub(super) fn valid<const N: usize>(&self) -> HexSet<N> {
        prefix(&self.valid)
    }

    /// The restricted ring (empty without the border rule).
    #[inline]
    pub(super) fn restricted<const N: usize>(&self) -> HexSet<N> {
        prefix(&self.restricted)
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

/// The first `N` words of a board-wide set (`N` holds the board: see `empty_board`).
#[inline(always)]
fn prefix<const N: usize>(words: &[u64; MAX_WORDS]) -> HexSet<N> {
    HexSet::from_words(std::array::from_fn(|index| words[index]))
}

/// The layout of the board of `side` with or without the border rule, if the side has a
/// geometry.
pub(super) fn layout(side: usize, border_rule: bool) -> Option<&'static Layout> {
    static LAYOUTS: [[OnceLock<Layout>; 2]; MAX_SIDE + 1] =
        [const { [const { OnceLock::new() }; 2] }; MAX_SIDE + 1];
    let geometry = geometry(side)?;
    Some(LAYOUTS[side][usize::from(border_rule)].get_or_init(|| Layout::new(geometry, border_rule)))
}
