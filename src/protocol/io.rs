//! The thin I/O loop: a reader thread turns stdin into lines, a worker thread runs the
//! session's jobs, and this thread hands both to the [`Session`] and writes its replies.
//!
//! Input is read as bytes: a line longer than [`MAX_LINE_BYTES`] is skipped without
//! being stored, and a line that is not UTF-8 is rejected; both get an error line.
//! `quit` stops a running search, sends its bestmove if it arrives within
//! [`QUIT_GRACE`], and exits with status 0 without waiting for anything else. End of
//! input first lets the running job and the waiting commands finish (see
//! [`Session::end_of_input`]). A closed stdout ends the process quietly.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

use super::command::Command;
use super::error::ProtocolError;
use super::job::{Job, JobEvent, JobOutput};
use super::session::{Session, Step};

/// Longest input line accepted, in bytes (a long game's `position ... moves` fits
/// many times over).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Everything the loop reacts to, from the reader and the worker threads.
enum Event {
    /// A line and when the reader thread got it (a `go`'s clock starts there).
    Line(Result<String, ProtocolError>, Instant),
    EndOfInput,
    Job(JobEvent),
}

/// One line as read: its bytes, or only its length when it was too long to keep.
#[derive(Debug, PartialEq, Eq)]
pub enum RawLine {
    Bytes(Vec<u8>),
    TooLong(usize),
}

/// Reads one line of at most `limit` bytes (the line break not counted and not
/// returned); `None` at end of input. A longer line is consumed but not stored.
pub fn read_line(input: &mut impl BufRead, limit: usize) -> io::Result<Option<RawLine>> {
    let mut bytes = Vec::new();
    let mut length = 0usize;
    let mut seen_any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (chunk, used, complete) = match available.iter().position(|&byte| byte == b'\n') {
            Some(end) => (&available[..end], end + 1, true),
            None => (available, available.len(), false),
        };
        length = length.saturating_add(chunk.len());
        if length <= limit {
            bytes.extend_from_slice(chunk);
        }
        input.consume(used);
        if complete {
            break;
        }
    }
    if length > limit {
        return Ok(Some(RawLine::TooLong(length)));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(RawLine::Bytes(bytes)))
}

/// A raw line as text, or the error line it deserves.
pub fn decode(line: RawLine) -> Result<String, ProtocolError> {
    match line {
        RawLine::TooLong(length) => Err(ProtocolError::LineTooLong {
            length,
            limit: MAX_LINE_BYTES,
        }),
        RawLine::Bytes(bytes) => {
            String::from_utf8(bytes).map_err(|error| ProtocolError::InvalidUtf8 {
                offset: error.utf8_error().valid_up_to(),
            })
        }
    }
}

/// Runs the protocol on stdin and stdout until `quit` or end of input.
pub fn run_stdio() -> ExitCode {
    run(
        io::BufReader::with_capacity(1 << 16, io::stdin()),
        io::stdout(),
    )
}

/// Runs the protocol on any input and output (the binary uses stdin and stdout; tests
/// use pipes and buffers).
pub fn run<R, W>(input: R, output: W) -> ExitCode
where
    R: BufRead + Send + 'static,
    W: Write,
{
    run_session(Session::new(), input, output)
}

/// [`run`] with a session set up beforehand (one playing the games of another registry).
pub fn run_session<R, W>(mut session: Session, input: R, mut output: W) -> ExitCode
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (sender, events) = mpsc::channel::<Event>();
    let reader = sender.clone();
    if let Err(error) = thread::Builder::new()
        .name("stdin".to_string())
        .spawn(move || read_lines(input, &reader))
    {
        log::error!("cannot start the input thread: {error}");
        return ExitCode::FAILURE;
    }
    while let Ok(event) = events.recv() {
        let step = match event {
            Event::Line(Ok(text), received) => session.handle_line_at(&text, received),
            Event::Line(Err(error), _) => session.handle(Command::Invalid(error)),
            Event::EndOfInput => session.end_of_input(),
            Event::Job(job_event) => session.job_event(job_event),
        };
        match deliver(step, &mut session, &mut output, &sender) {
            Flow::Continue => {}
            Flow::Exit(code) => return code,
            Flow::Quit => return finish_search(&mut session, &events, &mut output, &sender),
        }
    }
    ExitCode::SUCCESS
}

