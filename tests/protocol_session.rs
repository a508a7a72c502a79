//! The session state machine driven by hand, job events included: the orderings a
//! threaded run produces only by chance (a `go infinite` that ends before `stop`,
//! commands arriving while perft runs) are made to happen here on purpose.

use tessera::engine::{Engine, SearchOptions};
use tessera::protocol::job::{Job, JobEvent, JobOutput};
use tessera::protocol::{Session, Step};
use tessera::registry::SearchResult;

/// Text of a step's replies.
fn lines(step: &Step) -> Vec<String> {
    step.responses.iter().map(ToString::to_string).collect()
}

/// Runs a job to its end, returning its events (in order).
fn run(job: Job) -> Vec<JobEvent> {
    let mut events = Vec::new();
    job.run(&mut |event| events.push(event));
    events
}

/// Feeds events back; returns every reply.
fn feed(session: &mut Session, events: Vec<JobEvent>) -> Vec<String> {
    let mut replies = Vec::new();
    for event in events {
        let step = session.job_event(event);
        assert!(step.job.is_none(), "no waiting command starts a job here");
        replies.extend(lines(&step));
    }
    replies
}

fn best_moves(replies: &[String]) -> Vec<&str> {
    replies
        .iter()
        .filter_map(|line| line.strip_prefix("bestmove "))
        .collect()
}

#[test]
fn infinite_search_that_ends_early_holds_its_bestmove_until_stop() {
    let mut session = Session::new();
    let step = session.handle_line("go infinite");
    assert!(step.responses.is_empty());
    let job = step.job.expect("go starts a search");
    assert!(job.waits_for_client());
    // The search ends by itself (a proven result, a limit) before any stop: simulated
    // here with the result it could return, since a real one may also wait for stop.
    drop(job);
    let first = session.game().legal_move_texts()[0].clone();
    let result = SearchResult {
        best_move: Some(first.clone()),
        ponder: None,
        score: None,
    };
    let engine = Box::new(Engine::new(SearchOptions::default()));
    let replies = feed(
        &mut session,
        vec![JobEvent::Finished(JobOutput::Search { engine, result })],
    );
    assert!(replies.is_empty(), "no bestmove before stop: {replies:?}");
    assert!(session.is_searching());
    assert_eq!(lines(&session.handle_line("isready")), vec!["readyok"]);
    assert_eq!(
        lines(&session.handle_line("query p1turn")),
        vec!["response true"]
    );
    assert_eq!(
        lines(&session.handle_line("go depth 1")),
        vec!["info string error: a search is running, send stop first (go)"]
    );
    assert_eq!(
        lines(&session.handle_line("stop")),
        vec![format!("bestmove {first}")]
    );
    assert!(!session.is_busy());
    assert!(
        lines(&session.handle_line("stop")).is_empty(),
        "a second stop is silent"
    );
}

#[test]
fn an_illegal_move_from_the_search_is_replaced_by_a_legal_one() {
    let mut session = Session::new();
    drop(session.handle_line("go depth 1").job.expect("a search"));
    let result = SearchResult {
        best_move: Some("Kz9".to_string()),
        ponder: None,
        score: None,
    };
    let engine = Box::new(Engine::new(SearchOptions::default()));
    let replies = feed(
        &mut session,
        vec![JobEvent::Finished(JobOutput::Search { engine, result })],
    );
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert!(replies[0].starts_with("info string error: internal error, the search failed"));
    assert_eq!(replies[1], "bestmove Ka1");
    // A search that panicked: error line, a legal move, and the session goes on.
    drop(session.handle_line("go depth 1").job.expect("a search"));
    let replies = feed(
        &mut session,
        vec![JobEvent::Finished(JobOutput::Failed("boom".to_string()))],
    );
    assert_eq!(
        replies,
        vec![
            "info string error: internal error, the search failed (boom)".to_string(),
            "bestmove Ka1".to_string()
        ]
    );
    assert!(
        session.handle_line("go depth 1").job.is_some(),
        "a fresh engine searches"
    );
}

#[test]
fn position_during_a_search_stops_it_then_applies() {
    let mut session = Session::new();
    let job = session.handle_line("go infinite").job.expect("a search");
    let step = session.handle_line("position startpos moves Ke4");
    assert!(
        step.responses.is_empty(),
        "the bestmove comes when the search ends"
    );
    assert!(session.stop_requested());
    assert_eq!(
        session.game().ply_count(),
        0,
        "the position waits for the search"
    );
    let replies = feed(&mut session, run(job));
    assert_eq!(best_moves(&replies).len(), 1, "{replies:?}");
    assert_eq!(session.game().played_move_texts(), vec!["Ke4".to_string()]);
}

