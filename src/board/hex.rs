//! Geometry of hexhex boards (side 2 to 9): coordinates, neighbours, straight lines, the
//! border and cell names, written once for every hex game.
//!
//! Rows are lettered from White's edge (`a`, drawn at the bottom) to Black's; cells are
//! numbered from White's left. Side 3:
//!
//! ```text
//!         e1 e2 e3              row e: 3 cells
//!       d1 d2 d3 d4             row d: 4 cells
//!     c1 c2 c3 c4 c5            row c: 5 cells (the middle row)
//!       b1 b2 b3 b4             row b: 4 cells
//!         a1 a2 a3              row a: 3 cells (White's edge)
//! ```
//!
//! Axial coordinates: cell `j` (1-based) of row `y` (0-based) sits at
//! `x = max(0, y - (n - 1)) + j - 1`. The neighbours of `(x, y)` are `(x±1, y)`,
//! `(x, y±1)`, `(x+1, y+1)` and `(x-1, y-1)`.
//!
//! Cells are numbered by bit `x + w * y` with `w = 2n - 1` (the *padded layout*), so a
//! step in a direction is a fixed offset and a whole [`HexSet`] moves with one shift.
//! No guard column is needed: a step off the right end of row `y` lands on the left end
//! of a higher row, but the right end exists only in the upper half and the left end only
//! in the lower half, so the wrapped bit is never a valid cell. Bit order is also the
//! canonical cell order (by row, then cell number).

use std::sync::OnceLock;

use super::hexset::HexSet;

/// Smallest and largest supported board sides.
pub const MIN_SIDE: usize = 2;
pub const MAX_SIDE: usize = 9;
/// Words a [`HexSet`] needs for any supported side.
pub const MAX_WORDS: usize = 5;
/// Cells on the largest board (side 9).
pub const MAX_CELLS: usize = 217;
/// Highest bit index plus one on the largest board: `(2 * 9 - 1)^2`.
pub const MAX_BITS: usize = 289;

/// The six directions of the hex grid, counter-clockwise from the right.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// `(x+1, y)`
    Right,
    /// `(x+1, y+1)`
    UpRight,
    /// `(x, y+1)`
    UpLeft,
    /// `(x-1, y)`
    Left,
    /// `(x-1, y-1)`
    DownLeft,
    /// `(x, y-1)`
    DownRight,
}

impl Direction {
    pub const ALL: [Direction; 6] = [
        Direction::Right,
        Direction::UpRight,
        Direction::UpLeft,
        Direction::Left,
        Direction::DownLeft,
        Direction::DownRight,
    ];

    /// Position in [`Direction::ALL`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn opposite(self) -> Direction {
        Direction::ALL[(self.index() + 3) % 6]
    }

    /// The axial step `(dx, dy)`.
    #[inline]
    pub fn delta(self) -> (isize, isize) {
        match self {
            Direction::Right => (1, 0),
            Direction::UpRight => (1, 1),
            Direction::UpLeft => (0, 1),
            Direction::Left => (-1, 0),
            Direction::DownLeft => (-1, -1),
            Direction::DownRight => (0, -1),
        }
    }
}

/// Marks "no cell" in the neighbour table.
const NONE: u16 = u16::MAX;

/// Immutable tables for one board side, built once and shared (see [`geometry`]).
#[derive(Debug)]
pub struct HexGeometry {
    side: usize,
    width: usize,
    /// Bit of every cell, canonical order.
    cells: Vec<u16>,
    /// Ordinal (index into `cells`) of every bit, `NONE` off the board.
    ordinals: Vec<u16>,
    /// Neighbour bit per cell bit and direction, `NONE` off the board.
    neighbours: Vec<[u16; 6]>,
    valid: HexSet<MAX_WORDS>,
    border: HexSet<MAX_WORDS>,
}

/// The shared geometry of a side from 2 to 9; `None` for any other side.
pub fn geometry(side: usize) -> Option<&'static HexGeometry> {
    static TABLES: [OnceLock<HexGeometry>; MAX_SIDE + 1] =
        [const { OnceLock::new() }; MAX_SIDE + 1];
    if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
        return None;
    }
    Some(TABLES[side].get_or_init(|| HexGeometry::new(side)))
}

