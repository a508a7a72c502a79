//! `tessera match --watch DIR`: one SPRT across shards that run elsewhere (a Slurm array,
//! Kubernetes pods, ssh hosts). It follows the shards' JSONL files while they grow, merges
//! the records, prints the combined statistics and LLR, and once the test is decided runs
//! the user's command (for example `scancel` of the array) and exits.
//!
//! A shard may be caught in the middle of writing a line: only lines that end with a
//! newline are read, and the bytes after the last one are read again at the next look.
//! A file that shrinks below what was read (rewritten from scratch) makes the watcher read
//! every file again from the start, so nothing is counted twice.

use std::collections::HashSet;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::record::{MatchRecord, Scoreboard};
use super::report::{final_table, sprt_status};
use super::runner::RecordedSprt;
use super::sprt::{Sprt, SprtDecision};

/// Why watching failed.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot run --on-decision command ({command}): {source}")]
    Spawn {
        command: String,
        source: std::io::Error,
    },
    #[error("--on-decision command ({command}) failed: {status}")]
    CommandFailed { command: String, status: String },
}

fn io_error(path: &Path, source: std::io::Error) -> WatchError {
    WatchError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// What a look at one file found.
#[derive(Debug, Default)]
pub struct FileUpdate {
    /// Records on lines completed since the last look.
    pub records: Vec<MatchRecord>,
    /// Complete lines that are not records (`path line N: reason`), skipped.
    pub bad_lines: Vec<String>,
    /// The file is shorter than what was already read: it was rewritten.
    pub shrunk: bool,
}

/// A JSONL file read as it grows, one complete line at a time.
#[derive(Debug)]
pub struct GrowingFile {
    path: PathBuf,
    /// Bytes up to the end of the last complete line read.
    complete: u64,
    /// Lines read so far (for messages).
    lines: usize,
}

impl GrowingFile {
    pub fn new(path: PathBuf) -> Self {
        GrowingFile {
            path,
            complete: 0,
            lines: 0,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the lines completed since the last call. A missing file is an empty one.
    pub fn read_new(&mut self) -> Result<FileUpdate, WatchError> {
        let mut update = FileUpdate::default();
        let mut file = match std::fs::File::open(&self.path) {
            Ok(file) => file,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(update),
            Err(error) => return Err(io_error(&self.path, error)),
        };
        let length = file
            .metadata()
            .map_err(|error| io_error(&self.path, error))?
            .len();
        if length < self.complete {
            update.shrunk = true;
            return Ok(update);
        }
        file.seek(SeekFrom::Start(self.complete))
            .map_err(|error| io_error(&self.path, error))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|error| io_error(&self.path, error))?;
        // Only up to the last newline: a line still being written is read next time.
        let Some(end) = bytes.iter().rposition(|&byte| byte == b'\n') else {
            return Ok(update);
        };
        self.complete += end as u64 + 1;
        for line in bytes[..end].split(|&byte| byte == b'\n') {
            self.lines += 1;
            let text = String::from_utf8_lossy(line);
            if text.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<MatchRecord>(text.trim()) {
                Ok(record) => update.records.push(record),
                Err(error) => update.bad_lines.push(format!(
                    "{} line {}: not a game record, skipped: {error}",
                    self.path.display(),
                    self.lines
                )),
            }
        }
        Ok(update)
    }
}

/// The merged state of every followed file.
#[derive(Debug)]
pub struct Watcher {
    directory: PathBuf,
    named: Vec<PathBuf>,
    files: Vec<GrowingFile>,
    board: Scoreboard,
    games: HashSet<u64>,
    recorded_sprt: RecordedSprt,
    engines: Option<[String; 2]>,
    variant: String,
    /// Bad lines seen so far.
    pub skipped_lines: usize,
}

impl Watcher {
    /// Follows the `*.jsonl` files of `directory` and the `named` files.
    pub fn new(directory: PathBuf, named: Vec<PathBuf>) -> Self {
        Watcher {
            directory,
            named,
            files: Vec::new(),
            board: Scoreboard::default(),
            games: HashSet::new(),
            recorded_sprt: RecordedSprt::default(),
            engines: None,
            variant: String::new(),
            skipped_lines: 0,
        }
    }

    /// The files to follow now: the named ones, then the directory's `*.jsonl` by name.
    fn current_paths(&self) -> Result<Vec<PathBuf>, WatchError> {
        let mut found = Vec::new();
        match std::fs::read_dir(&self.directory) {
            Ok(entries) => {
                for entry in entries {
                    let path = entry
                        .map_err(|error| io_error(&self.directory, error))?
                        .path();
                    if path
                        .extension()
                        .is_some_and(|extension| extension == "jsonl")
                        && path.is_file()
                    {
                        found.push(path);
                    }
                }
            }
            // The shards may not have created it yet.
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(io_error(&self.directory, error)),
        }
        found.sort();
        let mut paths = self.named.clone();
        paths.extend(found.into_iter().filter(|path| !self.named.contains(path)));
        Ok(paths)
    }

    /// Looks at every file once; returns whether any record was added.
    pub fn poll(&mut self) -> Result<bool, WatchError> {
        for path in self.current_paths()? {
            if !self.files.iter().any(|file| file.path() == path) {
                self.files.push(GrowingFile::new(path));
            }
        }
        let mut added = false;
        for source in 0..self.files.len() {
            let update = self.files[source].read_new()?;
            if update.shrunk {
                log::warn!(
                    "{} is shorter than before; reading every file again",
                    self.files[source].path().display()
                );
                self.restart();
                return self.poll().map(|_| true);
            }
            for line in &update.bad_lines {
                log::warn!("{line}");
            }
            self.skipped_lines += update.bad_lines.len();
            for record in &update.records {
                self.add(source, record);
                added = true;
            }
        }
        Ok(added)
    }

    fn restart(&mut self) {
        let fresh = Watcher::new(self.directory.clone(), self.named.clone());
        *self = fresh;
    }

    fn add(&mut self, source: usize, record: &MatchRecord) {
        if !self.games.insert(record.game) {
            log::warn!(
                "game {} appears more than once; shards should use --shard",
                record.game
            );
        }
        if self.engines.is_none() {
            self.engines = Some(record.engines.clone());
            self.variant = format!("{}, board size {}", record.variant, record.size);
        }
        self.recorded_sprt.note(record);
        self.board.add(source, record);
    }

    /// Distinct game numbers recorded.
    pub fn games(&self) -> u64 {
        self.games.len() as u64
    }

    pub fn files(&self) -> usize {
        self.files.len()
    }

    pub fn board(&self) -> &Scoreboard {
        &self.board
    }

    /// The test in force: the command line's, else the one the records carry.
    pub fn sprt(&self, command_line: Option<Sprt>) -> Option<Sprt> {
        command_line.or(self.recorded_sprt.sprt)
    }

    /// One status line: files, games, W/D/L, pairs, and the LLR when there is a test.
    pub fn status_line(&self, sprt: Option<&Sprt>) -> String {
        let tally = &self.board.tally;
        let mut line = format!(
            "[watch] {} file(s), {} games: +{} ={} -{}, {} pairs, score {}",
            self.files.len(),
            self.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            tally.pairs(),
            tally
                .score()
                .map_or_else(|| "-".to_string(), |score| format!("{:.2}%", 100.0 * score))
        );
        if let Some(sprt) = sprt {
            line.push_str(" | ");
            line.push_str(&sprt_status(sprt, &self.board).2);
        }
        if self.skipped_lines > 0 {
            line.push_str(&format!(" | {} bad line(s) skipped", self.skipped_lines));
        }
        line
    }

    /// The merged table, as `--merge` prints it.
    pub fn table(&self, sprt: Option<&Sprt>) -> String {
        let engines = self
            .engines
            .clone()
            .unwrap_or_else(|| ["first".to_string(), "second".to_string()]);
        let title = format!(
            "Watched {} file(s): {}",
            self.files.len(),
            if self.variant.is_empty() {
                "no games"
            } else {
                &self.variant
            }
        );
        final_table(&title, &engines, &self.board, sprt, None)
    }
}

/// What `--watch` was asked to do.
#[derive(Clone, Debug)]
pub struct WatchPlan {
    pub directory: PathBuf,
    /// Files to follow besides the directory's (`--merge` files).
    pub files: Vec<PathBuf>,
    /// The command line's test; `None` takes the one recorded in the files.
    pub sprt: Option<Sprt>,
    /// Games in the whole match: once all are in, the watcher stops undecided.
    pub games: Option<u64>,
    pub on_decision: Option<String>,
    pub poll: Duration,
}

/// Why the watcher stopped.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum WatchEnd {
    Decided(SprtDecision, f64),
    AllGamesIn,
}

/// Whether the watcher is done: a decided test, or every game of the match recorded.
pub fn check_end(watcher: &Watcher, plan: &WatchPlan) -> Option<WatchEnd> {
    if let Some(sprt) = watcher.sprt(plan.sprt) {
        let llr = sprt.llr(&watcher.board().tally);
        let decision = sprt.decision(llr);
        if decision != SprtDecision::Continue {
            return Some(WatchEnd::Decided(decision, llr));
        }
    }
    plan.games
        .filter(|&games| watcher.games() >= games)
        .map(|_| WatchEnd::AllGamesIn)
}

/// Runs `command` with `sh -c`, the decision in `TESSERA_SPRT` (`H0` or `H1`) and the LLR
/// in `TESSERA_LLR`.
pub fn run_decision_command(
    command: &str,
    decision: SprtDecision,
    llr: f64,
    games: u64,
) -> Result<(), WatchError> {
    let word = if decision == SprtDecision::AcceptH1 {
        "H1"
    } else {
        "H0"
    };
    let status = Command::new("sh")
        .arg("-c")
        .arg(command)
        .env("TESSERA_SPRT", word)
        .env("TESSERA_LLR", format!("{llr:.4}"))
        .env("TESSERA_GAMES", games.to_string())
        .status()
        .map_err(|source| WatchError::Spawn {
            command: command.to_string(),
            source,
        })?;
    if status.success() {
        Ok(())
    } else {
        Err(WatchError::CommandFailed {
            command: command.to_string(),
            status: status.to_string(),
        })
    }
}

/// Follows the files until the test is decided (then runs the command) or every game is
/// in; prints a status line to stderr whenever records arrive, and returns the final
/// table. The table is printed before the command runs, so it survives a command that
/// cancels this very job.
pub fn run_watch(plan: &WatchPlan) -> Result<String, WatchError> {
    let mut watcher = Watcher::new(plan.directory.clone(), plan.files.clone());
    let mut first = true;
    loop {
        let added = watcher.poll()?;
        let sprt = watcher.sprt(plan.sprt);
        if added || first {
            eprintln!("{}", watcher.status_line(sprt.as_ref()));
            first = false;
        }
        match check_end(&watcher, plan) {
            Some(WatchEnd::Decided(decision, llr)) => {
                eprintln!(
                    "SPRT decided ({decision:?}) after {} games",
                    watcher.games()
                );
                print!("{}", watcher.table(sprt.as_ref()));
                if let Some(command) = &plan.on_decision {
                    eprintln!("running: {command}");
                    run_decision_command(command, decision, llr, watcher.games())?;
                }
                return Ok(String::new());
            }
            Some(WatchEnd::AllGamesIn) => {
                eprintln!(
                    "all {} games are in{}",
                    watcher.games(),
                    if sprt.is_some() {
                        "; the SPRT is not decided"
                    } else {
                        ""
                    }
                );
                return Ok(watcher.table(sprt.as_ref()));
            }
            None => std::thread::sleep(plan.poll),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::record::{GameResult, OpeningRecord, Termination};
    use std::io::Write;

    fn record(game: u64, first_wins: bool) -> MatchRecord {
        let white_engine = (game % 2) as usize;
        let white_wins = first_wins == (white_engine == 0);
        MatchRecord {
            game,
            pair: game / 2,
            variant: "cheversi".to_string(),
            size: 8,
            rule: "revised".to_string(),
            engines: ["good".to_string(), "bad".to_string()],
            white_engine,
            white: String::new(),
            black: String::new(),
            opening: OpeningRecord {
                index: 0,
                position: "start".to_string(),
                moves: Vec::new(),
            },
            moves: vec!["d3".to_string()],
            times_ms: vec![1],
            result: if white_wins {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            },
            termination: Termination::Normal,
            reason: String::new(),
            final_position: String::new(),
            seed: 1,
            engine_seeds: [None, None],
            sprt: Some("elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized".to_string()),
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tessera-watch-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch directory");
        dir
    }

    fn append(path: &Path, bytes: &[u8]) {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("appendable");
        file.write_all(bytes).expect("written");
    }

    #[test]
    fn a_line_is_read_only_once_complete() {
        let dir = scratch("partial");
        let path = dir.join("a.jsonl");
        let line = record(0, true).to_json_line() + "\n";
        let (head, tail) = line.as_bytes().split_at(line.len() / 3);
        let mut file = GrowingFile::new(path.clone());
        assert!(
            file.read_new()
                .expect("missing is empty")
                .records
                .is_empty()
        );
        append(&path, head);
        assert!(file.read_new().expect("readable").records.is_empty());
        append(&path, tail);
        append(&path, b"{not json}\n");
        let update = file.read_new().expect("readable");
        assert_eq!(update.records.len(), 1);
        assert_eq!(update.bad_lines.len(), 1, "{:?}", update.bad_lines);
        assert!(
            update.bad_lines[0].contains("line 2"),
            "{:?}",
            update.bad_lines
        );
        assert!(file.read_new().expect("readable").records.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_cut_line_replaced_by_resume_is_read_as_written() {
        // A shard killed mid-line leaves half a line; `--resume` trims it and appends.
        let dir = scratch("resume");
        let path = dir.join("a.jsonl");
        let first = record(0, true).to_json_line() + "\n";
        let second = record(1, true).to_json_line() + "\n";
        append(&path, first.as_bytes());
        append(&path, &second.as_bytes()[..20]);
        let mut watcher = Watcher::new(dir.clone(), Vec::new());
        watcher.poll().expect("readable");
        assert_eq!(watcher.games(), 1);
        std::fs::write(&path, format!("{first}{second}")).expect("rewritten");
        watcher.poll().expect("readable");
        assert_eq!(watcher.games(), 2);
        assert_eq!(watcher.board().tally.pentanomial, [0, 0, 0, 0, 1]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn files_appearing_later_and_shrinking_files_are_merged_once() {
        let dir = scratch("later");
        let mut watcher = Watcher::new(dir.join("not-yet"), Vec::new());
        assert!(!watcher.poll().expect("a missing directory is empty"));
        let mut watcher = Watcher::new(dir.clone(), Vec::new());
        append(
            &dir.join("shard-1.jsonl"),
            (record(0, true).to_json_line() + "\n").as_bytes(),
        );
        append(&dir.join("notes.txt"), b"not a shard\n");
        assert!(watcher.poll().expect("readable"));
        append(
            &dir.join("shard-2.jsonl"),
            (record(2, false).to_json_line() + "\n").as_bytes(),
        );
        append(
            &dir.join("shard-1.jsonl"),
            (record(1, true).to_json_line() + "\n").as_bytes(),
        );
        assert!(watcher.poll().expect("readable"));
        assert_eq!((watcher.files(), watcher.games()), (2, 3));
        assert_eq!(watcher.board().tally.pentanomial, [0, 0, 0, 0, 1]);
        // Shard 1 started over: its file now holds one game; nothing is counted twice.
        std::fs::write(
            dir.join("shard-1.jsonl"),
            record(0, false).to_json_line() + "\n",
        )
        .expect("rewritten");
        assert!(watcher.poll().expect("readable"));
        assert_eq!(watcher.games(), 2);
        assert_eq!(
            (watcher.board().tally.wins, watcher.board().tally.losses),
            (0, 2)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_recorded_test_decides_once_enough_pairs_are_in() {
        let dir = scratch("decide");
        let plan = WatchPlan {
            directory: dir.clone(),
            files: Vec::new(),
            sprt: None,
            games: Some(2000),
            on_decision: None,
            poll: Duration::from_millis(1),
        };
        let mut watcher = Watcher::new(dir.clone(), Vec::new());
        let mut decided_at = None;
        for game in 0..2000u64 {
            let shard = dir.join(format!("shard-{}.jsonl", game / 2 % 4));
            append(
                &shard,
                (record(game, true).to_json_line() + "\n").as_bytes(),
            );
            watcher.poll().expect("readable");
            if let Some(end) = check_end(&watcher, &plan) {
                decided_at = Some((end, watcher.games()));
                break;
            }
        }
        let (end, games) = decided_at.expect("the test decides");
        assert!(
            matches!(end, WatchEnd::Decided(SprtDecision::AcceptH1, llr) if llr >= 2.94),
            "{end:?}"
        );
        // Every pair is WW: the normalised LLR passes its bound after some 150 pairs.
        assert!((100..1000).contains(&games), "{games}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