#[test]
fn commands_behind_a_job_keep_their_order() {
    let mut session = Session::new();
    let job = session
        .handle_line("perft 2")
        .job
        .expect("perft runs as a job");
    // Nothing waits yet: a query is answered at once, from the unchanged position.
    assert_eq!(
        lines(&session.handle_line("query fen")),
        vec!["response 8/8/8/8/8/8/8/8 w -"]
    );
    assert!(
        session
            .handle_line("position startpos moves Ke4")
            .responses
            .is_empty()
    );
    // Now a command waits, so this query waits behind it.
    assert!(session.handle_line("query fen").responses.is_empty());
    assert!(
        session
            .handle_line("position startpos moves Ke4 Kd5")
            .responses
            .is_empty()
    );
    // `isready` does not wait behind them: `readyok` comes at once.
    assert_eq!(lines(&session.handle_line("isready")), vec!["readyok"]);
    let replies = feed(&mut session, run(job));
    assert!(!replies.contains(&"readyok".to_string()), "{replies:?}");
    assert_eq!(
        replies.last().map(String::as_str),
        Some(
            "info string error: bad move at ply 2: illegal move: Black's King must be Black's 8th placement (rule 3) (Kd5)"
        )
    );
    assert!(
        replies.contains(&"Nodes searched: 1680".to_string()),
        "{replies:?}"
    );
    assert!(replies.contains(&"response 8/8/8/8/4K3/8/8/8 b e4".to_string()));
    let nodes_at = replies
        .iter()
        .position(|line| line.starts_with("Nodes searched"));
    let fen_at = replies.iter().position(|line| line.starts_with("response"));
    assert!(
        nodes_at < fen_at,
        "perft output comes before the waiting query: {replies:?}"
    );
}

#[test]
fn go_waiting_behind_perft_starts_when_perft_ends() {
    let mut session = Session::new();
    let job = session
        .handle_line("perft 1")
        .job
        .expect("perft runs as a job");
    assert!(
        session.handle_line("go depth 1").job.is_none(),
        "go waits for perft"
    );
    let mut replies = Vec::new();
    let mut search = None;
    for event in run(job) {
        let step = session.job_event(event);
        replies.extend(lines(&step));
        search = search.or(step.job);
    }
    assert!(replies.contains(&"Nodes searched: 64".to_string()));
    let search = search.expect("the waiting go starts its search after perft");
    let replies = feed(&mut session, run(search));
    assert_eq!(best_moves(&replies).len(), 1);
}

#[test]
fn quit_stops_the_search_and_drops_waiting_commands() {
    let mut session = Session::new();
    let job = session.handle_line("go infinite").job.expect("a search");
    assert!(
        session
            .handle_line("position startpos moves Ke4")
            .responses
            .is_empty()
    );
    let step = session.handle_line("quit");
    assert!(step.quit);
    let replies = feed(&mut session, run(job));
    assert_eq!(
        best_moves(&replies).len(),
        1,
        "the stopped search still reports"
    );
    assert_eq!(
        session.game().ply_count(),
        0,
        "the waiting position was dropped"
    );
}

#[test]
fn finished_game_answers_bestmove_0000_without_a_job() {
    let mut session = Session::new();
    let moves = "Ka1 Qb1 Qc1 Nb2 Na2 Rd2 Ne1 Nf2 Bd1 Rc3 Rc4 Bg1 Rc5 Bc6 Bh2 Kg3";
    assert!(
        session
            .handle_line(&format!("position startpos moves {moves}"))
            .responses
            .is_empty()
    );
    let step = session.handle_line("go infinite");
    assert!(step.job.is_none());
    assert_eq!(
        lines(&step),
        vec!["info string game over (p2win)", "bestmove 0000"]
    );
}

/// The depth of the last `info depth` line among the replies.
fn last_depth(replies: &[String]) -> Option<u32> {
    replies.iter().rev().find_map(|line| {
        let mut words = line.split_whitespace();
        (words.next() == Some("info") && words.next() == Some("depth"))
            .then(|| words.next()?.parse().ok())
            .flatten()
    })
}

