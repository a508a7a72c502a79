//! `go` near the end of Cheversi: the engine tries the solver of `tessera solve`, plays a
//! proven best move and marks its score as proven (`info string proven cp N`); cut short
//! by a tiny time or by `stop`, it still answers with a legal move. And Catchup's proven
//! results (the MCTS-solver) come as `score mate N` through the protocol.

use std::sync::atomic::Ordering;

use tessera::game::cheversi::Cheversi;
use tessera::game::{Rules, Variant};
use tessera::protocol::job::Job;
use tessera::protocol::{Session, Step};
use tessera::search::rng;
use tessera::solve::cheversi::CheversiState;
use tessera::solve::driver::{self, Settings};
use tessera::solve::search::Shared;

fn lines(step: &Step) -> Vec<String> {
    step.responses.iter().map(ToString::to_string).collect()
}

/// Sends `line`, runs the job it starts to its end and returns every reply.
fn go(session: &mut Session, line: &str) -> Vec<String> {
    let job = session.handle_line(line).job.expect("go starts a search");
    replies_of(session, job)
}

/// Sends `line` and runs the job it starts, if any (a setup: the engine's table is
/// cleared or allocated off the command loop); returns every reply.
fn send(session: &mut Session, line: &str) -> Vec<String> {
    let step = session.handle_line(line);
    let mut replies = lines(&step);
    if let Some(job) = step.job {
        replies.extend(replies_of(session, job));
    }
    replies
}

fn replies_of(session: &mut Session, job: Job) -> Vec<String> {
    let mut events = Vec::new();
    job.run(&mut |event| events.push(event));
    let mut replies = Vec::new();
    for event in events {
        let step = session.job_event(event);
        replies.extend(lines(&step));
    }
    replies
}

fn best_move(replies: &[String]) -> String {
    let found: Vec<&str> = replies
        .iter()
        .filter_map(|line| line.strip_prefix("bestmove "))
        .collect();
    assert_eq!(found.len(), 1, "{replies:?}");
    found[0].to_string()
}

/// The solver's exact margin for the side to move, from a fresh table.
fn solved(position: &Cheversi) -> i32 {
    let shared = Shared::new(16);
    driver::solve(
        &CheversiState::new(position.clone()),
        &Settings::default(),
        &shared,
        None,
    )
    .value
}

/// A position `left` placements before the end, by seeded random play; with its moves.
fn random_line(seed: u64, left: u8) -> (Cheversi, Vec<String>) {
    let mut rng = rng::seeded(seed);
    let mut position = Cheversi::new();
    let mut texts = Vec::new();
    let mut moves = Vec::new();
    while position.placements() < 16 - left {
        position.legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len())];
        texts.push(position.move_text(mv));
        position.play_unchecked(mv);
    }
    (position, texts)
}

fn position_line(texts: &[String]) -> String {
    format!("position startpos moves {}", texts.join(" "))
}

#[test]
fn go_near_the_end_plays_a_move_of_the_solvers_value_and_marks_it_proven() {
    for seed in 0..4 {
        let (position, texts) = random_line(seed, 6);
        let value = solved(&position);
        let mut session = Session::new();
        assert!(lines(&session.handle_line(&position_line(&texts))).is_empty());
        let replies = go(&mut session, "go nodes 50000000");
        let proven = format!("info string proven cp {}", 100 * value);
        assert!(replies.contains(&proven), "seed {seed}: {replies:?}");
        let score_line = replies
            .iter()
            .find(|line| line.starts_with("info depth 6 "))
            .expect("the solver's info line");
        assert!(
            score_line.contains(&format!(" score cp {} ", 100 * value)),
            "{score_line}"
        );
        let played = best_move(&replies);
        let mut child = position.clone();
        child
            .play(position.parse_move(&played).expect("a legal move"))
            .expect("a legal move");
        assert_eq!(
            -solved(&child),
            value,
            "seed {seed}: {played} is not a best move"
        );
    }
}

#[test]
fn a_tiny_time_or_a_stop_still_gives_a_legal_move() {
    for (left, go_line) in [
        (6, "go movetime 1"),
        (10, "go movetime 1"),
        (12, "go nodes 1"),
    ] {
        let (position, texts) = random_line(7, left);
        let mut session = Session::new();
        assert!(lines(&session.handle_line(&position_line(&texts))).is_empty());
        let played = best_move(&go(&mut session, go_line));
        assert!(
            position.parse_move(&played).is_ok(),
            "{left} left: {played}"
        );
    }
    // A solve that `stop` cuts short (the whole game is in the exact window here, and
    // 14 placements before the end no solve finishes in time) answers at once.
    let (position, texts) = random_line(8, 14);
    let mut session = Session::new();
    assert!(lines(&session.handle_line("setoption name ExactPlies value 16")).is_empty());
    assert!(lines(&session.handle_line(&position_line(&texts))).is_empty());
    let job = session
        .handle_line("go infinite")
        .job
        .expect("go starts a search");
    let Job::Search(search) = &job else {
        panic!("go starts a search job");
    };
    search.stop.store(true, Ordering::Relaxed);
    let replies = replies_of(&mut session, job);
    assert!(
        replies.iter().all(|line| !line.contains("proven")),
        "{replies:?}"
    );
    assert!(lines(&session.handle_line("stop")).iter().any(|line| {
        line.strip_prefix("bestmove ")
            .is_some_and(|played| position.parse_move(played).is_ok())
    }));
}

