//! One conformance test for every built-in game (OpenSpiel style): seeded random games
//! on every variant, board size and rule, through the checks of `conformance_support`.

mod conformance_support;

use conformance_support::{play_by_text, play_random_games};
use tessera::game::{CatchupRule, GameConfig, GameKind, Variant};
use tessera::registry::AnyGame;
use tessera::with_record;

fn run(config: GameConfig, games: usize, max_plies: usize) {
    let game = GameKind::new(&config).expect("start position");
    let index = Variant::ALL
        .iter()
        .position(|&variant| variant == config.variant)
        .expect("a built-in game");
    let seed = 0x7E55_E4A0 ^ (config.board_size() as u64) << 8 ^ index as u64;
    with_record!(&game, record => play_random_games(record, &config, games, seed, max_plies));

    // The same random game played through AnyGame's text interface stays legal
    // (small boards only: the text list of a big Catchup board is millions long).
    if config.variant == Variant::Catchup && config.board_size() > 5 {
        return;
    }
    let game = AnyGame::new(config).expect("start position");
    play_by_text(&game, seed ^ 1, max_plies);
}

fn config(variant: Variant, size: Option<usize>, rule: CatchupRule) -> GameConfig {
    rule.chosen_in(GameConfig {
        size,
        ..GameConfig::new(variant)
    })
}

#[test]
fn cheversi_conforms() {
    run(
        config(Variant::Cheversi, None, CatchupRule::Revised),
        60,
        16,
    );
}

#[test]
fn kruzno_conforms() {
    run(
        config(Variant::Kruzno, None, CatchupRule::Revised),
        12,
        6000,
    );
}

#[test]
fn hexcheckers_conforms_on_every_side() {
    for side in 4..=9 {
        let games = if side >= 8 { 3 } else { 8 };
        run(
            config(Variant::HexCheckers, Some(side), CatchupRule::Revised),
            games,
            8000,
        );
    }
}

#[test]
fn catchup_conforms_on_every_side_and_rule() {
    for rule in [CatchupRule::Revised, CatchupRule::Original] {
        for side in 2..=9 {
            let games = if side >= 7 { 2 } else { 10 };
            run(config(Variant::Catchup, Some(side), rule), games, 300);
        }
    }
}
