//! The solver's Cheversi position, apart from its methods (in the module root and the
//! files of each phase of the ending), so every phase can name it.

use crate::game::cheversi::Cheversi;

/// No margin reaches this (each side attacks fewer than 128 squares with its pieces).
pub(super) const VALUE_BOUND: i32 = 127;

/// A Cheversi position with White's margin (White's points minus Black's) kept.
#[derive(Clone, Debug)]
pub struct CheversiState {
    pub(super) position: Cheversi,
    pub(super) margin: i32,
}
