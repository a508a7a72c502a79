//! The fuzz targets' bodies: one function per parser, each taking the fuzzer's bytes and
//! panicking only when Tessera breaks a promise (a panic inside Tessera, a position string
//! or move text that does not read back, a protocol line outside the protocol). The
//! `cargo fuzz` targets in `fuzz_targets/` call them; `tests/fuzz_seeds.rs` in the main
//! crate includes this file and replays the seed corpus through them, so `cargo test`
//! runs every target on every seed. How to run and what the inputs look like:
//! `tests/fuzz/README.md`.

use std::io::Cursor;
use std::sync::atomic::{AtomicBool, Ordering};

use tessera::arena::openings::{BookOrder, OpeningBook};
use tessera::arena::record::{MatchRecord, Scoreboard, read_jsonl_from};
use tessera::endings::EndingsFile;
use tessera::engine::{Engine, SearchOptions};
use tessera::game::{CatchupRule, GameConfig, GameKind, GameRecord, Rules, Variant};
use tessera::gui::driver::Shared;
use tessera::gui::server::{api_layout, api_post};
use tessera::gui::table::Table;
use tessera::protocol::io::{RawLine, decode, read_line};
use tessera::protocol::job::{Job, JobEvent};
use tessera::protocol::options::Settings;
use tessera::protocol::parse::parse_line;
use tessera::protocol::{Command, Response, Session, Step};
use tessera::random::SplitMix64;
use tessera::registry::AnyGame;
use tessera::search::SearchLimits;
use tessera::with_record;

/// A fuzz target's body.
pub type Target = fn(&[u8]);

/// Every target by name (the name of its `fuzz_targets/` file and seed folder).
pub const TARGETS: &[(&str, Target)] = &[
    ("position_text", position_text),
    ("move_text", move_text),
    ("protocol_lines", protocol_lines),
    ("protocol_script", protocol_script),
    ("match_records", match_records),
    ("game_record", game_record),
    ("gui_requests", gui_requests),
    ("checkpoint", checkpoint),
    ("proof", proof),
    ("endings_file", endings_file),
    ("openings", openings),
    ("engine_output", engine_output),
    ("match_settings", match_settings),
];

/// A game configuration from one byte: `variant + 4 * size_code + 48 * rule`, where
/// `size_code` 0 is the variant's default size and `n` is side `n - 1` (0 to 10, so
/// impossible sides are tried too).
pub fn config_of(byte: u8) -> GameConfig {
    let variant = Variant::ALL[usize::from(byte % 4)];
    let size = match (byte / 4) % 12 {
        0 => None,
        code => Some(usize::from(code) - 1),
    };
    let catchup_rule = CatchupRule::ALL[usize::from((byte / 48) % 2)];
    catchup_rule.chosen_in(GameConfig {
        size,
        ..GameConfig::new(variant)
    })
}

/// The bytes as text: the parsers take `&str`, and the protocol's reader turns invalid
/// UTF-8 into an error line before any parser sees it.
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// A line is one printable line: what every protocol reply must be. (Error messages of
/// files and command lines go to stderr or into JSON; only their making is checked.)
fn assert_printable(line: &str) {
    assert!(
        !line.chars().any(char::is_control),
        "a control character in {line:?}"
    );
}

/// Makes an error's message (its formatting is code too), dropping it.
fn shown(error: &dyn std::fmt::Display) {
    std::hint::black_box(error.to_string());
}

/// Above this many moves, a position's move texts are not all read back.
const MOVE_TEXT_CHECKS: usize = 64;

/// Checks a position: its string reads back to itself, moves exist exactly while the
/// game runs, move texts read back, the board text and picture draw.
fn check_record<R: Rules>(record: &GameRecord<R>, config: &GameConfig) {
    let position = record.position();
    let text = position.position_text();
    let again = R::from_position_text(&text, config)
        .unwrap_or_else(|error| panic!("own position string rejected: {text}: {error}"));
    assert_eq!(again.position_text(), text, "position string round trip");
    assert_eq!(again.hash(), position.hash(), "hash after the round trip");
    let over = record.outcome().is_some();
    let count = if record.is_threefold_repetition() {
        0
    } else {
        position.count_moves()
    };
    assert_eq!(
        count == 0,
        over,
        "moves exactly while the game runs: {text}"
    );
    if count as usize <= 4 * MOVE_TEXT_CHECKS {
        let mut moves = Vec::new();
        record.legal_moves(&mut moves);
        assert_eq!(moves.len() as u64, count, "count_moves agrees: {text}");
        for &mv in moves.iter().take(MOVE_TEXT_CHECKS) {
            let move_text = position.move_text(mv);
            assert_eq!(
                position.parse_move(&move_text),
                Ok(mv),
                "{move_text} reads back in {text}"
            );
        }
    }
}

