//! Parser unit tests: every command, its arguments and its errors.

use std::time::Duration;

use super::parse_line;
use super::{COMMANDS, help_lines};
use crate::protocol::command::{Command, Dialect, PositionStart, Query};
use crate::protocol::error::ProtocolError;
use crate::search::SearchLimits;

fn error_of(line: &str) -> String {
    match parse_line(line) {
        Command::Invalid(error) => error.to_string(),
        other => panic!("{line:?} parsed as {other:?}, expected an error"),
    }
}

fn limits(line: &str) -> SearchLimits {
    match parse_line(line) {
        Command::Go(limits) => limits,
        other => panic!("{line:?} parsed as {other:?}, expected go"),
    }
}

#[test]
fn blank_lines_are_empty_commands() {
    for line in ["", "   ", "\t", " \t \r"] {
        assert_eq!(parse_line(line), Command::Empty, "{line:?}");
    }
}

#[test]
fn bare_commands_and_their_aliases() {
    let cases = [
        ("ugi", Command::Hello(Dialect::Ugi)),
        ("uci", Command::Hello(Dialect::Uci)),
        ("UCI", Command::Hello(Dialect::Uci)),
        ("isready", Command::IsReady),
        ("  isready  ", Command::IsReady),
        ("uginewgame", Command::NewGame),
        ("ucinewgame", Command::NewGame),
        ("stop", Command::Stop),
        ("ponderhit", Command::PonderHit { received: None }),
        ("PonderHit now", Command::PonderHit { received: None }),
        ("d", Command::Show),
        ("show", Command::Show),
        ("bench", Command::Bench),
        ("eval", Command::Eval),
        ("help", Command::Help),
        ("quit", Command::Quit),
        // Extra tokens after a bare command are ignored.
        ("isready now please", Command::IsReady),
    ];
    for (line, expected) in cases {
        assert_eq!(parse_line(line), expected, "{line:?}");
    }
}

#[test]
fn unknown_commands_name_their_word() {
    assert_eq!(error_of("joho debug on"), "unknown command (joho)");
    assert_eq!(error_of("  xyzzy"), "unknown command (xyzzy)");
    assert_eq!(error_of("isready\u{7}x"), "unknown command (isready\u{7}x)");
}

#[test]
fn setoption_name_runs_to_value_and_value_keeps_spaces() {
    assert_eq!(
        parse_line("setoption name Hash value 128"),
        Command::SetOption {
            name: "Hash".to_string(),
            value: Some("128".to_string())
        }
    );
    assert_eq!(
        parse_line("setoption   NAME  Move  Overhead   VALUE  a  b  "),
        Command::SetOption {
            name: "Move Overhead".to_string(),
            value: Some("a  b".to_string())
        }
    );
    // Only the first `value` separates; later ones belong to the value.
    assert_eq!(
        parse_line("setoption name X value value 3"),
        Command::SetOption {
            name: "X".to_string(),
            value: Some("value 3".to_string())
        }
    );
    assert_eq!(
        parse_line("setoption name Hash"),
        Command::SetOption {
            name: "Hash".to_string(),
            value: None
        }
    );
    assert_eq!(
        parse_line("setoption name Hash value"),
        Command::SetOption {
            name: "Hash".to_string(),
            value: None
        }
    );
    assert_eq!(error_of("setoption"), "missing name (setoption)");
    assert_eq!(error_of("setoption Hash 3"), "expected name (Hash)");
    assert_eq!(error_of("setoption name"), "missing option name (name)");
    assert_eq!(
        error_of("setoption name value 3"),
        "missing option name (name)"
    );
}

#[test]
fn position_startpos_and_fen_with_moves() {
    assert_eq!(
        parse_line("position startpos"),
        Command::Position {
            start: PositionStart::StartPosition,
            moves: vec![]
        }
    );
    assert_eq!(
        parse_line("position startpos moves Ke4 qd5"),
        Command::Position {
            start: PositionStart::StartPosition,
            moves: vec!["Ke4".to_string(), "qd5".to_string()]
        }
    );
    assert_eq!(
        parse_line("position fen 8/8/8/8/4K3/8/8/8   b  e4 moves Qd5"),
        Command::Position {
            start: PositionStart::Text("8/8/8/8/4K3/8/8/8 b e4".to_string()),
            moves: vec!["Qd5".to_string()]
        }
    );
    assert_eq!(
        parse_line("position fen 5/6/7/8/9/8/7/6/5 w 1"),
        Command::Position {
            start: PositionStart::Text("5/6/7/8/9/8/7/6/5 w 1".to_string()),
            moves: vec![]
        }
    );
    assert_eq!(
        parse_line("position startpos moves"),
        Command::Position {
            start: PositionStart::StartPosition,
            moves: vec![]
        }
    );
}

#[test]
fn position_errors_name_the_token() {
    assert_eq!(error_of("position"), "missing startpos or fen (position)");
    assert_eq!(
        error_of("position start"),
        "expected startpos or fen (start)"
    );
    assert_eq!(error_of("position startpos Ke4"), "expected moves (Ke4)");
    assert_eq!(error_of("position fen"), "missing position string (fen)");
    assert_eq!(
        error_of("position fen moves Ke4"),
        "missing position string (fen)"
    );
}

