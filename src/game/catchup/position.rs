//! The Catchup position: stones, groups, side to move and the turn's stone limit, with
//! what playing a turn does to them. The rules trait, read by everything else, is
//! implemented in the module root from these.

use std::cmp::Ordering;

use super::groups::Groups;
use super::moves::Move;
use super::tables::{self, Cells, KEYS, Tables};
use crate::game::{CatchupRule, Outcome, Player, PositionError, Rules};

/// A Catchup position: stones, groups, side to move and the stone limit of this turn.
#[derive(Clone)]
pub struct Catchup {
    pub(super) tables: &'static Tables,
    pub(super) rule: CatchupRule,
    /// Stones per player (index 0 White, 1 Black), padded-layout bits.
    pub(super) stones: [Cells; 2],
    pub(super) groups: Groups,
    pub(super) to_move: Player,
    /// Most stones allowed this turn before the cap by empty cells: 1, 2 or 3.
    pub(super) limit: u8,
    /// Number of empty cells.
    pub(super) empty: u8,
    pub(super) hash: u64,
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
    pub(super) fn place_stone(&mut self, bit: usize) {
        let index = self.to_move.index();
        let ordinal = self.tables.ordinal(bit);
        self.stones[index].insert(bit);
        self.groups.place(self.tables, ordinal as u8, index);
        self.hash ^= KEYS.stones[index][ordinal];
        self.empty -= 1;
    }

    /// Places the stones of a legal turn and hands the move over.
    #[inline]
    pub(super) fn play_cells(&mut self, cells: &[u16]) {
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
    pub(super) fn full_hash(&self) -> u64 {
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
    pub(super) fn empty_bits(&self, buffer: &mut [u16; crate::board::hex::MAX_CELLS]) -> usize {
        let mut count = 0;
        for bit in self.empty_cells().iter() {
            buffer[count] = bit as u16;
            count += 1;
        }
        count
    }

    /// Checks a turn's cells against this position (empty, distinct, count allowed).
    pub(super) fn check_move(&self, mv: Move) -> bool {
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
pub(super) fn outcome_of(order: Ordering) -> Outcome {
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
