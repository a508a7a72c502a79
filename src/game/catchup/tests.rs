//! One test per rule clause of protocol.md's Appendix C, plus notation and position strings.

use std::cmp::Ordering;

use super::{Catchup, Move};
use crate::game::{
    CatchupRule, GameConfig, MoveError, Outcome, Player, PositionError, Rules, Variant,
};

fn config(side: usize, rule: CatchupRule) -> GameConfig {
    rule.chosen_in(GameConfig {
        size: Some(side),
        ..GameConfig::new(Variant::Catchup)
    })
}

fn at(text: &str, rule: CatchupRule) -> Catchup {
    Catchup::from_position_text(text, &config(5, rule))
        .unwrap_or_else(|error| panic!("{text}: {error}"))
}

fn play(position: &mut Catchup, text: &str) {
    let mv = position
        .parse_move(text)
        .unwrap_or_else(|error| panic!("{text}: {error}"));
    position.play_unchecked(mv);
}

fn start(rule: CatchupRule) -> Catchup {
    Catchup::start(&config(5, rule)).expect("side 5")
}

#[test]
fn start_is_the_empty_side_5_board_white_to_move_one_stone() {
    let position = start(CatchupRule::Revised);
    assert_eq!(position.position_text(), "5/6/7/8/9/8/7/6/5 w 1");
    assert_eq!(position.empty_count(), 61);
    assert_eq!(position.side_to_move(), Player::One);
    assert_eq!(position.outcome(), None);
    assert_eq!(position.score(), [1, 1], "scores are at least 1");
}

#[test]
fn first_turn_places_exactly_one_stone() {
    let position = start(CatchupRule::Revised);
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    assert_eq!(moves.len(), 61);
    assert!(moves.iter().all(|mv| mv.len() == 1));
    assert_eq!(
        position.parse_move("e5,e6"),
        Err(MoveError::TooManyStones {
            token: "e5,e6".into(),
            given: 2,
            allowed: 1
        })
    );
}

#[test]
fn first_stone_never_grants_three_under_either_rule() {
    // White's score stays 1 (at least 1 before, 1 after): not an increase, and the
    // largest group on the board, counted the same way, does not grow.
    for rule in [CatchupRule::Revised, CatchupRule::Original] {
        let mut position = start(rule);
        play(&mut position, "e5");
        assert_eq!(position.limit(), 2, "{rule:?}");
        assert_eq!(position.position_text(), "5/6/7/8/4W4/8/7/6/5 b 2");
        assert_eq!(position.count_moves(), 60 + 60 * 59 / 2);
    }
}

#[test]
fn revised_rule_grants_three_when_the_opponent_caught_up() {
    let mut position = start(CatchupRule::Revised);
    play(&mut position, "e5");
    play(&mut position, "a1,a2");
    // Black went from 1 to 2 and 2 >= White's 1.
    assert_eq!(position.limit(), 3);
    assert_eq!(position.stones_allowed(), 3);
    assert!(position.parse_move("i1,i2,i3").is_ok());
    // Two separate stones leave Black's score at 1: no increase.
    let mut position = start(CatchupRule::Revised);
    play(&mut position, "e5");
    play(&mut position, "a1,a3");
    assert_eq!(position.limit(), 2);
}

#[test]
fn revised_rule_grants_three_on_a_tie_but_original_does_not() {
    // White has a group of 3, Black a group of 2; Black grows it to 3.
    let text = "5/6/7/8/9/8/7/5W/BB1WW b 2";
    let mut revised = at(text, CatchupRule::Revised);
    play(&mut revised, "a3");
    assert_eq!(revised.score(), [3, 3]);
    assert_eq!(revised.limit(), 3, "3 increased from 2 and 3 >= 3");
    let mut original = at(text, CatchupRule::Original);
    play(&mut original, "a3");
    assert_eq!(
        original.limit(),
        2,
        "the largest group on the board stayed 3"
    );
}