thread_local! {
    /// One small engine per thread, for evaluations and tiny searches.
    static ENGINE: std::cell::RefCell<Engine> = std::cell::RefCell::new(Engine::new(SearchOptions {
        hash_mb: 1,
        ..SearchOptions::default()
    }));
}

/// Position strings of every variant and board side: `[config byte] text`. With the
/// config byte's top bit, the position is also evaluated, drawn and searched briefly.
pub fn position_text(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let config = config_of(first & 0x7f);
    let Some(text) = text(rest) else { return };
    let Ok(game) = AnyGame::from_position_text(config, text) else {
        return;
    };
    let config = *game.config();
    let kind = GameKind::from_position_text(&config, text).expect("accepted as an AnyGame");
    with_record!(&kind, record => check_record(record, &config));
    for line in tessera::protocol::board_text::describe(&game) {
        assert_printable(&line);
    }
    if first & 0x80 == 0 {
        return;
    }
    ENGINE.with(|engine| {
        let mut engine = engine.borrow_mut();
        for line in game.evaluation_text() {
            assert_printable(&line);
        }
        if game.is_over() {
            return;
        }
        let limits = SearchLimits {
            depth: Some(2),
            nodes: Some(200),
            ..SearchLimits::default()
        };
        let result = game.search(&mut engine, &limits, &AtomicBool::new(false), &mut |_| {});
        let best = result.best_move.expect("a move while the game runs");
        game.canonical_move_text(&best)
            .unwrap_or_else(|error| panic!("search move {best} is illegal: {error}"));
    });
    let last = game.played_move_texts().last().cloned();
    if let Err(error) = tessera::picture::render(&game, last.as_deref()) {
        shown(&error);
    }
}

/// Move text: `[config byte] [plies] [seed] text`: the text is read in the position
/// reached from the start by `plies % 32` seeded random moves. A move read is legal and
/// its own text reads back to it.
pub fn move_text(data: &[u8]) {
    let [first, plies, seed, rest @ ..] = data else {
        return;
    };
    let Some(text) = text(rest) else { return };
    let Ok(game) = GameKind::new(&config_of(*first)) else {
        return;
    };
    let mut random = SplitMix64::new(u64::from(*seed));
    with_record!(&game, start => {
        let mut record = start.clone();
        let mut moves = Vec::new();
        for _ in 0..plies % 32 {
            record.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            record.play_unchecked(moves[random.below(moves.len())]);
        }
        let before = record.position().clone();
        match record.play_text(text) {
            Ok(mv) => {
                let canonical = before.move_text(mv);
                assert_eq!(before.parse_move(&canonical), Ok(mv), "{canonical} reads back");
                let mut legal = Vec::new();
                GameRecord::new(before.clone()).legal_moves(&mut legal);
                assert!(legal.contains(&mv), "{text} read as an illegal move");
            }
            Err(error) => shown(&error),
        }
    });
}

/// Protocol lines as raw bytes, through the reader (a small line limit, so long lines
/// are tried too) and the parser: every line is a command or one error line.
pub fn protocol_lines(data: &[u8]) {
    let mut input = Cursor::new(data);
    while let Ok(Some(raw)) = read_line(&mut input, 256) {
        let parsed = match raw {
            RawLine::TooLong(length) => {
                assert!(length > 256);
                continue;
            }
            RawLine::Bytes(bytes) => decode(RawLine::Bytes(bytes)),
        };
        let command = match parsed {
            Ok(line) => parse_line(&line),
            Err(error) => Command::Invalid(error),
        };
        if let Command::Invalid(error) = command {
            let reply = Response::Error(error).to_string();
            assert_printable(&reply);
            assert!(reply.starts_with("info string error: "), "{reply}");
        }
    }
}

/// The replies the protocol allows: each starts with one of these words (or is a line of
/// `d`, `perft`, `divide`, `help`, `eval` or `bench` output, checked by the caller).
const REPLY_STARTS: &[&str] = &[
    "id name ",
    "id author ",
    "option name ",
    "ugiok",
    "uciok",
    "readyok",
    "info ",
    "bestmove ",
    "response",
];

