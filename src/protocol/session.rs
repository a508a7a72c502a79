//! The protocol state machine: commands in, responses and jobs out, no I/O.
//!
//! A [`Session`] owns the options, the game and the engine. Long work (search, perft,
//! bench, and the engine's setup: allocating or clearing the hash table, reading an
//! ending tables file) leaves as a [`Job`] in the returned [`Step`]; whoever runs it
//! feeds its [`JobEvent`]s back through [`Session::job_event`]. The thin loop in
//! `io.rs` runs jobs on a worker thread; `script.rs` runs them in line for tests.
//! Handling a command itself never takes long, so the loop always reads the next line.
//!
//! The readiness rule (protocol.md, "Readiness, order and stop"): `isready` is answered
//! at once, whatever runs or waits; commands take effect in the order they were sent.
//! While a job runs: `stop` ends it (search, perft, divide, bench), `quit` acts at
//! once, `ponderhit` starts the clock of a `go ponder` search at once; `position`,
//! `setoption` and `uginewgame` stop a running search and wait for its `bestmove`;
//! queries and malformed lines answer at once, other commands wait for the job, and
//! every command waits its turn behind those already waiting. A second `go` while a
//! search runs (and no stop was asked for) is an error. `quit` drops waiting commands and stops the search; its
//! bestmove is still reported if it arrives before the loop exits. End of input is
//! gentler (see [`Session::end_of_input`]): what was asked is finished first.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::engine::{Engine, SearchOptions};
use crate::game::Player;
use crate::registry::{AnyGame, Registry, SearchResult};
use crate::search::{PonderClock, SearchLimits};

use super::board_text;
use super::command::{Command, Dialect, PositionStart, Query};
use super::error::ProtocolError;
use super::job::{Job, JobEvent, JobOutput, SearchJob, SetupJob};
use super::options::{self, OptionTable, Settings};
use super::response::Response;

/// Most commands kept waiting for a running job.
pub const MAX_WAITING_COMMANDS: usize = 10_000;

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = "Tessera";
/// The engine's author line in `id author`.
pub const ENGINE_AUTHOR: &str = "the Tessera developers";

/// What one command (or job event) produced.
#[derive(Default)]
pub struct Step {
    /// Lines to send, in order.
    pub responses: Vec<Response>,
    /// Work to start now (at most one job runs at a time).
    pub job: Option<Job>,
    /// The client asked to quit (or input ended): exit at once.
    pub quit: bool,
}

/// A search in progress.
#[derive(Debug)]
struct RunningSearch {
    stop: Arc<AtomicBool>,
    infinite: bool,
    /// Only `stop` ends it for sure (see [`SearchLimits::runs_until_stopped`]).
    until_stopped: bool,
    stop_requested: bool,
    /// The searched position, to check the move the search returns.
    game: AnyGame,
    /// `go infinite` ended before `stop` (or `go ponder` before `ponderhit` or `stop`):
    /// its bestmove, held until then.
    held: Option<Response>,
    /// `go ponder`: the clock `ponderhit` starts.
    ponder: Option<Arc<PonderClock>>,
}

impl RunningSearch {
    /// A `go ponder` search before `ponderhit` or `stop`.
    fn pondering(&self) -> bool {
        !self.stop_requested
            && self
                .ponder
                .as_ref()
                .is_some_and(|clock| clock.started().is_none())
    }

    /// Only the client ends it (`go infinite`, or pondering), and has not yet.
    fn waits_for_client(&self) -> bool {
        self.pondering() || self.infinite && !self.stop_requested
    }
}

#[derive(Debug)]
enum Activity {
    Idle,
    Searching(Box<RunningSearch>),
    /// perft, divide or bench (the word names it in messages); `stop` raises the flag.
    Working {
        job: &'static str,
        stop: Arc<AtomicBool>,
    },
    /// The engine is being set up (see [`SetupJob`]); it is not stopped.
    SettingUp,
}

