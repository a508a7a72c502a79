//! The strength levels (`UCI_LimitStrength`) on the real games: at every variant's
//! weakest and strongest level the engine plays a legal move, the same move for the same
//! `Seed` and history, and the weakest level other moves for other seeds.

mod game_support;

use std::sync::atomic::AtomicBool;

use tessera::engine::{Engine, EngineGame, SearchOptions, Strength};
use tessera::game::{GameConfig, GameKind, GameRecord, Rules, Variant};
use tessera::search::SearchLimits;
use tessera::search::rng::seeded;
use tessera::with_record;

use game_support::random_position;

/// A `go nodes` cap below the strongest levels' budgets, to keep the test short: the
/// level's own budget or the `go`'s, whichever is smaller, bounds the search.
const NODE_CAP: u64 = 3_000;

fn engine(strength: Strength, seed: u64) -> Engine {
    Engine::new(SearchOptions {
        strength: Some(strength),
        seed,
        hash_mb: 1,
        ..SearchOptions::default()
    })
}

/// The level's move in `position` (a fresh record: no history).
fn choose<G: EngineGame>(engine: &mut Engine, position: &G) -> G::Move {
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        nodes: Some(NODE_CAP),
        ..SearchLimits::default()
    };
    engine
        .search_record(
            &GameRecord::new(position.clone()),
            &limits,
            &stop,
            &mut |_| {},
        )
        .best_move
        .expect("the game is running")
}

#[test]
fn every_variants_levels_play_legal_moves_fixed_by_the_seed() {
    let mut rng = seeded(23);
    for variant in Variant::ALL {
        let levels = variant.facts().levels;
        assert!(!levels.is_empty(), "{variant:?} has levels");
        let start = GameKind::new(&GameConfig::new(variant)).expect("default board");
        let weakest = Strength::of_level(&levels[0]);
        let strongest = Strength::of_level(&levels[levels.len() - 1]);
        for (strength, other_seeds_matter) in [(weakest, true), (strongest, false)] {
            let mut first = engine(strength, 5);
            let mut again = engine(strength, 5);
            let mut others: Vec<Engine> = (6..10).map(|seed| engine(strength, seed)).collect();
            let mut differs = false;
            let mut positions = 0;
            while positions < 4 {
                let plies = rng.below(12);
                let found = with_record!(&start, record => {
                    random_position(record.position(), plies, &mut rng).map(|position| {
                        let chosen = choose(&mut first, &position);
                        let mut legal = Vec::new();
                        position.legal_moves(&mut legal);
                        assert!(legal.contains(&chosen), "{variant:?} {strength:?}: illegal");
                        assert_eq!(chosen, choose(&mut again, &position), "{variant:?} {strength:?}");
                        other_seeds_matter
                            && others.iter_mut().any(|other| choose(other, &position) != chosen)
                    })
                });
                if let Some(changed) = found {
                    differs |= changed;
                    positions += 1;
                }
            }
            assert!(
                differs || !other_seeds_matter,
                "{variant:?} {strength:?}: another seed never changed a choice"
            );
        }
    }
}

#[test]
fn the_levels_rise_in_elo_and_budget_and_cool() {
    for variant in Variant::ALL {
        let levels = variant.facts().levels;
        for pair in levels.windows(2) {
            assert!(pair[0].elo < pair[1].elo, "{variant:?}: {pair:?}");
            assert!(
                pair[0].temperature >= pair[1].temperature,
                "{variant:?}: {pair:?}"
            );
            assert!(pair[0].nodes <= pair[1].nodes, "{variant:?}: {pair:?}");
        }
    }
}

/// A level over every move draws among every legal move, not only among those its search
/// reached: Catchup's level 1 (a few playouts, which visit a handful of the 1,830 turns
/// after the first stone) plays as `random` does.
#[test]
fn a_level_over_every_move_draws_among_moves_its_search_never_reached() {
    let variant = Variant::Catchup;
    let weakest = Strength::of_level(&variant.facts().levels[0]);
    assert_eq!(weakest.lines, 0, "Catchup's level 1 draws among every move");
    let start = GameKind::new(&GameConfig::new(variant)).expect("default board");
    let mut rng = seeded(31);
    let (distinct, legal_count) = with_record!(&start, record => {
        let position = random_position(record.position(), 1, &mut rng).expect("a turn played");
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        let chosen: std::collections::HashSet<_> = (0..60)
            .map(|seed| choose(&mut engine(weakest, seed), &position))
            .collect();
        assert!(chosen.iter().all(|choice| legal.contains(choice)));
        (chosen.len(), legal.len())
    });
    assert!(legal_count > 1_000, "{legal_count} turns");
    // Uniform draws give about 59 distinct turns in 60; the search reaches about 10.
    assert!(distinct >= 50, "only {distinct} distinct turns in 60 draws");
}