#[test]
fn an_increase_still_below_the_mover_grants_nothing() {
    // White has 4; Black grows from 1 to 3: increased, but 3 < 4. Nor does it grow the
    // board maximum.
    for rule in [CatchupRule::Revised, CatchupRule::Original] {
        let mut position = at("5/6/7/8/9/8/7/WWWW2/B4 b 2", rule);
        play(&mut position, "a2,a3");
        assert_eq!(position.score(), [4, 3], "{rule:?}");
        assert_eq!(position.limit(), 2, "{rule:?}");
    }
}

#[test]
fn original_rule_grants_three_when_the_board_maximum_grows() {
    // The largest group was White's 3; Black makes 4: it grew.
    let text = "5/6/7/8/9/8/7/6/BB1WW b 2";
    let mut original = at("5/6/7/8/9/8/7/5W/BB1WW b 2", CatchupRule::Original);
    play(&mut original, "a3,b1");
    assert_eq!(original.score(), [3, 4]);
    assert_eq!(original.limit(), 3);
    // A turn that does not grow the board maximum (White 2 -> 2 while Black has 2).
    let mut position = at(text, CatchupRule::Original);
    play(&mut position, "i1");
    assert_eq!(position.limit(), 2);
    // Growing one's own group without passing the board maximum grants nothing either.
    let mut position = at("5/6/7/8/9/8/7/6/BBB1W b 2", CatchupRule::Original);
    play(&mut position, "i1");
    let mut reply = position.clone();
    play(&mut reply, "a4");
    assert_eq!(reply.score(), [2, 3]);
    assert_eq!(
        reply.limit(),
        2,
        "White 1 -> 2 but the board maximum is Black's 3"
    );
}

#[test]
fn not_increasing_grants_nothing_even_when_ahead() {
    // Black leads 3 to 1 and adds a separate stone: its score stays 3.
    let mut position = at("5/6/7/8/9/8/7/6/BBB1W b 2", CatchupRule::Revised);
    play(&mut position, "i5");
    assert_eq!(position.score(), [1, 3]);
    assert_eq!(position.limit(), 2);
}

#[test]
fn the_limit_is_capped_by_the_empty_cells_on_the_last_turns() {
    let config = config(2, CatchupRule::Revised);
    // Side 2 (7 cells), two empty cells, limit 3 in the string: only 2 stones fit.
    let position = Catchup::from_position_text("BW/B1W/W1 w 3", &config).expect("valid");
    assert_eq!(position.limit(), 3);
    assert_eq!(position.stones_allowed(), 2);
    assert_eq!(position.count_moves(), 3);
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&mv| position.move_text(mv)).collect();
    texts.sort();
    assert_eq!(texts, vec!["a2", "a2,b2", "b2"]);
    // The whole board cannot be over-filled.
    let last = Catchup::from_position_text("BW/BWW/W1 b 2", &config).expect("valid");
    assert_eq!(last.stones_allowed(), 1);
    assert_eq!(
        last.parse_move("a2,b1"),
        Err(MoveError::Occupied { token: "b1".into() })
    );
    assert!(matches!(
        position.parse_move("a2,b2,c1"),
        Err(MoveError::Occupied { .. })
    ));
}

#[test]
fn no_passing_and_the_game_ends_exactly_when_the_board_is_full() {
    let config = config(2, CatchupRule::Revised);
    let mut position = Catchup::from_position_text("BW/BWW/W1 b 2", &config).expect("valid");
    assert_eq!(position.outcome(), None);
    play(&mut position, "a2");
    assert_eq!(position.empty_count(), 0);
    assert_eq!(position.stones_allowed(), 0);
    assert_eq!(position.count_moves(), 0);
    let mut moves = vec![Move::single(0)];
    position.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert!(position.outcome().is_some());
    assert!(matches!(
        position.parse_move("a1"),
        Err(MoveError::GameOver { .. })
    ));
}

