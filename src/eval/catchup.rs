//! Catchup for MCTS: the tree of single-stone steps, a fast random playout, and priors
//! from group structure.
//!
//! A turn of up to three stones is a sequence of steps by the same player: stones in
//! increasing cell order (so each set of cells appears once in the tree) and an explicit
//! end-of-turn step once at least one stone is down; the turn also ends by itself when
//! the stone limit is reached. The static evaluation (for `eval` only) is the largest
//! group difference.

use crate::eval::catchup_knowledge::{
    EmptyCells, KNOWLEDGE_STONES, Knowledge, PlayoutPolicy, feature_code, turn_scores,
};
use crate::game::catchup::{Catchup, CellBuffer, Move, PlayoutPosition, WordBoard};
use crate::game::{Outcome, Owners, Player, Rules};
use crate::search::game::{MctsGame, SearchGame, TreeGame};
use crate::search::rng::Rng;

/// The end-of-turn step; every other step is a cell bit.
pub const END_TURN: u16 = u16::MAX;

/// The prior of ending a turn early (not fitted).
const END_TURN_PRIOR: f32 = 0.4;

/// A position part-way through a turn.
#[derive(Clone, Debug)]
pub struct CatchupTree {
    position: Catchup,
    placed: [usize; 3],
    count: usize,
    /// Stones allowed this turn (the cap by empty cells applied).
    allowed: usize,
    /// The playout and priors in use.
    policy: PlayoutPolicy,
    /// Who holds each cell at the end of the last playout, kept when the search asks for
    /// all-moves-as-first statistics ([`TreeGame::amaf_owners`]).
    owners: Option<Owners>,
}

impl CatchupTree {
    /// The tree of `position` with the playout and priors of `policy`.
    pub fn new(position: Catchup, policy: PlayoutPolicy) -> Self {
        let allowed = position.stones_allowed();
        CatchupTree {
            position,
            placed: [0; 3],
            count: 0,
            allowed,
            policy,
            owners: None,
        }
    }

    /// The tree the engine searches with `policy` (the `CatchupPlayout` option): the
    /// knowledge policy's priors go with all-moves-as-first statistics, so that tree keeps
    /// who holds each cell at the end of its playouts.
    pub fn for_search(position: Catchup, policy: PlayoutPolicy) -> Self {
        let tree = CatchupTree::new(position, policy);
        match policy {
            PlayoutPolicy::Uniform => tree,
            PlayoutPolicy::Knowledge => tree.with_amaf(),
        }
    }

    /// The same tree, keeping who holds each cell at the end of its playouts.
    pub fn with_amaf(mut self) -> Self {
        self.owners = Some(Owners::default());
        self
    }

    /// The playout of this tree's policy on `board`, keeping who holds each cell at the
    /// end when asked to ([`CatchupTree::with_amaf`]).
    #[inline(always)]
    fn play_out_on<B: PlayoutPosition>(&mut self, board: &mut B, rng: &mut Rng) -> Outcome {
        let outcome = match self.policy {
            PlayoutPolicy::Uniform => self.play_out(board, rng),
            PlayoutPolicy::Knowledge => self.play_out_knowledge(board, rng),
        };
        if self.owners.is_some() {
            self.owners = Some(board.owners());
        }
        outcome
    }

    /// The position with the stones of the turn being built placed (the turn not yet
    /// handed over), as a playout board: where the knowledge of a next stone is read.
    fn board_with_pending<B: PlayoutPosition>(&self, mut board: B) -> B {
        let mover = self.position.side_to_move().index();
        for &bit in &self.placed[..self.count] {
            board.place(self.position.ordinal(bit), mover);
        }
        board
    }

    /// The knowledge playout ([`crate::eval::catchup_knowledge`]): finishes this turn,
    /// then plays every turn with a fitted number of stones, each drawn by weight.
    #[inline(always)]
    fn play_out_knowledge<B: PlayoutPosition>(&self, board: &mut B, rng: &mut Rng) -> Outcome {
        let rule = self.position.rule();
        let knowledge = Knowledge::of(rule);
        let draw = Knowledge::draw_weights(rule);
        if self.count > 0 {
            let mut scores = turn_scores(board, rule);
            let mover = board.side_to_move().index();
            for &bit in &self.placed[..self.count] {
                board.place(self.position.ordinal(bit), mover);
            }
            scores.mover = board.player_score(board.side_to_move());
            let mut empty = EmptyCells::of(board);
            let extra = (knowledge.turn_length(self.allowed, rng).max(self.count) - self.count)
                .min(empty.length);
            for _ in 0..extra {
                Knowledge::place_stone(draw, board, &mut empty, &mut scores, rng);
            }
            board.finish_turn(scores.before, self.count + extra);
            return self.play_out_turns(board, knowledge, empty, rng);
        }
        let empty = EmptyCells::of(board);
        self.play_out_turns(board, knowledge, empty, rng)
    }

