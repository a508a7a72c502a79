//! The solver's own compact board: cells by ordinal (0 for `a1`, canonical order), a
//! neighbour table, the twelve symmetries of the hexagon, and the moves of a few men,
//! generated straight from cell lists (a table position holds at most a handful of men, so
//! lists beat the engine's whole-board sets here, and the engine's generator stays an
//! independent check in the tests).

use crate::board::hex::{Direction, geometry};

/// Marks "off the board" in the neighbour table.
const OFF: u8 = u8::MAX;

/// Most men one side may have in a solved material (a table's index needs `C(cells, k)`).
pub const MAX_MEN: usize = 4;

/// A set of up to 256 cells, for occupancy tests during move generation.
#[derive(Copy, Clone, Default, PartialEq, Eq)]
pub struct Occupancy([u64; 4]);

impl Occupancy {
    pub fn of(cells: &[u8]) -> Self {
        let mut set = Occupancy::default();
        for &cell in cells {
            set.insert(cell);
        }
        set
    }

    #[inline]
    pub fn contains(&self, cell: u8) -> bool {
        self.0[usize::from(cell >> 6)] >> (cell & 63) & 1 == 1
    }

    #[inline]
    pub fn insert(&mut self, cell: u8) {
        self.0[usize::from(cell >> 6)] |= 1 << (cell & 63);
    }

    #[inline]
    pub fn remove(&mut self, cell: u8) {
        self.0[usize::from(cell >> 6)] &= !(1 << (cell & 63));
    }
}

/// What a complete capture chain leaves: the jumper's last cell and, as a mask over the
/// opponent's men in list order, the men it took. Chains with equal results are one
/// result (they lead to the same position).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CaptureResult {
    /// Index of the jumping man in the mover's list.
    pub man: usize,
    pub end: u8,
    pub captured: u8,
}

/// One board side, in the solver's terms.
#[derive(Debug)]
pub struct SolverBoard {
    side: usize,
    /// Geometry bit of each ordinal.
    bits: Vec<u16>,
    /// Neighbour ordinal per ordinal and direction (`Direction::ALL` order), `OFF` if none.
    neighbours: Vec<[u8; 6]>,
    /// `binomials[n][k]` = C(n, k), for n up to the cell count and k up to `MAX_MEN`.
    binomials: Vec<[u64; MAX_MEN + 1]>,
    /// Each symmetry's image of every ordinal.
    symmetries: Vec<Vec<u8>>,
    /// Per ordinal, a symmetry taking it into the fundamental domain (the smallest
    /// ordinal of its orbit) and that cell's index among the domain's cells.
    folds: Vec<Fold>,
    /// The fundamental domain, in ordinal order: one cell per orbit of the symmetries.
    domain: Vec<u8>,
}

/// How one cell folds into the fundamental domain (see [`SolverBoard::fold`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    /// Index into [`SolverBoard::symmetries`].
    pub symmetry: usize,
    /// The image's index among the domain's cells (in ordinal order).
    pub domain: usize,
}

impl SolverBoard {
    /// The board of `side` (2 to 9); `None` for a side without a geometry.
    pub fn new(side: usize) -> Option<Self> {
        let geometry = geometry(side)?;
        let bits = geometry.cells().to_vec();
        let ordinal = |bit: usize| geometry.ordinal(bit).map(|o| o as u8);
        let neighbours = bits
            .iter()
            .map(|&bit| {
                Direction::ALL.map(|direction| {
                    geometry
                        .neighbour(bit as usize, direction)
                        .and_then(ordinal)
                        .unwrap_or(OFF)
                })
            })
            .collect();
        let cells = bits.len();
        let mut binomials = vec![[0u64; MAX_MEN + 1]; cells + 1];
        for n in 0..=cells {
            binomials[n][0] = 1;
            for k in 1..=MAX_MEN {
                binomials[n][k] = if n == 0 {
                    0
                } else {
                    binomials[n - 1][k - 1] + binomials[n - 1][k]
                };
            }
        }
        // Axial coordinates centred on the middle cell: (a, b) = (x - c, y - c). A turn by
        // 60 degrees maps (a, b) to (a - b, a) and the mirror swaps a and b; both keep the
        // hexagon |a|, |b|, |a - b| <= c, and together they give the twelve symmetries.
        let centre = (side - 1) as isize;
        let width = geometry.width() as isize;
        let axial = |bit: u16| (bit as isize % width - centre, bit as isize / width - centre);
        let to_ordinal = |(a, b): (isize, isize)| {
            let bit = (a + centre) + width * (b + centre);
            ordinal(bit as usize).expect("a symmetry keeps every cell on the board")
        };
        let mut symmetries = Vec::with_capacity(12);
        for mirror in [false, true] {
            for turns in 0..6 {
                let image: Vec<u8> = bits
                    .iter()
                    .map(|&bit| {
                        let (mut a, mut b) = axial(bit);
                        if mirror {
                            (a, b) = (b, a);
                        }
                        for _ in 0..turns {
                            (a, b) = (a - b, a);
                        }
                        to_ordinal((a, b))
                    })
                    .collect();
                symmetries.push(image);
            }
        }
        // The domain holds each orbit's smallest ordinal; a cell folds by the first
        // symmetry that takes it there.
        let representative = |cell: usize| {
            symmetries
                .iter()
                .map(|image| image[cell])
                .min()
                .unwrap_or(0)
        };
        let domain: Vec<u8> = (0..cells)
            .filter(|&cell| usize::from(representative(cell)) == cell)
            .map(|cell| cell as u8)
            .collect();
        let folds = (0..cells)
            .map(|cell| {
                let target = representative(cell);
                Fold {
                    symmetry: symmetries
                        .iter()
                        .position(|image| image[cell] == target)
                        .unwrap_or(0),
                    domain: domain.binary_search(&target).unwrap_or(0),
                }
            })
            .collect();
        Some(SolverBoard {
            side,
            bits,
            neighbours,
            binomials,
            symmetries,
            folds,
            domain,
        })
    }

