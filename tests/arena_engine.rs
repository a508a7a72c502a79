//! The runner's engine I/O against the hidden `tessera test-engine`: handshakes, the UCI
//! fallback, and every wait ending within its deadline (crash, hang, no readyok, a
//! command that does not exist). Independent of the rules.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tessera::arena::engine_process::{EngineError, EngineProcess};
use tessera::arena::settings::{EngineSpec, ProtocolDialect};
use tessera::game::{GameConfig, Variant};

fn test_engine(extra: &[&str]) -> EngineSpec {
    let mut arguments = vec!["test-engine".to_string()];
    arguments.extend(extra.iter().map(|word| word.to_string()));
    EngineSpec {
        command: PathBuf::from(env!("CARGO_BIN_EXE_tessera")),
        arguments,
        name: "test".to_string(),
        directory: None,
        dialect: ProtocolDialect::Auto,
        options: vec![("Hash".to_string(), "1".to_string())],
        limits: None,
        ponder: false,
    }
}

fn config() -> GameConfig {
    GameConfig::new(Variant::Catchup)
}

const TIMEOUT: Duration = Duration::from_millis(1500);

#[test]
fn ugi_handshake_and_new_game() {
    let mut engine = EngineProcess::start(&test_engine(&[]), &config(), TIMEOUT).expect("starts");
    assert_eq!(engine.dialect(), ProtocolDialect::Ugi);
    engine.new_game(TIMEOUT).expect("ready for a game");
}

#[test]
fn uci_only_engine_falls_back_to_uci() {
    let mut engine =
        EngineProcess::start(&test_engine(&["--uci-only"]), &config(), TIMEOUT).expect("starts");
    assert_eq!(engine.dialect(), ProtocolDialect::Uci);
    engine.new_game(TIMEOUT).expect("ready for a game");
}

#[test]
fn the_handshake_notes_the_options_an_engine_advertises() {
    let engine =
        EngineProcess::start(&test_engine(&["--seed-option"]), &config(), TIMEOUT).expect("starts");
    let seed = engine.advertised("seed").expect("Seed is advertised");
    assert_eq!(seed.name, "Seed");
    assert_eq!(seed.range, Some((0, 2_147_483_647)));
    assert!(engine.advertised("UCI_Variant").is_some());
    // Through the UCI fallback too.
    let engine = EngineProcess::start(
        &test_engine(&["--uci-only", "--seed-option"]),
        &config(),
        TIMEOUT,
    )
    .expect("starts");
    assert!(engine.advertised("Seed").is_some());
    let engine = EngineProcess::start(&test_engine(&[]), &config(), TIMEOUT).expect("starts");
    assert!(engine.advertised("Seed").is_none());
}

#[test]
fn forced_uci_dialect() {
    let mut spec = test_engine(&[]);
    spec.dialect = ProtocolDialect::Uci;
    let engine = EngineProcess::start(&spec, &config(), TIMEOUT).expect("starts");
    assert_eq!(engine.dialect(), ProtocolDialect::Uci);
}

#[test]
fn missing_command_fails_to_start() {
    let mut spec = test_engine(&[]);
    spec.command = PathBuf::from("/nonexistent/engine");
    let error = EngineProcess::start(&spec, &config(), TIMEOUT).expect_err("no such file");
    assert!(matches!(error, EngineError::Start(_)), "{error}");
}

#[test]
fn no_readyok_is_a_stall_within_the_timeout() {
    let mut engine =
        EngineProcess::start(&test_engine(&["--mode", "hang-ready"]), &config(), TIMEOUT)
            .expect("starts");
    let started = Instant::now();
    let error = engine
        .new_game(Duration::from_millis(200))
        .expect_err("no readyok");
    assert!(matches!(error, EngineError::Stalled(_)), "{error}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn crash_on_go_is_reported_as_a_crash() {
    let mut engine = EngineProcess::start(&test_engine(&["--mode", "crash"]), &config(), TIMEOUT)
        .expect("starts");
    engine.send("position startpos").expect("alive");
    engine.send("go nodes 1").expect("alive");
    let error = engine
        .wait_for(
            |line| line.starts_with("bestmove"),
            Duration::from_secs(5),
            "bestmove",
        )
        .expect_err("it exits");
    assert!(matches!(error, EngineError::Crashed(_)), "{error}");
}

#[test]
fn hang_on_go_is_a_stall_and_the_engine_is_killed() {
    let mut engine = EngineProcess::start(&test_engine(&["--mode", "hang"]), &config(), TIMEOUT)
        .expect("starts");
    engine.send("position startpos").expect("alive");
    engine.send("go nodes 1").expect("alive");
    let started = Instant::now();
    let error = engine
        .wait_for(
            |line| line.starts_with("bestmove"),
            Duration::from_millis(200),
            "bestmove",
        )
        .expect_err("it hangs");
    assert!(matches!(error, EngineError::Stalled(_)), "{error}");
    engine.kill();
    assert!(started.elapsed() < Duration::from_secs(2));
}
