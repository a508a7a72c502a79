//! Long work the session hands to a worker thread: a search, perft or bench. A job
//! reports through [`JobEvent`]s and always ends with exactly one
//! [`JobEvent::Finished`], even if the code it runs panics.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::game::AnyGame;
use crate::search::{Engine, SearchInfo, SearchLimits, SearchResult};

/// A search of one position with the session's engine (moved in, moved back out; boxed
/// because an engine is a few kilobytes of state).
pub struct SearchJob {
    pub engine: Box<Engine>,
    pub game: AnyGame,
    pub limits: SearchLimits,
    pub stop: Arc<AtomicBool>,
}

/// Work that runs off the command loop.
pub enum Job {
    Search(SearchJob),
    Perft {
        game: AnyGame,
        depth: u32,
        divide: bool,
    },
    Bench,
}

/// How a job ended.
pub enum JobOutput {
    /// The search ended: the engine comes back with the result.
    Search {
        engine: Box<Engine>,
        result: SearchResult,
    },
    /// perft or bench ended; their lines were already reported.
    Done,
    /// The job panicked; the message is for the log and an error line.
    Failed(String),
}

/// What a running job reports.
pub enum JobEvent {
    Info(SearchInfo),
    Line(String),
    Finished(JobOutput),
}

impl Job {
    /// True for `go infinite`: its bestmove waits for `stop`.
    pub fn is_infinite_search(&self) -> bool {
        matches!(self, Job::Search(job) if job.limits.infinite)
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
                    engine.search(&game, &limits, &stop, &mut |info| {
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
            } => {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    crate::perft::report(&game, depth, divide, true, &mut |line| {
                        emit(JobEvent::Line(line))
                    });
                }));
                match outcome {
                    Ok(()) => JobOutput::Done,
                    Err(panic) => JobOutput::Failed(panic_message(panic.as_ref())),
                }
            }
            Job::Bench => {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    crate::bench::run(&mut |line| emit(JobEvent::Line(line)));
                }));
                match outcome {
                    Ok(_) => JobOutput::Done,
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
