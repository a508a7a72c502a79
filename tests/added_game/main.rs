//! A game added from outside the crate through the registry, as `src/docs/adding_a_game.md`
//! says: Hextoe (`hextoe.rs`), its rules, search hooks and one registry entry, run through
//! what every built-in game goes through:
//! - perft from its data file (`tests/data/perft/hextoe.txt`), and against a naive count
//!   written here with another board representation;
//! - the conformance checks of `tests/conformance_support`, and its result rule;
//! - the protocol: a transcript (its snapshot in `snapshots/`) played in process and
//!   through this very program as the engine;
//! - a match: two engine processes (this program again) refereed by the match runner.
//!
//! A test target without the test harness (`harness = false` in Cargo.toml): with the
//! argument `--engine` the program is a Tessera engine that plays Hextoe besides the
//! built-in games (the match runner and the transcript start it so); without, it runs the
//! checks and fails by panicking.

#[path = "../conformance_support/mod.rs"]
mod conformance_support;
mod hextoe;
#[path = "../perft_support/mod.rs"]
mod perft_support;
#[path = "../protocol_support/mod.rs"]
mod protocol_support;

use std::io::{BufReader, stdin, stdout};
use std::process::{Command, ExitCode};

use clap::Parser;
use tessera::arena::MatchArgs;
use tessera::arena::record::{Termination, read_jsonl};
use tessera::game::{GameConfig, GameRecord, Outcome, Player, Rules, Variant};
use tessera::protocol::{ScriptRunner, Session};
use tessera::random::SplitMix64;
use tessera::registry::AnyGame;

use hextoe::{ENTRY, Hextoe, LINE_OPTION};

fn main() -> ExitCode {
    if std::env::args().nth(1).as_deref() == Some("--engine") {
        let session = match Session::for_registry(hextoe::registry()) {
            Ok(session) => session,
            Err(error) => {
                eprintln!("error: {error}");
                return ExitCode::FAILURE;
            }
        };
        return tessera::protocol::run_session(session, BufReader::new(stdin()), stdout());
    }
    let checks: [(&str, fn()); 5] = [
        ("perft", perft),
        ("naive perft", naive_perft),
        ("conformance", conformance),
        ("protocol", protocol),
        ("match", play_match),
    ];
    for (name, check) in checks {
        check();
        println!("hextoe: {name} ok");
    }
    ExitCode::SUCCESS
}

/// Hextoe as the configurations name it.
fn hextoe() -> Variant {
    Variant::Added(&ENTRY)
}

fn config(side: usize, line: &str) -> GameConfig {
    let mut config = GameConfig {
        size: Some(side),
        ..GameConfig::new(hextoe())
    };
    config
        .set_parameter(LINE_OPTION, line)
        .expect("a value of the parameter");
    config
}

fn perft() {
    perft_support::check(hextoe());
}

/// The board as a plain list of axial cells `(x, y)` (protocol.md's hex coordinates),
/// and perft counted on it by brute force: nothing shared with `hextoe.rs` but the rules.
struct Naive {
    cells: Vec<(i32, i32)>,
    line: usize,
}

impl Naive {
    fn new(side: i32, line: usize) -> Self {
        let mut cells = Vec::new();
        for y in 0..2 * side - 1 {
            let length = 2 * side - 1 - (y - (side - 1)).abs();
            for number in 0..length {
                cells.push(((y - (side - 1)).max(0) + number, y));
            }
        }
        Naive { cells, line }
    }

    /// True when the stones of `owner` at `cell` make a line.
    fn makes_line(&self, board: &[Option<usize>], owner: usize, cell: usize) -> bool {
        let (x, y) = self.cells[cell];
        let owns = |x: i32, y: i32| {
            self.cells
                .iter()
                .position(|&at| at == (x, y))
                .is_some_and(|index| board[index] == Some(owner))
        };
        [(1, 0), (1, 1), (0, 1)].into_iter().any(|(dx, dy)| {
            let run = |sign: i32| {
                (1..)
                    .take_while(|step| owns(x + sign * step * dx, y + sign * step * dy))
                    .count()
            };
            1 + run(1) + run(-1) >= self.line
        })
    }

    fn perft(&self, board: &mut Vec<Option<usize>>, mover: usize, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        for cell in 0..board.len() {
            if board[cell].is_some() {
                continue;
            }
            board[cell] = Some(mover);
            let over = self.makes_line(board, mover, cell) || board.iter().all(Option::is_some);
            nodes += if over && depth > 1 {
                0
            } else {
                self.perft(board, 1 - mover, depth - 1)
            };
            board[cell] = None;
        }
        nodes
    }
}

fn naive_perft() {
    for (side, line, depth) in [(2, "3", 7), (3, "3", 6), (3, "4", 5), (4, "4", 4)] {
        let naive = Naive::new(side as i32, line.parse().expect("a number"));
        let mut board = vec![None; naive.cells.len()];
        let game = AnyGame::new(config(side, line)).expect("the start");
        for depth in 1..=depth {
            assert_eq!(
                game.perft(depth, true),
                naive.perft(&mut board, 0, depth),
                "side {side} line {line} depth {depth}"
            );
        }
    }
}

fn conformance() {
    for (side, line) in [(2, "3"), (3, "3"), (3, "4"), (4, "3"), (4, "4")] {
        let config = config(side, line);
        let start = GameRecord::new(Hextoe::start(&config).expect("the start"));
        let seed = 0x4E70 ^ side as u64;
        let cells = 3 * side * (side - 1) + 1;
        conformance_support::play_random_games(&start, &config, 20, seed, cells);
        let length = config
            .parameter(LINE_OPTION)
            .and_then(|value| value.parse().ok())
            .expect("hextoe's line length");
        check_results(&start, length, seed, 20);
        let game = AnyGame::new(config).expect("the start");
        conformance_support::play_by_text(&game, seed ^ 1, cells);
    }
}

