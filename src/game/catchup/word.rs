//! The playout board for sides up to 5 (at most 61 cells): every cell set is one `u64`
//! over cell ordinals. A stone's same-coloured neighbours are one AND with a precomputed
//! neighbour mask, and each group is a mask of its cells kept at its representative, so
//! taking away a whole group's cells from the neighbours visits each neighbouring group
//! once, and a merge is one OR plus relabelling the smaller group's cells. The playouts'
//! hot path; [`PlayoutBoard`](super::PlayoutBoard) serves larger sides.

use std::cmp::Ordering;

use super::groups::Contacts;
use super::playout::{CellBuffer, PlayoutPosition, Turn};
use super::position::{Catchup, outcome_of};
use super::tables::{SLOTS, Tables, WORD_CELLS};
use crate::game::{Outcome, Owners, Player};

/// The highest bit, never a cell of a one-word board (those have fewer than
/// `WORD_CELLS` cells): relabelling writes meant for a group's missing cells go to its
/// label slot.
const SPARE: u64 = 1 << (WORD_CELLS - 1);

/// One in every byte of a word.
const EVERY_BYTE: u64 = 0x0101_0101_0101_0101;

/// For every byte value, the positions of its set bits in increasing order, packed into
/// the low bytes of a word.
static BIT_POSITIONS: [u64; 256] = bit_positions();

const fn bit_positions() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut count) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte] |= (bit as u64) << (8 * count);
                count += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
}

/// An index into the per-cell arrays: masked to their length, which every ordinal of a
/// one-word board is below, so indexing needs no bounds check.
#[inline(always)]
fn slot(value: impl Into<u32>) -> usize {
    value.into() as usize & (WORD_CELLS - 1)
}

/// A position for random playouts on a board of at most 64 cells (see
/// [`Catchup::word_board`]), cells as ordinals.
#[derive(Clone)]
pub struct WordBoard {
    neighbours: &'static [u64; WORD_CELLS],
    /// The neighbours of every cell as ordinals (the knowledge playout's frontier).
    neighbour_lists: &'static [[u8; 8]; SLOTS],
    /// Every cell of the board.
    cells: u64,
    /// Stones per player (index 0 White, 1 Black).
    stones: [u64; 2],
    /// The representative cell of the stone's group. Meaningful for stones only.
    label: [u8; WORD_CELLS],
    /// The cells of a group, at its representative. Zero at every empty cell (a new
    /// stone's group starts from its own entry); stale at stones that stopped being
    /// representatives.
    members: [u64; WORD_CELLS],
    /// Largest group per player (0 while the player has no stone).
    largest: [u8; 2],
    turn: Turn,
}

impl Catchup {
    /// The position as a [`WordBoard`], for sides up to 5; `None` on larger boards.
    pub fn word_board(&self) -> Option<WordBoard> {
        self.fits_word_board().then(|| WordBoard::new(self))
    }

    /// True when the board has fewer than `WORD_CELLS` cells (sides up to 5), so that
    /// `WordBoard::new` takes the position.
    #[inline]
    pub fn fits_word_board(&self) -> bool {
        self.tables.geometry.cell_count() < WORD_CELLS
    }
}

impl WordBoard {
    /// The position as a word board; it must fit ([`Catchup::fits_word_board`]). The
    /// board is returned as built, not wrapped in an option, so that it is built where
    /// the caller keeps it instead of copied there.
    pub(crate) fn new(position: &Catchup) -> WordBoard {
        debug_assert!(position.fits_word_board());
        let tables: &'static Tables = position.tables;
        let cell_count = tables.geometry.cell_count();
        let mut board = WordBoard {
            neighbours: &tables.neighbour_words,
            neighbour_lists: &tables.neighbours,
            cells: u64::MAX >> (WORD_CELLS - cell_count),
            stones: [0; 2],
            label: [0; WORD_CELLS],
            members: [0; WORD_CELLS],
            largest: [
                position.largest_group(Player::One) as u8,
                position.largest_group(Player::Two) as u8,
            ],
            turn: Turn::of(position),
        };
        for (index, stones) in position.stones.iter().enumerate() {
            for bit in stones.iter() {
                let cell = tables.ordinal(bit);
                let root = position.groups.root(cell) as u8;
                board.stones[index] |= 1 << cell;
                board.label[slot(cell as u32)] = root;
                board.members[slot(root)] |= 1 << cell;
            }
        }
        board
    }

    /// How many groups of each size player `index` has.
    fn size_counts(&self, index: usize) -> [u8; WORD_CELLS + 1] {
        let mut counts = [0u8; WORD_CELLS + 1];
        let mut rest = self.stones[index];
        while rest != 0 {
            let group = self.members[slot(self.label[slot(rest.trailing_zeros())])];
            counts[group.count_ones() as usize] += 1;
            rest &= !group;
        }
        counts
    }

    /// Compares player 1's sorted group sizes with player 2's (padded with zeros), as
    /// [`Catchup::compare_groups`]: by the largest groups, then from the largest size
    /// down by how many groups of that size each player has.
    fn compare(&self) -> Ordering {
        let first = self.largest[0].cmp(&self.largest[1]);
        if first != Ordering::Equal {
            return first;
        }
        let counts = [self.size_counts(0), self.size_counts(1)];
        (1..=usize::from(self.largest[0]))
            .rev()
            .map(|size| counts[0][size].cmp(&counts[1][size]))
            .find(|order| order.is_ne())
            .unwrap_or(Ordering::Equal)
    }
}