/// The protocol state: options, game, engine, and what is running.
pub struct Session {
    /// The options, written from the games the session plays.
    options: OptionTable,
    settings: Settings,
    game: AnyGame,
    /// `None` while a search or setup job holds it.
    engine: Option<Box<Engine>>,
    activity: Activity,
    waiting: VecDeque<Command>,
    /// Input has ended: searches that only `stop` would end are stopped at once.
    input_ended: bool,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A session with every option at its default and the start position.
    pub fn new() -> Self {
        Session::with_settings(Settings::default())
            .expect("the default game configuration always has a start position")
    }

    /// A session with `settings` in force and their start position (tests and fuzzing
    /// start with a small `Hash`), or why the game configuration has none.
    pub fn with_settings(settings: Settings) -> Result<Self, crate::game::PositionError> {
        Session::with_options(OptionTable::builtin(), settings)
    }

    /// A session playing the games of `registry` (the first by default), every option at
    /// its default; or why it cannot be (an option named twice, a default game without a
    /// start position).
    pub fn for_registry(registry: Registry) -> Result<Self, String> {
        let options = OptionTable::new(registry)?;
        let settings = options.defaults();
        Session::with_options(options, settings).map_err(|error| error.to_string())
    }

    /// A session offering the options of `options` (its games), with `settings` in force.
    pub fn with_options(
        options: OptionTable,
        settings: Settings,
    ) -> Result<Self, crate::game::PositionError> {
        let game = AnyGame::new(settings.game)?;
        let engine = Box::new(Engine::new(settings.search.clone()));
        Ok(Session {
            options,
            settings,
            game,
            engine: Some(engine),
            activity: Activity::Idle,
            waiting: VecDeque::new(),
            input_ended: false,
        })
    }

    /// The position the session holds.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// True while a job runs: a search, perft, divide, bench or the engine's setup.
    pub fn is_busy(&self) -> bool {
        !matches!(self.activity, Activity::Idle)
    }

    /// True while a search runs (or holds the bestmove of `go infinite`).
    pub fn is_searching(&self) -> bool {
        matches!(self.activity, Activity::Searching(_))
    }

    /// True when a running search has been asked to stop.
    pub fn stop_requested(&self) -> bool {
        matches!(&self.activity, Activity::Searching(search) if search.stop_requested)
    }

    /// True while a `go ponder` search runs (or holds its bestmove) before `ponderhit` or
    /// `stop`.
    pub fn is_pondering(&self) -> bool {
        matches!(&self.activity, Activity::Searching(search) if search.pondering())
    }

    /// True while the running search is one only the client ends (`go infinite`, or
    /// pondering) and no `stop` has come: the synchronous driver holds such a search back
    /// until then.
    pub fn search_waits_for_client(&self) -> bool {
        matches!(&self.activity, Activity::Searching(search) if search.waits_for_client())
    }

