//! What a search and its callers exchange: the limits of one search, its progress
//! reports and its result.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Plies before the end of a fixed-length game (Cheversi) from which alpha-beta searches
/// exactly, unless told otherwise (the engine's `ExactPlies` option).
pub const DEFAULT_EXACT_PLIES: u32 = 8;

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
    /// `go ponder`: the search runs on the position the client expects, its time limits
    /// not running until `ponderhit` starts this clock (then they count from there);
    /// `None` for a normal search.
    pub ponder: Option<Arc<PonderClock>>,
}

/// The clock of a `go ponder` search: stopped while the engine ponders, started by
/// `ponderhit` (from the moment its line arrived). Shared between the protocol, which
/// starts it, and the search, which reads it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct PonderClock {
    hit: OnceLock<Instant>,
}

impl PonderClock {
    /// Starts the clock at `at` (`ponderhit`); later calls change nothing.
    pub fn start(&self, at: Instant) {
        let _ = self.hit.set(at);
    }

    /// When `ponderhit` started the clock; `None` while the engine ponders.
    pub fn started(&self) -> Option<Instant> {
        self.hit.get().copied()
    }
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

    /// When the time limits start counting: when the `go` line arrived, or for `go
    /// ponder` when `ponderhit` did (`None` while pondering; `now` when nothing says).
    pub fn clock_start(&self, now: Instant) -> Option<Instant> {
        match &self.ponder {
            Some(clock) => clock.started(),
            None => Some(self.received.unwrap_or(now)),
        }
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
    /// The line's rank among several (`MultiPV` above 1), from 1 for the best; `None` in
    /// a single-line search, whose `info` lines carry no `multipv`.
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: Option<u32>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

/// The result of a generic search: the move itself rather than its text.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSearchResult<M> {
    pub best_move: Option<M>,
    /// The reply the search expects to the best move (its principal variation's second
    /// move), for `bestmove <move> ponder <reply>`.
    pub ponder: Option<M>,
    pub score: Option<Score>,
    /// Nodes (alpha-beta) or simulations (MCTS) searched.
    pub nodes: u64,
    /// Deepest completed iteration (alpha-beta) or principal variation length (MCTS).
    pub depth: u32,
}
