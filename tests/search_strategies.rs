//! The gauntlet's weak strategies on the real games: each plays a legal move in every
//! variant, the same move for the same `Seed` and other moves for other seeds, and each
//! plays the move its definition names (checked here by brute force, without the
//! strategies' own cut-offs).

mod game_support;

use std::sync::atomic::AtomicBool;

use tessera::engine::strategy::{MINIMAX4_PLIES, SAMPLED_CANDIDATES};
use tessera::engine::{Engine, EngineGame, SearchOptions, Strategy};
use tessera::game::checkers::SmallCheckers;
use tessera::game::{GameConfig, GameKind, GameRecord, Outcome, Player, Rules, Variant};
use tessera::search::SearchLimits;
use tessera::search::game::SearchGame;
use tessera::search::rng::seeded;
use tessera::with_record;

use game_support::random_position;

/// The weak strategies: every one but the full search.
fn weak_strategies() -> impl Iterator<Item = Strategy> {
    Strategy::ALL
        .into_iter()
        .filter(|&strategy| strategy != Strategy::Full)
}

fn engine(strategy: Strategy, seed: u64) -> Engine {
    Engine::new(SearchOptions {
        strategy,
        seed,
        hash_mb: 1,
        ..SearchOptions::default()
    })
}

/// The strategy's move in `position` (a fresh record: no history).
fn choose<G: EngineGame>(engine: &mut Engine, position: &G) -> G::Move {
    let stop = AtomicBool::new(false);
    engine
        .search_record(
            &GameRecord::new(position.clone()),
            &SearchLimits::default(),
            &stop,
            &mut |_| {},
        )
        .best_move
        .expect("the game is running")
}

/// The weak strategies' value of a position for `mover`: the rule score difference, a
/// finished game first by its result.
fn rule_value<G: SearchGame>(position: &G, mover: Player) -> i64 {
    let rule = i64::from(position.greedy_value(mover));
    match position.outcome() {
        Some(Outcome::Win(winner)) if winner == mover => (1 << 40) + rule,
        Some(Outcome::Win(_)) => rule - (1 << 40),
        _ => rule,
    }
}

/// Plain negamax on the rule value, `depth` plies deep, for the side to move.
fn negamax<G: SearchGame>(position: &G, depth: u32) -> i64 {
    let mover = position.side_to_move();
    if depth == 0 || position.outcome().is_some() {
        return rule_value(position, mover);
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            -negamax(&child, depth - 1)
        })
        .max()
        .expect("a running game has moves")
}

/// The value of `mv` for the mover searched `depth` plies deep in all (the move included).
fn move_value<G: SearchGame>(position: &G, mv: G::Move, depth: u32) -> i64 {
    let mut child = position.clone();
    child.play_unchecked(mv);
    -negamax(&child, depth - 1)
}

#[test]
fn every_weak_strategy_plays_legal_seeded_moves_in_every_variant() {
    let mut rng = seeded(11);
    for variant in Variant::ALL {
        let start = GameKind::new(&GameConfig::new(variant)).expect("default board");
        for strategy in weak_strategies() {
            let mut first = engine(strategy, 5);
            let mut again = engine(strategy, 5);
            let mut others: Vec<Engine> = (6..10).map(|seed| engine(strategy, seed)).collect();
            let mut differs = false;
            let mut positions = 0;
            while positions < 8 {
                let plies = rng.below(30);
                let found = with_record!(&start, record => {
                    random_position(record.position(), plies, &mut rng).map(|position| {
                        let chosen = choose(&mut first, &position);
                        let mut legal = Vec::new();
                        position.legal_moves(&mut legal);
                        assert!(legal.contains(&chosen), "{variant:?} {strategy:?}: illegal move");
                        assert_eq!(chosen, choose(&mut again, &position), "{variant:?} {strategy:?}");
                        others
                            .iter_mut()
                            .any(|other| choose(other, &position) != chosen)
                    })
                });
                if let Some(changed) = found {
                    differs |= changed;
                    positions += 1;
                }
            }
            assert!(
                differs,
                "{variant:?} {strategy:?}: another seed never changed a choice"
            );
        }
    }
}

/// Random hex checkers positions on side 5 with captures about: a checkers start played
/// `plies` random plies on.
fn checkers_positions(count: usize, seed: u64) -> Vec<SmallCheckers> {
    let config = GameConfig {
        size: Some(5),
        ..GameConfig::new(Variant::HexCheckers)
    };
    let start = SmallCheckers::start(&config).expect("side 5 is a hex checkers board");
    let mut rng = seeded(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let plies = 4 + rng.below(40);
        if let Some(position) = random_position(&start, plies, &mut rng) {
            positions.push(position);
        }
    }
    positions
}

#[test]
fn minimax4_plays_a_move_of_the_best_four_ply_material_value() {
    let mut engine = engine(Strategy::Minimax4, 3);
    let mut tied = 0;
    for position in checkers_positions(40, 21) {
        let chosen = choose(&mut engine, &position);
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        let values: Vec<i64> = legal
            .iter()
            .map(|&mv| move_value(&position, mv, MINIMAX4_PLIES))
            .collect();
        let best = values.iter().copied().max().expect("moves");
        assert_eq!(
            move_value(&position, chosen, MINIMAX4_PLIES),
            best,
            "{}",
            position.position_text()
        );
        tied += usize::from(values.iter().filter(|&&value| value == best).count() > 1);
    }
    assert!(
        tied > 0,
        "no position had tied moves: the tie-break went untested"
    );
}

