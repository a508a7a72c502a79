//! The exact phase of `go` in a fixed-length game with a solver (Cheversi, whose
//! [`ExactSolver`] the engine's per-game wiring supplies): before the alpha-beta search,
//! the solver of `tessera solve` is tried on the position, with the engine's table of
//! proven facts (kept between moves and games: a fact about an exactly named position
//! stays true) and stopped by the move's time, its nodes or `stop`.
//!
//! When to try it: when the solve's estimated nodes
//! ([`ExactSolver::nodes_estimate`]), at the node rate the engine last measured
//! for its solver, fit its share of the move: within `ExactPlies` plies of the end (the
//! exact window) 3/4 of the hard time limit and of a node limit, further from the end
//! half the move's time (a clock's soft target, at most half its hard limit) and half of
//! a node limit. A search without a time or node bound (`infinite`, or no limit) tries it
//! always inside the window and never outside, a `depth` search never (a depth is an
//! alpha-beta request; `bench` searches to fixed depths). `ExactPlies 0` turns the solver
//! off.
//!
//! A proven value ends the search: its move is played and its score reported as an
//! ordinary `info` line (depth = plies to the end, `score cp` = 100 x the final margin)
//! followed by `info string proven cp N`. With several lines (`MultiPV`) the solver
//! values every move instead (estimated as the sum of their solves), and each line is
//! followed by its own marker. A solve cut short leaves the rest of the time
//! to alpha-beta (its soft target counted from the end of the attempt, its hard limit
//! unchanged); one cut short by `stop` answers with a depth-2 alpha-beta move at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::game::Rules;
use crate::search::alphabeta::pv_text;
use crate::search::game::AlphaBetaGame;
use crate::search::time::TimeBudget;
use crate::search::{GameSearchResult, Score, SearchInfo, SearchLimits};
use crate::solve::search::Shared as SolveShared;

use super::options::{MAX_THREADS, SearchOptions};

/// Share of the time and node limits a solve may take inside the `ExactPlies` window.
const FORCED_SHARE: f64 = 0.75;
/// Share of the move's time (and of a node limit) a solve may take further from the end.
const CHANCE_SHARE: f64 = 0.5;
/// Solver nodes per second assumed until the engine has timed one of its own solves
/// (Cheversi's solves run at 6 to 15 million a second on one core of the machines here;
/// a slower machine's first try may be cut short, and its rate is measured then).
const INITIAL_SOLVER_RATE: f64 = 4_000_000.0;
/// How often the waiting thread looks at `stop` and the deadline.
const POLL: Duration = Duration::from_millis(2);
/// Depth of the move played when `stop` cuts a solve short (a few milliseconds).
pub(super) const FALLBACK_DEPTH: u32 = 2;

/// A game's solver as the exact phase runs it (once per `go`, before the search).
pub trait ExactSolver<G: Rules>: Sync {
    /// About how many solver nodes the solve of `position` needs (from measured solves),
    /// so the engine tries it only when the move's time or nodes allow.
    fn nodes_estimate(&self, position: &G) -> u64;

    /// The exact value of `position` by the solver (sharing `shared`'s table and stopping
    /// with it, on `threads` threads), in centi-units like the search's exact values,
    /// with a move reaching it; `None` when the solve was stopped first.
    fn solve(&self, position: &G, shared: &SolveShared, threads: usize) -> Option<(G::Move, i32)>;

    /// The exact value of every legal move of `position` (for its side to move, in
    /// centi-units), in the rules' move order, for several lines (`MultiPV`); `None` when
    /// the solve was stopped first.
    fn solve_each(
        &self,
        position: &G,
        shared: &SolveShared,
        threads: usize,
    ) -> Option<Vec<(G::Move, i32)>>;
}

/// About how many solver nodes valuing every move of `position` needs: the sum of the
/// estimates of the positions they lead to.
fn each_move_estimate<G: Rules>(solver: &dyn ExactSolver<G>, position: &G) -> u64 {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            solver.nodes_estimate(&child)
        })
        .fold(0, u64::saturating_add)
}

/// What the exact phase keeps between moves.
#[derive(Debug)]
pub(super) struct ExactState {
    /// The solver's table of proven facts, made at the first solve and kept between moves
    /// and games; `Hash` MiB like the search's table.
    shared: Option<SolveShared>,
    /// Solver nodes per second, as last measured (to judge what a move's time solves).
    rate: f64,
}

impl ExactState {
    pub(super) fn new() -> Self {
        ExactState {
            shared: None,
            rate: INITIAL_SOLVER_RATE,
        }
    }

    /// Drops the table of proven facts (the `Hash` size changed); the next solve makes a
    /// new one.
    pub(super) fn forget_table(&mut self) {
        self.shared = None;
    }
}

/// What a solver attempt left the search.
pub(super) enum Attempt<M> {
    /// Not tried here (no solver, out of reach, a depth search).
    NotTried,
    /// The exact value and a move reaching it.
    Proven(GameSearchResult<M>),
    /// Cut short after `nodes`; `stopped` when by `stop`.
    CutShort { nodes: u64, stopped: bool },
}

