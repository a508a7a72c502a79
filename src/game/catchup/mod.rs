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
//! Parameters: board side 2 to 9 (`GameConfig::size`, 5 by default) and the 3-stone rule
//! (`GameConfig::catchup_rule`). Side 3, with cell names:
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
//! Representation: one [`HexSet`] of stones per colour (5 words, enough for side 9: on
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

mod groups;
mod notation;
mod playout;
mod tables;
#[cfg(test)]
mod tests;
mod word;

use std::cmp::Ordering;

use self::groups::Groups;
use self::tables::{KEYS, Tables};
use crate::board::HexSet;
use crate::board::hex::MAX_WORDS;
use crate::game::{CatchupRule, GameConfig, MoveError, Outcome, Player, PositionError, Rules};

pub use self::notation::Move;
pub use self::playout::{CellBuffer, Contacts, PlayoutBoard, PlayoutPosition};
pub use self::word::WordBoard;

/// The cell sets used by Catchup: wide enough for side 9.
pub type Cells = HexSet<MAX_WORDS>;

/// A Catchup position: stones, groups, side to move and the stone limit of this turn.
#[derive(Clone)]
pub struct Catchup {
    tables: &'static Tables,
    rule: CatchupRule,
    /// Stones per player (index 0 White, 1 Black), padded-layout bits.
    stones: [Cells; 2],
    groups: Groups,
    to_move: Player,
    /// Most stones allowed this turn before the cap by empty cells: 1, 2 or 3.
    limit: u8,
    /// Number of empty cells.
    empty: u8,
    hash: u64,
}

impl std::fmt::Debug for Catchup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Catchup({} [{}])",
            self.position_text(),
            self.rule.name()
        )
    }
}

impl Catchup {
    /// An empty board of `side` (2 to 9) with White to move and limit 1.
    pub fn empty_board(side: usize, rule: CatchupRule) -> Result<Self, PositionError> {
        let tables = tables::tables(side).ok_or_else(|| PositionError::BoardSize {
            token: side.to_string(),
            side,
            min: crate::board::hex::MIN_SIDE,
            max: crate::board::hex::MAX_SIDE,
        })?;
        let mut position = Catchup {
            tables,
            rule,
            stones: [Cells::EMPTY; 2],
            groups: Groups::new(),
            to_move: Player::One,
            limit: 1,
            empty: tables.geometry.cell_count() as u8,
            hash: 0,
        };
        position.hash = position.full_hash();
        Ok(position)
    }

    /// The board side.
    pub fn side(&self) -> usize {
        self.tables.geometry.side()
    }

