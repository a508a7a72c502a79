//! One test per rule clause of protocol.md's Appendix B, plus notation and position strings.

use super::*;
use crate::game::GameRecord;

fn config(variant: Variant) -> GameConfig {
    GameConfig::new(variant)
}

fn kruzno(text: &str) -> SmallCheckers {
    SmallCheckers::from_position_text(text, &config(Variant::Kruzno))
        .unwrap_or_else(|error| panic!("{error}: {text}"))
}

fn hexcheckers(text: &str) -> LargeCheckers {
    LargeCheckers::from_position_text(text, &config(Variant::HexCheckers))
        .unwrap_or_else(|error| panic!("{error}: {text}"))
}

/// The legal moves as sorted canonical text.
fn texts<const N: usize>(position: &Checkers<N>) -> Vec<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&mv| position.move_text(mv)).collect();
    texts.sort();
    texts
}

fn play<const N: usize>(position: &mut Checkers<N>, text: &str) {
    let mv = position
        .parse_move(text)
        .unwrap_or_else(|error| panic!("{error}"));
    position.play_unchecked(mv);
}

/// White d4 with Black d5 ahead of an empty d6, and steps elsewhere.
const ONE_CAPTURE: &str = "6/2B4/8/9/10/11/4B5/3W5/8/1W5/6 w - 0 1";
/// White d4 can take d5 then e6 (ending on f6), or e4 alone (ending on f4).
const TWO_CHAINS: &str = "6/2B4/8/9/10/11/3B1B4/3WB4/8/1W5/6 w - 0 1";
/// White e5 inside the triangle e6, f6, f7: chains around it return to e5.
const TRIANGLE: &str = "6/2B1B2/8/9/10/5BB4/4WB4/9/8/1W1W3/6 w - 0 1";
/// Black's k1 is walled in by White men: Black to move has lost.
const BLOCKED: &str = "BWW3/WW5/W1W5/9/10/11/10/9/8/7/6 b - 0 30";

#[test]
fn capture_is_mandatory() {
    let position = kruzno(ONE_CAPTURE);
    // Without the rule, b2 and d4 would have steps.
    assert_eq!(texts(&position), vec!["d4xf6"]);
    assert!(matches!(
        position.parse_move("b2-b3"),
        Err(MoveError::Illegal { ref reason, .. }) if reason.contains("capture is mandatory")
    ));
}

