//! The readiness rule and `stop` for every job (protocol.md, "Readiness, order and
//! stop"): `isready` is answered at once whatever runs or waits, commands take effect
//! in the order they were sent, and `stop` ends a search, perft, divide or bench with a
//! report that says so. First through the session state machine (every ordering made
//! to happen on purpose), then through the real binary with real jobs.
//!
//! Nothing here is timed: the binary's replies are awaited with the support module's
//! generous deadline, which only stops a hang from blocking the test run.

mod protocol_support;

use tessera::game::{GameConfig, Variant};
use tessera::protocol::Session;
use tessera::protocol::job::Job;
use tessera::registry::AnyGame;

use protocol_support::Engine;

/// Text of replies.
fn lines(replies: &[tessera::protocol::Response]) -> Vec<String> {
    replies.iter().map(ToString::to_string).collect()
}

/// Runs a job to its end and feeds its events back; returns the replies and the job a
/// waiting command started, if one did.
fn finish(session: &mut Session, job: Job) -> (Vec<String>, Option<Job>) {
    let mut events = Vec::new();
    job.run(&mut |event| events.push(event));
    let mut replies = Vec::new();
    let mut next = None;
    for event in events {
        let step = session.job_event(event);
        replies.extend(lines(&step.responses));
        next = next.or(step.job);
    }
    (replies, next)
}

/// A session playing kruzno (its setup job run to its end).
fn kruzno_session() -> Session {
    let mut session = Session::new();
    let step = session.handle_line("setoption name UCI_Variant value kruzno");
    let setup = step
        .job
        .expect("a new game clears the table off the command loop");
    assert!(matches!(setup, Job::Setup(_)));
    let (replies, next) = finish(&mut session, setup);
    assert!(replies.is_empty() && next.is_none(), "{replies:?}");
    session
}

fn kruzno_fen_after(moves: &[&str]) -> String {
    let mut game = AnyGame::new(GameConfig::new(Variant::Kruzno)).expect("kruzno starts");
    for text in moves {
        game.play_text(text).expect("a legal move");
    }
    game.position_text()
}

/// The jobs `stop` ends besides a search, with the start of their interrupted report.
const STOPPABLE: [(&str, &str); 3] = [
    (
        "perft 12",
        "info string perft 12 interrupted by stop after ",
    ),
    (
        "divide 12",
        "info string divide 12 interrupted by stop after ",
    ),
    ("bench", "info string bench interrupted by stop after "),
];

#[test]
fn isready_is_answered_at_once_behind_a_job_and_stop_ends_the_job() {
    for (command, report) in STOPPABLE {
        let mut session = kruzno_session();
        let job = session.handle_line(command).job.expect("a job");
        // Commands behind the job wait, in order; `isready` does not.
        for waiting in ["position startpos moves b2-a1", "query fen", "go depth 2"] {
            let step = session.handle_line(waiting);
            assert!(step.responses.is_empty() && step.job.is_none(), "{waiting}");
        }
        assert_eq!(
            lines(&session.handle_line("isready").responses),
            ["readyok"]
        );
        assert!(lines(&session.handle_line("stop").responses).is_empty());
        let flag = job.stop_flag().expect("the job has a stop flag");
        assert!(flag.load(std::sync::atomic::Ordering::SeqCst), "{command}");
        let (replies, search) = finish(&mut session, job);
        assert_eq!(replies.len(), 2, "{command}: {replies:?}");
        assert!(replies[0].starts_with(report), "{command}: {replies:?}");
        assert!(
            replies[0].ends_with("not the full count") || replies[0].ends_with("not a signature"),
            "{replies:?}"
        );
        // The waiting commands ran in order: the position, then its query...
        let fen = kruzno_fen_after(&["b2-a1"]);
        assert_eq!(replies[1], format!("response {fen}"));
        // ...then the waiting go, which the stop was also meant for.
        let search = search.expect("the waiting go starts its search");
        assert!(
            search
                .stop_flag()
                .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::SeqCst))
        );
        let (replies, _) = finish(&mut session, search);
        let bestmove = replies
            .iter()
            .find_map(|line| line.strip_prefix("bestmove "))
            .expect("the stopped search answers");
        let mut game = AnyGame::from_position_text(GameConfig::new(Variant::Kruzno), &fen)
            .expect("the position");
        game.play_text(bestmove).expect("a legal bestmove");
        assert!(!session.is_busy());
    }
}

#[test]
fn engine_setup_runs_as_a_job_and_isready_is_answered_during_it() {
    let mut session = Session::new();
    for command in [
        "setoption name Hash value 2",
        "uginewgame",
        "setoption name EndingsFile value /dev/zero",
        "setoption name UCI_Variant value catchup",
    ] {
        let step = session.handle_line(command);
        let setup = step.job.expect("the setup leaves the command loop");
        assert!(matches!(setup, Job::Setup(_)), "{command}");
        assert!(setup.stop_flag().is_none(), "a setup is not stopped");
        assert_eq!(
            lines(&session.handle_line("isready").responses),
            ["readyok"]
        );
        // `stop` does not end a setup; `go` waits for it and then sees it done.
        assert!(lines(&session.handle_line("stop").responses).is_empty());
        assert!(session.handle_line("go nodes 50").job.is_none());
        let (replies, search) = finish(&mut session, setup);
        if command.contains("EndingsFile") {
            assert_eq!(
                replies,
                [
                    "info string EndingsFile: cannot use /dev/zero: cannot read /dev/zero: \
                  not a regular file; going on without it"
                ]
            );
        } else {
            assert!(replies.is_empty(), "{command}: {replies:?}");
        }
        let (replies, _) = finish(&mut session, search.expect("the waiting go"));
        assert!(replies.iter().any(|line| line.starts_with("bestmove ")));
    }
    assert_eq!(session.settings().search.hash_mb, 2);
}