    pub fn side(&self) -> usize {
        self.side
    }

    pub fn cells(&self) -> usize {
        self.bits.len()
    }

    /// The engine's geometry bit of an ordinal.
    pub fn bit(&self, cell: u8) -> usize {
        usize::from(self.bits[usize::from(cell)])
    }

    /// The neighbour of `cell` in direction `direction` (0 to 5), if on the board.
    #[inline]
    pub fn neighbour(&self, cell: u8, direction: usize) -> Option<u8> {
        match self.neighbours[usize::from(cell)][direction] {
            OFF => None,
            next => Some(next),
        }
    }

    /// The twelve symmetries, each as the image of every ordinal.
    pub fn symmetries(&self) -> &[Vec<u8>] {
        &self.symmetries
    }

    /// How `cell` folds into the fundamental domain of the twelve symmetries.
    pub fn fold(&self, cell: u8) -> Fold {
        self.folds[usize::from(cell)]
    }

    /// The fundamental domain's cells, in ordinal order (one per orbit).
    pub fn domain(&self) -> &[u8] {
        &self.domain
    }

    /// C(cells, k): how many sets of `k` distinct cells there are.
    pub fn combinations(&self, k: usize) -> u64 {
        self.binomials[self.cells()][k]
    }

    /// The rank of a sorted set of cells among all sets of its size (colex order).
    #[inline]
    pub fn rank(&self, sorted: &[u8]) -> u64 {
        sorted
            .iter()
            .enumerate()
            .map(|(index, &cell)| self.binomials[usize::from(cell)][index + 1])
            .sum()
    }

    /// The sorted set of `out.len()` cells whose rank is `rank` (inverse of [`Self::rank`]).
    pub fn unrank(&self, mut rank: u64, out: &mut [u8]) {
        for k in (1..=out.len()).rev() {
            // The largest cell c with C(c, k) <= rank (C(c, k) grows with c).
            let mut low = k - 1;
            let mut high = self.cells() - 1;
            while low < high {
                let middle = (low + high).div_ceil(2);
                if self.binomials[middle][k] <= rank {
                    low = middle;
                } else {
                    high = middle - 1;
                }
            }
            out[k - 1] = low as u8;
            rank -= self.binomials[low][k];
        }
    }

    /// The mover's steps: calls `visit(man, to)` for every man and empty neighbour.
    #[inline]
    pub fn for_each_step(
        &self,
        mover: &[u8],
        occupied: Occupancy,
        mut visit: impl FnMut(usize, u8),
    ) {
        for (man, &cell) in mover.iter().enumerate() {
            for &next in &self.neighbours[usize::from(cell)] {
                if next != OFF && !occupied.contains(next) {
                    visit(man, next);
                }
            }
        }
    }

    /// True if the mover has at least one step.
    pub fn has_step(&self, mover: &[u8], occupied: Occupancy) -> bool {
        mover.iter().any(|&cell| {
            self.neighbours[usize::from(cell)]
                .iter()
                .any(|&next| next != OFF && !occupied.contains(next))
        })
    }

    /// Every complete capture chain's result for the mover (duplicates possible), after
    /// the rules: a chain must go on while its man has a jump, no man is jumped twice,
    /// the start cell is empty during the chain, jumped men stay until the move ends.
    pub fn captures(&self, mover: &[u8], opponent: &[u8], results: &mut Vec<CaptureResult>) {
        results.clear();
        let mut occupied = Occupancy::of(mover);
        for &cell in opponent {
            occupied.insert(cell);
        }
        for (man, &start) in mover.iter().enumerate() {
            occupied.remove(start);
            self.chain(man, start, 0, opponent, occupied, results);
            occupied.insert(start);
        }
    }

    fn chain(
        &self,
        man: usize,
        at: u8,
        captured: u8,
        opponent: &[u8],
        occupied: Occupancy,
        results: &mut Vec<CaptureResult>,
    ) {
        let mut extended = false;
        for direction in 0..6 {
            let Some(over) = self.neighbour(at, direction) else {
                continue;
            };
            let Some(victim) = opponent.iter().position(|&cell| cell == over) else {
                continue;
            };
            if captured >> victim & 1 == 1 {
                continue;
            }
            let Some(landing) = self.neighbour(over, direction) else {
                continue;
            };
            if occupied.contains(landing) {
                continue;
            }
            extended = true;
            self.chain(
                man,
                landing,
                captured | 1 << victim,
                opponent,
                occupied,
                results,
            );
        }
        if !extended && captured != 0 {
            results.push(CaptureResult {
                man,
                end: at,
                captured,
            });
        }
    }
}

/// A hexcheckers position string with these men, a fresh counter and move number 40.
pub(super) fn position_text(
    board: &SolverBoard,
    white: &[u8],
    black: &[u8],
    white_moves: bool,
) -> String {
    let geometry = geometry(board.side()).expect("a solver board has a geometry");
    let man_at = |bit: usize| {
        let holds = |cells: &[u8]| cells.iter().any(|&cell| board.bit(cell) == bit);
        if holds(white) {
            Some('W')
        } else if holds(black) {
            Some('B')
        } else {
            None
        }
    };
    let mut rows = Vec::new();
    for y in (0..geometry.rows()).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for number in 1..=geometry.row_length(y) {
            let bit = geometry.cell_at(y, number).expect("numbers within the row");
            match man_at(bit) {
                Some(letter) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let side = if white_moves { 'w' } else { 'b' };
    format!("{} {side} - 0 40", rows.join("/"))
}