#[test]
fn the_solver_is_off_with_exact_plies_zero_and_in_depth_searches() {
    let (_, texts) = random_line(3, 4);
    for setup in ["setoption name ExactPlies value 0", "isready"] {
        let mut session = Session::new();
        session.handle_line(setup);
        assert!(lines(&session.handle_line(&position_line(&texts))).is_empty());
        let go_line = if setup.starts_with("isready") {
            "go depth 3"
        } else {
            "go nodes 100000"
        };
        let replies = go(&mut session, go_line);
        assert!(
            replies.iter().all(|line| !line.contains("proven")),
            "{replies:?}"
        );
        best_move(&replies);
    }
}

#[test]
fn catchup_reports_a_proven_result_as_score_mate() {
    // Side 2 (7 cells) is solved by the MCTS-solver within a few thousand simulations:
    // the first player wins (`tessera solve --variant catchup --size 2` proves it).
    let mut session = Session::new();
    send(
        &mut session,
        &format!("setoption name UCI_Variant value {}", Variant::Catchup),
    );
    send(&mut session, "setoption name BoardSize value 2");
    assert!(lines(&session.handle_line("position startpos")).is_empty());
    let replies = go(&mut session, "go nodes 200000");
    let last_info = replies
        .iter()
        .rev()
        .find(|line| line.starts_with("info depth"))
        .expect("an info line");
    assert!(last_info.contains(" score mate "), "{replies:?}");
    let moves: i32 = last_info
        .split_whitespace()
        .skip_while(|word| *word != "mate")
        .nth(1)
        .and_then(|word| word.parse().ok())
        .expect("a mate distance");
    assert!(moves > 0, "the first player wins: {last_info}");
}

/// Every root move's exact value for the side to move, 100 per point, as `tessera solve
/// --all` gives them (in the rules' move order), from a fresh table.
fn solved_each(position: &Cheversi) -> Vec<(String, i32)> {
    let settings = Settings {
        all: true,
        ..Settings::default()
    };
    driver::solve(
        &CheversiState::new(position.clone()),
        &settings,
        &Shared::new(16),
        None,
    )
    .moves
    .into_iter()
    .map(|(mv, value)| (position.move_text(mv), 100 * value))
    .collect()
}

/// With several lines (`MultiPV`), near the end each line carries its own move's exact
/// value, that of `tessera solve --all`, followed by its proven marker; the lines are the
/// best moves, best first, and `bestmove` is line 1's.
#[test]
fn near_the_end_each_line_carries_its_moves_exact_value() {
    for seed in 0..3 {
        let (position, texts) = random_line(20 + seed, 6);
        let mut expected = solved_each(&position);
        let mut session = Session::new();
        send(&mut session, "setoption name MultiPV value 5");
        assert!(lines(&session.handle_line(&position_line(&texts))).is_empty());
        let replies = go(&mut session, "go nodes 50000000");
        let mut found = Vec::new();
        for (index, line) in replies.iter().enumerate() {
            let Some(rest) = line.strip_prefix("info depth 6 seldepth 6 multipv ") else {
                continue;
            };
            let words: Vec<&str> = rest.split_whitespace().collect();
            let rank: usize = words[0].parse().expect("a rank");
            assert_eq!(words[1..3], ["score", "cp"], "{line}");
            let value: i32 = words[3].parse().expect("a score");
            let mv = words.last().expect("a move").to_string();
            assert_eq!(rank, found.len() + 1, "{replies:?}");
            assert_eq!(
                replies.get(index + 1),
                Some(&format!("info string proven cp {value}")),
                "each line is marked"
            );
            found.push((mv, value));
        }
        assert_eq!(
            found.len(),
            5.min(expected.len()),
            "seed {seed}: {replies:?}"
        );
        for (mv, value) in &found {
            let exact = expected.iter().find(|(other, _)| other == mv);
            assert_eq!(
                exact.map(|(_, exact)| exact),
                Some(value),
                "seed {seed}: {mv}"
            );
        }
        expected.sort_by_key(|&(_, value)| std::cmp::Reverse(value));
        let best_values: Vec<i32> = expected.iter().take(found.len()).map(|(_, v)| *v).collect();
        let values: Vec<i32> = found.iter().map(|(_, value)| *value).collect();
        assert_eq!(
            values, best_values,
            "seed {seed}: the best moves, best first"
        );
        assert_eq!(best_move(&replies), found[0].0);
    }
}
