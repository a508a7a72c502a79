//! Search: best moves for any game.
//!
//! [`Engine`] is what the protocol talks to: options, the transposition table (allocated
//! when options change, never inside a search), and one `search` call per `go`. The
//! searches are written once, generic over [`game::SearchGame`]: alpha-beta
//! ([`alphabeta`]) for Cheversi and the checkers games, MCTS ([`mcts`]) for Catchup;
//! per-game evaluation, move hints and playout policy live in `crate::eval`.

pub mod alphabeta;
pub mod game;
pub mod mcts;
pub mod rng;
pub mod shared;
pub mod strategy;
pub mod time;
pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::eval::catchup_knowledge::PlayoutPolicy;
use crate::game::{AnyGame, GameRecord, Player, Rules};
use crate::with_record;

use alphabeta::{AlphaBetaConfig, Worker, pv_text, to_score};
use game::{Algorithm, SearchGame, TreeGame};
use mcts::{Mcts, MctsConfig, RootChild};
use rng::Rng;
use shared::Shared;
use time::TimeBudget;
use tt::TranspositionTable;

/// Which player the engine plays as: the full search or one of a ladder of deliberately
/// weak ones (fixed opponents of known strength, for measuring the full search without
/// the shared blind spots of self-play).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    #[default]
    Full,
    /// Two-ply minimax on the rule score alone (men in the checkers games).
    Minimax2,
    /// One ply on the rule score alone.
    Greedy,
    Random,
}

impl Strategy {
    /// Every strategy, strongest first, as the `Strategy` option lists them.
    pub const ALL: [Strategy; 4] = [
        Strategy::Full,
        Strategy::Minimax2,
        Strategy::Greedy,
        Strategy::Random,
    ];
    /// The option values, in the order of [`Strategy::ALL`].
    pub const NAMES: [&'static str; 4] = ["full", "minimax2", "greedy", "random"];

    /// The option value naming this strategy.
    pub const fn name(self) -> &'static str {
        Strategy::NAMES[self as usize]
    }
}

impl std::str::FromStr for Strategy {
    type Err = String;

    /// A strategy from its option value; anything else is an error naming the choices.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Strategy::NAMES
            .iter()
            .position(|&name| name == text)
            .map(|index| Strategy::ALL[index])
            .ok_or_else(|| format!("expected one of {}", Strategy::NAMES.join(", ")))
    }
}

/// Default of `ExactPlies`: Cheversi is solved exactly from this many plies before the end.
pub const DEFAULT_EXACT_PLIES: u32 = 8;

/// Most search threads (`Threads`): the option's maximum and the engine's clamp.
pub const MAX_THREADS: usize = 256;

/// Engine options the protocol sets with `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    pub seed: u64,
    pub strategy: Strategy,
    /// `ExactPlies`: in a game of fixed length (Cheversi), search exactly to the end from
    /// this many plies before it.
    pub exact_plies: u32,
    /// `CatchupPlayout`: the playout and priors of the Catchup search.
    pub catchup_playout: PlayoutPolicy,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            hash_mb: 64,
            threads: 1,
            move_overhead_ms: 50,
            seed: 0,
            strategy: Strategy::Full,
            exact_plies: DEFAULT_EXACT_PLIES,
            catchup_playout: PlayoutPolicy::default(),
        }
    }
}

/// A player's clock as `go` reports it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining time per player `[p1, p2]`.
    pub time: [Option<Duration>; 2],
    pub increment: [Duration; 2],
    pub moves_to_go: Option<u32>,
}

/// What bounds one search (`go` arguments). All `None`/false means "search until stopped
/// or a sensible default depth".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub infinite: bool,
    pub clock: Clock,
    /// When the `go` line arrived. Time limits count from here, not from the moment the
    /// search thread got going, so a delay in handing the command over (a busy machine)
    /// eats into the search, not into the caller's clock.
    pub received: Option<Instant>,
}

impl SearchLimits {
    /// True when no depth, node, time or clock limit was given (`infinite` aside).
    pub fn has_no_bound(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.clock.time.iter().all(Option::is_none)
    }