impl HexGeometry {
    fn new(side: usize) -> Self {
        let width = 2 * side - 1;
        let bits = width * width;
        let mut cells = Vec::new();
        let mut ordinals = vec![NONE; bits];
        let mut valid = HexSet::EMPTY;
        let mut border = HexSet::EMPTY;
        for y in 0..width {
            let (low, high) = Self::row_span(side, y);
            for x in low..=high {
                let bit = x + width * y;
                ordinals[bit] = cells.len() as u16;
                cells.push(bit as u16);
                valid.insert(bit);
            }
        }
        let mut neighbours = vec![[NONE; 6]; bits];
        for &bit in &cells {
            let (x, y) = (bit as usize % width, bit as usize / width);
            for direction in Direction::ALL {
                let (dx, dy) = direction.delta();
                let (nx, ny) = (x as isize + dx, y as isize + dy);
                if nx < 0 || ny < 0 || nx >= width as isize || ny >= width as isize {
                    continue;
                }
                let (nx, ny) = (nx as usize, ny as usize);
                let (low, high) = Self::row_span(side, ny);
                if (low..=high).contains(&nx) {
                    neighbours[bit as usize][direction.index()] = (nx + width * ny) as u16;
                }
            }
            if neighbours[bit as usize].contains(&NONE) {
                border.insert(bit as usize);
            }
        }
        HexGeometry {
            side,
            width,
            cells,
            ordinals,
            neighbours,
            valid,
            border,
        }
    }

    /// The axial `x` range `(low, high)` of row `y`.
    fn row_span(side: usize, y: usize) -> (usize, usize) {
        let low = y.saturating_sub(side - 1);
        let high = (y + side - 1).min(2 * side - 2);
        (low, high)
    }

    /// Board side `n`.
    #[inline]
    pub fn side(&self) -> usize {
        self.side
    }

    /// Row stride of the padded layout, `2n - 1` (also the number of rows).
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    #[inline]
    pub fn rows(&self) -> usize {
        self.width
    }

    /// `3n(n-1) + 1`.
    #[inline]
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Highest bit plus one: `(2n-1)^2`.
    #[inline]
    pub fn bit_span(&self) -> usize {
        self.width * self.width
    }

    /// 64-bit words a [`HexSet`] needs for this side.
    #[inline]
    pub fn words(&self) -> usize {
        self.bit_span().div_ceil(64)
    }

    /// Every cell's bit, in canonical order.
    #[inline]
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// True if `bit` is a cell of this board.
    #[inline]
    pub fn is_cell(&self, bit: usize) -> bool {
        self.ordinals
            .get(bit)
            .is_some_and(|&ordinal| ordinal != NONE)
    }

    /// Position of a cell in canonical order (0 for `a1`), a dense index for tables.
    #[inline]
    pub fn ordinal(&self, bit: usize) -> Option<usize> {
        match self.ordinals.get(bit) {
            Some(&ordinal) if ordinal != NONE => Some(ordinal as usize),
            _ => None,
        }
    }

    /// The bit offset of one step in `direction`.
    #[inline]
    pub fn offset(&self, direction: Direction) -> isize {
        let (dx, dy) = direction.delta();
        dx + dy * self.width as isize
    }

    /// The neighbouring cell in `direction`, if it is on the board.
    #[inline]
    pub fn neighbour(&self, bit: usize, direction: Direction) -> Option<usize> {
        match self.neighbours.get(bit).map(|row| row[direction.index()]) {
            Some(next) if next != NONE => Some(next as usize),
            _ => None,
        }
    }