#[test]
fn end_of_game_compares_sorted_group_sizes_at_the_first_difference() {
    let side3 = config(3, CatchupRule::Revised);
    let cases = [
        // White [8, 2] against Black [8, 1]: tie on top, White wins on the second group.
        (
            "WWB/WWBW/WBBWB/WWBB/BWB w 2",
            vec![8, 2],
            vec![8, 1],
            Player::One,
        ),
        // White [8, 1] against Black [8, 2], even though White has more stones.
        (
            "WWW/BBWB/BBBWB/WBWW/BBW b 2",
            vec![8, 1],
            vec![8, 2],
            Player::Two,
        ),
        // White [7, 1, 1] against Black [7, 1, 1, 1]: decided by the padding zero.
        (
            "BWB/WWBW/BWBBB/WWBW/BWB w 2",
            vec![7, 1, 1],
            vec![7, 1, 1, 1],
            Player::Two,
        ),
        (
            "WBW/BBWB/WBWWW/BBWB/WBW w 2",
            vec![7, 1, 1, 1],
            vec![7, 1, 1],
            Player::One,
        ),
    ];
    for (text, white, black, winner) in cases {
        let position = Catchup::from_position_text(text, &side3).expect(text);
        assert_eq!(position.sorted_group_sizes(Player::One), white, "{text}");
        assert_eq!(position.sorted_group_sizes(Player::Two), black, "{text}");
        assert_eq!(position.score(), [white[0] as i32, black[0] as i32]);
        assert_eq!(position.outcome(), Some(Outcome::Win(winner)), "{text}");
        let expected = if winner == Player::One {
            Ordering::Greater
        } else {
            Ordering::Less
        };
        assert_eq!(position.compare_groups(), expected, "{text}");
    }
    // Different largest groups decide at once: White's column of 5 beats Black's 4s.
    let stripes =
        Catchup::from_position_text("WWW/BBBB/WWWWW/BBBB/WWW w 2", &side3).expect("valid");
    assert_eq!(stripes.sorted_group_sizes(Player::One), vec![5, 3, 3]);
    assert_eq!(stripes.sorted_group_sizes(Player::Two), vec![4, 4]);
    assert_eq!(stripes.outcome(), Some(Outcome::Win(Player::One)));
}

#[test]
fn a_score_is_the_largest_group_and_at_least_one() {
    let mut position = start(CatchupRule::Revised);
    assert_eq!(position.score(), [1, 1]);
    assert_eq!(position.largest_group(Player::One), 0);
    play(&mut position, "e5");
    play(&mut position, "a1,i5");
    assert_eq!(position.score(), [1, 1]);
    play(&mut position, "e4,e6");
    assert_eq!(position.score(), [3, 1]);
    assert_eq!(position.largest_group(Player::One), 3);
    assert_eq!(
        position.group_size_at(position.geometry().parse_cell("e6").expect("e6")),
        3
    );
    // Two groups joined by one stone count as one.
    let mut joined = at("5/6/7/8/9/8/7/5W/BB1BB b 2", CatchupRule::Revised);
    assert_eq!(joined.score(), [1, 2]);
    play(&mut joined, "a3");
    assert_eq!(joined.score(), [1, 5]);
}

#[test]
fn moves_print_canonically_and_parse_in_any_order() {
    let mut position = start(CatchupRule::Revised);
    play(&mut position, "e5");
    let mv = position.parse_move("i5,A1").expect("legal");
    assert_eq!(position.move_text(mv), "a1,i5");
    assert_eq!(position.parse_move("a1,i5"), Ok(mv));
    let geometry = position.geometry();
    let cells: Vec<usize> = ["i5", "a1"]
        .iter()
        .map(|name| geometry.parse_cell(name).expect("cell"))
        .collect();
    assert_eq!(Move::from_cells(&cells), Some(mv));
    assert_eq!(Move::from_cells(&[cells[0], cells[0]]), None);
    assert_eq!(Move::from_cells(&[]), None);
    assert_eq!(Move::from_cells(&[1, 2, 3, 4]), None);
    play(&mut position, "a2,a1");
    let three = position.parse_move("i1,c3,g7").expect("3 stones allowed");
    assert_eq!(position.move_text(three), "c3,g7,i1");
    assert_eq!(position.parse_move("g7,i1,c3"), Ok(three));
}