    /// True for a search that only `stop` ends for sure: `go infinite`, or `go` with no
    /// limit at all (its default depth is out of reach in the checkers variants).
    pub fn runs_until_stopped(&self) -> bool {
        self.infinite || self.has_no_bound()
    }
}

/// A search score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-units: see protocol.md per variant.
    Centipawns(i32),
    /// A proven result in this many moves (positive: the side to move wins; negative: it
    /// loses), reported as `score mate N`.
    Mate(i32),
}

/// One progress report: becomes an `info` line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub score: Option<Score>,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: Option<u32>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

/// The outcome of a search: the move to play (`None` only when the game is over).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub best_move: Option<String>,
    pub score: Option<Score>,
}

/// The result of a generic search: the move itself rather than its text.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSearchResult<M> {
    pub best_move: Option<M>,
    pub score: Option<Score>,
    /// Nodes (alpha-beta) or simulations (MCTS) searched.
    pub nodes: u64,
    /// Deepest completed iteration (alpha-beta) or principal variation length (MCTS).
    pub depth: u32,
}

/// When no limit at all is given, search this deep (alpha-beta) / this many
/// simulations (MCTS) rather than forever.
const DEFAULT_DEPTH: u32 = 64;
const DEFAULT_SIMULATIONS: u64 = 2_000_000;
/// MCTS simulations bought by `go depth 0`; each further ply doubles it.
const MCTS_SIMULATIONS_PER_DEPTH: u64 = 1_000;
/// Bytes the MCTS tree spends per node or edge, for sizing it from `Hash`.
const MCTS_ENTRY_BYTES: usize = 32;

/// Search state kept between moves: tables, histories, options.
#[derive(Debug)]
pub struct Engine {
    options: SearchOptions,
    /// Boxed so an `Engine` stays small to move between threads and inside jobs.
    state: Box<EngineState>,
}

/// The engine's owned tables and tuning.
#[derive(Debug)]
struct EngineState {
    table: TranspositionTable,
    rng: Rng,
    /// Alpha-beta tuning; tests switch shape-changing enhancements off.
    alpha_beta: AlphaBetaConfig,
    mcts: MctsConfig,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(SearchOptions::default())
    }
}

impl Engine {
    pub fn new(options: SearchOptions) -> Self {
        let table = TranspositionTable::new(options.hash_mb);
        let rng = rng::seeded(options.seed);
        Engine {
            options,
            state: Box::new(EngineState {
                table,
                rng,
                alpha_beta: AlphaBetaConfig::default(),
                mcts: MctsConfig::default(),
            }),
        }
    }

    /// The alpha-beta tuning in force.
    pub fn alpha_beta_config(&self) -> AlphaBetaConfig {
        self.state.alpha_beta
    }

    /// Replaces the alpha-beta tuning (tests use the value-preserving subset).
    pub fn set_alpha_beta_config(&mut self, config: AlphaBetaConfig) {
        self.state.alpha_beta = config;
    }

    /// Replaces the MCTS tuning.
    pub fn set_mcts_config(&mut self, config: MctsConfig) {
        self.state.mcts = config;
    }

    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Applies new options; allocates the hash table here, never inside `search`.
    pub fn set_options(&mut self, options: SearchOptions) {
        if options.hash_mb != self.options.hash_mb {
            self.state.table = TranspositionTable::new(options.hash_mb);
        }
        if options.seed != self.options.seed {
            self.state.rng = rng::seeded(options.seed);
        }
        self.options = options;
    }

    /// Forgets tables and histories (`uginewgame`).
    pub fn new_game(&mut self) {
        self.state.table.clear();
        self.state.rng = rng::seeded(self.options.seed);
    }

