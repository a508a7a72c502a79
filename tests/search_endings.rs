//! The alpha-beta search with ending tables (side 5, 3 v 1 and smaller, written to a file
//! and loaded as `EndingsFile` is): in a won position it plays the move that keeps the
//! quickest win and scores it by its distance, the loser the longest defence, a drawn
//! one scores as a draw; and the protocol loads a file or says why it cannot.

use std::sync::atomic::AtomicBool;

mod endings_support;

use endings_support::side5_file;

use tessera::endings::{PLY_LIMIT, Value, probe, won_positions};
use tessera::engine::{Engine, SearchOptions};
use tessera::game::checkers::SmallCheckers;
use tessera::game::{GameConfig, GameRecord, Rules, Variant};
use tessera::protocol::ScriptRunner;
use tessera::search::alphabeta::TABLE_WIN;
use tessera::search::{Score, SearchLimits};

fn position(text: &str) -> SmallCheckers {
    let mut config = GameConfig::new(Variant::HexCheckers);
    config.size = Some(5);
    SmallCheckers::from_position_text(text, &config).expect("a valid position")
}

/// The engine's move and score at `depth`.
fn best(engine: &mut Engine, position: &SmallCheckers, depth: u32) -> (SmallCheckers, Score) {
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let result = engine.search_record(
        &GameRecord::new(position.clone()),
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let mut child = position.clone();
    child.play_unchecked(result.best_move.expect("a move"));
    (child, result.score.expect("a score"))
}

/// From won 3 v 1 positions the winner's move leaves a loss one ply shorter and the score
/// is the table win at that distance; the loser's reply leaves a win one ply shorter
/// again (no quicker one). Without the file, the same search finds no table score.
#[test]
fn the_search_keeps_the_distance_with_the_tables() {
    let (tables, path) = side5_file("distance");
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 4,
        ..SearchOptions::default()
    });
    let note = engine.load_endings(&path.display().to_string());
    assert!(note.starts_with("EndingsFile: loaded"), "{note}");
    let positions = won_positions(&tables, 3, 1, 12, 6, 9);
    assert_eq!(positions.len(), 12);
    for (text, plies) in positions {
        let root = position(&text);
        assert_eq!(probe(&tables, &root), Some(Value::Win(plies)));
        let (child, score) = best(&mut engine, &root, 3);
        assert_eq!(
            score,
            Score::Centipawns(TABLE_WIN - i32::from(plies)),
            "{text}"
        );
        assert_eq!(
            probe(&tables, &child),
            Some(Value::Loss(plies - 1)),
            "{text}"
        );
        let (grandchild, score) = best(&mut engine, &child, 3);
        assert_eq!(score, Score::Centipawns(-TABLE_WIN + i32::from(plies) - 1));
        assert_eq!(
            probe(&tables, &grandchild),
            Some(Value::Win(plies - 2)),
            "{}",
            child.position_text()
        );
    }
    let mut plain = Engine::new(SearchOptions {
        hash_mb: 4,
        ..SearchOptions::default()
    });
    let (text, _) = &won_positions(&tables, 3, 1, 1, 6, 9)[0];
    let (_, score) = best(&mut plain, &position(text), 3);
    assert!(
        matches!(score, Score::Centipawns(value) if value.abs() < TABLE_WIN - 1000),
        "{score:?}"
    );
    let _ = std::fs::remove_dir_all(path.parent().expect("a directory"));
}

/// A won 3 v 1 position whose counter leaves too few plies for the win is a draw by the
/// tables: it scores the contempt (30 on side 5) against the side to move, and 10 for
/// each of its two men ahead (of two drawn lines the engine keeps its men).
#[test]
fn a_table_draw_scores_as_a_draw() {
    let (tables, path) = side5_file("draw");
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 4,
        ..SearchOptions::default()
    });
    engine.load_endings(&path.display().to_string());
    let (text, plies) = &won_positions(&tables, 3, 1, 1, 10, 4)[0];
    let late = usize::from(PLY_LIMIT - plies + 1);
    let root = position(&text.replace(" - 0 40", &format!(" - {late} 40")));
    assert_eq!(probe(&tables, &root), Some(Value::Draw));
    let (_, score) = best(&mut engine, &root, 4);
    assert_eq!(score, Score::Centipawns(-30 + 2 * 10));
    let _ = std::fs::remove_dir_all(path.parent().expect("a directory"));
}

/// `setoption name EndingsFile`: a missing or damaged file is an `info string` with the
/// reason and the engine searches on; a good one is loaded; `<empty>` unloads it. A path
/// that is not a regular file (a device that never ends, a directory) is refused
/// without being read.
#[test]
fn the_protocol_loads_a_file_or_says_why_not() {
    let (_, path) = side5_file("protocol");
    // The load runs as a job (so `isready` is answered during it); the script runner
    // runs it in line and returns its note with the command's replies.
    let mut session = ScriptRunner::new();
    let lines = |session: &mut ScriptRunner, line: &str| -> Vec<String> { session.send(line) };
    let handshake = lines(&mut session, "uci");
    assert!(handshake.contains(&"option name EndingsFile type string default <empty>".to_string()));
    lines(&mut session, "setoption name UCI_Variant value hexcheckers");
    lines(&mut session, "setoption name BoardSize value 5");
    let missing = path.with_file_name("missing.tce");
    let reply = lines(
        &mut session,
        &format!("setoption name EndingsFile value {}", missing.display()),
    );
    assert_eq!(reply.len(), 1, "{reply:?}");
    assert!(
        reply[0].starts_with("info string EndingsFile: cannot use")
            && reply[0].ends_with("going on without it"),
        "{reply:?}"
    );
    for device in ["/dev/zero", "/"] {
        let reply = lines(
            &mut session,
            &format!("setoption name EndingsFile value {device}"),
        );
        assert_eq!(
            reply,
            vec![format!(
                "info string EndingsFile: cannot use {device}: cannot read {device}: \
                 not a regular file; going on without it"
            )]
        );
    }
    let damaged = path.with_file_name("damaged.tce");
    let mut bytes = std::fs::read(&path).expect("written");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&damaged, bytes).expect("written");
    let reply = lines(
        &mut session,
        &format!("setoption name EndingsFile value {}", damaged.display()),
    );
    assert!(reply[0].contains("the file is damaged"), "{reply:?}");
    let reply = lines(
        &mut session,
        &format!("setoption name EndingsFile value {}", path.display()),
    );
    assert!(
        reply[0].starts_with("info string EndingsFile: loaded")
            && reply[0].contains("side 5 tables 1v1 2v1 1v2 3v1 1v3"),
        "{reply:?}"
    );
    let reply = lines(&mut session, "setoption name EndingsFile value <empty>");
    assert_eq!(
        reply,
        vec!["info string EndingsFile: none, built-in tables only".to_string()]
    );
    let _ = std::fs::remove_dir_all(path.parent().expect("a directory"));
}
