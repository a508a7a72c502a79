//! The match loop: worker threads (one per `--concurrency`, each with its own pair of
//! engine processes) take games from a shared queue; the main thread writes the records,
//! keeps the statistics, prints progress, and stops the match when the SPRT decides.

use std::collections::{HashSet, VecDeque};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::registry::AnyGame;

use super::engine_process::EngineProcess;
use super::openings::Opening;
use super::record::{MatchRecord, Scoreboard, read_jsonl};
use super::referee::{EngineSlots, GameSettings, play_game};
use super::report::{RunFacts, final_table, own_cpu_seconds, progress_line};
use super::schedule::GameJob;
use super::sprt::{Sprt, SprtDecision};

/// One game to play with its opening.
#[derive(Clone, Debug)]
pub struct PlannedGame {
    pub job: GameJob,
    pub opening_index: usize,
    pub opening: Opening,
}

/// A fully checked match, ready to run.
pub struct MatchPlan {
    pub settings: GameSettings,
    pub games: Vec<PlannedGame>,
    /// Games in this run's range in all (done ones included), for the progress count.
    pub total_games: u64,
    pub concurrency: usize,
    pub recover: bool,
    pub sprt: Option<Sprt>,
    /// Whether a decided SPRT stops this run. A shard (`--shard`) holds only its share of
    /// the games, so it keeps playing and leaves the decision to `--watch` over all shards.
    pub sprt_stops: bool,
    pub pgn: Option<PathBuf>,
    pub jsonl: Option<PathBuf>,
    /// Records already in the JSONL file (`--resume`).
    pub previous: Vec<MatchRecord>,
    /// Engines started while checking the settings, handed to the first worker.
    pub started: EngineSlots,
}

/// Why a match could not run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("cannot write {path}: {source}")]
    Output {
        path: String,
        source: std::io::Error,
    },
}

fn open_output(path: &Path, append: bool) -> Result<File, RunError> {
    let mut options = OpenOptions::new();
    options.create(true);
    if append {
        options.append(true);
    } else {
        options.write(true).truncate(true);
    }
    options.open(path).map_err(|source| RunError::Output {
        path: path.display().to_string(),
        source,
    })
}

fn write_output(file: &mut File, path: &Path, text: &str) -> Result<(), RunError> {
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|source| RunError::Output {
            path: path.display().to_string(),
            source,
        })
}

/// If a JSONL file was cut in the middle of a line, drops that partial line so that
/// appending starts on a fresh line.
pub fn trim_partial_line(path: &Path) -> std::io::Result<()> {
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(());
    };
    if bytes.is_empty() || bytes.last() == Some(&b'\n') {
        return Ok(());
    }
    let keep = bytes
        .iter()
        .rposition(|&byte| byte == b'\n')
        .map_or(0, |at| at + 1);
    let file = OpenOptions::new().write(true).open(path)?;
    file.set_len(keep as u64)
}

/// A worker's report.
struct Finished {
    record: MatchRecord,
    /// An engine had to be killed (crash or stall) during this game.
    lost_engine: bool,
}

fn worker(
    queue: Arc<Mutex<VecDeque<PlannedGame>>>,
    stop: Arc<AtomicBool>,
    settings: Arc<GameSettings>,
    mut slots: EngineSlots,
    recover: bool,
    results: Sender<Finished>,
) {
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let next = match queue.lock() {
            Ok(mut queue) => queue.pop_front(),
            Err(_) => None,
        };
        let Some(planned) = next else {
            break;
        };
        let record = play_game(
            &mut slots,
            &planned.job,
            planned.opening_index,
            &planned.opening,
            &settings,
        );
        let lost_engine = matches!(
            record.termination,
            super::record::Termination::Crash | super::record::Termination::Stall
        );
        if lost_engine && !recover {
            // Stop here rather than wait for the main thread, which may be slower than
            // this loop's next pop from the queue.
            stop.store(true, Ordering::SeqCst);
        }
        if results
            .send(Finished {
                record,
                lost_engine,
            })
            .is_err()
        {
            break;
        }
    }
    // Dropping the slots quits, kills and reaps the engines.
    drop(slots);
}

/// Whether the first move of this opening is White's (for PGN move numbers).
fn white_moves_first(record: &MatchRecord, settings: &GameSettings) -> bool {
    AnyGame::from_position_text(settings.config, &record.opening.position)
        .map(|game| game.side_to_move() == crate::game::Player::One)
        .unwrap_or(true)
}

