//! Game records: one JSON object per line (`--jsonl`, read back by `--resume` and
//! `--merge`) and PGN-like text (`--pgn`).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::game::GameConfig;
use crate::registry::Registry;

use super::stats::{GamePoints, Tally};

/// A game's result in PGN words.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// No result: the game could not be played (both engines failed, or a bad opening).
    /// Not counted in the statistics.
    #[serde(rename = "*")]
    Unfinished,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// The loss of the engine playing `white` (true) or Black.
    pub fn loss_for(white: bool) -> Self {
        if white {
            GameResult::BlackWins
        } else {
            GameResult::WhiteWins
        }
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// By the rules (the result comes from the rules library).
    Normal,
    /// `--max-plies` reached: a draw.
    MaxPlies,
    /// The `bestmove` token was rejected by the rules (malformed or illegal).
    IllegalMove,
    /// The `bestmove` line itself broke the protocol (no move, or extra tokens other than
    /// a `ponder <move>` suffix).
    MalformedBestmove,
    /// The move came, but after the clock (or movetime) plus `--timemargin`.
    TimeForfeit,
    /// The engine exited or closed its output, or could not be (re)started.
    Crash,
    /// No `bestmove` within the limit plus the grace time, or no `readyok` in time.
    Stall,
    /// The game could not be played at all (result `*`).
    Aborted,
}

impl Termination {
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::MaxPlies => "max_plies",
            Termination::IllegalMove => "illegal_move",
            Termination::MalformedBestmove => "malformed_bestmove",
            Termination::TimeForfeit => "time_forfeit",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
            Termination::Aborted => "aborted",
        }
    }

    /// True for endings that are an engine's fault.
    pub fn is_failure(self) -> bool {
        !matches!(self, Termination::Normal | Termination::MaxPlies)
    }
}

/// The opening a game was played from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningRecord {
    /// Index in the book (0 for the start position).
    pub index: usize,
    /// The position string the game was set up from.
    pub position: String,
    /// Opening moves played from it before the engines' first move.
    pub moves: Vec<String>,
}

/// One line of the JSONL file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// Global game number (pairs are games `2p` and `2p+1`).
    pub game: u64,
    pub pair: u64,
    pub variant: String,
    pub size: usize,
    /// The game's parameter values, space-separated in the order of its facts (Catchup:
    /// its rule); absent for a game without parameters.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rule: String,
    /// The first and second `--engine` names.
    pub engines: [String; 2],
    /// Which of `engines` played White (0 or 1).
    pub white_engine: usize,
    pub white: String,
    pub black: String,
    pub opening: OpeningRecord,
    /// The engines' moves in canonical text, after the opening moves.
    pub moves: Vec<String>,
    /// Wall time of each move in `moves`, from `go` to `bestmove`, in milliseconds.
    pub times_ms: Vec<u64>,
    pub result: GameResult,
    pub termination: Termination,
    /// Human-readable detail (who failed and how, or the rules' result).
    pub reason: String,
    pub final_position: String,
    pub seed: u64,
    /// The `Seed` each engine (first, second) played the game with: the runner's seed for
    /// the game, or the user's `option.Seed=`; `None` for an engine without a `Seed`
    /// option. Absent in older files and when neither engine took a seed.
    #[serde(default, skip_serializing_if = "no_seeds")]
    pub engine_seeds: [Option<u64>; 2],
    /// The run's `--sprt` settings (`elo0=.. elo1=.. alpha=.. beta=.. model=..`), so that
    /// `--merge` and `--watch` can apply the test without being told again. Absent in
    /// older files and in runs without a test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
}

fn no_seeds(seeds: &[Option<u64>; 2]) -> bool {
    seeds.iter().all(Option::is_none)
}