    /// The knowledge playout's whole turns, from a turn's start to the end of the game.
    #[inline(always)]
    fn play_out_turns<B: PlayoutPosition>(
        &self,
        board: &mut B,
        knowledge: &Knowledge,
        mut empty: EmptyCells,
        rng: &mut Rng,
    ) -> Outcome {
        let rule = self.position.rule();
        let draw = Knowledge::draw_weights(rule);
        let mut budget = KNOWLEDGE_STONES;
        while empty.length > 0 {
            debug_assert_eq!(empty.length, board.empty_count());
            if budget == 0 {
                let length = empty.length;
                return Self::play_uniform_turns(board, &mut empty.cells, length, rng);
            }
            let stones = knowledge.turn_length(board.stones_allowed(), rng);
            budget = budget.saturating_sub(stones);
            let mut scores = turn_scores(board, rule);
            for _ in 0..stones {
                Knowledge::place_stone(draw, board, &mut empty, &mut scores, rng);
            }
            board.finish_turn(scores.before, stones);
        }
        board.leader()
    }

    /// The knowledge priors of `steps` (cells; the end of the turn keeps the fixed
    /// prior), read on one board with the pending stones placed.
    fn knowledge_priors<B: PlayoutPosition>(
        &self,
        board: B,
        steps: &[u16],
        priors: &mut Vec<Option<f32>>,
    ) {
        let knowledge = Knowledge::of(self.position.rule());
        let mut scores = turn_scores(&board, self.position.rule());
        let board = self.board_with_pending(board);
        let mover = board.side_to_move();
        scores.mover = board.player_score(mover);
        priors.clear();
        priors.extend(steps.iter().map(|&step| {
            if step == END_TURN {
                return Some(END_TURN_PRIOR);
            }
            let contacts = board.contacts(self.position.ordinal(usize::from(step)), mover.index());
            Some(knowledge.priors[feature_code(contacts, &scores)])
        }));
    }

    fn end_turn(&mut self) {
        if let Some(mv) = Move::from_cells(&self.placed[..self.count]) {
            self.position.play_unchecked(mv);
        }
        self.count = 0;
        self.allowed = self.position.stones_allowed();
    }
}

impl CatchupTree {
    /// The playout of [`TreeGame::playout`] on a given board, with the empty cells in a
    /// stack buffer: every draw in the same order on every board.
    #[inline(always)]
    fn play_out<B: PlayoutPosition>(&self, board: &mut B, rng: &mut Rng) -> Outcome {
        let mut cells = [0u8; 3];
        for (slot, &bit) in cells.iter_mut().zip(&self.placed[..self.count]) {
            *slot = self.position.ordinal(bit);
        }
        let mut empty: CellBuffer = [0; 256];
        let mut length = board.empty_cells(&cells[..self.count], &mut empty);
        // Removes a uniformly chosen empty cell (as `Vec::swap_remove` would). Indices are
        // below the empty count, at most `MAX_CELLS`, so as `u8` they are exact.
        let mut take = |rng: &mut Rng, length: &mut usize| {
            let index = usize::from(rng.below(*length) as u8);
            let cell = empty[index];
            *length -= 1;
            empty[index] = empty[usize::from(*length as u8)];
            cell
        };
        if self.count > 0 {
            let extra = rng.below(self.allowed - self.count + 1).min(length);
            let mut count = self.count;
            for _ in 0..extra {
                cells[count] = take(rng, &mut length);
                count += 1;
            }
            board.play_turn(&cells[..count]);
        }
        Self::play_uniform_turns(board, &mut empty, length, rng)
    }

