//! perft from the data files `tests/data/perft/<game>.txt`, for any game (an added one
//! too: its facts name its parameters).
//!
//! Each non-comment line is `<options> | <position> | <depth>:<count> ...` where options
//! are `-` or space-separated `size=N` and `<flag>=<value>` for a game parameter by its
//! command-line flag (`rule=original`), and the position is `startpos` or a position
//! string. Every count is checked with bulk counting; counts up to two million are
//! checked again playing every leaf move, so bulk counting and real make-move agree.

#![allow(dead_code)]

use std::path::Path;

use tessera::game::{GameConfig, Variant};
use tessera::registry::AnyGame;

/// Counts above this are only checked with bulk counting (keeps the suite fast).
const PLAYED_LEAF_LIMIT: u64 = 2_000_000;

struct Case {
    line_number: usize,
    game: AnyGame,
    expected: Vec<(u32, u64)>,
}

fn load(variant: Variant) -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/perft")
        .join(format!("{}.txt", variant.name()));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(fields.len(), 3, "line {}: expected 3 fields", index + 1);
        let mut config = GameConfig::new(variant);
        for option in fields[0].split_whitespace().filter(|option| *option != "-") {
            let unknown = || panic!("line {}: unknown option {option}", index + 1);
            match option.split_once('=') {
                Some(("size", value)) => config.size = Some(value.parse().expect("size")),
                Some((flag, value)) => {
                    let facts = variant.facts();
                    let Some(parameter) = facts.parameters.iter().find(|p| p.flag == flag) else {
                        unknown()
                    };
                    config
                        .set_parameter(parameter.option, value)
                        .unwrap_or_else(|error| panic!("line {}: {error}", index + 1));
                }
                None => unknown(),
            }
        }
        let game = if fields[1] == "startpos" {
            AnyGame::new(config)
        } else {
            AnyGame::from_position_text(config, fields[1])
        }
        .unwrap_or_else(|error| panic!("line {}: {error}", index + 1));
        let expected = fields[2]
            .split_whitespace()
            .map(|pair| {
                let (depth, count) = pair.split_once(':').expect("depth:count");
                (depth.parse().expect("depth"), count.parse().expect("count"))
            })
            .collect();
        cases.push(Case {
            line_number: index + 1,
            game,
            expected,
        });
    }
    assert!(!cases.is_empty(), "no perft cases for {variant}");
    cases
}

pub fn check(variant: Variant) {
    for case in load(variant) {
        for &(depth, count) in &case.expected {
            assert_eq!(
                case.game.perft(depth, true),
                count,
                "{variant} line {} depth {depth} (bulk)",
                case.line_number
            );
            if count <= PLAYED_LEAF_LIMIT {
                assert_eq!(
                    case.game.perft(depth, false),
                    count,
                    "{variant} line {} depth {depth} (every leaf played)",
                    case.line_number
                );
            }
        }
    }
}
