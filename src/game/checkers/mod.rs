//! Hex checkers: `kruzno` (Kruzno Checkers, side 6 with the border rule) and `hexcheckers`
//! (side 9 by default, sides 4 to 9), one module parameterised by the board side and the
//! border rule (protocol.md, Appendix B).
//!
//! Rules in short: men only, no promotion. A step goes to an adjacent empty cell in any of
//! the six directions; a jump goes over an adjacent enemy man to the empty cell beyond.
//! Capturing is mandatory and a chain continues while a further jump exists, but any
//! complete chain may be chosen. A man is jumped at most once per chain, the mover's start
//! cell counts as empty, and jumped men leave at the end of the move. The side to move with
//! no legal move loses; 80 plies without a capture, or a threefold repetition (through
//! [`GameRecord`](crate::game::GameRecord)), draws. Kruzno adds the border rule: a man that
//! ends its move on the outer ring is *obligated* for its owner's next turn (captures first;
//! otherwise it must step inward if it can).
//!
//! Kruzno's start (side 6): `#` marks the 30 restricted border cells, `.` the inner cells.
//! Rows run from `a` (White's edge, bottom) to `k`; cells are numbered from White's left.
//!
//! ```text
//! k       # # # # # #    k1-k6
//! j      # B B B B B #   j1-j7
//! i     # . B B B B . #   i1-i8
//! h    # . . B B B . . #   h1-h9
//! g   # . . . . . . . . #   g1-g10
//! f  # . . . . . . . . . #   f1-f11
//! e   # . . . . . . . . #   e1-e10
//! d    # . . W W W . . #   d1-d9
//! c     # . W W W W . #   c1-c8
//! b      # W W W W W #   b1-b7
//! a       # # # # # #    a1-a6
//! ```
//!
//! Notation: a step `c3-d4`; a capture lists the start and every landing cell, `c3xe3xe5`.
//! Position string: `<rows last..a> <w|b> <obligations or -> <plies since capture> <move>`.
//!
//! Representation: one [`StridedSet`] per colour in the padded layout, so every direction
//! is one plain shift per word; `N` words hold the board (2 for sides up to 6, 5 for
//! sides 7 to 9). Moves are
//! compact paths ([`Move`]); capture chains come from a depth-first search over a
//! fixed-size stack, so generation never allocates beyond the caller's buffer.

mod facts;
mod generation;
mod layout;
mod moves;
mod placement;
mod text;
mod zobrist;

#[cfg(test)]
mod tests;

use crate::board::hex::{HexGeometry, geometry};
use crate::board::strided::StridedSet;
use crate::game::{GameConfig, MoveError, Outcome, Player, PositionError, Rules, Variant};

pub use facts::{HEX_CHECKERS, KRUZNO};
pub use generation::GrowingTask;
pub use moves::{MAX_JUMPS, Move};
pub use placement::Placement;
pub use text::position_side;

use layout::{Layout, layout};
use zobrist::KEYS;

/// Checkers on boards of side 4 to 6 (two 64-bit words per set).
pub type SmallCheckers = Checkers<2>;
/// Checkers on boards of side 7 to 9 (five 64-bit words per set).
pub type LargeCheckers = Checkers<5>;

/// Plies without a capture that draw the game (the position string's fourth field).
pub const DRAW_PLIES: u16 = 80;
/// Largest move number a position string may give.
pub const MAX_MOVE_NUMBER: u32 = 1_000_000;
/// Marks "no obligation" in [`Checkers::obligations`].
const NO_CELL: u16 = u16::MAX;

/// A checkers position: men per colour, side to move, obligations and counters; the
/// board's constant tables sit behind one pointer (`Layout`).
#[derive(Clone, Debug)]
pub struct Checkers<const N: usize> {
    /// White's men, then Black's.
    men: [StridedSet<N>; 2],
    layout: &'static Layout,
    /// Each colour's running [`Placement`] sums, kept by make-move.
    placement: [Placement; 2],
    hash: u64,
    move_number: u32,
    /// Cell of each colour's obligated man, `NO_CELL` for none.
    obligations: [u16; 2],
    plies_since_capture: u16,
    side: Player,
}

impl<const N: usize> Checkers<N> {
    /// An empty board of `side` (one of hex checkers' sides, fitting in `N` words; a
    /// Kruzno position string may give any of them too), White to move.
    fn empty_board(side: usize, border_rule: bool, token: &str) -> Result<Self, PositionError> {
        let sides = &HEX_CHECKERS.sizes;
        let layout = layout(side, border_rule)
            .filter(|layout| sides.contains(&side) && layout.geometry.words() <= N)
            .ok_or_else(|| PositionError::BoardSize {
                token: token.to_string(),
                side,
                min: *sides.start(),
                // Outside the sides, their range; inside it, what `N` words can hold.
                max: if sides.contains(&side) {
                    Self::max_side()
                } else {
                    *sides.end()
                },
            })?;
        Ok(Checkers {
            men: [StridedSet::EMPTY; 2],
            layout,
            placement: [Placement::default(); 2],
            hash: 0,
            move_number: 1,
            obligations: [NO_CELL; 2],
            plies_since_capture: 0,
            side: Player::One,
        })
    }

