//! Running sums of where each army stands, for the evaluation: per colour, how many rings
//! inside the border its men stand, how many rows they have advanced from their own edge,
//! and those rows squared. Making a move updates them with a few table reads, so an
//! evaluation needs no pass over the men.

use std::sync::OnceLock;

use crate::board::hex::{MAX_BITS, MAX_SIDE, geometry};

/// Bits per packed field. A side never has more men than its opening (30 on side 9),
/// so every sum stays far below `2^16` (30 x 16^2 = 7680 for the squares).
const FIELD_BITS: u32 = 16;
const FIELD_MASK: u64 = (1 << FIELD_BITS) - 1;

/// One army's sums, packed three fields to a word so that adding or removing a man is
/// one addition (no field ever borrows: every true sum is non-negative and small).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Placement(u64);

impl Placement {
    /// The sum over the men of the rings each stands inside the border (0 on the border).
    #[inline]
    pub fn centre(self) -> u32 {
        (self.0 & FIELD_MASK) as u32
    }

    /// The sum over the men of the rows each has advanced from its own edge.
    #[inline]
    pub fn advanced(self) -> u32 {
        (self.0 >> FIELD_BITS & FIELD_MASK) as u32
    }

    /// The sum over the men of the squares of the rows advanced.
    #[inline]
    pub fn advanced_squared(self) -> u32 {
        (self.0 >> (2 * FIELD_BITS) & FIELD_MASK) as u32
    }

    /// Adds a man whose packed terms are `terms` (from [`table`]).
    #[inline]
    pub(super) fn add(&mut self, terms: u64) {
        self.0 = self.0.wrapping_add(terms);
    }

    /// Removes a man whose packed terms are `terms` (from [`table`]).
    #[inline]
    pub(super) fn remove(&mut self, terms: u64) {
        self.0 = self.0.wrapping_sub(terms);
    }
}

/// Per cell bit, per colour (0 White, 1 Black): one man's packed terms on board `side`
/// (all zero off the board and for sides without a geometry).
pub(super) fn table(side: usize) -> &'static [[u64; 2]] {
    static TABLES: OnceLock<Vec<Vec<[u64; 2]>>> = OnceLock::new();
    &TABLES.get_or_init(|| (0..=MAX_SIDE).map(build).collect())[side]
}

fn build(side: usize) -> Vec<[u64; 2]> {
    let mut table = vec![[0; 2]; MAX_BITS];
    let Some(geometry) = geometry(side) else {
        return table;
    };
    let last_row = geometry.rows() - 1;
    for &cell in geometry.cells() {
        let cell = cell as usize;
        let centre = (side - 1 - geometry.ring(cell)) as u64;
        let row = geometry.row(cell);
        table[cell] = [row, last_row - row].map(|advanced| {
            let advanced = advanced as u64;
            centre | advanced << FIELD_BITS | (advanced * advanced) << (2 * FIELD_BITS)
        });
    }
    table
}