/// How long `quit` waits for a stopped search's bestmove before exiting anyway.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// After `quit`: reports the stopped search's bestmove if it comes within
/// [`QUIT_GRACE`], ignoring further input; perft and bench are not waited for.
fn finish_search(
    session: &mut Session,
    events: &Receiver<Event>,
    output: &mut impl Write,
    sender: &Sender<Event>,
) -> ExitCode {
    let deadline = Instant::now() + QUIT_GRACE;
    while session.is_searching() {
        let left = deadline.saturating_duration_since(Instant::now());
        match events.recv_timeout(left) {
            Ok(Event::Job(job_event)) => {
                let mut step = session.job_event(job_event);
                step.job = None;
                if let Flow::Exit(code) = deliver(step, session, output, sender) {
                    return code;
                }
            }
            Ok(_) => {}
            Err(_) => {
                log::warn!("the search did not stop within {QUIT_GRACE:?}; exiting anyway");
                break;
            }
        }
    }
    ExitCode::SUCCESS
}

enum Flow {
    Continue,
    Quit,
    Exit(ExitCode),
}

/// Writes a step's replies, then quits or starts its job.
fn deliver(
    mut step: Step,
    session: &mut Session,
    output: &mut impl Write,
    sender: &Sender<Event>,
) -> Flow {
    loop {
        for response in &step.responses {
            if let Err(error) = write_line(output, &response.to_string()) {
                if error.kind() == io::ErrorKind::BrokenPipe {
                    log::info!("output closed, exiting");
                    return Flow::Exit(ExitCode::SUCCESS);
                }
                log::error!("cannot write the output: {error}");
                return Flow::Exit(ExitCode::FAILURE);
            }
        }
        if step.quit {
            return Flow::Quit;
        }
        let Some(job) = step.job.take() else {
            return Flow::Continue;
        };
        match start_worker(job, sender.clone()) {
            Ok(()) => return Flow::Continue,
            Err(error) => {
                log::error!("cannot start the worker thread: {error}");
                step = session.job_event(JobEvent::Finished(JobOutput::Failed(format!(
                    "no worker thread: {error}"
                ))));
            }
        }
    }
}

fn start_worker(job: Job, sender: Sender<Event>) -> io::Result<()> {
    thread::Builder::new()
        .name("worker".to_string())
        .spawn(move || {
            job.run(&mut |event| {
                // The loop has exited if the channel is closed; nothing is left to tell.
                let _ = sender.send(Event::Job(event));
            });
        })
        .map(|_| ())
}

fn write_line(output: &mut impl Write, line: &str) -> io::Result<()> {
    output.write_all(line.as_bytes())?;
    output.write_all(b"\n")?;
    output.flush()
}

/// The reader thread: lines until end of input (or a read error, logged).
fn read_lines(mut input: impl BufRead, sender: &Sender<Event>) {
    loop {
        let event = match read_line(&mut input, MAX_LINE_BYTES) {
            Ok(Some(line)) => Event::Line(decode(line), Instant::now()),
            Ok(None) => Event::EndOfInput,
            Err(error) => {
                log::error!("cannot read the input: {error}");
                Event::EndOfInput
            }
        };
        let last = matches!(event, Event::EndOfInput);
        if sender.send(event).is_err() || last {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{RawLine, decode, read_line};
    use std::io::Cursor;

    fn lines(bytes: &[u8], limit: usize) -> Vec<RawLine> {
        let mut input = Cursor::new(bytes.to_vec());
        std::iter::from_fn(|| read_line(&mut input, limit).expect("reading a buffer")).collect()
    }

    #[test]
    fn lines_split_on_newlines_and_lose_carriage_returns() {
        assert_eq!(
            lines(b"uci\r\n\nisready", 100),
            vec![
                RawLine::Bytes(b"uci".to_vec()),
                RawLine::Bytes(Vec::new()),
                RawLine::Bytes(b"isready".to_vec()),
            ]
        );
        assert!(lines(b"", 100).is_empty());
    }

    #[test]
    fn long_lines_are_measured_not_kept() {
        let mut bytes = vec![b'x'; 50];
        bytes.extend_from_slice(b"\nok\n");
        assert_eq!(
            lines(&bytes, 10),
            vec![RawLine::TooLong(50), RawLine::Bytes(b"ok".to_vec())]
        );
    }

    #[test]
    fn invalid_utf8_is_an_error_naming_the_offset() {
        let error = decode(RawLine::Bytes(b"go \xff".to_vec())).expect_err("not UTF-8");
        assert_eq!(error.to_string(), "line is not valid UTF-8 (byte 3)");
    }
}