/// Checks on 60 positions that `strategy` plays a best two-ply move and, among those, the
/// least advancing one (the most with `most_advancing`); returns per position the least
/// and the most advancement among the best moves and the advancement before the move, so
/// a caller can check that the tie-break was exercised.
fn plays_best_two_ply_by_advancement(
    strategy: Strategy,
    seed: u64,
    positions_seed: u64,
    most_advancing: bool,
) -> Vec<[i32; 3]> {
    let mut engine = engine(strategy, seed);
    let mut ties = Vec::new();
    for position in checkers_positions(60, positions_seed) {
        let mover = position.side_to_move();
        let chosen = choose(&mut engine, &position);
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        let best = legal
            .iter()
            .map(|&mv| move_value(&position, mv, 2))
            .max()
            .expect("moves");
        let advancement = |mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            child.advancement(mover)
        };
        let tied = || {
            legal
                .iter()
                .filter(|&&mv| move_value(&position, mv, 2) == best)
                .map(|&mv| advancement(mv))
        };
        let least = tied().min().expect("a best move");
        let most = tied().max().expect("a best move");
        let text = position.position_text();
        assert_eq!(move_value(&position, chosen, 2), best, "{text}");
        let wanted = if most_advancing { most } else { least };
        assert_eq!(advancement(chosen), wanted, "{text}");
        ties.push([least, most, position.advancement(mover)]);
    }
    ties
}

#[test]
fn defender_plays_the_least_advancing_of_the_best_two_ply_moves() {
    let ties = plays_best_two_ply_by_advancement(Strategy::Defender, 4, 22, false);
    assert!(
        ties.iter().any(|&[least, _, before]| least < before),
        "the defender never stepped back: the tie-break went untested"
    );
}

#[test]
fn attacker_plays_the_most_advancing_of_the_best_two_ply_moves() {
    let ties = plays_best_two_ply_by_advancement(Strategy::Attacker, 5, 25, true);
    assert!(
        ties.iter().any(|&[least, most, _]| least != most),
        "no tie of different advancement: the tie-break went untested"
    );
}

#[test]
fn sampled2_is_minimax2_when_it_sees_every_move() {
    let mut sampled = engine(Strategy::Sampled2, 8);
    let mut seen = 0;
    for position in checkers_positions(60, 23) {
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        if legal.len() > SAMPLED_CANDIDATES {
            continue;
        }
        let chosen = choose(&mut sampled, &position);
        let best = legal
            .iter()
            .map(|&mv| move_value(&position, mv, 2))
            .max()
            .expect("moves");
        assert_eq!(
            move_value(&position, chosen, 2),
            best,
            "{}",
            position.position_text()
        );
        seen += 1;
    }
    assert!(seen > 0, "no position with few moves");
}

#[test]
fn sampled2_misses_a_lone_best_move_it_did_not_draw() {
    // A position with more moves than the sample and one move better than every other:
    // over many seeds the sample holds it sometimes and misses it sometimes.
    let mut rng = seeded(24);
    let config = GameConfig {
        size: Some(7),
        ..GameConfig::new(Variant::HexCheckers)
    };
    let start = tessera::game::checkers::LargeCheckers::start(&config).expect("side 7");
    let (position, best_move) = loop {
        let Some(position) = random_position(&start, 10 + rng.below(40), &mut rng) else {
            continue;
        };
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        if legal.len() <= SAMPLED_CANDIDATES + 4 {
            continue;
        }
        let values: Vec<i64> = legal
            .iter()
            .map(|&mv| move_value(&position, mv, 2))
            .collect();
        let best = *values.iter().max().expect("moves");
        if values.iter().filter(|&&value| value == best).count() == 1 {
            let index = values
                .iter()
                .position(|&value| value == best)
                .expect("best");
            break (position, legal[index]);
        }
    };
    let picks: Vec<bool> = (0..40)
        .map(|seed| choose(&mut engine(Strategy::Sampled2, seed), &position) == best_move)
        .collect();
    assert!(picks.iter().any(|&hit| hit), "{}", position.position_text());
    assert!(
        picks.iter().any(|&hit| !hit),
        "{}",
        position.position_text()
    );
}

#[test]
fn strategies_answer_in_catchup_turns_of_several_stones() {
    // Catchup's turns of up to three stones make four plies too wide: minimax4 falls back
    // to the plies its node budget allows, and still answers with a legal turn.
    let record = GameKind::new(&GameConfig::new(Variant::Catchup)).expect("default board");
    let GameKind::Catchup(record) = &record else {
        unreachable!("a Catchup configuration makes a Catchup record")
    };
    let mut rng = seeded(31);
    let position = loop {
        if let Some(position) = random_position(record.position(), 6, &mut rng) {
            break position;
        }
    };
    let mut engine = engine(Strategy::Minimax4, 9);
    let chosen = choose(&mut engine, &position);
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    assert!(legal.contains(&chosen));
}
