//! Shared helpers for the protocol tests: run a script in process (through the session
//! state machine) or through the real binary over pipes, as one transcript format:
//! `> command` for each line sent, `< reply` for each line received.
//!
//! Search progress lines (`info depth ...`) are checked against the grammar and then
//! left out, since their number and content belong to the search, not the protocol; the
//! transcripts of several lines (`MultiPV`) keep the last report's lines of each search,
//! whose form is the protocol's.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

use tessera::protocol::ScriptRunner;

/// The line [`Engine::sync`] sends: no command, so its reply is an error line.
const SYNC_MARKER: &str = "sync-marker";

/// How long the binary may take for one reply before the test fails.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// insta filters for the fields that change from run to run or build to build.
pub const FILTERS: &[(&str, &str)] = &[
    (r"Tessera \d+\.\d+\.\d+\S*", "Tessera [version]"),
    (r"Time: \d+ ms, \d+ nodes/s", "Time: [time]"),
    (r"bestmove [A-Za-z]\S*", "bestmove [move]"),
    (r" nps \d+ time \d+", " nps [nps] time [time]"),
    (r"(bestmove \S+) ponder \S+", "$1 ponder [move]"),
];

/// What a transcript keeps of the search progress lines.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Progress {
    /// None: their number and content belong to the search.
    Dropped,
    /// Of each reply, the lines of the last report with several lines (`multipv 1`, `2`,
    /// ...): one report, however many a slow machine adds before it.
    LastLines,
}

/// Checks a search progress line against the `info` grammar of protocol.md.
pub fn check_info_line(line: &str) {
    let mut tokens = line.split(' ').peekable();
    assert_eq!(tokens.next(), Some("info"), "{line}");
    let number = |token: Option<&str>, signed: bool| {
        let token = token.unwrap_or_else(|| panic!("missing number in {line}"));
        let digits = if signed {
            token.strip_prefix('-').unwrap_or(token)
        } else {
            token
        };
        assert!(
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()),
            "bad number {token:?} in {line}"
        );
    };
    let mut seen = Vec::new();
    while let Some(key) = tokens.next() {
        assert!(!seen.contains(&key), "{key} twice in {line}");
        seen.push(key);
        match key {
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "time" | "hashfull" => {
                number(tokens.next(), false)
            }
            "score" => {
                let kind = tokens.next();
                assert!(matches!(kind, Some("cp" | "mate")), "bad score in {line}");
                number(tokens.next(), true);
            }
            "pv" => {
                let moves: Vec<&str> = tokens.by_ref().take_while(|t| *t != "string").collect();
                assert!(!moves.is_empty(), "empty pv in {line}");
                return;
            }
            "string" => return,
            other => panic!("unknown info field {other:?} in {line}"),
        }
    }
    for required in ["nodes", "nps", "time"] {
        assert!(seen.contains(&required), "{required} missing in {line}");
    }
}

/// Keeps a reply line for the transcript, or checks and drops a search progress line.
fn keep(line: &str) -> bool {
    if line.starts_with("info ") && !line.starts_with("info string") {
        check_info_line(line);
        return false;
    }
    true
}

