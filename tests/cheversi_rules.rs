//! Cheversi rule by rule (protocol.md, Appendix A), the scoring check values, notation, position
//! strings and their errors, and seeded random games.

use tessera::game::cheversi::bitboard::{KING_ATTACKS, neighbours};
use tessera::game::cheversi::{Cheversi, Move, PieceKind, Square};
use tessera::game::{GameConfig, MoveError, Outcome, Player, PositionError, Rules, Variant};
use tessera::random::SplitMix64;

fn config() -> GameConfig {
    GameConfig::new(Variant::Cheversi)
}

fn start() -> Cheversi {
    Cheversi::start(&config()).expect("start position")
}

fn position(text: &str) -> Cheversi {
    Cheversi::from_position_text(text, &config()).unwrap_or_else(|error| panic!("{text}: {error}"))
}

fn position_error(text: &str) -> PositionError {
    match Cheversi::from_position_text(text, &config()) {
        Ok(_) => panic!("{text} was accepted"),
        Err(error) => error,
    }
}

/// Plays move texts from the start.
fn after(moves: &[&str]) -> Cheversi {
    let mut game = start();
    for text in moves {
        let mv = game
            .parse_move(text)
            .unwrap_or_else(|error| panic!("{text}: {error}"));
        game.play(mv).expect("parse_move checked legality");
    }
    game
}

fn legal(game: &Cheversi) -> Vec<Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

fn square(name: &str) -> Square {
    let bytes = name.as_bytes();
    Square::new(bytes[0] - b'a', bytes[1] - b'1').expect("test squares are on the board")
}

/// The reason of an `Illegal` error, panicking on any other outcome.
fn illegal_reason(game: &Cheversi, text: &str) -> String {
    match game.parse_move(text) {
        Err(MoveError::Illegal { token, reason }) => {
            assert_eq!(token, text);
            reason
        }
        other => panic!("{text}: expected an illegal-move error, got {other:?}"),
    }
}

fn assert_rule(game: &Cheversi, text: &str, rule: &str) {
    let reason = illegal_reason(game, text);
    assert!(reason.contains(rule), "{text}: {reason} (expected {rule})");
}

// ---- Rule 1 -----------------------------------------------------------------------------

#[test]
fn rule1_white_places_its_king_first_anywhere() {
    let game = start();
    let moves = legal(&game);
    assert_eq!(moves.len(), 64);
    assert!(moves.iter().all(|mv| mv.kind() == PieceKind::King));
    assert_rule(&game, "Qe4", "rule 1");
    assert_rule(&game, "Na1", "rule 1");
    assert!(game.parse_move("Ka1").is_ok());
    assert!(game.parse_move("Kh8").is_ok());
}

// ---- Rule 2 -----------------------------------------------------------------------------

#[test]
fn rule2_placements_touch_a_piece_of_either_colour() {
    let game = after(&["Ke4"]);
    let expected = KING_ATTACKS[square("e4").index()];
    for mv in legal(&game) {
        assert!(expected & mv.square().bit() != 0, "{mv}");
    }
    assert_eq!(game.legal_square_mask(), expected);
    assert_rule(&game, "Qa1", "rule 2");
    assert_rule(&game, "Qe6", "rule 2");
    // White may touch Black's piece only.
    let game = after(&["Ke4", "Nd5"]);
    assert!(game.parse_move("Nc6").is_ok());
    assert_rule(&game, "Nb7", "rule 2");
}

// ---- Rule 3 -----------------------------------------------------------------------------

#[test]
fn rule3_black_king_is_black_eighth_placement() {
    let game = after(&["Ke4"]);
    assert_rule(&game, "Kd5", "rule 3");
    assert!(legal(&game).iter().all(|mv| mv.kind() != PieceKind::King));
    // Black's 8th: only the King is left and it is legal.
    let game = position("5b1B/6r1/6NR/6N1/6nq/5b1K/5rQ1/4Rn1B b e1");
    let moves = legal(&game);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|mv| mv.kind() == PieceKind::King));
}

// ---- Rule 4 -----------------------------------------------------------------------------

