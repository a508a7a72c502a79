//! Cheversi for the solver: the engine's own position with the score kept incrementally
//! (each placement changes the points by [`Cheversi::square_effect`], computed once per
//! square for every kind), placements ordered by the margin they gain at once and the
//! opponent's replies they leave, the last three placements solved without the search's own
//! nodes (`ending`: most of White's 8th candidates settled by a bound on Black's King
//! reply, read from square facts that sibling positions share), most of White's 7th
//! placements settled by the same bounds before a position is built for them
//! (`white_seventh`), White's 6th placements answered by Black's 6th killer and valued by
//! that pass without search nodes in between (`white_sixth`), Black's 7th placements where
//! they must fail settled by White's 8th killer's reply (`black_seventh`), and an exact
//! 128-bit key.
//!
//! The key names a position exactly: the occupied squares, then one 4-bit code (colour and
//! kind) per piece in square order, 16 pieces at most; a spare code holds the rule state
//! the board does not show (the queen call, or which piece was placed last when Black's
//! King must touch it). Early in the game, when few pieces stand, the key is the smallest
//! over the board's 8 symmetries: every rule (touching, the Bishops' square colours, the
//! attack patterns) is kept by rotations and mirrors, since no piece has a direction.

use std::sync::atomic::AtomicBool;

use crate::game::cheversi::{Cheversi, Move, PLACEMENTS, PieceKind, Square, Squares};
use crate::game::{Player, Rules};
use crate::search::estimate::fixed_depth_value;

use super::search::{Child, Solvable, Staged};

mod black_seventh;
mod ending;
mod state;
mod white_seventh;
mod white_sixth;

use super::table::{Key, SolveTable};
use ending::Scratch;
use state::VALUE_BOUND;

pub use state::CheversiState;

/// Positions with at most this many pieces get the symmetric key (it costs 8 encodings).
const SYMMETRIC_KEY_PLACEMENTS: u8 = 6;

/// From this many placements before the end, MTD(f) starts from the evaluation search's
/// value; nearer the end from the greedy game's margin. At 8 the estimate already breaks
/// even (8% fewer nodes over 13 positions, the same time); nearer the end a whole solve
/// takes a few milliseconds.
const ESTIMATE_MIN_REMAINING: u32 = 8;

/// About how many nodes an exact solve (the margin, not only win/draw/loss) takes at most
/// with `left` placements to go, for the engine's choice to try the solver in a move's
/// time: about one and a half times the largest count measured on positions reached by
/// partly random play (the suites of `tests/data/cheversi_solve_positions.txt`: 8 left
/// 340,000 over 13 positions, 9 left 1.0 million over 8, 10 left 9.4 million over 17, 11
/// left 47 million over 4, 12 left 340 million over 11), further out some 5 times more a
/// placement.
pub fn solver_nodes_estimate(left: u8) -> u64 {
    const BY_LEFT: [u64; 17] = [
        1,
        1,
        10,
        100,
        1_000,
        6_000,
        30_000,
        150_000,
        500_000,
        1_500_000,
        14_000_000,
        70_000_000,
        500_000_000,
        2_500_000_000,
        14_000_000_000,
        70_000_000_000,
        350_000_000_000,
    ];
    BY_LEFT[usize::from(left.min(16))]
}

impl CheversiState {
    pub fn new(position: Cheversi) -> Self {
        let margin = position.points(Player::One) - position.points(Player::Two);
        CheversiState { position, margin }
    }

    pub fn position(&self) -> &Cheversi {
        &self.position
    }

    /// The mover's margin now.
    fn mover_margin(&self) -> i32 {
        match self.position.side_to_move() {
            Player::One => self.margin,
            Player::Two => -self.margin,
        }
    }

    /// Every legal placement with the change of the mover's margin it makes, into `moves`
    /// (cleared first): one [`Cheversi::square_effect`] per square, shared by the kinds.
    fn placements_with_gains(&self, moves: &mut Vec<(i32, Move)>) {
        moves.clear();
        self.each_placement_with_gain(|gain, mv| moves.push((gain, mv)));
    }