    /// Uniform whole turns from a turn's start to the end: `empty` holds the `length`
    /// empty cells.
    #[inline(always)]
    fn play_uniform_turns<B: PlayoutPosition>(
        board: &mut B,
        empty: &mut CellBuffer,
        mut length: usize,
        rng: &mut Rng,
    ) -> Outcome {
        let mut take = |rng: &mut Rng, length: &mut usize| {
            let index = usize::from(rng.below(*length) as u8);
            let cell = empty[index];
            *length -= 1;
            empty[index] = empty[usize::from(*length as u8)];
            cell
        };
        // One branch on the stone count per turn, each arm unrolled: the count is random,
        // so a loop over the stones mispredicted its exit again after the draws.
        while length > 0 {
            // Every empty cell is in the list from here on: no cap beyond the board's.
            debug_assert_eq!(length, board.empty_count());
            let allowed = board.stones_allowed();
            let roll = rng.below(allowed + 1);
            match if roll == 0 { allowed } else { roll } {
                1 => board.play_turn(&[take(rng, &mut length)]),
                2 => {
                    let first = take(rng, &mut length);
                    board.play_turn(&[first, take(rng, &mut length)]);
                }
                _ => {
                    let first = take(rng, &mut length);
                    let second = take(rng, &mut length);
                    board.play_turn(&[first, second, take(rng, &mut length)]);
                }
            }
        }
        board.leader()
    }
}

impl TreeGame for CatchupTree {
    type Step = u16;

    fn actor(&self) -> Player {
        self.position.side_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.count > 0 {
            None
        } else {
            self.position.outcome()
        }
    }

    fn steps(&self, steps: &mut Vec<u16>) {
        steps.clear();
        if self.count == 0 && self.position.outcome().is_some() {
            return;
        }
        let after = if self.count > 0 {
            self.placed[self.count - 1] + 1
        } else {
            0
        };
        for cell in self.position.empty_cells().iter() {
            if cell >= after {
                steps.push(cell as u16);
            }
        }
        if self.count > 0 {
            steps.push(END_TURN);
        }
    }

    fn apply(&mut self, step: u16) {
        if step == END_TURN {
            self.end_turn();
            return;
        }
        self.placed[self.count] = usize::from(step);
        self.count += 1;
        if self.count >= self.allowed {
            self.end_turn();
        }
    }

    /// Random turns to the end: finish this turn, then each turn places a random number
    /// of stones (the most allowed twice as often as fewer) on random empty cells.
    ///
    /// Plays on a [`WordBoard`] (sides up to 5) or a
    /// [`PlayoutBoard`](crate::game::catchup::PlayoutBoard) (groups only, cells as
    /// ordinals), chosen once here; this state is left as it was (the caller's copy is
    /// dropped).
    fn playout(&mut self, rng: &mut Rng) -> Outcome {
        // Built where it is used: moving the board out of an option copied it.
        if self.position.fits_word_board() {
            let mut board = WordBoard::new(&self.position);
            self.play_out_on(&mut board, rng)
        } else {
            let mut board = self.position.playout_board();
            self.play_out_on(&mut board, rng)
        }
    }

    fn priors(&self, steps: &[u16], priors: &mut Vec<Option<f32>>) {
        match (self.policy, self.position.fits_word_board()) {
            (PlayoutPolicy::Uniform, _) => {
                priors.clear();
                priors.extend(steps.iter().map(|&step| self.prior(step)));
            }
            (PlayoutPolicy::Knowledge, true) => {
                self.knowledge_priors(WordBoard::new(&self.position), steps, priors)
            }
            (PlayoutPolicy::Knowledge, false) => {
                self.knowledge_priors(self.position.playout_board(), steps, priors)
            }
        }
    }

    fn uses_amaf(&self) -> bool {
        self.owners.is_some()
    }

    fn amaf_key(&self, step: u16) -> Option<u8> {
        (step != END_TURN).then(|| self.position.ordinal(usize::from(step)))
    }

    #[inline]
    fn amaf_owners(&self) -> Option<&Owners> {
        self.owners.as_ref()
    }

    /// The policy's prior of one step, as [`TreeGame::priors`] gives it.
    fn prior(&self, step: u16) -> Option<f32> {
        if self.policy == PlayoutPolicy::Knowledge {
            let mut priors = Vec::with_capacity(1);
            self.priors(&[step], &mut priors);
            return priors[0];
        }
        self.neighbour_prior(step)
    }
}

