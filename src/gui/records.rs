//! A game loaded from the page: one line of a `tessera match --jsonl` file or one game of
//! its `--pgn` text, sent by the page as text (the server never opens a file the page
//! names). Every move is replayed with the rules before the game is accepted.

use crate::arena::record::MatchRecord;
use crate::game::GameConfig;
use crate::registry::{AnyGame, Registry};

/// A game ready to step through: the configuration, the start position and the moves.
#[derive(Clone, Debug)]
pub struct LoadedGame {
    pub config: GameConfig,
    pub start: String,
    pub moves: Vec<String>,
}

/// Reads a JSONL record (text starting with `{`) or a PGN game (text starting with `[`).
pub fn read_game(text: &str) -> Result<LoadedGame, String> {
    let text = text.trim();
    let (config, start, moves) = if text.starts_with('{') {
        let record: MatchRecord = serde_json::from_str(text)
            .map_err(|error| format!("not a tessera match record: {error}"))?;
        let config = record.config_in(&Registry::builtin())?;
        let moves = record.opening.moves.iter().chain(&record.moves).cloned();
        (config, record.opening.position.clone(), moves.collect())
    } else if text.starts_with('[') {
        read_pgn(text)?
    } else {
        return Err("expected a JSONL record ({...}) or a PGN game ([Tag ...])".to_string());
    };
    let mut game = AnyGame::from_position_text(config, &start)
        .map_err(|error| format!("bad start position: {error}"))?;
    let mut canonical = Vec::with_capacity(moves.len());
    for (index, text) in moves.iter().enumerate() {
        let played = game
            .play_text(text)
            .map_err(|error| format!("bad move at ply {}: {error}", index + 1))?;
        canonical.push(played);
    }
    Ok(LoadedGame {
        config,
        start: game.start_position_text(),
        moves: canonical,
    })
}

/// The value of a `[Name "value"]` tag line, unescaped.
fn tag_value(line: &str) -> Option<(&str, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, quoted) = inner.split_once(' ')?;
    let quoted = quoted.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name, quoted.replace("\\\"", "\"").replace("\\\\", "\\")))
}

/// The PGN-like text `tessera match --pgn` writes: tags, then move numbers, moves,
/// `{comments}` and a result. Its tags do not name the game's parameters: a `Rule` tag
/// (the records' `rule` words) is read when present, else the defaults hold.
fn read_pgn(text: &str) -> Result<(GameConfig, String, Vec<String>), String> {
    let mut variant = None;
    let mut size = None;
    let mut rule = String::new();
    let mut position = None;
    let mut movetext = String::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            let (name, value) = tag_value(line).ok_or_else(|| format!("bad tag ({line})"))?;
            match name {
                "Variant" => {
                    variant = Some(
                        Registry::builtin()
                            .find(&value)
                            .map_err(|error| error.to_string())?,
                    );
                }
                "BoardSize" => {
                    size = Some(
                        value
                            .parse::<usize>()
                            .map_err(|_| format!("bad board size ({value})"))?,
                    );
                }
                "Rule" => rule = value,
                "FEN" => position = Some(value),
                _ => {}
            }
        } else {
            movetext.push_str(line);
            movetext.push(' ');
        }
    }
    let variant = variant.ok_or("the Variant tag is missing")?;
    let mut config = GameConfig {
        size,
        ..GameConfig::new(variant)
    };
    config.set_parameter_words(&rule)?;
    let start = match position {
        Some(text) => text,
        None => AnyGame::new(config)
            .map_err(|error| format!("bad board size: {error}"))?
            .position_text(),
    };
    // Comments go first: they may contain anything.
    let mut plain = String::new();
    let mut depth = 0usize;
    for character in movetext.chars() {
        match character {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(character),
            _ => {}
        }
    }
    let moves = plain
        .split_whitespace()
        .filter(|word| !matches!(*word, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .filter(|word| {
            let number = word.trim_end_matches('.');
            !(word.ends_with('.') && number.chars().all(|c| c.is_ascii_digit()))
        })
        .map(str::to_string)
        .collect();
    Ok((config, start, moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::record::{GameResult, OpeningRecord, Termination};

    fn record() -> MatchRecord {
        MatchRecord {
            game: 0,
            pair: 0,
            variant: "catchup".to_string(),
            size: 3,
            rule: "original".to_string(),
            engines: ["a".to_string(), "b".to_string()],
            white_engine: 0,
            white: "a".to_string(),
            black: "b".to_string(),
            opening: OpeningRecord {
                index: 0,
                position: "3/4/5/4/3 w 1".to_string(),
                moves: vec!["c3".to_string()],
            },
            moves: vec!["b2,a1".to_string(), "e1".to_string()],
            times_ms: vec![1, 1],
            result: GameResult::Unfinished,
            termination: Termination::Aborted,
            reason: "cut {short}".to_string(),
            final_position: String::new(),
            seed: 0,
            engine_seeds: [None, None],
            sprt: None,
        }
    }

    #[test]
    fn jsonl_and_pgn_give_the_same_game() {
        let from_json = read_game(&record().to_json_line()).expect("a record");
        assert_eq!(from_json.moves, ["c3", "a1,b2", "e1"]);
        assert_eq!(
            crate::game::CatchupRule::of(&from_json.config),
            crate::game::CatchupRule::Original
        );
        let from_pgn = read_game(&record().to_pgn(true)).expect("a PGN game");
        assert_eq!(from_pgn.moves, from_json.moves);
        assert_eq!(from_pgn.start, from_json.start);
    }

    #[test]
    fn a_bad_move_names_its_ply() {
        let mut bad = record();
        bad.moves[1] = "c3".to_string();
        let error = read_game(&bad.to_json_line()).expect_err("an occupied cell");
        assert!(error.contains("ply 3"), "{error}");
        assert!(read_game("hello").is_err());
        assert!(read_game("{\"game\": 1}").is_err());
        assert!(read_game("[Variant \"go\"]").is_err());
    }
}