    /// Calls `visit` with every legal placement's gain and the placement (see
    /// [`CheversiState::placements_with_gains`]): the children are built from it directly,
    /// without a move list between.
    #[inline]
    fn each_placement_with_gain(&self, mut visit: impl FnMut(i32, Move)) {
        let squares = self.position.legal_squares_by_kind();
        let mover = self.position.side_to_move().index();
        let any = squares.iter().fold(0, |all, set| all | set);
        for square in Squares(any) {
            let effect = self.position.square_effect(square);
            let taken = effect.losses[1 - mover] - effect.losses[mover];
            for kind in PieceKind::ALL {
                if squares[kind.index()] & square.bit() != 0 {
                    visit(effect.gains[kind.index()] + taken, Move::new(kind, square));
                }
            }
        }
    }

    /// How `mv` changes the mover's margin.
    fn gain(&self, mv: Move) -> i32 {
        self.position
            .square_effect(mv.square())
            .margin_change(self.position.side_to_move(), mv.kind())
    }

    /// The position after `mv`, which changes the mover's margin by `gain`.
    fn after(&self, mv: Move, gain: i32) -> CheversiState {
        let mut position = self.position.clone();
        let white_gain = match self.position.side_to_move() {
            Player::One => gain,
            Player::Two => -gain,
        };
        position.place(mv);
        CheversiState {
            position,
            margin: self.margin + white_gain,
        }
    }
}

impl Solvable for CheversiState {
    type Move = Move;
    type Scratch = Scratch;

    fn final_value(&self) -> Option<i32> {
        self.position.is_finished().then(|| self.mover_margin())
    }

    /// Ordered by the margin gained at once less the opponent's number of replies (the
    /// Othello solvers' "fastest first"): a refutation that leaves the opponent fewer
    /// placements has fewer of them to refute in turn. On the 17 positions ten placements
    /// before the end this takes a fifth fewer nodes for the margin than the gain alone.
    fn children(&self, children: &mut Vec<Child<Self>>) {
        children.clear();
        self.each_placement_with_gain(|gain, mv| {
            let position = self.after(mv, gain);
            let replies = position.position.count_placements() as i32;
            children.push(Child {
                mv,
                order: gain - replies,
                position,
            });
        });
    }

    /// Where MTD(f) starts. From 8 placements before the end, the value of the evaluation
    /// search a placement short of the end (rounded to points): on the 17 positions 10
    /// placements before the end it was exact on 10 and a point off on the other 7, and
    /// cost 45 to 115 ms there. Nearer the end, the margin of the game played on greedily,
    /// each side taking its largest immediate gain.
    fn guess(&self, stop: &AtomicBool) -> i32 {
        let remaining = self.remaining();
        if remaining >= ESTIMATE_MIN_REMAINING {
            let value = fixed_depth_value(&self.position, &(), remaining - 1, stop);
            return (value + 50 * value.signum()) / 100;
        }
        let mover = self.position.side_to_move();
        let mut state = self.clone();
        let mut moves = Vec::with_capacity(128);
        while !state.position.is_finished() {
            state.placements_with_gains(&mut moves);
            let Some(&(gain, mv)) = moves.iter().max_by_key(|(gain, _)| *gain) else {
                break;
            };
            state = state.after(mv, gain);
        }
        match mover {
            Player::One => state.margin,
            Player::Two => -state.margin,
        }
    }

    fn children_above(
        &self,
        alpha: i32,
        tried: Staged,
        children: &mut Vec<Child<Self>>,
        scratch: &mut Scratch,
        table: &SolveTable,
        nodes: &mut u64,
    ) -> Option<i32> {
        CheversiState::children_above(self, alpha, tried, children, scratch, table, nodes)
    }

    fn key(&self) -> Key {
        let pieces = pieces(&self.position);
        let last = self.position.last_placement().map(|mv| mv.square().index());
        let queen_call = self.position.queen_call();
        let placements = self.position.placements();
        if placements > SYMMETRIC_KEY_PLACEMENTS {
            return encode(&pieces, last, placements, queen_call);
        }
        symmetric_key(&pieces, last, placements, queen_call)
    }

    fn root_key(&self) -> Key {
        position_key(&self.position)
    }

    fn move_code(&self, mv: Move) -> u32 {
        (mv.kind().index() as u32 + 1) << 6 | mv.square().index() as u32
    }