/// Runs the match and prints the final table; returns the table text.
pub fn run_match(plan: MatchPlan) -> Result<String, RunError> {
    let started_at = Instant::now();
    let cpu_before = own_cpu_seconds();
    let settings = Arc::new(plan.settings);
    let names = [
        settings.engines[0].name.clone(),
        settings.engines[1].name.clone(),
    ];
    let mut board = Scoreboard::default();
    for record in &plan.previous {
        board.add(0, record);
    }
    let mut jsonl = match &plan.jsonl {
        Some(path) => Some((open_output(path, true)?, path.clone())),
        None => None,
    };
    let mut pgn = match &plan.pgn {
        Some(path) => Some((open_output(path, true)?, path.clone())),
        None => None,
    };
    let already = plan.previous.len() as u64;
    let sprt_words = plan.sprt.map(|sprt| sprt.to_string());
    let decided = plan.sprt_stops
        && plan
            .sprt
            .is_some_and(|sprt| sprt.decision(sprt.llr(&board.tally)) != SprtDecision::Continue);
    let queue: VecDeque<PlannedGame> = if decided {
        eprintln!("the SPRT was already decided by the recorded games; nothing to play");
        VecDeque::new()
    } else {
        plan.games.into_iter().collect()
    };
    let workers = plan.concurrency.max(1).min(queue.len().max(1));
    let queue = Arc::new(Mutex::new(queue));
    let stop = Arc::new(AtomicBool::new(false));
    let (sender, receiver) = channel();
    let mut handles = Vec::new();
    let mut first_slots = Some(plan.started);
    let recover = plan.recover;
    for index in 0..workers {
        let slots = first_slots.take().unwrap_or([None, None]);
        let (queue, stop, settings, sender) = (
            queue.clone(),
            stop.clone(),
            settings.clone(),
            sender.clone(),
        );
        let handle = std::thread::Builder::new()
            .name(format!("match worker {index}"))
            .spawn(move || worker(queue, stop, settings, slots, recover, sender));
        match handle {
            Ok(handle) => handles.push(handle),
            Err(error) => log::error!("cannot start worker {index}: {error}"),
        }
    }
    drop(sender);
    drop(first_slots);
    let mut played = 0u64;
    let mut moves_played = 0u64;
    let mut failure: Option<RunError> = None;
    for Finished {
        record,
        lost_engine,
    } in receiver
    {
        let mut record = record;
        record.sprt.clone_from(&sprt_words);
        played += 1;
        moves_played += record.moves.len() as u64;
        if let Some((file, path)) = jsonl.as_mut() {
            if let Err(error) = write_output(file, path, &(record.to_json_line() + "\n")) {
                failure.get_or_insert(error);
                stop.store(true, Ordering::SeqCst);
            }
        }
        if let Some((file, path)) = pgn.as_mut() {
            let text = record.to_pgn(white_moves_first(&record, &settings));
            if let Err(error) = write_output(file, path, &text) {
                failure.get_or_insert(error);
                stop.store(true, Ordering::SeqCst);
            }
        }
        board.add(0, &record);
        eprintln!(
            "{}",
            progress_line(
                &record,
                already + played,
                plan.total_games,
                &board,
                plan.sprt.as_ref()
            )
        );
        if let Some(sprt) = plan.sprt.as_ref().filter(|_| plan.sprt_stops) {
            let decision = sprt.decision(sprt.llr(&board.tally));
            if decision != SprtDecision::Continue && !stop.swap(true, Ordering::SeqCst) {
                eprintln!("SPRT decided ({decision:?}); finishing the games in progress");
            }
        }
        if lost_engine && !plan.recover {
            eprintln!("an engine crashed or stalled and --no-recover is set; stopping the match");
        }
    }
    for handle in handles {
        if handle.join().is_err() {
            log::error!("a match worker panicked");
        }
    }
    if let Some(error) = failure {
        return Err(error);
    }
    let cpu = match (cpu_before, own_cpu_seconds()) {
        (Some(before), Some(after)) => Some(after - before),
        _ => None,
    };
    let facts = RunFacts {
        games_played: played,
        moves_played,
        wall_seconds: started_at.elapsed().as_secs_f64(),
        cpu_seconds: cpu,
    };
    let title = format!(
        "Match {} vs {}: {}, board size {}",
        names[0],
        names[1],
        settings.config.variant,
        settings.config.board_size()
    );
    Ok(final_table(
        &title,
        &names,
        &board,
        plan.sprt.as_ref(),
        Some(facts),
    ))
}

