//! The engine driver: one thread that owns the engine processes and talks to them only
//! through the protocol, the way an outside GUI would (`position`, `go`, `stop`, `eval`,
//! `isready`), with the match runner's [`EngineProcess`] (deadline-bounded reads, crash
//! detection, kill on drop).
//!
//! It waits on the table for work (an engine to move, analysis, an evaluation, a restart),
//! does it without holding the lock, and writes the answers back. A crashed, hung or
//! misbehaving engine is marked failed on the table and gets no more work until the page
//! restarts it; the game itself is never touched by a failure.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::arena::clock::GameClock;
use crate::arena::engine_process::{EngineError, EngineProcess};
use crate::arena::referee::{go_command, judge_bestmove, seed_engine};
use crate::arena::schedule::GameJob;
use crate::arena::settings::EngineSpec;
use crate::game::GameConfig;

use super::table::{EngineStatus, Table};

/// The table and the condition variable that announces its changes.
pub struct Shared {
    pub table: Mutex<Table>,
    pub changed: Condvar,
}

impl Shared {
    pub fn new(table: Table) -> Self {
        Shared {
            table: Mutex::new(table),
            changed: Condvar::new(),
        }
    }

    /// The table; a panic elsewhere while holding it leaves plain data, still usable.
    pub fn lock(&self) -> MutexGuard<'_, Table> {
        self.table
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `change` on the table and wakes everyone waiting for a change.
    pub fn update<T>(&self, change: impl FnOnce(&mut Table) -> T) -> T {
        let result = change(&mut self.lock());
        self.changed.notify_all();
        result
    }
}

/// How long the driver waits for engines.
#[derive(Copy, Clone, Debug)]
pub struct DriverTimeouts {
    /// Handshake, `readyok`, and the wait for `bestmove` after `stop`.
    pub ready: Duration,
    /// Beyond a move's time (movetime or clock) before a silent engine counts as hung.
    pub grace: Duration,
    /// The wait for a `bestmove` when only nodes or depth bound the search.
    pub unbounded_move: Duration,
}

/// How often a running search looks at the table (stop, a changed position).
const POLL: Duration = Duration::from_millis(40);

/// Work for one engine.
enum Job {
    Restart(usize),
    Move(usize),
    Analyse(usize),
    Eval(usize),
}

/// The next job on the table, if any.
fn next_job(table: &mut Table) -> Option<Job> {
    if let Some(index) = table.engines.iter().position(|engine| engine.restart) {
        table.engines[index].restart = false;
        return Some(Job::Restart(index));
    }
    let usable = |table: &Table, index: usize| {
        table
            .engines
            .get(index)
            .is_some_and(|engine| !matches!(engine.status, EngineStatus::Failed(_)))
    };
    if let Some(index) = table.engine_to_move() {
        return usable(table, index).then_some(Job::Move(index));
    }
    if table.eval_requested && usable(table, 0) {
        table.eval_requested = false;
        return Some(Job::Eval(0));
    }
    // An analysis runs until it is cancelled, so one that ended is run again (on a
    // new position, or after an evaluation); see `Driver::search`.
    if table.analysing && table.outcome().is_none() && usable(table, 0) {
        return Some(Job::Analyse(0));
    }
    None
}

/// A running engine process and what the driver has told it; a fresh process starts
/// with nothing told.
struct Running {
    process: EngineProcess,
    /// The game configuration it runs: another needs a fresh process.
    config: GameConfig,
    /// The `MultiPV` it was last given (1 when it starts).
    lines: usize,
    /// The table's game it last started (`uginewgame`).
    game: Option<u64>,
}

/// The driver: owns the processes, one slot per `--engine`.
pub struct Driver {
    shared: Arc<Shared>,
    specs: Vec<EngineSpec>,
    processes: Vec<Option<Running>>,
    /// The seed the engines' seeds per game and seat come from (`--seed`).
    seed: u64,
    timeouts: DriverTimeouts,
}

impl Driver {
    pub fn new(
        shared: Arc<Shared>,
        specs: Vec<EngineSpec>,
        seed: u64,
        timeouts: DriverTimeouts,
    ) -> Self {
        let processes = specs.iter().map(|_| None).collect();
        Driver {
            shared,
            specs,
            processes,
            seed,
            timeouts,
        }
    }