    /// Parses and handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Step {
        self.handle_line_at(line, Instant::now())
    }

    /// Parses and handles one input line that arrived at `received` (a `go` counts its
    /// time from there).
    pub fn handle_line_at(&mut self, line: &str, received: Instant) -> Step {
        let mut command = super::parse::parse_line(line);
        match &mut command {
            Command::Go(limits) => limits.received = Some(received),
            Command::PonderHit { received: at } => *at = Some(received),
            _ => {}
        }
        log::debug!("command {command:?}");
        self.handle(command)
    }

    /// Handles one command.
    pub fn handle(&mut self, command: Command) -> Step {
        let mut step = Step::default();
        match command {
            Command::Empty => {}
            // At once, whatever runs or waits: `readyok` means alive, and every earlier
            // line read (they take effect in order; protocol.md, "Readiness").
            Command::IsReady => step.responses.push(Response::ReadyOk),
            Command::Stop => {
                // A job still waiting (a `go`, perft, bench) is one this stop is meant
                // for too: it waits behind them and stops each as it starts.
                if self.waiting.iter().any(is_job) {
                    self.waiting.push_back(Command::Stop);
                }
                self.request_stop(&mut step);
            }
            Command::Quit => {
                self.waiting.clear();
                self.request_stop(&mut step);
                step.quit = true;
            }
            command if self.waiting.is_empty() && (!self.is_busy() || self.acts_now(&command)) => {
                self.execute(command, &mut step)
            }
            command => self.wait(command, &mut step),
        }
        step
    }

    /// End of input: what was asked still gets done, then the session quits. The
    /// running job and the waiting commands finish in order (so `printf 'go depth 12\n'
    /// | tessera` searches to depth 12); a search that only `stop` would end (`go
    /// infinite`, `go` without limits) is stopped, running or still waiting.
    pub fn end_of_input(&mut self) -> Step {
        let mut step = Step::default();
        self.input_ended = true;
        if !self.is_busy() && self.waiting.is_empty() {
            step.quit = true;
            return step;
        }
        self.waiting.push_back(Command::Quit);
        if matches!(&self.activity, Activity::Searching(search) if search.until_stopped || search.pondering())
        {
            self.request_stop(&mut step);
        }
        step
    }

    /// Handles a report of the running job.
    pub fn job_event(&mut self, event: JobEvent) -> Step {
        let mut step = Step::default();
        match event {
            JobEvent::Info(info) => {
                if matches!(&self.activity, Activity::Searching(search) if search.held.is_none()) {
                    step.responses.push(Response::Info(info));
                }
            }
            JobEvent::Line(line) => step.responses.push(Response::Text(line)),
            JobEvent::Note(note) => step.responses.push(Response::InfoString(note)),
            JobEvent::Finished(output) => self.job_finished(output, &mut step),
        }
        step
    }

    fn job_finished(&mut self, output: JobOutput, step: &mut Step) {
        let activity = std::mem::replace(&mut self.activity, Activity::Idle);
        match output {
            JobOutput::Search { engine, result } => {
                self.engine = Some(engine);
                if let Activity::Searching(mut search) = activity {
                    let ponder = self.settings.ponder;
                    let bestmove = best_move_response(&search.game, result, ponder, step);
                    if search.waits_for_client() {
                        search.held = Some(bestmove);
                        self.activity = Activity::Searching(search);
                        return;
                    }
                    step.responses.push(bestmove);
                } else {
                    log::error!("a search finished while none was running");
                }
            }
            JobOutput::Setup { engine } => self.engine = Some(engine),
            JobOutput::Done => {}
            JobOutput::Failed(message) => {
                log::error!("job failed: {message}");
                if self.engine.is_none() {
                    self.engine = Some(Box::new(Engine::new(self.settings.search.clone())));
                }
                let job = match &activity {
                    Activity::Idle => "job",
                    Activity::Searching(_) => "search",
                    Activity::Working { job, .. } => job,
                    Activity::SettingUp => "engine setup",
                };
                step.responses
                    .push(Response::Error(ProtocolError::JobFailed {
                        job: job.to_string(),
                        message,
                    }));
                if let Activity::Searching(search) = activity {
                    let fallback = SearchResult {
                        best_move: None,
                        ponder: None,
                        score: None,
                    };
                    let bestmove = best_move_response(&search.game, fallback, false, step);
                    step.responses.push(bestmove);
                }
            }
        }
        self.run_waiting(step);
    }

    /// Asks a running search, perft, divide or bench to stop; a held `go infinite`
    /// result is sent at once.
    fn request_stop(&mut self, step: &mut Step) {
        let search = match &mut self.activity {
            Activity::Searching(search) => search,
            Activity::Working { stop, .. } => {
                stop.store(true, Ordering::SeqCst);
                return;
            }
            Activity::Idle | Activity::SettingUp => return,
        };
        search.stop.store(true, Ordering::SeqCst);
        search.stop_requested = true;
        if let Some(bestmove) = search.held.take() {
            step.responses.push(bestmove);
            self.activity = Activity::Idle;
            self.run_waiting(step);
        }
    }

    /// Keeps `command` until the running job is over (see the module comment).
    fn wait(&mut self, command: Command, step: &mut Step) {
        let searching = matches!(self.activity, Activity::Searching(_));
        if searching && matches!(command, Command::Go(_)) && !self.stop_requested() {
            step.responses
                .push(Response::Error(ProtocolError::SearchRunning {
                    command: "go".to_string(),
                }));
            return;
        }
        if self.waiting.len() >= MAX_WAITING_COMMANDS {
            step.responses
                .push(Response::Error(ProtocolError::QueueFull {
                    command: command.word().to_string(),
                    limit: MAX_WAITING_COMMANDS,
                }));
            return;
        }
        let stops = stops_search(&command);
        self.waiting.push_back(command);
        if searching && stops {
            self.request_stop(step);
        }
    }

    /// Runs waiting commands until one starts a job (then those behind it that answer at
    /// once while a job runs) or none is left. A job started from the queue is stopped
    /// at once if a `stop` waits behind it, a search also if another command behind it
    /// would stop it.
    fn run_waiting(&mut self, step: &mut Step) {
        // Past a job that starts, the commands answered at once while a job runs
        // (queries, errors) still answer now rather than behind the job.
        while let Some(front) = self.waiting.front() {
            if self.is_busy() && !self.acts_now(front) {
                break;
            }
            let Some(command) = self.waiting.pop_front() else {
                break;
            };
            self.execute(command, step);
        }
        let stop_waits = self
            .waiting
            .iter()
            .any(|command| matches!(command, Command::Stop));
        if stop_waits || self.is_searching() && self.waiting.iter().any(stops_search) {
            self.request_stop(step);
        }
    }

    fn execute(&mut self, command: Command, step: &mut Step) {
        match command {
            Command::Empty | Command::Stop => {}
            Command::IsReady => step.responses.push(Response::ReadyOk),
            Command::Quit => step.quit = true,
            Command::Hello(dialect) => hello(&self.options, dialect, step),
            Command::SetOption { name, value } => {
                if let Err(error) = self.set_option(&name, value.as_deref(), step) {
                    step.responses.push(error.into());
                }
            }
            Command::NewGame => self.set_up(None, true, None, step),
            Command::Position { start, moves } => match self.set_position(start, &moves) {
                Ok(game) => self.game = game,
                Err(error) => step.responses.push(error.into()),
            },
            Command::Go(limits) => self.go(limits, step),
            Command::PonderHit { received } => {
                self.ponder_hit(received.unwrap_or_else(Instant::now), step)
            }
            Command::Query(query) => step.responses.push(self.query(query)),
            Command::Show => step.responses.extend(
                board_text::describe(&self.game)
                    .into_iter()
                    .map(Response::Text),
            ),
            Command::Perft(depth) | Command::Divide(depth) => {
                let divide = matches!(command, Command::Divide(_));
                let stop = self.start_work(command.word());
                step.job = Some(Job::Perft {
                    game: self.game.clone(),
                    depth,
                    divide,
                    stop,
                });
            }
            Command::Bench => {
                let stop = self.start_work("bench");
                step.job = Some(Job::Bench { stop });
            }
            Command::Eval => {
                if self.engine.is_some() {
                    step.responses
                        .extend(self.game.evaluation_text().into_iter().map(Response::Text));
                }
            }
            Command::Help => step
                .responses
                .extend(super::parse::help_lines().into_iter().map(Response::Text)),
            Command::Invalid(error) => step.responses.push(error.into()),
        }
    }

    /// True for a command carried out while a job runs: one answered at once, or
    /// `ponderhit` (to the search that ponders, or else an error line).
    fn acts_now(&self, command: &Command) -> bool {
        answers_at_once(command) || matches!(command, Command::PonderHit { .. })
    }

    /// `ponderhit`: the expected move was played, so the pondering search goes on as the
    /// timed search of its `go`, its time limits counting from `received`; one that
    /// already ended sends its bestmove now.
    fn ponder_hit(&mut self, received: Instant, step: &mut Step) {
        let search = match &mut self.activity {
            Activity::Searching(search) if search.pondering() => search,
            _ => {
                step.responses
                    .push(Response::Error(ProtocolError::NotPondering {
                        command: "ponderhit".to_string(),
                    }));
                return;
            }
        };
        if let Some(clock) = &search.ponder {
            clock.start(received);
        }
        if !search.infinite
            && let Some(bestmove) = search.held.take()
        {
            step.responses.push(bestmove);
            self.activity = Activity::Idle;
            self.run_waiting(step);
        }
    }

    /// Marks perft, divide or bench as running; returns its stop flag.
    fn start_work(&mut self, job: &'static str) -> Arc<AtomicBool> {
        let stop = Arc::new(AtomicBool::new(false));
        self.activity = Activity::Working {
            job,
            stop: Arc::clone(&stop),
        };
        stop
    }

    /// Hands the engine to a setup job: new options, a new game, an ending tables file.
    fn set_up(
        &mut self,
        options: Option<SearchOptions>,
        new_game: bool,
        endings: Option<String>,
        step: &mut Step,
    ) {
        let Some(engine) = self.engine.take() else {
            log::error!("engine setup while a job holds the engine");
            return;
        };
        self.activity = Activity::SettingUp;
        step.job = Some(Job::Setup(SetupJob {
            engine,
            options,
            new_game,
            endings,
        }));
    }

    fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
        step: &mut Step,
    ) -> Result<(), ProtocolError> {
        let update = self.options.apply(&self.settings, name, value)?;
        let hash_mb = update.settings.search.hash_mb;
        let new_table = hash_mb != self.settings.search.hash_mb;
        if new_table && !can_allocate_megabytes(hash_mb) {
            return Err(ProtocolError::OptionValue {
                name: "Hash".to_string(),
                value: hash_mb.to_string(),
                reason: "cannot allocate that much memory here".to_string(),
            });
        }
        let new_game = update.id.changes_game();
        if new_game {
            let game =
                AnyGame::new(update.settings.game).map_err(|error| ProtocolError::OptionValue {
                    name: name.to_string(),
                    value: value.unwrap_or_default().to_string(),
                    reason: format!("no start position: {error}"),
                })?;
            self.game = game;
        }
        let options = (update.settings.search != self.settings.search)
            .then(|| update.settings.search.clone());
        let endings = (update.id == options::OptionId::EndingsFile)
            .then(|| update.settings.search.endings_file.clone());
        self.settings = update.settings;
        step.responses
            .extend(update.notes.into_iter().map(Response::InfoString));
        // Allocating or clearing the table and reading a file may take long: a job.
        if new_game || new_table || endings.is_some() {
            self.set_up(options, new_game, endings, step);
        } else if let (Some(engine), Some(options)) = (&mut self.engine, options) {
            engine.set_options(options);
        }
        Ok(())
    }

    /// The game `position` describes, or the first thing wrong with it.
    fn set_position(
        &self,
        start: PositionStart,
        moves: &[String],
    ) -> Result<AnyGame, ProtocolError> {
        let config = self.settings.game;
        let mut game = match start {
            PositionStart::StartPosition => AnyGame::new(config),
            PositionStart::Text(text) => AnyGame::from_position_text(config, &text),
        }
        .map_err(ProtocolError::Position)?;
        for (index, text) in moves.iter().enumerate() {
            game.play_text(text).map_err(|error| ProtocolError::Move {
                ply: index + 1,
                error,
            })?;
        }
        Ok(game)
    }

    fn go(&mut self, limits: SearchLimits, step: &mut Step) {
        if let Some(outcome) = self.game.outcome() {
            step.responses.push(Response::info_string(format!(
                "game over ({})",
                outcome.as_str()
            )));
            if limits.ponder.is_none() || self.input_ended {
                step.responses.push(Response::BestMove(None));
                return;
            }
            // Pondering: no bestmove before `ponderhit` or `stop`, even with no search.
            self.activity = Activity::Searching(Box::new(RunningSearch {
                stop: Arc::new(AtomicBool::new(false)),
                infinite: limits.infinite,
                until_stopped: limits.runs_until_stopped(),
                stop_requested: false,
                game: self.game.clone(),
                held: Some(Response::BestMove(None)),
                ponder: limits.ponder,
            }));
            return;
        }
        let Some(engine) = self.engine.take() else {
            log::error!("go without an engine: a search is already running");
            step.responses
                .push(Response::Error(ProtocolError::SearchRunning {
                    command: "go".to_string(),
                }));
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        self.activity = Activity::Searching(Box::new(RunningSearch {
            stop: Arc::clone(&stop),
            infinite: limits.infinite,
            until_stopped: limits.runs_until_stopped(),
            stop_requested: false,
            game: self.game.clone(),
            held: None,
            ponder: limits.ponder.clone(),
        }));
        if self.input_ended && (limits.runs_until_stopped() || limits.ponder.is_some()) {
            self.request_stop(step);
        }
        step.job = Some(Job::Search(SearchJob {
            engine,
            game: self.game.clone(),
            limits,
            stop,
        }));
    }

    fn query(&self, query: Query) -> Response {
        let game = &self.game;
        match query {
            Query::GameOver => Response::answer(game.is_over().to_string()),
            Query::Player1Turn => {
                Response::answer((game.side_to_move() == Player::One).to_string())
            }
            Query::Result => Response::answer(
                game.outcome()
                    .map_or("none", |outcome| outcome.as_str())
                    .to_string(),
            ),
            Query::Moves => Response::Answer(game.legal_move_texts()),
            Query::Score => {
                let [first, second] = game.score();
                Response::Answer(vec![first.to_string(), second.to_string()])
            }
            Query::Position => Response::answer(game.position_text()),
            Query::Variant => Response::answer(game.variant().name()),
        }
    }
}

