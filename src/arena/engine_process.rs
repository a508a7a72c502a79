//! An engine process seen from the runner: spawn, handshake, options, and line I/O where
//! every read has a deadline.
//!
//! A reader thread turns the engine's stdout into timestamped lines on a channel, so a
//! silent engine can never block the runner; the timestamp is taken when the line is read,
//! which is what the clock charges. The process is killed and reaped when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

use crate::game::GameConfig;

use super::settings::{EngineSpec, ProtocolDialect};

/// Lines longer than this are cut (an engine printing without newlines cannot exhaust
/// memory).
const LONGEST_LINE: u64 = 1 << 20;

/// Lines buffered from an engine before its writes block.
const OUTPUT_BACKLOG: usize = 4096;

/// Time an engine gets to exit after `quit` before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(300);

/// What the reader thread reports.
#[derive(Debug)]
enum Output {
    Line(String, Instant),
    Closed,
}

/// How talking to an engine failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("could not start: {0}")]
    Start(String),
    /// Process exited, closed stdout, or stdin broke.
    #[error("crashed: {0}")]
    Crashed(String),
    /// No answer in time.
    #[error("stalled: {0}")]
    Stalled(String),
}

/// A running engine.
pub struct EngineProcess {
    name: String,
    child: Child,
    input: ChildStdin,
    output: Receiver<Output>,
    dialect: ProtocolDialect,
    /// The options the engine listed in its handshake (`option name ...` lines).
    options: Vec<AdvertisedOption>,
}

/// An option an engine advertised: its name and, for a `spin`, its range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdvertisedOption {
    pub name: String,
    /// `min` and `max` of a `spin` option, when both are given as whole numbers.
    pub range: Option<(i64, i64)>,
}

impl AdvertisedOption {
    /// Reads an `option name <NAME> type <TYPE> ...` line; the name may hold spaces.
    pub fn parse(line: &str) -> Option<Self> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let ["option", "name", rest @ ..] = tokens.as_slice() else {
            return None;
        };
        let name_end = rest.iter().position(|token| *token == "type")?;
        if name_end == 0 {
            return None;
        }
        let after = &rest[name_end..];
        let number = |key: &str| {
            after
                .iter()
                .position(|token| *token == key)
                .and_then(|at| after.get(at + 1))
                .and_then(|value| value.parse::<i64>().ok())
        };
        let range = match (after.get(1), number("min"), number("max")) {
            (Some(&"spin"), Some(min), Some(max)) if min <= max => Some((min, max)),
            _ => None,
        };
        Some(AdvertisedOption {
            name: rest[..name_end].join(" "),
            range,
        })
    }
}

impl std::fmt::Debug for EngineProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EngineProcess({}, pid {})", self.name, self.child.id())
    }
}

