//! The engine: what the protocol and `bench` talk to. It owns the options, the tables
//! kept between moves (the search's transposition table, the solver's table of proven
//! facts, the loaded ending tables), the strategies of the `Strategy` option, and one
//! search per `go`.
//!
//! It is the one room that knows every game and every subsystem: [`EngineGame`] says per
//! game which search plays it and what the engine supplies to that search (`games`):
//! Cheversi's exact phase by the solver ([`exact`]), hex checkers' ending tables, Catchup's
//! playout policy. So the search and the solver below it are written once and name no
//! game.
//!
//! Files: `options` (the options and their limits), [`strategy`] (the `Strategy` option
//! and its weak players), [`strength`] and `level_search` (the strength levels of
//! `UCI_LimitStrength`), [`exact`] (Cheversi's exact phase), [`ending_lines`] (hex
//! checkers' exact lines from the ending tables), `games` (the per-game wiring); the
//! [`Engine`] facade is here.

pub mod ending_lines;
pub mod exact;
mod games;
mod level_search;
mod options;
pub mod strategy;
pub mod strength;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::endings::EndingTables;
use crate::game::{GameRecord, Rules};
use crate::search::alphabeta::{AlphaBetaConfig, Worker, to_score};
use crate::search::game::{AlphaBetaGame, MctsGame, SearchGame};
use crate::search::mcts::MctsConfig;
use crate::search::mcts_driver;
use crate::search::rng::{self, Rng};
use crate::search::shared::Shared;
use crate::search::time::TimeBudget;
use crate::search::tt::TranspositionTable;
use crate::search::{GameSearchResult, SearchInfo, SearchLimits};

use exact::{Attempt, ExactState};

pub use exact::ExactSolver;
pub use options::{MAX_LINES, MAX_THREADS, SearchOptions};
pub use strategy::Strategy;
pub use strength::Strength;