    /// Runs until the table says shut down.
    pub fn run(mut self) {
        loop {
            let job = {
                let mut table = self.shared.lock();
                loop {
                    if table.shutdown {
                        return;
                    }
                    table.check_flag();
                    if let Some(job) = next_job(&mut table) {
                        break job;
                    }
                    table = match self.shared.changed.wait_timeout(table, POLL * 3) {
                        Ok((table, _)) => table,
                        Err(poisoned) => poisoned.into_inner().0,
                    };
                }
            };
            match job {
                Job::Restart(index) => {
                    if let Some(running) = self.processes[index].take() {
                        running.process.kill();
                    }
                    self.shared
                        .update(|table| table.set_status(index, EngineStatus::Stopped, None));
                    let config = *self.shared.lock().game().config();
                    if self.process(index, config).is_some() {
                        let name = self.specs[index].name.clone();
                        self.shared
                            .update(|table| table.message(format!("engine {name} restarted")));
                    }
                }
                Job::Move(index) => self.search(index, false),
                Job::Analyse(index) => self.search(index, true),
                Job::Eval(index) => self.evaluate(index),
            }
        }
    }

    /// The running process of engine `index` for `config`, started if needed; `None`
    /// after a failure (already reported on the table).
    fn process(&mut self, index: usize, config: GameConfig) -> Option<&mut Running> {
        if self.processes[index]
            .as_ref()
            .is_some_and(|running| running.config != config)
        {
            // Another variant or board: a fresh process, as `tessera match` starts one.
            self.processes[index] = None;
        }
        if self.processes[index].is_none() {
            self.shared
                .update(|table| table.set_status(index, EngineStatus::Starting, None));
            match EngineProcess::start(&self.specs[index], &config, self.timeouts.ready) {
                Ok(process) => {
                    let pid = process.id();
                    self.processes[index] = Some(Running {
                        process,
                        config,
                        lines: 1,
                        game: None,
                    });
                    self.shared
                        .update(|table| table.set_status(index, EngineStatus::Ready, Some(pid)));
                }
                Err(error) => {
                    self.fail(index, &error);
                    return None;
                }
            }
        }
        self.processes[index].as_mut()
    }

    /// Starts the table's game `game_number` in engine `index`'s running process unless
    /// it has: a seed of its own for this game and seat (as `tessera match` gives one, so
    /// a level does not replay its last game's answers), then `uginewgame`. False after a
    /// failure (reported on the table).
    fn start_game(&mut self, index: usize, game_number: u64) -> bool {
        let Some(running) = self.processes[index].as_mut() else {
            return false;
        };
        if running.game == Some(game_number) {
            return true;
        }
        let game = GameJob::new(game_number);
        let started = seed_engine(&mut running.process, &self.specs[index], |range| {
            game.engine_seed(self.seed, index, range)
        })
        .and_then(|_| running.process.new_game(self.timeouts.ready));
        match started {
            Ok(()) => {
                running.game = Some(game_number);
                true
            }
            Err(error) => {
                self.fail(index, &error);
                false
            }
        }
    }

    /// Drops (kills) the process and marks the engine failed.
    fn fail(&mut self, index: usize, error: &EngineError) {
        if let Some(running) = self.processes[index].take() {
            running.process.kill();
        }
        let reason = error.to_string();
        self.shared
            .update(|table| table.set_status(index, EngineStatus::Failed(reason), None));
    }