    /// The largest board side whose sets fit in `N` words.
    fn max_side() -> usize {
        let sides = HEX_CHECKERS.sizes.clone();
        let smallest = *sides.start();
        sides
            .rev()
            .find(|&side| geometry(side).is_some_and(|geometry| geometry.words() <= N))
            .unwrap_or(smallest)
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    fn full_hash(&self) -> u64 {
        let mut hash = 0;
        for colour in 0..2 {
            for cell in self.men[colour] {
                hash ^= KEYS.men[colour][cell];
            }
            if self.obligations[colour] != NO_CELL {
                hash ^= KEYS.obligations[colour][self.obligations[colour] as usize];
            }
        }
        if self.side == Player::Two {
            hash ^= KEYS.black_to_move;
        }
        hash
    }

    /// The placement sums from scratch (the incremental ones must always equal them).
    fn full_placement(&self) -> [Placement; 2] {
        [0, 1].map(|colour| {
            let mut placement = Placement::default();
            for cell in self.men[colour] {
                placement.add(self.layout.placement_terms[cell][colour]);
            }
            placement
        })
    }

    /// Sets the hash and the placement sums from the men, after a position is set up.
    fn finish_setup(&mut self) {
        self.hash = self.full_hash();
        self.placement = self.full_placement();
    }

    /// Where `player`'s men stand: centre rings and rows advanced, summed.
    #[inline]
    pub fn placement(&self, player: Player) -> Placement {
        self.placement[player.index()]
    }

    /// Every cell of the board.
    #[inline]
    pub fn valid(&self) -> StridedSet<N> {
        self.layout.valid()
    }

    /// The restricted ring: the border when the rule is on, empty otherwise.
    #[inline]
    pub fn restricted(&self) -> StridedSet<N> {
        self.layout.restricted()
    }

    /// The cells of row `y` (0 is row `a`, White's edge), in the layout of [`Self::men`].
    #[inline]
    pub fn row_cells(&self, y: usize) -> StridedSet<N> {
        self.layout.row(y)
    }

    /// The men of `player`, one bit per cell in the padded layout of [`Self::geometry`].
    #[inline]
    pub fn men(&self, player: Player) -> StridedSet<N> {
        self.men[player.index()]
    }

    /// The board's geometry (side, cell names, neighbours, border).
    #[inline]
    pub fn geometry(&self) -> &'static HexGeometry {
        self.layout.geometry
    }

    /// True for Kruzno's border rule (obligations), false for plain hex checkers.
    #[inline]
    pub fn border_rule(&self) -> bool {
        self.layout.border_rule
    }

    /// The cell of `player`'s obligated man, if it has one.
    #[inline]
    pub fn obligation(&self, player: Player) -> Option<usize> {
        match self.obligations[player.index()] {
            NO_CELL => None,
            cell => Some(cell as usize),
        }
    }

    /// Plies since the last capture (the draw counter; the game is drawn at 80).
    #[inline]
    pub fn plies_since_capture(&self) -> usize {
        self.plies_since_capture as usize
    }

    /// The move number: 1 at the start, growing after each Black move.
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The cells a move lands on, in order (one for a step, one per jump for a chain).
    pub fn landing_cells(&self, mv: Move) -> impl Iterator<Item = usize> + '_ {
        let factor = if mv.is_capture() { 2 } else { 1 };
        (0..mv.segments()).scan(mv.start() as isize, move |cell, index| {
            *cell += factor * self.layout.offsets[mv.direction(index)] as isize;
            Some(*cell as usize)
        })
    }

    /// The cells of the men a move captures (empty for a step).
    pub fn captured_cells(&self, mv: Move) -> StridedSet<N> {
        let mut captured = StridedSet::EMPTY;
        let mut cell = mv.start() as isize;
        for index in 0..mv.capture_count() {
            let offset = self.layout.offsets[mv.direction(index)] as isize;
            captured.insert((cell + offset) as usize);
            cell += 2 * offset;
        }
        captured
    }
}

impl<const N: usize> Rules for Checkers<N> {
    type Move = Move;

    fn start(config: &GameConfig) -> Result<Self, PositionError> {
        Self::opening(config)
    }

    fn from_position_text(text: &str, config: &GameConfig) -> Result<Self, PositionError> {
        Self::parse_position(text, config.variant == Variant::Kruzno)
    }

    fn position_text(&self) -> String {
        self.write_position()
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves);
    }

    fn count_moves(&self) -> u64 {
        self.count()
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.apply(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.has_moves() {
            Some(Outcome::Win(self.side.opponent()))
        } else if self.plies_since_capture >= DRAW_PLIES {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn score(&self) -> [i32; 2] {
        [self.men[0].len() as i32, self.men[1].len() as i32]
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn repetition_window(&self) -> usize {
        self.plies_since_capture as usize
    }

    fn move_text(&self, mv: Move) -> String {
        self.write_move(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.read_move(text)
    }
}