/// Checks one reply line: printable, and an `info` line made of known fields.
fn check_reply(response: &Response) {
    let line = response.to_string();
    assert_printable(&line);
    if let Response::Text(_) = response {
        return;
    }
    assert!(
        REPLY_STARTS.iter().any(|start| line.starts_with(start)),
        "a reply outside the protocol: {line:?}"
    );
    if let Some(fields) = line.strip_prefix("info ") {
        let mut words = fields.split(' ');
        while let Some(word) = words.next() {
            match word {
                "string" | "pv" => break,
                "depth" | "seldepth" | "nodes" | "nps" | "time" | "hashfull" => {
                    let number = words.next().unwrap_or("");
                    assert!(number.parse::<u64>().is_ok(), "{line}");
                }
                "score" => {
                    let kind = words.next();
                    assert!(matches!(kind, Some("cp" | "mate")), "{line}");
                    let value = words.next().unwrap_or("");
                    assert!(value.parse::<i64>().is_ok(), "{line}");
                }
                other => panic!("unknown info field {other} in {line}"),
            }
        }
    }
    if let Some(mv) = line.strip_prefix("bestmove ") {
        assert!(!mv.is_empty() && !mv.contains(' '), "{line}");
    }
}

/// True for a `setoption` that would take real resources (a big `Hash`, many
/// `Threads`): accepted input, but not what a fuzzer's memory and time limits allow.
fn too_costly(command: &Command) -> bool {
    let Command::SetOption {
        name,
        value: Some(value),
    } = command
    else {
        return false;
    };
    let number = value.trim().trim_start_matches('+').parse::<u64>();
    let Ok(number) = number else { return false };
    (name.eq_ignore_ascii_case("hash") && (3..=33_554_432).contains(&number))
        || (name.eq_ignore_ascii_case("threads") && (3..=256).contains(&number))
}

/// Runs a job the way `stop` would leave it: searches, perft (beyond depth 1) and bench
/// with their stop flag raised before they start (each still ends with its report);
/// setups in full. Feeds the events back; returns the job a waiting command started.
fn run_stopped(session: &mut Session, job: Job) -> Option<Job> {
    let small_perft = matches!(&job, Job::Perft { depth, divide: false, .. } if *depth <= 1);
    if let (Some(stop), false) = (job.stop_flag(), small_perft) {
        stop.store(true, Ordering::SeqCst);
    }
    let mut events = Vec::new();
    job.run(&mut |event| events.push(event));
    let mut next = None;
    let mut finished = 0;
    for event in events {
        finished += usize::from(matches!(event, JobEvent::Finished(_)));
        let step = session.job_event(event);
        next = absorb(step).or(next);
    }
    assert_eq!(finished, 1, "a job ends with exactly one Finished");
    next
}

/// Checks a step's replies; returns its job.
fn absorb(step: Step) -> Option<Job> {
    for response in &step.responses {
        check_reply(response);
    }
    step.job
}

/// Whole scripts fed to the session, one line per line of input: every reply is a
/// protocol line, `isready` is answered within the same step whatever runs or waits,
/// and at the end `stop` leaves the session idle.
pub fn protocol_script(data: &[u8]) {
    let mut settings = Settings::default();
    settings.search.hash_mb = 1;
    let mut session = Session::with_settings(settings).expect("the default game starts");
    let mut input = Cursor::new(data);
    let mut running: Option<Job> = None;
    let mut lines = 0;
    while let Ok(Some(raw)) = read_line(&mut input, 4096) {
        lines += 1;
        if lines > 200 {
            break;
        }
        let command = match decode(raw) {
            Ok(line) => parse_line(&line),
            Err(error) => Command::Invalid(error),
        };
        if too_costly(&command) {
            continue;
        }
        let ready = matches!(command, Command::IsReady);
        let quit = matches!(command, Command::Quit);
        let step = session.handle(command);
        if ready {
            let replies: Vec<String> = step.responses.iter().map(ToString::to_string).collect();
            assert!(replies.contains(&"readyok".to_string()), "{replies:?}");
        }
        let stepped_quit = step.quit;
        if let Some(job) = absorb(step) {
            assert!(running.is_none(), "two jobs at once");
            running = Some(job);
        }
        if stepped_quit || quit {
            return;
        }
        // Some lines run the job at once, others leave it running while the next lines
        // arrive (so commands queue behind it): the input decides.
        if lines % 3 != 0 {
            while let Some(job) = running.take() {
                running = run_stopped(&mut session, job);
            }
        }
    }
    // A held `go infinite` answer released by the stop may let a waiting job start.
    let step = session.handle(Command::Stop);
    if let Some(job) = absorb(step) {
        assert!(running.is_none(), "two jobs at once");
        running = Some(job);
    }
    while let Some(job) = running.take() {
        running = run_stopped(&mut session, job);
    }
    let step = session.end_of_input();
    let mut next = absorb(step);
    while let Some(job) = next.take() {
        next = run_stopped(&mut session, job);
    }
    assert!(!session.is_busy(), "a job left running");
}

