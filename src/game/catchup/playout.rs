//! A stripped copy of a position for random playouts: groups, scores, side to move and
//! limit over dense cell ordinals, with no stone sets and no hash (a playout needs
//! neither), so a stone costs only its group update. Same rules as [`Catchup`]: the
//! limit is granted by the same function and the end compares groups the same way.

use super::groups::Groups;
use super::tables::Tables;
use super::{Catchup, next_limit, outcome_of};
use crate::board::hex::MAX_CELLS;
use crate::game::{CatchupRule, Outcome, Player, Rules};

/// A position for random playouts (see [`Catchup::playout_board`]). Cells are ordinals:
/// 0 up to [`PlayoutBoard::cell_count`], in canonical order.
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

impl PlayoutBoard {
    /// Number of cells of the board.
    #[inline]
    pub fn cell_count(&self) -> usize {
        self.tables.geometry.cell_count()
    }

    /// The ordinal of a cell's bit (as [`Catchup`] and moves name cells); `bit` must be a
    /// cell of this board.
    #[inline]
    pub fn ordinal(&self, bit: usize) -> u8 {
        self.tables.ordinal(bit) as u8
    }

    /// Writes the empty cells' ordinals but `excluded` into `buffer` in canonical order;
    /// returns their count.
    pub fn empty_cells(&self, excluded: &[u8], buffer: &mut [u8; MAX_CELLS]) -> usize {
        let mut count = 0;
        for ordinal in 0..self.cell_count() as u8 {
            // Branch-free compaction: every ordinal is written, only kept ones counted.
            buffer[count] = ordinal;
            let kept = self.groups.is_empty(ordinal) && !excluded.contains(&ordinal);
            count += usize::from(kept);
        }
        count
    }

    /// Number of empty cells.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.empty as usize
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Player {
        self.to_move
    }

    /// The rule score of `player`: its largest group, at least 1.
    #[inline]
    pub fn player_score(&self, player: Player) -> usize {
        self.groups.largest(player.index()).max(1)
    }

    /// The most stones the mover may place now, as [`Catchup::stones_allowed`].
    #[inline]
    pub fn stones_allowed(&self) -> usize {
        self.limit.min(self.empty) as usize
    }

    /// Plays a turn given as cell ordinals without checking them: they must be distinct
    /// and empty, from 1 to [`PlayoutBoard::stones_allowed`] of them.
    #[inline]
    pub fn play_turn(&mut self, cells: &[u8]) {
        debug_assert!(!cells.is_empty() && cells.len() <= self.stones_allowed());
        debug_assert!(cells.iter().all(|&cell| self.groups.is_empty(cell)));
        let mover = self.to_move;
        let mover_before = self.player_score(mover);
        let board_before = mover_before.max(self.player_score(mover.opponent()));
        for &cell in cells {
            self.groups.place(self.tables, cell, mover.index());
        }
        self.empty -= cells.len() as u8;
        self.limit = next_limit(
            self.rule,
            [mover_before, board_before],
            [
                self.player_score(mover),
                self.player_score(mover.opponent()),
            ],
        );
        self.to_move = mover.opponent();
    }

    /// The winner on the board as it stands, as [`Catchup::leader`].
    #[inline]
    pub fn leader(&self) -> Outcome {
        outcome_of(self.groups.compare(self.cell_count()))
    }
}