#[test]
fn exact_plies_decides_where_cheversi_search_stops_at_the_end() {
    let position = "position startpos moves Ka6 Nb5 Bc5 Nd6 Qe5 Qd4 Nd3 Rf4 Rd5 Rb4 Na7 Bg4";
    let mut depths = Vec::new();
    for exact_plies in [0, 4] {
        let mut session = Session::new();
        let step = session.handle_line(&format!("setoption name ExactPlies value {exact_plies}"));
        assert!(lines(&step).is_empty(), "{:?}", lines(&step));
        let step = session.handle_line(position);
        assert!(lines(&step).is_empty(), "{:?}", lines(&step));
        let job = session
            .handle_line("go depth 9")
            .job
            .expect("go starts a search");
        let replies = feed(&mut session, run(job));
        assert_eq!(best_moves(&replies).len(), 1, "{replies:?}");
        depths.push(last_depth(&replies));
    }
    // Four plies before the end an exact search is complete at depth 4; without the
    // exact window the search iterates on to the depth asked for.
    assert_eq!(depths, [Some(9), Some(4)]);
}

/// A search result naming `best` and the expected `reply`, as a finished job reports it.
fn finished(best: &str, reply: Option<&str>) -> Vec<JobEvent> {
    let result = SearchResult {
        best_move: Some(best.to_string()),
        ponder: reply.map(str::to_string),
        score: None,
    };
    let engine = Box::new(Engine::new(SearchOptions::default()));
    vec![JobEvent::Finished(JobOutput::Search { engine, result })]
}

#[test]
fn a_ponder_search_that_ends_early_holds_its_bestmove_until_ponderhit() {
    let mut session = Session::new();
    assert_eq!(
        lines(&session.handle_line("ponderhit")),
        vec!["info string error: no go ponder search is running (ponderhit)"]
    );
    let job = session
        .handle_line("go ponder wtime 1000 btime 1000")
        .job
        .expect("go ponder starts a search");
    assert!(job.waits_for_client());
    let Job::Search(search) = &job else {
        panic!("a search job");
    };
    let clock = search.limits.ponder.clone().expect("a ponder clock");
    assert_eq!(clock.started(), None);
    assert!(session.is_pondering());
    drop(job);
    // It ends by itself (a proven result) before the opponent has moved: held.
    assert!(feed(&mut session, finished("Ka1", Some("Qb2"))).is_empty());
    assert_eq!(
        lines(&session.handle_line("go depth 1")),
        vec!["info string error: a search is running, send stop first (go)"]
    );
    assert_eq!(
        lines(&session.handle_line("ponderhit")),
        vec!["bestmove Ka1"],
        "Ponder is off: no ponder move"
    );
    assert!(clock.started().is_some(), "ponderhit starts the clock");
    assert!(!session.is_busy());
    assert_eq!(
        lines(&session.handle_line("ponderhit")),
        vec!["info string error: no go ponder search is running (ponderhit)"]
    );
}

#[test]
fn ponderhit_lets_the_search_run_on_and_stop_ends_a_ponder_search() {
    let mut session = Session::new();
    drop(session.handle_line("setoption name Ponder value true").job);
    drop(session.handle_line("go ponder").job.expect("a search"));
    assert!(lines(&session.handle_line("ponderhit")).is_empty());
    assert!(!session.is_pondering() && session.is_searching());
    assert_eq!(
        lines(&session.handle_line("ponderhit")),
        vec!["info string error: no go ponder search is running (ponderhit)"],
        "a second ponderhit"
    );
    // The search goes on as a timed one and ends: its bestmove at once, with the reply.
    assert_eq!(
        feed(&mut session, finished("Ka1", Some("qb2"))),
        vec!["bestmove Ka1 ponder Qb2"],
        "in canonical text"
    );
    // A ponder miss: stop, the bestmove, then the real position and go.
    drop(session.handle_line("go ponder").job.expect("a search"));
    assert!(lines(&session.handle_line("stop")).is_empty());
    assert!(!session.is_pondering());
    assert_eq!(
        feed(&mut session, finished("Ka1", None)),
        vec!["bestmove Ka1"],
        "no reply in the principal variation: no ponder move"
    );
    assert!(lines(&session.handle_line("position startpos moves Kb2")).is_empty());
    drop(session.handle_line("go depth 1").job.expect("a search"));
    // A reply that is not legal after the move is left out (after a King, the reply
    // goes next to it).
    assert_eq!(
        feed(&mut session, finished("Qa1", Some("Kh8"))),
        vec!["bestmove Qa1"]
    );
}
