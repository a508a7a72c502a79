//! The conformance checks, written once for every game (OpenSpiel style): seeded random
//! games checking at every ply that
//! - the legal moves are unique, and non-empty exactly while the game runs;
//! - `count_moves` agrees with the list;
//! - every move's text parses back to the same move, and [`AnyGame`] plays it by text;
//! - the position string round-trips (same text, same hash, same moves);
//! - a clone is equal to the original;
//! - results and rule scores agree (each built-in game's rule; an added game's own test
//!   checks its own), and games end within a bounded length.
//!
//! `tests/conformance.rs` runs them on the built-in games, `tests/added_game` on a game
//! added through the registry.

#![allow(dead_code)]

use std::collections::HashSet;

use tessera::game::{GameConfig, GameRecord, Outcome, Player, Rules, Variant};
use tessera::random::SplitMix64;
use tessera::registry::AnyGame;

/// Above this many moves a position's move texts are checked on an even sample.
const TEXT_CHECKS_PER_POSITION: usize = 5_000;

/// Checks one position of a record; returns the legal moves.
pub fn check_position<R: Rules>(record: &GameRecord<R>, config: &GameConfig) -> Vec<R::Move> {
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
pub fn check_result(variant: Variant, outcome: Outcome, score: [i32; 2], to_move: Player) {
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
        Variant::Added(_) => {}
    }
}

pub fn play_random_games<R: Rules>(
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

/// A seeded random game played through [`AnyGame`]'s text interface: every listed move
/// is accepted and is its own canonical text, within `max_plies`.
pub fn play_by_text(game: &AnyGame, seed: u64, max_plies: usize) {
    let mut text_game = game.clone();
    let mut random = SplitMix64::new(seed);
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