/// The state, the solver and the position of one attempt, and the move's bounds.
pub(super) struct Request<'a, G: AlphaBetaGame> {
    pub state: &'a mut ExactState,
    pub solver: &'a dyn ExactSolver<G>,
    pub options: &'a SearchOptions,
    pub position: &'a G,
    pub limits: &'a SearchLimits,
    pub budget: &'a TimeBudget,
}

impl<G: AlphaBetaGame> Request<'_, G> {
    /// Tries the solver on the position under the limits (see the module notes).
    pub(super) fn attempt(
        self,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchInfo),
    ) -> Attempt<G::Move> {
        let Request {
            state,
            solver,
            options,
            position,
            limits,
            budget,
        } = self;
        let exact_plies = options.exact_plies;
        let Some(plies) = position.plies_to_end() else {
            return Attempt::NotTried;
        };
        if limits.depth.is_some() || exact_plies == 0 || plies == 0 {
            return Attempt::NotTried;
        }
        // Several lines: every move valued, each line with its own exact value.
        let several = options.lines > 1;
        let estimate = if several {
            each_move_estimate(solver, position)
        } else {
            solver.nodes_estimate(position)
        };
        let forced = plies <= exact_plies;
        let share = if forced { FORCED_SHARE } else { CHANCE_SHARE };
        let time = match (budget.soft, budget.hard) {
            (_, None) => None,
            (Some(soft), Some(hard)) if !forced => Some(soft.min(hard.mul_f64(share))),
            (_, Some(hard)) => Some(hard.mul_f64(share)),
        };
        let nodes = limits.nodes.map(|nodes| (nodes as f64 * share) as u64);
        let rate = state.rate;
        // Without a bound, only the window; with one, only a solve likely to finish: one
        // cut short costs the alpha-beta search its share of the move (a node-limited
        // match near the end would otherwise play on a quarter of its nodes).
        let fits = match (time, nodes) {
            (None, None) => forced,
            _ => {
                time.is_none_or(|time| estimate as f64 <= rate * time.as_secs_f64())
                    && nodes.is_none_or(|nodes| estimate <= nodes)
            }
        };
        if !fits {
            return Attempt::NotTried;
        }
        let received = limits.received.unwrap_or_else(Instant::now);
        // For `go ponder`, none until `ponderhit` starts the clock.
        let deadline = || {
            let start = limits.clock_start(received)?;
            time.map(|time| start + time)
        };
        let threads = options.threads.clamp(1, MAX_THREADS);
        let hash_mb = options.hash_mb;
        let shared = state
            .shared
            .get_or_insert_with(|| SolveShared::new(hash_mb));
        shared.restart(nodes.map(|nodes| nodes.max(1)));
        let shared = &*shared;
        let started = Instant::now();
        let found = std::thread::scope(|scope| {
            let (sender, receiver) = mpsc::channel();
            scope.spawn(move || {
                let found = if several {
                    solver.solve_each(position, shared, threads)
                } else {
                    solver
                        .solve(position, shared, threads)
                        .map(|best| vec![best])
                };
                // The receiver waits for this unless the search panicked.
                let _ = sender.send(found);
            });
            let mut last_report = Instant::now();
            loop {
                match receiver.recv_timeout(POLL) {
                    Ok(found) => break found,
                    Err(RecvTimeoutError::Disconnected) => break None,
                    Err(RecvTimeoutError::Timeout) => {}
                }
                if stop.load(Ordering::Relaxed)
                    || deadline().is_some_and(|deadline| Instant::now() >= deadline)
                {
                    shared.stop.store(true, Ordering::Relaxed);
                }
                if last_report.elapsed() >= Duration::from_secs(1) {
                    report(progress(shared, received));
                    last_report = Instant::now();
                }
            }
        });
        let nodes = shared.nodes.load(Ordering::Relaxed);
        let seconds = started.elapsed().as_secs_f64();
        if seconds >= 0.02 && nodes > 0 {
            state.rate = nodes as f64 / seconds;
        }
        let Some(mut valued) = found.filter(|valued| !valued.is_empty()) else {
            return Attempt::CutShort {
                nodes,
                stopped: stop.load(Ordering::Relaxed),
            };
        };
        // The best first; of equal values, the first in the rules' order.
        valued.sort_by_key(|&(_, value)| std::cmp::Reverse(value));
        valued.truncate(options.lines.max(1));
        for (rank, &(mv, value)) in valued.iter().enumerate() {
            report(SearchInfo {
                depth: Some(plies),
                seldepth: Some(plies),
                multipv: several.then_some(rank as u32 + 1),
                score: Some(Score::Centipawns(value)),
                pv: pv_text(position, &[mv]),
                ..progress(shared, received)
            });
            report(SearchInfo {
                string: Some(format!("proven cp {value}")),
                ..SearchInfo::default()
            });
        }
        let (best, value) = valued[0];
        Attempt::Proven(GameSearchResult {
            best_move: Some(best),
            ponder: None,
            score: Some(Score::Centipawns(value)),
            nodes,
            depth: plies,
        })
    }
}

/// An `info` with the solver's nodes and the time since the `go` line.
fn progress(shared: &SolveShared, received: Instant) -> SearchInfo {
    let nodes = shared.nodes.load(Ordering::Relaxed);
    let elapsed = received.elapsed();
    SearchInfo {
        nodes,
        nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
        time_ms: elapsed.as_millis() as u64,
        ..SearchInfo::default()
    }
}
