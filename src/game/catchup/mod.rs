//! Catchup (protocol.md, Appendix C): two players place stones on an empty hexhex board
//! until it is full; the larger groups win.
//!
//! Rules in brief: White's first turn places exactly 1 stone. Every later turn places 1 or
//! 2 stones on any empty cells, or up to 3 when the opponent's last turn raised its score
//! and left it at least the mover's (the revised rule; [`CatchupRule::Original`] grants 3
//! when the opponent's turn grew the largest group on the board). The limit is capped by
//! the number of empty cells; there is no pass. A score is the size of the player's largest
//! group (6-neighbourhood), at least 1. On a full board the sorted group sizes are compared
//! from the largest down; the first difference decides.
//!
//! Parameters ([`FACTS`]): board side 2 to 9 (`GameConfig::size`, 5 by default) and the
//! 3-stone rule (the game parameter `CatchupRule`, read by [`CatchupRule::of`]). Side 3,
//! with cell names:
//!
//! ```text
//!         e1 e2 e3
//!       d1 d2 d3 d4
//!     c1 c2 c3 c4 c5
//!       b1 b2 b3 b4
//!         a1 a2 a3        (White's edge)
//! ```
//!
//! Notation: a turn is its cells joined by `,` in canonical order (by row, then cell
//! number), e.g. `c3` or `a1,c3,e2`; input may list them in any order. Position string:
//! `<rows, last first, W/B/empty runs> <w|b> <limit 1-3>`; the side-5 start is
//! `5/6/7/8/9/8/7/6/5 w 1`.
//!
//! Representation: one [`HexSet`](crate::board::HexSet) of stones per colour (5 words, enough for side 9: on
//! side 5 a 2-word set measured no faster in random playouts), group labels with member
//! lists over dense cell ordinals (`groups`) that keep each side's largest group current
//! in O(stones) per turn, and an incremental Zobrist hash (stones, side to move, limit).
//! Everything is fixed-size (about 1 KB), so a clone is one copy.
//!
//! Search interface (MCTS with single-stone steps and random playouts):
//! [`Catchup::empty_cells`] and [`Catchup::empty_count`], [`Catchup::stones_allowed`]
//! (after the cap; every count from 1 to it is legal), [`Move::from_cells`] (1 to 3 cells in
//! any order), [`Catchup::largest_group`] / [`Catchup::player_score`],
//! [`Catchup::sorted_group_sizes`] and [`Catchup::compare_groups`] / [`Catchup::leader`]
//! (the end-of-game comparison, no allocation), and [`Catchup::playout_board`]: a stripped
//! copy (groups, scores and limit over cell ordinals, no stone sets, no hash) that the MCTS
//! playouts use. A random playout with the full position:
//!
//! ```
//! use tessera::game::catchup::{Catchup, Move};
//! use tessera::game::{CatchupRule, Rules};
//!
//! let mut position = Catchup::empty_board(3, CatchupRule::Revised).expect("side 3");
//! let mut seed = 7u64;
//! let mut random = |bound: usize| {
//!     seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
//!     ((seed >> 33) % bound as u64) as usize
//! };
//! // Shuffle the empty cells once, then take them in order: uniform random cells.
//! let mut cells: Vec<usize> = position.empty_cells().iter().collect();
//! for i in (1..cells.len()).rev() {
//!     cells.swap(i, random(i + 1));
//! }
//! let mut next = 0;
//! while position.stones_allowed() > 0 {
//!     let count = 1 + random(position.stones_allowed());
//!     let mv = Move::from_cells(&cells[next..next + count]).expect("distinct cells");
//!     next += count;
//!     position.play_unchecked(mv);
//! }
//! assert!(position.outcome().is_some());
//! assert_eq!(position.outcome(), Some(position.leader()));
//! ```

mod facts;
mod groups;
mod moves;
mod notation;
mod playout;
mod position;
mod rule;
mod tables;
#[cfg(test)]
mod tests;
mod word;

use crate::game::{GameConfig, MoveError, Outcome, Player, PositionError, Rules};

pub use self::facts::FACTS;
pub use self::groups::Contacts;
pub use self::moves::Move;
pub use self::playout::{CellBuffer, PlayoutBoard, PlayoutPosition};
pub use self::position::Catchup;
pub(crate) use self::position::next_limit;
pub use self::rule::CatchupRule;
pub use self::tables::Cells;
pub use self::word::WordBoard;

impl CatchupRule {
    /// The rule a configuration chose (the default when it chose none; a value chosen
    /// while another game was set counts too, as the protocol's option does).
    pub fn of(config: &GameConfig) -> CatchupRule {
        config
            .parameters
            .get(CatchupRule::OPTION)
            .and_then(|name| name.parse().ok())
            .unwrap_or_default()
    }

    /// `config` with this rule chosen.
    pub fn chosen_in(self, mut config: GameConfig) -> GameConfig {
        if let Some(parameter) = FACTS.parameter(CatchupRule::OPTION) {
            config.parameters.set(parameter, self.name());
        }
        config
    }
}

/// `n` choose `k` for the small `k` of a turn.
fn choose(n: u64, k: u64) -> u64 {
    match k {
        0 => 1,
        1 => n,
        2 => n * n.saturating_sub(1) / 2,
        3 => n * n.saturating_sub(1) * n.saturating_sub(2) / 6,
        _ => (0..k).fold(1, |value, i| value * (n - i) / (i + 1)),
    }
}

impl Rules for Catchup {
    type Move = Move;

    fn start(config: &GameConfig) -> Result<Self, PositionError> {
        Catchup::empty_board(config.board_size(), CatchupRule::of(config))
    }

    fn from_position_text(text: &str, config: &GameConfig) -> Result<Self, PositionError> {
        notation::parse_position(text, CatchupRule::of(config))
    }

    fn position_text(&self) -> String {
        notation::write_position(self)
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        let allowed = self.stones_allowed();
        let mut buffer = [0u16; crate::board::hex::MAX_CELLS];
        let count = self.empty_bits(&mut buffer);
        let cells = &buffer[..count];
        for (i, &first) in cells.iter().enumerate() {
            moves.push(Move::from_sorted(&[first]));
            if allowed < 2 {
                continue;
            }
            for (j, &second) in cells.iter().enumerate().skip(i + 1) {
                moves.push(Move::from_sorted(&[first, second]));
                if allowed < 3 {
                    continue;
                }
                for &third in &cells[j + 1..] {
                    moves.push(Move::from_sorted(&[first, second, third]));
                }
            }
        }
    }

    fn count_moves(&self) -> u64 {
        let empty = self.empty as u64;
        (1..=self.stones_allowed() as u64)
            .map(|k| choose(empty, k))
            .sum()
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        self.play_cells(mv.cells());
    }

    fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        if self.check_move(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(MoveError::illegal(
                &self.move_text(mv),
                "not a legal move here",
            ))
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.empty == 0).then(|| self.leader())
    }

    fn score(&self) -> [i32; 2] {
        [
            self.player_score(Player::One) as i32,
            self.player_score(Player::Two) as i32,
        ]
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn move_text(&self, mv: Move) -> String {
        notation::write_move(self.tables.geometry, mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self, text)
    }
}