    fn child_by_code(&self, code: u32) -> Option<Child<Self>> {
        let kind = PieceKind::from_index((code >> 6).checked_sub(1)? as usize)?;
        let square = Square::from_index((code & 63) as u8)?;
        let mv = Move::new(kind, square);
        if !self.position.is_legal(mv) {
            return None;
        }
        let gain = self.gain(mv);
        // Not sorted (see the trait), so the replies `children` counts for the order are
        // not counted here: that would be a move generation per staged move.
        Some(Child {
            mv,
            order: gain,
            position: self.after(mv, gain),
        })
    }

    fn move_text(&self, mv: Move) -> String {
        self.position.move_text(mv)
    }

    fn remaining(&self) -> u32 {
        u32::from(PLACEMENTS.saturating_sub(self.position.placements()))
    }

    fn value_bound(&self) -> i32 {
        VALUE_BOUND
    }

    fn shortcut(
        &self,
        alpha: i32,
        beta: i32,
        scratch: &mut Scratch,
        nodes: &mut u64,
    ) -> Option<i32> {
        match self.remaining() {
            1 => Some(self.last_placement(beta)),
            2 => Some(self.last_two_placements(alpha, beta, scratch)),
            3 => Some(self.black_seventh(alpha, beta, scratch, nodes)),
            _ => None,
        }
    }

    const TABLE_MIN_REMAINING: u32 = 4;

    /// From 6 placements left: at 4 and 5 the children's keys and probes (children mostly
    /// not in the table: their own children are settled without nodes) cost more than
    /// the cut-offs save.
    const ETC_MIN_REMAINING: u32 = 6;

    /// White's 6th placement, the node of the 6th pass, and above: on the five 12-left
    /// positions two threads took 65.7 to 69.3 s in all with it and 77.4 s without (one
    /// thread 84.2 s), then with the same root order in every thread 47.5 to 59.0 s;
    /// from 5 or 7 left on it was slower on some of them.
    const DEFER_MIN_REMAINING: u32 = 6;
}

/// The position's pieces by colour and kind.
fn pieces(position: &Cheversi) -> [[u64; 5]; 2] {
    [Player::One, Player::Two]
        .map(|player| PieceKind::ALL.map(|kind| position.pieces(player, kind)))
}

/// The exact key of a position given by its pieces and rule state (see the module notes).
fn encode(pieces: &[[u64; 5]; 2], last: Option<usize>, placements: u8, queen_call: bool) -> Key {
    let occupied = pieces.iter().flatten().fold(0, |all, set| all | set);
    let mut codes = 0u64;
    let mut shift = 0;
    for square in Squares(occupied) {
        let bit = square.bit();
        let colour = u64::from(pieces[0].iter().all(|set| set & bit == 0));
        let kind = pieces[colour as usize]
            .iter()
            .position(|set| set & bit != 0)
            .unwrap_or(0) as u64;
        codes |= (colour << 3 | kind) << shift;
        shift += 4;
    }
    // With 15 pieces or fewer the last code is free: it holds the rule state.
    let spare = if placements == PLACEMENTS - 1 {
        last.map_or(0, |square| {
            (occupied & ((1u64 << square) - 1)).count_ones() as u64
        })
    } else {
        u64::from(queen_call)
    };
    if placements < PLACEMENTS {
        codes |= spare << 60;
    }
    [occupied, codes]
}

/// The smallest key over the 8 symmetries of the board.
pub fn symmetric_key(
    pieces: &[[u64; 5]; 2],
    last: Option<usize>,
    placements: u8,
    queen_call: bool,
) -> Key {
    (0..8)
        .map(|symmetry| {
            let image = pieces.map(|sets| sets.map(|set| transform(symmetry, set)));
            let last =
                last.map(|square| transform(symmetry, 1u64 << square).trailing_zeros() as usize);
            encode(&image, last, placements, queen_call)
        })
        .min()
        .expect("eight symmetries")
}