    /// Searches `game` until a limit is reached or `stop` becomes true, calling `report`
    /// for progress. Returns the best move (`None` only when the game is over).
    pub fn search(
        &mut self,
        game: &AnyGame,
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchInfo),
    ) -> SearchResult {
        let started = Instant::now();
        let result = with_record!(game.kind(), record => {
            let found = self.search_record(record, limits, stop, report);
            SearchResult {
                best_move: found.best_move.map(|mv| record.position().move_text(mv)),
                score: found.score,
            }
        });
        log::debug!("search finished in {:?}", started.elapsed());
        result
    }

    /// The static evaluation with its terms, as `eval` prints it (one line per term).
    pub fn evaluation_text(&self, game: &AnyGame) -> Vec<String> {
        with_record!(game.kind(), record => {
            let position = record.position();
            let mut lines: Vec<String> = position
                .evaluation_terms()
                .into_iter()
                .map(|(name, value)| format!("{name} {value}"))
                .collect();
            let mover = match position.side_to_move() {
                Player::One => "p1",
                Player::Two => "p2",
            };
            lines.push(format!("total {} (side to move {mover})", position.evaluate()));
            lines
        })
    }

    /// The generic search behind [`Engine::search`]: any game, from its record (the
    /// history gives repetitions).
    pub fn search_record<G: SearchGame>(
        &mut self,
        record: &GameRecord<G>,
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchInfo),
    ) -> GameSearchResult<G::Move> {
        let position = record.position();
        let mut moves = Vec::new();
        record.legal_moves(&mut moves);
        let mut result = GameSearchResult {
            best_move: moves.first().copied(),
            score: None,
            nodes: 0,
            depth: 0,
        };
        if moves.is_empty() {
            return result;
        }
        match self.options.strategy {
            Strategy::Random => {
                result.best_move = strategy::random_move(&moves, &mut self.state.rng);
                return result;
            }
            Strategy::Greedy => {
                result.best_move = strategy::greedy_move(position, &moves, &mut self.state.rng);
                return result;
            }
            Strategy::Minimax2 => {
                result.best_move = strategy::minimax2_move(position, &moves, &mut self.state.rng);
                return result;
            }
            Strategy::Full => {}
        }
        let only_clock = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && !limits.infinite;
        if moves.len() == 1 && only_clock {
            return result;
        }
        match G::ALGORITHM {
            Algorithm::AlphaBeta => self.alpha_beta_search(record, limits, stop, report),
            Algorithm::Mcts => self.mcts_search(position, limits, stop, report),
        }
    }

    fn budget<G: SearchGame>(&self, position: &G, limits: &SearchLimits) -> TimeBudget {
        TimeBudget::new(
            limits,
            position.side_to_move(),
            Duration::from_millis(self.options.move_overhead_ms),
            position.expected_moves_left(),
        )
    }

    fn default_limits(limits: &SearchLimits) -> bool {
        !limits.infinite && limits.has_no_bound()
    }

    fn alpha_beta_search<G: SearchGame>(
        &mut self,
        record: &GameRecord<G>,
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchInfo),
    ) -> GameSearchResult<G::Move> {
        let position = record.position();
        let budget = self.budget(position, limits);
        let depth = limits
            .depth
            .or(Self::default_limits(limits).then_some(DEFAULT_DEPTH));
        self.state.table.new_search();
        let mut shared = Shared::new(
            &self.state.table,
            stop,
            limits.nodes,
            budget,
            limits.infinite,
        );
        shared.start = limits.received.unwrap_or(shared.start);
        let mut config = self.state.alpha_beta;
        config.exact_plies.get_or_insert(self.options.exact_plies);
        let history = record.hashes();
        let threads = self.options.threads.clamp(1, MAX_THREADS);
        let result = std::thread::scope(|scope| {
            for thread_index in 1..threads {
                let shared = &shared;
                scope.spawn(move || {
                    let mut worker =
                        Worker::new(shared, config, thread_index, position, history, None);
                    worker.iterate(None);
                });
            }
            let mut main = Worker::new(&shared, config, 0, position, history, Some(report));
            let result = main.iterate(depth);
            shared.abort();
            result
        });
        let info = shared.info(0);
        GameSearchResult {
            best_move: result.best_move,
            score: Some(to_score(result.value)),
            nodes: info.nodes,
            depth: result.depth,
        }
    }

    fn mcts_search<G: SearchGame>(
        &mut self,
        position: &G,
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchInfo),
    ) -> GameSearchResult<G::Move> {
        let budget = self.budget(position, limits);
        // MCTS has no depth: `go depth N` buys a simulation budget that doubles per ply, so
        // a depth-bounded request always ends (and deeper means stronger).
        let depth_limit = limits
            .depth
            .map(|depth| (MCTS_SIMULATIONS_PER_DEPTH << depth.min(20)).min(DEFAULT_SIMULATIONS));
        let node_limit = match (limits.nodes, depth_limit) {
            (Some(nodes), Some(depth)) => Some(nodes.min(depth)),
            (nodes, depth) => nodes
                .or(depth)
                .or(Self::default_limits(limits).then_some(DEFAULT_SIMULATIONS)),
        };
        let mut shared = Shared::new(&self.state.table, stop, node_limit, budget, limits.infinite);
        shared.start = limits.received.unwrap_or(shared.start);
        let threads = self.options.threads.clamp(1, MAX_THREADS);
        let mut config = self.state.mcts;
        config.max_entries = (self.options.hash_mb << 20) / MCTS_ENTRY_BYTES / threads;
        let seed = self.state.rng.next_u64();
        let root = position.tree_with_playout(self.options.catchup_playout);
        let trees: Vec<(Mcts<G::Tree>, Rng)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (1..threads)
                .map(|thread_index| {
                    let shared = &shared;
                    let root = root.clone();
                    scope.spawn(move || {
                        run_tree(
                            root,
                            config,
                            seed,
                            thread_index,
                            shared,
                            None::<&mut TreeReporter<G::Tree>>,
                        )
                    })
                })
                .collect();
            let mut report_tree = |tree: &Mcts<G::Tree>, shared: &Shared| {
                report(mcts_info(position, tree, shared));
            };
            let main = run_tree(
                root.clone(),
                config,
                seed,
                0,
                &shared,
                Some(&mut report_tree),
            );
            shared.abort();
            let mut trees = vec![main];
            trees.extend(handles.into_iter().filter_map(|handle| handle.join().ok()));
            trees
        });
        let (first, tree_index) = combine_roots(&trees);
        let (tree, rng) = &trees[tree_index];
        let mut rng = rng.clone();
        let pv = tree.principal_variation(first, &mut rng);
        let moves = moves_of_steps(position, &pv);
        let info = mcts_info(position, tree, &shared);
        report(info.clone());
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        GameSearchResult {
            best_move: moves.first().copied().or(legal.first().copied()),
            score: info.score,
            nodes: info.nodes,
            depth: info.depth.unwrap_or(0),
        }
    }
}