/// True if `megabytes` MB can be allocated now: a probe reserved and freed at once, so
/// a too large `Hash` is an error line instead of an abort inside the allocator.
fn can_allocate_megabytes(megabytes: usize) -> bool {
    let Some(bytes) = megabytes.checked_mul(1 << 20) else {
        return false;
    };
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(bytes).is_ok()
}

/// Commands that end a running search before they take effect.
fn stops_search(command: &Command) -> bool {
    matches!(
        command,
        Command::Stop | Command::Position { .. } | Command::SetOption { .. } | Command::NewGame
    )
}

/// Commands that start a job `stop` ends.
fn is_job(command: &Command) -> bool {
    matches!(
        command,
        Command::Go(_) | Command::Perft(_) | Command::Divide(_) | Command::Bench
    )
}

/// Commands that neither need the engine nor change anything: answered at once while a
/// job runs; behind waiting commands, as soon as those before them have run or started.
fn answers_at_once(command: &Command) -> bool {
    matches!(
        command,
        Command::Hello(_) | Command::Query(_) | Command::Show | Command::Help | Command::Invalid(_)
    )
}

/// The handshake: id lines, one line per option, then `ugiok` | `uciok`.
fn hello(options: &OptionTable, dialect: Dialect, step: &mut Step) {
    step.responses.push(Response::IdName(format!(
        "{ENGINE_NAME} {}",
        env!("CARGO_PKG_VERSION")
    )));
    step.responses
        .push(Response::IdAuthor(ENGINE_AUTHOR.to_string()));
    step.responses
        .extend(options.lines().into_iter().map(Response::OptionLine));
    step.responses.push(Response::HandshakeDone(dialect));
}

