//! Long polls (`GET /api/state?after=V`) parked off the request workers, so that open
//! pages never starve other requests: a worker that finds no newer state hands the request
//! here and goes back to serving. One keeper thread waits for the table to change (or the
//! earliest deadline) and answers every parked poll whose state has moved on, whose
//! [`LONG_POLL`] has run out, or whose server is shutting down; a few writer threads send
//! the answers, so a page that does not read its answer holds up no one but the others
//! waiting in the same writer.
//!
//! At most [`MAX_PARKED`] polls wait; one more is refused at once with 503 and a
//! `Retry-After`, which the page's poll loop already waits out and retries.
//!
//! No lost wake-up: a worker parks while holding the table's lock, and the keeper
//! collects while holding it and waits on the table's condition variable, which every
//! change notifies. A poll parked after the keeper collected is seen at its next wake,
//! at the latest [`LONG_POLL`] later, which is no later than the poll's own deadline.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tiny_http::Request;

use super::driver::Shared;
use super::table::Table;

/// The longest a long poll waits.
pub const LONG_POLL: Duration = Duration::from_secs(10);
/// The most long polls parked at once. Each is an open connection and one of tiny_http's
/// connection threads; the cap stays well below the usual limit of 1024 open files, whose
/// end would stop tiny_http accepting connections at all.
pub const MAX_PARKED: usize = 512;
/// Threads writing the answers of parked polls.
const WRITERS: usize = 4;

/// A parked request and what it waits for.
struct Parked {
    request: Request,
    after: u64,
    deadline: Instant,
}

/// An answer to send: the request and the state's JSON, shared by every poll it answers.
pub type Answer = (Request, Arc<String>);

/// The parked polls.
pub struct Polls {
    parked: Mutex<Vec<Parked>>,
}

impl Default for Polls {
    fn default() -> Self {
        Polls::new()
    }
}

impl Polls {
    pub fn new() -> Self {
        Polls {
            parked: Mutex::new(Vec::new()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Parked>> {
        self.parked
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Parks `request` until the version passes `after` or its deadline; gives it back
    /// (refused) when [`MAX_PARKED`] polls already wait. The caller holds the table's lock
    /// (`_table` proves it) and has seen that the version has not passed `after` yet.
    pub fn park(&self, _table: &Table, request: Request, after: u64) -> Option<Request> {
        let mut parked = self.lock();
        if parked.len() >= MAX_PARKED {
            return Some(request);
        }
        parked.push(Parked {
            request,
            after,
            deadline: Instant::now() + LONG_POLL,
        });
        None
    }

    /// The keeper: answers parked polls through `answer` until the table shuts down (and
    /// then answers the rest).
    pub fn keep(&self, shared: &Shared, answer: &dyn Fn(Answer)) {
        let mut table = shared.lock();
        loop {
            let now = Instant::now();
            let (ready, next_deadline) = {
                let mut parked = self.lock();
                let (ready, waiting): (Vec<Parked>, Vec<Parked>) =
                    std::mem::take(&mut *parked).into_iter().partition(|poll| {
                        table.version > poll.after || poll.deadline <= now || table.shutdown
                    });
                *parked = waiting;
                (ready, parked.iter().map(|poll| poll.deadline).min())
            };
            if !ready.is_empty() {
                let body = Arc::new(table.view().to_string());
                drop(table);
                for poll in ready {
                    answer((poll.request, Arc::clone(&body)));
                }
                table = shared.lock();
                continue;
            }
            if table.shutdown {
                return;
            }
            let wait = next_deadline.map_or(LONG_POLL, |deadline| deadline - now);
            table = match shared.changed.wait_timeout(table, wait.min(LONG_POLL)) {
                Ok((table, _)) => table,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

/// Starts the writer threads; returns where to send answers (`respond` writes one).
pub fn start_writers(respond: fn(Answer)) -> Sender<Answer> {
    let (sender, answers) = mpsc::channel::<Answer>();
    let answers = Arc::new(Mutex::new(answers));
    for number in 0..WRITERS {
        let answers = Arc::clone(&answers);
        let started = std::thread::Builder::new()
            .name(format!("poll writer {number}"))
            .spawn(move || {
                while let Some(answer) = next(&answers) {
                    respond(answer);
                }
            });
        if let Err(error) = started {
            log::error!("cannot start a poll writer: {error}");
        }
    }
    sender
}

fn next(answers: &Mutex<Receiver<Answer>>) -> Option<Answer> {
    answers
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .recv()
        .ok()
}
