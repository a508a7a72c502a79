//! `tessera solve`: the solver's values against a plain minimax over the engine's rules
//! (every position of Catchup side 2, random positions near the end of Catchup side 3 and
//! Cheversi), checkpoints that resume to the same answer, and proofs that the checker
//! accepts, and refuses once one move is changed.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use tessera::game::catchup::Catchup;
use tessera::game::cheversi::Cheversi;
use tessera::game::{CatchupRule, GameConfig, Player, Rules, Variant};
use tessera::random::SplitMix64;
use tessera::solve::catchup::CatchupState;
use tessera::solve::checkpoint::{self, Header};
use tessera::solve::cheversi::CheversiState;
use tessera::solve::driver::{self, Question, Settings};
use tessera::solve::proof;
use tessera::solve::search::{Shared, Solvable, Worker};

/// Plain minimax over the engine's rules: Catchup's result for the side to move.
fn catchup_minimax(position: &Catchup, memo: &mut HashMap<String, i32>) -> i32 {
    if let Some(outcome) = position.outcome() {
        return outcome.value_for(position.side_to_move());
    }
    let text = position.position_text();
    if let Some(&value) = memo.get(&text) {
        return value;
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let value = moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            -catchup_minimax(&child, memo)
        })
        .max()
        .expect("a running game has moves");
    memo.insert(text, value);
    value
}

/// Plain minimax over the engine's rules: Cheversi's final margin for the side to move.
fn cheversi_minimax(position: &Cheversi) -> i32 {
    let mover = position.side_to_move();
    if position.outcome().is_some() {
        return position.points(mover) - position.points(mover.opponent());
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            -cheversi_minimax(&child)
        })
        .max()
        .expect("a running game has moves")
}

/// The solver's value with a full window (exact for both games).
fn solver_value<G: Solvable>(shared: &Shared, position: &G) -> i32 {
    let mut worker = Worker::new(shared, 0);
    let bound = position.value_bound();
    worker.search(position, -bound - 1, bound + 1, 0)
}

fn catchup(side: usize, rule: CatchupRule) -> Catchup {
    Catchup::start(&rule.chosen_in(GameConfig {
        size: Some(side),
        ..GameConfig::new(Variant::Catchup)
    }))
    .expect("a start position")
}

/// Every position reachable from `position`, by position text.
fn every_position(position: &Catchup, seen: &mut HashMap<String, Catchup>) {
    if seen.contains_key(&position.position_text()) {
        return;
    }
    seen.insert(position.position_text(), position.clone());
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    for mv in moves {
        let mut child = position.clone();
        child.play_unchecked(mv);
        every_position(&child, seen);
    }
}

#[test]
fn catchup_side_2_every_position_matches_minimax_under_both_rules() {
    for rule in [CatchupRule::Original, CatchupRule::Revised] {
        let mut positions = HashMap::new();
        every_position(&catchup(2, rule), &mut positions);
        let shared = Shared::new(16);
        let mut memo = HashMap::new();
        for position in positions.values() {
            let state = CatchupState::from_game(position).expect("side 2");
            let expected = catchup_minimax(position, &mut memo);
            assert_eq!(
                solver_value(&shared, &state),
                expected,
                "{} ({rule:?})",
                position.position_text()
            );
            assert_eq!(Worker::new(&shared, 0).sign(&state), expected.signum());
        }
        assert!(positions.len() > 1000, "{} positions", positions.len());
    }
}

/// A random position of `game` after random moves until at most `left` remain.
fn random_catchup(rng: &mut SplitMix64, side: usize, rule: CatchupRule, empty: usize) -> Catchup {
    let mut position = catchup(side, rule);
    let mut moves = Vec::new();
    while position.empty_count() > empty {
        position.legal_moves(&mut moves);
        position.play_unchecked(moves[rng.below(moves.len())]);
    }
    position
}

