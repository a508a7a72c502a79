//! What the search needs from a game beyond its rules, split by who reads it, so a game
//! implements only what its own search uses:
//! - [`SearchGame`]: what every game gives (the time manager's hint, the weak
//!   strategies' value, the `eval` report);
//! - [`Evaluate`]: a static evaluation (alpha-beta games);
//! - [`AlphaBetaGame`]: the core the alpha-beta search reads (the value of a finished
//!   game, forcing moves, ordering hints), and the hooks of families of games, a trait
//!   each: [`StagedMoves`], [`FixedLength`], [`ProgressRule`], [`ExactTables`];
//! - [`MctsGame`]: the view of the game as a tree of single decisions ([`TreeGame`]).
//!
//! Implemented per game in `crate::eval`. Which search plays a game, and what a game's
//! search gets beyond the position (its tables, a solver, a playout policy), the engine
//! decides (`crate::engine`).

use std::fmt::Debug;
use std::hash::{Hash, Hasher};

use crate::game::{Outcome, Owners, Player, Rules};

use super::rng::Rng;

/// The value of a finished game from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Terminal {
    /// A decisive result: scored as a mate at this distance from the root.
    Win,
    Loss,
    Draw,
    /// A finished game whose value is a margin in centi-units (Cheversi's final score).
    Exact(i32),
}

/// An exact value from a game's ending tables for the side to move, with the plies the
/// progress rule leaves already counted (a win or loss that takes longer is a draw).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TableValue {
    /// Won: the plies to the capture that converts (0: the game is over, lost).
    Win(u32),
    /// Lost: the plies the opponent needs at best.
    Loss(u32),
    /// Drawn, with a small tie-break (centi-units, the side to move's view) added to the
    /// draw's score, so that of two drawn lines the engine takes the better one.
    Draw(i32),
}

/// Number of slots in the history table; [`AlphaBetaGame::history_index`] maps into it.
pub const HISTORY_SIZE: usize = 1 << 13;

/// A game the engine can search: what every strategy needs from it.
pub trait SearchGame: Rules {
    /// The side to move's expected number of remaining moves, for the time manager.
    fn expected_moves_left(&self) -> u32 {
        30
    }

    /// The `greedy` strategy's value of this position for `mover`, who just moved:
    /// own rule score minus the opponent's.
    fn greedy_value(&self, mover: Player) -> i32 {
        let score = self.score();
        score[mover.index()] - score[mover.opponent().index()]
    }

    /// How far forward `player`'s army stands (checkers: the rows its men have advanced,
    /// summed), for the `defender` and `attacker` strategies' tie-breaks; 0 where a game has no
    /// such idea.
    fn advancement(&self, _player: Player) -> i32 {
        0
    }

    /// What `eval` prints: terms, each from player 1's point of view, and a total for the
    /// side to move (the static evaluation where the game has one).
    fn evaluation_report(&self) -> (Vec<(String, i32)>, i32);
}

/// A static evaluation.
pub trait Evaluate: Rules {
    /// Static evaluation in centi-units from the side to move's point of view.
    fn evaluate(&self) -> i32;

    /// The terms of the evaluation for `eval`, each from player 1's point of view.
    fn evaluation_terms(&self) -> Vec<(String, i32)> {
        let value = self.evaluate();
        let white_view = match self.side_to_move() {
            Player::One => value,
            Player::Two => -value,
        };
        vec![("total".to_string(), white_view)]
    }
}