impl MatchRecord {
    /// The configuration the game was played with: its variant among the games of
    /// `registry`, its board side and its parameters.
    pub fn config_in(&self, registry: &Registry) -> Result<GameConfig, String> {
        let variant = registry
            .find(&self.variant)
            .map_err(|error| error.to_string())?;
        let mut config = GameConfig {
            size: Some(self.size),
            ..GameConfig::new(variant)
        };
        config.set_parameter_words(&self.rule)?;
        Ok(config)
    }

    /// The first engine's points, `None` for an unfinished game.
    pub fn first_engine_points(&self) -> Option<GamePoints> {
        let white_points = match self.result {
            GameResult::WhiteWins => GamePoints::Win,
            GameResult::BlackWins => GamePoints::Loss,
            GameResult::Draw => GamePoints::Draw,
            GameResult::Unfinished => return None,
        };
        Some(if self.white_engine == 0 {
            white_points
        } else {
            match white_points {
                GamePoints::Win => GamePoints::Loss,
                GamePoints::Loss => GamePoints::Win,
                GamePoints::Draw => GamePoints::Draw,
            }
        })
    }

    /// The record as one JSON line (no newline).
    pub fn to_json_line(&self) -> String {
        // Serialising plain strings and numbers cannot fail.
        serde_json::to_string(self).unwrap_or_else(|error| {
            log::error!("cannot serialise game {}: {error}", self.game);
            String::new()
        })
    }

    /// The game as PGN-like text, ending with a blank line.
    pub fn to_pgn(&self, white_moves_first: bool) -> String {
        let mut text = String::new();
        let tags = [
            ("Event", "tessera match".to_string()),
            ("Round", (self.game + 1).to_string()),
            ("White", self.white.clone()),
            ("Black", self.black.clone()),
            ("Result", self.result.as_str().to_string()),
            ("Variant", self.variant.clone()),
            ("BoardSize", self.size.to_string()),
            ("FEN", self.opening.position.clone()),
            ("SetUp", "1".to_string()),
            ("Termination", self.termination.as_str().replace('_', " ")),
            (
                "PlyCount",
                (self.opening.moves.len() + self.moves.len()).to_string(),
            ),
        ];
        for (name, value) in tags {
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(text, "[{name} \"{value}\"]");
        }
        text.push('\n');
        let mut words: Vec<String> = Vec::new();
        if !self.opening.moves.is_empty() {
            words.push(format!("{{opening: {} plies}}", self.opening.moves.len()));
        }
        let mut white_to_move = white_moves_first;
        let mut number = 1;
        let all_moves = self.opening.moves.iter().chain(&self.moves);
        for (ply, text) in all_moves.enumerate() {
            if white_to_move {
                words.push(format!("{number}."));
            } else if ply == 0 {
                words.push(format!("{number}..."));
            }
            words.push(text.clone());
            if ply + 1 == self.opening.moves.len() && !self.moves.is_empty() {
                words.push("{end of opening}".to_string());
            }
            if !white_to_move {
                number += 1;
            }
            white_to_move = !white_to_move;
        }
        words.push(format!("{{{}}}", self.reason.replace(['{', '}'], "")));
        words.push(self.result.as_str().to_string());
        let mut line_length = 0;
        for word in words {
            if line_length > 0 && line_length + 1 + word.len() > 80 {
                text.push('\n');
                line_length = 0;
            } else if line_length > 0 {
                text.push(' ');
                line_length += 1;
            }
            text.push_str(&word);
            line_length += word.len();
        }
        text.push_str("\n\n");
        text
    }
}

/// Why a JSONL file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} line {line}: not a game record: {reason}")]
    Parse {
        path: String,
        line: usize,
        reason: String,
    },
}

/// The records of a JSONL file. A last line without its newline (a run killed while
/// writing) is skipped with a warning; any other bad line is an error.
pub fn read_jsonl(path: &Path) -> Result<Vec<MatchRecord>, RecordError> {
    read_jsonl_reporting(path).map(|read| read.records)
}