/// Starts both engines once to check they work before any game is scheduled.
pub fn start_engines(settings: &GameSettings) -> Result<EngineSlots, String> {
    let first = EngineProcess::start(
        &settings.engines[0],
        &settings.config,
        settings.timeouts.ready,
    )
    .map_err(|error| format!("engine {}: {error}", settings.engines[0].name))?;
    let second = EngineProcess::start(
        &settings.engines[1],
        &settings.config,
        settings.timeouts.ready,
    )
    .map_err(|error| format!("engine {}: {error}", settings.engines[1].name))?;
    Ok([Some(first), Some(second)])
}

/// Recomputes the statistics over several JSONL files (`--merge`). Without `sprt` the
/// test recorded in the files (if any) is evaluated.
pub fn merge(paths: &[PathBuf], sprt: Option<&Sprt>) -> Result<String, super::record::RecordError> {
    let mut files = Vec::new();
    for path in paths {
        files.push((path.display().to_string(), read_jsonl(path)?));
    }
    let merged = merge_records(&files);
    let sprt = sprt.copied().or(merged.recorded_sprt);
    Ok(final_table(
        &merged.title,
        &merged.engines,
        &merged.board,
        sprt.as_ref(),
        None,
    ))
}

/// The statistics of several files' records, as `--merge` computes them.
#[derive(Clone, Debug)]
pub struct Merged {
    pub title: String,
    pub engines: [String; 2],
    pub board: Scoreboard,
    /// The SPRT settings the records carry, if any.
    pub recorded_sprt: Option<Sprt>,
}

/// Adds every record of `(name, records)` files to one scoreboard (pairs never span
/// files); the title and engine names of the `--merge` table.
pub fn merge_records(files: &[(String, Vec<MatchRecord>)]) -> Merged {
    let mut board = Scoreboard::default();
    let mut recorded = RecordedSprt::default();
    let mut engines: Option<[String; 2]> = None;
    let mut seen = HashSet::new();
    let mut repeated = 0usize;
    let mut variant = String::new();
    for (source, (path, records)) in files.iter().enumerate() {
        for record in records {
            if !seen.insert(record.game) {
                repeated += 1;
            }
            match &engines {
                None => engines = Some(record.engines.clone()),
                Some(known) if *known != record.engines => log::warn!(
                    "{} game {}: engines {:?} differ from {:?}",
                    path,
                    record.game,
                    record.engines,
                    known
                ),
                Some(_) => {}
            }
            if variant.is_empty() {
                variant = format!("{}, board size {}", record.variant, record.size);
            }
            recorded.note(record);
            board.add(source, record);
        }
    }
    if repeated > 0 {
        log::warn!(
            "{repeated} game numbers appear more than once; shards should use --shard or --game-offset"
        );
    }
    let engines = engines.unwrap_or_else(|| ["first".to_string(), "second".to_string()]);
    let title = format!(
        "Merged {} file(s): {}",
        files.len(),
        if variant.is_empty() {
            "no games"
        } else {
            &variant
        }
    );
    Merged {
        title,
        engines,
        board,
        recorded_sprt: recorded.sprt,
    }
}

/// The SPRT settings carried by records: the first readable ones win, a record that
/// disagrees is reported once.
#[derive(Clone, Debug, Default)]
pub struct RecordedSprt {
    pub sprt: Option<Sprt>,
    disagreement_reported: bool,
}

impl RecordedSprt {
    pub fn note(&mut self, record: &MatchRecord) {
        let Some(words) = &record.sprt else {
            return;
        };
        let words: Vec<String> = words.split_whitespace().map(str::to_string).collect();
        let parsed = match Sprt::from_words(&words) {
            Ok(parsed) => parsed,
            Err(error) => {
                if !self.disagreement_reported {
                    log::warn!("game {}: recorded SPRT ignored: {error}", record.game);
                    self.disagreement_reported = true;
                }
                return;
            }
        };
        match self.sprt {
            None => self.sprt = Some(parsed),
            Some(known) if known != parsed && !self.disagreement_reported => {
                log::warn!(
                    "game {} was recorded with SPRT {parsed}, earlier games with {known}; using {known}",
                    record.game
                );
                self.disagreement_reported = true;
            }
            Some(_) => {}
        }
    }
}