/// Hextoe's result rule: the winner moved last and has a line (its score reaches the
/// line's length, the loser's does not); a draw fills the board.
fn check_results(start: &GameRecord<Hextoe>, length: i32, seed: u64, games: usize) {
    let mut random = SplitMix64::new(seed ^ 2);
    for _ in 0..games {
        let mut game = start.clone();
        let mut moves = Vec::new();
        loop {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(moves[random.below(moves.len())]);
        }
        let position = game.position();
        let score = position.score();
        match position.outcome() {
            Some(Outcome::Win(winner)) => {
                assert_eq!(
                    position.side_to_move(),
                    winner.opponent(),
                    "the winner moved last"
                );
                assert!(score[winner.index()] >= length, "{score:?}");
                assert!(score[winner.opponent().index()] < length, "{score:?}");
            }
            Some(Outcome::Draw) => {
                assert!(!position.position_text().chars().any(|c| c.is_ascii_digit()));
                assert!(score.iter().all(|&longest| longest < length), "{score:?}");
            }
            None => panic!("a game without moves is over"),
        }
    }
}

const SCRIPT: &[&str] = &[
    "ugi",
    "setoption name UCI_Variant value hextoe",
    "query variant",
    "setoption name BoardSize value 5",
    "setoption name BoardSize value 2",
    "setoption name HextoeLine value 5",
    "setoption name HextoeLine value 3",
    "position startpos moves c2 a1 b2",
    "d",
    "query result",
    "perft 3",
    "divide 1",
    "position startpos moves c2 a1 b2 a2 b1 c1 b3",
    "query result",
    "query score",
    "go depth 2",
    "position startpos moves c2 a3",
    "position startpos moves c2 c2",
    "position fen 2/1W1/2 b",
    "position fen 2/WWW/BB b",
    "query result",
    "position fen 2/WWW/BB w",
    "position fen 2/WWW/1B b",
    "position startpos moves c2 a1",
    "eval",
    "go depth 3",
    "quit",
];

fn protocol() {
    let session = Session::for_registry(hextoe::registry()).expect("a session");
    let in_process = protocol_support::in_process_with(ScriptRunner::with_session(session), SCRIPT);
    assert_transcript!("hextoe", in_process);
    let mut engine = Command::new(std::env::current_exe().expect("this program"));
    engine.arg("--engine");
    let binary =
        protocol_support::binary_with(protocol_support::Engine::spawn_command(engine), SCRIPT);
    assert_transcript!("hextoe", binary);
    // The engine's perft is the rules': the count after `perft 3` in the transcript.
    let mut game = AnyGame::new(config(2, "3")).expect("the start");
    for mv in ["c2", "a1", "b2"] {
        game.play_text(mv).expect("legal");
    }
    let counted = format!("< Nodes searched: {}", game.perft(3, true));
    assert!(in_process.contains(&counted), "{counted}");
}

/// Two engine processes (this program with `--engine`) play Hextoe, side 3, line 4, with
/// the match runner as referee; every record replays under the rules.
fn play_match() {
    let directory = std::env::temp_dir().join(format!("tessera-hextoe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).expect("a scratch directory");
    let records = directory.join("games.jsonl");
    let program = std::env::current_exe().expect("this program");
    let engine = |name: &str, seed: u32| {
        vec![
            "--engine".to_string(),
            format!("cmd={}", program.display()),
            "arg=--engine".to_string(),
            format!("name={name}"),
            format!("option.Seed={seed}"),
        ]
    };
    let mut words = vec!["match".to_string()];
    words.extend(engine("one", 1));
    words.extend(engine("two", 2));
    for word in [
        "--variant",
        "hextoe",
        "--size",
        "3",
        "--games",
        "4",
        "--nodes",
        "300",
        "--random-plies",
        "2",
        "--seed",
        "5",
    ] {
        words.push(word.to_string());
    }
    words.push("--jsonl".to_string());
    words.push(records.display().to_string());
    let mut args = MatchCommand::parse_from(words).args;
    let registry = hextoe::registry();
    let line = registry.parameter(LINE_OPTION).expect("hextoe's parameter");
    args.parameters.values.set(line, "4");
    let table = tessera::arena::run_checked_in(&args, &registry).expect("the match runs");
    assert!(table.contains("hextoe, board size 3"), "{table}");
    let played = read_jsonl(&records).expect("the records read back");
    assert_eq!(played.len(), 4);
    for record in played {
        assert_eq!(record.variant, "hextoe");
        assert_eq!(record.rule, "4", "the parameter's value is recorded");
        assert_eq!(record.termination, Termination::Normal, "{}", record.reason);
        let config = record.config_in(&registry).expect("a game of the registry");
        let mut game = AnyGame::from_position_text(config, &record.opening.position)
            .expect("the opening position");
        for text in record.opening.moves.iter().chain(&record.moves) {
            assert_eq!(game.play_text(text).as_deref(), Ok(text.as_str()));
        }
        let outcome = game.outcome().expect("a normal ending is a finished game");
        let result = match outcome {
            Outcome::Win(Player::One) => "1-0",
            Outcome::Win(Player::Two) => "0-1",
            Outcome::Draw => "1/2-1/2",
        };
        assert_eq!(record.result.as_str(), result);
        assert_eq!(game.position_text(), record.final_position);
    }
    let _ = std::fs::remove_dir_all(&directory);
}

/// `tessera match`'s arguments, parsed as the command line does.
#[derive(Parser)]
struct MatchCommand {
    #[command(flatten)]
    args: MatchArgs,
}
