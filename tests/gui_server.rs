//! `tessera gui` end to end: the real binary on 127.0.0.1, spoken to over HTTP as the
//! page does, with Tessera (at small node counts) and the misbehaving test engine.
//! The deadlines below only stop a broken build from hanging; nothing here is timed.

use std::net::TcpStream;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};

use serde_json::{Value, json};
use tessera::game::{GameConfig, Outcome, Variant};
use tessera::gui::polls::MAX_PARKED;
use tessera::registry::AnyGame;
use tessera::registry::Registry;

mod gui_support;

use gui_support::*;

/// The variants at small boards, so whole games are short.
const VARIANTS: [(&str, u64); 4] = [
    ("cheversi", 8),
    ("kruzno", 6),
    ("hexcheckers", 4),
    ("catchup", 3),
];

#[test]
fn every_variant_takes_a_persons_moves_refuses_bad_ones_and_the_engine_answers() {
    let gui = Gui::start(&[]);
    for (variant, side) in VARIANTS {
        let reply = gui.post(
            "/api/new",
            json!({ "variant": variant, "size": side, "white": "human", "black": "engine0", "nodes": 200 }),
        );
        assert_eq!(reply.status, 200, "{variant}: {}", reply.body);
        let state = reply.body;
        assert_eq!(state["variant"], variant);
        assert!(
            state["frame"]["contents"].is_string(),
            "{variant}: a drawable frame"
        );
        let before = state["position"].clone();
        for bad in ["zz9", "", "a1-a1-a1", "Ke4 Qd5"] {
            let reply = gui.post("/api/move", json!({ "move": bad }));
            assert_eq!(reply.status, 400, "{variant} {bad}: {}", reply.body);
            assert!(reply.body["error"].is_string());
        }
        let state = gui.state();
        assert_eq!(
            state["position"], before,
            "{variant}: a bad move changed nothing"
        );
        assert!(moves_of(&state).is_empty());
        let first = if variant == "catchup" {
            "c3".to_string()
        } else {
            state["legal"][0]
                .as_str()
                .expect("a legal move")
                .to_string()
        };
        let reply = gui.post("/api/move", json!({ "move": first }));
        assert_eq!(reply.status, 200, "{variant} {first}: {}", reply.body);
        let state = gui.wait_for("the engine's answer", |state| moves_of(state).len() == 2);
        let game = replay(&state);
        assert_eq!(
            game.position_text(),
            state["position"].as_str().expect("text")
        );
        // The engine moved; a person's move is refused while the engine has the move.
        let reply = gui.post(
            "/api/new",
            json!({ "white": "engine0", "black": "human", "movetime": 20000 }),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
        let state = gui.wait_for("the engine thinking", |state| {
            engine_status(state) == "thinking"
        });
        let legal = state["legal"][0].as_str().unwrap_or("c3").to_string();
        let reply = gui.post("/api/move", json!({ "move": legal }));
        assert_eq!(reply.status, 400, "{}", reply.body);
        assert!(
            reply.body["error"]
                .as_str()
                .unwrap_or("")
                .contains("engine's turn")
        );
        // `stop` makes the engine move at once.
        assert_eq!(gui.post("/api/stop", json!({})).status, 200);
        gui.wait_for("the stopped search's move", |state| {
            moves_of(state).len() == 1
        });
    }
}

#[test]
fn engine_games_end_with_the_result_of_the_rules() {
    let gui = Gui::start(&[]);
    for (variant, side) in VARIANTS {
        let reply = gui.post(
            "/api/new",
            json!({ "variant": variant, "size": side, "white": "engine0", "black": "engine0", "nodes": 60 }),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
        let state = gui.wait_for("the end of the game", |state| !state["result"].is_null());
        let game = replay(&state);
        let outcome = game.outcome().expect("over by the rules");
        assert_eq!(state["result"]["outcome"], outcome.as_str(), "{variant}");
        let winner = match outcome {
            Outcome::Win(player) => json!(if player.index() == 0 {
                "white"
            } else {
                "black"
            }),
            Outcome::Draw => Value::Null,
        };
        assert_eq!(state["result"]["winner"], winner, "{variant}");
        assert!(state["legal"].as_array().is_some_and(Vec::is_empty));
        let reply = gui.post("/api/move", json!({ "move": "a1" }));
        assert_eq!(reply.status, 400, "no move after the end");
    }
}

#[test]
fn foreign_hosts_origins_and_oversized_bodies_are_refused() {
    let gui = Gui::start(&["--variant", "catchup", "--size", "3"]);
    let page = gui.raw("GET", "/", &gui.address.clone(), &[], b"");
    assert_eq!(page.status, 200);
    let port = gui.address.rsplit(':').next().expect("a port");
    let local = gui.raw("GET", "/api/state", &format!("localhost:{port}"), &[], b"");
    assert_eq!(local.status, 200);
    for host in [
        "evil.example",
        &format!("evil.example:{port}"),
        "127.0.0.1:1",
        "",
    ] {
        let reply = gui.raw("GET", "/api/state", host, &[], b"");
        assert_eq!(reply.status, 403, "Host {host}");
    }
    let before = gui.state();
    let state_after = |gui: &Gui| {
        let state = gui.state();
        assert_eq!(state["position"], before["position"]);
        assert_eq!(state["moves"], before["moves"]);
    };
    let move_body = json!({ "move": "c3" }).to_string();
    let address = gui.address.clone();
    let reply = gui.raw(
        "POST",
        "/api/move",
        &address,
        &[
            "Content-Type: application/json",
            "Origin: http://evil.example",
        ],
        move_body.as_bytes(),
    );
    assert_eq!(reply.status, 403, "{}", reply.body);
    let reply = gui.raw(
        "POST",
        "/api/move",
        &address,
        &["Content-Type: text/plain"],
        move_body.as_bytes(),
    );
    assert_eq!(reply.status, 415, "{}", reply.body);
    let mut huge = json!({ "move": "c3" }).to_string();
    huge.insert_str(1, &format!("\"pad\": \"{}\", ", "x".repeat(300 * 1024)));
    let reply = gui.raw(
        "POST",
        "/api/move",
        &address,
        &["Content-Type: application/json"],
        huge.as_bytes(),
    );
    assert_eq!(reply.status, 413, "{}", reply.body);
    for bad in [
        "{",
        "[]",
        "{\"move\": 3}",
        "{\"move\": \"c3\", \"program\": \"/bin/sh\"}",
    ] {
        let reply = gui.raw(
            "POST",
            "/api/move",
            &address,
            &["Content-Type: application/json"],
            bad.as_bytes(),
        );
        assert_eq!(reply.status, 400, "{bad}: {}", reply.body);
    }
    for (path, body) in [
        ("/api/new", json!({ "variant": "chess" })),
        ("/api/new", json!({ "white": "engine1" })),
        ("/api/new", json!({ "fen": "9/9 w 1" })),
        ("/api/restart", json!({ "engine": 5 })),
        ("/api/load", json!({ "text": "/etc/passwd" })),
        ("/api/undo", json!({})),
    ] {
        let reply = gui.post(path, body.clone());
        assert_eq!(reply.status, 400, "{path} {body}: {}", reply.body);
    }
    assert_eq!(gui.get("/api/nothing").status, 404);
    assert_eq!(gui.get("/../etc/passwd").status, 404);
    assert_eq!(
        gui.raw("DELETE", "/api/state", &address, &[], b"").status,
        405
    );
    state_after(&gui);
}

/// Waits for engine 0 to think, kills it, and waits for the page's state to show the
/// crash; returns the killed process's id and that state.
fn kill_the_thinking_engine(gui: &Gui) -> (u64, Value) {
    let state = gui.wait_for("the engine thinking", |state| {
        engine_status(state) == "thinking" && state["engines"][0]["pid"].is_u64()
    });
    let pid = state["engines"][0]["pid"].as_u64().expect("a pid");
    let killed = Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let state = gui.wait_for("the crash reported", |state| {
        engine_status(state) == "failed"
    });
    assert!(
        state["engines"][0]["problem"]
            .as_str()
            .unwrap_or("")
            .contains("crashed"),
        "{state}"
    );
    (pid, state)
}

#[test]
fn a_killed_engine_is_reported_and_replaced_without_losing_the_game() {
    let gui = Gui::start(&["--variant", "hexcheckers", "--size", "5"]);
    let reply = gui.post(
        "/api/new",
        json!({ "white": "human", "black": "engine0", "movetime": 60000 }),
    );
    assert_eq!(reply.status, 200);
    let first = reply.body["legal"][0].as_str().expect("a move").to_string();
    assert_eq!(gui.post("/api/move", json!({ "move": first })).status, 200);
    let (pid, state) = kill_the_thinking_engine(&gui);
    assert_eq!(
        moves_of(&state),
        std::slice::from_ref(&first),
        "the game is kept"
    );
    assert_eq!(
        gui.post("/api/settings", json!({ "nodes": 200 })).status,
        200
    );
    assert_eq!(gui.post("/api/restart", json!({ "engine": 0 })).status, 200);
    let state = gui.wait_for("the new engine's move", |state| moves_of(state).len() == 2);
    assert_eq!(moves_of(&state)[0], first);
    let new_pid = state["engines"][0]["pid"].as_u64().expect("a new pid");
    assert_ne!(new_pid, pid);
    replay(&state);
}

#[test]
fn a_hung_engine_is_reported() {
    let gui = Gui::start(&[
        "--variant",
        "catchup",
        "--size",
        "3",
        "--grace-ms",
        "200",
        "--engine",
        &format!("cmd={TESSERA}"),
        "arg=test-engine",
        "arg=--mode",
        "arg=hang",
    ]);
    let reply = gui.post(
        "/api/new",
        json!({ "white": "engine0", "black": "human", "movetime": 50 }),
    );
    assert_eq!(reply.status, 200);
    let state = gui.wait_for("the hang reported", |state| {
        engine_status(state) == "failed"
    });
    let problem = state["engines"][0]["problem"].as_str().unwrap_or("");
    assert!(problem.contains("stalled"), "{problem}");
    assert!(moves_of(&state).is_empty());
    // The page may hand the move to a person instead.
    assert_eq!(
        gui.post("/api/settings", json!({ "white": "human" }))
            .status,
        200
    );
    assert_eq!(gui.post("/api/move", json!({ "move": "b2" })).status, 200);
}

/// The page lists the games the server gives it (`/api/games`, the registry's facts) and
/// sends a game's parameters by option name, and a strength level per seat.
#[test]
fn the_page_reads_the_games_and_their_parameters_from_the_server() {
    let gui = Gui::start(&[]);
    let reply = gui.get("/api/games");
    assert_eq!(reply.status, 200);
    let registry = Registry::builtin();
    let games = reply.body.as_array().expect("a list of games");
    let names: Vec<&str> = games
        .iter()
        .filter_map(|game| game["name"].as_str())
        .collect();
    assert_eq!(names, registry.names());
    for (game, facts) in games.iter().zip(registry.facts()) {
        assert_eq!(game["title"], facts.title);
        assert_eq!(
            game["sizes"],
            json!([facts.sizes.start(), facts.sizes.end()])
        );
        assert_eq!(game["default_size"], facts.default_size);
        let options: Vec<&str> = facts.parameters.iter().map(|p| p.option).collect();
        let served: Vec<&str> = game["parameters"]
            .as_array()
            .expect("parameters")
            .iter()
            .filter_map(|parameter| parameter["option"].as_str())
            .collect();
        assert_eq!(served, options, "{}", facts.name);
        let levels: Vec<u32> = facts.levels.iter().map(|level| level.elo).collect();
        assert_eq!(game["levels"], json!(levels), "{}", facts.name);
    }
    let original =
        json!({ "variant": "catchup", "size": 3, "parameters": { "CatchupRule": "original" } });
    let reply = gui.post("/api/new", original);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        reply.body["parameters"],
        json!({ "CatchupRule": "original" })
    );
    let bad = json!({ "variant": "catchup", "parameters": { "CatchupRule": "newest" } });
    let reply = gui.post("/api/new", bad);
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.body["error"],
        "unknown Catchup rule, expected revised or original (newest)"
    );
    let reply = gui.post("/api/new", json!({ "variant": "kruzno" }));
    assert_eq!(
        reply.body["parameters"],
        json!({}),
        "Kruzno has no parameters"
    );
    // A strength per seat: full, or an Elo of the game's levels.
    let levelled = json!({ "white_strength": "full", "black_strength": "442" });
    let reply = gui.post("/api/settings", levelled);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["strength"], json!([null, 442]));
    let reply = gui.post("/api/settings", json!({ "black_strength": "weak" }));
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.body["error"],
        "strength: expected full or an Elo (weak)"
    );
}

