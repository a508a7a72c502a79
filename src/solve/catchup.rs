//! Catchup for the solver: a compact position (one 64-bit set of cells per colour, by cell
//! ordinal, so sides 2 to 5), whole turns as moves, and a key that is the smallest image
//! of the position under the hexagon's twelve symmetries (turns by 60 degrees and
//! mirrors, which keep every neighbourhood and hence the rules).
//!
//! Values are +1 (the side to move wins) and -1: a draw cannot happen (odd cell counts).
//! The engine's own [`Catchup`] stays the reference: the tests compare this board's values
//! with a plain minimax over it, and positions come in as its position strings.

use std::sync::OnceLock;

use crate::board::hex::{Direction, geometry};
use crate::game::catchup::{Catchup, next_limit};
use crate::game::{CatchupRule, Player, Rules};

use super::search::{Child, Solvable};
use super::table::Key;

/// Largest board side whose cells fit one 64-bit set (61 cells).
pub const MAX_SOLVE_SIDE: usize = 5;

/// Fixed facts of one board side: neighbours, names and the symmetries.
pub struct CatchupTables {
    cells: usize,
    /// Each ordinal's neighbours as a set of ordinals.
    neighbours: Vec<u64>,
    /// Each ordinal's cell name (`c3`).
    names: Vec<String>,
    /// Each ordinal's distance from the centre.
    ring: Vec<i32>,
    /// Per symmetry and byte of a set, the image of that byte's cells.
    images: Vec<Vec<[u64; 256]>>,
}

impl std::fmt::Debug for CatchupTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CatchupTables({} cells)", self.cells)
    }
}

static TABLES: [OnceLock<Option<CatchupTables>>; MAX_SOLVE_SIDE + 1] =
    [const { OnceLock::new() }; MAX_SOLVE_SIDE + 1];

/// The tables of `side` (2 to [`MAX_SOLVE_SIDE`]), built once.
pub fn tables(side: usize) -> Option<&'static CatchupTables> {
    TABLES
        .get(side)?
        .get_or_init(|| CatchupTables::new(side))
        .as_ref()
}

impl CatchupTables {
    fn new(side: usize) -> Option<Self> {
        let geometry = geometry(side)?;
        let bits = geometry.cells();
        let cells = bits.len();
        if cells > 64 {
            return None;
        }
        let ordinal = |bit: usize| geometry.ordinal(bit);
        let neighbours = bits
            .iter()
            .map(|&bit| {
                Direction::ALL
                    .iter()
                    .filter_map(|&direction| geometry.neighbour(bit as usize, direction))
                    .filter_map(ordinal)
                    .fold(0u64, |set, other| set | 1 << other)
            })
            .collect();
        let names = bits
            .iter()
            .map(|&bit| geometry.cell_name(bit as usize))
            .collect();
        let ring = bits
            .iter()
            .map(|&bit| geometry.ring(bit as usize) as i32)
            .collect();
        // Axial coordinates centred on the middle cell: (a, b) = (x - c, y - c). A turn by
        // 60 degrees maps (a, b) to (a - b, a) and the mirror swaps a and b; both keep the
        // hexagon, and together they give the twelve symmetries.
        let centre = (side - 1) as isize;
        let width = geometry.width() as isize;
        let mut images = Vec::with_capacity(12);
        for mirror in [false, true] {
            for turns in 0..6 {
                let image: Vec<usize> = bits
                    .iter()
                    .map(|&bit| {
                        let (mut a, mut b) =
                            (bit as isize % width - centre, bit as isize / width - centre);
                        if mirror {
                            (a, b) = (b, a);
                        }
                        for _ in 0..turns {
                            (a, b) = (a - b, a);
                        }
                        let bit = (a + centre) + width * (b + centre);
                        ordinal(bit as usize).expect("a symmetry keeps every cell on the board")
                    })
                    .collect();
                let bytes = cells.div_ceil(8);
                let per_byte = (0..bytes)
                    .map(|byte| {
                        std::array::from_fn(|value| {
                            (0..8)
                                .filter(|&offset| value >> offset & 1 == 1)
                                .map(|offset| 8 * byte + offset)
                                .filter(|&cell| cell < cells)
                                .fold(0u64, |set, cell| set | 1 << image[cell])
                        })
                    })
                    .collect();
                images.push(per_byte);
            }
        }
        Some(CatchupTables {
            cells,
            neighbours,
            names,
            ring,
            images,
        })
    }