/// When no limit at all is given, search this deep (alpha-beta) rather than forever.
const DEFAULT_DEPTH: u32 = 64;

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
    /// What the exact phase keeps between moves (Cheversi's solver table and rate).
    exact: ExactState,
    /// The ending tables the alpha-beta search probes (`EndingsFile`, built-in ones).
    endings: EndingTables,
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
                exact: ExactState::new(),
                endings: EndingTables::default(),
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
            self.state.exact.forget_table();
        }
        if options.seed != self.options.seed {
            self.state.rng = rng::seeded(options.seed);
        }
        self.options = options;
    }

    /// Loads the ending tables file at `path` (`EndingsFile`; empty: none), replacing the
    /// one loaded before. A file that cannot be used leaves the engine without one. The
    /// line returned says which (for `info string`).
    pub fn load_endings(&mut self, path: &str) -> String {
        self.state.endings = EndingTables::default();
        if path.is_empty() {
            return "EndingsFile: none, built-in tables only".to_string();
        }
        match EndingTables::load(std::path::Path::new(path)) {
            Ok(tables) => {
                let line = format!(
                    "EndingsFile: loaded {path}: {}",
                    tables
                        .file()
                        .map(|file| file.describe())
                        .unwrap_or_default()
                );
                self.state.endings = tables;
                line
            }
            Err(reason) => {
                log::warn!("EndingsFile {path}: {reason}");
                format!("EndingsFile: cannot use {path}: {reason}; going on without it")
            }
        }
    }

    /// The ending tables the alpha-beta search of hex checkers probes: the file
    /// `EndingsFile` loaded, and the built-in ones.
    pub fn ending_tables(&self) -> &EndingTables {
        &self.state.endings
    }

    /// Forgets tables and histories (`uginewgame`).
    pub fn new_game(&mut self) {
        self.state.table.clear();
        self.state.rng = rng::seeded(self.options.seed);
    }

    /// Searches a game from its record (the history gives repetitions) until a limit is
    /// reached or `stop` becomes true, calling `report` for progress: the weak strategies,
    /// or the game's full search ([`EngineGame::full_search`]). The best move is `None`
    /// only when the game is over. (The registry's games reach this through their entry,
    /// `crate::registry::AnyGame::search`.)
    pub fn search_record<G: EngineGame>(
        &mut self,
        record: &GameRecord<G>,
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchInfo),
    ) -> GameSearchResult<G::Move> {
        let position = record.position();
        // A search bounded by depth or nodes alone gives the same answer on every run:
        // it waits for the built-in ending tables where it needs them.
        let untimed = limits.movetime.is_none()
            && !limits.infinite
            && limits.ponder.is_none()
            && limits.clock.time.iter().all(Option::is_none);
        self.state.endings.set_wait_for_built_in(untimed);
        let mut moves = Vec::new();
        record.legal_moves(&mut moves);
        let mut result = GameSearchResult {
            best_move: moves.first().copied(),
            ponder: None,
            score: None,
            nodes: 0,
            depth: 0,
        };
        if moves.is_empty() {
            return result;
        }
        let rng = &mut self.state.rng;
        let weak_move = match self.options.strategy {
            Strategy::Random => Some(strategy::random_move(&moves, rng)),
            Strategy::Greedy => Some(strategy::greedy_move(position, &moves, rng)),
            Strategy::Minimax2 => Some(strategy::minimax2_move(position, &moves, rng)),
            Strategy::Minimax4 => Some(strategy::minimax_move(
                position,
                &moves,
                strategy::MINIMAX4_PLIES,
                rng,
            )),
            Strategy::Defender => Some(strategy::defender_move(position, &moves, rng)),
            Strategy::Attacker => Some(strategy::attacker_move(position, &moves, rng)),
            Strategy::Sampled2 => Some(strategy::sampled2_move(position, &moves, rng)),
            Strategy::Full => None,
        };
        if let Some(best_move) = weak_move {
            result.best_move = best_move;
            return result;
        }
        let only_clock = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && !limits.infinite;
        if moves.len() == 1 && only_clock {
            return result;
        }
        let request = SearchRequest {
            record,
            limits,
            stop,
            report,
        };
        match self.options.strength {
            Some(strength) => self.level_search(request, strength, &moves),
            None => G::full_search(self, request),
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

    /// The alpha-beta search of `request`, with what `supply` gives it: the
    /// game's tables, and its solver, tried first (the exact phase, [`exact`]).
    pub fn alpha_beta_search<G: AlphaBetaGame>(
        &mut self,
        request: SearchRequest<'_, G>,
        supply: AlphaBetaSupply<'_, G>,
    ) -> GameSearchResult<G::Move> {
        let SearchRequest {
            record,
            limits,
            stop,
            report,
        } = request;
        let position = record.position();
        // Every limit counts from one moment, the solver's attempt and alpha-beta alike.
        let limits = &SearchLimits {
            received: Some(limits.received.unwrap_or_else(Instant::now)),
            ..limits.clone()
        };
        let mut budget = self.budget(position, limits);
        let mut depth = limits
            .depth
            .or(Self::default_limits(limits).then_some(DEFAULT_DEPTH));
        let mut node_limit = limits.nodes;
        let mut infinite = limits.infinite;
        let not_stopped = AtomicBool::new(false);
        let mut stop = stop;
        let attempt = match supply.exact {
            Some(solver) => exact::Request {
                state: &mut self.state.exact,
                solver,
                options: &self.options,
                position,
                limits,
                budget: &budget,
            }
            .attempt(stop, report),
            None => Attempt::NotTried,
        };
        match attempt {
            Attempt::NotTried => {}
            Attempt::Proven(result) => return result,
            Attempt::CutShort { stopped: true, .. } => {
                // Stopped: a quick move, now.
                (stop, depth, node_limit, infinite) =
                    (&not_stopped, Some(exact::FALLBACK_DEPTH), None, false);
                budget = TimeBudget::UNLIMITED;
            }
            Attempt::CutShort { nodes, .. } => {
                // The rest of the time: the soft target counts from now, the hard limit
                // stays where it was.
                let spent = limits
                    .clock_start(Instant::now())
                    .map_or(Duration::ZERO, |start| start.elapsed());
                budget.soft = budget.soft.map(|soft| {
                    budget
                        .hard
                        .map_or(soft + spent, |hard| (soft + spent).min(hard))
                });
                node_limit = node_limit.map(|limit| limit.saturating_sub(nodes).max(1));
            }
        }
        self.state.table.new_search();
        let mut shared = Shared::new(&self.state.table, stop, node_limit, budget, infinite);
        shared.start = limits.received.unwrap_or(shared.start);
        shared.ponder.clone_from(&limits.ponder);
        let mut config = self.state.alpha_beta;
        config.exact_plies.get_or_insert(self.options.exact_plies);
        let history = record.hashes();
        let tables = supply.tables;
        let threads = self.options.threads.clamp(1, MAX_THREADS);
        let result = std::thread::scope(|scope| {
            for thread_index in 1..threads {
                let shared = &shared;
                scope.spawn(move || {
                    let mut worker = Worker::new(
                        shared,
                        tables,
                        config,
                        thread_index,
                        position,
                        history,
                        None,
                    );
                    worker.iterate(None);
                });
            }
            let mut main = Worker::new(&shared, tables, config, 0, position, history, Some(report))
                .with_lines(self.options.lines);
            let result = main.iterate(depth);
            shared.abort();
            result
        });
        let info = shared.info(0);
        let ponder = match result.pv.as_slice() {
            [first, reply, ..] if Some(*first) == result.best_move => Some(*reply),
            _ => None,
        };
        GameSearchResult {
            best_move: result.best_move,
            ponder,
            score: Some(to_score(result.value)),
            nodes: info.nodes,
            depth: result.depth,
        }
    }

    /// The MCTS search of `request`, from `root`, the game's tree of its position (with
    /// the playout the engine's options choose).
    pub fn mcts_search<G: MctsGame>(
        &mut self,
        request: SearchRequest<'_, G>,
        root: G::Tree,
    ) -> GameSearchResult<G::Move> {
        let SearchRequest {
            record,
            limits,
            stop,
            report,
        } = request;
        let position = record.position();
        let budget = self.budget(position, limits);
        let node_limit = mcts_driver::node_limit(limits, Self::default_limits(limits));
        let mut shared = Shared::new(&self.state.table, stop, node_limit, budget, limits.infinite);
        shared.start = limits.received.unwrap_or(shared.start);
        shared.ponder.clone_from(&limits.ponder);
        let threads = self.options.threads.clamp(1, MAX_THREADS);
        let mut config = self.state.mcts;
        config.max_entries = mcts_driver::tree_entries(self.options.hash_mb, threads);
        let seed = self.state.rng.next_u64();
        let progress = mcts_driver::Progress {
            report,
            lines: self.options.lines,
        };
        mcts_driver::search(position, root, config, seed, threads, &shared, progress)
    }
}

/// One search as the engine hands it to a game ([`EngineGame::full_search`]): the game's
/// record (its history gives repetitions), the limits, the stop flag and where progress
/// reports go.
pub struct SearchRequest<'a, G: Rules> {
    pub record: &'a GameRecord<G>,
    pub limits: &'a SearchLimits,
    pub stop: &'a AtomicBool,
    pub report: &'a mut dyn FnMut(SearchInfo),
}

/// What the engine supplies to one game's alpha-beta search beyond the position and the
/// limits.
pub struct AlphaBetaSupply<'a, G: AlphaBetaGame> {
    /// The tables the search probes ([`ExactTables::table_value`](crate::search::game::ExactTables::table_value)); `&()` for a game
    /// without.
    pub tables: &'a G::Tables,
    /// The solver of the exact phase, tried before the search; `None` for a game without.
    pub exact: Option<&'a dyn ExactSolver<G>>,
}

/// Which search plays a game at full strength.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    AlphaBeta,
    Mcts,
}

/// How the engine plays a game at full strength: which search, and what the engine's
/// state supplies to it. Implemented per game in `games`, where the game-specific
/// supplies are wired in: a search below this room knows no game.
pub trait EngineGame: SearchGame {
    /// The search [`EngineGame::full_search`] runs.
    const ALGORITHM: Algorithm;

    /// Runs the game's full search of `request` on `engine` (its options, tables and
    /// randomness): [`Engine::alpha_beta_search`] or [`Engine::mcts_search`] with the
    /// game's supplies.
    fn full_search(
        engine: &mut Engine,
        request: SearchRequest<'_, Self>,
    ) -> GameSearchResult<Self::Move>;
}