impl EngineProcess {
    /// Spawns the engine, completes the handshake, sets the variant, the board size and
    /// the game's parameters (each by its option), then the user's options, and waits for
    /// `readyok`.
    pub fn start(
        spec: &EngineSpec,
        config: &GameConfig,
        ready_timeout: Duration,
    ) -> Result<Self, EngineError> {
        let mut command = Command::new(&spec.command);
        command
            .args(&spec.arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(directory) = &spec.directory {
            command.current_dir(directory);
        }
        let mut child = command
            .spawn()
            .map_err(|error| EngineError::Start(format!("{}: {error}", spec.command.display())))?;
        let (Some(input), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Start("no pipes to the engine".to_string()));
        };
        // Bounded, so an engine flooding its output blocks on its own writes instead of
        // filling the runner's memory.
        let (sender, receiver) = sync_channel(OUTPUT_BACKLOG);
        let reader_name = spec.name.clone();
        std::thread::Builder::new()
            .name(format!("read {}", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    match (&mut reader)
                        .take(LONGEST_LINE)
                        .read_until(b'\n', &mut buffer)
                    {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let now = Instant::now();
                            let text = String::from_utf8_lossy(&buffer);
                            let line = text.trim_end_matches(['\n', '\r']).to_string();
                            log::debug!("{reader_name} > {line}");
                            if sender.send(Output::Line(line, now)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = sender.send(Output::Closed);
            })
            .map_err(|error| EngineError::Start(format!("reader thread: {error}")))?;
        let mut engine = EngineProcess {
            name: spec.name.clone(),
            child,
            input,
            output: receiver,
            dialect: spec.dialect,
            options: Vec::new(),
        };
        engine.handshake(spec.dialect, ready_timeout)?;
        engine.send(&format!(
            "setoption name UCI_Variant value {}",
            config.variant.name()
        ))?;
        if let Some(size) = config.size {
            engine.send(&format!("setoption name BoardSize value {size}"))?;
        }
        for (parameter, value) in config.parameter_values() {
            engine.send(&format!(
                "setoption name {} value {value}",
                parameter.option
            ))?;
        }
        // Before the user's options, which may say otherwise.
        if spec.ponder {
            engine.send("setoption name Ponder value true")?;
        }
        for (name, value) in &spec.options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.is_ready(ready_timeout)?;
        Ok(engine)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The process id (the GUI shows it, so a person can tell which process to watch).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The dialect the handshake settled on (`Ugi` or `Uci`).
    pub fn dialect(&self) -> ProtocolDialect {
        self.dialect
    }

    /// The option the engine advertised under `name` (compared ignoring case, as UCI
    /// option names are).
    pub fn advertised(&self, name: &str) -> Option<&AdvertisedOption> {
        self.options
            .iter()
            .find(|option| option.name.eq_ignore_ascii_case(name))
    }

    /// Waits for the line that ends the handshake (`ugiok` or `uciok`), noting the
    /// options advertised before it.
    fn read_options_until(
        &mut self,
        end: &str,
        timeout: Duration,
        what: &str,
    ) -> Result<(), EngineError> {
        let mut options = Vec::new();
        let ended = self.wait_for(
            |line| {
                options.extend(AdvertisedOption::parse(line));
                line == end
            },
            timeout,
            what,
        );
        self.options = options;
        ended.map(|_| ())
    }

    /// `ugi` -> `ugiok`; in `Auto`, an engine that does not say `ugiok` within a short
    /// probe (or says it does not know `ugi`) is asked `uci` -> `uciok`.
    fn handshake(
        &mut self,
        dialect: ProtocolDialect,
        timeout: Duration,
    ) -> Result<(), EngineError> {
        match dialect {
            ProtocolDialect::Ugi => {
                self.send("ugi")?;
                self.read_options_until("ugiok", timeout, "ugiok")?;
                self.dialect = ProtocolDialect::Ugi;
            }
            ProtocolDialect::Uci => {
                self.send("uci")?;
                self.read_options_until("uciok", timeout, "uciok")?;
                self.dialect = ProtocolDialect::Uci;
            }
            ProtocolDialect::Auto => {
                self.send("ugi")?;
                let probe = timeout.min(Duration::from_millis(2000));
                let deadline = Instant::now() + probe;
                loop {
                    match self.next_line(deadline) {
                        Ok((line, _)) if line == "ugiok" => {
                            self.dialect = ProtocolDialect::Ugi;
                            return Ok(());
                        }
                        // Some UCI engines answer an unknown command right away.
                        Ok((line, _)) if line.to_ascii_lowercase().contains("unknown") => break,
                        Ok((line, _)) => self.options.extend(AdvertisedOption::parse(&line)),
                        Err(EngineError::Stalled(_)) => break,
                        Err(other) => return Err(other),
                    }
                }
                self.send("uci")?;
                self.read_options_until("uciok", timeout, "ugiok or uciok")?;
                self.dialect = ProtocolDialect::Uci;
            }
        }
        Ok(())
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::debug!("{} < {line}", self.name);
        let written = self
            .input
            .write_all(line.as_bytes())
            .and_then(|()| self.input.write_all(b"\n"))
            .and_then(|()| self.input.flush());
        written
            .map_err(|error| EngineError::Crashed(format!("cannot write to the engine: {error}")))
    }

    /// The next line before `deadline`.
    pub fn next_line(&mut self, deadline: Instant) -> Result<(String, Instant), EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.output.recv_timeout(wait) {
            Ok(Output::Line(line, at)) => Ok((line, at)),
            Ok(Output::Closed) | Err(RecvTimeoutError::Disconnected) => {
                let status = self.exit_status();
                Err(EngineError::Crashed(format!(
                    "the engine closed its output{status}"
                )))
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Stalled(format!(
                "no answer within {} ms",
                wait.as_millis()
            ))),
        }
    }

    /// Waits for a line matching `wanted`, skipping others, until `timeout` passes.
    pub fn wait_for(
        &mut self,
        mut wanted: impl FnMut(&str) -> bool,
        timeout: Duration,
        what: &str,
    ) -> Result<(String, Instant), EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.next_line(deadline) {
                Ok((line, at)) if wanted(line.trim()) => return Ok((line, at)),
                Ok(_) => continue,
                Err(EngineError::Stalled(_)) => {
                    return Err(EngineError::Stalled(format!(
                        "no {what} within {} ms",
                        timeout.as_millis()
                    )));
                }
                Err(other) => return Err(other),
            }
        }
    }