#[test]
fn loaded_records_step_through_and_the_engine_analyses_and_evaluates() {
    let gui = Gui::start(&[]);
    let record = json!({
        "game": 0, "pair": 0, "variant": "kruzno", "size": 6, "rule": "revised",
        "engines": ["a", "b"], "white_engine": 0, "white": "a", "black": "b",
        "opening": { "index": 0, "position": "", "moves": [] },
        "moves": [], "times_ms": [], "result": "*", "termination": "aborted",
        "reason": "", "final_position": "", "seed": 0
    });
    // Three plies of a real game, then the record.
    let mut game = AnyGame::new(GameConfig::new(Variant::Kruzno)).expect("start");
    let mut moves = Vec::new();
    for _ in 0..3 {
        let next = game.legal_move_texts()[0].clone();
        game.play_text(&next).expect("legal");
        moves.push(next);
    }
    let mut record = record;
    record["opening"]["position"] = json!(game.start_position_text());
    record["moves"] = json!(moves);
    let reply = gui.post("/api/load", json!({ "text": record.to_string() }));
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body["redo"], json!(moves));
    assert_eq!(gui.post("/api/redo", json!({ "count": 10 })).status, 200);
    let state = gui.state();
    assert_eq!(moves_of(&state), moves);
    assert_eq!(state["position"], game.position_text());
    assert_eq!(gui.post("/api/undo", json!({ "count": 2 })).status, 200);
    assert_eq!(moves_of(&gui.state()).len(), 1);
    let bad = gui.post(
        "/api/load",
        json!({ "text": record.to_string().replace(&moves[2], "a1-a2") }),
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(
        moves_of(&gui.state()).len(),
        1,
        "a bad record changes nothing"
    );

    assert_eq!(gui.post("/api/analyse", json!({})).status, 200);
    let state = gui.wait_for("analysis lines", |state| {
        state["search"]["purpose"] == "analysis"
            && state["search"]["current"] == true
            && state["search"]["lines"].as_array().is_some_and(|lines| {
                lines
                    .iter()
                    .any(|line| line["pv"].as_array().is_some_and(|pv| !pv.is_empty()))
            })
    });
    assert_eq!(engine_status(&state), "analysing");
    // Scores read in the game's units (Kruzno: men), written by the server.
    for line in state["search"]["lines"].as_array().expect("lines") {
        if line["score"].is_null() {
            continue;
        }
        let text = line["score_text"].as_str().expect("a score's text");
        assert!(
            text.ends_with(" men") || text.starts_with("wins in") || text.starts_with("loses in"),
            "{text}"
        );
    }
    assert_eq!(gui.post("/api/stop", json!({})).status, 200);
    gui.wait_for("the analysis stopped", |state| {
        engine_status(state) == "ready"
    });
    assert_eq!(gui.post("/api/eval", json!({})).status, 200);
    let state = gui.wait_for("the evaluation", |state| state["eval"]["current"] == true);
    let lines = state["eval"]["lines"].as_array().expect("lines");
    assert!(!lines.is_empty());
    assert_eq!(moves_of(&state).len(), 1, "analysis never moves");
}

