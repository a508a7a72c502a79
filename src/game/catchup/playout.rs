//! Stripped copies of a position for random playouts: groups, scores, side to move and
//! limit over dense cell ordinals, with no stone sets over bits and no hash (a playout
//! needs neither), so a stone costs only its group update. Two boards share one
//! interface, [`PlayoutPosition`]: [`PlayoutBoard`] for every side and the faster
//! [`WordBoard`](super::WordBoard) for sides up to 5, so a playout loop written once over
//! the trait is compiled for each and the board is chosen once per playout. Same rules as
//! [`Catchup`]: the limit is granted by the same function and the end compares groups the
//! same way.

use super::groups::{Contacts, Groups};
use super::position::{Catchup, next_limit, outcome_of};
use super::tables::Tables;
use crate::game::{CatchupRule, Outcome, Owners, Player, Rules};

/// A playout's list of cell ordinals, one entry per `u8` value: an index held in a `u8`
/// (a draw below the empty count, at most [`crate::board::hex::MAX_CELLS`]) needs no bounds
/// check.
pub type CellBuffer = [u8; 256];

/// The turn bookkeeping every playout board keeps the same way, beside its stones.
#[derive(Clone, Copy)]
pub struct Turn {
    pub rule: CatchupRule,
    pub to_move: Player,
    /// Most stones allowed this turn before the cap by empty cells: 1, 2 or 3.
    pub limit: u8,
    /// Number of empty cells.
    pub empty: u8,
}

impl Turn {
    /// The turn state of `position`.
    pub fn of(position: &Catchup) -> Turn {
        Turn {
            rule: position.rule,
            to_move: position.side_to_move(),
            limit: position.limit,
            empty: position.empty,
        }
    }
}

/// What a random playout needs of a position, with cells as ordinals: 0 up to
/// [`PlayoutPosition::cell_count`], in canonical order (as [`Catchup::ordinal`] gives).
/// A board supplies its stones; the turn logic is written once, here.
pub trait PlayoutPosition {
    /// Number of cells of the board.
    fn cell_count(&self) -> usize;

    /// Writes the empty cells' ordinals but `excluded` into `buffer` in canonical order;
    /// returns their count.
    fn empty_cells(&self, excluded: &[u8], buffer: &mut CellBuffer) -> usize;

    /// The rule score of `player`: its largest group, at least 1.
    fn player_score(&self, player: Player) -> usize;

    /// Puts a stone of player `index` on the empty cell `cell`, merging its groups.
    fn place(&mut self, cell: u8, index: usize);

    /// The winner on the board as it stands, as [`Catchup::leader`].
    fn leader(&self) -> Outcome;

    /// What a stone of player `index` on the empty cell `cell` would touch.
    fn contacts(&self, cell: u8, index: usize) -> Contacts;

    /// True when a neighbour of `cell` holds a stone of either colour.
    fn touches_stone(&self, cell: u8) -> bool;

    /// True when a neighbour of `cell` holds a stone of player `index`.
    fn touches_own(&self, cell: u8, index: usize) -> bool;

    /// The neighbours of `cell` by direction in slots 0 to 5, an ordinal past every cell
    /// of the board where there is none.
    fn neighbour_ordinals(&self, cell: u8) -> &[u8; 8];

    fn turn(&self) -> &Turn;

    /// Who holds each cell.
    fn owners(&self) -> Owners;

    fn turn_mut(&mut self) -> &mut Turn;

    /// Number of empty cells.
    #[inline]
    fn empty_count(&self) -> usize {
        self.turn().empty as usize
    }

    /// The side to move.
    #[inline]
    fn side_to_move(&self) -> Player {
        self.turn().to_move
    }

    /// The most stones the mover may place now, as [`Catchup::stones_allowed`].
    #[inline]
    fn stones_allowed(&self) -> usize {
        self.turn().limit.min(self.turn().empty) as usize
    }

