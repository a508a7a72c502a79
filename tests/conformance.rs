//! One conformance test for every game (OpenSpiel style): seeded random games on every
//! variant, board size and rule, checking at every ply that
//! - the legal moves are unique, and non-empty exactly while the game runs;
//! - `count_moves` agrees with the list;
//! - every move's text parses back to the same move, and `AnyGame` plays it by text;
//! - the position string round-trips (same text, same hash, same moves);
//! - a clone is equal to the original;
//! - results and rule scores agree, and games end within a bounded length.

use std::collections::HashSet;

use tessera::game::{
    AnyGame, CatchupRule, GameConfig, GameRecord, Outcome, Player, Rules, Variant,
};
use tessera::random::SplitMix64;
use tessera::with_record;

/// Above this many moves a position's move texts are checked on an even sample.
const TEXT_CHECKS_PER_POSITION: usize = 5_000;

/// Checks one position of a record; returns the legal moves.
fn check_position<R: Rules>(record: &GameRecord<R>, config: &GameConfig) -> Vec<R::Move> {
    let position = record.position();
    let mut moves = Vec::new();
    record.legal_moves(&mut moves);
    let outcome = record.outcome();
    assert_eq!(
        moves.is_empty(),
        outcome.is_some(),
        "moves empty exactly when the game is over: {}",
        position.position_text()
    );
    let unique: HashSet<R::Move> = moves.iter().copied().collect();
    assert_eq!(unique.len(), moves.len(), "duplicate legal moves");
    if !record.is_threefold_repetition() {
        assert_eq!(position.count_moves(), moves.len() as u64, "count_moves");
    }
    // Huge Catchup turn lists (three stones on a big board) are checked on a sample.
    let step = moves.len() / TEXT_CHECKS_PER_POSITION + 1;
    let mut texts = HashSet::new();
    for &mv in moves.iter().step_by(step) {
        let text = position.move_text(mv);
        assert_eq!(
            position.parse_move(&text),
            Ok(mv),
            "move text {text} parses back"
        );
        assert!(texts.insert(text), "two moves share a text");
    }

    let text = position.position_text();
    let parsed = R::from_position_text(&text, config)
        .unwrap_or_else(|error| panic!("own position string rejected: {text}: {error}"));
    assert_eq!(parsed.position_text(), text, "position string round trip");
    assert_eq!(
        parsed.hash(),
        position.hash(),
        "hash after round trip: {text}"
    );
    assert_eq!(parsed.side_to_move(), position.side_to_move());
    assert_eq!(parsed.outcome(), position.outcome());
    let mut reparsed_moves = Vec::new();
    parsed.legal_moves(&mut reparsed_moves);
    if !record.is_threefold_repetition() {
        assert_eq!(reparsed_moves, moves, "same moves after round trip: {text}");
    }

    let clone = position.clone();
    assert_eq!(clone.position_text(), text);
    assert_eq!(clone.hash(), position.hash());

    let score = position.score();
    assert!(
        score[0] >= 0 && score[1] >= 0,
        "negative rule score {score:?}"
    );
    if let Some(outcome) = position.outcome() {
        check_result(config.variant, outcome, score, position.side_to_move());
    }
    moves
}

/// Results agree with the rule score and with who is to move.
fn check_result(variant: Variant, outcome: Outcome, score: [i32; 2], to_move: Player) {
    match variant {
        Variant::Cheversi => {
            let expected = match score[0].cmp(&score[1]) {
                std::cmp::Ordering::Greater => Outcome::Win(Player::One),
                std::cmp::Ordering::Less => Outcome::Win(Player::Two),
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            assert_eq!(outcome, expected, "Cheversi result vs points {score:?}");
        }
        Variant::Catchup => {
            let Outcome::Win(winner) = outcome else {
                panic!("Catchup cannot be drawn on a hexhex board");
            };
            assert!(
                score[winner.index()] >= score[winner.opponent().index()],
                "Catchup winner's largest group is at least the loser's: {score:?}"
            );
        }
        Variant::Kruzno | Variant::HexCheckers => {
            if let Outcome::Win(winner) = outcome {
                assert_eq!(to_move, winner.opponent(), "the side with no move loses");
            }
        }
    }
}

fn play_random_games<R: Rules>(
    record: &GameRecord<R>,
    config: &GameConfig,
    games: usize,
    seed: u64,
    max_plies: usize,
) {
    let mut random = SplitMix64::new(seed);
    for _ in 0..games {
        let mut game = record.clone();
        let mut plies = 0;
        loop {
            let moves = check_position(&game, config);
            if moves.is_empty() {
                break;
            }
            assert!(plies < max_plies, "game longer than {max_plies} plies");
            let mv = moves[random.below(moves.len())];
            game.play_unchecked(mv);
            plies += 1;
        }
        if config.variant == Variant::Cheversi {
            assert_eq!(plies, 16, "Cheversi lasts 16 placements");
        }
    }
}

fn run(config: GameConfig, games: usize, max_plies: usize) {
    let game = AnyGame::new(config).expect("start position");
    let seed = 0x7E55_E4A0 ^ (config.board_size() as u64) << 8 ^ config.variant as u64;
    with_record!(game.kind(), record => play_random_games(record, &config, games, seed, max_plies));

    // The same random game played through AnyGame's text interface stays legal
    // (small boards only: the text list of a big Catchup board is millions long).
    if config.variant == Variant::Catchup && config.board_size() > 5 {
        return;
    }
    let mut text_game = game.clone();
    let mut random = SplitMix64::new(seed ^ 1);
    while !text_game.is_over() {
        let moves = text_game.legal_move_texts();
        let text = &moves[random.below(moves.len())];
        let canonical = text_game
            .play_text(text)
            .unwrap_or_else(|error| panic!("legal move {text} rejected: {error}"));
        assert_eq!(&canonical, text);
        assert!(text_game.ply_count() <= max_plies);
    }
    assert_eq!(text_game.played_move_texts().len(), text_game.ply_count());
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