/// Analysis in several lines: `/api/lines` takes 1 to 5 (others refused), the engine gets
/// them as `MultiPV`, the state lists the last report's lines best first with distinct
/// first moves, and in a hex checkers ending the built-in tables cover every line's value
/// is exact (its marker's value and text); a new number of lines restarts the analysis.
#[test]
fn analysis_lists_several_lines_with_exact_values_marked() {
    let gui = Gui::start(&[]);
    let reply = gui.post(
        "/api/new",
        json!({ "variant": "hexcheckers", "size": 4, "white": "human", "black": "human",
                "fen": "4/5/5W/6B/4W1/5/4 w - 0 40" }),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    for bad in [
        json!({ "lines": 0 }),
        json!({ "lines": 6 }),
        json!({ "lines": "3" }),
    ] {
        assert_eq!(gui.post("/api/lines", bad.clone()).status, 400, "{bad}");
    }
    assert_eq!(gui.state()["analysis_lines"], 1);
    assert_eq!(gui.post("/api/lines", json!({ "lines": 3 })).status, 200);
    assert_eq!(gui.post("/api/analyse", json!({})).status, 200);
    let ranked_of = |state: &Value| {
        state["search"]["ranked"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    };
    let state = gui.wait_for("three exact lines", |state| {
        state["search"]["current"] == true
            && ranked_of(state).len() == 3
            && ranked_of(state).iter().all(|line| !line["exact"].is_null())
    });
    let ranked = ranked_of(&state);
    let firsts: Vec<&str> = ranked
        .iter()
        .map(|line| line["pv"][0].as_str().expect("a first move"))
        .collect();
    assert_eq!(firsts[0], "e6-f5", "the quickest win first: {ranked:?}");
    assert_eq!(ranked[0]["exact"], "win 4");
    assert_eq!(ranked[0]["exact_text"], "win, converts in 4 plies");
    assert_eq!(ranked[0]["score"], json!({ "cp": 99_996 }));
    for (rank, line) in ranked.iter().enumerate() {
        assert_eq!(line["multipv"], rank as u64 + 1);
        assert!(!firsts[..rank].contains(&firsts[rank]), "{firsts:?}");
    }
    assert_eq!(ranked[1]["exact_text"], "draw");
    // Two lines: the analysis starts again with them.
    assert_eq!(gui.post("/api/lines", json!({ "lines": 2 })).status, 200);
    gui.wait_for("two lines", |state| {
        state["search"]["current"] == true
            && ranked_of(state).len() == 2
            && ranked_of(state).iter().all(|line| !line["exact"].is_null())
            && engine_status(state) == "analysing"
    });
    assert_eq!(gui.post("/api/stop", json!({})).status, 200);
    gui.wait_for("the analysis stopped", |state| {
        engine_status(state) == "ready"
    });
}

/// A version no state reaches during a test: a poll asking after it waits its full time.
const FAR_AHEAD: u64 = 1 << 60;

/// Open pages: threads that each keep one long poll open (asking after [`FAR_AHEAD`], so
/// every poll waits its full time) and ask again as soon as it is answered, until told
/// to stop; each returns the statuses it got.
struct OpenPages {
    done: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<Vec<u16>>>,
}

impl OpenPages {
    /// Opens `count` pages; returns once each has sent its first poll.
    fn open(gui: &Gui, count: usize) -> OpenPages {
        let done = Arc::new(AtomicBool::new(false));
        let (sent, first_polls) = mpsc::channel();
        let threads = (0..count)
            .map(|_| {
                let address = gui.address.clone();
                let done = Arc::clone(&done);
                let sent = sent.clone();
                std::thread::spawn(move || {
                    let mut statuses = Vec::new();
                    while !done.load(Ordering::SeqCst) {
                        let path = format!("/api/state?after={FAR_AHEAD}");
                        let mut stream = send_request(&address, "GET", &path, &address, &[], b"");
                        let _ = sent.send(());
                        statuses.push(read_reply(&mut stream).status);
                    }
                    statuses
                })
            })
            .collect();
        for _ in 0..count {
            first_polls.recv().expect("every page polls");
        }
        OpenPages { done, threads }
    }

    /// Closes the pages (each after its poll in flight is answered); every status.
    fn close(self) -> Vec<u16> {
        self.done.store(true, Ordering::SeqCst);
        self.threads
            .into_iter()
            .flat_map(|thread| thread.join().expect("a page thread"))
            .collect()
    }
}

/// Two hundred open pages keep a long poll each open all the time; the page itself, a
/// person's move and the engine's crash still get through, and every poll is answered.
/// (A waiting poll used to hold one of the 8 workers: other requests then queued behind
/// the polls for minutes.)
#[test]
fn open_pages_do_not_starve_other_requests() {
    let gui = Gui::start(&["--variant", "hexcheckers", "--size", "5"]);
    let reply = gui.post(
        "/api/new",
        json!({ "white": "human", "black": "engine0", "movetime": 60000 }),
    );
    assert_eq!(reply.status, 200);
    let pages = OpenPages::open(&gui, 200);
    for _ in 0..20 {
        assert_eq!(gui.get("/").status, 200);
        assert_eq!(gui.get("/page.js").status, 200);
    }
    let first = reply.body["legal"][0].as_str().expect("a move").to_string();
    assert_eq!(gui.post("/api/move", json!({ "move": first })).status, 200);
    kill_the_thinking_engine(&gui);
    assert_eq!(gui.get("/").status, 200);
    assert_eq!(
        gui.post("/api/settings", json!({ "black": "human" }))
            .status,
        200
    );
    let second = gui.state()["legal"][0]
        .as_str()
        .expect("a move")
        .to_string();
    let reply = gui.post("/api/move", json!({ "move": second }));
    assert_eq!(reply.status, 200, "{}", reply.body);
    let statuses = pages.close();
    assert!(statuses.len() >= 200);
    assert!(statuses.iter().all(|&status| status == 200), "{statuses:?}");
}

/// Past the cap on waiting polls, one more is refused at once with 503 and a
/// `Retry-After` (the page waits and asks again) rather than left to stall.
#[test]
fn polls_past_the_cap_are_refused_not_stalled() {
    let gui = Gui::start(&["--variant", "catchup", "--size", "3"]);
    let count = MAX_PARKED + 88;
    let mut streams: Vec<TcpStream> = (0..count)
        .map(|_| {
            let path = format!("/api/state?after={FAR_AHEAD}");
            send_request(&gui.address, "GET", &path, &gui.address, &[], b"")
        })
        .collect();
    let replies: Vec<Reply> = streams.iter_mut().map(read_reply).collect();
    let refused: Vec<&Reply> = replies.iter().filter(|reply| reply.status == 503).collect();
    assert!(
        replies
            .iter()
            .all(|reply| reply.status == 200 || reply.status == 503)
    );
    // Exactly the polls past the cap, unless the first ones ran out their 10 s before
    // the last were read (on a very loaded machine).
    assert!(
        !refused.is_empty() && refused.len() <= count - MAX_PARKED,
        "{} refused",
        refused.len()
    );
    for reply in refused {
        assert!(
            reply.body["error"]
                .as_str()
                .is_some_and(|error| error.contains("too many pages are waiting")),
            "{}",
            reply.body
        );
        assert!(reply.head.contains("Retry-After: 1"), "{}", reply.head);
    }
    assert_eq!(gui.get("/").status, 200);
}