/// What the alpha-beta search reads from a game beyond its evaluation. The hooks come in
/// groups, each a trait of its own, so a game sees which matter to it:
/// - this trait, the core every alpha-beta game gives: the value of a finished game, what
///   a draw costs, the forcing moves quiescence follows, and the ordering hints;
/// - [`StagedMoves`]: trying the table move and the killers before listing the moves, a
///   speed-up only (Cheversi, Kruzno and hex checkers);
/// - [`FixedLength`]: games that end at a known ply, searched exactly near the end
///   (Cheversi);
/// - [`ProgressRule`]: games a progress rule can draw, and the draw's pull on the search
///   (Kruzno and hex checkers: the 80-ply rule);
/// - [`ExactTables`]: games whose endings have tables of exact values (hex checkers).
///
/// A game outside a family writes an empty `impl` of it (and `type Tables = ();`): the
/// defaults are what the search does without the family. The exact phase of `go` (a
/// solver tried before the search, Cheversi's) is the engine's, not a hook
/// (`crate::engine::exact`).
pub trait AlphaBetaGame:
    SearchGame + Evaluate + StagedMoves + FixedLength + ProgressRule + ExactTables
{
    /// The value of a finished game (`outcome` is `Some`) for the side to move.
    fn terminal(&self, outcome: Outcome) -> Terminal {
        match outcome.value_for(self.side_to_move()) {
            1 => Terminal::Win,
            -1 => Terminal::Loss,
            _ => Terminal::Draw,
        }
    }

    /// What a draw costs the engine's side in alpha-beta, in centi-units (see
    /// [`AlphaBetaConfig::contempt`](super::alphabeta::AlphaBetaConfig::contempt)).
    fn contempt(&self) -> i32 {
        30
    }

    /// False for games without forcing moves: quiescence is then just the evaluation
    /// (or the final value), with no move generation at the leaves.
    const HAS_NOISY_MOVES: bool = true;

    /// A forcing move (a capture): searched beyond the horizon by quiescence.
    fn is_noisy(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Fills `moves` (cleared first) with the noisy legal moves, in the order
    /// [`Rules::legal_moves`] lists them; true when there are quiet moves besides. No
    /// moves and false means the game is over. Games that can find their forcing moves
    /// without listing the rest (checkers' captures) override it: quiescence calls it at
    /// every leaf.
    fn noisy_moves(&self, moves: &mut Vec<Self::Move>) -> bool {
        self.legal_moves(moves);
        let total = moves.len();
        moves.retain(|&mv| self.is_noisy(mv));
        moves.len() < total
    }

    /// [`AlphaBetaGame::noisy_moves`], and the static evaluation when the game found it on
    /// the way (it must then equal [`Evaluate::evaluate`]). Quiescence needs the
    /// evaluation exactly where no forcing move is left, and a game's test for forcing
    /// moves may share its work (checkers' capture test shifts the empty cells its
    /// mobility term counts). The default finds none.
    fn noisy_moves_and_evaluation(&self, moves: &mut Vec<Self::Move>) -> (bool, Option<i32>) {
        (self.noisy_moves(moves), None)
    }

    /// A cheap ordering hint: larger is tried first (among noisy moves, then quiet ones).
    fn order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// [`AlphaBetaGame::order_hint`] of every move, in order, into `hints` (cleared first).
    /// Games whose hints share work across the moves of one position override it.
    fn order_hints(&self, moves: &[Self::Move], hints: &mut Vec<i32>) {
        hints.clear();
        hints.extend(moves.iter().map(|&mv| self.order_hint(mv)));
    }

    /// The history-table slot of a move, below [`HISTORY_SIZE`]. The default hashes the
    /// move; games with a natural from/to or piece/square index do better.
    fn history_index(&self, mv: Self::Move) -> usize {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        mv.hash(&mut hasher);
        (hasher.finish() as usize) & (HISTORY_SIZE - 1)
    }

    /// The index of `mv` in `moves` (this position's legal moves), if it is there: how
    /// the search finds its killers. Games whose quiet-move lists are sorted override it
    /// with a binary search.
    fn find_move(&self, moves: &[Self::Move], mv: Self::Move) -> Option<usize> {
        find_move(moves, mv)
    }
}

/// Staged move generation: the search tries the table move and the killers before it
/// lists the moves, and stops there when one of them cuts (most nodes near the leaves
/// do). Only a speed-up: the defaults list every move first. Users: Cheversi (placements
/// are all quiet and a placement's legality is a few bit tests) and Kruzno and hex
/// checkers (steps, when no capture is compulsory, with codes for the table).
pub trait StagedMoves: Rules {
    /// When every legal move here is quiet, their number, counted without listing them;
    /// `None` when a noisy move exists, and for games that do not stage (the default).
    /// With a count and no table move, the search tries the killers that
    /// [`StagedMoves::is_legal_quiet`] accepts before it lists the moves: most nodes near
    /// the leaves cut on a killer, and listing every move was most of their cost.
    fn quiet_move_count(&self) -> Option<usize> {
        None
    }

    /// True when `mv`, a quiet move of some position of this game (a killer), is legal
    /// here. Called only where [`StagedMoves::quiet_move_count`] gave a count.
    fn is_legal_quiet(&self, _mv: Self::Move) -> bool {
        false
    }

    /// A code below [`MAX_MOVE_CODE`](super::tt::MAX_MOVE_CODE) that names `mv` among the
    /// moves of any position of this game, for the transposition table: with a code the
    /// search can try the table move without listing the moves (checked by
    /// [`StagedMoves::is_legal_quiet`] where the moves are staged). `None` (the default)
    /// stores the move's index in the list.
    fn move_code(&self, _mv: Self::Move) -> Option<u16> {
        None
    }

    /// The move [`StagedMoves::move_code`] gave `code`, if the code names one (it may not
    /// be legal here).
    fn decode_move(&self, _code: u16) -> Option<Self::Move> {
        None
    }
}

/// Games that end at a known ply: a search that reaches the end is exact, so it must not
/// reduce, and the last plies can be solved without playing them. The engine's
/// `ExactPlies` option sets how far from the end a search is made exact
/// ([`AlphaBetaConfig::exact_plies`](super::alphabeta::AlphaBetaConfig::exact_plies)).
/// Users: Cheversi (always 16 placements).
pub trait FixedLength: Rules {
    /// Plies until the game surely ends, when the game has a fixed length (Cheversi):
    /// a search at least this deep is exact, so it must not reduce.
    fn plies_to_end(&self) -> Option<u32> {
        None
    }

    /// When a fixed-length game ends within a move or two: the side to move's best move
    /// and the final value it reaches (as [`Terminal::Exact`] scores the end), found
    /// without playing the moves out one by one, fail-soft within `alpha..beta` like the
    /// search it replaces. `None` where a game has no such shortcut or the end is further
    /// away; the search then plays the moves. It is called only where the search would
    /// reach the end anyway. Cheversi scores each candidate by how it changes the
    /// points, which makes the last plies of an exact search several times cheaper.
    fn best_final_move(&self, _alpha: i32, _beta: i32) -> Option<(Self::Move, i32)> {
        None
    }

    /// Plies before the end within which a leaf takes its value from
    /// [`FixedLength::best_final_move`] instead of [`Evaluate::evaluate`], because the
    /// exact value costs about as much there (Cheversi's last placement is Black's King,
    /// on one of at most 8 squares). The search stays heuristic (it still reduces); only
    /// those leaves are exact. Read only by games without forcing moves
    /// ([`AlphaBetaGame::HAS_NOISY_MOVES`] false), whose leaves are a plain evaluation.
    /// 0 (the default): leaves always evaluate.
    const FINAL_LEAF_PLIES: u32 = 0;
}

/// Games a progress rule can draw (a count of plies without progress), and how the search
/// keeps the engine from drifting into that draw or buying a fresh count with material:
/// the draw fade, the plies to contact and the material guard (see the module notes of
/// [`alphabeta`](super::alphabeta)). Users: Kruzno and hex checkers (80 plies without a
/// capture).
pub trait ProgressRule: Rules {
    /// Plies left before a progress rule draws the game (checkers: 80 plies without a
    /// capture), if the game has one. The search scores a position whose count has run
    /// out as a draw, and keys table entries whose search reaches the limit by it.
    fn plies_to_draw(&self) -> Option<u32> {
        None
    }

    /// Plies before a progress-rule draw over which the search slides leaf values towards
    /// the draw value (see [`AlphaBetaConfig::draw_fade_plies`](super::alphabeta::AlphaBetaConfig::draw_fade_plies)).
    fn draw_fade_plies(&self) -> u32 {
        40
    }

    /// Plies the mover needs at least before a capture can reset the progress rule's
    /// count (checkers: its men walking into contact with the enemy's). The draw fade
    /// counts only the plies left beyond these, so near the limit the engine closes in
    /// instead of waiting for a draw it could have avoided. Called only inside the fade.
    fn plies_to_contact(&self) -> u32 {
        0
    }

    /// The most the draw fade moves a leaf value. Two men by default, so a big lead near
    /// the limit still ranks its lines by material (a man given away to restart the count
    /// costs it). Called only inside the fade.
    fn draw_fade_limit(&self) -> i32 {
        DRAW_FADE_LIMIT
    }

    /// `player`'s material minus the opponent's (checkers: men), for the
    /// [`ProgressRule::material_guard`]; read at the leaves. `None` (the default) where a
    /// game has no guard.
    fn material_lead(&self, _player: Player) -> Option<i32> {
        None
    }

    /// How the search guards the engine's material ([`MaterialGuard`]), read once at the
    /// root, so it may depend on the root (hex checkers: on the count); `None` (the
    /// default): material is worth what the evaluation says.
    fn material_guard(&self) -> Option<MaterialGuard> {
        None
    }
}

/// Games with tables of exact values for some positions (endings with few pieces): the
/// search scores a covered position from the table without looking further. The engine
/// loads the tables and hands them to the search. Users: hex checkers (the built-in
/// tables and an `EndingsFile`).
pub trait ExactTables: Rules {
    /// The exact tables the search probes at every node ([`ExactTables::table_value`]),
    /// supplied by the engine; `()` for a game without.
    type Tables: Sync;

    /// The exact value of this position from `tables` (the game's [`ExactTables::Tables`]
    /// as the engine loaded them), when they cover it. The search scores it without
    /// looking further, ordered by the plies, so the winner takes the quickest win and
    /// the loser the longest defence. `None` (the default) where no table covers the
    /// position; it must be cheap then, since every node asks.
    fn table_value(&self, _tables: &Self::Tables) -> Option<TableValue> {
        None
    }
}

/// [`ProgressRule::draw_fade_limit`]'s default: two men.
pub const DRAW_FADE_LIMIT: i32 = 200;

/// How the search keeps the engine's side from giving material away
/// ([`ProgressRule::material_guard`]): every unit of material the engine's side is down
/// at a leaf compared with the root, below a lead of `secure_lead` units, costs `penalty`
/// beyond the evaluation, and such a leaf is never worth more than a draw. So a line that
/// loses material and does not win it back within the search scores below the draw it
/// avoids, however much the evaluation likes the position it reaches; a man offered for a
/// capture that comes back (a shot, an exchange) costs nothing, since only the material at
/// the leaf counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MaterialGuard {
    /// Centi-units per unit of material lost beyond its evaluated worth.
    pub penalty: i32,
    /// A lead (in units of material) that the engine may spend: material given while the
    /// lead stays at least this large is not penalised.
    pub secure_lead: i32,
}

