//! Long work the session hands to a worker thread: a search, perft, bench, or setting
//! the engine up (allocating or clearing its hash table, reading an ending tables file).
//! A job reports through [`JobEvent`]s and always ends with exactly one
//! [`JobEvent::Finished`], even if the code it runs panics.
//!
//! Every job but a setup has a stop flag: raised, the job ends within a few
//! milliseconds (a search with its best move so far, perft and bench with a line saying
//! they were interrupted). A setup is bounded work on a file already checked to be a
//! regular file, and is not stopped.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::engine::{Engine, SearchOptions};
use crate::registry::{AnyGame, SearchResult};
use crate::search::{SearchInfo, SearchLimits};

/// A search of one position with the session's engine (moved in, moved back out; boxed
/// because an engine is a few kilobytes of state).
pub struct SearchJob {
    pub engine: Box<Engine>,
    pub game: AnyGame,
    pub limits: SearchLimits,
    pub stop: Arc<AtomicBool>,
}

/// Engine work that may take long, done off the command loop so that `isready` is
/// always answered at once: the engine moves in and comes back out as for a search.
pub struct SetupJob {
    pub engine: Box<Engine>,
    /// New search options (a new `Hash` allocates the table).
    pub options: Option<SearchOptions>,
    /// Forget tables and histories (`uginewgame`, a new game configuration).
    pub new_game: bool,
    /// Load the ending tables file at this path (`EndingsFile`; empty: none).
    pub endings: Option<String>,
}

/// Work that runs off the command loop.
pub enum Job {
    Search(SearchJob),
    Perft {
        game: AnyGame,
        depth: u32,
        divide: bool,
        stop: Arc<AtomicBool>,
    },
    Bench {
        stop: Arc<AtomicBool>,
    },
    Setup(SetupJob),
}

/// How a job ended.
pub enum JobOutput {
    /// The search ended: the engine comes back with the result.
    Search {
        engine: Box<Engine>,
        result: SearchResult,
    },
    /// The setup is done: the engine comes back.
    Setup { engine: Box<Engine> },
    /// perft or bench ended, in full or interrupted; their lines were already reported.
    Done,
    /// The job panicked; the message is for the log and an error line.
    Failed(String),
}

/// What a running job reports.
pub enum JobEvent {
    Info(SearchInfo),
    /// A plain output line (perft, divide, bench).
    Line(String),
    /// An `info string` note (what a setup did).
    Note(String),
    Finished(JobOutput),
}

impl Job {
    /// True for `go infinite` (its bestmove waits for `stop`) and `go ponder` (for
    /// `ponderhit` or `stop`).
    pub fn waits_for_client(&self) -> bool {
        matches!(self, Job::Search(job) if job.limits.infinite || job.limits.ponder.is_some())
    }

    /// The flag that ends the job early, for the jobs `stop` ends.
    pub fn stop_flag(&self) -> Option<&Arc<AtomicBool>> {
        match self {
            Job::Search(job) => Some(&job.stop),
            Job::Perft { stop, .. } | Job::Bench { stop } => Some(stop),
            Job::Setup(_) => None,
        }
    }

    /// Runs the job to its end on the calling thread, reporting through `emit`.
    pub fn run(self, emit: &mut dyn FnMut(JobEvent)) {
        let output = match self {
            Job::Search(SearchJob {
                mut engine,
                game,
                limits,
                stop,
            }) => {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    game.search(&mut engine, &limits, &stop, &mut |info| {
                        emit(JobEvent::Info(info));
                    })
                }));
                match outcome {
                    Ok(result) => JobOutput::Search { engine, result },
                    Err(panic) => JobOutput::Failed(panic_message(panic.as_ref())),
                }
            }
            Job::Perft {
                game,
                depth,
                divide,
                stop,
            } => {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    let root = game.perft_root();
                    crate::perft::report(root, depth, divide, true, &stop, &mut |line| {
                        emit(JobEvent::Line(line))
                    });
                }));
                match outcome {
                    Ok(()) => JobOutput::Done,
                    Err(panic) => JobOutput::Failed(panic_message(panic.as_ref())),
                }
            }
            Job::Bench { stop } => {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    crate::bench::run_until(&stop, &mut |line| emit(JobEvent::Line(line)));
                }));
                match outcome {
                    Ok(_) => JobOutput::Done,
                    Err(panic) => JobOutput::Failed(panic_message(panic.as_ref())),
                }
            }
            Job::Setup(SetupJob {
                mut engine,
                options,
                new_game,
                endings,
            }) => {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    if let Some(options) = options {
                        engine.set_options(options);
                    }
                    if new_game {
                        engine.new_game();
                    }
                    if let Some(path) = &endings {
                        emit(JobEvent::Note(engine.load_endings(path)));
                    }
                }));
                match outcome {
                    Ok(()) => JobOutput::Setup { engine },
                    Err(panic) => JobOutput::Failed(panic_message(panic.as_ref())),
                }
            }
        };
        emit(JobEvent::Finished(output));
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = panic.downcast_ref::<String>() {
        text.clone()
    } else {
        "unknown panic".to_string()
    }
}