#[test]
fn rule4_second_bishop_takes_the_other_colour() {
    // Both Bishops in hand: either colour.
    let game = after(&["Ke4", "Nd5"]);
    assert!(game.parse_move("Bd4").is_ok());
    assert!(game.parse_move("Bd3").is_ok());
    // First Bishop on d4 (dark): the second only on light squares.
    let game = after(&["Ke4", "Nd5", "Bd4", "Ne5"]);
    let bishops = game.legal_squares(PieceKind::Bishop);
    assert!(bishops != 0);
    for mv in legal(&game) {
        if mv.kind() == PieceKind::Bishop {
            assert!(!mv.square().is_dark(), "{mv}");
        }
    }
    assert_rule(&game, "Bc3", "rule 4");
    assert!(game.parse_move("Bd3").is_ok());
    // Black's Bishops too.
    let game = after(&["Ke4", "Bd5", "Nf4"]);
    assert!(!square("d5").is_dark());
    assert_rule(&game, "Bc6", "rule 4");
    assert_rule(&game, "Bc4", "rule 4");
    assert!(game.parse_move("Bc5").is_ok());
}

// ---- Rule 5 -----------------------------------------------------------------------------

#[test]
fn rule5_white_queen_first_black_must_answer() {
    let game = after(&["Ke4", "Nd5", "Qe5"]);
    let moves = legal(&game);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|mv| mv.kind() == PieceKind::Queen));
    assert!(game.queen_call());
    assert_rule(&game, "Rf6", "rule 5");
    assert_rule(&game, "Nf6", "rule 5");
    // Once answered, the call is over for both.
    let game = after(&["Ke4", "Nd5", "Qe5", "Qf6"]);
    assert!(!game.queen_call());
    assert!(game.parse_move("Rf5").is_ok());
}

#[test]
fn rule5_black_queen_first_white_must_answer() {
    let game = after(&["Ke4", "Qd5"]);
    let moves = legal(&game);
    assert!(moves.iter().all(|mv| mv.kind() == PieceKind::Queen));
    assert_eq!(
        moves.len() as u32,
        (neighbours(game.occupied()) & !game.occupied()).count_ones()
    );
    assert_rule(&game, "Rc6", "rule 5");
    // No call once the mover's Queen is already on the board.
    let game = after(&["Ke4", "Nd5", "Qe5", "Qf6", "Rf5", "Nc6"]);
    assert!(legal(&game).iter().any(|mv| mv.kind() != PieceKind::Queen));
}

/// A Queen placed at every ply from 1 to 14 (both sides) forces the opponent's Queen next
/// when it is still in hand, and never otherwise.
#[test]
fn rule5_queen_call_at_every_timing() {
    let mut rng = SplitMix64::new(5);
    let mut calls_seen = [false; 16];
    for queen_ply in 1..=14u8 {
        for _ in 0..8 {
            let mut game = start();
            let mut placed_queen = false;
            while !game.is_finished() {
                let moves = legal(&game);
                let queens: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|mv| mv.kind() == PieceKind::Queen)
                    .collect();
                let others: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|mv| mv.kind() != PieceKind::Queen)
                    .collect();
                let mv = if game.placements() == queen_ply && !queens.is_empty() {
                    placed_queen = true;
                    queens[rng.below(queens.len())]
                } else if !others.is_empty() {
                    others[rng.below(others.len())]
                } else {
                    queens[rng.below(queens.len())]
                };
                game.play(mv).expect("legal");
                // Every position of these games is reachable, so its text must parse back.
                assert_eq!(position(&game.position_text()), game);
                if placed_queen && game.placements() == queen_ply + 1 {
                    let mover = game.side_to_move();
                    let must_answer = game.in_hand(mover, PieceKind::Queen) > 0;
                    assert_eq!(game.queen_call(), must_answer);
                    let next = legal(&game);
                    if must_answer {
                        calls_seen[queen_ply as usize] = true;
                        assert!(next.iter().all(|mv| mv.kind() == PieceKind::Queen));
                        assert!(!next.is_empty());
                    } else if game.placements() != 13 && game.placements() != 15 {
                        assert!(next.iter().any(|mv| mv.kind() != PieceKind::Queen));
                    }
                }
            }
        }
    }
    // Every timing where the opponent can still hold its Queen was exercised.
    for (ply, seen) in calls_seen.iter().enumerate().take(14).skip(1) {
        assert!(*seen, "no queen call seen after a Queen at ply {ply}");
    }
}