/// A JSONL file's records and the number of the cut last line skipped, if any.
#[derive(Clone, Debug)]
pub struct JsonlRead {
    pub records: Vec<MatchRecord>,
    pub skipped_line: Option<usize>,
}

/// [`read_jsonl`], also saying which cut last line was skipped (for the report page).
pub fn read_jsonl_reporting(path: &Path) -> Result<JsonlRead, RecordError> {
    let shown = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|source| RecordError::Io {
        path: shown.clone(),
        source,
    })?;
    read_jsonl_from(std::io::BufReader::new(file), &shown)
}

/// [`read_jsonl_reporting`] from any reader; `shown` names the source in errors.
pub fn read_jsonl_from(mut reader: impl BufRead, shown: &str) -> Result<JsonlRead, RecordError> {
    let shown = shown.to_string();
    let mut records = Vec::new();
    let mut skipped_line = None;
    let mut buffer = Vec::new();
    let mut line = 0;
    loop {
        buffer.clear();
        let read = reader
            .read_until(b'\n', &mut buffer)
            .map_err(|source| RecordError::Io {
                path: shown.clone(),
                source,
            })?;
        if read == 0 {
            break;
        }
        line += 1;
        let complete = buffer.last() == Some(&b'\n');
        let text = String::from_utf8_lossy(&buffer);
        if text.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<MatchRecord>(text.trim()) {
            Ok(record) => records.push(record),
            Err(_) if !complete => {
                log::warn!("{shown} line {line}: incomplete last line skipped");
                skipped_line = Some(line);
            }
            Err(error) => {
                return Err(RecordError::Parse {
                    path: shown,
                    line,
                    reason: error.to_string(),
                });
            }
        }
    }
    Ok(JsonlRead {
        records,
        skipped_line,
    })
}

/// Running statistics over records, pairing the two games of each pair.
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    pub tally: Tally,
    /// Finished games whose partner is not in yet: `(source, pair) -> (game, points)`.
    pending: HashMap<(usize, u64), (u64, GamePoints)>,
    /// Games seen per termination.
    pub terminations: std::collections::BTreeMap<Termination, u64>,
    /// Failures (non-normal terminations) blamed on each engine (first, second).
    pub failures: [u64; 2],
    pub unfinished: u64,
    pub plies: u64,
}

impl Scoreboard {
    /// Adds a record; `source` tells files apart when merging (pairs never span files).
    pub fn add(&mut self, source: usize, record: &MatchRecord) {
        *self.terminations.entry(record.termination).or_default() += 1;
        self.plies += record.moves.len() as u64;
        let Some(points) = record.first_engine_points() else {
            self.unfinished += 1;
            return;
        };
        if record.termination.is_failure() {
            // The engine that lost is the one that failed.
            let first_lost = points == GamePoints::Loss;
            self.failures[if first_lost { 0 } else { 1 }] += 1;
        }
        self.tally.add_game(points);
        let key = (source, record.pair);
        match self.pending.remove(&key) {
            Some((game, other)) if game != record.game => {
                let (first, second) = if game < record.game {
                    (other, points)
                } else {
                    (points, other)
                };
                self.tally.add_pair(first, second);
            }
            Some(previous) => {
                log::warn!("game {} recorded twice; pairing the last copy", record.game);
                let _ = previous;
                self.pending.insert(key, (record.game, points));
            }
            None => {
                self.pending.insert(key, (record.game, points));
            }
        }
    }

