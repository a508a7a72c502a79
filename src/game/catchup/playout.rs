//! Stripped copies of a position for random playouts: groups, scores, side to move and
//! limit over dense cell ordinals, with no stone sets over bits and no hash (a playout
//! needs neither), so a stone costs only its group update. Two boards share one
//! interface, [`PlayoutPosition`]: [`PlayoutBoard`] for every side and the faster
//! [`WordBoard`](super::WordBoard) for sides up to 5, so a playout loop written once over
//! the trait is compiled for each and the board is chosen once per playout. Same rules as
//! [`Catchup`]: the limit is granted by the same function and the end compares groups the
//! same way.

use super::groups::Groups;
use super::tables::Tables;
use super::{Catchup, next_limit, outcome_of};
use crate::board::hex::MAX_CELLS;
use crate::game::{CatchupRule, Outcome, Player, Rules};

/// What a random playout needs of a position, with cells as ordinals: 0 up to
/// [`PlayoutPosition::cell_count`], in canonical order (as [`Catchup::ordinal`] gives).
pub trait PlayoutPosition {
    /// Number of cells of the board.
    fn cell_count(&self) -> usize;

    /// Writes the empty cells' ordinals but `excluded` into `buffer` in canonical order;
    /// returns their count.
    fn empty_cells(&self, excluded: &[u8], buffer: &mut [u8; MAX_CELLS]) -> usize;

    /// Number of empty cells.
    fn empty_count(&self) -> usize;

    /// The side to move.
    fn side_to_move(&self) -> Player;

    /// The rule score of `player`: its largest group, at least 1.
    fn player_score(&self, player: Player) -> usize;

    /// The most stones the mover may place now, as [`Catchup::stones_allowed`].
    fn stones_allowed(&self) -> usize;

    /// Plays a turn given as cell ordinals without checking them: they must be distinct
    /// and empty, from 1 to [`PlayoutPosition::stones_allowed`] of them.
    fn play_turn(&mut self, cells: &[u8]);

    /// The winner on the board as it stands, as [`Catchup::leader`].
    fn leader(&self) -> Outcome;
}

/// The limit after a turn of `cells` by the side to move, given the way to read scores
/// and place one stone: the turn logic both boards share.
#[inline(always)]
pub(super) fn play_turn_with<B: PlayoutPosition>(
    board: &mut B,
    rule: CatchupRule,
    cells: &[u8],
    mut place: impl FnMut(&mut B, u8, usize),
) -> u8 {
    let mover = board.side_to_move();
    let mover_before = board.player_score(mover);
    let board_before = mover_before.max(board.player_score(mover.opponent()));
    for &cell in cells {
        place(board, cell, mover.index());
    }
    next_limit(
        rule,
        [mover_before, board_before],
        [
            board.player_score(mover),
            board.player_score(mover.opponent()),
        ],
    )
}

/// A position for random playouts on any side (see [`Catchup::playout_board`]).
#[derive(Clone)]
pub struct PlayoutBoard {
    tables: &'static Tables,
    rule: CatchupRule,
    groups: Groups,
    to_move: Player,
    /// Most stones allowed this turn before the cap by empty cells: 1, 2 or 3.
    limit: u8,
    /// Number of empty cells.
    empty: u8,
}

impl Catchup {
    /// The position as a [`PlayoutBoard`].
    pub fn playout_board(&self) -> PlayoutBoard {
        PlayoutBoard {
            tables: self.tables,
            rule: self.rule,
            groups: self.groups.clone(),
            to_move: self.side_to_move(),
            limit: self.limit,
            empty: self.empty,
        }
    }
}

impl PlayoutPosition for PlayoutBoard {
    #[inline]
    fn cell_count(&self) -> usize {
        self.tables.geometry.cell_count()
    }

    fn empty_cells(&self, excluded: &[u8], buffer: &mut [u8; MAX_CELLS]) -> usize {
        let mut count = 0;
        for ordinal in 0..self.cell_count() as u8 {
            // Branch-free compaction: every ordinal is written, only kept ones counted.
            buffer[count] = ordinal;
            let kept = self.groups.is_empty(ordinal) && !excluded.contains(&ordinal);
            count += usize::from(kept);
        }
        count
    }

    #[inline]
    fn empty_count(&self) -> usize {
        self.empty as usize
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn player_score(&self, player: Player) -> usize {
        self.groups.largest(player.index()).max(1)
    }

    #[inline]
    fn stones_allowed(&self) -> usize {
        self.limit.min(self.empty) as usize
    }

    #[inline]
    fn play_turn(&mut self, cells: &[u8]) {
        debug_assert!(!cells.is_empty() && cells.len() <= self.stones_allowed());
        debug_assert!(cells.iter().all(|&cell| self.groups.is_empty(cell)));
        let (tables, rule) = (self.tables, self.rule);
        self.limit = play_turn_with(self, rule, cells, |board, cell, index| {
            board.groups.place(tables, cell, index);
        });
        self.empty -= cells.len() as u8;
        self.to_move = self.to_move.opponent();
    }

    #[inline]
    fn leader(&self) -> Outcome {
        outcome_of(self.groups.compare(self.cell_count()))
    }
}
