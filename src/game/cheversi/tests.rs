//! Unit tests that need the position's insides: the fallback on a crafted (unreachable)
//! board, the incremental hash, and the refusal reasons and the single-move test agreeing
//! with the generator.

use super::bitboard::DARK_SQUARES;
use super::*;
use crate::game::{Player, Rules};
use crate::random::SplitMix64;

fn square(name: &str) -> Square {
    let bytes = name.as_bytes();
    Square::new(bytes[0] - b'a', bytes[1] - b'1').expect("test squares are on the board")
}

/// Every position of `games` seeded random games, the start included.
fn random_positions(seed: u64, games: usize) -> Vec<Cheversi> {
    let mut rng = SplitMix64::new(seed);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut position = Cheversi::new();
        positions.push(position.clone());
        while !position.is_finished() {
            position.legal_moves(&mut moves);
            assert!(!moves.is_empty(), "no move in {}", position.position_text());
            position.place(moves[rng.below(moves.len())]);
            positions.push(position.clone());
        }
    }
    positions
}

/// The hash and the hands kept by `place` equal their values from scratch.
#[test]
fn incremental_hash_equals_the_hash_from_scratch() {
    for position in random_positions(1, 200) {
        assert_eq!(position.hands, position.compute_hands(), "{position:?}");
        let mut scratch = position.clone();
        scratch.board_hash = scratch.compute_board_hash();
        assert_eq!(position.zobrist(), scratch.zobrist(), "{position:?}");
        let reparsed = Cheversi::from_text(&position.position_text()).expect("round trip");
        assert_eq!(reparsed, position);
    }
}

#[test]
fn refusal_agrees_with_the_generator() {
    let mut moves = Vec::new();
    for position in random_positions(2, 60) {
        position.legal_moves(&mut moves);
        for kind in PieceKind::ALL {
            for index in 0..64 {
                let mv = Move::new(kind, Square::from_index(index).expect("index below 64"));
                assert_eq!(position.is_legal(mv), moves.contains(&mv), "{mv}");
                assert_eq!(
                    position.refusal(mv).is_none(),
                    moves.contains(&mv),
                    "{mv} in {} ({:?})",
                    position.position_text(),
                    position.refusal(mv)
                );
            }
        }
        assert_eq!(position.count_moves(), moves.len() as u64);
        assert_eq!(position.has_no_placement(), moves.is_empty());
        // The search finds killers in the list by binary search.
        assert!(
            moves.is_sorted_by(|a, b| a < b),
            "{}",
            position.position_text()
        );
    }
}

/// A board the rules can never produce (more than 16 pieces), where White's 8th placement
/// is its second Bishop, which must go on a dark square, and every empty dark square is
/// walled in: rule 7 leaves nothing, with or without rule 2, so White loses.
#[test]
fn fallback_mover_without_any_placement_loses() {
    let mut position = Cheversi::new();
    let walls = !(square("a1").bit() | square("h8").bit() | square("c1").bit());
    // White: King, Queen, Rooks, Knights and a light Bishop placed; the second Bishop,
    // which must go on a dark square, is left. Black's "Rooks" make up the rest of the wall.
    let bits = |names: &[&str]| {
        names
            .iter()
            .fold(0u64, |set, name| set | square(name).bit())
    };
    let white = bits(&["b1", "d4", "e4", "f4", "g4", "d5", "e5"]);
    position.colours = [white, walls & !white];
    position.kinds[PieceKind::King.index()] = bits(&["d4"]);
    position.kinds[PieceKind::Queen.index()] = bits(&["e4"]);
    position.kinds[PieceKind::Rook.index()] = (walls & !white) | bits(&["f4", "g4"]);
    position.kinds[PieceKind::Bishop.index()] = bits(&["b1"]);
    position.kinds[PieceKind::Knight.index()] = bits(&["d5", "e5"]);
    position.placements = 14;
    position.last = Some(Move::new(PieceKind::Rook, square("g1")));
    position.board_hash = position.compute_board_hash();
    position.hands = position.compute_hands();
    assert!(!square("b1").is_dark());
    // The only empty squares, a1, c1 and h8, are dark and touch only pieces.
    assert_eq!(!position.occupied() & DARK_SQUARES, !position.occupied());
    assert!(position.needs_fallback());
    assert_eq!(position.count_moves(), 0);
    assert!(position.has_no_placement());
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(
        position.outcome(),
        Some(crate::game::Outcome::Win(Player::Two))
    );
}

#[test]
fn points_change_equals_placing_and_recounting() {
    let mut moves = Vec::new();
    for position in random_positions(3, 150) {
        let before = [position.points(Player::One), position.points(Player::Two)];
        position.legal_moves(&mut moves);
        for &mv in &moves {
            let mut after = position.clone();
            after.place(mv);
            let change = position.points_change(mv);
            assert_eq!(
                [before[0] + change[0], before[1] + change[1]],
                [after.points(Player::One), after.points(Player::Two)],
                "{mv} in {}",
                position.position_text()
            );
        }
    }
}