    /// `isready` -> `readyok`.
    pub fn is_ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for(|line| line == "readyok", timeout, "readyok")
            .map(|_| ())
    }

    /// Starts a new game: `ugi/ucinewgame`, then `isready`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.drain();
        let command = match self.dialect {
            ProtocolDialect::Uci => "ucinewgame",
            ProtocolDialect::Ugi | ProtocolDialect::Auto => "uginewgame",
        };
        self.send(command)?;
        self.is_ready(timeout)
    }

    /// Discards lines already received (stale output from an earlier exchange).
    pub fn drain(&mut self) {
        while let Ok(Output::Line(line, _)) = self.output.try_recv() {
            log::debug!("{} stale line dropped: {line}", self.name);
        }
    }

    /// A suffix describing the exit status if the process has exited.
    fn exit_status(&mut self) -> String {
        // Give a dying process a moment so the status is known.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!(" ({status})");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        String::new()
    }

    /// Kills the process at once and reaps it.
    pub fn kill(mut self) {
        self.kill_now();
    }

    fn kill_now(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    /// `quit`, a short wait, then kill; the child is always reaped.
    fn drop(&mut self) {
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        let _ = self.send("quit");
        let deadline = Instant::now() + QUIT_WAIT;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill_now();
    }
}

#[cfg(test)]
mod tests {
    use super::AdvertisedOption;

    #[test]
    fn option_lines_give_names_and_spin_ranges() {
        let seed = AdvertisedOption::parse("option name Seed type spin default 0 min 0 max 99");
        assert_eq!(
            seed,
            Some(AdvertisedOption {
                name: "Seed".to_string(),
                range: Some((0, 99)),
            })
        );
        let spaced = AdvertisedOption::parse("option name Clear Hash type button");
        assert_eq!(
            spaced.map(|option| option.name),
            Some("Clear Hash".to_string())
        );
        let negative = AdvertisedOption::parse("option name X type spin default 0 min -5 max 5");
        assert_eq!(negative.and_then(|option| option.range), Some((-5, 5)));
        // A combo's words are not a range; a line without a type is not an option.
        let combo = AdvertisedOption::parse("option name V type combo default min var min var max");
        assert_eq!(combo.and_then(|option| option.range), None);
        assert_eq!(AdvertisedOption::parse("option name Seed"), None);
        assert_eq!(AdvertisedOption::parse("option name type spin"), None);
        assert_eq!(
            AdvertisedOption::parse("info string option name A type check"),
            None
        );
    }
}
