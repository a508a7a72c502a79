//! The checkers move: a compact, `Copy` encoding of the full path.
//!
//! One `u128`: bits 0-8 hold the start cell (a bit of the padded layout, below 289),
//! bits 9-13 the number of jumps (0 for a step), and from bit 14 one 3-bit direction code
//! ([`Direction::index`](crate::board::hex::Direction::index)) per jump, or the step's
//! direction. Up to 30 jumps fit (90 bits); no side ever has more than 30 men to lose.
//! Equality is equality of paths, as the rules demand: two chains ending in the same
//! position are different moves.

/// Most jumps one chain can hold: every enemy man at most once, and no side has more
/// than 30 men (hex checkers on side 9).
pub const MAX_JUMPS: usize = 30;

const START_MASK: u128 = (1 << 9) - 1;
const COUNT_SHIFT: u32 = 9;
const COUNT_MASK: u128 = (1 << 5) - 1;
const DIRECTIONS_SHIFT: u32 = 14;

/// A step or a whole capture chain (see the module doc for the encoding).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u128);

impl Move {
    /// A step from `from` in direction `direction` (an index into `Direction::ALL`).
    #[inline]
    pub(super) fn step(from: usize, direction: usize) -> Move {
        Move(from as u128 | (direction as u128) << DIRECTIONS_SHIFT)
    }

    /// A chain of `jumps` jumps from `start`; `directions` holds 3 bits per jump, the
    /// first jump lowest, and nothing above the last.
    #[inline]
    pub(super) fn capture(start: usize, jumps: usize, directions: u128) -> Move {
        debug_assert!((1..=MAX_JUMPS).contains(&jumps));
        Move(start as u128 | (jumps as u128) << COUNT_SHIFT | directions << DIRECTIONS_SHIFT)
    }

    /// The cell (bit) the man starts from.
    #[inline]
    pub fn start(self) -> usize {
        (self.0 & START_MASK) as usize
    }

    /// True for a capture chain, false for a step.
    #[inline]
    pub fn is_capture(self) -> bool {
        self.capture_count() > 0
    }

    /// How many men the move captures (its number of jumps); 0 for a step.
    #[inline]
    pub fn capture_count(self) -> usize {
        ((self.0 >> COUNT_SHIFT) & COUNT_MASK) as usize
    }

    /// The direction index of the `index`-th jump (or of the step, index 0).
    #[inline]
    pub fn direction(self, index: usize) -> usize {
        ((self.0 >> (DIRECTIONS_SHIFT as usize + 3 * index)) & 7) as usize
    }

    /// A step's code in 12 bits (start cell, then direction), for the search's table;
    /// `None` for a capture, whose path does not fit.
    #[inline]
    pub fn step_code(self) -> Option<u16> {
        (!self.is_capture()).then(|| self.start() as u16 | (self.direction(0) as u16) << 9)
    }

    /// The step of a [`Move::step_code`], if `code` is one (any cell below 512, a
    /// direction below 6).
    #[inline]
    pub fn from_step_code(code: u16) -> Option<Move> {
        let direction = usize::from(code >> 9);
        (direction < 6).then(|| Move::step(usize::from(code & 511), direction))
    }

    /// Number of path segments: the jumps, or 1 for a step.
    #[inline]
    pub fn segments(self) -> usize {
        self.capture_count().max(1)
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let directions: Vec<usize> = (0..self.segments()).map(|i| self.direction(i)).collect();
        f.debug_struct("Move")
            .field("start", &self.start())
            .field("capture", &self.is_capture())
            .field("directions", &directions)
            .finish()
    }
}