impl CatchupTree {
    /// The uniform policy's prior. Stones next to own stones (growing a group) and next
    /// to the opponent's (cutting its growth) are more often good; isolated stones and
    /// early turn ends less so: 0.45, plus 0.05 per own neighbour and 0.03 per opponent
    /// neighbour (up to three each); 0.4 for ending the turn.
    fn neighbour_prior(&self, step: u16) -> Option<f32> {
        if step == END_TURN {
            return Some(END_TURN_PRIOR);
        }
        let mover = self.position.side_to_move();
        let stones = self.position.neighbour_stones(usize::from(step));
        let pending = self.placed[..self.count]
            .iter()
            .filter(|&&cell| self.position.are_neighbours(cell, usize::from(step)))
            .count();
        let own_neighbours = (stones[mover.index()] + pending) as i32;
        let opponent_neighbours = stones[mover.opponent().index()] as i32;
        let value =
            0.45 + 0.05 * own_neighbours.min(3) as f32 + 0.03 * opponent_neighbours.min(3) as f32;
        Some(value)
    }
}

impl SearchGame for Catchup {
    /// The largest groups and the empty cells; the total is 100 x the side to move's
    /// largest-group lead (MCTS reads no static evaluation: this is for `eval` only).
    fn evaluation_report(&self) -> (Vec<(String, i32)>, i32) {
        let mover = self.side_to_move();
        let lead = self.player_score(mover) as i32 - self.player_score(mover.opponent()) as i32;
        let terms = vec![
            (
                "largest_group_p1".to_string(),
                self.player_score(Player::One) as i32,
            ),
            (
                "largest_group_p2".to_string(),
                self.player_score(Player::Two) as i32,
            ),
            ("empty_cells".to_string(), self.empty_count() as i32),
        ];
        (terms, 100 * lead)
    }

    fn expected_moves_left(&self) -> u32 {
        (self.empty_count() as u32 / 4).max(1)
    }
}

impl MctsGame for Catchup {
    type Tree = CatchupTree;

    fn tree(&self) -> CatchupTree {
        CatchupTree::new(self.clone(), PlayoutPolicy::default())
    }

    fn move_from_steps(&self, steps: &[u16]) -> Option<Move> {
        let cells: Vec<usize> = steps
            .iter()
            .filter(|&&step| step != END_TURN)
            .map(|&step| usize::from(step))
            .collect();
        let empty = self.empty_cells();
        let legal =
            cells.len() <= self.stones_allowed() && cells.iter().all(|&cell| empty.contains(cell));
        legal.then(|| Move::from_cells(&cells)).flatten()
    }
}

#[cfg(test)]
mod knowledge_tests;