    /// A game move (`analysis` false) or analysis of the current position.
    fn search(&mut self, index: usize, analysis: bool) {
        let (config, position, go, position_id, bound, lines, strength, game_number) = {
            let table = self.shared.lock();
            let mover = table.game().side_to_move();
            let dialect = self.specs[index].dialect;
            let clocks = match table.clocks() {
                Some(clocks) => [Some(clocks[0].clone()), Some(clocks[1].clone())],
                None => [None, None],
            };
            let lines = if analysis { table.analysis_lines } else { 1 };
            let go = if analysis {
                "go infinite".to_string()
            } else {
                go_command(&table.limits, &clocks, mover, dialect)
            };
            // Analysis is at full strength; a move at the mover's seat's.
            let strength = if analysis {
                None
            } else {
                table.strength[mover.index()]
            };
            let time = table
                .limits
                .movetime
                .or_else(|| clocks[mover.index()].as_ref().map(GameClock::remaining));
            let bound = match time {
                Some(time) => time + self.timeouts.grace,
                None => self.timeouts.unbounded_move + self.timeouts.grace,
            };
            (
                *table.game().config(),
                table.position_command(),
                go,
                table.position_id,
                bound,
                lines,
                strength_commands(strength),
                table.game_number,
            )
        };
        // `MultiPV` only when it changes: a process starts at 1, an engine without the
        // option ignores it (as the protocol says of unknown options).
        if self.process(index, config).is_none() || !self.start_game(index, game_number) {
            return;
        }
        let Some(running) = self.processes[index].as_mut() else {
            return;
        };
        let set_lines = std::mem::replace(&mut running.lines, lines) != lines;
        let process = &mut running.process;
        let pid = process.id();
        let sent = if set_lines {
            process.send(&format!("setoption name MultiPV value {lines}"))
        } else {
            Ok(())
        };
        let sent = sent
            .and_then(|()| {
                strength
                    .iter()
                    .try_for_each(|command| process.send(command))
            })
            .and_then(|()| process.send(&position))
            .and_then(|()| process.send(&go));
        if let Err(error) = sent {
            self.fail(index, &error);
            return;
        }
        let started = Instant::now();
        let purpose = if analysis { "analysis" } else { "move" };
        self.shared
            .update(|table| table.begin_search(index, purpose));
        let mut stop_deadline: Option<Instant> = None;
        let answer = loop {
            let Some(Running { process, .. }) = self.processes[index].as_mut() else {
                return;
            };
            match process.next_line(Instant::now() + POLL) {
                Ok((line, at)) => {
                    let trimmed = line.trim();
                    if trimmed.starts_with("bestmove") {
                        break Ok((trimmed.to_string(), at));
                    }
                    self.shared.update(|table| table.search_line(trimmed));
                }
                Err(EngineError::Stalled(_)) => {
                    let cancel = {
                        let table = self.shared.lock();
                        table.position_id != position_id
                            || table.shutdown
                            || table.engines[index].restart
                            || (analysis
                                && (!table.analysing
                                    || table.eval_requested
                                    || table.analysis_lines != lines))
                            || (!analysis && table.stop_requested)
                    };
                    let now = Instant::now();
                    if cancel && stop_deadline.is_none() {
                        if let Err(error) = process.send("stop") {
                            break Err(error);
                        }
                        stop_deadline = Some(now + self.timeouts.ready);
                    }
                    let late = match stop_deadline {
                        Some(deadline) => now > deadline,
                        None => !analysis && now > started + bound,
                    };
                    if late {
                        break Err(EngineError::Stalled(format!(
                            "no bestmove within {} ms{}",
                            now.duration_since(started).as_millis(),
                            if stop_deadline.is_some() {
                                " (after stop)"
                            } else {
                                ""
                            }
                        )));
                    }
                }
                Err(error) => break Err(error),
            }
        };
        let (line, at) = match answer {
            Ok(answer) => answer,
            Err(error) => {
                self.fail(index, &error);
                return;
            }
        };
        let elapsed = at.duration_since(started);
        let asked_to_stop = stop_deadline.is_some();
        let failure = self.shared.update(|table| {
            table.set_status(index, EngineStatus::Ready, Some(pid));
            if analysis {
                if !asked_to_stop && table.analysing {
                    // The engine ended `go infinite` by itself: do not ask again.
                    table.analysing = false;
                    table.message("the engine ended its analysis".to_string());
                }
                return None;
            }
            if table.position_id != position_id {
                return None;
            }
            table.stop_requested = false;
            let text = match judge_bestmove(&line) {
                Ok(text) => text,
                Err(violation) => return Some(violation.0),
            };
            match table.play(text, elapsed) {
                Ok(_) => None,
                Err(error) => Some(format!("illegal bestmove {text}: {error}")),
            }
        });
        if let Some(reason) = failure {
            // The rules refused the move: the game stays as it was, the engine stops.
            self.shared
                .update(|table| table.set_status(index, EngineStatus::Failed(reason), Some(pid)));
        }
    }

    /// The engine's evaluation breakdown of the current position: `eval`, then
    /// `isready`, and every line up to `readyok`.
    fn evaluate(&mut self, index: usize) {
        let (config, position, position_id) = {
            let table = self.shared.lock();
            (
                *table.game().config(),
                table.position_command(),
                table.position_id,
            )
        };
        let timeout = self.timeouts.ready;
        let Some(Running { process, .. }) = self.process(index, config) else {
            return;
        };
        let mut lines = Vec::new();
        let result = (|| {
            process.send(&position)?;
            process.send("eval")?;
            process.send("isready")?;
            let deadline = Instant::now() + timeout;
            loop {
                let (line, _) = process.next_line(deadline)?;
                if line.trim() == "readyok" {
                    return Ok(());
                }
                lines.push(line);
            }
        })();
        match result {
            Ok(()) => self.shared.update(|table| {
                table.eval = Some((position_id, lines));
                table.touch();
            }),
            Err(error) => self.fail(index, &error),
        }
    }
}

impl Drop for Driver {
    /// Engines get `quit` and are reaped ([`EngineProcess`]'s own drop).
    fn drop(&mut self) {
        self.processes.clear();
    }
}

/// The `setoption` lines that set an engine's strength before a search: an Elo
/// (`UCI_LimitStrength` and `UCI_Elo`, clamped by the engine to the game's levels) or
/// full strength.
fn strength_commands(elo: Option<u32>) -> Vec<String> {
    match elo {
        Some(elo) => vec![
            "setoption name UCI_LimitStrength value true".to_string(),
            format!("setoption name UCI_Elo value {elo}"),
        ],
        None => vec!["setoption name UCI_LimitStrength value false".to_string()],
    }
}