#[test]
fn go_reads_limits_in_any_order_with_aliases() {
    let parsed = limits("go p2inc 20 depth 7 wtime 1000 btime 2000 p1inc 10 movestogo 30");
    assert_eq!(parsed.depth, Some(7));
    assert_eq!(
        parsed.clock.time,
        [
            Some(Duration::from_millis(1000)),
            Some(Duration::from_millis(2000))
        ]
    );
    assert_eq!(
        parsed.clock.increment,
        [Duration::from_millis(10), Duration::from_millis(20)]
    );
    assert_eq!(parsed.clock.moves_to_go, Some(30));
    let parsed = limits("go winc 5 binc 6 p1time 7 p2time 8 nodes 1000 movetime 250");
    assert_eq!(
        parsed.clock.time,
        [
            Some(Duration::from_millis(7)),
            Some(Duration::from_millis(8))
        ]
    );
    assert_eq!(
        parsed.clock.increment,
        [Duration::from_millis(5), Duration::from_millis(6)]
    );
    assert_eq!(parsed.nodes, Some(1000));
    assert_eq!(parsed.movetime, Some(Duration::from_millis(250)));
    assert!(!parsed.infinite);
    assert_eq!(limits("go"), SearchLimits::default());
    assert!(limits("go infinite").infinite);
    assert!(limits("GO INFINITE").infinite);
}

#[test]
fn go_skips_unknown_tokens_and_clamps_negative_times() {
    let parsed = limits("go ponder depth 3 searchmoves Ke4 mate 2");
    assert_eq!(parsed.depth, Some(3));
    let clock = parsed.ponder.expect("go ponder");
    assert_eq!(clock.started(), None, "pondering until ponderhit");
    assert!(limits("go depth 3").ponder.is_none());
    assert!(limits("go PONDER wtime 100").ponder.is_some());
    let parsed = limits("go wtime -150 btime 10");
    assert_eq!(parsed.clock.time[0], Some(Duration::ZERO));
    // The last value of a repeated keyword wins.
    assert_eq!(limits("go depth 3 depth 5").depth, Some(5));
}

#[test]
fn go_rejects_bad_numbers() {
    assert_eq!(error_of("go depth"), "missing argument (depth)");
    assert_eq!(
        error_of("go depth x"),
        "bad number for depth: not an integer (x)"
    );
    assert_eq!(
        error_of("go depth 0"),
        "bad number for depth: out of range, expected 1 to 255 (0)"
    );
    assert_eq!(
        error_of("go depth -3"),
        "bad number for depth: out of range, expected 1 to 255 (-3)"
    );
    assert_eq!(
        error_of("go nodes 99999999999999999999999"),
        "bad number for nodes: out of range, expected 1 to 18446744073709551615 (99999999999999999999999)"
    );
    assert_eq!(
        error_of("go wtime 1e5"),
        "bad number for wtime: not an integer (1e5)"
    );
    assert_eq!(
        error_of("go movetime 999999999999999999999999999999999999999999"),
        "bad number for movetime: out of range (999999999999999999999999999999999999999999)"
    );
    assert_eq!(
        error_of("go movestogo 0"),
        "bad number for movestogo: out of range, expected 1 to 4294967295 (0)"
    );
    assert_eq!(
        error_of("go infinite movetime"),
        "missing argument (movetime)"
    );
}

#[test]
fn query_words() {
    for (word, query) in Query::ALL {
        assert_eq!(parse_line(&format!("query {word}")), Command::Query(query));
        assert_eq!(
            parse_line(&format!("query {}", word.to_uppercase())),
            Command::Query(query)
        );
    }
    assert_eq!(error_of("query"), "missing argument (query)");
    assert_eq!(
        error_of("query colour"),
        "unknown query, expected gameover, p1turn, result, moves, score, fen, variant (colour)"
    );
}

#[test]
fn perft_and_divide_depths() {
    assert_eq!(parse_line("perft 3"), Command::Perft(3));
    assert_eq!(parse_line("divide 0"), Command::Divide(0));
    assert_eq!(parse_line("divide 64"), Command::Divide(64));
    assert_eq!(error_of("perft"), "missing argument (perft)");
    assert_eq!(
        error_of("perft 65"),
        "bad number for perft: out of range, expected 0 to 64 (65)"
    );
    assert_eq!(
        error_of("divide two"),
        "bad number for divide: not an integer (two)"
    );
}

#[test]
fn every_table_word_parses_and_help_lists_it() {
    let help = help_lines().join("\n");
    for spec in COMMANDS {
        for word in spec.words {
            assert!(help.contains(word), "help lacks {word}");
            let command = parse_line(word);
            let known = !matches!(
                &command,
                Command::Invalid(ProtocolError::UnknownCommand { .. })
            );
            assert!(known, "{word} is not recognised: {command:?}");
        }
    }
}

#[test]
fn parsing_never_panics_on_odd_text() {
    let samples = [
        "position fen \u{0}\u{0}",
        "go depth \u{ff10}",
        "setoption name \u{202e} value \u{1f600}",
        "query \u{feff}",
        "perft -0",
        "go +5 depth +5",
    ];
    for line in samples {
        let _ = parse_line(line);
    }
    assert_eq!(limits("go depth +5").depth, Some(5));
}
