//! State shared by every thread of one search: the table, the stop flags, the node count
//! and the time budget.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::time::TimeBudget;
use super::tt::TranspositionTable;
use super::{PonderClock, SearchInfo};

pub struct Shared<'a> {
    pub table: &'a TranspositionTable,
    /// Set by the caller (`stop`).
    pub stop: &'a AtomicBool,
    /// Set by the search itself (a limit reached, or the main thread finished).
    pub abort: AtomicBool,
    /// Nodes flushed by every thread.
    pub nodes: AtomicU64,
    pub node_limit: Option<u64>,
    pub budget: TimeBudget,
    pub start: Instant,
    /// `go infinite`: no time bound (a proven result still ends the search; the protocol
    /// holds the bestmove until `stop`).
    pub infinite: bool,
    /// `go ponder`: the time budget runs from `ponderhit`, not from `start`.
    pub ponder: Option<Arc<PonderClock>>,
}

impl<'a> Shared<'a> {
    pub fn new(
        table: &'a TranspositionTable,
        stop: &'a AtomicBool,
        node_limit: Option<u64>,
        budget: TimeBudget,
        infinite: bool,
    ) -> Self {
        Shared {
            table,
            stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            node_limit,
            budget,
            start: Instant::now(),
            infinite,
            ponder: None,
        }
    }

    /// The time the budget counts: since `start`, or for `go ponder` since `ponderhit`
    /// (`None` while pondering, when no time limit runs).
    #[inline]
    pub fn clock_elapsed(&self) -> Option<Duration> {
        match &self.ponder {
            None => Some(self.start.elapsed()),
            Some(clock) => clock.started().map(|at| at.elapsed()),
        }
    }

    #[inline]
    pub fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    pub fn abort(&self) {
        self.abort.store(true, Ordering::Relaxed);
    }

    /// True once the node limit is reached, counting `unflushed` nodes of the caller.
    #[inline]
    pub fn node_limit_reached(&self, unflushed: u64) -> bool {
        self.node_limit
            .is_some_and(|limit| self.nodes.load(Ordering::Relaxed) + unflushed >= limit)
    }

    /// Checks the stop flag and the hard time limit; true when the search must unwind.
    pub fn poll(&self) -> bool {
        let expired = self
            .clock_elapsed()
            .is_some_and(|elapsed| self.budget.hard_expired(elapsed));
        if self.stop.load(Ordering::Relaxed) || expired {
            self.abort();
        }
        self.aborted()
    }

    /// An `info` with the counters filled in (`unflushed` nodes of the caller added).
    pub fn info(&self, unflushed: u64) -> SearchInfo {
        let nodes = self.nodes.load(Ordering::Relaxed) + unflushed;
        let elapsed = self.start.elapsed();
        let time_ms = elapsed.as_millis() as u64;
        SearchInfo {
            nodes,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            time_ms,
            hashfull: Some(self.table.hashfull()),
            ..SearchInfo::default()
        }
    }
}