/// Receives a tree now and then, to report progress.
type TreeReporter<'a, T> = dyn FnMut(&Mcts<T>, &Shared) + 'a;

/// Runs one MCTS tree until the shared limits stop it.
fn run_tree<T: TreeGame>(
    root: T,
    config: MctsConfig,
    seed: u64,
    thread_index: usize,
    shared: &Shared,
    mut report: Option<&mut TreeReporter<T>>,
) -> (Mcts<T>, Rng) {
    let mut rng = rng::seeded(seed ^ (thread_index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut tree = Mcts::new(root, config);
    let mut unflushed = 0u64;
    let mut last_report = Instant::now();
    loop {
        if shared.node_limit_reached(unflushed) || shared.aborted() {
            break;
        }
        tree.simulate(&mut rng);
        unflushed += 1;
        if tree.proven().is_some() {
            shared.abort();
            break;
        }
        if unflushed >= 64 {
            shared.nodes.fetch_add(unflushed, Ordering::Relaxed);
            unflushed = 0;
            let elapsed = shared.start.elapsed();
            if shared.poll() {
                break;
            }
            if shared.budget.soft.is_some_and(|soft| elapsed >= soft) {
                shared.abort();
                break;
            }
            if let Some(report) = report.as_mut()
                && last_report.elapsed() >= Duration::from_secs(1)
            {
                last_report = Instant::now();
                report(&tree, shared);
            }
        }
    }
    shared.nodes.fetch_add(unflushed, Ordering::Relaxed);
    (tree, rng)
}

/// Root-parallel trees vote: the first step with the most visits over all trees (a
/// proven win in any tree first), and the tree that knows it best.
fn combine_roots<T: TreeGame>(trees: &[(Mcts<T>, Rng)]) -> (Option<T::Step>, usize) {
    if trees.len() == 1 {
        return (None, 0);
    }
    let mut merged: Vec<RootChild<T::Step>> = Vec::new();
    let root_actor = trees[0].0.root_actor();
    for (tree, _) in trees {
        for child in tree.root_children() {
            match merged.iter_mut().find(|known| known.step == child.step) {
                Some(known) => {
                    known.visits += child.visits;
                    known.wins += child.wins;
                    known.proven = known.proven.or(child.proven);
                }
                None => merged.push(child),
            }
        }
    }
    let key = |child: &RootChild<T::Step>| -> (u8, f32) {
        let class = match child.proven {
            Some(winner) if winner == root_actor => 2,
            Some(_) => 0,
            None => 1,
        };
        (class, child.visits)
    };
    let best = merged
        .iter()
        .max_by(|a, b| {
            key(a)
                .partial_cmp(&key(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .map(|child| child.step);
    let Some(step) = best else {
        return (None, 0);
    };
    let tree_index = (0..trees.len())
        .max_by(|&a, &b| {
            let visits = |index: usize| {
                trees[index]
                    .0
                    .root_children()
                    .iter()
                    .find(|child| child.step == step)
                    .map_or(0.0, |child| child.visits)
            };
            visits(a).total_cmp(&visits(b))
        })
        .unwrap_or(0);
    (Some(step), tree_index)
}

/// Groups a step principal variation into whole moves (consecutive steps by one player
/// make one move).
fn moves_of_steps<G: SearchGame>(
    position: &G,
    pv: &[(Player, <G::Tree as TreeGame>::Step)],
) -> Vec<G::Move> {
    let mut moves = Vec::new();
    let mut current = position.clone();
    let mut start = 0;
    while start < pv.len() {
        let actor = pv[start].0;
        let end = pv[start..]
            .iter()
            .position(|(who, _)| *who != actor)
            .map_or(pv.len(), |offset| start + offset);
        let steps: Vec<_> = pv[start..end].iter().map(|(_, step)| *step).collect();
        let Some(mv) = current.move_from_steps(&steps) else {
            break;
        };
        moves.push(mv);
        current.play_unchecked(mv);
        start = end;
    }
    moves
}

/// The score of a win rate: 400·log10(w / (1 − w)) centi-units, w clamped to
/// [0.001, 0.999] (so at most about ±1200), the Elo-style logistic scale.
pub fn win_rate_score(win_rate: f32) -> i32 {
    let w = f64::from(win_rate).clamp(0.001, 0.999);
    (400.0 * (w / (1.0 - w)).log10()).round() as i32
}

fn mcts_info<G: SearchGame>(position: &G, tree: &Mcts<G::Tree>, shared: &Shared) -> SearchInfo {
    let mut rng = rng::seeded(0);
    let pv = tree.principal_variation(None, &mut rng);
    let moves = moves_of_steps(position, &pv);
    let mover = position.side_to_move();
    let score = match tree.proven() {
        Some(winner) => {
            let turns = pv
                .iter()
                .filter(|(actor, _)| *actor == mover)
                .count()
                .max(1) as i32;
            let own_turns = moves.len().div_ceil(2).max(1) as i32;
            let distance = own_turns.min(turns);
            Score::Mate(if winner == mover { distance } else { -distance })
        }
        None => Score::Centipawns(win_rate_score(tree.win_rate())),
    };
    SearchInfo {
        depth: Some(moves.len() as u32),
        seldepth: Some(tree.max_depth as u32),
        score: Some(score),
        pv: pv_text(position, &moves),
        hashfull: Some(tree.fill_permille()),
        ..shared.info(0)
    }
}
