//! The search on the real games: alpha-beta against a plain negamax on random positions
//! of every alpha-beta variant, Cheversi's exact endgame against full minimax, Catchup's
//! MCTS-solver on positions with a forced win, and determinism on every variant.

mod game_support;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tessera::engine::{Engine, EngineGame, SearchOptions};
use tessera::game::catchup::Catchup;
use tessera::game::{GameConfig, GameKind, GameRecord, Outcome, Player, Rules, Variant};
use tessera::registry::AnyGame;
use tessera::search::alphabeta::{AlphaBetaConfig, MATE, to_score};
use tessera::search::game::{AlphaBetaGame, FixedLength, SearchGame};
use tessera::search::{GameSearchResult, PonderClock, Score, SearchLimits};

use game_support::{negamax, random_position};

fn search<G: EngineGame>(
    engine: &mut Engine,
    position: &G,
    limits: &SearchLimits,
) -> GameSearchResult<G::Move> {
    let stop = AtomicBool::new(false);
    engine.search_record(
        &GameRecord::new(position.clone()),
        limits,
        &stop,
        &mut |_| {},
    )
}

fn depth(depth: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    }
}

fn compare_with_negamax<G: AlphaBetaGame + EngineGame>(
    start: &G,
    max_depth: u32,
    positions: usize,
    seed: u64,
) -> usize {
    let mut rng = tessera::search::rng::seeded(seed);
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 4,
        ..SearchOptions::default()
    });
    engine.set_alpha_beta_config(AlphaBetaConfig::value_preserving());
    let mut checked = 0;
    while checked < positions * max_depth as usize {
        let plies = rng.below(30);
        let Some(position) = random_position(start, plies, &mut rng) else {
            continue;
        };
        for limit in 1..=max_depth {
            engine.new_game();
            let result = search(&mut engine, &position, &depth(limit));
            let expected = to_score(negamax(&position, limit as i32, 0));
            assert_eq!(
                result.score,
                Some(expected),
                "{} depth {limit}",
                position.position_text()
            );
            let mut child = position.clone();
            child.play_unchecked(result.best_move.expect("running"));
            let achieved = to_score(-negamax(&child, limit as i32 - 1, 1));
            assert_eq!(
                achieved,
                expected,
                "{} depth {limit}: move falls short",
                position.position_text()
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn alpha_beta_equals_negamax_in_every_alpha_beta_variant() {
    for (variant, max_depth, positions) in [
        (Variant::Cheversi, 3, 6),
        (Variant::Kruzno, 3, 8),
        (Variant::HexCheckers, 3, 4),
    ] {
        let game = GameKind::new(&GameConfig::new(variant)).expect("start position");
        let seed = Variant::ALL
            .iter()
            .position(|&known| known == variant)
            .expect("built in");
        let checked = with_alpha_beta_record!(&game, record => {
            compare_with_negamax(record.position(), max_depth, positions, seed as u64)
        });
        assert_eq!(checked, positions * max_depth as usize, "{variant}");
    }
}

#[test]
fn cheversi_exact_endgame_equals_full_minimax_with_four_plies_left() {
    let game = GameKind::new(&GameConfig::new(Variant::Cheversi)).expect("start position");
    with_alpha_beta_record!(&game, record => {
        let mut rng = tessera::search::rng::seeded(8);
        let mut engine = Engine::new(SearchOptions { hash_mb: 4, ..SearchOptions::default() });
        let mut checked = 0;
        while checked < 12 {
            let Some(position) = random_position(record.position(), 12, &mut rng) else {
                continue;
            };
            assert_eq!(position.plies_to_end(), Some(4));
            engine.new_game();
            // No depth limit: the exact search stops by itself once it reaches the end.
            let result = search(&mut engine, &position, &SearchLimits { nodes: Some(5_000_000), ..SearchLimits::default() });
            let exact = negamax(&position, 4, 0);
            assert_eq!(result.score, Some(Score::Centipawns(exact)), "{}", position.position_text());
            assert_eq!(result.depth, 4);
            let mut child = position.clone();
            child.play_unchecked(result.best_move.expect("running"));
            assert_eq!(-negamax(&child, 3, 1), exact, "{}", position.position_text());
            checked += 1;
        }
    });
}

/// The last placement is solved at the leaves, so a search that stops one placement
/// short of the end already has the exact final margin (with the heuristic evaluation at
/// those leaves it would not).
#[test]
fn cheversi_search_one_placement_short_of_the_end_is_exact() {
    let game = GameKind::new(&GameConfig::new(Variant::Cheversi)).expect("start position");
    with_alpha_beta_record!(&game, record => {
        let mut rng = tessera::search::rng::seeded(10);
        let mut engine = Engine::new(SearchOptions { hash_mb: 4, ..SearchOptions::default() });
        engine.set_alpha_beta_config(AlphaBetaConfig::value_preserving());
        for plies in [11, 12, 13, 14] {
            let mut checked = 0;
            while checked < 6 {
                let Some(position) = random_position(record.position(), plies, &mut rng) else {
                    continue;
                };
                let left = 16 - plies as u32;
                engine.new_game();
                let result = search(&mut engine, &position, &depth(left - 1));
                let exact = negamax(&position, left as i32, 0);
                let text = position.position_text();
                assert_eq!(result.score, Some(Score::Centipawns(exact)), "{text}");
                let mut child = position.clone();
                child.play_unchecked(result.best_move.expect("running"));
                assert_eq!(-negamax(&child, left as i32 - 1, 1), exact, "{text}");
                checked += 1;
            }
        }
    });
}

#[test]
fn cheversi_final_placements_shortcut_is_fail_soft_minimax() {
    let game = GameKind::new(&GameConfig::new(Variant::Cheversi)).expect("start position");
    with_alpha_beta_record!(&game, record => {
        let mut rng = tessera::search::rng::seeded(9);
        for plies in [13, 14, 15] {
            let mut checked = 0;
            while checked < 40 {
                let Some(position) = random_position(record.position(), plies, &mut rng) else {
                    continue;
                };
                let left = 16 - plies as i32;
                let exact = negamax(&position, left, 0);
                let text = position.position_text();
                if left > 2 {
                    assert_eq!(position.best_final_move(-MATE, MATE), None, "{text}");
                    checked += 1;
                    continue;
                }
                let (mv, value) = position.best_final_move(-MATE, MATE).expect("shortcut");
                assert_eq!(value, exact, "{text}");
                let mut child = position.clone();
                child.play_unchecked(mv);
                assert_eq!(-negamax(&child, left - 1, 1), exact, "{mv:?} in {text}");
                // Narrow windows around the value: fail-soft bounds on the right side.
                for (alpha, beta) in [(exact - 150, exact - 50), (exact + 50, exact + 150), (exact - 50, exact + 50)] {
                    let (_, value) = position.best_final_move(alpha, beta).expect("shortcut");
                    if value <= alpha {
                        assert!(exact <= value, "fail low {value} above {exact}: {text}");
                    } else if value >= beta {
                        assert!(exact >= value, "fail high {value} below {exact}: {text}");
                    } else {
                        assert_eq!(value, exact, "{text}");
                    }
                }
                checked += 1;
            }
        }
    });
}

/// The exact winner of a small Catchup position, by exhaustive search over whole turns.
fn solve<G: SearchGame>(position: &G) -> Option<Player> {
    if let Some(outcome) = position.outcome() {
        return match outcome {
            Outcome::Win(player) => Some(player),
            Outcome::Draw => None,
        };
    }
    let mover = position.side_to_move();
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut draw = false;
    for mv in moves {
        let mut child = position.clone();
        child.play_unchecked(mv);
        match solve(&child) {
            Some(winner) if winner == mover => return Some(mover),
            None => draw = true,
            Some(_) => {}
        }
    }
    if draw { None } else { Some(mover.opponent()) }
}

#[test]
fn catchup_solver_finds_a_winning_turn_when_one_is_forced() {
    let start = Catchup::start(&GameConfig::new(Variant::Catchup)).expect("start position");
    let mut rng = tessera::search::rng::seeded(21);
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 16,
        ..SearchOptions::default()
    });
    let mut tested = 0;
    let mut attempts = 0;
    let mut moves = Vec::new();
    // Positions where some turn throws the win away (a real choice).
    let mut with_losing_turns = 0;
    while tested < 8 && attempts < 400 {
        attempts += 1;
        // Random play until 5 to 7 cells are left.
        let target = 5 + rng.below(3);
        let mut position = start.clone();
        while position.outcome().is_none() && position.empty_count() > target {
            position.legal_moves(&mut moves);
            position.play_unchecked(moves[rng.below(moves.len())]);
        }
        if position.outcome().is_some() || solve(&position) != Some(position.side_to_move()) {
            continue;
        }
        let limits = SearchLimits {
            nodes: Some(100_000),
            ..SearchLimits::default()
        };
        let result = search(&mut engine, &position, &limits);
        let mv = result.best_move.expect("running");
        let mut child = position.clone();
        child.play_unchecked(mv);
        let text = position.position_text();
        assert_eq!(
            solve(&child),
            Some(position.side_to_move()),
            "{text} played {}",
            position.move_text(mv)
        );
        assert!(
            matches!(result.score, Some(Score::Mate(n)) if n > 0),
            "{text}: {:?}",
            result.score
        );
        position.legal_moves(&mut moves);
        let throws = moves.iter().any(|&other| {
            let mut child = position.clone();
            child.play_unchecked(other);
            solve(&child) != Some(position.side_to_move())
        });
        with_losing_turns += usize::from(throws);
        tested += 1;
    }
    assert_eq!(tested, 8, "too few won positions found");
    assert!(
        with_losing_turns >= 4,
        "only {with_losing_turns} positions had a losing turn"
    );
}

#[test]
fn every_variant_searches_deterministically_with_a_node_limit() {
    for variant in Variant::ALL {
        let game = AnyGame::new(GameConfig::new(variant)).expect("start position");
        let limits = SearchLimits {
            nodes: Some(3_000),
            ..SearchLimits::default()
        };
        let run = || {
            let mut engine = Engine::new(SearchOptions {
                hash_mb: 2,
                seed: 5,
                ..SearchOptions::default()
            });
            let stop = AtomicBool::new(false);
            game.search(&mut engine, &limits, &stop, &mut |_| {})
        };
        let first = run();
        assert_eq!(first, run(), "{variant}");
        let best = first.best_move.expect("the start position has moves");
        assert!(game.legal_move_texts().contains(&best), "{variant}: {best}");
    }
}

/// MCTS has no depth of its own: `go depth N` must still end by itself (a GUI waiting for
/// its bestmove would hang otherwise), with more simulations for a larger depth.
#[test]
fn catchup_depth_limit_ends_the_search_and_deeper_searches_more() {
    let game = AnyGame::new(GameConfig::new(Variant::Catchup)).expect("start");
    let stop = AtomicBool::new(false);
    let mut nodes = Vec::new();
    for limit in [1, 3] {
        let mut engine = Engine::new(SearchOptions::default());
        let mut last_nodes = 0;
        let result = game.search(&mut engine, &depth(limit), &stop, &mut |info| {
            last_nodes = info.nodes;
        });
        let best = result.best_move.expect("a move");
        assert!(game.legal_move_texts().contains(&best), "{best}");
        nodes.push(last_nodes);
    }
    assert!(nodes[0] > 0 && nodes[1] > nodes[0], "{nodes:?}");
}

/// A small engine that keeps no time back, for the tests of its clock.
fn timed_engine() -> Engine {
    Engine::new(SearchOptions {
        hash_mb: 2,
        move_overhead_ms: 0,
        ..SearchOptions::default()
    })
}

/// A `go` counts its time from when its line arrived (`received`), not from when the search
/// thread started: a command that waited out its whole movetime (a busy machine, a queue)
/// gets a move at once instead of a full search on top of the delay.
#[test]
fn time_limits_count_from_when_the_go_arrived() {
    for variant in Variant::ALL {
        let game = AnyGame::new(GameConfig::new(variant)).expect("start position");
        let limits = SearchLimits {
            movetime: Some(Duration::from_millis(5_000)),
            received: Instant::now().checked_sub(Duration::from_secs(10)),
            ..SearchLimits::default()
        };
        let mut engine = timed_engine();
        let stop = AtomicBool::new(false);
        let mut nodes = 0;
        let found = game.search(&mut engine, &limits, &stop, &mut |info| nodes = info.nodes);
        let best = found.best_move.expect("the start position has moves");
        assert!(game.legal_move_texts().contains(&best), "{variant}: {best}");
        // One poll interval at most (a full 5 s search would report millions).
        assert!(nodes <= 5_000, "{variant}: {nodes} nodes");
    }
}

/// `go ponder`: no time limit runs before `ponderhit` (the search goes on to its depth
/// limit however short its movetime), and after it the limits count from the hit (one
/// that came long ago leaves no time at all).
#[test]
fn a_ponder_search_runs_its_clock_from_ponderhit() {
    for variant in Variant::ALL {
        let game = AnyGame::new(GameConfig::new(variant)).expect("start position");
        // The deepest iteration reported (MCTS: the simulations of the last report).
        let run = |clock: PonderClock| {
            let limits = SearchLimits {
                movetime: Some(Duration::from_millis(1)),
                depth: Some(3),
                ponder: Some(Arc::new(clock)),
                ..SearchLimits::default()
            };
            let mut engine = timed_engine();
            let stop = AtomicBool::new(false);
            let (mut deepest, mut nodes) = (0, 0);
            let found = game.search(&mut engine, &limits, &stop, &mut |info| {
                deepest = deepest.max(info.depth.unwrap_or(0));
                nodes = info.nodes;
            });
            let best = found.best_move.expect("the start position has moves");
            assert!(game.legal_move_texts().contains(&best), "{variant}: {best}");
            if variant == Variant::Catchup {
                nodes
            } else {
                u64::from(deepest)
            }
        };
        // Catchup's depth 3 buys 8,000 simulations.
        let full = if variant == Variant::Catchup {
            8_000
        } else {
            3
        };
        assert_eq!(
            run(PonderClock::default()),
            full,
            "{variant} while pondering"
        );
        let hit = PonderClock::default();
        hit.start(
            Instant::now()
                .checked_sub(Duration::from_secs(10))
                .expect("a past"),
        );
        assert!(run(hit) < full, "{variant} after a late ponderhit");
    }
}
