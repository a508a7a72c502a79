//! Cheversi (protocol.md, Appendix A): a placement game on the 8x8 board.
//!
//! Each side holds K, Q, R, R, B, B, N, N in hand; the board starts empty. The sides take
//! turns placing one piece on an empty square, 8 placements each, 16 in all; pieces never
//! move. A placement is legal when:
//! 1. White's first placement is its King (any square);
//! 2. every later one touches (8-neighbourhood) a piece of either colour;
//! 3. Black's King is Black's 8th placement, never earlier;
//! 4. a second Bishop stands on the square colour opposite its owner's first Bishop;
//! 5. queen call: after a Queen placement, the mover places its Queen if still in hand;
//! 6. Black places its Queen by its 7th placement at the latest;
//! 7. White's 8th placement leaves an empty square next to it;
//! 8. Black's 8th placement (the King) touches White's 8th piece.
//!
//! Fallback (a rule decision, protocol.md "Rule decisions"): if the rules leave no placement, rule 2 is dropped for
//! that move, and a mover still without one loses. Neither step can happen with at most 16
//! pieces: when rule 2 leaves nothing, the touched-or-occupied squares of the colour (or
//! all squares) needed form a set closed under diagonal (or king) steps, hence cover the
//! whole colour class, so dropping rule 2 adds nothing; and leaving nothing needs at least
//! 16 pieces (a vertex cover of that class's diagonal graph, which has a perfect matching of
//! 16 pairs), while at most 14 stand on the board at White's 8th. The Cheversi section of
//! `protocol.md` gives the argument in full; the code still implements the fallback.
//!
//! Score, after the 16th placement (and as "points so far" before it): one point per pair
//! (own piece, empty square it attacks). Kings attack their 8 neighbours, Knights their
//! jumps; Rooks, Bishops and Queens attack along chess rays that stop at the first occupied
//! square. More points wins; equal points draw.
//!
//! Notation: a move is a piece letter and a square, `Ke4` (`K@e4`, and either case, accepted
//! on input). Position string: `<ranks 8..1> <w|b> <last placement square or ->`, with
//! `KQRBN` White, `kqrbn` Black and digits for empty runs; the start is
//! `8/8/8/8/8/8/8/8 w -`.
//!
//! ```text
//!   8  a8 b8 c8 d8 e8 f8 g8 h8      bit = 8 * (rank - 1) + file index
//!   7  .  .  .  .  .  .  .  .       a1 = bit 0, h1 = bit 7, h8 = bit 63
//!   6  .  .  .  .  .  .  .  .
//!   5  .  .  .  q  .  .  .  .       White Ke4, Black Qd5:
//!   4  .  .  .  .  K  .  .  .       White 7 points, Black 23
//!   3  .  .  .  .  .  .  .  .       (`3q4/4K3` in the position string)
//!   2  .  .  .  .  .  .  .  .
//!   1  a1 b1 c1 d1 e1 f1 g1 h1      a1 is dark
//!      a  b  c  d  e  f  g  h
//! ```
//!
//! Files: [`bitboard`] (squares, attack tables, rays), `magic` (slider attack tables),
//! `facts` ([`FACTS`]: the names, the board, the score units), [`piece`] (kinds, the two-byte
//! [`Move`]), [`position`] (the `Copy` state, make-move, points), [`movegen`] (legal
//! placements as masks, the reasons for refusals), [`notation`] (text in and out),
//! [`zobrist`] (hash keys).

pub mod bitboard;
mod facts;
mod magic;
pub mod movegen;
pub mod notation;
pub mod piece;
pub mod position;
pub mod zobrist;

pub use bitboard::{Square, Squares};
pub use facts::FACTS;
pub use piece::{Move, PieceKind, attacks};
pub use position::{Cheversi, PLACEMENTS};

use crate::game::{GameConfig, MoveError, Outcome, Player, PositionError, Rules};

impl Cheversi {
    /// Parses and validates a position string (see [`notation`]).
    pub fn from_text(text: &str) -> Result<Cheversi, PositionError> {
        notation::parse_position(text)
    }

    /// Parses a move string without checking legality (see [`notation`]).
    pub fn parse_move_text(text: &str) -> Result<Move, MoveError> {
        notation::parse_move_text(text)
    }

    /// `Ok` when `mv` is legal here, else the reason, naming `mv`'s canonical text.
    pub fn check(&self, mv: Move) -> Result<(), MoveError> {
        notation::check_move(self, mv, &mv.to_string()).map(|_| ())
    }
}

impl Rules for Cheversi {
    type Move = Move;

    fn start(_config: &GameConfig) -> Result<Self, PositionError> {
        Ok(Cheversi::new())
    }

    fn from_position_text(text: &str, _config: &GameConfig) -> Result<Self, PositionError> {
        notation::parse_position(text)
    }

    fn position_text(&self) -> String {
        notation::position_text(self)
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        Cheversi::side_to_move(self)
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.generate_placements(moves);
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        self.count_placements()
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        self.place(mv);
    }

    fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        self.check(mv)?;
        self.place(mv);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.is_finished() {
            let [white, black] = self.score();
            Some(match white.cmp(&black) {
                std::cmp::Ordering::Greater => Outcome::Win(Player::One),
                std::cmp::Ordering::Less => Outcome::Win(Player::Two),
                std::cmp::Ordering::Equal => Outcome::Draw,
            })
        } else if self.has_no_placement() {
            // Only after the fallback also failed (unreachable; see the module docs).
            Some(Outcome::Win(self.side_to_move().opponent()))
        } else {
            None
        }
    }

    fn score(&self) -> [i32; 2] {
        [self.points(Player::One), self.points(Player::Two)]
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.zobrist()
    }

    fn move_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_legal_move(self, text)
    }
}

#[cfg(test)]
mod tests;