/// A game MCTS plays: its view as a tree of single decisions.
pub trait MctsGame: SearchGame {
    /// The game as MCTS sees it (single decisions; [`MoveTree`] for a game whose moves
    /// are single decisions already).
    type Tree: TreeGame;

    /// The MCTS view of this position.
    fn tree(&self) -> Self::Tree;

    /// The move made of the decisions from this position through the end of the mover's
    /// turn (steps as [`MctsGame::tree`] defines them).
    fn move_from_steps(&self, steps: &[<Self::Tree as TreeGame>::Step]) -> Option<Self::Move>;
}

/// A game as a tree of single decisions ("steps"), each taken by one player. A Catchup
/// turn of several stones is several steps by the same player; results are credited to
/// whoever acts at each node.
pub trait TreeGame: Clone + Debug + Send + Sync + 'static {
    type Step: Copy + Eq + Debug + Send + Sync + 'static;

    /// Who takes the next step.
    fn actor(&self) -> Player;

    /// The result once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Clears `steps` and fills it with every legal step (empty exactly when over).
    fn steps(&self, steps: &mut Vec<Self::Step>);

    fn apply(&mut self, step: Self::Step);

    /// Plays the game out to the end with a fast default policy; returns the result.
    fn playout(&mut self, rng: &mut Rng) -> Outcome {
        let mut steps = Vec::new();
        loop {
            if let Some(outcome) = self.outcome() {
                return outcome;
            }
            self.steps(&mut steps);
            if steps.is_empty() {
                return Outcome::Draw;
            }
            let step = steps[rng.below(steps.len())];
            self.apply(step);
        }
    }

    /// True when this tree records, after [`TreeGame::playout`], who took each step
    /// ([`TreeGame::amaf_owners`]), so the search can keep all-moves-as-first statistics.
    fn uses_amaf(&self) -> bool {
        false
    }

    /// The key of `step` in [`TreeGame::amaf_owners`] (Catchup: its cell's ordinal), for
    /// a step a player may take later in a simulation.
    fn amaf_key(&self, _step: Self::Step) -> Option<u8> {
        None
    }

    /// After [`TreeGame::playout`]: who took each key in the tree or the playout (in a
    /// game that fills a board, who holds each cell at the end).
    fn amaf_owners(&self) -> Option<&Owners> {
        None
    }

    /// A prior for `step` (the probability it is good for the actor), if the game has one.
    fn prior(&self, _step: Self::Step) -> Option<f32> {
        None
    }

    /// The priors of all `steps` (this state's), into `priors` (cleared first): games
    /// whose priors share work across the steps of one state override it.
    fn priors(&self, steps: &[Self::Step], priors: &mut Vec<Option<f32>>) {
        priors.clear();
        priors.extend(steps.iter().map(|&step| self.prior(step)));
    }
}

/// The index of `target` in `moves`, by a plain indexed loop: the iterator forms kept
/// their counter in memory, which made this scan a tenth of a checkers search.
#[inline]
#[allow(clippy::needless_range_loop, clippy::manual_find)]
pub fn find_move<M: PartialEq + Copy>(moves: &[M], target: M) -> Option<usize> {
    for index in 0..moves.len() {
        if moves[index] == target {
            return Some(index);
        }
    }
    None
}

/// The plain tree of a game whose moves are single decisions: one step is one move.
#[derive(Clone, Debug)]
pub struct MoveTree<G>(pub G);

impl<G: Rules> TreeGame for MoveTree<G> {
    type Step = G::Move;

    fn actor(&self) -> Player {
        self.0.side_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn steps(&self, steps: &mut Vec<G::Move>) {
        self.0.legal_moves(steps);
    }

    fn apply(&mut self, step: G::Move) {
        self.0.play_unchecked(step);
    }
}

/// [`MctsGame::move_from_steps`] for a [`MoveTree`]: the first step is the move.
pub fn first_step<M: Copy>(steps: &[M]) -> Option<M> {
    steps.first().copied()
}
