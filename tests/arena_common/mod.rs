//! Shared helpers for the match runner's end-to-end tests: run `tessera match` as a
//! process, read its records back, and replay them with the rules library.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tessera::arena::record::{MatchRecord, read_jsonl};
use tessera::game::{GameConfig, Outcome, Player, Variant};
use tessera::registry::AnyGame;
use tessera::registry::Registry;

pub const BINARY: &str = env!("CARGO_BIN_EXE_tessera");

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// `--engine` words for the test engine with extra arguments.
pub fn test_engine(name: &str, extra: &[&str]) -> Vec<String> {
    let mut words = vec![
        "--engine".to_string(),
        format!("cmd={BINARY}"),
        format!("name={name}"),
    ];
    words.push("arg=test-engine".to_string());
    words.extend(extra.iter().map(|word| format!("arg={word}")));
    words
}

/// Runs `tessera match` with the arguments; returns the process output.
pub fn run_match(arguments: &[String]) -> Output {
    Command::new(BINARY)
        .arg("match")
        .args(arguments)
        .output()
        .expect("the binary runs")
}

pub fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|word| word.to_string()).collect()
}

pub fn path_text(path: &Path) -> String {
    path.to_str().expect("utf-8 path").to_string()
}

/// Arguments for a quick match of `variant` at one node a move between `engines` (their
/// `--engine` words), recorded to `jsonl`, then `extra`.
pub fn one_node_match(
    engines: Vec<String>,
    variant: &str,
    jsonl: &Path,
    extra: &[&str],
) -> Vec<String> {
    let mut arguments = engines;
    arguments.extend(words(&[
        "--variant",
        variant,
        "--nodes",
        "1",
        "--jsonl",
        &path_text(jsonl),
    ]));
    arguments.extend(words(extra));
    arguments
}

/// The test engines `alpha` (seed 3) and `beta` (seed 4), as `--engine` words.
pub fn test_engine_pair() -> Vec<String> {
    let mut engines = test_engine("alpha", &["--seed", "3"]);
    engines.extend(test_engine("beta", &["--seed", "4"]));
    engines
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn records(path: &Path) -> Vec<MatchRecord> {
    read_jsonl(path).expect("the JSONL file parses back")
}

pub fn config_of(record: &MatchRecord) -> GameConfig {
    record
        .config_in(&Registry::builtin())
        .expect("a known variant and its parameters")
}

/// Replays a record with the rules: the opening, then every engine move must be legal
/// and canonical; a normal ending must match the rules' outcome. Returns the final game.
pub fn replay(record: &MatchRecord) -> AnyGame {
    let config = config_of(record);
    let mut game = AnyGame::from_position_text(config, &record.opening.position)
        .expect("opening position parses");
    for text in record.opening.moves.iter().chain(&record.moves) {
        let canonical = game.play_text(text).unwrap_or_else(|error| {
            panic!("game {}: move {text} does not replay: {error}", record.game)
        });
        assert_eq!(&canonical, text, "moves are recorded in canonical text");
    }
    assert_eq!(game.position_text(), record.final_position);
    assert_eq!(record.times_ms.len(), record.moves.len());
    if record.termination == tessera::arena::record::Termination::Normal {
        let expected = match game.outcome().expect("a normal ending is a finished game") {
            Outcome::Win(Player::One) => "1-0",
            Outcome::Win(Player::Two) => "0-1",
            Outcome::Draw => "1/2-1/2",
        };
        assert_eq!(record.result.as_str(), expected, "game {}", record.game);
    }
    game
}

/// A PGN game as read back: its tags and its move tokens.
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub result: String,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }
}

/// A small reader for the runner's PGN-like output: tags, move numbers, `{comments}`,
/// and the closing result.
pub fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut body = String::new();
    let flush = |tags: &mut Vec<(String, String)>, body: &mut String, games: &mut Vec<PgnGame>| {
        if tags.is_empty() {
            return;
        }
        let mut moves = Vec::new();
        let mut result = String::new();
        let mut rest = body.as_str();
        let mut tokens = Vec::new();
        while let Some(open) = rest.find('{') {
            tokens.extend(rest[..open].split_whitespace().map(str::to_string));
            let close = rest[open..].find('}').expect("comment closes") + open;
            rest = &rest[close + 1..];
        }
        tokens.extend(rest.split_whitespace().map(str::to_string));
        for token in tokens {
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token.as_str()) {
                result = token;
            } else if token.ends_with('.') && token.trim_end_matches('.').parse::<u32>().is_ok() {
                continue;
            } else {
                moves.push(token);
            }
        }
        games.push(PgnGame {
            tags: std::mem::take(tags),
            moves,
            result,
        });
        body.clear();
    };
    for line in text.lines() {
        if let Some(inner) = line
            .strip_prefix('[')
            .and_then(|line| line.strip_suffix(']'))
        {
            if !body.trim().is_empty() {
                flush(&mut tags, &mut body, &mut games);
            }
            let (name, value) = inner.split_once(' ').expect("tag has a value");
            let value = value
                .trim_matches('"')
                .replace("\\\"", "\"")
                .replace("\\\\", "\\");
            tags.push((name.to_string(), value));
        } else {
            body.push_str(line);
            body.push('\n');
        }
    }
    flush(&mut tags, &mut body, &mut games);
    games
}

/// Replays a PGN game from its FEN tag with the rules; returns the final game.
pub fn replay_pgn(game: &PgnGame) -> AnyGame {
    let variant: Variant = game
        .tag("Variant")
        .expect("Variant tag")
        .parse()
        .expect("known variant");
    let config = GameConfig {
        size: Some(
            game.tag("BoardSize")
                .expect("BoardSize tag")
                .parse()
                .expect("number"),
        ),
        ..GameConfig::new(variant)
    };
    let mut board =
        AnyGame::from_position_text(config, game.tag("FEN").expect("FEN tag")).expect("FEN parses");
    for text in &game.moves {
        board
            .play_text(text)
            .unwrap_or_else(|error| panic!("PGN move {text} does not replay: {error}"));
    }
    assert_eq!(
        game.tag("PlyCount").expect("PlyCount tag"),
        game.moves.len().to_string()
    );
    assert_eq!(game.tag("Result"), Some(game.result.as_str()));
    board
}