// ---- Rule 6 -----------------------------------------------------------------------------

#[test]
fn rule6_black_queen_deadline_is_black_seventh_placement() {
    // Black's 7th placement, both Queens still in hand: no queen call, only the deadline.
    let game = position("2bR4/2RN4/3KN3/1rBn4/1n1b4/1B6/r7/8 b d8");
    assert!(!game.queen_call());
    let moves = legal(&game);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|mv| mv.kind() == PieceKind::Queen));
    // Black holds only its Queen and King now, so the deadline rules out the King (rule 3
    // would too; the deadline is named as the more specific reason).
    let other = Square::from_index(game.legal_square_mask().trailing_zeros() as u8)
        .expect("a legal square");
    assert_rule(&game, &format!("K{other}"), "rule 6");
    // Black's 6th placement is still free.
    let mut rng = SplitMix64::new(6);
    let mut deadlines = 0;
    for _ in 0..200 {
        let mut game = start();
        while !game.is_finished() {
            let moves = legal(&game);
            let others: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|mv| mv.kind() != PieceKind::Queen)
                .collect();
            if game.placements() == 13 && game.in_hand(Player::Two, PieceKind::Queen) > 0 {
                assert!(others.is_empty(), "{}", game.position_text());
                deadlines += 1;
                let queen = moves[rng.below(moves.len())];
                game.play(queen).expect("legal");
                // Rule 5 then makes White's 8th its Queen if still in hand.
                if game.in_hand(Player::One, PieceKind::Queen) > 0 {
                    let answers = legal(&game);
                    assert!(!answers.is_empty());
                    assert!(answers.iter().all(|mv| mv.kind() == PieceKind::Queen));
                }
                continue;
            }
            let pool = if others.is_empty() { &moves } else { &others };
            game.play(pool[rng.below(pool.len())]).expect("legal");
            assert_eq!(position(&game.position_text()), game);
        }
        assert_eq!(game.in_hand(Player::Two, PieceKind::Queen), 0);
    }
    assert!(deadlines > 50);
}

// ---- Rule 7 -----------------------------------------------------------------------------

#[test]
fn rule7_white_eighth_leaves_an_empty_neighbour() {
    // White's 8th: its second Rook. a1 and h1 touch pieces but have no empty neighbour.
    let game = position("8/8/8/8/8/8/rnbbqnrR/1NBQKBN1 w g2");
    assert_rule(&game, "Ra1", "rule 7");
    assert_rule(&game, "Rh1", "rule 7");
    let moves = legal(&game);
    assert_eq!(moves.len(), 8);
    assert!(moves.iter().all(|mv| mv.square().rank() == 2));
    // On generated positions: every excluded touched square is walled in.
    for text in [
        "5b1B/6r1/6NR/6N1/6nq/5b1K/5rQ1/5n1B w g4",
        "8/8/8/7Q/7b/3qNBKr/4nrnB/4N1Rb w h1",
    ] {
        let game = position(text);
        let empty = !game.occupied();
        let walled = neighbours(game.occupied()) & empty & !neighbours(empty);
        assert!(walled != 0, "{text}");
        for square in tessera::game::cheversi::Squares(walled) {
            for kind in PieceKind::ALL {
                assert_eq!(
                    game.legal_squares(kind) & square.bit(),
                    0,
                    "{kind:?} {square}"
                );
            }
        }
        assert!(!legal(&game).is_empty());
    }
    // Before White's 8th, a walled-in square is fine.
    let game = position("8/8/8/7Q/7b/3qNBKr/4nrn1/4N1R1 w d3");
    let empty = !game.occupied();
    let walled = neighbours(game.occupied()) & empty & !neighbours(empty);
    assert!(walled != 0 && game.legal_square_mask() & walled == walled);
}

