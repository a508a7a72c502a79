//! 8x8 squares and `u64` bitboards: the square type, the king and knight tables, chess rays
//! for the sliding pieces (one at a time; whole attack sets come from `super::magic`),
//! and the 8-neighbourhood of a set.
//!
//! Bit `8 * rank + file` (both 0-based) is the square, so `a1` is bit 0, `h1` bit 7 and `h8`
//! bit 63. A step north is `<< 8`, a step east `<< 1` (masked so it cannot wrap round a
//! rank). Every table is computed at compile time by `const fn`s.

use std::fmt;

use super::magic::{BISHOP_TABLE, ROOK_TABLE};

/// The a-file (`a1`..`a8`).
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file (`h1`..`h8`).
pub const FILE_H: u64 = FILE_A << 7;
/// The 32 dark squares (`a1` is dark: file + rank even, counting from 1).
pub const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;
/// The 32 light squares.
pub const LIGHT_SQUARES: u64 = !DARK_SQUARES;
/// Every square.
pub const ALL_SQUARES: u64 = u64::MAX;

/// One of the 64 squares. Invariant: the index is below 64.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` and `rank`, both 0-based (`a1` is `(0, 0)`).
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The square with bit index `index` (0..64).
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The lowest square of a non-empty set (the caller guarantees `set != 0`).
    #[inline]
    pub(super) const fn lowest(set: u64) -> Square {
        Square((set.trailing_zeros() & 63) as u8)
    }

    /// The bit index, 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file (0 = a).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0-based rank (0 = rank 1).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The one-bit set holding this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// True for dark squares (`a1`, `c1`, ..., `h8`).
    #[inline]
    pub const fn is_dark(self) -> bool {
        DARK_SQUARES & self.bit() != 0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// The squares of a set, lowest first.
#[derive(Copy, Clone, Debug)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let square = Square::lowest(self.0);
        self.0 &= self.0 - 1;
        Some(square)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let count = self.0.count_ones() as usize;
        (count, Some(count))
    }
}

impl ExactSizeIterator for Squares {}

/// Every square touching some square of `set` (the 8-neighbourhood), by shifts. A square of
/// `set` is included only when another square of `set` touches it.
#[inline]
pub const fn neighbours(set: u64) -> u64 {
    let east = (set << 1) & !FILE_A;
    let west = (set >> 1) & !FILE_H;
    let row = set | east | west;
    east | west | (row << 8) | (row >> 8)
}

/// The squares reached from every square by the given (file, rank) steps.
const fn step_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut index = 0;
    while index < 64 {
        let file = (index % 8) as i8;
        let rank = (index / 8) as i8;
        let mut step = 0;
        while step < steps.len() {
            let (to_file, to_rank) = (file + steps[step].0, rank + steps[step].1);
            if to_file >= 0 && to_file < 8 && to_rank >= 0 && to_rank < 8 {
                table[index] |= 1 << (to_rank * 8 + to_file);
            }
            step += 1;
        }
        index += 1;
    }
    table
}

/// King steps from every square: the 8 neighbours.
pub static KING_ATTACKS: [u64; 64] = step_table(&[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
]);

/// Knight jumps from every square.
pub static KNIGHT_ATTACKS: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

/// Ray directions as (file, rank) steps. The first four raise the bit index (the nearest
/// blocker is the lowest set bit), the last four lower it (the nearest is the highest).
const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),   // north
    (1, 0),   // east
    (1, 1),   // north-east
    (-1, 1),  // north-west
    (0, -1),  // south
    (-1, 0),  // west
    (-1, -1), // south-west
    (1, -1),  // south-east
];

/// `RAYS[direction][square]`: every square from `square` to the edge in that direction.
static RAYS: [[u64; 64]; 8] = ray_tables();

const fn ray_tables() -> [[u64; 64]; 8] {
    let mut rays = [[0u64; 64]; 8];
    let mut direction = 0;
    while direction < 8 {
        let (step_file, step_rank) = DIRECTIONS[direction];
        let mut index = 0;
        while index < 64 {
            let mut file = (index % 8) as i8 + step_file;
            let mut rank = (index / 8) as i8 + step_rank;
            while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                rays[direction][index] |= 1 << (rank * 8 + file);
                file += step_file;
                rank += step_rank;
            }
            index += 1;
        }
        direction += 1;
    }
    rays
}

/// `BEYOND[from][through]`: the squares past `through` on the straight line from `from`
/// (empty when the two squares share no rank, file or diagonal). A slider on `from` that
/// reaches `through` loses these squares (up to its next blocker) when `through` is filled.
static BEYOND: [[u64; 64]; 64] = beyond_tables();

const fn beyond_tables() -> [[u64; 64]; 64] {
    let mut beyond = [[0u64; 64]; 64];
    let mut from = 0;
    while from < 64 {
        let mut direction = 0;
        while direction < 8 {
            let (step_file, step_rank) = DIRECTIONS[direction];
            let mut file = (from % 8) as i8 + step_file;
            let mut rank = (from / 8) as i8 + step_rank;
            while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                let through = (rank * 8 + file) as usize;
                beyond[from][through] = RAYS[direction][through];
                file += step_file;
                rank += step_rank;
            }
            direction += 1;
        }
        from += 1;
    }
    beyond
}

/// The squares past `through` on the line from `from`, read from a table built once.
#[inline]
pub fn beyond(from: Square, through: Square) -> u64 {
    BEYOND[from.index()][through.index()]
}

