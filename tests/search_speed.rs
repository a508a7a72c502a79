//! Speed and strength figures, run by hand (`cargo test --release --test search_speed --
//! --ignored --nocapture`): nodes per second per variant, Catchup playouts and
//! simulations per second, Cheversi exact-solve times, and quick games against the weak
//! strategies. Ignored in the suite: timing is never a pass/fail condition.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tessera::engine::{Engine, EngineGame, SearchOptions, Strategy};
use tessera::game::{GameConfig, GameKind, GameRecord, Outcome, Player, Rules, Variant};
use tessera::registry::AnyGame;
use tessera::search::SearchLimits;
use tessera::search::game::{SearchGame, TreeGame};
use tessera::with_record;

fn random_record<G: SearchGame>(start: &G, plies: usize, seed: u64) -> GameRecord<G> {
    let mut rng = tessera::search::rng::seeded(seed);
    let mut record = GameRecord::new(start.clone());
    let mut moves = Vec::new();
    for _ in 0..plies {
        record.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        record.play_unchecked(moves[rng.below(moves.len())]);
    }
    record
}

fn nps<G: EngineGame>(start: &G, plies: usize, threads: usize, millis: u64) -> (u64, u64) {
    let record = random_record(start, plies, 3);
    let mut engine = Engine::new(SearchOptions {
        threads,
        hash_mb: 64,
        ..SearchOptions::default()
    });
    let limits = SearchLimits {
        movetime: Some(Duration::from_millis(millis)),
        ..SearchLimits::default()
    };
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let result = engine.search_record(&record, &limits, &stop, &mut |_| {});
    let seconds = started.elapsed().as_secs_f64();
    (
        (result.nodes as f64 / seconds) as u64,
        u64::from(result.depth),
    )
}

#[test]
#[ignore]
fn speed_figures() {
    for variant in Variant::ALL {
        let game = GameKind::new(&GameConfig::new(variant)).expect("start");
        with_record!(&game, record => {
            for plies in [0usize, 8, 20] {
                let (one, depth) = nps(record.position(), plies, 1, 2000);
                let (two, _) = nps(record.position(), plies, 2, 2000);
                println!("{variant} after {plies} plies: 1 thread {one} nps (depth {depth}), 2 threads {two} nps ({:.2}x)", two as f64 / one.max(1) as f64);
            }
        });
    }
}

#[test]
#[ignore]
fn catchup_playouts() {
    let start =
        tessera::game::catchup::Catchup::start(&GameConfig::new(Variant::Catchup)).expect("start");
    {
        let root = tessera::eval::catchup::CatchupTree::for_search(
            start.clone(),
            tessera::eval::catchup_knowledge::PlayoutPolicy::Uniform,
        );
        let mut rng = tessera::search::rng::seeded(1);
        let started = Instant::now();
        let mut count = 0u64;
        let mut wins = 0u64;
        while started.elapsed() < Duration::from_secs(2) {
            for _ in 0..1000 {
                let mut state = root.clone();
                if state.playout(&mut rng) == Outcome::Win(Player::One) {
                    wins += 1;
                }
                count += 1;
            }
        }
        let rate = count as f64 / started.elapsed().as_secs_f64();
        println!(
            "catchup side 5: {rate:.0} random playouts/s ({:.3} White wins)",
            wins as f64 / count as f64
        );
    }
}

#[test]
#[ignore]
fn cheversi_exact_solve_times() {
    let game = GameKind::new(&GameConfig::new(Variant::Cheversi)).expect("start");
    with_record!(&game, record => {
        for remaining in [8usize, 10, 12] {
            for seed in 0..3 {
                let record = random_record(record.position(), 16 - remaining, seed);
                let mut engine = Engine::new(SearchOptions { exact_plies: 16, ..SearchOptions::default() });
                let stop = AtomicBool::new(false);
                let limits = SearchLimits { depth: Some(remaining as u32), ..SearchLimits::default() };
                let started = Instant::now();
                let result = engine.search_record(&record, &limits, &stop, &mut |_| {});
                println!("cheversi {remaining} plies left ({}): {:?} in {:?}, {} nodes",
                    record.position().position_text(), result.score, started.elapsed(), result.nodes);
            }
        }
    });
}

fn play_game(
    variant: Variant,
    full_first: bool,
    weak: Strategy,
    millis: u64,
    seed: u64,
) -> Option<Outcome> {
    let mut game = AnyGame::new(GameConfig::new(variant)).ok()?;
    // A few random opening plies so games differ.
    let mut rng = tessera::search::rng::seeded(seed);
    for _ in 0..2 {
        let moves = game.legal_move_texts();
        if moves.is_empty() {
            break;
        }
        game.play_text(&moves[rng.below(moves.len())]).ok()?;
    }
    let mut full = Engine::new(SearchOptions {
        seed,
        hash_mb: 32,
        ..SearchOptions::default()
    });
    let mut weak_engine = Engine::new(SearchOptions {
        seed,
        strategy: weak,
        hash_mb: 1,
        ..SearchOptions::default()
    });
    let limits = SearchLimits {
        movetime: Some(Duration::from_millis(millis)),
        ..SearchLimits::default()
    };
    let stop = AtomicBool::new(false);
    let full_player = if full_first { Player::One } else { Player::Two };
    while !game.is_over() && game.ply_count() < 400 {
        let engine = if game.side_to_move() == full_player {
            &mut full
        } else {
            &mut weak_engine
        };
        let result = game.search(engine, &limits, &stop, &mut |_| {});
        game.play_text(&result.best_move?).ok()?;
    }
    if std::env::var("SHOW_END").is_ok() && !game.is_over() {
        println!(
            "{variant} unfinished after {} plies: {}",
            game.ply_count(),
            game.position_text()
        );
    }
    let outcome = game.outcome()?;
    if std::env::var("SHOW_END").is_ok() {
        println!(
            "{variant} end after {} plies: {} {:?}",
            game.ply_count(),
            game.position_text(),
            outcome
        );
    }
    Some(match outcome {
        Outcome::Win(winner) if winner == full_player => Outcome::Win(Player::One),
        Outcome::Win(_) => Outcome::Win(Player::Two),
        Outcome::Draw => Outcome::Draw,
    })
}