/// Random tree states of `policy` (mid-turn ones included): `games` random walks from the
/// empty board, cycling through every side and both rules, each cut at a random depth.
#[cfg(test)]
fn random_tree_states(policy: PlayoutPolicy, games: u64, seed: u64) -> Vec<CatchupTree> {
    use crate::game::CatchupRule;
    let mut walk = crate::search::rng::seeded(seed);
    let mut steps = Vec::new();
    let mut states = Vec::new();
    for game in 0..games {
        let side = 2 + (game % 8) as usize;
        let rule = if game / 8 % 2 == 0 {
            CatchupRule::Revised
        } else {
            CatchupRule::Original
        };
        let start = Catchup::empty_board(side, rule).expect("sides 2 to 9");
        let mut state = CatchupTree::for_search(start.clone(), policy);
        let depth = walk.below(start.empty_count() + 8);
        for _ in 0..depth {
            state.steps(&mut steps);
            if steps.is_empty() {
                break;
            }
            state.apply(steps[walk.below(steps.len())]);
        }
        states.push(state);
    }
    states
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::hex::Direction;
    use crate::game::catchup::Cells;
    use crate::search::rng::seeded;

    /// The stones placed so far in the turn being built.
    fn placed_set(state: &CatchupTree) -> Cells {
        state.placed[..state.count]
            .iter()
            .fold(Cells::EMPTY, |set, &cell| set | Cells::single(cell))
    }

    /// The prior as first written, with stone sets and the geometry's neighbours.
    fn reference_prior(state: &CatchupTree, step: u16) -> f32 {
        if step == END_TURN {
            return 0.4;
        }
        let mover = state.position.side_to_move();
        let own = state.position.stones(mover) | placed_set(state);
        let opponent = state.position.stones(mover.opponent());
        let geometry = state.position.geometry();
        let (mut own_neighbours, mut opponent_neighbours) = (0, 0);
        for direction in Direction::ALL {
            if let Some(next) = geometry.neighbour(usize::from(step), direction) {
                own_neighbours += i32::from(own.contains(next));
                opponent_neighbours += i32::from(opponent.contains(next));
            }
        }
        0.45 + 0.05 * own_neighbours.min(3) as f32 + 0.03 * opponent_neighbours.min(3) as f32
    }

    /// The playout as first written, on the full position (stone sets, hash, cells as
    /// bits): the same draws in the same order, so it must give the same results.
    fn reference_playout(state: &CatchupTree, rng: &mut Rng) -> Outcome {
        let mut position = state.position.clone();
        let mut empty: Vec<u16> = position
            .empty_cells()
            .without(placed_set(state))
            .iter()
            .map(|cell| cell as u16)
            .collect();
        let take = |rng: &mut Rng, empty: &mut Vec<u16>| {
            let index = rng.below(empty.len());
            empty.swap_remove(index)
        };
        if state.count > 0 {
            let extra = rng.below(state.allowed - state.count + 1).min(empty.len());
            let mut cells: Vec<u16> = state.placed[..state.count]
                .iter()
                .map(|&cell| cell as u16)
                .collect();
            for _ in 0..extra {
                cells.push(take(rng, &mut empty));
            }
            position.play_turn_unchecked(&cells);
        }
        while !empty.is_empty() {
            let allowed = position.stones_allowed().min(empty.len());
            let roll = rng.below(allowed + 1);
            let count = if roll == 0 { allowed } else { roll };
            let cells: Vec<u16> = (0..count).map(|_| take(rng, &mut empty)).collect();
            position.play_turn_unchecked(&cells);
        }
        assert!(position.outcome().is_some());
        position.leader()
    }

    #[test]
    fn playouts_match_the_full_position_draw_for_draw() {
        for state in super::random_tree_states(PlayoutPolicy::Uniform, 800, 11) {
            for seed in 0..4 {
                let (mut fast, mut slow) = (seeded(seed), seeded(seed));
                let outcome = state.clone().playout(&mut fast);
                assert_eq!(outcome, reference_playout(&state, &mut slow), "{state:?}");
                assert_eq!(fast.next_u64(), slow.next_u64(), "same number of draws");
            }
        }
    }

    #[test]
    fn priors_match_the_first_written_ones_exactly() {
        let mut steps = Vec::new();
        for state in super::random_tree_states(PlayoutPolicy::Uniform, 800, 11) {
            state.steps(&mut steps);
            for &step in &steps {
                let prior = state.prior(step).map(f32::to_bits);
                let expected = reference_prior(&state, step).to_bits();
                assert_eq!(prior, Some(expected), "{state:?} step {step}");
            }
        }
    }

    #[test]
    fn knowledge_playouts_record_who_holds_every_cell() {
        let mut tested = 0;
        for state in super::random_tree_states(PlayoutPolicy::Knowledge, 96, 5) {
            if state.outcome().is_some() {
                continue;
            }
            assert!(state.uses_amaf());
            let mut played = state.clone();
            played.playout(&mut seeded(9));
            let owners = *played.amaf_owners().expect("the knowledge tree keeps them");
            let held = |bit: usize| {
                let key = played.amaf_key(bit as u16).expect("a cell has a key");
                [Player::One, Player::Two]
                    .into_iter()
                    .find(|&player| owners.took(player, key))
            };
            for player in [Player::One, Player::Two] {
                for bit in state.position.stones(player).iter() {
                    assert_eq!(held(bit), Some(player), "{state:?}");
                }
            }
            let mover = state.position.side_to_move();
            for &bit in &state.placed[..state.count] {
                assert_eq!(held(bit), Some(mover), "the turn's own stones");
            }
            for bit in state.position.empty_cells().iter() {
                assert!(held(bit).is_some(), "the playout fills the board");
            }
            assert_eq!(played.amaf_key(END_TURN), None);
            tested += 1;
        }
        assert!(tested > 40, "{tested} states");
        for state in super::random_tree_states(PlayoutPolicy::Uniform, 16, 5) {
            let mut played = state.clone();
            played.playout(&mut seeded(9));
            assert!(!played.uses_amaf() && played.amaf_owners().is_none());
        }
    }
}
