//! The binary's I/O edges: raw bytes on stdin, end of input, a closed stdout.

mod protocol_support;

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use protocol_support::Engine;

/// Closes the engine's input: it exits with status 0, and the search it was running
/// (stopped, or finished) reports exactly one `bestmove`.
fn closes_with_one_bestmove(engine: Engine) {
    let (rest, status) = engine.close();
    assert!(status.success(), "exit status {status}");
    let moves = rest
        .iter()
        .filter(|line| line.starts_with("bestmove "))
        .count();
    assert_eq!(moves, 1, "the search reports once: {rest:?}");
}

#[test]
fn raw_input_lines_are_checked_before_parsing() {
    let mut engine = Engine::spawn();
    engine.send_bytes(b"isready\r\n");
    assert_eq!(engine.next_line().as_deref(), Some("readyok"));
    engine.send_bytes(b"query \xff\xfe variant\n");
    assert_eq!(
        engine.next_line().as_deref(),
        Some("info string error: line is not valid UTF-8 (byte 6)")
    );
    let mut long = vec![b' '; tessera::protocol::io::MAX_LINE_BYTES];
    long.extend_from_slice(b"isready\n");
    engine.send_bytes(&long);
    assert_eq!(
        engine.next_line().as_deref(),
        Some("info string error: line too long, the limit is 1048576 bytes (1048583 bytes)")
    );
    engine.send_bytes(b"\n\t\n   \nquery\tp1turn \r\n");
    assert_eq!(engine.next_line().as_deref(), Some("response true"));
    engine.send_bytes(b"\x1b[2Jboom\n");
    assert_eq!(
        engine.next_line().as_deref(),
        Some("info string error: unknown command (\\u{1b}[2Jboom)")
    );
    // The last line needs no line break.
    engine.send_bytes(b"isready");
    let (rest, status) = engine.close();
    assert_eq!(rest, vec!["readyok".to_string()]);
    assert!(status.success());
}

#[test]
fn end_of_input_stops_an_infinite_search_and_exits_with_status_0() {
    let mut engine = Engine::spawn();
    engine.send("position startpos moves Ke4");
    engine.send("go infinite");
    assert!(
        engine
            .sync()
            .iter()
            .all(|line| !line.starts_with("bestmove"))
    );
    closes_with_one_bestmove(engine);
}

#[test]
fn end_of_input_lets_bounded_work_and_waiting_commands_finish() {
    let mut engine = Engine::spawn();
    engine.send("setoption name UCI_Variant value kruzno");
    engine.send("go depth 7");
    engine.send("perft 2");
    engine.send("query variant");
    let (rest, status) = engine.close();
    assert!(status.success(), "exit status {status}");
    let last_depth = rest
        .iter()
        .filter_map(|line| line.strip_prefix("info depth "))
        .filter_map(|line| line.split(' ').next())
        .next_back();
    assert_eq!(
        last_depth,
        Some("7"),
        "the search reaches its depth: {rest:?}"
    );
    let tail: Vec<&str> = rest
        .iter()
        .map(String::as_str)
        .skip_while(|line| !line.starts_with("bestmove "))
        .collect();
    // The query waited behind the search, then answers as soon as the perft behind the
    // search has started, as it would had it been sent then.
    assert!(
        tail.contains(&"Nodes searched: 676") && tail.contains(&"response kruzno"),
        "the waiting perft and query run after the search: {rest:?}"
    );
}

#[test]
fn end_of_input_stops_a_search_without_limits() {
    let mut engine = Engine::spawn();
    engine.send("setoption name UCI_Variant value hexcheckers");
    engine.send("go");
    closes_with_one_bestmove(engine);
}

#[test]
fn quit_during_perft_exits_at_once() {
    let mut engine = Engine::spawn();
    engine.send("setoption name UCI_Variant value hexcheckers");
    engine.send("perft 12");
    engine.send("quit");
    let (_, status) = engine.wait();
    assert!(status.success(), "exit status {status}");
}

#[test]
fn a_closed_stdout_ends_the_engine_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tessera binary starts");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // Writing may fail once the engine has gone: that is the expected end.
    for _ in 0..200 {
        if stdin.write_all(b"help\nisready\n").is_err() {
            break;
        }
    }
    drop(stdin);
    let mut errors = String::new();
    child
        .stderr
        .take()
        .expect("stderr is piped")
        .read_to_string(&mut errors)
        .expect("stderr is text");
    let status = child.wait().expect("the engine exits");
    assert!(status.success(), "exit status {status}, stderr {errors}");
    assert!(!errors.contains("panicked"), "{errors}");
}

#[test]
fn bench_runs_on_the_worker_thread_and_quit_does_not_wait_for_it() {
    let mut engine = Engine::spawn();
    engine.send("bench");
    // The command loop stays free while the bench runs (about a minute in a dev build).
    engine.send("isready");
    engine.read_until(|line| line == "readyok");
    engine.send("query variant");
    engine.read_until(|line| line == "response cheversi");
    engine.send("quit");
    let (_, status) = engine.wait();
    assert!(status.success(), "exit status {status}");
}

/// `go ponder` runs past the time limits of its `go` until `ponderhit` starts them, and
/// then ends by them; end of input stops a search that ponders.
#[test]
fn a_ponder_search_ignores_its_clock_until_ponderhit() {
    let mut engine = Engine::spawn();
    engine.send("setoption name UCI_Variant value kruzno");
    engine.send("go ponder movetime 20 wtime 50 btime 50");
    // Long past the movetime: a search that kept its clock would have answered.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let waiting = engine.sync();
    assert!(
        waiting.iter().all(|line| !line.starts_with("bestmove")),
        "{waiting:?}"
    );
    engine.send("ponderhit");
    let answer = engine.read_until(|line| line.starts_with("bestmove"));
    assert!(
        answer
            .last()
            .is_some_and(|line| line.split(' ').count() == 2)
    );
    engine.send("go ponder wtime 50 btime 50");
    closes_with_one_bestmove(engine);
}