    /// Games whose partner game is missing (not in the pentanomial counts).
    pub fn unpaired(&self) -> usize {
        self.pending.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sample(game: u64, result: GameResult, termination: Termination) -> MatchRecord {
        MatchRecord {
            game,
            pair: game / 2,
            variant: "catchup".to_string(),
            size: 5,
            rule: "revised".to_string(),
            engines: ["A".to_string(), "B \"quoted\"".to_string()],
            white_engine: (game % 2) as usize,
            white: "A".to_string(),
            black: "B".to_string(),
            opening: OpeningRecord {
                index: 0,
                position: "5/6/7/8/9/8/7/6/5 w 1".to_string(),
                moves: vec!["e5".to_string()],
            },
            moves: vec!["a1,a2".to_string(), "b1".to_string()],
            times_ms: vec![3, 4],
            result,
            termination,
            reason: "rules".to_string(),
            final_position: "x".to_string(),
            seed: 9,
            engine_seeds: [Some(17), None],
            sprt: None,
        }
    }

    #[test]
    fn json_round_trip_and_wire_names() {
        let record = sample(3, GameResult::Draw, Termination::TimeForfeit);
        let line = record.to_json_line();
        assert!(line.contains("\"result\":\"1/2-1/2\""), "{line}");
        assert!(line.contains("\"termination\":\"time_forfeit\""), "{line}");
        assert!(line.contains("\"engine_seeds\":[17,null]"), "{line}");
        let back: MatchRecord = serde_json::from_str(&line).expect("parses back");
        assert_eq!(back, record);
        // A record of an older runner, without seeds, still reads.
        let seedless = MatchRecord {
            engine_seeds: [None, None],
            ..record
        };
        let old_line = seedless.to_json_line();
        assert!(!old_line.contains("engine_seeds"), "{old_line}");
        let back: MatchRecord = serde_json::from_str(&old_line).expect("parses back");
        assert_eq!(back, seedless);
    }

    #[test]
    fn reader_skips_a_cut_last_line_but_not_a_bad_middle_line() {
        let dir = std::env::temp_dir().join(format!("tessera-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let good = sample(0, GameResult::WhiteWins, Termination::Normal).to_json_line();
        let cut = &good[..good.len() / 2];
        let path = dir.join("cut.jsonl");
        std::fs::write(&path, format!("{good}\n{good}\n{cut}")).expect("write");
        assert_eq!(read_jsonl(&path).expect("readable").len(), 2);
        let path = dir.join("bad.jsonl");
        std::fs::write(&path, format!("{good}\n{cut}\n{good}\n")).expect("write");
        let error = read_jsonl(&path).expect_err("bad middle line");
        assert!(error.to_string().contains("line 2"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn pgn_has_tags_numbers_and_result() {
        let record = sample(0, GameResult::WhiteWins, Termination::IllegalMove);
        let pgn = record.to_pgn(true);
        assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
        assert!(pgn.contains("[Termination \"illegal move\"]"), "{pgn}");
        assert!(pgn.contains("[PlyCount \"3\"]"), "{pgn}");
        assert!(
            pgn.contains("1. e5 {end of opening} a1,a2 2. b1 {rules} 1-0"),
            "{pgn}"
        );
        let black_first = record.to_pgn(false);
        assert!(
            black_first.contains("1... e5 {end of opening} 2. a1,a2 b1"),
            "{black_first}"
        );
    }

    #[test]
    fn scoreboard_pairs_games_and_blames_failures() {
        let mut board = Scoreboard::default();
        // Game 0: first engine White wins. Game 1: first engine Black, White wins (loss).
        board.add(0, &sample(0, GameResult::WhiteWins, Termination::Normal));
        assert_eq!(board.unpaired(), 1);
        board.add(0, &sample(1, GameResult::WhiteWins, Termination::Stall));
        assert_eq!(board.tally.pentanomial, [0, 0, 1, 0, 0]);
        assert_eq!((board.tally.wins, board.tally.losses), (1, 1));
        assert_eq!(board.failures, [1, 0]);
        // The same pair number from another file is another pair.
        board.add(1, &sample(0, GameResult::Draw, Termination::Normal));
        board.add(1, &sample(1, GameResult::Unfinished, Termination::Aborted));
        assert_eq!(board.unfinished, 1);
        assert_eq!(board.unpaired(), 1);
        assert_eq!(board.tally.games(), 3);
    }
}
