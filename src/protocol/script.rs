//! A synchronous driver: feeds lines to a [`Session`] and runs its jobs in line, so a
//! script always produces the same transcript. Tests and examples use it; the binary
//! uses the threaded loop of `io.rs`.
//!
//! `go infinite` is parked until `stop` (or `quit`, or a command that stops the search)
//! arrives, then run with its stop flag already set: the reply order is the one a
//! client sees, without any timing. `go ponder` is parked the same way, and after
//! `ponderhit` runs as the timed search it has become.

use super::command::Command;
use super::io::{MAX_LINE_BYTES, RawLine, decode};
use super::job::Job;
use super::session::{Session, Step};

/// A session driven line by line.
pub struct ScriptRunner {
    session: Session,
    parked: Option<Job>,
    quit: bool,
}

impl Default for ScriptRunner {
    fn default() -> Self {
        ScriptRunner::new()
    }
}

impl ScriptRunner {
    pub fn new() -> Self {
        ScriptRunner::with_session(Session::new())
    }

    /// A runner driving `session` (one playing the games of another registry).
    pub fn with_session(session: Session) -> Self {
        ScriptRunner {
            session,
            parked: None,
            quit: false,
        }
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// True once `quit` was sent: later lines are ignored.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Sends one line; returns every output line it caused (including those of the jobs
    /// it started and of the commands that were waiting for them).
    pub fn send(&mut self, line: &str) -> Vec<String> {
        let mut out = Vec::new();
        if self.quit {
            return out;
        }
        let step = self.session.handle_line(line);
        self.absorb(step, &mut out);
        out
    }

    /// Sends one line given as raw bytes (without its line break), checked as the
    /// threaded loop checks its input: too long or not UTF-8 gives an error line.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Vec<String> {
        let raw = if bytes.len() > MAX_LINE_BYTES {
            RawLine::TooLong(bytes.len())
        } else {
            RawLine::Bytes(bytes.to_vec())
        };
        match decode(raw) {
            Ok(text) => self.send(&text),
            Err(error) => {
                let mut out = Vec::new();
                if !self.quit {
                    let step = self.session.handle(Command::Invalid(error));
                    self.absorb(step, &mut out);
                }
                out
            }
        }
    }

    /// Sends every line of `script`; returns the whole transcript.
    pub fn run(&mut self, script: &str) -> Vec<String> {
        script.lines().flat_map(|line| self.send(line)).collect()
    }

    fn absorb(&mut self, step: Step, out: &mut Vec<String>) {
        out.extend(step.responses.iter().map(ToString::to_string));
        if step.quit {
            // The stopped search still reports, as the threaded loop lets it; `quit`
            // stops it first, as the threaded loop does.
            if let Some(job) = self.parked.take() {
                if let Job::Search(search) = &job {
                    search.stop.store(true, std::sync::atomic::Ordering::SeqCst);
                }
                self.run_job(job, out);
            }
            self.quit = true;
            return;
        }
        if let Some(job) = step.job {
            if job.waits_for_client() && self.session.search_waits_for_client() {
                self.parked = Some(job);
            } else {
                self.run_job(job, out);
            }
        }
        if !self.session.search_waits_for_client()
            && let Some(job) = self.parked.take()
        {
            self.run_job(job, out);
        }
    }

    fn run_job(&mut self, job: Job, out: &mut Vec<String>) {
        let mut events = Vec::new();
        job.run(&mut |event| events.push(event));
        for event in events {
            let step = self.session.job_event(event);
            self.absorb(step, out);
        }
    }
}
