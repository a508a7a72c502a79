//! The seeds `tessera gui` gives its engines: one of its own per game (from `--seed`,
//! the game and the engine, as `tessera match` does) right before `uginewgame`, so a
//! strength level does not replay the answers of the last game; a seed the user sets
//! stands. The engine is the test engine, which logs every line it receives.

use std::path::{Path, PathBuf};

use serde_json::json;
use tessera::arena::schedule::{ENGINE_SEEDS, GameJob};

mod gui_support;

use gui_support::*;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-gui-seeds-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Plays the engine's first move (White, Catchup side 3) in `games` new games, then
/// returns the log of what the engine received.
fn play_first_moves(log: &Path, games: usize, extra_engine_words: &[&str]) -> String {
    let log_text = log.to_string_lossy().to_string();
    let mut arguments = vec![
        "--seed".to_string(),
        "5".to_string(),
        "--variant".to_string(),
        "catchup".to_string(),
        "--size".to_string(),
        "3".to_string(),
        "--engine".to_string(),
        format!("cmd={TESSERA}"),
        "arg=test-engine".to_string(),
        "arg=--seed-option".to_string(),
        "arg=--transcript".to_string(),
        format!("arg={log_text}"),
    ];
    arguments.extend(extra_engine_words.iter().map(|word| word.to_string()));
    let arguments: Vec<&str> = arguments.iter().map(String::as_str).collect();
    let gui = Gui::start(&arguments);
    for _ in 0..games {
        let reply = gui.post(
            "/api/new",
            json!({ "white": "engine0", "black": "human", "movetime": 50 }),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
        gui.wait_for("the engine's move", |state| moves_of(state).len() == 1);
    }
    drop(gui);
    std::fs::read_to_string(log).expect("the engine wrote its log")
}

/// The `Seed` values sent, each checked to come right before a `uginewgame`.
fn seeds_sent(log: &str) -> Vec<u64> {
    let lines: Vec<&str> = log.lines().collect();
    let mut seeds = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if let Some(value) = line.strip_prefix("setoption name Seed value ") {
            assert_eq!(lines.get(at + 1).copied(), Some("uginewgame"), "{log}");
            seeds.push(value.parse().expect("a whole number"));
        }
    }
    seeds
}

#[test]
fn each_game_gives_the_engine_a_seed_of_its_own_before_uginewgame() {
    let dir = scratch("own");
    let log = play_first_moves(&dir.join("engine.log"), 3, &[]);
    let seeds = seeds_sent(&log);
    let expected: Vec<u64> = (1..=3)
        .map(|game| GameJob::new(game).engine_seed(5, 0, ENGINE_SEEDS))
        .collect();
    assert_eq!(seeds, expected, "{log}");
    assert_eq!(log.lines().filter(|line| *line == "uginewgame").count(), 3);
    // The same `--seed` gives the same seeds again.
    let again = play_first_moves(&dir.join("again.log"), 3, &[]);
    assert_eq!(seeds_sent(&again), expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_seed_the_user_sets_stands() {
    let dir = scratch("user");
    let log = play_first_moves(&dir.join("engine.log"), 2, &["option.Seed=9"]);
    let seeds: Vec<&str> = log
        .lines()
        .filter(|line| line.starts_with("setoption name Seed"))
        .collect();
    assert_eq!(seeds, ["setoption name Seed value 9"], "{log}");
    assert_eq!(log.lines().filter(|line| *line == "uginewgame").count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}