// ---- Rule 8 -----------------------------------------------------------------------------

#[test]
fn rule8_black_king_touches_white_eighth_piece() {
    let game = position("8/8/8/8/8/8/rnbbqnrR/RNBQKBN1 b h2");
    let mut texts: Vec<String> = legal(&game).iter().map(|mv| mv.to_string()).collect();
    texts.sort();
    assert_eq!(texts, ["Kg3", "Kh1", "Kh3"]);
    // a3 and f3 touch pieces, but not h2.
    assert_rule(&game, "Ka3", "rule 8");
    assert_rule(&game, "Kf3", "rule 8");
    let game = position("4N1qR/4r2Q/5b1K/4rR1b/4nBn1/5BN1/8/8 b g3");
    for mv in legal(&game) {
        assert!(KING_ATTACKS[square("g3").index()] & mv.square().bit() != 0);
    }
}

// ---- Fallback and end of game -----------------------------------------------------------

#[test]
fn random_games_end_after_sixteen_placements_without_fallback() {
    let mut rng = SplitMix64::new(16);
    let mut moves = Vec::new();
    for _ in 0..2000 {
        let mut game = start();
        let mut plies = 0;
        while game.outcome().is_none() {
            assert!(!game.needs_fallback(), "{}", game.position_text());
            game.legal_moves(&mut moves);
            assert!(!moves.is_empty());
            game.play_unchecked(moves[rng.below(moves.len())]);
            plies += 1;
        }
        assert_eq!(plies, 16);
        assert!(game.is_finished());
        assert_eq!(game.count_moves(), 0);
    }
}

#[test]
fn conformance_along_random_games() {
    let mut rng = SplitMix64::new(17);
    let mut moves = Vec::new();
    for _ in 0..300 {
        let mut game = start();
        loop {
            let text = game.position_text();
            let reparsed = position(&text);
            assert_eq!(reparsed, game, "{text}");
            assert_eq!(reparsed.hash(), game.hash());
            game.legal_moves(&mut moves);
            assert_eq!(game.count_moves(), moves.len() as u64);
            let mut unique = moves.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), moves.len(), "duplicates in {text}");
            assert_eq!(moves.is_empty(), game.outcome().is_some());
            for &mv in &moves {
                assert_eq!(game.parse_move(&game.move_text(mv)), Ok(mv));
            }
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.below(moves.len())]).expect("legal");
        }
    }
}

#[test]
fn transpositions_hash_alike_and_rule_state_changes_the_hash() {
    let one = after(&["Ke4", "Nd5", "Rf4", "Nd4"]);
    let two = after(&["Ke4", "Nd4", "Rf4", "Nd5"]);
    assert_eq!(one.hash(), two.hash());
    // Same board, but Black's King must touch a different White 8th piece (rule 8).
    let rook = position("8/8/8/8/8/8/rnbbqnrR/RNBQKBN1 b h2");
    let knight = position("8/8/8/8/8/8/rnbbqnrR/RNBQKBN1 b g1");
    assert_ne!(rook.hash(), knight.hash());
    assert_eq!(legal(&rook).len(), 3);
    assert_eq!(legal(&knight).len(), 1);
    // A queen call in force changes the hash: the same board reached with the Queen last
    // or not (Black's Queen already placed, so no call) differs only by the call.
    let called = position("8/8/8/2nnQ3/4KR2/8/8/8 b e5");
    assert!(called.queen_call());
    let mut uncalled = called.clone();
    uncalled.play_unchecked(Move::new(PieceKind::Queen, square("f6")));
    assert!(!uncalled.queen_call());
    assert_eq!(position(&uncalled.position_text()).hash(), uncalled.hash());
}

// ---- Scoring ----------------------------------------------------------------------------