    /// The image of a set under symmetry `index`.
    #[inline]
    fn image(&self, index: usize, set: u64) -> u64 {
        self.images[index]
            .iter()
            .enumerate()
            .fold(0, |image, (byte, table)| {
                image | table[(set >> (8 * byte) & 255) as usize]
            })
    }

    /// All cells of the board.
    #[inline]
    fn all(&self) -> u64 {
        if self.cells == 64 {
            u64::MAX
        } else {
            (1 << self.cells) - 1
        }
    }

    /// The group of `stones` holding `seed` (a single cell).
    #[inline]
    fn group(&self, stones: u64, seed: u64) -> u64 {
        let mut group = seed;
        let mut frontier = seed;
        while frontier != 0 {
            let mut grown = 0;
            let mut rest = frontier;
            while rest != 0 {
                grown |= self.neighbours[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            frontier = grown & stones & !group;
            group |= frontier;
        }
        group
    }

    /// A colour's group sizes, largest first, into `sizes`; returns how many.
    fn group_sizes(&self, stones: u64, sizes: &mut [u8; 64]) -> usize {
        let mut rest = stones;
        let mut count = 0;
        while rest != 0 {
            let group = self.group(stones, rest & rest.wrapping_neg());
            sizes[count] = group.count_ones() as u8;
            count += 1;
            rest &= !group;
        }
        sizes[..count].sort_unstable_by(|a, b| b.cmp(a));
        count
    }
}

/// A Catchup position for the solver. A move is the set of cells of one turn.
#[derive(Clone, Copy)]
pub struct CatchupState {
    tables: &'static CatchupTables,
    rule: CatchupRule,
    stones: [u64; 2],
    /// 0 White, 1 Black.
    mover: usize,
    limit: u8,
    /// Each colour's largest group (0 without stones).
    largest: [u8; 2],
}

impl std::fmt::Debug for CatchupState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CatchupState({:x} {:x} mover {} limit {})",
            self.stones[0], self.stones[1], self.mover, self.limit
        )
    }
}

impl CatchupState {
    /// The solver's copy of an engine position; `None` beyond side [`MAX_SOLVE_SIDE`].
    pub fn from_game(game: &Catchup) -> Option<Self> {
        let tables = tables(game.side())?;
        let geometry = game.geometry();
        let set = |player: Player| {
            game.stones(player)
                .iter()
                .filter_map(|bit| geometry.ordinal(bit))
                .fold(0u64, |set, ordinal| set | 1 << ordinal)
        };
        let stones = [set(Player::One), set(Player::Two)];
        let mut state = CatchupState {
            tables,
            rule: game.rule(),
            stones,
            mover: game.side_to_move().index(),
            limit: game.limit() as u8,
            largest: [0; 2],
        };
        state.largest = [0, 1].map(|colour| state.largest_of(colour));
        Some(state)
    }

    fn largest_of(&self, colour: usize) -> u8 {
        let mut sizes = [0u8; 64];
        let count = self.tables.group_sizes(self.stones[colour], &mut sizes);
        if count == 0 { 0 } else { sizes[0] }
    }

    fn empty(&self) -> u64 {
        self.tables.all() & !(self.stones[0] | self.stones[1])
    }

    /// The position after the mover places the stones of `cells`.
    pub fn after(&self, cells: u64) -> CatchupState {
        let mover = self.mover;
        let score = |largest: u8| usize::from(largest.max(1));
        let mover_before = score(self.largest[mover]);
        let board_before = mover_before.max(score(self.largest[1 - mover]));
        let mut next = *self;
        next.stones[mover] |= cells;
        let mut rest = cells;
        while rest != 0 {
            let group = self
                .tables
                .group(next.stones[mover], rest & rest.wrapping_neg());
            next.largest[mover] = next.largest[mover].max(group.count_ones() as u8);
            rest &= !group;
        }
        next.limit = next_limit(
            self.rule,
            [mover_before, board_before],
            [score(next.largest[mover]), score(next.largest[1 - mover])],
        );
        next.mover = 1 - mover;
        next
    }