/// `bestmove` for a search result, checked against the rules: a move the rules reject
/// (a search bug) is replaced by the first legal move, with an error line. With `ponder`
/// (the `Ponder` option) the expected reply follows, when the search has one that is
/// legal after the move.
fn best_move_response(
    game: &AnyGame,
    result: SearchResult,
    ponder: bool,
    step: &mut Step,
) -> Response {
    // Only a search bug needs the fallback: listing every move first cost Catchup on side
    // 9 (about 1.6 million turns) a fifth of a second after every search.
    let first_legal = || game.legal_move_texts().into_iter().next();
    match result.best_move {
        Some(text) => match game.canonical_move_text(&text) {
            Ok(canonical) => {
                let reply = result.ponder.filter(|_| ponder).and_then(|reply| {
                    let mut after = game.clone();
                    after.play_text(&canonical).ok()?;
                    after.canonical_move_text(&reply).ok()
                });
                match reply {
                    Some(reply) => Response::BestMoveAndPonder {
                        best: canonical,
                        ponder: reply,
                    },
                    None => Response::BestMove(Some(canonical)),
                }
            }
            Err(error) => {
                log::error!("search returned an illegal move {text:?}: {error}");
                step.responses
                    .push(Response::Error(ProtocolError::JobFailed {
                        job: "search".to_string(),
                        message: format!("illegal best move {text}: {error}"),
                    }));
                Response::BestMove(first_legal())
            }
        },
        None => Response::BestMove(first_legal()),
    }
}