/// Reads lines until `done` holds for the set read so far; returns them.
fn read_while(engine: &Engine, mut done: impl FnMut(&[String]) -> bool) -> Vec<String> {
    let mut lines = Vec::new();
    while !done(&lines) {
        lines.push(engine.next_line().expect("the engine is running"));
    }
    lines
}

fn has(lines: &[String], prefix: &str) -> bool {
    lines.iter().any(|line| line.starts_with(prefix))
}

/// The hang reported by hand, and the same with divide, bench and a waiting `go`: with
/// commands waiting behind a long job, `stop` then `isready` get the interrupted report
/// and `readyok` (in either order: the report comes from the worker thread), and every
/// later command is answered as if the job had ended by itself.
#[test]
fn isready_after_stop_behind_a_long_job_is_answered_and_later_commands_work() {
    let scripts: [&[&str]; 4] = [
        &["perft 12", "position startpos"],
        &["divide 21", "position startpos"],
        &["bench", "position startpos"],
        &["perft 12", "position startpos", "go depth 3"],
    ];
    for script in scripts {
        let mut engine = Engine::spawn();
        engine.send("ugi");
        engine.read_until(|line| line == "ugiok");
        engine.send("setoption name UCI_Variant value kruzno");
        for line in script {
            engine.send(line);
        }
        engine.send("stop");
        engine.send("isready");
        let waits_for_go = script.contains(&"go depth 3");
        let replies = read_while(&engine, |lines| {
            has(lines, "readyok")
                && has(lines, "info string ")
                && (!waits_for_go || has(lines, "bestmove "))
        });
        let job = script[0].split(' ').next().unwrap_or_default();
        let report = format!("info string {job} ");
        assert!(
            replies
                .iter()
                .any(|line| line.starts_with(&report) && line.contains("interrupted by stop")),
            "{script:?}: {replies:?}"
        );
        assert!(!has(&replies, "Nodes searched"), "{replies:?}");
        engine.send("query fen");
        let fen = kruzno_fen_after(&[]);
        let after = engine.read_until(|line| line.starts_with("response "));
        assert_eq!(after.last(), Some(&format!("response {fen}")), "{script:?}");
        engine.send("position startpos moves b2-a1");
        engine.send("go depth 2");
        engine.read_until(|line| line.starts_with("bestmove "));
        engine.send("quit");
        let (_, status) = engine.wait();
        assert!(status.success());
    }
}

/// With nothing after it, each job is stopped mid-run: its report says it was
/// interrupted, nothing else of it follows, and a new job runs to its end at once.
#[test]
fn stop_ends_perft_divide_and_bench_and_the_engine_goes_on() {
    let expected = AnyGame::new(GameConfig::new(Variant::Kruzno))
        .expect("kruzno starts")
        .perft(3, true);
    for (command, report) in STOPPABLE {
        let mut engine = Engine::spawn();
        engine.send("setoption name UCI_Variant value kruzno");
        // perft 1 waits for the variant's setup; once it has answered, nothing runs, so
        // the job below starts as soon as it is read and `stop` finds it running.
        engine.send("perft 1");
        engine.read_until(|line| line.starts_with("Nodes searched"));
        engine.send(command);
        engine.send("isready");
        engine.read_until(|line| line == "readyok");
        engine.send("stop");
        let replies = engine.read_until(|line| line.starts_with("info string "));
        let last = replies.last().expect("a report");
        assert!(last.starts_with(report), "{command}: {replies:?}");
        engine.send("perft 3");
        let replies = engine.read_until(|line| line.starts_with("Nodes searched"));
        assert_eq!(
            replies.last(),
            Some(&format!("Nodes searched: {expected}")),
            "{command}: {replies:?}"
        );
        assert!(
            !has(&replies, "info string"),
            "nothing more of the stopped job: {replies:?}"
        );
        engine.send("quit");
        let (_, status) = engine.wait();
        assert!(status.success());
    }
}

#[test]
fn a_bad_line_queued_behind_a_job_answers_once_a_search_starts() {
    // `setoption` of a new game sets the engine up off the loop; `go infinite` and a bad
    // line wait behind it. Once the setup ends the search starts, and the bad line's
    // error comes then, not behind a search that only `stop` ends.
    let mut session = Session::new();
    let setup = session
        .handle_line("setoption name UCI_Variant value catchup")
        .job
        .expect("a setup job");
    for waiting in ["go infinite", "no-such-command"] {
        let step = session.handle_line(waiting);
        assert!(step.responses.is_empty() && step.job.is_none(), "{waiting}");
    }
    let (replies, next) = finish(&mut session, setup);
    assert!(matches!(next, Some(Job::Search(_))), "the search starts");
    assert_eq!(
        replies,
        ["info string error: unknown command (no-such-command)"],
        "the error answers while the search runs"
    );
}