#[test]
fn chains_continue_while_a_jump_exists() {
    let position = kruzno(TWO_CHAINS);
    assert!(texts(&position).contains(&"d4xd6xf6".to_string()));
    // Stopping after the first jump is not a move: d6 has a further jump.
    assert!(matches!(
        position.parse_move("d4xd6"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn any_complete_chain_may_be_chosen() {
    let position = kruzno(TWO_CHAINS);
    // No majority rule: the single capture stands beside the double one.
    assert_eq!(texts(&position), vec!["d4xd6xf6", "d4xf4"]);
    let mut short = position.clone();
    play(&mut short, "d4xf4");
    assert_eq!(short.score(), [2, 3]);
    let mut long = position;
    play(&mut long, "d4xd6xf6");
    assert_eq!(long.score(), [2, 2]);
}

#[test]
fn a_man_is_never_jumped_twice() {
    // d4 takes d5 landing on d6; jumping d5 again back to the (empty) start is not allowed.
    let position = kruzno("6/2B4/8/9/10/11/10/3WB4/8/7/6 w - 0 1");
    assert_eq!(texts(&position), vec!["d4xd6"]);
}

#[test]
fn a_triangle_chain_returns_to_its_start() {
    let position = kruzno(TRIANGLE);
    assert_eq!(texts(&position), vec!["e5xe7xg6xe5", "e5xg6xe7xe5"]);
    let mut after = position.clone();
    play(&mut after, "e5xe7xg6xe5");
    let e5 = position.geometry().parse_cell("e5").expect("e5");
    assert!(after.men(Player::One).contains(e5));
    assert_eq!(after.score(), [3, 2]);
    assert_eq!(after.plies_since_capture(), 0);
}

#[test]
fn different_paths_are_different_moves() {
    let position = kruzno(TRIANGLE);
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    assert_eq!(moves.len(), 2);
    assert_ne!(moves[0], moves[1]);
    let (mut first, mut second) = (position.clone(), position);
    first.play_unchecked(moves[0]);
    second.play_unchecked(moves[1]);
    assert_eq!(first.position_text(), second.position_text());
    assert!(
        moves
            .iter()
            .all(|mv| mv.is_capture() && mv.capture_count() == 3)
    );
}

#[test]
fn a_blocked_side_loses() {
    let position = kruzno(BLOCKED);
    assert!(texts(&position).is_empty());
    assert_eq!(position.count_moves(), 0);
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::One)));
    let no_men = kruzno("6/7/8/9/10/11/3W6/9/8/7/6 b - 10 20");
    assert_eq!(no_men.outcome(), Some(Outcome::Win(Player::One)));
}

#[test]
fn obligation_exits_only() {
    // White's f1 is obligated; f2 is its only empty non-border neighbour.
    let position = kruzno("6/2B4/4B3/3BB4/10/W10/10/4W4/3WW3/7/6 w f1 3 4");
    assert_eq!(texts(&position), vec!["f1-f2"]);
    assert!(matches!(
        position.parse_move("c4-d5"),
        Err(MoveError::Illegal { ref reason, .. }) if reason.contains("obligated")
    ));
}

#[test]
fn obligation_yields_to_captures() {
    let position = kruzno("6/2B4/4B3/4B4/10/W10/10/4WB3/3WW3/7/6 w f1 3 4");
    let moves = texts(&position);
    assert!(!moves.is_empty() && moves.iter().all(|text| text.contains('x')));
    // The obligation lapses with the capture.
    let mut after = position;
    play(&mut after, &moves[0]);
    assert_eq!(after.obligation(Player::One), None);
}

#[test]
fn a_blocked_obligated_man_frees_every_step() {
    // f2 is taken and f1's other neighbours are border cells: every step is allowed.
    let position = kruzno("6/2B4/4B3/3BB4/10/WW9/10/9/3WW3/7/6 w f1 3 4");
    let moves = texts(&position);
    assert!(moves.contains(&"c4-d4".to_string()));
    assert!(moves.contains(&"f1-e1".to_string()) && moves.contains(&"f1-g1".to_string()));
    assert_eq!(moves.len() as u64, position.count_moves());
}

#[test]
fn an_obligation_lapses_after_one_turn_and_arises_on_the_border() {
    let mut position = kruzno("6/2B4/4B3/3BB4/10/W10/10/4W4/3WW3/7/6 w f1 3 4");
    play(&mut position, "f1-f2");
    assert_eq!(position.obligation(Player::One), None);
    play(&mut position, "h4-g4");
    // No obligation now: every White step is legal again.
    assert!(texts(&position).len() > 1);
    play(&mut position, "f2-f1");
    let f1 = position.geometry().parse_cell("f1");
    assert_eq!(position.obligation(Player::One), f1);
    assert!(position.position_text().contains(" f1 "));
}

#[test]
fn both_sides_can_be_obligated() {
    let mut position = kruzno("3B2/7/4B3/2B1B4/10/11/10/4W4/3WW3/7/2W3 w a3,k4 5 6");
    assert_eq!(texts(&position), vec!["a3-b3", "a3-b4"]);
    play(&mut position, "a3-b4");
    // White's lapsed; Black's still binds Black's turn.
    assert_eq!(position.obligation(Player::One), None);
    assert_eq!(texts(&position), vec!["k4-j4", "k4-j5"]);
    assert_eq!(
        position.position_text(),
        "3B2/7/4B3/2B1B4/10/11/10/4W4/3WW3/3W3/6 b k4 6 6"
    );
}

#[test]
fn an_obligation_vanishes_when_its_man_is_captured() {
    // Black's k4 is obligated; White's obligated k5 must capture it along the last row.
    let mut position = kruzno("3BW1/7/4B3/2B1B4/10/11/10/4W4/3WW3/7/6 w k4,k5 5 6");
    assert_eq!(texts(&position), vec!["k5xk3"]);
    play(&mut position, "k5xk3");
    assert_eq!(position.obligation(Player::Two), None);
    // Black may now make any step; White ended on the border and is obligated anew.
    assert_eq!(texts(&position).len(), 16);
    let k3 = position.geometry().parse_cell("k3");
    assert_eq!(position.obligation(Player::One), k3);
    assert_eq!(
        position.position_text(),
        "2W3/7/4B3/2B1B4/10/11/10/4W4/3WW3/7/6 b k3 0 6"
    );
}

/// Plays `plies` plies of a 4-ply shuffle from `start` and returns the record.
fn shuffle(start: &str, plies: usize) -> GameRecord<SmallCheckers> {
    let mut record = GameRecord::new(kruzno(start));
    let cycle = ["h4-h5", "d4-d5", "h5-h4", "d5-d4"];
    for text in cycle.iter().cycle().take(plies) {
        record.play_text(text).expect("legal");
    }
    record
}

#[test]
fn threefold_repetition_counts_obligations() {
    // White's f1 (blocked by f2) is obligated at the start, Black to move. The 4-ply
    // shuffle brings back the board and side after plies 4 and 8, but without the
    // obligation, so the start does not count: the first third occurrence is at ply 10.
    let board = "6/7/8/3B5/10/WW9/10/3W5/8/7/6";
    let obligated = format!("{board} b f1 0 1");
    assert_eq!(shuffle(&obligated, 8).outcome(), None);
    let drawn = shuffle(&obligated, 10);
    assert_eq!(drawn.outcome(), Some(Outcome::Draw));
    let mut moves = Vec::new();
    drawn.legal_moves(&mut moves);
    assert!(moves.is_empty());
    let mut after = drawn;
    assert!(matches!(
        after.play_text("h5-h4"),
        Err(MoveError::GameOver { .. })
    ));
    // Without the obligation at the start, ply 8 is already the third occurrence.
    let free = format!("{board} b - 0 1");
    assert_eq!(shuffle(&free, 7).outcome(), None);
    assert_eq!(shuffle(&free, 8).outcome(), Some(Outcome::Draw));
}

#[test]
fn the_hash_sees_obligations_and_the_side_but_not_the_counters() {
    let with = kruzno("6/7/8/3B5/10/WW9/10/3W5/8/7/6 b f1 0 1");
    let without = kruzno("6/7/8/3B5/10/WW9/10/3W5/8/7/6 b - 0 1");
    let white = kruzno("6/7/8/3B5/10/WW9/10/3W5/8/7/6 w - 0 1");
    let counters = kruzno("6/7/8/3B5/10/WW9/10/3W5/8/7/6 b - 17 40");
    assert_ne!(with.hash(), without.hash());
    assert_ne!(white.hash(), without.hash());
    assert_eq!(counters.hash(), without.hash());
}

#[test]
fn eighty_plies_without_capture_draw() {
    let mut position = kruzno("6/7/5B2/4B4/4BB4/11/3WW5/5W3/4W3/7/6 w - 79 60");
    assert_eq!(position.outcome(), None);
    play(&mut position, "c5-c4");
    assert_eq!(position.plies_since_capture(), 80);
    assert_eq!(position.outcome(), Some(Outcome::Draw));
    assert!(texts(&position).is_empty());
    assert_eq!(position.count_moves(), 0);
    // A capture resets the counter.
    let mut capture = kruzno("6/2B4/8/9/10/11/4B5/3W5/8/1W5/6 w - 79 60");
    play(&mut capture, "d4xf6");
    assert_eq!(capture.plies_since_capture(), 0);
    assert_eq!(capture.outcome(), None);
}

#[test]
fn no_move_loses_even_when_a_draw_rule_holds() {
    let blocked = kruzno("BWW3/WW5/W1W5/9/10/11/10/9/8/7/6 b - 80 30");
    assert_eq!(blocked.outcome(), Some(Outcome::Win(Player::One)));
    // Through the record too, with a repetition-free history.
    assert_eq!(
        GameRecord::new(blocked).outcome(),
        Some(Outcome::Win(Player::One))
    );
}

#[test]
fn move_notation_is_canonical_and_short_forms_parse() {
    let position = kruzno(TWO_CHAINS);
    let long = position.parse_move("d4xd6xf6").expect("full path");
    assert_eq!(position.move_text(long), "d4xd6xf6");
    assert_eq!(position.parse_move("d4xf6"), Ok(long));
    assert_eq!(position.parse_move("d4-f6"), Ok(long));
    assert_eq!(position.parse_move(" D4XD6XF6 "), Ok(long));
    let start = SmallCheckers::start(&config(Variant::Kruzno)).expect("start");
    let step = start.parse_move("d4-e5").expect("step");
    assert_eq!(start.move_text(step), "d4-e5");
    assert!(!step.is_capture() && step.capture_count() == 0);
    assert_eq!(start.landing_cells(step).count(), 1);
    // A step is not a capture, so `x` does not name it.
    assert!(matches!(
        start.parse_move("d4xe5"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn short_forms_matching_several_chains_are_ambiguous() {
    let position = kruzno(TRIANGLE);
    assert_eq!(
        position.parse_move("e5xe5"),
        Err(MoveError::Ambiguous {
            token: "e5xe5".to_string(),
            count: 2
        })
    );
    assert!(position.parse_move("e5xg6xe7xe5").is_ok());
}

#[test]
fn malformed_moves_get_their_errors() {
    let start = SmallCheckers::start(&config(Variant::Kruzno)).expect("start");
    assert_eq!(start.parse_move("  "), Err(MoveError::Empty));
    let syntax = [
        "d4", "d4-e5-f6", "d4-e5xf6", "d4--e5", "d4-", "4d-e5", "d4-e5!", "é4-e5",
    ];
    for text in syntax {
        assert!(
            matches!(start.parse_move(text), Err(MoveError::Syntax { .. })),
            "{text}: {:?}",
            start.parse_move(text)
        );
    }
    for (text, token) in [("d4-z9", "z9"), ("a7-b7", "a7"), ("d4-e99", "e99")] {
        assert_eq!(
            start.parse_move(text),
            Err(MoveError::OffBoard {
                token: token.to_string()
            })
        );
    }
    for (text, reason) in [
        ("e5-e6", "no White man on e5"),
        ("j2-i2", "no White man on j2"),
        ("d4-d6", "no such move"),
        ("d4-d5", "no such move"),
    ] {
        assert_eq!(
            start.parse_move(text),
            Err(MoveError::illegal(text, reason))
        );
    }
    let over = kruzno(BLOCKED);
    assert!(matches!(
        over.parse_move("k1-k2"),
        Err(MoveError::GameOver { .. })
    ));
}

#[test]
fn start_positions_are_as_in_the_rules() {
    let kruzno_start = SmallCheckers::start(&config(Variant::Kruzno)).expect("start");
    assert_eq!(
        kruzno_start.position_text(),
        "6/1BBBBB1/2BBBB2/3BBB3/10/11/10/3WWW3/2WWWW2/1WWWWW1/6 w - 0 1"
    );
    assert!(kruzno_start.border_rule());
    assert_eq!(kruzno_start.score(), [12, 12]);
    let hex = LargeCheckers::start(&config(Variant::HexCheckers)).expect("start");
    assert_eq!(
        hex.position_text(),
        "BBBBBBBBB/BBBBBBBBBB/BBBBBBBBBBB/12/13/14/15/16/17/16/15/14/13/12/\
         WWWWWWWWWWW/WWWWWWWWWW/WWWWWWWWW w - 0 1"
    );
    assert!(!hex.border_rule());
    assert_eq!(hex.score(), [30, 30]);
    assert_eq!(hex.geometry().side(), 9);
    // The width must fit the side.
    assert!(matches!(
        SmallCheckers::start(&config(Variant::HexCheckers)),
        Err(PositionError::BoardSize { side: 9, .. })
    ));
}

#[test]
fn move_number_grows_after_black_moves() {
    let mut position = SmallCheckers::start(&config(Variant::Kruzno)).expect("start");
    play(&mut position, "d4-e5");
    assert_eq!(position.move_number(), 1);
    play(&mut position, "h4-g4");
    assert_eq!(position.move_number(), 2);
    assert_eq!(position.plies_since_capture(), 2);
}

#[test]
fn position_strings_round_trip() {
    for text in [
        ONE_CAPTURE,
        TWO_CHAINS,
        TRIANGLE,
        BLOCKED,
        "3B2/7/4B3/2B1B4/10/11/10/4W4/3WW3/7/2W3 w a3,k4 5 6",
        "6/7/5B2/4B4/4BB4/11/3WW5/5W3/4W3/7/6 b - 80 60",
    ] {
        let position = kruzno(text);
        assert_eq!(position.position_text(), text);
        assert_eq!(kruzno(&position.position_text()).hash(), position.hash());
    }
    let big = "9/10/11/12/13/5BBBB5/5B1B1B5/5BBBBBB5/5B1BWB1B5/5BBBBBB5/5B1B1B5/5BBBB5/13/12/11/10/W7W w - 0 1";
    assert_eq!(hexcheckers(big).position_text(), big);
}

/// Recognises the expected kind of position error.
type ErrorCheck = fn(&PositionError) -> bool;

#[test]
fn malformed_positions_get_their_errors() {
    let kruzno_parse =
        |text: &str| SmallCheckers::from_position_text(text, &config(Variant::Kruzno));
    let hex_parse =
        |text: &str| SmallCheckers::from_position_text(text, &config(Variant::HexCheckers));
    let board = "6/7/8/3B5/10/WW9/10/3W5/8/7/6";
    assert!(matches!(kruzno_parse(""), Err(PositionError::Empty)));
    assert!(matches!(
        kruzno_parse(&format!("{board} w -")),
        Err(PositionError::FieldCount {
            expected: 5,
            found: 3,
            ..
        })
    ));
    // Row counts: even, too few (side 3), too many (side 10).
    for rows in [
        "6/7/8/9/10/11/10/9/8/7",
        "3/4/5/4/3",
        "10/11/12/13/14/15/16/17/18/19/18/17/16/15/14/13/12/11/10",
    ] {
        assert!(
            matches!(
                kruzno_parse(&format!("{rows} w - 0 1")),
                Err(PositionError::BoardSize { .. })
            ),
            "{rows}"
        );
    }
    let cases: [(&str, ErrorCheck, &str); 18] = [
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/7 w - 0 1",
            |e| {
                matches!(
                    e,
                    PositionError::RowLength {
                        expected: 6,
                        found: 7,
                        ..
                    }
                )
            },
            "7",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/5 w - 0 1",
            |e| {
                matches!(
                    e,
                    PositionError::RowLength {
                        expected: 6,
                        found: 5,
                        ..
                    }
                )
            },
            "5",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/06 w - 0 1",
            |e| matches!(e, PositionError::Syntax { .. }),
            "06",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/0W5 w - 0 1",
            |e| matches!(e, PositionError::Syntax { .. }),
            "0W5",
        ),
        (
            "6/7/8/3X5/10/WW9/10/3W5/8/7/6 w - 0 1",
            |e| matches!(e, PositionError::UnknownPiece { letter: 'X', .. }),
            "3X5",
        ),
        (
            "6/7/8/3b5/10/WW9/10/3W5/8/7/6 w - 0 1",
            |e| matches!(e, PositionError::UnknownPiece { letter: 'b', .. }),
            "3b5",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/6 x - 0 1",
            |e| matches!(e, PositionError::SideToMove { .. }),
            "x",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/6 w z1 0 1",
            |e| matches!(e, PositionError::OffBoard { .. }),
            "z1",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/6 w a1 0 1",
            |e| matches!(e, PositionError::Rule { .. }),
            "a1",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/6 w d4 0 1",
            |e| matches!(e, PositionError::Rule { .. }),
            "d4",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/6 w f1,f1 0 1",
            |e| matches!(e, PositionError::Duplicate { .. }),
            "f1",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/W5 w f1,a1 0 1",
            |e| matches!(e, PositionError::Rule { .. }),
            "a1",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/W5 w a1,f1 0 1",
            |e| matches!(e, PositionError::Rule { .. }),
            "f1",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/6 w - 81 1",
            |e| matches!(e, PositionError::Number { .. }),
            "81",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/6 w - +3 1",
            |e| matches!(e, PositionError::Number { .. }),
            "+3",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/6 w - 0 0",
            |e| matches!(e, PositionError::Number { .. }),
            "0",
        ),
        (
            "6/7/8/3B5/10/WW9/10/3W5/8/7/6 w - 0 01",
            |e| matches!(e, PositionError::Number { .. }),
            "01",
        ),
        (
            "6/BBBBBBB/BBBBBBBB/3B5/10/WW9/10/3W5/8/7/6 w - 0 1",
            |e| matches!(e, PositionError::TooManyPieces { .. }),
            "6/BBBBBBB/BBBBBBBB/3B5/10/WW9/10/3W5/8/7/6",
        ),
    ];
    for (text, is_expected, token) in cases {
        let error = kruzno_parse(text).expect_err(text);
        assert!(is_expected(&error), "{text}: {error:?}");
        assert_eq!(error.token(), token, "{text}");
    }
    // Hex checkers has no obligations.
    let error = hex_parse(&format!("{board} w f1 0 1")).expect_err("no border rule");
    assert!(matches!(error, PositionError::Rule { .. }) && error.token() == "f1");
    assert!(hex_parse(&format!("{board} w - 0 1")).is_ok());
    // Kruzno from another side is fine.
    assert!(kruzno_parse("1B2/2B2/3B2/4B2/1W4/2W2/W3 b - 12 20").is_ok());
}

#[test]
fn accessors_describe_the_position() {
    let position = kruzno("3B2/7/4B3/2B1B4/10/11/10/4W4/3WW3/7/2W3 w a3,k4 5 6");
    let geometry = position.geometry();
    assert_eq!(position.obligation(Player::One), geometry.parse_cell("a3"));
    assert_eq!(position.obligation(Player::Two), geometry.parse_cell("k4"));
    assert_eq!(position.plies_since_capture(), 5);
    assert_eq!(position.move_number(), 6);
    assert_eq!(position.men(Player::One).len(), 4);
    assert_eq!(position.score(), [4, 4]);
    assert_eq!(position.repetition_window(), 5);
    let capture = kruzno(TWO_CHAINS);
    let mv = capture.parse_move("d4xd6xf6").expect("legal");
    let taken: Vec<String> = capture
        .captured_cells(mv)
        .iter()
        .map(|cell| geometry.cell_name(cell))
        .collect();
    assert_eq!(taken, vec!["d5", "e6"]);
    assert_eq!(mv.capture_count(), 2);
}

#[test]
fn garbage_input_never_panics() {
    // A tiny xorshift stream mutating valid strings: every result is Ok or a typed error.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet: Vec<char> = "WB0123456789/ -,xXabcdefghijklmnopqrstuvwz\u{e9}"
        .chars()
        .collect();
    let seeds = [
        TRIANGLE,
        BLOCKED,
        "3B2/7/4B3/2B1B4/10/11/10/4W4/3WW3/7/2W3 w a3,k4 5 6",
    ];
    let moves = ["e5xe7xg6xe5", "d4-e5", "k4-j4", "a3xc3xc5"];
    for round in 0..3000 {
        let mutate = |text: &str, next: &mut dyn FnMut() -> u64| -> String {
            let mut chars: Vec<char> = text.chars().collect();
            for _ in 0..1 + next() % 3 {
                let at = (next() % (chars.len() as u64 + 1)) as usize;
                let letter = alphabet[(next() % alphabet.len() as u64) as usize];
                match next() % 3 {
                    0 if at < chars.len() => chars[at] = letter,
                    1 if at < chars.len() => {
                        chars.remove(at);
                    }
                    _ => chars.insert(at, letter),
                }
            }
            chars.into_iter().collect()
        };
        let text = mutate(seeds[round % seeds.len()], &mut next);
        for variant in [Variant::Kruzno, Variant::HexCheckers] {
            if let Ok(position) = SmallCheckers::from_position_text(&text, &config(variant)) {
                // Whatever parses must print back canonically and parse again.
                let again =
                    SmallCheckers::from_position_text(&position.position_text(), &config(variant))
                        .expect("canonical text parses");
                assert_eq!(again.hash(), position.hash());
            }
        }
        let position = kruzno(seeds[round % seeds.len()]);
        let text = mutate(moves[round % moves.len()], &mut next);
        if let Ok(mv) = position.parse_move(&text) {
            assert_eq!(position.parse_move(&position.move_text(mv)), Ok(mv));
        }
    }
}

/// Random games from `start`: the running placement sums always equal the sums from
/// scratch, the backed offers equal their cell-by-cell definition, a list of steps is
/// sorted (the search finds killers by binary search), and without a capture the step
/// count and the legality test of a single step (how the search checks killers before
/// listing the moves) agree with the list.
fn check_random_games<const N: usize>(start: &Checkers<N>, seed: u64) {
    let mut rng = crate::random::SplitMix64::new(seed);
    let mut moves = Vec::new();
    for _ in 0..20 {
        let mut position = start.clone();
        for _ in 0..200 {
            position.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let text = position.position_text();
            if !moves[0].is_capture() {
                assert!(moves.is_sorted(), "{text}");
                assert_eq!(position.step_count(), Some(moves.len() as u32), "{text}");
                for &cell in position.geometry().cells() {
                    for direction in 0..6 {
                        let step = Move::step(cell as usize, direction);
                        assert_eq!(
                            position.is_legal_step(step),
                            moves.contains(&step),
                            "{text} {step:?}"
                        );
                    }
                }
            } else {
                assert_eq!(position.step_count(), None, "{text}");
            }
            assert_eq!(
                position.backed_offers(),
                backed_offers_cell_by_cell(&position),
                "{text}"
            );
            position.play_unchecked(moves[rng.below(moves.len())]);
            assert_eq!(position.placement, position.full_placement());
        }
    }
}

/// [`Checkers::backed_offers`] from its definition, one cell and one direction at a time.
fn backed_offers_cell_by_cell<const N: usize>(position: &Checkers<N>) -> [u32; 2] {
    let valid = position.valid();
    let holds = |set: StridedSet<N>, cell: isize| cell >= 0 && set.contains(cell as usize);
    let empty = |cell: isize| {
        holds(valid, cell) && !holds(position.men[0], cell) && !holds(position.men[1], cell)
    };
    let offsets = position.layout.offsets.map(isize::from);
    [0, 1].map(|colour| {
        let (own, enemy) = (position.men[colour], position.men[1 - colour]);
        let reached = |cell: isize| offsets.iter().any(|&offset| holds(own, cell + offset));
        let offer = |cell: isize, offset: isize| {
            holds(enemy, cell + offset)
                && holds(own, cell - 2 * offset)
                && !empty(cell - 3 * offset)
                && (holds(own, cell - offset) || (empty(cell - offset) && reached(cell)))
        };
        position
            .geometry()
            .cells()
            .iter()
            .map(|&cell| cell as isize)
            .filter(|&cell| empty(cell) && offsets.iter().any(|&offset| offer(cell, offset)))
            .count() as u32
    })
}

#[test]
fn placement_sums_follow_the_men_and_step_lists_are_sorted() {
    let start = SmallCheckers::start(&config(Variant::Kruzno)).expect("Kruzno starts");
    check_random_games(&start, 5);
    for side in 4..=9 {
        let config = GameConfig {
            size: Some(side),
            ..config(Variant::HexCheckers)
        };
        let start = LargeCheckers::start(&config).expect("sides 4-9 exist");
        check_random_games(&start, side as u64);
    }
}