    /// The cells in a straight line from `bit` (not included) in `direction`.
    pub fn ray(&self, bit: usize, direction: Direction) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.neighbour(bit, direction), move |&next| {
            self.neighbour(next, direction)
        })
    }

    /// `set` and every cell one step from it, unclipped: a shift can wrap onto bits that
    /// are not cells, so callers mask with the cells they allow (`valid`, the empty cells).
    #[inline]
    pub fn grown<const N: usize>(&self, set: HexSet<N>) -> HexSet<N> {
        let mut grown = set;
        for direction in Direction::ALL {
            grown |= set.shifted(self.offset(direction));
        }
        grown
    }

    /// All cells, as a set of `N` words (`N` must be at least [`HexGeometry::words`]).
    pub fn valid<const N: usize>(&self) -> HexSet<N> {
        truncate(self.valid)
    }

    /// The outer ring: cells at distance `n - 1` from the centre.
    pub fn border<const N: usize>(&self) -> HexSet<N> {
        truncate(self.border)
    }

    /// The cells of row `y` (0-based from White's edge).
    pub fn row_cells<const N: usize>(&self, y: usize) -> HexSet<N> {
        self.cells
            .iter()
            .map(|&bit| bit as usize)
            .filter(|&bit| bit / self.width == y)
            .collect()
    }

    /// Axial coordinates `(x, y)` of a cell bit.
    #[inline]
    pub fn axial(&self, bit: usize) -> (usize, usize) {
        (bit % self.width, bit / self.width)
    }

    /// Row index, 0 for `a`.
    #[inline]
    pub fn row(&self, bit: usize) -> usize {
        bit / self.width
    }

    /// Cell number within its row, 1-based.
    #[inline]
    pub fn number(&self, bit: usize) -> usize {
        let (x, y) = self.axial(bit);
        x - Self::row_span(self.side, y).0 + 1
    }

    /// Number of cells in row `y`.
    pub fn row_length(&self, y: usize) -> usize {
        let (low, high) = Self::row_span(self.side, y);
        high - low + 1
    }

    /// The cell with 0-based row `y` and 1-based `number`, if it exists.
    pub fn cell_at(&self, y: usize, number: usize) -> Option<usize> {
        if y >= self.width || number == 0 || number > self.row_length(y) {
            return None;
        }
        let x = Self::row_span(self.side, y).0 + number - 1;
        Some(x + self.width * y)
    }

    /// Hex distance between two cells.
    pub fn distance(&self, a: usize, b: usize) -> usize {
        let (ax, ay) = self.axial(a);
        let (bx, by) = self.axial(b);
        let dx = ax as isize - bx as isize;
        let dy = ay as isize - by as isize;
        // Axial neighbours include (+1, +1), so the distance is max(|dx|, |dy|) when the
        // signs agree and |dx| + |dy| otherwise.
        if (dx >= 0) == (dy >= 0) {
            dx.unsigned_abs().max(dy.unsigned_abs())
        } else {
            dx.unsigned_abs() + dy.unsigned_abs()
        }
    }

    /// The centre cell.
    pub fn centre(&self) -> usize {
        (self.side - 1) * (self.width + 1)
    }

    /// Distance from the centre: 0 at the centre, `n - 1` on the border.
    pub fn ring(&self, bit: usize) -> usize {
        self.distance(bit, self.centre())
    }

    /// The cell's name, e.g. `e5`.
    pub fn cell_name(&self, bit: usize) -> String {
        let mut name = String::with_capacity(3);
        self.write_cell_name(bit, &mut name);
        name
    }

    /// Appends the cell's name to `out`.
    pub fn write_cell_name(&self, bit: usize, out: &mut String) {
        out.push((b'a' + self.row(bit) as u8) as char);
        let number = self.number(bit);
        if number >= 10 {
            out.push((b'0' + (number / 10) as u8) as char);
        }
        out.push((b'0' + (number % 10) as u8) as char);
    }

    /// Parses a cell name (`e5`; the row letter in either case, no leading zero).
    pub fn parse_cell(&self, text: &str) -> Option<usize> {
        let bytes = text.as_bytes();
        let (&letter, digits) = bytes.split_first()?;
        if !letter.is_ascii_alphabetic() || digits.is_empty() || digits.len() > 2 {
            return None;
        }
        if !digits.iter().all(u8::is_ascii_digit) || digits[0] == b'0' {
            return None;
        }
        let number = digits
            .iter()
            .fold(0usize, |value, &digit| value * 10 + (digit - b'0') as usize);
        let y = (letter.to_ascii_lowercase() - b'a') as usize;
        self.cell_at(y, number)
    }
}

