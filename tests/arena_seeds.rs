//! The seeds the runner gives engines: an engine that advertises `Seed` gets a seed of
//! its own for every game (before `uginewgame`), one that does not gets none, a seed the
//! user sets is kept, and the same match plays the same games at any concurrency.

mod arena_common;

use std::collections::HashSet;
use std::path::Path;

use arena_common::*;
use tessera::arena::record::MatchRecord;

/// Plays a Cheversi match between the two engines from the start position (every game
/// of the same colours starts alike) and returns its records in game order.
fn play(first: Vec<String>, second: Vec<String>, jsonl: &Path, extra: &[&str]) -> Vec<MatchRecord> {
    let mut engines = first;
    engines.extend(second);
    let output = run_match(&one_node_match(engines, "cheversi", jsonl, extra));
    assert!(output.status.success(), "{}", text(&output.stderr));
    let mut records = records(jsonl);
    records.sort_by_key(|record| record.game);
    for record in &records {
        replay(record);
    }
    records
}

/// The `Seed` values in an engine's log of received lines, each checked to come right
/// before a `uginewgame` (so the new game's stream starts from it).
fn seeds_sent(log: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(log).expect("the engine wrote its log");
    let lines: Vec<&str> = text.lines().collect();
    let mut seeds = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if let Some(value) = line.strip_prefix("setoption name Seed value ") {
            assert_eq!(
                lines.get(at + 1).copied(),
                Some("uginewgame"),
                "the seed comes right before the new game"
            );
            seeds.push(value.parse().expect("a whole number"));
        }
    }
    seeds
}

fn moves_of(records: &[MatchRecord], game: u64) -> &[String] {
    &records
        .iter()
        .find(|record| record.game == game)
        .expect("the game is recorded")
        .moves
}

#[test]
fn an_engine_with_a_seed_option_gets_one_per_game_and_one_without_gets_none() {
    let dir = scratch("seeds-per-game");
    let (seeded_log, plain_log) = (dir.join("seeded.log"), dir.join("plain.log"));
    let seeded = test_engine(
        "seeded",
        &[
            "--seed",
            "3",
            "--seed-option",
            "--transcript",
            &path_text(&seeded_log),
        ],
    );
    let plain = test_engine(
        "plain",
        &["--seed", "4", "--transcript", &path_text(&plain_log)],
    );
    let records = play(seeded, plain, &dir.join("games.jsonl"), &["--games", "6"]);
    assert_eq!(records.len(), 6);
    let sent = seeds_sent(&seeded_log);
    // One process plays every game in order, so the log holds the games' seeds in order.
    let recorded: Vec<u64> = records
        .iter()
        .map(|record| record.engine_seeds[0].expect("the seeded engine's seed is recorded"))
        .collect();
    assert_eq!(sent, recorded);
    assert_eq!(sent.iter().collect::<HashSet<_>>().len(), 6, "{sent:?}");
    assert!(seeds_sent(&plain_log).is_empty());
    assert!(
        records
            .iter()
            .all(|record| record.engine_seeds[1].is_none())
    );
    // The seeds reach the games: the games with the same colours from the same start
    // differ, where without seeds they would replay one another.
    for (one, other) in [(0, 2), (2, 4), (1, 3)] {
        assert_ne!(
            moves_of(&records, one),
            moves_of(&records, other),
            "games {one} and {other}"
        );
    }

    // The control: the same engines without the option replay the same game.
    let records = play(
        test_engine("seeded", &["--seed", "3"]),
        test_engine("plain", &["--seed", "4"]),
        &dir.join("control.jsonl"),
        &["--games", "6"],
    );
    assert!(
        records
            .iter()
            .all(|record| record.engine_seeds == [None, None])
    );
    assert_eq!(moves_of(&records, 0), moves_of(&records, 2));
    assert_eq!(moves_of(&records, 1), moves_of(&records, 5));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_seed_the_user_sets_is_kept() {
    let dir = scratch("seeds-user");
    let log = dir.join("fixed.log");
    let mut fixed = test_engine(
        "fixed",
        &["--seed-option", "--transcript", &path_text(&log)],
    );
    fixed.push("option.Seed=5".to_string());
    let plain = test_engine("plain", &["--seed", "4"]);
    let records = play(fixed, plain, &dir.join("games.jsonl"), &["--games", "6"]);
    assert!(
        records
            .iter()
            .all(|record| record.engine_seeds == [Some(5), None])
    );
    // Sent once with the options at the start, never replaced per game.
    assert_eq!(seeds_sent_anywhere(&log), [5]);
    assert_eq!(moves_of(&records, 0), moves_of(&records, 4));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every `Seed` value in the log, wherever it comes.
fn seeds_sent_anywhere(log: &Path) -> Vec<u64> {
    std::fs::read_to_string(log)
        .expect("the engine wrote its log")
        .lines()
        .filter_map(|line| line.strip_prefix("setoption name Seed value "))
        .map(|value| value.parse().expect("a whole number"))
        .collect()
}

#[test]
fn the_same_match_plays_the_same_games_at_any_concurrency() {
    let dir = scratch("seeds-repeat");
    let engines = || {
        (
            test_engine("alpha", &["--seed-option"]),
            test_engine("beta", &["--seed-option"]),
        )
    };
    let run = |name: &str, extra: &[&str]| {
        let (first, second) = engines();
        let mut arguments = vec!["--games", "8", "--random-plies", "2"];
        arguments.extend(extra);
        let records: Vec<MatchRecord> = play(first, second, &dir.join(name), &arguments)
            .into_iter()
            .map(|mut record| {
                record.times_ms.clear();
                record
            })
            .collect();
        records
    };
    let once = run("once.jsonl", &["--seed", "21"]);
    let again = run("again.jsonl", &["--seed", "21", "--concurrency", "3"]);
    assert_eq!(once, again);
    let all_seeds: HashSet<u64> = once
        .iter()
        .flat_map(|record| record.engine_seeds)
        .map(|seed| seed.expect("both engines take seeds"))
        .collect();
    assert_eq!(all_seeds.len(), 16, "a seed per game and engine");
    // Another match seed gives the engines other seeds.
    let other = run("other.jsonl", &["--seed", "22"]);
    for (one, two) in once.iter().zip(&other) {
        assert_ne!(one.engine_seeds, two.engine_seeds, "game {}", one.game);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