/// The image of a set of squares under symmetry `index` (0 to 7): bit 0 flips the ranks,
/// bit 1 the files, bit 2 mirrors along the a1-h8 diagonal.
pub fn transform(index: usize, set: u64) -> u64 {
    let mut set = set;
    if index & 1 != 0 {
        set = set.swap_bytes();
    }
    if index & 2 != 0 {
        const K1: u64 = 0x5555_5555_5555_5555;
        const K2: u64 = 0x3333_3333_3333_3333;
        const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
        set = ((set >> 1) & K1) | ((set & K1) << 1);
        set = ((set >> 2) & K2) | ((set & K2) << 2);
        set = ((set >> 4) & K4) | ((set & K4) << 4);
    }
    if index & 4 != 0 {
        const K1: u64 = 0x5500_5500_5500_5500;
        const K2: u64 = 0x3333_0000_3333_0000;
        const K4: u64 = 0x0f0f_0f0f_0000_0000;
        let mut t = K4 & (set ^ (set << 28));
        set ^= t ^ (t >> 28);
        t = K2 & (set ^ (set << 14));
        set ^= t ^ (t >> 14);
        t = K1 & (set ^ (set << 7));
        set ^= t ^ (t >> 7);
    }
    set
}

/// The symmetric key of a whole position (for the root's moves, which lead to the same
/// position up to symmetry when the root is symmetric).
pub fn position_key(position: &Cheversi) -> Key {
    symmetric_key(
        &pieces(position),
        position.last_placement().map(|mv| mv.square().index()),
        position.placements(),
        position.queen_call(),
    )
}

/// A board by `placements` random placements from the start (for the tests of this
/// module and its parts).
#[cfg(test)]
pub(in crate::solve) fn random_board(
    rng: &mut crate::random::SplitMix64,
    placements: u8,
) -> Cheversi {
    let mut board = Cheversi::new();
    let mut moves = Vec::new();
    while board.placements() < placements {
        board.legal_moves(&mut moves);
        board.play_unchecked(moves[rng.below(moves.len())]);
    }
    board
}

/// Plain minimax over the engine's rules: the final margin for the side to move (the
/// truth the tests of this module's parts compare the shortcuts with).
#[cfg(test)]
fn minimax(position: &Cheversi) -> i32 {
    let mover = position.side_to_move();
    if position.is_finished() {
        return position.points(mover) - position.points(mover.opponent());
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            -minimax(&child)
        })
        .max()
        .expect("a running game has moves")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cheversi::bitboard::KING_ATTACKS;

    /// Fastest first: a child's ordering score is the margin its placement gains the
    /// mover at once less the placements it leaves the opponent, so of two placements
    /// gaining alike the one leaving fewer replies is tried first.
    #[test]
    fn children_are_ordered_by_gain_less_the_replies_they_leave() {
        let mut rng = crate::random::SplitMix64::new(77);
        let mut fewer_replies_first = 0;
        for placements in [1, 5, 9, 12] {
            let state = CheversiState::new(random_board(&mut rng, placements));
            let mut children = Vec::new();
            state.children(&mut children);
            assert!(!children.is_empty());
            for child in &children {
                let gain = state.gain(child.mv);
                let replies = child.position.position.count_placements() as i32;
                assert_eq!(child.order, gain - replies, "{}", child.mv);
                assert_eq!(
                    -child.position.mover_margin(),
                    state.mover_margin() + gain,
                    "the child's margin follows the gain"
                );
            }
            fewer_replies_first += usize::from(children.iter().any(|child| {
                let replies = child.position.position.count_placements();
                children.iter().any(|other| {
                    state.gain(other.mv) == state.gain(child.mv)
                        && other.position.position.count_placements() > replies
                })
            }));
        }
        assert!(
            fewer_replies_first > 0,
            "the replies told some equal gains apart"
        );
    }

    #[test]
    fn the_eight_symmetries_keep_king_steps_and_are_distinct() {
        let corner = 1u64; // a1
        let images: std::collections::BTreeSet<u64> = (0..8)
            .map(|index| transform(index, 0x0000_0000_0001_0003))
            .collect();
        assert_eq!(images.len(), 8, "an asymmetric shape has 8 distinct images");
        for index in 0..8 {
            let image = transform(index, corner).trailing_zeros() as usize;
            assert_eq!(
                transform(index, KING_ATTACKS[0]),
                KING_ATTACKS[image],
                "symmetry {index}"
            );
        }
    }
}