#[test]
#[ignore]
fn quick_strength_games() {
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let millis: u64 = std::env::var("MILLIS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let only = std::env::var("VARIANT").ok();
    for variant in Variant::ALL {
        if only.as_deref().is_some_and(|name| name != variant.name()) {
            continue;
        }
        for weak in [Strategy::Random, Strategy::Greedy] {
            let (mut wins, mut draws, mut losses) = (0, 0, 0);
            for game in 0..games {
                match play_game(variant, game % 2 == 0, weak, millis, game) {
                    Some(Outcome::Win(Player::One)) => wins += 1,
                    Some(Outcome::Draw) => draws += 1,
                    _ => losses += 1,
                }
            }
            println!("{variant}: full vs {weak:?} at {millis} ms: +{wins} ={draws} -{losses}");
        }
    }
}

/// Games at 1 s + 10 ms per side with the default `MoveOverhead`: the wall time each
/// search takes is charged to the mover's clock; any clock below zero is a forfeit.
#[test]
#[ignore]
fn clock_games_never_forfeit() {
    use tessera::search::Clock;
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    for variant in Variant::ALL {
        let mut forfeits = 0;
        let mut least_left = Duration::from_secs(10);
        for seed in 0..games {
            let mut game = AnyGame::new(GameConfig::new(variant)).expect("start");
            let mut engines = [
                Engine::new(SearchOptions {
                    seed,
                    ..SearchOptions::default()
                }),
                Engine::new(SearchOptions {
                    seed: seed + 1,
                    ..SearchOptions::default()
                }),
            ];
            let mut clocks = [Duration::from_millis(1000); 2];
            let increment = Duration::from_millis(10);
            let stop = AtomicBool::new(false);
            while !game.is_over() && game.ply_count() < 300 {
                let side = game.side_to_move().index();
                let limits = SearchLimits {
                    clock: Clock {
                        time: [Some(clocks[0]), Some(clocks[1])],
                        increment: [increment; 2],
                        moves_to_go: None,
                    },
                    ..SearchLimits::default()
                };
                let started = Instant::now();
                let result = game.search(&mut engines[side], &limits, &stop, &mut |_| {});
                let used = started.elapsed();
                if std::env::var("SHOW_OVERRUN").is_ok()
                    && used > Duration::from_millis(15) + clocks[side] / 3
                {
                    println!(
                        "{variant} ply {} clock {:?} used {used:?}",
                        game.ply_count(),
                        clocks[side]
                    );
                }
                if used > clocks[side] {
                    forfeits += 1;
                    break;
                }
                clocks[side] = clocks[side] - used + increment;
                least_left = least_left.min(clocks[side]);
                let Some(best) = result.best_move else { break };
                game.play_text(&best).expect("the engine plays legal moves");
            }
        }
        println!(
            "{variant}: {games} games at 1s+10ms, {forfeits} forfeits, least time left {least_left:?}"
        );
    }
}

/// MCTS simulations per second of both `CatchupPlayout` policies, side 5, from the empty
/// board and from a mid-game position (14 random turns), measured side by side: the
/// policies alternate in five rounds of fixed simulations each, so a change in the
/// machine's load falls on both.
#[test]
#[ignore]
fn catchup_playout_policies_side_by_side() {
    use tessera::eval::catchup_knowledge::PlayoutPolicy;
    let mut config = GameConfig::new(Variant::Catchup);
    config.size = Some(5);
    let game = GameKind::new(&config).expect("start");
    with_record!(&game, record => {
        for plies in [0usize, 14] {
            let position = random_record(record.position(), plies, 5);
            let mut rates = [(0u64, 0.0f64); 2];
            for round in 0..5 {
                for (slot, policy) in PlayoutPolicy::ALL.into_iter().enumerate() {
                    let mut engine = Engine::new(SearchOptions {
                        catchup_playout: policy,
                        seed: round,
                        ..SearchOptions::default()
                    });
                    let limits = SearchLimits {
                        nodes: Some(100_000),
                        ..SearchLimits::default()
                    };
                    let stop = AtomicBool::new(false);
                    let started = Instant::now();
                    let result = engine.search_record(&position, &limits, &stop, &mut |_| {});
                    rates[slot].0 += result.nodes;
                    rates[slot].1 += started.elapsed().as_secs_f64();
                }
            }
            let per_second = rates.map(|(nodes, seconds)| nodes as f64 / seconds.max(1e-9));
            println!(
                "catchup side 5 after {plies} plies ({}): uniform {:.0} simulations/s, knowledge {:.0} simulations/s, ratio {:.2}",
                position.position().position_text(),
                per_second[0],
                per_second[1],
                per_second[1] / per_second[0]
            );
        }
    });
}