#[test]
fn scoring_check_values() {
    let game = after(&["Ke4", "Qd5"]);
    assert_eq!(game.score(), [7, 23]);
    assert_eq!(position("8/8/8/3q4/4K3/8/8/8 w d5").score(), [7, 23]);
    // The second check value: White Ne5 added (the Knight's eight jumps, the King loses e5,
    // the Queen's ray east ends there). Not a legal move (the queen call), so placed
    // unchecked: the score is about the board only.
    let mut game = after(&["Ke4", "Qd5"]);
    game.play_unchecked(Move::new(PieceKind::Knight, square("e5")));
    assert_eq!(game.score(), [14, 19]);
    assert_eq!(game.points(Player::One), 14);
    assert_eq!(game.points(Player::Two), 19);
}

#[test]
fn result_follows_the_points() {
    // Finished games: the outcome compares the points.
    for text in [
        "8/8/8/3QK3/3r1q1R/2nbr1R1/3bNBB1/4nNk1 w g1",
        "8/8/8/2R5/1k1n1b2/1bBN1q1R/4NrQ1/3B1Knr w b4",
        "8/8/8/8/8/7k/rnbbqnrR/RNBQKBN1 w h3",
    ] {
        let game = position(text);
        let [white, black] = game.score();
        let expected = match white.cmp(&black) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::One),
            std::cmp::Ordering::Less => Outcome::Win(Player::Two),
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        assert_eq!(game.outcome(), Some(expected), "{text}");
    }
    assert_eq!(start().outcome(), None);
}

// ---- Notation ---------------------------------------------------------------------------

#[test]
fn move_notation_canonical_and_lenient_input() {
    let game = start();
    let expected = Move::new(PieceKind::King, square("e4"));
    for text in ["Ke4", "K@e4", "ke4", "KE4", "k@E4", " Ke4 "] {
        assert_eq!(game.parse_move(text), Ok(expected), "{text}");
    }
    assert_eq!(game.move_text(expected), "Ke4");
    assert_eq!(expected.to_string(), "Ke4");
    let game = after(&["Ke4"]);
    assert_eq!(
        game.move_text(game.parse_move("n@F5").expect("legal")),
        "Nf5"
    );
}

#[test]
fn malformed_and_illegal_moves_get_their_errors() {
    let game = after(&["Ke4"]);
    assert_eq!(game.parse_move(""), Err(MoveError::Empty));
    assert_eq!(game.parse_move("   "), Err(MoveError::Empty));
    for text in [
        "e4", "@e4", "K", "Ke", "K@", "K@@e4", "Kee4", "4e4", "Ke4x", "K-e4", "Ké4",
    ] {
        assert!(
            matches!(game.parse_move(text), Err(MoveError::Syntax { ref token, .. }) if token == text),
            "{text}: {:?}",
            game.parse_move(text)
        );
    }
    for (text, letter) in [("Pe4", 'P'), ("Xd5", 'X'), ("ée4", 'é')] {
        assert_eq!(
            game.parse_move(text),
            Err(MoveError::UnknownPiece {
                token: text.to_string(),
                letter
            }),
            "{text}"
        );
    }
    for text in ["Qi5", "Qd9", "Qd0", "Qd10", "Qz1", "Qd99999999999999999999"] {
        assert_eq!(
            game.parse_move(text),
            Err(MoveError::OffBoard {
                token: text.to_string()
            }),
            "{text}"
        );
    }
    assert_eq!(
        game.parse_move("Qe4"),
        Err(MoveError::Occupied {
            token: "Qe4".to_string()
        })
    );
    let white = after(&["Ke4", "Qd5"]);
    assert_eq!(
        white.parse_move("Ke5"),
        Err(MoveError::NotInHand {
            token: "Ke5".to_string()
        })
    );
    let finished = position("8/8/8/8/8/7k/rnbbqnrR/RNBQKBN1 w h3");
    assert_eq!(
        finished.parse_move("Qa4"),
        Err(MoveError::GameOver {
            token: "Qa4".to_string()
        })
    );
    let mut copy = game.clone();
    let illegal = Move::new(PieceKind::King, square("d5"));
    assert!(matches!(copy.play(illegal), Err(MoveError::Illegal { .. })));
    assert_eq!(copy, game, "a refused move changes nothing");
}

// ---- Position strings -------------------------------------------------------------------

