//! Misbehaving engines against a well-behaved one, through `tessera match`: each failure is
//! recorded with the right termination and counted as a loss for the engine at fault, the
//! runner never hangs, and the match finishes with exit status 0.

mod arena_common;

use arena_common::*;
use tessera::arena::record::{GameResult, MatchRecord, Termination};

/// Plays `games` games of Cheversi (16 plies at most) between a good test engine and one
/// in `mode` that misbehaves after its first move; returns the records.
fn match_against(
    name: &str,
    mode_arguments: &[&str],
    limits: &[&str],
    games: u64,
) -> (Vec<MatchRecord>, String) {
    let dir = scratch(name);
    let jsonl = dir.join("games.jsonl");
    let mut arguments = test_engine("good", &["--seed", "1"]);
    let mut bad = vec!["--mode"];
    bad.extend(mode_arguments);
    bad.extend(["--after", "1"]);
    arguments.extend(test_engine("bad", &bad));
    for word in [
        "--variant",
        "cheversi",
        "--games",
        &games.to_string(),
        "--jsonl",
        jsonl.to_str().expect("utf-8 path"),
    ] {
        arguments.push(word.to_string());
    }
    arguments.extend(limits.iter().map(|word| word.to_string()));
    if !limits.contains(&"--ready-timeout") {
        arguments.extend(["--ready-timeout".to_string(), "1000".to_string()]);
    }
    let output = run_match(&arguments);
    let stdout = text(&output.stdout);
    assert!(
        output.status.success(),
        "match failed: {}\n{stdout}",
        text(&output.stderr)
    );
    let records = records(&jsonl);
    let _ = std::fs::remove_dir_all(&dir);
    (records, stdout)
}

/// Every game was lost by `bad` with `termination`, and the table counts the failures.
fn assert_all_lost(records: &[MatchRecord], stdout: &str, termination: Termination, games: usize) {
    assert_eq!(records.len(), games, "every game is recorded");
    for record in records {
        assert_eq!(
            record.termination, termination,
            "game {}: {}",
            record.game, record.reason
        );
        let bad_is_white = record.white == "bad";
        assert_eq!(
            record.result,
            GameResult::loss_for(bad_is_white),
            "game {}",
            record.game
        );
        assert!(record.reason.starts_with("bad loses"), "{}", record.reason);
        // The moves before the failure were legal.
        replay(record);
    }
    assert!(
        stdout.contains(&format!(
            "Games                 {games} (W {games}, D 0, L 0)"
        )),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("good 0, bad {games}")), "{stdout}");
}

// Limits are generous for the well-behaved engine so that a loaded CI machine cannot make
// it fail too; the misbehaving engine overshoots them by far.
const NODES: &[&str] = &["--nodes", "10", "--move-timeout", "3000"];

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    let (records, stdout) = match_against("crash", &["crash"], NODES, 4);
    assert_all_lost(&records, &stdout, Termination::Crash, 4);
    // Restarted each time: every game got as far as the bad engine's second move.
    for record in &records {
        assert!(
            record.moves.len() >= 2,
            "game {} ended early: {}",
            record.game,
            record.reason
        );
    }
}

#[test]
fn hang_is_a_stall_within_the_move_timeout() {
    let started = std::time::Instant::now();
    let (records, stdout) = match_against(
        "hang",
        &["hang"],
        &["--nodes", "10", "--move-timeout", "1000"],
        2,
    );
    assert_all_lost(&records, &stdout, Termination::Stall, 2);
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}

#[test]
fn missing_readyok_is_a_stall() {
    let (records, stdout) = match_against(
        "hang-ready",
        &["hang-ready"],
        &["--nodes", "10", "--ready-timeout", "1000"],
        2,
    );
    assert_all_lost(&records, &stdout, Termination::Stall, 2);
    assert!(records.iter().all(|record| record.moves.is_empty()));
}

#[test]
fn illegal_move_loses() {
    let (records, stdout) = match_against("illegal", &["illegal"], NODES, 2);
    assert_all_lost(&records, &stdout, Termination::IllegalMove, 2);
}

#[test]
fn garbage_loses_as_an_illegal_move() {
    let (records, stdout) = match_against("garbage", &["garbage"], NODES, 2);
    assert_all_lost(&records, &stdout, Termination::IllegalMove, 2);
    assert!(records.iter().all(|record| record.reason.contains("#@!%")));
}

#[test]
fn slow_answers_forfeit_on_time() {
    let limits = ["--movetime", "50", "--timemargin", "250", "--grace", "3000"];
    let (records, stdout) = match_against("slow", &["slow", "--delay-ms", "1200"], &limits, 2);
    assert_all_lost(&records, &stdout, Termination::TimeForfeit, 2);
}

#[test]
fn slow_answers_forfeit_on_the_clock() {
    let limits = ["--tc", "1", "--timemargin", "100", "--grace", "3000"];
    let (records, stdout) =
        match_against("slow-clock", &["slow", "--delay-ms", "1500"], &limits, 2);
    assert_all_lost(&records, &stdout, Termination::TimeForfeit, 2);
}

#[test]
fn extra_tokens_break_the_protocol() {
    let (records, stdout) = match_against("extra", &["extra-tokens"], NODES, 2);
    assert_all_lost(&records, &stdout, Termination::MalformedBestmove, 2);
}

#[test]
fn a_ponder_suffix_is_allowed() {
    let (records, _) = match_against("ponder", &["ponder"], NODES, 2);
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_eq!(record.termination, Termination::Normal, "{}", record.reason);
        let game = replay(record);
        assert!(game.is_over());
    }
}

#[test]
fn no_recover_stops_the_match_after_a_crash() {
    let (records, stdout) = match_against(
        "no-recover",
        &["crash"],
        &["--nodes", "10", "--no-recover"],
        6,
    );
    assert!(
        !records.is_empty() && records.len() < 6,
        "{} games recorded",
        records.len()
    );
    assert!(
        records
            .iter()
            .all(|record| record.termination == Termination::Crash)
    );
    assert!(stdout.contains("Engine failures"), "{stdout}");
}