    /// Plays a turn given as cell ordinals without checking them: they must be distinct
    /// and empty, from 1 to [`PlayoutPosition::stones_allowed`] of them. The next limit
    /// comes from the same function as [`Catchup`]'s.
    #[inline(always)]
    fn play_turn(&mut self, cells: &[u8]) {
        debug_assert!(!cells.is_empty() && cells.len() <= self.stones_allowed());
        let mover = self.side_to_move();
        let before = self.scores_before_turn();
        for &cell in cells {
            self.place(cell, mover.index());
        }
        self.finish_turn(before, cells.len());
    }

    /// The mover's score and the larger of both scores, as a turn starts: what
    /// [`PlayoutPosition::finish_turn`] needs to grant the next limit.
    #[inline(always)]
    fn scores_before_turn(&self) -> [usize; 2] {
        let mover = self.side_to_move();
        let mover_before = self.player_score(mover);
        [
            mover_before,
            mover_before.max(self.player_score(mover.opponent())),
        ]
    }

    /// Ends a turn whose `stones` stones the mover has placed one by one with
    /// [`PlayoutPosition::place`] since `before` ([`PlayoutPosition::scores_before_turn`]).
    #[inline(always)]
    fn finish_turn(&mut self, before: [usize; 2], stones: usize) {
        debug_assert!(
            stones >= 1 && stones <= self.stones_allowed(),
            "{stones} stones"
        );
        let mover = self.side_to_move();
        let after = [
            self.player_score(mover),
            self.player_score(mover.opponent()),
        ];
        let turn = self.turn_mut();
        turn.limit = next_limit(turn.rule, before, after);
        turn.empty -= stones as u8;
        turn.to_move = mover.opponent();
    }
}

/// A position for random playouts on any side (see [`Catchup::playout_board`]).
#[derive(Clone)]
pub struct PlayoutBoard {
    tables: &'static Tables,
    groups: Groups,
    turn: Turn,
}

impl Catchup {
    /// The position as a [`PlayoutBoard`].
    pub fn playout_board(&self) -> PlayoutBoard {
        PlayoutBoard {
            tables: self.tables,
            groups: self.groups.clone(),
            turn: Turn::of(self),
        }
    }
}

impl PlayoutPosition for PlayoutBoard {
    #[inline]
    fn cell_count(&self) -> usize {
        self.tables.geometry.cell_count()
    }

    fn empty_cells(&self, excluded: &[u8], buffer: &mut CellBuffer) -> usize {
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
    fn player_score(&self, player: Player) -> usize {
        self.groups.largest(player.index()).max(1)
    }

    #[inline]
    fn place(&mut self, cell: u8, index: usize) {
        debug_assert!(self.groups.is_empty(cell));
        self.groups.place(self.tables, cell, index);
    }

    #[inline]
    fn leader(&self) -> Outcome {
        outcome_of(self.groups.compare(self.cell_count()))
    }

    #[inline]
    fn contacts(&self, cell: u8, index: usize) -> Contacts {
        self.groups.contacts(self.tables, cell, index)
    }

    #[inline]
    fn touches_stone(&self, cell: u8) -> bool {
        let [white, black] = self.groups.neighbour_counts(self.tables, usize::from(cell));
        white + black > 0
    }

    #[inline]
    fn touches_own(&self, cell: u8, index: usize) -> bool {
        self.groups.neighbour_counts(self.tables, usize::from(cell))[index] > 0
    }

    #[inline]
    fn neighbour_ordinals(&self, cell: u8) -> &[u8; 8] {
        &self.tables.neighbours[usize::from(cell)]
    }

    fn owners(&self) -> Owners {
        let mut owners = Owners::default();
        for ordinal in 0..self.cell_count() as u8 {
            if let Some(index) = self.groups.owner(ordinal) {
                owners.set(ordinal, index);
            }
        }
        owners
    }

    #[inline]
    fn turn(&self) -> &Turn {
        &self.turn
    }

    #[inline]
    fn turn_mut(&mut self) -> &mut Turn {
        &mut self.turn
    }
}