#[test]
fn every_malformed_move_gets_its_error() {
    let mut position = start(CatchupRule::Revised);
    play(&mut position, "e5");
    let cases: Vec<(&str, MoveError)> = vec![
        ("", MoveError::Empty),
        (
            "a1,,a2",
            MoveError::syntax("a1,,a2", "empty cell between commas"),
        ),
        ("a1,", MoveError::syntax("a1,", "empty cell between commas")),
        (
            "a1,x",
            MoveError::syntax("x", "expected a cell: row letter and number, e.g. e5"),
        ),
        (
            "5e",
            MoveError::syntax("5e", "expected a cell: row letter and number, e.g. e5"),
        ),
        (
            "e05",
            MoveError::syntax("e05", "expected a cell: row letter and number, e.g. e5"),
        ),
        (
            "e 5",
            MoveError::syntax("e 5", "expected a cell: row letter and number, e.g. e5"),
        ),
        ("a6", MoveError::OffBoard { token: "a6".into() }),
        ("j1", MoveError::OffBoard { token: "j1".into() }),
        ("a1,a1", MoveError::Duplicate { token: "a1".into() }),
        ("a1,A1", MoveError::Duplicate { token: "A1".into() }),
        ("e5", MoveError::Occupied { token: "e5".into() }),
        (
            "a1,a2,a3",
            MoveError::TooManyStones {
                token: "a1,a2,a3".into(),
                given: 3,
                allowed: 2,
            },
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(position.parse_move(text), Err(expected), "{text:?}");
    }
    // play() checks legality without building the move list.
    let mut copy = position.clone();
    let occupied = Move::single(position.geometry().parse_cell("e5").expect("e5"));
    assert!(matches!(
        copy.play(occupied),
        Err(MoveError::Illegal { .. })
    ));
    assert_eq!(copy.position_text(), position.position_text());
}

#[test]
fn position_strings_round_trip() {
    let side3 = config(3, CatchupRule::Revised);
    for (text, side) in [
        ("5/6/7/8/9/8/7/6/5 w 1", 5),
        ("5/6/7/8/4W4/8/7/6/5 b 2", 5),
        ("2B2/6/7/8/9/8/7/6/BB1WW w 3", 5),
        ("WWB/WWBW/WBBWB/WWBB/BWB w 2", 3),
        ("BW/B1W/W1 w 3", 2),
        ("9/10/11/12/13/14/15/16/17/16/15/14/13/12/11/10/W8 b 2", 9),
        (
            "9/10/11/12/13/14/15/16/17/16/15/14/13/12/11/10/BB1W5 w 3",
            9,
        ),
    ] {
        let mut config = side3;
        config.size = Some(side);
        let position = Catchup::from_position_text(text, &config)
            .unwrap_or_else(|error| panic!("{text}: {error}"));
        assert_eq!(position.side(), side);
        assert_eq!(position.position_text(), text);
        // The row count wins over the configured side.
        let other = Catchup::from_position_text(text, &side3).expect("same text");
        assert_eq!(other.hash(), position.hash());
    }
    // Surrounding blanks are ignored.
    let spaced = Catchup::from_position_text("  1B1/4/2W2/4/3   w  2 ", &side3).expect("valid");
    assert_eq!(spaced.position_text(), "1B1/4/2W2/4/3 w 2");
}

#[test]
fn hash_is_incremental_and_covers_stones_side_and_limit() {
    let mut position = start(CatchupRule::Revised);
    let mut seen = vec![position.hash()];
    for text in ["e5", "a1,a2", "i1,i2,i3", "c3"] {
        play(&mut position, text);
        let again = Catchup::from_position_text(
            &position.position_text(),
            &config(5, CatchupRule::Revised),
        )
        .expect("round trip");
        assert_eq!(again.hash(), position.hash(), "after {text}");
        assert!(!seen.contains(&position.hash()));
        seen.push(position.hash());
    }
    let base = "5/6/7/8/4W4/8/7/6/BB3 w ";
    let two = at(&format!("{base}2"), CatchupRule::Revised);
    let three = at(&format!("{base}3"), CatchupRule::Revised);
    assert_ne!(two.hash(), three.hash());
    let black = at("5/6/7/8/4W4/8/7/6/BB3 b 2", CatchupRule::Revised);
    assert_ne!(black.hash(), two.hash());
}

#[test]
fn every_malformed_position_gets_its_error() {
    let config = config(5, CatchupRule::Revised);
    let parse = |text: &str| Catchup::from_position_text(text, &config).map(|_| ());
    let cases: Vec<(&str, PositionError)> = vec![
        ("", PositionError::Empty),
        ("   ", PositionError::Empty),
        (
            "5/6/7/8/9/8/7/6/5 w",
            PositionError::FieldCount {
                token: "5/6/7/8/9/8/7/6/5 w".into(),
                expected: 3,
                found: 2,
            },
        ),
        (
            "5/6/7/8/9/8/7/6/5 w 1 x",
            PositionError::FieldCount {
                token: "5/6/7/8/9/8/7/6/5 w 1 x".into(),
                expected: 3,
                found: 4,
            },
        ),
        (
            "6/7/8/9/8/7/6/5 w 1",
            PositionError::syntax("6/7/8/9/8/7/6/5", "8 rows: a board of side n has 2n-1 rows"),
        ),
        (
            "1 w 1",
            PositionError::BoardSize {
                token: "1".into(),
                side: 1,
                min: 2,
                max: 9,
            },
        ),
        (
            "1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/19 w 1",
            PositionError::BoardSize {
                token: "1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/19".into(),
                side: 10,
                min: 2,
                max: 9,
            },
        ),
        (
            "5/6/7/8/9/8/7/6/4 w 1",
            PositionError::RowLength {
                token: "4".into(),
                expected: 5,
                found: 4,
            },
        ),
        (
            "5/6/7/8/9/8/7/6/WWWWWW w 1",
            PositionError::RowLength {
                token: "WWWWWW".into(),
                expected: 5,
                found: 6,
            },
        ),
        (
            "5/6/7/8/9/8/7//5 w 1",
            PositionError::RowLength {
                token: "".into(),
                expected: 6,
                found: 0,
            },
        ),
        (
            "5/6/7/8/9/8/7/6/05 w 1",
            PositionError::Number {
                token: "05".into(),
                reason: "empty run '05' must be 1 to 99 without leading zero".into(),
            },
        ),
        (
            "5/6/7/8/9/8/7/6/100 w 1",
            PositionError::Number {
                token: "100".into(),
                reason: "empty run '100' must be 1 to 99 without leading zero".into(),
            },
        ),
        (
            "5/6/7/8/9/8/7/6/12 w 1",
            PositionError::RowLength {
                token: "12".into(),
                expected: 5,
                found: 12,
            },
        ),
        (
            "5/6/7/8/9/8/7/6/4x w 1",
            PositionError::UnknownPiece {
                token: "4x".into(),
                letter: 'x',
            },
        ),
        (
            "5/6/7/8/9/8/7/6/4w w 1",
            PositionError::UnknownPiece {
                token: "4w".into(),
                letter: 'w',
            },
        ),
        (
            "5/6/7/8/9/8/7/6/4é w 1",
            PositionError::UnknownPiece {
                token: "4é".into(),
                letter: 'é',
            },
        ),
        (
            "5/6/7/8/9/8/7/6/5 x 1",
            PositionError::SideToMove { token: "x".into() },
        ),
        (
            "5/6/7/8/9/8/7/6/5 w 4",
            PositionError::Number {
                token: "4".into(),
                reason: "the stone limit must be 1, 2 or 3".into(),
            },
        ),
        (
            "5/6/7/8/9/8/7/6/5 w 0",
            PositionError::Number {
                token: "0".into(),
                reason: "the stone limit must be 1, 2 or 3".into(),
            },
        ),
        // An empty board is White's first turn.
        (
            "5/6/7/8/9/8/7/6/5 b 2",
            PositionError::CountsContradictSide { token: "b".into() },
        ),
        (
            "5/6/7/8/9/8/7/6/5 w 2",
            PositionError::rule("2", "White's first turn places exactly 1 stone (limit 1)"),
        ),
        (
            "5/6/7/8/4W4/8/7/6/5 b 1",
            PositionError::rule("1", "limit 1 only on the empty board (White's first turn)"),
        ),
        // Black stones but no White stone.
        (
            "5/6/7/8/4B4/8/7/6/5 w 2",
            PositionError::CountsContradictSide {
                token: "5/6/7/8/4B4/8/7/6/5".into(),
            },
        ),
        // White to move but Black has not moved.
        (
            "5/6/7/8/4W4/8/7/6/5 w 2",
            PositionError::CountsContradictSide {
                token: "5/6/7/8/4W4/8/7/6/5".into(),
            },
        ),
        // Before Black's first turn White has exactly one stone.
        (
            "5/6/7/8/4WW3/8/7/6/5 b 2",
            PositionError::CountsContradictSide {
                token: "5/6/7/8/4WW3/8/7/6/5".into(),
            },
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(parse(text), Err(expected), "{text:?}");
    }
    // Limit 3 needs the opponent to have just caught up (score at least 2 and the mover's).
    let three_error = parse("5/6/7/8/4W4/8/7/6/B4 w 3").expect_err("Black's score is 1");
    assert!(matches!(three_error, PositionError::Rule { ref token, .. } if token == "3"));
    assert!(parse("5/6/7/8/4W4/8/7/6/BB3 w 3").is_ok());
    assert!(
        parse("5/6/7/8/3WW4/8/7/6/BB3 w 3").is_ok(),
        "revised: a tie is enough"
    );
    let original = CatchupRule::Original.chosen_in(config);
    assert!(matches!(
        Catchup::from_position_text("5/6/7/8/3WW4/8/7/6/BB3 w 3", &original),
        Err(PositionError::Rule { .. })
    ));
}

#[test]
fn sides_two_to_nine_start_empty_and_others_are_refused() {
    for side in 2..=9 {
        let position = Catchup::start(&config(side, CatchupRule::Revised)).expect("supported");
        assert_eq!(position.empty_count(), 3 * side * (side - 1) + 1);
        assert_eq!(position.count_moves(), position.empty_count() as u64);
    }
    for side in [0, 1, 10] {
        assert!(matches!(
            Catchup::start(&config(side, CatchupRule::Revised)),
            Err(PositionError::BoardSize { .. })
        ));
    }
}

#[test]
fn no_input_string_panics() {
    // Mutations of valid strings (a tiny in-test generator keeps this repeatable).
    let mut state = 0x0123_4567_89AB_CDEFu64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet: Vec<char> = "WBwb0123456789/ ,aeik1é-x".chars().collect();
    let config = config(5, CatchupRule::Original);
    let mut position = start(CatchupRule::Revised);
    play(&mut position, "e5");
    let seeds = [
        "5/6/7/8/9/8/7/6/5 w 1",
        "WWB/WWBW/WBBWB/WWBB/BWB w 2",
        "5/6/7/8/4W4/8/7/6/BB3 w 3",
        "a1,b2,i5",
        "e10",
    ];
    for round in 0..4000 {
        let mut text: Vec<char> = seeds[round % seeds.len()].chars().collect();
        for _ in 0..1 + next() % 4 {
            let at = (next() % (text.len() as u64 + 1)) as usize;
            let letter = alphabet[(next() % alphabet.len() as u64) as usize];
            match next() % 3 {
                0 if at < text.len() => text[at] = letter,
                1 if at < text.len() => {
                    text.remove(at);
                }
                _ => text.insert(at, letter),
            }
        }
        let text: String = text.into_iter().collect();
        if let Ok(parsed) = Catchup::from_position_text(&text, &config) {
            let again = Catchup::from_position_text(&parsed.position_text(), &config)
                .expect("a printed position parses");
            assert_eq!(again.hash(), parsed.hash(), "{text}");
        }
        if let Ok(mv) = position.parse_move(&text) {
            assert!(position.clone().play(mv).is_ok(), "{text}");
        }
    }
}