/// The ray from `square` in a bit-raising direction, up to and including the first
/// occupied square.
#[inline]
fn ray_up(direction: usize, square: usize, occupied: u64) -> u64 {
    let ray = RAYS[direction][square];
    let blockers = ray & occupied;
    if blockers == 0 {
        ray
    } else {
        ray ^ RAYS[direction][blockers.trailing_zeros() as usize]
    }
}

/// The ray from `square` in a bit-lowering direction, up to and including the first
/// occupied square.
#[inline]
fn ray_down(direction: usize, square: usize, occupied: u64) -> u64 {
    let ray = RAYS[direction][square];
    let blockers = ray & occupied;
    if blockers == 0 {
        ray
    } else {
        ray ^ RAYS[direction][63 - blockers.leading_zeros() as usize]
    }
}

/// The ray from `square` in `direction` (an index into the direction table: 0 north,
/// 1 east, 2 north-east, 3 north-west, then their opposites at `direction ^ 4`), up to and
/// including the first occupied square.
#[inline]
pub fn ray(direction: usize, square: Square, occupied: u64) -> u64 {
    if direction < 4 {
        ray_up(direction, square.index(), occupied)
    } else {
        ray_down(direction, square.index(), occupied)
    }
}

/// True for the orthogonal directions of [`ray`] (a Rook's), false for the diagonal ones.
#[inline]
pub const fn is_orthogonal(direction: usize) -> bool {
    direction & 2 == 0
}

/// Rook attacks: the four orthogonal rays, each stopping at (and including) the first
/// occupied square. A magic-table lookup (`super::magic`).
#[inline]
pub fn rook_attacks(square: Square, occupied: u64) -> u64 {
    ROOK_TABLE.attacks(square.index(), occupied)
}

/// Bishop attacks: the four diagonal rays, each stopping at (and including) the first
/// occupied square. A magic-table lookup (`super::magic`).
#[inline]
pub fn bishop_attacks(square: Square, occupied: u64) -> u64 {
    BISHOP_TABLE.attacks(square.index(), occupied)
}

#[cfg(test)]
mod tests {
    use super::super::piece::{PieceKind, attacks};
    use super::*;

    fn square(name: &str) -> Square {
        let bytes = name.as_bytes();
        Square::new(bytes[0] - b'a', bytes[1] - b'1').expect("test squares are on the board")
    }

    #[test]
    fn square_colours_and_names() {
        assert!(square("a1").is_dark());
        assert!(!square("b1").is_dark());
        assert!(square("h8").is_dark());
        assert!(!square("a8").is_dark());
        assert_eq!(DARK_SQUARES.count_ones(), 32);
        assert_eq!(square("e4").to_string(), "e4");
        assert_eq!(square("h8").index(), 63);
    }

    #[test]
    fn neighbourhood_matches_the_king_table() {
        for index in 0..64u8 {
            let from = Square::from_index(index).expect("index below 64");
            assert_eq!(neighbours(from.bit()), KING_ATTACKS[from.index()], "{from}");
        }
        assert_eq!(KING_ATTACKS[0].count_ones(), 3);
        assert_eq!(KNIGHT_ATTACKS[square("e4").index()].count_ones(), 8);
        assert_eq!(KNIGHT_ATTACKS[square("a1").index()].count_ones(), 2);
    }

    #[test]
    fn sliding_rays_stop_at_the_first_blocker() {
        let e4 = square("e4");
        assert_eq!(attacks(PieceKind::Queen, square("d4"), 0).count_ones(), 27);
        assert_eq!(attacks(PieceKind::Rook, e4, 0).count_ones(), 14);
        let blockers = square("e6").bit() | square("c2").bit();
        let rook = rook_attacks(e4, blockers);
        assert!(rook & square("e6").bit() != 0);
        assert!(rook & square("e7").bit() == 0);
        let bishop = bishop_attacks(e4, blockers);
        assert!(bishop & square("c2").bit() != 0);
        assert!(bishop & square("b1").bit() == 0);
        assert_eq!(bishop.count_ones(), 13 - 1);
    }

    /// The union of the rays of `directions`, the reference for the magic tables.
    fn attacks_by_rays(directions: [usize; 4], square: Square, occupied: u64) -> u64 {
        directions
            .iter()
            .fold(0, |all, &direction| all | ray(direction, square, occupied))
    }

    #[test]
    fn magic_attacks_equal_the_rays_on_random_boards() {
        let mut rng = crate::random::SplitMix64::new(7);
        for round in 0..20_000 {
            // Sparse to dense boards: and-ing fewer random words sets more bits.
            let mut occupied = rng.next_u64();
            for _ in 0..round % 5 {
                occupied &= rng.next_u64();
            }
            for index in 0..64u8 {
                let from = Square::from_index(index).expect("index below 64");
                let rook = attacks_by_rays([0, 1, 4, 5], from, occupied);
                let bishop = attacks_by_rays([2, 3, 6, 7], from, occupied);
                assert_eq!(rook_attacks(from, occupied), rook, "{from} {occupied:#x}");
                assert_eq!(
                    bishop_attacks(from, occupied),
                    bishop,
                    "{from} {occupied:#x}"
                );
                let queen = attacks(PieceKind::Queen, from, occupied);
                assert_eq!(queen, rook | bishop, "{from} {occupied:#x}");
            }
        }
    }
}