    /// The cells of a move, as names joined by commas in canonical order.
    pub fn cells_text(&self, cells: u64) -> String {
        let mut names = Vec::new();
        let mut rest = cells;
        while rest != 0 {
            names.push(self.tables.names[rest.trailing_zeros() as usize].as_str());
            rest &= rest - 1;
        }
        names.join(",")
    }
}

impl Solvable for CatchupState {
    type Move = u64;
    type Scratch = ();

    fn final_value(&self) -> Option<i32> {
        if self.empty() != 0 {
            return None;
        }
        let own = self.mover;
        let order = self.largest[own].cmp(&self.largest[1 - own]).then_with(|| {
            let mut sizes = [[0u8; 64]; 2];
            let counts = [0, 1].map(|colour| {
                self.tables
                    .group_sizes(self.stones[colour], &mut sizes[colour])
            });
            let length = counts[0].max(counts[1]);
            sizes[own][..length].cmp(&sizes[1 - own][..length])
        });
        Some(order as i32)
    }

    fn children(&self, children: &mut Vec<Child<Self>>) {
        children.clear();
        let empty = self.empty();
        let allowed = usize::from(self.limit).min(empty.count_ones() as usize);
        let mut cells = [0u64; 64];
        let mut count = 0;
        let mut rest = empty;
        while rest != 0 {
            cells[count] = rest & rest.wrapping_neg();
            count += 1;
            rest &= rest - 1;
        }
        let cells = &cells[..count];
        let mut push = |stones: u64| {
            let position = self.after(stones);
            children.push(Child {
                mv: stones,
                order: self.order_score(&position, stones),
                position,
            });
        };
        for (i, &first) in cells.iter().enumerate() {
            push(first);
            if allowed < 2 {
                continue;
            }
            for (j, &second) in cells.iter().enumerate().skip(i + 1) {
                push(first | second);
                if allowed < 3 {
                    continue;
                }
                for &third in &cells[j + 1..] {
                    push(first | second | third);
                }
            }
        }
    }

    fn key(&self) -> Key {
        let tables = self.tables;
        let mut best = (self.stones[0], self.stones[1]);
        for index in 1..tables.images.len() {
            let image = (
                tables.image(index, self.stones[0]),
                tables.image(index, self.stones[1]),
            );
            best = best.min(image);
        }
        let flags = (self.mover as u64) << 61 | u64::from(self.limit) << 62;
        [best.0 | flags, best.1]
    }

    fn move_code(&self, mv: u64) -> u32 {
        let mut code = 0u32;
        let mut rest = mv;
        let mut shift = 0;
        while rest != 0 {
            code |= (rest.trailing_zeros() + 1) << shift;
            shift += 7;
            rest &= rest - 1;
        }
        code
    }

    fn remaining(&self) -> u32 {
        self.empty().count_ones()
    }

    fn value_bound(&self) -> i32 {
        1
    }

    fn move_text(&self, mv: u64) -> String {
        self.cells_text(mv)
    }

    /// From 12 empty cells up. Side 3 from the start on two threads: 5.4 to 5.8 s with it
    /// (original rule) and 5.5 s (revised), against 10.6 to 12.6 s and 11.1 s without,
    /// and 12.3 and 10.7 s on one thread; from 6 or 14 empty cells it was slower. With the
    /// same root order in every thread since: 5.3 to 5.7 s and 1.6 to 1.8 s.
    const DEFER_MIN_REMAINING: u32 = 12;
}

impl CatchupState {
    /// The ordering score of a turn: the largest group it leaves the mover against the
    /// opponent's, then stones near the centre.
    fn order_score(&self, after: &CatchupState, stones: u64) -> i32 {
        let mover = self.mover;
        let lead = i32::from(after.largest[mover]) - i32::from(after.largest[1 - mover]);
        let mut centre = 0;
        let mut rest = stones;
        while rest != 0 {
            centre -= self.tables.ring[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        64 * lead + centre
    }
}
