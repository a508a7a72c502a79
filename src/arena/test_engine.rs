//! A deliberately misbehaving engine for testing the runner (`tessera test-engine`, a
//! hidden subcommand). It speaks just enough UGI/UCI, plays random legal moves with the
//! rules library in `normal` mode, and after `--after` good moves per game misbehaves as
//! `--mode` says.

use std::io::{BufRead, Write};
use std::time::Duration;

use crate::game::GameConfig;
use crate::registry::{AnyGame, Registry};

use crate::random::SplitMix64;

/// How the test engine misbehaves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Mode {
    /// Random legal moves.
    #[default]
    Normal,
    /// Exits when asked to move.
    Crash,
    /// Never answers `go` (nor anything after it).
    Hang,
    /// Answers the first `isready` only; later ones are ignored.
    HangReady,
    /// Repeats the last move played (always illegal: its cells are taken or emptied).
    Illegal,
    /// Prints noise, invalid UTF-8, and a malformed move.
    Garbage,
    /// Sleeps `--delay-ms` before a legal move.
    Slow,
    /// A legal move followed by an extra token.
    ExtraTokens,
    /// A legal move with a `ponder <move>` suffix (allowed).
    Ponder,
}

/// Arguments of `tessera test-engine`.
#[derive(Debug, Clone, clap::Args)]
pub struct TestEngineArgs {
    #[arg(long, value_enum, default_value_t = Mode::Normal)]
    pub mode: Mode,
    /// Good moves per game before misbehaving.
    #[arg(long, default_value_t = 0)]
    pub after: u32,
    /// Delay before answering in `slow` mode, in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub delay_ms: u64,
    /// Do not know `ugi` (answer "Unknown command"), like a UCI-only engine.
    #[arg(long)]
    pub uci_only: bool,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Advertise a `Seed` option (spin, 0..2147483647); a value set with it replaces
    /// `--seed` from the next `uginewgame` on.
    #[arg(long)]
    pub seed_option: bool,
    /// Append every line received to this file (what the runner said, in order).
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<std::path::PathBuf>,
}

struct TestEngine {
    args: TestEngineArgs,
    /// The games it plays: the built-in ones.
    registry: Registry,
    config: GameConfig,
    game: Option<AnyGame>,
    moves_this_game: u32,
    ready_answers: u32,
    rng: SplitMix64,
    /// The seed each new game starts from: `--seed`, or the `Seed` option once set.
    seed: u64,
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

impl TestEngine {
    fn set_option(&mut self, line: &str) {
        let Some(rest) = line.strip_prefix("setoption name ") else {
            return;
        };
        let Some((name, value)) = rest.split_once(" value ") else {
            return;
        };
        let (name, value) = (name.trim(), value.trim());
        match name.to_ascii_lowercase().as_str() {
            "seed" if self.args.seed_option => {
                if let Ok(seed) = value.parse() {
                    self.seed = seed;
                }
            }
            "uci_variant" => {
                if let Ok(variant) = self.registry.find(value) {
                    self.config.variant = variant;
                }
            }
            "boardsize" => {
                self.config.size = value.parse().ok().filter(|&size: &usize| size > 0);
            }
            _ => {
                let parameter = self.registry.parameter(name);
                if let Some((parameter, value)) =
                    parameter.and_then(|parameter| Some((parameter, parameter.value(value)?)))
                {
                    self.config.parameters.set(parameter, value);
                }
            }
        }
    }

    fn set_position(&mut self, line: &str) {
        let rest = line.trim_start_matches("position").trim();
        let (setup, moves) = match rest.split_once(" moves") {
            Some((setup, moves)) => (setup.trim(), moves.split_whitespace().collect::<Vec<_>>()),
            None => (rest, Vec::new()),
        };
        let game = if let Some(text) = setup.strip_prefix("fen ") {
            AnyGame::from_position_text(self.config, text.trim())
        } else {
            AnyGame::new(self.config)
        };
        self.game = game.ok().and_then(|mut game| {
            moves
                .iter()
                .all(|text| game.play_text(text).is_ok())
                .then_some(game)
        });
    }