impl PlayoutPosition for WordBoard {
    #[inline]
    fn cell_count(&self) -> usize {
        self.cells.count_ones() as usize
    }

    #[inline]
    fn empty_cells(&self, excluded: &[u8], buffer: &mut CellBuffer) -> usize {
        let mut rest = self.cells & !(self.stones[0] | self.stones[1]);
        for &cell in excluded {
            rest &= !(1 << slot(cell));
        }
        // Eight cells at a time: a byte's set bits become up to eight entries at once (the
        // bytes written past them are overwritten by the next chunk or left unused).
        let mut count = 0;
        for chunk in 0..WORD_CELLS / 8 {
            let byte = (rest >> (8 * chunk)) as u8;
            let entries = BIT_POSITIONS[usize::from(byte)] + (8 * chunk as u64) * EVERY_BYTE;
            buffer[count..count + 8].copy_from_slice(&entries.to_le_bytes());
            count += byte.count_ones() as usize;
        }
        count
    }

    #[inline]
    fn player_score(&self, player: Player) -> usize {
        usize::from(self.largest[player.index()].max(1))
    }

    /// The lowest neighbour's group takes the stone; every other neighbouring group is
    /// visited once and merged into the larger side.
    #[inline(always)]
    fn place(&mut self, cell: u8, index: usize) {
        let at = slot(cell);
        let bit = 1u64 << at;
        debug_assert_eq!((self.stones[0] | self.stones[1]) & bit, 0);
        let own = self.stones[index];
        self.stones[index] = own | bit;
        let mut adjacent = self.neighbours[at] & own;
        // The stone joins the group of its lowest neighbour, or a new group of its own
        // (whose entry is still zero): one path without branches for both.
        self.label[at] = cell;
        let first = if adjacent != 0 { adjacent } else { bit };
        let mut root = self.label[slot(first.trailing_zeros())];
        let mut members = self.members[slot(root)] | bit;
        self.members[slot(root)] = members;
        self.label[at] = root;
        // Every other neighbouring group once: its cells leave `adjacent` as it merges.
        adjacent &= !members;
        while adjacent != 0 {
            let other = self.label[slot(adjacent.trailing_zeros())];
            let other_members = self.members[slot(other)];
            adjacent &= !other_members;
            let (big, small, moved) = if members.count_ones() >= other_members.count_ones() {
                (root, other, other_members)
            } else {
                (other, root, members)
            };
            debug_assert_ne!(big, small);
            // The first three cells without a test, as most moved groups are that small (a
            // missing cell writes the spare slot): the loop's exit was mispredicted about
            // once per merge. Then any others.
            let mut rest = moved;
            self.label[slot(rest.trailing_zeros())] = big;
            rest &= rest - 1;
            for _ in 0..2 {
                self.label[slot((rest | SPARE).trailing_zeros())] = big;
                rest &= rest.wrapping_sub(1);
            }
            while rest != 0 {
                self.label[slot(rest.trailing_zeros())] = big;
                rest &= rest - 1;
            }
            members |= other_members;
            self.members[slot(big)] = members;
            root = big;
        }
        self.largest[index] = self.largest[index].max(members.count_ones() as u8);
    }

    #[inline]
    fn leader(&self) -> Outcome {
        outcome_of(self.compare())
    }

    /// Each neighbouring group once: its cells leave the neighbour mask as it is counted.
    #[inline]
    fn contacts(&self, cell: u8, index: usize) -> Contacts {
        let around = self.neighbours[slot(cell)];
        let mut contacts = Contacts {
            joined_size: 1,
            ..Contacts::default()
        };
        let mut own = around & self.stones[index];
        while own != 0 {
            let group = self.members[slot(self.label[slot(own.trailing_zeros())])];
            own &= !group;
            contacts.own_groups += 1;
            contacts.joined_size += group.count_ones() as u8;
        }
        let mut opponent = around & self.stones[1 - index];
        while opponent != 0 {
            let group = self.members[slot(self.label[slot(opponent.trailing_zeros())])];
            opponent &= !group;
            contacts.opponent_groups += 1;
            contacts.opponent_largest = contacts.opponent_largest.max(group.count_ones() as u8);
        }
        contacts
    }

    #[inline]
    fn touches_stone(&self, cell: u8) -> bool {
        self.neighbours[slot(cell)] & (self.stones[0] | self.stones[1]) != 0
    }

    #[inline]
    fn touches_own(&self, cell: u8, index: usize) -> bool {
        self.neighbours[slot(cell)] & self.stones[index] != 0
    }

    #[inline]
    fn neighbour_ordinals(&self, cell: u8) -> &[u8; 8] {
        &self.neighbour_lists[usize::from(cell)]
    }

    #[inline]
    fn owners(&self) -> Owners {
        Owners::of_words(self.stones[0], self.stones[1])
    }

    #[inline]
    fn turn(&self) -> &Turn {
        &self.turn
    }

    #[inline]
    fn turn_mut(&mut self) -> &mut Turn {
        &mut self.turn
    }
}