#[test]
fn catchup_side_3_near_the_end_matches_minimax() {
    let mut rng = SplitMix64::new(18);
    for round in 0..12 {
        let rule = if round % 2 == 0 {
            CatchupRule::Original
        } else {
            CatchupRule::Revised
        };
        let position = random_catchup(&mut rng, 3, rule, 7);
        let shared = Shared::new(8);
        let state = CatchupState::from_game(&position).expect("side 3");
        let expected = catchup_minimax(&position, &mut HashMap::new());
        assert_eq!(
            solver_value(&shared, &state),
            expected,
            "{}",
            position.position_text()
        );
    }
}

/// A random Cheversi position `left` placements before the end.
fn random_cheversi(rng: &mut SplitMix64, left: u8) -> Cheversi {
    let mut position = Cheversi::new();
    let mut moves = Vec::new();
    while position.placements() < 16 - left {
        position.legal_moves(&mut moves);
        position.play_unchecked(moves[rng.below(moves.len())]);
    }
    position
}

#[test]
fn cheversi_near_the_end_matches_minimax_margin_and_sign() {
    let mut rng = SplitMix64::new(16);
    for round in 0..12 {
        let left = 3 + (round % 2) as u8;
        let position = random_cheversi(&mut rng, left);
        let expected = cheversi_minimax(&position);
        let shared = Shared::new(8);
        let state = CheversiState::new(position.clone());
        assert_eq!(solver_value(&shared, &state), expected, "{position:?}");
        let mut worker = Worker::new(&shared, 0);
        assert_eq!(worker.exact(&state, 0), Some(expected));
        assert_eq!(worker.sign(&state), expected.signum());
        let solution = driver::solve(&state, &Settings::default(), &shared, None);
        assert_eq!(solution.value, expected);
        let best = solution.best.expect("a best move");
        let mut child = position.clone();
        child.play(best).expect("a legal best move");
        assert_eq!(
            -cheversi_minimax(&child),
            expected,
            "the best move keeps the value"
        );
    }
}

/// MTD(f) from the guess (from 8 placements before the end, the value of the evaluation
/// search a placement short of the end) reaches the value MTD(f) reaches from 0 on a
/// fresh table, and the solve's best move keeps it. Positions too far from the end for
/// plain minimax: the null-window search under both is checked against minimax above.
#[test]
fn cheversi_exact_from_the_guess_equals_exact_from_zero() {
    let mut rng = SplitMix64::new(88);
    for left in [8, 9] {
        let position = random_cheversi(&mut rng, left);
        let state = CheversiState::new(position.clone());
        let expected = Worker::new(&Shared::new(16), 0).exact(&state, 0);
        let shared = Shared::new(16);
        assert_eq!(
            Worker::new(&shared, 0).exact_from_guess(&state),
            expected,
            "{position:?}"
        );
        let solution = driver::solve(&state, &Settings::default(), &Shared::new(16), None);
        assert_eq!(Some(solution.value), expected, "{position:?}");
        let mut child = position.clone();
        child
            .play(solution.best.expect("a best move"))
            .expect("a legal best move");
        let child_value = Worker::new(&Shared::new(16), 0).exact(&CheversiState::new(child), 0);
        assert_eq!(child_value.map(|value| -value), expected, "{position:?}");
    }
}

/// From 8 placements before the end the guess is the evaluation search's value a
/// placement short of the end, and it lies near the exact value: on these 12 positions
/// (as on the 17 of `protocol.md` 10 placements before the end) it is exact or a point
/// off, so MTD(f) needs about the two windows that prove the value.
#[test]
fn cheversi_guess_lies_near_the_exact_value() {
    let mut rng = SplitMix64::new(1234);
    let stop = AtomicBool::new(false);
    let mut errors = Vec::new();
    for round in 0..12 {
        let left = 8 + (round % 2) as u8;
        let state = CheversiState::new(random_cheversi(&mut rng, left));
        let exact = Worker::new(&Shared::new(16), 0)
            .exact(&state, 0)
            .expect("not stopped");
        errors.push((state.guess(&stop) - exact).abs());
    }
    let exact = errors.iter().filter(|&&error| error == 0).count();
    assert!(
        exact >= 6 && errors.iter().all(|&error| error <= 1),
        "{errors:?}"
    );
}