    fn random_move(&mut self) -> String {
        let legal = self
            .game
            .as_ref()
            .map(AnyGame::legal_move_texts)
            .unwrap_or_default();
        if legal.is_empty() {
            return "0000".to_string();
        }
        legal[self.rng.below_exact(legal.len() as u64) as usize].clone()
    }

    fn go(&mut self) {
        self.moves_this_game += 1;
        let mode = if self.moves_this_game > self.args.after {
            self.args.mode
        } else {
            Mode::Normal
        };
        match mode {
            Mode::Normal | Mode::HangReady => {
                let mv = self.random_move();
                say(&format!("info depth 1 nodes 1 pv {mv}"));
                say(&format!("bestmove {mv}"));
            }
            Mode::Crash => std::process::exit(3),
            Mode::Hang => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Mode::Illegal => {
                let last = self
                    .game
                    .as_ref()
                    .and_then(|game| game.played_move_texts().pop())
                    .unwrap_or_else(|| "a0".to_string());
                say(&format!("bestmove {last}"));
            }
            Mode::Garbage => {
                say("info string \u{1F600} }{ garbage ]]");
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(b"\xff\xfe\x00 not utf-8\n");
                let _ = out.flush();
                drop(out);
                say("bestmove #@!%");
            }
            Mode::Slow => {
                std::thread::sleep(Duration::from_millis(self.args.delay_ms));
                let mv = self.random_move();
                say(&format!("bestmove {mv}"));
            }
            Mode::ExtraTokens => {
                let mv = self.random_move();
                say(&format!("bestmove {mv} 0000"));
            }
            Mode::Ponder => {
                let mv = self.random_move();
                say(&format!("bestmove {mv} ponder {mv}"));
            }
        }
    }
}

/// Runs the test engine on stdin/stdout until `quit` or end of input.
pub fn run(args: &TestEngineArgs) -> std::process::ExitCode {
    let registry = Registry::builtin();
    let variants = registry
        .names()
        .iter()
        .map(|name| format!(" var {name}"))
        .collect::<String>();
    let variant_line = format!(
        "option name UCI_Variant type combo default {}{variants}",
        registry.default_game()
    );
    let mut engine = TestEngine {
        rng: SplitMix64::new(args.seed),
        args: args.clone(),
        config: GameConfig::new(registry.default_game()),
        registry,
        game: None,
        moves_this_game: 0,
        ready_answers: 0,
        seed: args.seed,
    };
    let mut transcript = args.transcript.as_ref().and_then(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()
    });
    let stdin = std::io::stdin();
    let mut buffer = Vec::new();
    let mut input = stdin.lock();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buffer).trim().to_string();
        if let Some(file) = transcript.as_mut() {
            let _ = writeln!(file, "{line}");
        }
        let word = line.split_whitespace().next().unwrap_or("");
        match word {
            "ugi" if engine.args.uci_only => say("Unknown command: ugi"),
            "ugi" | "uci" => {
                say("id name TestEngine");
                say("id author the Tessera match runner tests");
                say(&variant_line);
                if engine.args.seed_option {
                    say("option name Seed type spin default 0 min 0 max 2147483647");
                }
                say(if word == "ugi" { "ugiok" } else { "uciok" });
            }
            "isready" => {
                if engine.args.mode != Mode::HangReady || engine.ready_answers == 0 {
                    say("readyok");
                }
                engine.ready_answers += 1;
            }
            "setoption" => engine.set_option(&line),
            "uginewgame" | "ucinewgame" => {
                // A new game starts the random stream again, so a game depends on its
                // moves alone and not on the games this process played before it: a
                // match split into shards then plays the same games as the whole.
                engine.moves_this_game = 0;
                engine.rng = SplitMix64::new(engine.seed);
            }
            "position" => engine.set_position(&line),
            "go" => engine.go(),
            "quit" => break,
            _ => {}
        }
    }
    std::process::ExitCode::SUCCESS
}