/// The first word of a command line, lowercased.
fn command_word(line: &str) -> String {
    line.split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Runs `script` through the session state machine with the synchronous driver.
pub fn in_process(script: &[&str]) -> String {
    in_process_keeping(script, Progress::Dropped)
}

/// [`in_process`], keeping `progress`.
pub fn in_process_keeping(script: &[&str], progress: Progress) -> String {
    in_process_with_keeping(ScriptRunner::new(), script, progress)
}

/// [`in_process`] with a runner of one's own (a session playing another registry).
pub fn in_process_with(runner: ScriptRunner, script: &[&str]) -> String {
    in_process_with_keeping(runner, script, Progress::Dropped)
}

/// [`in_process_with`], keeping `progress`.
pub fn in_process_with_keeping(
    mut runner: ScriptRunner,
    script: &[&str],
    progress: Progress,
) -> String {
    let mut transcript = Vec::new();
    for line in script {
        transcript.push(format!("> {line}"));
        let replies = runner.send(line);
        record(line, replies, progress, &mut transcript);
    }
    transcript.join("\n")
}

/// The replies with the search progress lines `progress` keeps (all checked).
fn kept(replies: Vec<String>, progress: Progress) -> Vec<String> {
    let last_report = replies
        .iter()
        .rposition(|reply| reply.starts_with("info ") && reply.contains(" multipv 1 "));
    let mut kept = Vec::new();
    let mut previous_kept = false;
    for (index, reply) in replies.into_iter().enumerate() {
        let in_report = progress == Progress::LastLines
            && last_report.is_some_and(|start| index >= start)
            && reply.contains(" multipv ");
        // With lines kept, a line's proven marker goes with its line.
        let marker = progress == Progress::LastLines && reply.starts_with("info string proven");
        if marker && !previous_kept {
            continue;
        }
        previous_kept = keep(&reply) || in_report;
        if previous_kept {
            kept.push(reply);
        }
    }
    kept
}

/// Adds replies to the transcript; `eval` output is summarised (it belongs to the
/// evaluation, not the protocol).
fn record(line: &str, replies: Vec<String>, progress: Progress, transcript: &mut Vec<String>) {
    let replies = kept(replies, progress);
    if command_word(line) == "eval" {
        assert!(!replies.is_empty(), "eval printed nothing");
        transcript.push("< [evaluation]".to_string());
        return;
    }
    transcript.extend(replies.into_iter().map(|reply| format!("< {reply}")));
}

/// The real binary, driven over pipes.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub fn spawn() -> Engine {
        Engine::spawn_command(Command::new(env!("CARGO_BIN_EXE_tessera")))
    }

    /// Another program (with its arguments) as the engine.
    pub fn spawn_command(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine program starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .expect("the engine reads its input");
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .expect("the engine reads its input");
    }

    /// The next output line; fails the test after [`REPLY_TIMEOUT`].
    pub fn next_line(&self) -> Option<String> {
        match self.lines.recv_timeout(REPLY_TIMEOUT) {
            Ok(line) => Some(line),
            Err(mpsc::RecvTimeoutError::Disconnected) => None,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("no reply within {REPLY_TIMEOUT:?}"),
        }
    }

    /// Lines up to and including the first for which `last` holds.
    pub fn read_until(&self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.next_line().expect("the engine is still running");
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Returns the lines the commands sent so far answer, up to a marker. `isready`
    /// cannot be the marker, since its `readyok` comes at once even while commands wait
    /// behind a job; the marker is an unknown command, whose error line keeps its place
    /// among the replies like any other (protocol.md, "Readiness, order and stop").
    pub fn sync(&mut self) -> Vec<String> {
        self.send(SYNC_MARKER);
        let marker = format!("info string error: unknown command ({SYNC_MARKER})");
        let mut lines = self.read_until(|line| line == marker);
        lines.pop();
        lines
    }

    /// Closes stdin and returns the remaining output and the exit status.
    pub fn close(mut self) -> (Vec<String>, ExitStatus) {
        self.stdin = None;
        let mut rest = Vec::new();
        while let Some(line) = self.next_line() {
            rest.push(line);
        }
        let status = self.child.wait().expect("the engine exits");
        (rest, status)
    }

    /// Waits for the process to end after `quit` (output already drained).
    pub fn wait(mut self) -> (Vec<String>, ExitStatus) {
        let mut rest = Vec::new();
        while let Some(line) = self.next_line() {
            rest.push(line);
        }
        let status = self.child.wait().expect("the engine exits");
        (rest, status)
    }
}

fn is_search_end(line: &str) -> bool {
    line.starts_with("bestmove ") || line.starts_with("info string error")
}

/// Runs `script` through the binary. After each command the driver waits for its
/// whole reply: `bestmove` after `go` (and after `stop` of a running search), the
/// `Nodes searched` line after perft, end of output after `quit`, and otherwise a
/// [`Engine::sync`] round trip that is not recorded.
pub fn binary(script: &[&str]) -> String {
    binary_keeping(script, Progress::Dropped)
}

/// [`binary`], keeping `progress`.
pub fn binary_keeping(script: &[&str], progress: Progress) -> String {
    binary_with_keeping(Engine::spawn(), script, progress)
}

/// [`binary`] with an engine of one's own ([`Engine::spawn_command`]).
pub fn binary_with(engine: Engine, script: &[&str]) -> String {
    binary_with_keeping(engine, script, Progress::Dropped)
}

/// [`binary_with`], keeping `progress`.
pub fn binary_with_keeping(mut engine: Engine, script: &[&str], progress: Progress) -> String {
    let mut transcript = Vec::new();
    let mut searching = false;
    for line in script {
        transcript.push(format!("> {line}"));
        let word = command_word(line);
        if word == "quit" {
            engine.send(line);
            let (rest, status) = engine.wait();
            assert!(status.success(), "exit status {status}");
            record(line, rest, progress, &mut transcript);
            return transcript.join("\n");
        }
        engine.send(line);
        let replies = match word.as_str() {
            "go" if line.contains("infinite") || line.contains("ponder") => {
                searching = true;
                engine.sync()
            }
            "go" => engine.read_until(is_search_end),
            "stop" | "ponderhit" if searching => {
                searching = false;
                engine.read_until(|reply| reply.starts_with("bestmove "))
            }
            "perft" | "divide" => engine.read_until(|reply| {
                reply.starts_with("Nodes searched") || reply.starts_with("info string error")
            }),
            "isready" => {
                let mut replies = engine.read_until(|reply| reply == "readyok");
                replies.extend(engine.sync());
                replies
            }
            _ => engine.sync(),
        };
        record(line, replies, progress, &mut transcript);
    }
    let (rest, status) = engine.close();
    assert!(status.success(), "exit status {status}");
    record("", rest, progress, &mut transcript);
    transcript.join("\n")
}

/// Asserts a transcript against the snapshot `name`, shared by the in-process and the
/// binary runs of the same script (both must produce it).
#[macro_export]
macro_rules! assert_transcript {
    ($name:expr, $transcript:expr) => {
        insta::with_settings!({
            filters => $crate::protocol_support::FILTERS.to_vec(),
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!($name, $transcript);
        })
    };
}