/// Match records as a JSONL file: each record read is scored, replayed for the report,
/// and read back by the GUI from its JSON line and its PGN text, which agree.
pub fn match_records(data: &[u8]) {
    let Ok(read) = read_jsonl_from(Cursor::new(data), "fuzz.jsonl") else {
        return;
    };
    let mut scoreboard = Scoreboard::default();
    for record in &read.records {
        scoreboard.add(0, record);
        check_match_record(record);
    }
}

fn check_match_record(record: &MatchRecord) {
    if let Ok(replay) = tessera::report::replay::replay(record) {
        tessera::report::replay::game_json(record, &replay);
    }
    let from_json = tessera::gui::records::read_game(&record.to_json_line());
    let from_pgn = tessera::gui::records::read_game(&record.to_pgn(true));
    if let (Ok(json), Ok(pgn)) = (&from_json, &from_pgn) {
        assert_eq!(
            json.moves, pgn.moves,
            "the JSON and the PGN of a record agree"
        );
    }
}

/// A game record as the GUI's page sends it (a JSONL line or a PGN game).
pub fn game_record(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Ok(loaded) = tessera::gui::records::read_game(text) {
        let mut game = AnyGame::from_position_text(loaded.config, &loaded.start)
            .expect("a loaded game's start reads back");
        for mv in &loaded.moves {
            game.play_text(mv).expect("a loaded game's moves replay");
        }
    }
}

/// The GUI's JSON API, one request per line: `[config byte]` then lines `<path> <body>`
/// (`new`, `move`, ... for `POST /api/<path>`; `layout` for `GET /api/layout?<body>`).
/// Every answer is 200 or an error with a message, and the table's game always
/// replays by the rules.
pub fn gui_requests(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Some(text) = text(rest) else { return };
    let Ok(table) = Table::new(config_of(first), vec!["engine".to_string()]) else {
        return;
    };
    let shared = Shared::new(table);
    for line in text.lines().take(32) {
        let (path, body) = line.split_once(' ').unwrap_or((line, ""));
        let reply = if path == "layout" {
            api_layout(body)
        } else {
            api_post(&shared, &format!("/api/{path}"), body)
        };
        if reply.status != 200 {
            let message = reply.body["error"].as_str().unwrap_or("");
            assert!(!message.is_empty(), "an error without a message");
        }
    }
    let view = shared.lock().view();
    let variant = view["variant"].as_str().and_then(|name| name.parse().ok());
    let parameters = view["parameters"].as_object();
    let (Some(variant), Some(parameters)) = (variant, parameters) else {
        panic!("a view without its game: {view}");
    };
    let mut config = GameConfig {
        size: view["side"].as_u64().map(|side| side as usize),
        ..GameConfig::new(variant)
    };
    for (option, value) in parameters {
        config
            .set_parameter(option, value.as_str().unwrap_or(""))
            .unwrap_or_else(|error| panic!("the view's parameters: {error}"));
    }
    let start = view["start"].as_str().unwrap_or("");
    let mut game = AnyGame::from_position_text(config, start)
        .unwrap_or_else(|error| panic!("the table's start {start}: {error}"));
    for mv in view["moves"].as_array().into_iter().flatten() {
        let mv = mv.as_str().unwrap_or("");
        game.play_text(mv)
            .unwrap_or_else(|error| panic!("the table's move {mv}: {error}"));
    }
}

