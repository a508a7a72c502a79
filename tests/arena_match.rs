//! End-to-end matches through real processes: Tessera against itself in every variant,
//! records that parse back and replay legally, `--resume`, shards and `--merge`, opening
//! books, and command-line errors.

mod arena_common;

use std::collections::BTreeSet;

use arena_common::*;
use tessera::arena::record::Termination;
use tessera::game::Variant;

#[test]
fn tessera_against_itself_in_every_variant() {
    for variant in Variant::ALL {
        let dir = scratch(&format!("selfplay-{variant}"));
        let (jsonl, pgn) = (dir.join("games.jsonl"), dir.join("games.pgn"));
        let mut arguments = words(&[
            "--engine",
            &format!("cmd={BINARY}"),
            "name=one",
            "option.Seed=1",
        ]);
        arguments.extend(words(&[
            "--engine",
            &format!("cmd={BINARY}"),
            "name=two",
            "option.Seed=2",
        ]));
        arguments.extend(words(&[
            "--variant",
            variant.name(),
            "--games",
            "2",
            "--concurrency",
            "2",
            "--nodes",
            "200",
            "--random-plies",
            "2",
            "--seed",
            "11",
            "--max-plies",
            "120",
            "--jsonl",
            &path_text(&jsonl),
            "--pgn",
            &path_text(&pgn),
        ]));
        let output = run_match(&arguments);
        let stdout = text(&output.stdout);
        assert!(
            output.status.success(),
            "{variant}: {}\n{stdout}",
            text(&output.stderr)
        );
        assert!(stdout.contains("Games                 2 "), "{stdout}");
        let records = records(&jsonl);
        assert_eq!(records.len(), 2, "{variant}");
        for record in &records {
            assert!(
                matches!(
                    record.termination,
                    Termination::Normal | Termination::MaxPlies
                ),
                "{variant} game {}: {:?} {}",
                record.game,
                record.termination,
                record.reason
            );
            assert_eq!(record.opening.moves.len(), 2, "two random plies");
            let game = replay(record);
            if record.termination == Termination::Normal {
                assert!(game.is_over());
            }
        }
        // Both games of the pair start from the same opening, colours swapped.
        assert_eq!(records[0].opening, records[1].opening);
        assert_ne!(records[0].white_engine, records[1].white_engine);
        let pgn_games = parse_pgn(&std::fs::read_to_string(&pgn).expect("PGN written"));
        assert_eq!(pgn_games.len(), 2);
        for game in &pgn_games {
            let record = records
                .iter()
                .find(|record| (record.game + 1).to_string() == game.tag("Round").expect("Round"))
                .expect("same games in both files");
            let board = replay_pgn(game);
            assert_eq!(board.position_text(), record.final_position);
            assert_eq!(game.result, record.result.as_str());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn random_movers_in_every_variant_replay_legally() {
    for variant in Variant::ALL {
        let dir = scratch(&format!("random-{variant}"));
        let (jsonl, pgn) = (dir.join("games.jsonl"), dir.join("games.pgn"));
        let mut arguments = test_engine("one", &["--seed", "1"]);
        arguments.extend(test_engine("two", &["--seed", "2"]));
        arguments.extend(words(&[
            "--variant",
            variant.name(),
            "--games",
            "4",
            "--concurrency",
            "2",
            "--nodes",
            "1",
            "--random-plies",
            "1",
            "--max-plies",
            "300",
            "--jsonl",
            &path_text(&jsonl),
            "--pgn",
            &path_text(&pgn),
        ]));
        let output = run_match(&arguments);
        assert!(
            output.status.success(),
            "{variant}: {}",
            text(&output.stderr)
        );
        let records = records(&jsonl);
        assert_eq!(records.len(), 4, "{variant}");
        for record in &records {
            assert!(
                matches!(
                    record.termination,
                    Termination::Normal | Termination::MaxPlies
                ),
                "{variant} game {}: {}",
                record.game,
                record.reason
            );
            replay(record);
        }
        let pgn_games = parse_pgn(&std::fs::read_to_string(&pgn).expect("PGN written"));
        assert_eq!(pgn_games.len(), 4);
        for game in &pgn_games {
            let round: u64 = game.tag("Round").expect("Round").parse().expect("number");
            let record = records
                .iter()
                .find(|record| record.game + 1 == round)
                .expect("same games");
            assert_eq!(replay_pgn(game).position_text(), record.final_position);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Arguments for a quick test-engine match of Cheversi.
fn quick_match(jsonl: &std::path::Path, extra: &[&str]) -> Vec<String> {
    one_node_match(test_engine_pair(), "cheversi", jsonl, extra)
}

#[test]
fn resume_skips_recorded_games_and_repairs_a_cut_line() {
    let dir = scratch("resume");
    let jsonl = dir.join("games.jsonl");
    let first = run_match(&quick_match(
        &jsonl,
        &["--games", "4", "--random-plies", "3"],
    ));
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert_eq!(records(&jsonl).len(), 4);
    // Without --resume an existing file is not overwritten.
    let refused = run_match(&quick_match(&jsonl, &["--games", "4"]));
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("--resume"),
        "{}",
        text(&refused.stderr)
    );
    // Cut the last record in half, as a killed run would leave it.
    let content = std::fs::read_to_string(&jsonl).expect("readable");
    let cut = content.trim_end().len() - 40;
    std::fs::write(&jsonl, &content[..cut]).expect("writable");
    assert_eq!(records(&jsonl).len(), 3);
    let resumed = run_match(&quick_match(
        &jsonl,
        &["--games", "8", "--random-plies", "3", "--resume"],
    ));
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let all = records(&jsonl);
    let games: BTreeSet<u64> = all.iter().map(|record| record.game).collect();
    assert_eq!(all.len(), 8, "each game exactly once");
    assert_eq!(games, (0..8).collect());
    // The same seed gives the same openings: the replayed game 3 has game 2's opening.
    let opening = |game: u64| {
        &all.iter()
            .find(|record| record.game == game)
            .expect("present")
            .opening
    };
    assert_eq!(opening(2), opening(3));
    assert_ne!(opening(2), opening(4));
    assert!(
        text(&resumed.stdout).contains("Games                 8 "),
        "{}",
        text(&resumed.stdout)
    );
    // A different seed is another match.
    let mismatch = run_match(&quick_match(
        &jsonl,
        &["--games", "10", "--seed", "5", "--resume"],
    ));
    assert!(!mismatch.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_play_the_same_schedule_and_merge_to_the_whole() {
    let dir = scratch("shards");
    let whole = dir.join("whole.jsonl");
    let output = run_match(&quick_match(
        &whole,
        &["--games", "6", "--random-plies", "4", "--seed", "9"],
    ));
    assert!(output.status.success(), "{}", text(&output.stderr));
    let mut shard_files = Vec::new();
    for index in 1..=2 {
        let path = dir.join(format!("shard{index}.jsonl"));
        let shard = format!("{index}/2");
        let output = run_match(&quick_match(
            &path,
            &[
                "--games",
                "6",
                "--random-plies",
                "4",
                "--seed",
                "9",
                "--shard",
                &shard,
            ],
        ));
        assert!(output.status.success(), "{}", text(&output.stderr));
        shard_files.push(path);
    }
    let whole_records = records(&whole);
    let mut shard_records: Vec<_> = shard_files.iter().flat_map(|path| records(path)).collect();
    shard_records.sort_by_key(|record| record.game);
    assert_eq!(shard_records.len(), 6);
    for (a, b) in whole_records.iter().zip(&shard_records) {
        assert_eq!(
            (a.game, &a.opening),
            (b.game, &b.opening),
            "same opening for the same game"
        );
    }
    let mut arguments = words(&["--merge"]);
    arguments.extend(shard_files.iter().map(|path| path_text(path)));
    let merged = run_match(&arguments);
    let stdout = text(&merged.stdout);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert!(stdout.contains("Games                 6 "), "{stdout}");
    assert!(stdout.contains("; 3 pairs"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn opening_book_is_checked_and_played_in_order() {
    let dir = scratch("book");
    let book = dir.join("book.txt");
    std::fs::write(
        &book,
        "# two openings\n8/8/8/8/8/8/8/8 w - moves Ke4\n\nstartpos moves Kd4 Qd5\n",
    )
    .expect("writable");
    let jsonl = dir.join("games.jsonl");
    let output = run_match(&quick_match(
        &jsonl,
        &["--games", "6", "--openings", &path_text(&book)],
    ));
    assert!(output.status.success(), "{}", text(&output.stderr));
    let all = records(&jsonl);
    let first_moves: Vec<Vec<String>> = all
        .iter()
        .map(|record| record.opening.moves.clone())
        .collect();
    let a = vec!["Ke4".to_string()];
    let b = vec!["Kd4".to_string(), "Qd5".to_string()];
    assert_eq!(
        first_moves,
        [a.clone(), a.clone(), b.clone(), b, a.clone(), a]
    );
    for record in &all {
        replay(record);
    }
    // A bad line stops the match before it starts, naming the line.
    std::fs::write(&book, "startpos moves Ke4\nstartpos moves Qz9\n").expect("writable");
    let output = run_match(&quick_match(
        &dir.join("other.jsonl"),
        &["--openings", &path_text(&book)],
    ));
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("line 2"),
        "{}",
        text(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_the_match_when_a_bound_is_crossed() {
    let dir = scratch("sprt");
    let jsonl = dir.join("games.jsonl");
    let mut arguments = test_engine("good", &[]);
    arguments.extend(test_engine("bad", &["--mode", "illegal", "--after", "1"]));
    arguments.extend(words(&[
        "--variant",
        "cheversi",
        "--nodes",
        "1",
        "--games",
        "2000",
        "--concurrency",
        "2",
        "--sprt",
        "elo0=0",
        "elo1=5",
        "--jsonl",
        &path_text(&jsonl),
    ]));
    let output = run_match(&arguments);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let played = records(&jsonl).len();
    // Every pair is WW for the first engine: the normalised LLR passes 2.94 after about
    // 150 pairs, far before the 2000-game budget.
    assert!((100..1000).contains(&played), "{played} games played");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn command_line_errors_exit_with_failure() {
    let dir = scratch("cli");
    let jsonl = dir.join("games.jsonl");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (words(&["--games", "2"]), "--variant"),
        (
            {
                let mut arguments = test_engine("a", &[]);
                arguments.extend(words(&["--variant", "catchup", "--nodes", "1"]));
                arguments
            },
            "exactly twice",
        ),
        (
            quick_match(&jsonl, &["--nodes", "1"]),
            "cannot be used multiple times",
        ),
        (
            {
                let mut arguments = test_engine("a", &[]);
                arguments.extend(test_engine("b", &[]));
                arguments.extend(words(&["--variant", "catchup"]));
                arguments
            },
            "search limit",
        ),
        (quick_match(&jsonl, &["--tc", "fast"]), "fast"),
        (quick_match(&jsonl, &["--sprt", "elo0=5", "elo1=0"]), "elo0"),
        (quick_match(&jsonl, &["--shard", "3/2"]), "3/2"),
        (quick_match(&jsonl, &["--size", "12"]), "--size 12"),
    ];
    for (arguments, expected) in cases {
        let output = run_match(&arguments);
        assert!(!output.status.success(), "{arguments:?}");
        let stderr = text(&output.stderr);
        assert!(stderr.contains(expected), "{arguments:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Per-engine limit words replace the match-wide limits for that engine only: a slow
/// engine (300 ms a move) survives on its own `movetime=3000` while the match-wide
/// `--movetime 50` would flag it, and flags at once when its own limit is the short one.
#[test]
fn per_engine_limits_give_time_odds() {
    let dir = scratch("time-odds");
    let play = |name: &str, slow_limit: &str, match_movetime: &str| {
        let jsonl = dir.join(format!("{name}.jsonl"));
        let mut arguments = test_engine("quick", &["--seed", "1"]);
        arguments.extend(test_engine(
            "slow",
            &["--seed", "2", "--mode", "slow", "--delay-ms", "300"],
        ));
        arguments.push(slow_limit.to_string());
        arguments.extend(words(&[
            "--variant",
            "catchup",
            "--games",
            "2",
            "--max-plies",
            "4",
            "--movetime",
            match_movetime,
            "--grace",
            "5000",
            "--jsonl",
            &path_text(&jsonl),
        ]));
        let output = run_match(&arguments);
        assert!(output.status.success(), "{}", text(&output.stderr));
        records(&jsonl)
    };
    for record in play("generous", "movetime=3000", "50") {
        assert_eq!(
            record.termination,
            Termination::MaxPlies,
            "{}",
            record.reason
        );
    }
    for record in play("strict", "st=0.05", "3000") {
        assert_eq!(
            record.termination,
            Termination::TimeForfeit,
            "{}",
            record.reason
        );
        assert_ne!(record.result.as_str(), "1/2-1/2");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ponder` (here for both engines, from `--each`): after each move with a `ponder`
/// reply the engine gets the expected position and `go ponder`, then `ponderhit` when the
/// reply comes, else `stop` and the real position; the games stay legal and normal.
#[test]
fn pondering_engines_get_go_ponder_then_ponderhit_or_stop() {
    let dir = scratch("ponder");
    let jsonl = dir.join("games.jsonl");
    let mut arguments = words(&["--engine", &format!("cmd={BINARY}"), "name=one"]);
    arguments.extend(words(&["--engine", &format!("cmd={BINARY}"), "name=two"]));
    arguments.extend(words(&[
        "--each",
        "ponder",
        "--variant",
        "cheversi",
        "--games",
        "2",
        "--nodes",
        "3000",
        "--random-plies",
        "2",
        "--seed",
        "5",
        "--jsonl",
        &path_text(&jsonl),
    ]));
    let output = std::process::Command::new(BINARY)
        .arg("match")
        .args(&arguments)
        .env("RUST_LOG", "tessera::arena::engine=debug")
        .output()
        .expect("the binary runs");
    let log = text(&output.stderr);
    assert!(output.status.success(), "{log}");
    for record in records(&jsonl) {
        assert_eq!(record.termination, Termination::Normal, "{}", record.reason);
        replay(&record);
    }
    let sent = |what: &str| log.lines().filter(|line| line.contains(what)).count();
    assert!(sent("< setoption name Ponder value true") == 2, "{log}");
    let ponders = sent("< go ponder nodes 3000");
    let (hits, misses) = (sent("< ponderhit"), sent("< stop"));
    assert!(ponders >= 10, "{ponders} ponder searches");
    // Every ponder search ends with a hit, a miss or the end of its game.
    assert!(hits + misses <= ponders && ponders <= hits + misses + 2);
    assert!(hits > 0 && misses > 0, "{hits} hits, {misses} misses");
    let _ = std::fs::remove_dir_all(&dir);
}