fn truncate<const N: usize>(set: HexSet<MAX_WORDS>) -> HexSet<N> {
    let mut words = [0u64; N];
    for (word, source) in words.iter_mut().zip(set.words()) {
        *word = *source;
    }
    debug_assert!(
        set.words()[N.min(MAX_WORDS)..]
            .iter()
            .all(|&word| word == 0),
        "HexSet<{N}> too narrow for this board"
    );
    HexSet::from_words(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_counts_rows_and_words_match_the_formulas() {
        for side in MIN_SIDE..=MAX_SIDE {
            let geometry = geometry(side).expect("supported side");
            assert_eq!(geometry.cell_count(), 3 * side * (side - 1) + 1);
            assert_eq!(geometry.rows(), 2 * side - 1);
            assert_eq!(geometry.row_length(0), side);
            assert_eq!(geometry.row_length(side - 1), 2 * side - 1);
            assert_eq!(geometry.row_length(2 * side - 2), side);
            assert_eq!(
                geometry.valid::<MAX_WORDS>().len() as usize,
                geometry.cell_count()
            );
            assert_eq!(
                geometry.border::<MAX_WORDS>().len() as usize,
                6 * (side - 1)
            );
        }
        assert!(geometry(1).is_none() && geometry(10).is_none());
        let words: Vec<usize> = (4..=9)
            .map(|side| geometry(side).map_or(0, |g| g.words()))
            .collect();
        assert_eq!(words, vec![1, 2, 2, 3, 4, 5]);
    }

    #[test]
    fn names_follow_rules_md() {
        let g = geometry(5).expect("side 5");
        assert_eq!(g.cell_name(g.centre()), "e5");
        assert_eq!(g.parse_cell("a1"), Some(0));
        assert_eq!(g.cell_name(g.cells()[4] as usize), "a5");
        assert_eq!(g.parse_cell("a6"), None);
        assert_eq!(
            g.parse_cell("i5").map(|bit| g.cell_name(bit)),
            Some("i5".to_string())
        );
        assert_eq!(g.parse_cell("j1"), None);
        assert_eq!(g.parse_cell("E5"), Some(g.centre()));
        for bad in ["", "e", "e0", "e05", "5e", "e5x", "e-1", "e123"] {
            assert_eq!(g.parse_cell(bad), None, "{bad}");
        }
        let big = geometry(9).expect("side 9");
        assert_eq!(
            big.parse_cell("i17").map(|bit| big.cell_name(bit)),
            Some("i17".into())
        );
        assert_eq!(
            big.parse_cell("q9").map(|bit| big.cell_name(bit)),
            Some("q9".into())
        );
        for &bit in big.cells() {
            assert_eq!(
                big.parse_cell(&big.cell_name(bit as usize)),
                Some(bit as usize)
            );
        }
    }

    #[test]
    fn neighbours_follow_the_axial_rule_and_are_symmetric() {
        let g = geometry(5).expect("side 5");
        let a1 = g.parse_cell("a1").expect("a1");
        let names = |bit: usize| -> Vec<String> {
            let mut found: Vec<String> = Direction::ALL
                .iter()
                .filter_map(|&d| g.neighbour(bit, d))
                .map(|n| g.cell_name(n))
                .collect();
            found.sort();
            found
        };
        assert_eq!(names(a1), vec!["a2", "b1", "b2"]);
        // e1 is the left end of the middle row: its upper neighbours are f1 only.
        assert_eq!(
            names(g.parse_cell("e1").expect("e1")),
            vec!["d1", "e2", "f1"]
        );
        assert_eq!(
            names(g.parse_cell("e5").expect("e5")),
            vec!["d4", "d5", "e4", "e6", "f4", "f5"]
        );
        for &bit in g.cells() {
            let bit = bit as usize;
            for d in Direction::ALL {
                if let Some(next) = g.neighbour(bit, d) {
                    assert_eq!(g.neighbour(next, d.opposite()), Some(bit));
                    assert_eq!(next as isize - bit as isize, g.offset(d));
                    assert_eq!(g.distance(bit, next), 1);
                }
            }
        }
    }

    #[test]
    fn shifting_the_valid_set_lands_only_on_true_neighbours() {
        for side in MIN_SIDE..=MAX_SIDE {
            let g = geometry(side).expect("supported side");
            let valid = g.valid::<MAX_WORDS>();
            for d in Direction::ALL {
                let shifted = valid.shifted(g.offset(d)) & valid;
                let expected: HexSet<MAX_WORDS> = g
                    .cells()
                    .iter()
                    .filter_map(|&bit| g.neighbour(bit as usize, d))
                    .collect();
                assert_eq!(shifted, expected, "side {side} direction {d:?}");
            }
        }
    }

    #[test]
    fn border_is_the_outer_ring_and_rays_run_straight() {
        let g = geometry(6).expect("side 6");
        for &bit in g.cells() {
            let bit = bit as usize;
            assert_eq!(g.border::<2>().contains(bit), g.ring(bit) == 5);
        }
        let a1 = g.parse_cell("a1").expect("a1");
        let line: Vec<String> = g
            .ray(a1, Direction::UpRight)
            .map(|c| g.cell_name(c))
            .collect();
        assert_eq!(
            line,
            vec!["b2", "c3", "d4", "e5", "f6", "g6", "h6", "i6", "j6", "k6"]
        );
        assert_eq!(g.ray(a1, Direction::Left).count(), 0);
    }
}