#[test]
fn position_strings_round_trip() {
    assert_eq!(start().position_text(), "8/8/8/8/8/8/8/8 w -");
    assert_eq!(position("8/8/8/8/8/8/8/8 w -"), start());
    let game = after(&["Ke4", "Nd5", "Qe5", "Qf6"]);
    assert_eq!(game.position_text(), "8/8/5q2/3nQ3/4K3/8/8/8 w f6");
    assert_eq!(position(&game.position_text()), game);
    // The last-placement square may be given in either case; output is canonical.
    assert_eq!(
        position("8/8/5q2/3nQ3/4K3/8/8/8 w F6").position_text(),
        "8/8/5q2/3nQ3/4K3/8/8/8 w f6"
    );
    assert_eq!(position("  8/8/8/8/8/8/8/8   w  -  "), start());
}

fn assert_rule_error(text: &str, token: &str, rule: &str) {
    match position_error(text) {
        PositionError::Rule {
            token: found,
            reason,
        } => {
            assert_eq!(found, token, "{text}");
            assert!(reason.contains(rule), "{text}: {reason}");
        }
        other => panic!("{text}: expected a rule error, got {other:?}"),
    }
}

#[test]
fn malformed_position_strings_get_their_errors() {
    assert_eq!(position_error(""), PositionError::Empty);
    assert_eq!(position_error("  "), PositionError::Empty);
    assert!(matches!(
        position_error("8/8/8/8/8/8/8/8 w"),
        PositionError::FieldCount {
            expected: 3,
            found: 2,
            ..
        }
    ));
    assert!(matches!(
        position_error("8/8/8/8/8/8/8/8 w - 1"),
        PositionError::FieldCount { found: 4, .. }
    ));
    for (text, token) in [
        ("8/8/8/8/8/8/8 w -", "8/8/8/8/8/8/8"),
        ("8/8/8/8/8/8/8/8/8 w -", "8/8/8/8/8/8/8/8/8"),
        ("8/8/8/8/8/8/8/09 w -", "09"),
        ("8/8/8/8/8/8/8/44 w -", "44"),
        ("8/8/8/8/8/8/8/0 w -", "0"),
    ] {
        assert!(
            matches!(position_error(text), PositionError::Syntax { token: ref found, .. } if found == token),
            "{text}: {:?}",
            position_error(text)
        );
    }
    assert!(matches!(
        position_error("8/8/8/8/8/8/8/7 w -"),
        PositionError::RowLength {
            expected: 8,
            found: 7,
            ..
        }
    ));
    assert!(matches!(
        position_error("8/8/8/8/8/8/8/K8 w -"),
        PositionError::RowLength { found: 9, .. }
    ));
    assert!(matches!(
        position_error("8//8/8/8/8/8/8 w -"),
        PositionError::RowLength { found: 0, .. }
    ));
    assert_eq!(
        position_error("8/8/8/8/4P3/8/8/8 w -"),
        PositionError::UnknownPiece {
            token: "4P3".to_string(),
            letter: 'P'
        }
    );
    assert!(matches!(
        position_error("8/8/8/8/4é3/8/8/8 w -"),
        PositionError::UnknownPiece { letter: 'é', .. }
    ));
    assert_eq!(
        position_error("8/8/8/8/8/8/8/8 x -"),
        PositionError::SideToMove {
            token: "x".to_string()
        }
    );
    assert_eq!(
        position_error("8/8/8/8/4K3/8/8/8 w e4"),
        PositionError::CountsContradictSide {
            token: "w".to_string()
        }
    );
    assert_eq!(
        position_error("8/8/8/8/8/8/8/8 b -"),
        PositionError::CountsContradictSide {
            token: "b".to_string()
        }
    );
    assert_rule_error(
        "8/8/8/8/4KQ2/8/8/8 b f4",
        "8/8/8/8/4KQ2/8/8/8",
        "level or one ahead",
    );
    assert_rule_error(
        "8/8/8/2nn4/4K3/8/8/8 w d5",
        "8/8/8/2nn4/4K3/8/8/8",
        "level or one ahead",
    );
    assert!(matches!(
        position_error("8/8/8/8/RRRK4/rrbb4/8/8 w a3"),
        PositionError::TooManyPieces { .. }
    ));
    assert!(matches!(
        position_error("8/8/8/8/KK6/nn6/8/8 w a3"),
        PositionError::TooManyPieces { .. }
    ));
    // Rule 1: White's King must be on the board.
    assert_rule_error("8/8/8/3n4/4Q3/8/8/8 w d5", "8/8/8/3n4/4Q3/8/8/8", "rule 1");
    // Rule 3: Black's King before its 8th placement.
    assert_rule_error("8/8/8/3k4/4K3/8/8/8 w d5", "8/8/8/3k4/4K3/8/8/8", "rule 3");
    // Rule 4: two Bishops on light squares.
    assert_rule_error(
        "8/8/8/1rn5/BKB5/8/8/8 b c4",
        "8/8/8/1rn5/BKB5/8/8/8",
        "rule 4",
    );
    // Rule 6: seven Black placements without the Queen.
    assert_rule_error(
        "8/8/8/krrbbnn1/KRRBBNN1/8/8/8 w b5",
        "8/8/8/krrbbnn1/KRRBBNN1/8/8/8",
        "rule 6",
    );
    // Rule 2: a piece apart from the group.
    assert_rule_error("8/8/8/8/4K3/8/8/n7 w a1", "8/8/8/8/4K3/8/8/n7", "rule 2");
    // Rule 5: White's Queen is not the last placement, yet Black's is still in hand.
    assert_rule_error("8/8/2n5/3n4/4KQ2/4R3/8/8 b e3", "e3", "rule 5");
    // Rule 7: White's 8th walled in.
    assert_rule_error("8/8/8/8/8/8/rnbbqnrR/RNBQKBN1 b a1", "a1", "rule 7");
    // Rule 8: Black's King touches no White piece that could be White's 8th.
    assert_rule_error("8/8/8/8/8/k7/rnbbqnrR/RNBQKBN1 w a3", "a3", "rule 8");
    // The finished game's last placement is Black's King.
    assert_rule_error("8/8/8/8/8/7k/rnbbqnrR/RNBQKBN1 w g2", "g2", "rule 3");
    // The last-placement field.
    assert_rule_error("8/8/8/8/4K3/8/8/8 b -", "-", "not empty");
    assert_rule_error("8/8/8/8/8/8/8/8 w e4", "e4", "empty");
    assert_rule_error("8/8/8/8/4K3/8/8/8 b d4", "d4", "side that just moved");
    assert_rule_error("8/8/8/3q4/4K3/8/8/8 w e4", "e4", "side that just moved");
    assert_eq!(
        position_error("8/8/8/8/4K3/8/8/8 b e9"),
        PositionError::OffBoard {
            token: "e9".to_string()
        }
    );
    assert!(matches!(
        position_error("8/8/8/8/4K3/8/8/8 b 4e"),
        PositionError::Syntax { ref token, .. } if token == "4e"
    ));
}

/// Random byte strings and mutations of valid strings never panic the parsers.
#[test]
fn parsers_never_panic() {
    let mut rng = SplitMix64::new(99);
    let alphabet: Vec<char> = "KQRBNkqrbnPx0123456789/ wb-@eE\u{e9}\u{1F600}"
        .chars()
        .collect();
    let game = after(&["Ke4", "Qd5"]);
    for _ in 0..20_000 {
        let length = rng.below(40);
        let text: String = (0..length)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let _ = Cheversi::from_position_text(&text, &config());
        let _ = game.parse_move(&text);
        let mut valid = "8/8/5q2/3nQ3/4K3/8/8/8 w f6".to_string();
        let index = rng.below(valid.len());
        if valid.is_char_boundary(index) {
            valid.insert(index, alphabet[rng.below(alphabet.len())]);
        }
        if let Ok(parsed) = Cheversi::from_position_text(&valid, &config()) {
            assert_eq!(position(&parsed.position_text()), parsed);
        }
    }
}