/// Two threads (sharing the table, each putting off the children the other is searching)
/// reach the value one thread reaches, and their best move keeps it.
fn assert_two_threads_reach_the_value_of_one<G: Solvable>(state: &G, name: &str) {
    let two = Settings {
        threads: 2,
        ..Settings::default()
    };
    let one = driver::solve(state, &Settings::default(), &Shared::new(16), None);
    let solution = driver::solve(state, &two, &Shared::new(16), None);
    assert_eq!(solution.value, one.value, "{name}");
    let best = solution.best.expect("a best move");
    let mut children = Vec::new();
    state.children(&mut children);
    let child = children
        .iter()
        .find(|child| child.mv == best)
        .expect("a legal best move");
    let child_value = Worker::new(&Shared::new(16), 0).exact(&child.position, 0);
    assert_eq!(child_value.map(|value| -value), Some(one.value), "{name}");
}

/// A root the table answers at once names no best move: a worker that solved another
/// position first, then solves one whose value the shared table already holds, must not
/// report the other position's move (the driver then finds a proven move itself).
#[test]
fn a_root_answered_by_the_table_keeps_no_move_of_another_search() {
    let mut rng = SplitMix64::new(2719);
    let shared = Shared::new(16);
    let first = CheversiState::new(random_cheversi(&mut rng, 7));
    let second = CheversiState::new(random_cheversi(&mut rng, 7));
    let value = Worker::new(&shared, 0)
        .exact(&second, 0)
        .expect("not stopped");
    let mut worker = Worker::new(&shared, 0);
    worker.exact(&first, 0).expect("not stopped");
    assert!(worker.root_best.is_some(), "a searched root names its move");
    assert_eq!(worker.exact(&second, value), Some(value));
    assert_eq!(
        worker.root_best, None,
        "a move of the position solved before"
    );
}

/// Cheversi 8 and 9 placements before the end.
#[test]
fn cheversi_two_threads_reach_the_value_of_one() {
    let mut rng = SplitMix64::new(2718);
    for left in [8, 8, 8, 9, 9, 9] {
        let position = random_cheversi(&mut rng, left);
        let state = CheversiState::new(position.clone());
        assert_two_threads_reach_the_value_of_one(&state, &position.position_text());
    }
}

/// Catchup side 3 with 14 to 16 empty cells (nodes from 12 empty cells up are marked
/// while two threads search), under both rules.
#[test]
fn catchup_two_threads_reach_the_value_of_one() {
    let mut rng = SplitMix64::new(1414);
    for round in 0..6 {
        let rule = [CatchupRule::Original, CatchupRule::Revised][round % 2];
        let position = random_catchup(&mut rng, 3, rule, 14 + round % 3);
        let state = CatchupState::from_game(&position).expect("side 3");
        assert_two_threads_reach_the_value_of_one(&state, &position.position_text());
    }
}

/// Null and narrow windows around the true value, searched in turn by one worker (so the
/// table's moves and the killers of earlier searches are tried first, as in MTD(f)):
/// every fail-soft answer must bound the value on the right side, and answers inside the
/// window must be exact. Covers the shortcut of the last two placements (its skipped
/// candidates) and the moves tried before the children are generated.
#[test]
fn cheversi_windows_near_the_end_give_sound_fail_soft_bounds() {
    let mut rng = SplitMix64::new(1618);
    for round in 0..40 {
        let left = match round % 8 {
            7 => 4,
            3 | 5 => 3,
            _ => 2,
        };
        let position = random_cheversi(&mut rng, left);
        let expected = cheversi_minimax(&position);
        let shared = Shared::new(8);
        let state = CheversiState::new(position.clone());
        let mut worker = Worker::new(&shared, 0);
        for offset in [-6, -3, -1, 0, 1, 2, 4, 7] {
            let beta = expected + offset;
            let value = worker.search(&state, beta - 1, beta, 0);
            assert_fail_soft(value, beta, expected, &position);
            let (alpha, beta) = (expected - 2 + offset, expected + 2 + offset);
            let value = worker.search(&state, alpha, beta, 0);
            if value <= alpha {
                assert!(value >= expected, "{position:?} ({alpha}, {beta}): {value}");
            } else if value >= beta {
                assert!(value <= expected, "{position:?} ({alpha}, {beta}): {value}");
            } else {
                assert_eq!(value, expected, "{position:?} ({alpha}, {beta})");
            }
        }
        assert_eq!(worker.sign(&state), expected.signum(), "{position:?}");
        assert_eq!(Worker::new(&shared, 0).exact(&state, 3), Some(expected));
    }
}