    /// The shared geometry of this board (cell names, neighbours).
    pub fn geometry(&self) -> &'static crate::board::HexGeometry {
        self.tables.geometry
    }

    /// The 3-stone rule in force.
    pub fn rule(&self) -> CatchupRule {
        self.rule
    }

    /// The empty cells.
    #[inline]
    pub fn empty_cells(&self) -> Cells {
        self.tables.valid.without(self.stones[0] | self.stones[1])
    }

    /// Number of empty cells (0 once the game is over).
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.empty as usize
    }

    /// The stones of `player`.
    #[inline]
    pub fn stones(&self, player: Player) -> Cells {
        self.stones[player.index()]
    }

    /// The most stones allowed this turn before the cap (the position string's third field).
    #[inline]
    pub fn limit(&self) -> usize {
        self.limit as usize
    }

    /// The most stones the mover may place now: the limit capped by the empty cells
    /// (0 once the board is full). Every count from 1 to this is legal.
    #[inline]
    pub fn stones_allowed(&self) -> usize {
        (self.limit).min(self.empty) as usize
    }

    /// The size of `player`'s largest group, 0 when it has no stone (the score is at least 1:
    /// see [`Catchup::player_score`]).
    #[inline]
    pub fn largest_group(&self, player: Player) -> usize {
        self.groups.largest(player.index())
    }

    /// The rule score of `player`: its largest group, at least 1.
    #[inline]
    pub fn player_score(&self, player: Player) -> usize {
        self.groups.largest(player.index()).max(1)
    }

    /// The ordinal of a cell's bit (canonical order, as playout boards name cells); `bit`
    /// must be a cell of this board.
    #[inline]
    pub fn ordinal(&self, bit: usize) -> u8 {
        self.tables.ordinal(bit) as u8
    }

    /// For each player (index 0 White), how many neighbours of `cell` (a bit of this
    /// board) hold its stones.
    #[inline]
    pub fn neighbour_stones(&self, cell: usize) -> [usize; 2] {
        self.groups
            .neighbour_counts(self.tables, self.tables.ordinal(cell))
    }

    /// True when the cells `a` and `b` (bits of this board) are neighbours.
    #[inline]
    pub fn are_neighbours(&self, a: usize, b: usize) -> bool {
        let b = self.tables.ordinal(b) as u8;
        self.tables.neighbours[self.tables.ordinal(a)][..tables::SELF_SLOT].contains(&b)
    }

    /// The size of the group holding the stone on `cell` (a bit), 0 for an empty cell or a
    /// bit off the board.
    pub fn group_size_at(&self, cell: usize) -> usize {
        match self.tables.geometry.ordinal(cell) {
            Some(ordinal) => self.groups.group_size(ordinal),
            None => 0,
        }
    }

    /// `player`'s group sizes, largest first.
    pub fn sorted_group_sizes(&self, player: Player) -> Vec<usize> {
        self.groups
            .sorted_sizes(self.tables.geometry.cell_count(), player.index())
    }

    /// Compares White's sorted group sizes with Black's, padded with zeros, at the first
    /// difference: `Greater` means White's are larger (White wins on a full board). Cheap
    /// when the largest groups differ; no allocation.
    #[inline]
    pub fn compare_groups(&self) -> Ordering {
        self.groups.compare(self.tables.geometry.cell_count())
    }

    /// The winner on the board as it stands (meaningful once the board is full).
    #[inline]
    pub fn leader(&self) -> Outcome {
        outcome_of(self.compare_groups())
    }

    /// Puts one stone of the mover on an empty cell (a bit), keeping groups and hash.
    #[inline(always)]
    fn place_stone(&mut self, bit: usize) {
        let index = self.to_move.index();
        let ordinal = self.tables.ordinal(bit);
        self.stones[index].insert(bit);
        self.groups.place(self.tables, ordinal as u8, index);
        self.hash ^= KEYS.stones[index][ordinal];
        self.empty -= 1;
    }

    /// Places the stones of a legal turn and hands the move over.
    #[inline]
    fn play_cells(&mut self, cells: &[u16]) {
        let mover = self.to_move;
        let mover_before = self.player_score(mover);
        let board_before = mover_before.max(self.player_score(mover.opponent()));
        for &bit in cells {
            self.place_stone(bit as usize);
        }
        let limit = next_limit(
            self.rule,
            [mover_before, board_before],
            [
                self.player_score(mover),
                self.player_score(mover.opponent()),
            ],
        );
        self.hash ^= KEYS.limit[self.limit as usize] ^ KEYS.limit[limit as usize];
        self.hash ^= KEYS.black_to_move;
        self.limit = limit;
        self.to_move = mover.opponent();
    }

    /// Plays a turn given as its cells (bits), in any order, without checking them: the
    /// fast path of random playouts, which need no [`Move`] built and sorted per turn.
    /// The cells must be distinct and empty, at most [`Catchup::stones_allowed`] of them.
    #[inline]
    pub fn play_turn_unchecked(&mut self, cells: &[u16]) {
        debug_assert!(!cells.is_empty() && cells.len() <= self.stones_allowed());
        debug_assert!(
            cells
                .iter()
                .all(|&bit| self.empty_cells().contains(bit as usize))
        );
        self.play_cells(cells);
    }

    /// The hash computed from scratch.
    fn full_hash(&self) -> u64 {
        let mut hash = KEYS.limit[self.limit as usize];
        if self.to_move == Player::Two {
            hash ^= KEYS.black_to_move;
        }
        for (index, stones) in self.stones.iter().enumerate() {
            for bit in stones.iter() {
                hash ^= KEYS.stones[index][self.tables.ordinal(bit)];
            }
        }
        hash
    }

    /// The empty cells' bits in canonical order, into a fixed buffer; returns the count.
    fn empty_bits(&self, buffer: &mut [u16; crate::board::hex::MAX_CELLS]) -> usize {
        let mut count = 0;
        for bit in self.empty_cells().iter() {
            buffer[count] = bit as u16;
            count += 1;
        }
        count
    }

    /// Checks a turn's cells against this position (empty, distinct, count allowed).
    fn check_move(&self, mv: Move) -> bool {
        let cells = mv.cells();
        let empty = self.empty_cells();
        !cells.is_empty()
            && cells.len() <= self.stones_allowed()
            && cells.windows(2).all(|pair| pair[0] < pair[1])
            && cells.iter().all(|&bit| empty.contains(bit as usize))
    }
}

/// The outcome of a group comparison on a full board (`Greater`: White's groups are larger).
#[inline]
fn outcome_of(order: Ordering) -> Outcome {
    match order {
        Ordering::Greater => Outcome::Win(Player::One),
        Ordering::Less => Outcome::Win(Player::Two),
        Ordering::Equal => Outcome::Draw,
    }
}

/// The limit the opponent gets after the mover's turn: 3 when granted, else 2. `before`
/// holds the mover's score and the larger of both scores before the turn, `after` the
/// mover's and the opponent's scores after it. The revised test combines its two
/// comparisons with `&`, not `&&`: in random playouts the first is unpredictable, and the
/// branch of a short circuit was mispredicted about once in three turns.
#[inline]
pub(crate) fn next_limit(rule: CatchupRule, before: [usize; 2], after: [usize; 2]) -> u8 {
    let [mover_before, board_before] = before;
    let [mover_after, other] = after;
    let granted = match rule {
        CatchupRule::Revised => (mover_after > mover_before) & (mover_after >= other),
        CatchupRule::Original => mover_after.max(other) > board_before,
    };
    if granted { 3 } else { 2 }
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
        Catchup::empty_board(config.board_size(), config.catchup_rule)
    }

    fn from_position_text(text: &str, config: &GameConfig) -> Result<Self, PositionError> {
        notation::parse_position(text, config.catchup_rule)
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
