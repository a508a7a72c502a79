//! The playout board for sides up to 5 (at most 61 cells): every cell set is one `u64`
//! over cell ordinals. A stone's same-coloured neighbours are one AND with a precomputed
//! neighbour mask, and each group is a mask of its cells kept at its representative, so
//! taking away a whole group's cells from the neighbours visits each neighbouring group
//! once, and a merge is one OR plus relabelling the smaller group's cells. The playouts'
//! hot path; [`PlayoutBoard`](super::PlayoutBoard) serves larger sides.

use std::cmp::Ordering;

use super::playout::{CellBuffer, Contacts, PlayoutPosition, Turn};
use super::tables::{SLOTS, Tables, WORD_CELLS};
use super::{Catchup, outcome_of};
use crate::game::{Outcome, Player};

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

/// The ordinal of the `rank`-th set bit of `word` (from 0, in increasing order; `rank`
/// below its bit count), without a loop: the bytes' bit counts summed up to each byte
/// find the byte, then [`BIT_POSITIONS`] the bit in it.
#[inline]
pub fn select_bit(word: u64, rank: u32) -> u32 {
    debug_assert!(rank < word.count_ones());
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let pairs = word - ((word >> 1) & 0x5555_5555_5555_5555);
    let nibbles = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
    let bytes = (nibbles + (nibbles >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i of `through` counts the set bits of bytes 0 to i (at most 64: no carry).
    let through = bytes.wrapping_mul(EVERY_BYTE);
    // The high bit of byte i is set where that count exceeds `rank`.
    let past = ((through | HIGH_BITS) - u64::from(rank + 1) * EVERY_BYTE) & HIGH_BITS;
    let byte = past.trailing_zeros() / 8;
    let before = ((through << 8) >> (8 * byte)) as u8;
    let within = rank - u32::from(before);
    let chunk = (word >> (8 * byte)) as u8;
    8 * byte + ((BIT_POSITIONS[usize::from(chunk)] >> (8 * within)) & 0xFF) as u32
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
pub struct WordBoard<const HALOS: bool = false> {
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
    /// The cells next to a group (its stones may be among them), at its representative,
    /// like `members`: the knowledge playout reads which empty cells touch which group.
    halo: [u64; WORD_CELLS],
    /// Each player's group representatives, `root_count` of them: the knowledge
    /// playout reads every group's halo from one list instead of following the groups
    /// through the stones (a chain of dependent loads).
    roots: [[u8; WORD_CELLS]; 2],
    root_count: [u8; 2],
    /// Each representative's place in its player's `roots`.
    root_index: [u8; WORD_CELLS],
    /// The cells next to any stone of each player.
    adjacent: [u64; 2],
    /// The union of the halos of each player's largest groups (those of the size of
    /// `largest`), kept as groups grow: a stone there raises that player's score.
    largest_halo: [u64; 2],
    /// Largest group per player (0 while the player has no stone).
    largest: [u8; 2],
    turn: Turn,
}

impl Catchup {
    /// The position as a [`WordBoard`], for sides up to 5; `None` on larger boards.
    pub fn word_board(&self) -> Option<WordBoard> {
        self.fits_word_board()
            .then(|| WordBoard::<false>::new(self))
    }

    /// True when the board has fewer than `WORD_CELLS` cells (sides up to 5), so that
    /// `WordBoard::new` takes the position.
    #[inline]
    pub fn fits_word_board(&self) -> bool {
        self.tables.geometry.cell_count() < WORD_CELLS
    }
}

impl<const HALOS: bool> WordBoard<HALOS> {
    /// The position as a word board; it must fit ([`Catchup::fits_word_board`]). The
    /// board is returned as built, not wrapped in an option, so that it is built where
    /// the caller keeps it instead of copied there.
    pub(crate) fn new(position: &Catchup) -> WordBoard<HALOS> {
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
            halo: [0; WORD_CELLS],
            roots: [[0; WORD_CELLS]; 2],
            root_count: [0; 2],
            root_index: [0; WORD_CELLS],
            adjacent: [0; 2],
            largest_halo: [0; 2],
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
                if HALOS {
                    board.halo[slot(root)] |= board.neighbours[slot(cell as u32)];
                    board.adjacent[index] |= board.neighbours[slot(cell as u32)];
                }
            }
        }
        for index in 0..2 {
            if !HALOS {
                break;
            }
            let mut rest = board.stones[index];
            while rest != 0 {
                let root = board.label[slot(rest.trailing_zeros())];
                let group = board.members[slot(root)];
                rest &= !group;
                let count = board.root_count[index];
                board.roots[index][slot(count)] = root;
                board.root_index[slot(root)] = count;
                board.root_count[index] = count + 1;
                if group.count_ones() == u32::from(board.largest[index]) {
                    board.largest_halo[index] |= board.halo[slot(root)];
                }
            }
        }
        board
    }

    /// The empty cells as a mask over ordinals.
    #[inline]
    pub fn empty_mask(&self) -> u64 {
        self.cells & !(self.stones[0] | self.stones[1])
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

/// What the knowledge playout reads, kept only by a board with halos.
impl WordBoard<true> {
    /// The cells next to a stone of player `index` (stones among them).
    #[inline]
    pub fn adjacent_mask(&self, index: usize) -> u64 {
        self.adjacent[index]
    }

    /// The cells next to a largest group of player `index` (stones among them; none
    /// while it has no stone).
    #[inline]
    pub fn largest_halo(&self, index: usize) -> u64 {
        self.largest_halo[index]
    }

    /// The largest group of player `index` (0 while it has no stone).
    #[inline]
    pub fn largest(&self, index: usize) -> usize {
        usize::from(self.largest[index])
    }

    /// Calls `visit` with the halo and the size of every group of player `index`.
    #[inline(always)]
    pub fn for_each_group(&self, index: usize, mut visit: impl FnMut(u64, u8)) {
        let count = usize::from(self.root_count[index]);
        for &root in &self.roots[index][..count] {
            visit(
                self.halo[slot(root)],
                self.members[slot(root)].count_ones() as u8,
            );
        }
    }
}

impl<const HALOS: bool> PlayoutPosition for WordBoard<HALOS> {
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
        let around = self.neighbours[at];
        let mut adjacent = around & own;
        if HALOS {
            self.adjacent[index] |= around;
            // A stone next to none of its own starts a group: listed without a branch
            // (the entry past the list is written either way).
            let count = self.root_count[index];
            self.roots[index][slot(count)] = cell;
            self.root_index[at] = count;
            self.root_count[index] = count + u8::from(adjacent == 0);
        }
        // The stone joins the group of its lowest neighbour, or a new group of its own
        // (whose entry is still zero): one path without branches for both.
        self.label[at] = cell;
        let first = if adjacent != 0 { adjacent } else { bit };
        let mut root = self.label[slot(first.trailing_zeros())];
        let mut members = self.members[slot(root)] | bit;
        self.members[slot(root)] = members;
        let mut halo = if HALOS {
            self.halo[slot(root)] | around
        } else {
            0
        };
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
            if HALOS {
                // The absorbed group leaves the list: the last entry takes its place.
                let place = self.root_index[slot(small)];
                let last_place = self.root_count[index] - 1;
                let last = self.roots[index][slot(last_place)];
                self.roots[index][slot(place)] = last;
                self.root_index[slot(last)] = place;
                self.root_count[index] = last_place;
            }
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
            halo |= self.halo[slot(other)];
            root = big;
        }
        self.halo[slot(root)] = halo;
        // The largest groups' halos: replaced by a new largest, joined by an equal one.
        let size = members.count_ones() as u8;
        let largest = self.largest[index];
        let kept = if size > largest {
            0
        } else {
            self.largest_halo[index]
        };
        let added = if size >= largest { halo } else { 0 };
        self.largest_halo[index] = kept | added;
        self.largest[index] = largest.max(size);
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
    fn turn(&self) -> &Turn {
        &self.turn
    }

    #[inline]
    fn turn_mut(&mut self) -> &mut Turn {
        &mut self.turn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::game::catchup::{Catchup, Move};
    use crate::search::rng::seeded;

    #[test]
    fn select_bit_finds_every_set_bit_in_order() {
        let mut rng = seeded(3);
        for round in 0..2000 {
            let word = match round {
                0 => u64::MAX,
                1 => 1 << 63,
                2 => 1,
                _ => rng.next_u64() & rng.next_u64(),
            };
            let mut rest = word;
            let mut rank = 0;
            while rest != 0 {
                assert_eq!(select_bit(word, rank), rest.trailing_zeros(), "{word:x}");
                rest &= rest - 1;
                rank += 1;
            }
        }
    }

    /// The halos, adjacent cells and largest halos rebuilt from the stones.
    fn check_masks(board: &WordBoard<true>) {
        for index in 0..2 {
            let mut adjacent = 0;
            let mut largest_halo = 0;
            let mut roots = Vec::new();
            let mut rest = board.stones[index];
            while rest != 0 {
                let root = board.label[slot(rest.trailing_zeros())];
                let group = board.members[slot(root)];
                rest &= !group;
                roots.push(root);
                let mut halo = 0;
                let mut cells = group;
                while cells != 0 {
                    halo |= board.neighbours[slot(cells.trailing_zeros())];
                    cells &= cells - 1;
                }
                assert_eq!(board.halo[slot(root)], halo, "group at {root}");
                adjacent |= halo;
                if group.count_ones() == u32::from(board.largest[index]) {
                    largest_halo |= halo;
                }
            }
            assert_eq!(board.adjacent[index], adjacent, "player {index}");
            let mut listed = board.roots[index][..usize::from(board.root_count[index])].to_vec();
            listed.sort_unstable();
            roots.sort_unstable();
            assert_eq!(listed, roots, "player {index}");
            assert_eq!(board.largest_halo[index], largest_halo, "player {index}");
        }
    }

    #[test]
    fn halos_follow_the_groups_through_random_stones() {
        let mut rng = seeded(5);
        for game in 0..200 {
            let side = 2 + game % 4;
            let position = Catchup::empty_board(side, crate::game::CatchupRule::Revised)
                .expect("sides 2 to 5");
            let mut board = WordBoard::<true>::new(&position);
            while board.empty_mask() != 0 {
                let empty = board.empty_mask();
                let cell = select_bit(empty, rng.below(empty.count_ones() as usize) as u32);
                board.place(cell as u8, rng.below(2));
                check_masks(&board);
            }
        }
    }

    #[test]
    fn a_board_built_from_a_position_starts_with_its_halos() {
        let mut rng = seeded(7);
        for game in 0..100 {
            let side = 2 + game % 4;
            let mut position = Catchup::empty_board(side, crate::game::CatchupRule::Original)
                .expect("sides 2 to 5");
            while position.outcome().is_none() {
                let cells: Vec<usize> = position.empty_cells().iter().collect();
                let count = 1 + rng.below(position.stones_allowed());
                let mut chosen: Vec<usize> = Vec::new();
                while chosen.len() < count {
                    let cell = cells[rng.below(cells.len())];
                    if !chosen.contains(&cell) {
                        chosen.push(cell);
                    }
                }
                position.play_unchecked(Move::from_cells(&chosen).expect("distinct cells"));
                check_masks(&WordBoard::<true>::new(&position));
            }
        }
    }
}