/// Black's 7th placement, three placements left, searched by one worker for every White
/// 7th placement in turn: the siblings share the square facts of the board without
/// White's 7th piece (and the killer), which must never change a value or put a
/// fail-soft bound on the wrong side.
#[test]
fn cheversi_siblings_sharing_square_facts_give_minimax_bounds() {
    let mut rng = SplitMix64::new(2718);
    for _ in 0..40 {
        let position = random_cheversi(&mut rng, 4);
        let shared = Shared::new(8);
        let mut worker = Worker::new(&shared, 0);
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        for offset in -3..=3 {
            for &mv in &moves {
                let mut child = position.clone();
                child.play_unchecked(mv);
                let expected = cheversi_minimax(&child);
                let state = CheversiState::new(child.clone());
                let beta = expected + offset;
                let value = worker.search(&state, beta - 1, beta, 1);
                assert_fail_soft(value, beta, expected, &child);
            }
        }
    }
}

fn header(position: &str) -> Header {
    Header {
        variant: "cheversi".into(),
        size: 8,
        rule: "revised".into(),
        position: position.into(),
    }
}

#[test]
fn a_solve_resumed_from_a_checkpoint_reaches_the_same_answer_with_less_work() {
    let mut rng = SplitMix64::new(7);
    let position = random_cheversi(&mut rng, 6);
    let state = CheversiState::new(position.clone());
    let fresh = Shared::new(16);
    let expected = driver::solve(&state, &Settings::default(), &fresh, None);
    let fresh_nodes = fresh.nodes.load(std::sync::atomic::Ordering::Relaxed);

    // A run "killed" part way: it solved only some of the root's moves before its last
    // checkpoint.
    let partial = Shared::new(16);
    let mut children = Vec::new();
    state.children(&mut children);
    let mut worker = Worker::new(&partial, 0);
    for child in children.iter().take(children.len() / 2) {
        worker.exact(&child.position, 0);
    }
    let directory = std::env::temp_dir().join(format!("tessera-solve-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("temporary directory");
    let path = directory.join("resume.checkpoint");
    let text = position.position_text();
    let written = checkpoint::write(&path, &header(&text), &partial.table).expect("written");
    assert_eq!(written as u64, partial.table.stored());

    let resumed = Shared::new(16);
    let read = checkpoint::read(&path, &header(&text), &resumed.table).expect("the same position");
    assert_eq!(read, written);
    let answer = driver::solve(&state, &Settings::default(), &resumed, None);
    assert_eq!(answer.value, expected.value);
    let resumed_nodes = resumed.nodes.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        resumed_nodes < fresh_nodes,
        "resumed {resumed_nodes} nodes, fresh {fresh_nodes}"
    );
    let other = random_cheversi(&mut rng, 6).position_text();
    assert!(checkpoint::read(&path, &header(&other), &Shared::new(1).table).is_err());
    std::fs::remove_dir_all(&directory).ok();
}

/// A proof of `state`'s value (sign only for Catchup) as the CLI writes it.
fn proof_text<G: Solvable, R: Rules>(
    state: &G,
    game: &R,
    config: &GameConfig,
    sign: bool,
) -> String {
    let shared = Shared::new(16);
    let settings = Settings {
        question: if sign {
            Question::Sign
        } else {
            Question::Exact
        },
        ..Settings::default()
    };
    let solution = driver::solve(state, &settings, &shared, None);
    let claims = tessera::solve::proof_claims(game.side_to_move(), solution.value, sign);
    let mut text = proof::header(config, &game.position_text());
    text.push_str(&proof::strategies(state, game, &claims, &shared));
    text
}

#[test]
fn a_proof_passes_the_checker_and_fails_with_one_move_changed() {
    let config = CatchupRule::Original.chosen_in(GameConfig {
        size: Some(2),
        ..GameConfig::new(Variant::Catchup)
    });
    let start = catchup(2, CatchupRule::Original);
    let state = CatchupState::from_game(&start).expect("side 2");
    let text = proof_text(&state, &start, &config, true);
    let (_, claims) = proof::check(&text).expect("a valid proof");
    assert_eq!(claims.len(), 1);
    assert_eq!((claims[0].player, claims[0].at_least), (Player::One, 1));
    // White's first stone: the winning centre b2 replaced by the corner a1.
    let first = format!("b2 {}", start.position_text());
    assert!(text.lines().any(|line| line == first), "{text}");
    let changed = text.replace(&first, &format!("a1 {}", start.position_text()));
    assert!(proof::check(&changed).is_err());
    // A proof cut short is refused too.
    assert!(proof::check(&text[..text.len() - 4]).is_err());

    let mut rng = SplitMix64::new(3);
    let position = random_cheversi(&mut rng, 4);
    let state = CheversiState::new(position.clone());
    let config = GameConfig::new(Variant::Cheversi);
    let text = proof_text(&state, &position, &config, false);
    let (_, claims) = proof::check(&text).expect("a valid Cheversi proof");
    let value = cheversi_minimax(&position);
    let mover = position.side_to_move();
    assert_eq!(
        claims
            .iter()
            .map(|claim| (claim.player, claim.at_least))
            .collect::<Vec<_>>(),
        vec![(mover, value), (mover.opponent(), -value)]
    );
}

/// `at_least` (`tessera solve --at-least T`) answers with proven bounds on the right side
/// of the threshold, for the root and, with `all`, for every root move; a lower bound's
/// move reaches it; and the bound's proof passes the checker.
#[test]
fn cheversi_at_least_answers_with_bounds_on_the_right_side_of_the_threshold() {
    let mut rng = SplitMix64::new(61);
    let config = GameConfig::new(Variant::Cheversi);
    for round in 0..12 {
        let position = random_cheversi(&mut rng, 3 + (round % 2) as u8);
        let expected = cheversi_minimax(&position);
        let state = CheversiState::new(position.clone());
        // Also thresholds past every value (the search's windows must stay inside them).
        for threshold in [expected - 1, expected, expected + 1, -1000, 1000] {
            for all in [false, true] {
                let settings = Settings {
                    question: Question::AtLeast(threshold),
                    all,
                    ..Settings::default()
                };
                let shared = Shared::new(8);
                let solution = driver::solve(&state, &settings, &shared, None);
                assert_fail_soft(solution.value, threshold, expected, &position);
                for &(mv, value) in &solution.moves {
                    let mut child = position.clone();
                    child.play(mv).expect("a legal root move");
                    assert_fail_soft(value, threshold, -cheversi_minimax(&child), &position);
                }
                assert_eq!(solution.moves.is_empty(), !all);
                let best = solution.best.expect("a move");
                let mut child = position.clone();
                child.play(best).expect("a legal best move");
                if solution.value >= threshold {
                    assert!(-cheversi_minimax(&child) >= solution.value, "{position:?}");
                }
                let claims = tessera::solve::bound_claims(
                    position.side_to_move(),
                    solution.value,
                    threshold,
                );
                let mut text = proof::header(&config, &position.position_text());
                text.push_str(&proof::strategies(&state, &position, &claims, &shared));
                let (_, checked) = proof::check(&text).expect("a valid proof of the bound");
                assert_eq!(
                    checked
                        .iter()
                        .map(|claim| (claim.player, claim.at_least))
                        .collect::<Vec<_>>(),
                    claims
                );
            }
        }
    }
}

/// A null-window result at `beta` is a fail-soft bound on the right side of the exact
/// value: at most the value when it fails high, at least it when it fails low.
fn assert_fail_soft(value: i32, beta: i32, expected: i32, position: &dyn std::fmt::Debug) {
    if value >= beta {
        assert!(value <= expected, "{position:?} beta {beta}: {value}");
    } else {
        assert!(value >= expected, "{position:?} beta {beta}: {value}");
    }
}