/// FNV-1a 64, the checksum of checkpoint and endings files (their formats name it).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A solve checkpoint: `[mode] file`. With mode bit 0 the file's checksum line is
/// rewritten to match, so the fuzzer also reaches what a well-formed file's entries do
/// (stored, then used by a solve of the same position).
pub fn checkpoint(data: &[u8]) {
    use tessera::solve::checkpoint::{Header, read_from};
    let Some((&mode, file)) = data.split_first() else {
        return;
    };
    let mut bytes = file.to_vec();
    if mode & 1 == 1 {
        let body_end = bytes
            .windows(9)
            .rposition(|window| window == b"checksum ")
            .unwrap_or(bytes.len());
        bytes.truncate(body_end);
        let sum = fnv1a(&bytes);
        bytes.extend_from_slice(format!("checksum {sum:016x}\n").as_bytes());
    }
    let header = Header {
        variant: "catchup".to_string(),
        size: 2,
        rule: "revised".to_string(),
        position: "2/3/2 w 1".to_string(),
    };
    let shared = tessera::solve::search::Shared::new(1);
    let length = bytes.len() as u64;
    match read_from(Cursor::new(bytes), length, "fuzz", &header, &shared.table) {
        Ok(_) => {
            let config = CatchupRule::Revised.chosen_in(GameConfig {
                size: Some(2),
                ..GameConfig::new(Variant::Catchup)
            });
            let game = GameKind::new(&config).expect("catchup side 2 starts");
            let GameKind::Catchup(record) = &game else {
                panic!("catchup is catchup");
            };
            let state = tessera::solve::catchup::CatchupState::from_game(record.position())
                .expect("side 2 is solvable");
            let settings = tessera::solve::driver::Settings::default();
            tessera::solve::driver::solve(&state, &settings, &shared, None);
        }
        Err(error) => shown(&error),
    }
}

/// A proof file, checked against the rules.
pub fn proof(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Err(error) = tessera::solve::proof::check(text) {
        shown(&error);
    }
}

/// An ending tables file: `[mode] file`. With mode bit 0 the header's checksum is
/// rewritten to match the values, so the fuzzer also reaches the checks after it.
pub fn endings_file(data: &[u8]) {
    let Some((&mode, file)) = data.split_first() else {
        return;
    };
    let mut bytes = file.to_vec();
    if mode & 1 == 1
        && let Some(end) = bytes.iter().position(|&byte| byte == b'\n')
        && let Ok(header) = std::str::from_utf8(&bytes[..end])
        && let Some(at) = header.find(" fnv1a64 ")
    {
        let sum = fnv1a(&bytes[end + 1..]);
        let mut fixed = format!("{} fnv1a64 {sum:016x}", &header[..at]).into_bytes();
        fixed.extend_from_slice(&bytes[end..]);
        bytes = fixed;
    }
    match EndingsFile::parse(bytes) {
        Ok(file) => assert_printable(&file.describe()),
        Err(error) => shown(&error),
    }
}

/// An opening book: `[config byte] file`; each line read is a legal start.
pub fn openings(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Some(text) = text(rest) else { return };
    let config = config_of(first);
    match OpeningBook::from_text(text, config, BookOrder::Sequential, 0, 7) {
        Ok(book) => {
            for pair in 0..4 {
                let (_, opening) = book.for_pair(pair).expect("a book's pairs have openings");
                opening
                    .replay(config)
                    .expect("a line the book took replays");
            }
        }
        Err(error) => shown(&error),
    }
}

/// Lines an engine sends to the match runner and the GUI: `bestmove` lines are judged,
/// `info` lines read.
pub fn engine_output(data: &[u8]) {
    let Some(text) = text(data) else { return };
    for line in text.lines() {
        match tessera::arena::referee::judge_bestmove(line) {
            Ok(mv) => assert!(!mv.is_empty() && !mv.contains(char::is_whitespace)),
            Err(violation) => assert!(!violation.0.is_empty()),
        }
        let _ = tessera::gui::info::parse_info(line);
    }
}

/// The match runner's `--engine`/`--each` and `--sprt` words, one word per line; a line
/// `--` starts the engine's own words after the `--each` ones.
pub fn match_settings(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let mut each = Vec::new();
    let mut own = Vec::new();
    let mut target = &mut each;
    for line in text.lines() {
        if line == "--" {
            target = &mut own;
        } else {
            target.push(line.to_string());
        }
    }
    if let Err(error) = tessera::arena::settings::EngineSpec::from_words(&each, &own) {
        shown(&error);
    }
    if let Err(error) = tessera::arena::sprt::Sprt::from_words(&own) {
        shown(&error);
    }
}
