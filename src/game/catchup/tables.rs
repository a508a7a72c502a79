//! Tables for one board side, built once and shared: dense cell ordinals, neighbours by
//! ordinal (what the union-find walks) and the Zobrist keys.

use crate::random::splitmix64;

use std::sync::OnceLock;

use crate::board::HexSet;
use crate::board::hex::{self, HexGeometry, MAX_BITS, MAX_CELLS, MAX_SIDE, MAX_WORDS};

/// The cell sets used by Catchup: wide enough for side 9.
pub type Cells = HexSet<MAX_WORDS>;

/// Marks "no cell" in [`Tables::ordinal_of_bit`].
pub(super) const NO_CELL: u8 = u8::MAX;
/// Marks "off the board" in [`Tables::neighbours`]: an index past every cell.
pub(super) const NO_NEIGHBOUR: u8 = MAX_CELLS as u8;
/// Length of the per-cell arrays indexed by ordinal: every `u8` value, so indexing by an
/// ordinal held in a `u8` needs no bounds check (the checks were a measured share of
/// random playouts).
pub(super) const SLOTS: usize = 256;
/// Where a [`Tables::neighbours`] row holds its own ordinal, after the six directions.
pub(super) const SELF_SLOT: usize = 6;
/// Most cells a one-word board holds: side 5 (61 cells) and below.
pub(super) const WORD_CELLS: usize = 64;

/// Immutable per-side tables (see [`tables`]).
pub(super) struct Tables {
    pub geometry: &'static HexGeometry,
    /// Dense ordinal of every padded-layout bit, [`NO_CELL`] off the board.
    pub ordinal_of_bit: [u8; MAX_BITS],
    /// Padded-layout bit of every ordinal.
    pub bit_of_ordinal: [u16; MAX_CELLS],
    /// The neighbours of every ordinal by direction, [`NO_NEIGHBOUR`] off the board, then
    /// at [`SELF_SLOT`] the ordinal itself (so "the first neighbour, or the cell when there
    /// is none" is one lookup) and a pad to 8 bytes.
    pub neighbours: [[u8; 8]; SLOTS],
    /// Every cell of the board.
    pub valid: Cells,
    /// The neighbours of every ordinal as a one-word mask over ordinals, for boards of at
    /// most [`WORD_CELLS`] cells (all zero on larger ones): see [`super::word`].
    pub neighbour_words: [u64; WORD_CELLS],
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tables(side {})", self.geometry.side())
    }
}

impl Tables {
    fn new(geometry: &'static HexGeometry) -> Self {
        let mut tables = Tables {
            geometry,
            ordinal_of_bit: [NO_CELL; MAX_BITS],
            bit_of_ordinal: [0; MAX_CELLS],
            neighbours: [[NO_NEIGHBOUR; 8]; SLOTS],
            valid: geometry.valid(),
            neighbour_words: [0; WORD_CELLS],
        };
        for (ordinal, &bit) in geometry.cells().iter().enumerate() {
            tables.ordinal_of_bit[bit as usize] = ordinal as u8;
            tables.bit_of_ordinal[ordinal] = bit;
        }
        for (ordinal, &bit) in geometry.cells().iter().enumerate() {
            tables.neighbours[ordinal][SELF_SLOT] = ordinal as u8;
            for direction in hex::Direction::ALL {
                if let Some(next) = geometry.neighbour(bit as usize, direction) {
                    tables.neighbours[ordinal][direction.index()] = tables.ordinal_of_bit[next];
                }
            }
        }
        if geometry.cell_count() <= WORD_CELLS {
            for (ordinal, word) in tables.neighbour_words.iter_mut().enumerate() {
                for &neighbour in &tables.neighbours[ordinal][..SELF_SLOT] {
                    if neighbour != NO_NEIGHBOUR {
                        *word |= 1 << neighbour;
                    }
                }
            }
        }
        tables
    }

    /// The ordinal of a bit known to be a cell of this board.
    #[inline]
    pub fn ordinal(&self, bit: usize) -> usize {
        self.ordinal_of_bit[bit] as usize
    }
}

/// The shared tables of a side from 2 to 9; `None` for any other side.
pub(super) fn tables(side: usize) -> Option<&'static Tables> {
    static TABLES: [OnceLock<Tables>; MAX_SIDE + 1] = [const { OnceLock::new() }; MAX_SIDE + 1];
    let geometry = hex::geometry(side)?;
    Some(TABLES[side].get_or_init(|| Tables::new(geometry)))
}

/// Zobrist keys: one per (colour, cell ordinal), one for Black to move, one per limit.
pub(super) struct Keys {
    pub stones: [[u64; MAX_CELLS]; 2],
    pub black_to_move: u64,
    pub limit: [u64; 4],
}

const fn build_keys(seed: u64) -> Keys {
    let mut keys = Keys {
        stones: [[0; MAX_CELLS]; 2],
        black_to_move: 0,
        limit: [0; 4],
    };
    let mut state = seed;
    let mut colour = 0;
    while colour < 2 {
        let mut cell = 0;
        while cell < MAX_CELLS {
            let (next, key) = splitmix64(state);
            state = next;
            keys.stones[colour][cell] = key;
            cell += 1;
        }
        colour += 1;
    }
    let (next, key) = splitmix64(state);
    state = next;
    keys.black_to_move = key;
    let mut limit = 1;
    while limit < 4 {
        let (next, key) = splitmix64(state);
        state = next;
        keys.limit[limit] = key;
        limit += 1;
    }
    keys
}

/// The keys, computed at compile time from a fixed seed.
pub(super) static KEYS: Keys = build_keys(0xCA7C_4B00_5EED_0001);
