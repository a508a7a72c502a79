//! `tessera gui`: a local web server and one page to play, watch and analyse every
//! variant in a browser, driving engines only through the protocol.
//!
//! Layout:
//! - [`table`]: the game and everything the page sees; the rules library referees.
//! - [`driver`]: the thread that owns the engine processes (the match runner's
//!   [`crate::arena::engine_process::EngineProcess`]) and speaks the protocol to them.
//! - [`server`]: HTTP on tiny_http: Host and Origin checks, body limits, the JSON API and
//!   the page's files; [`polls`] keeps the waiting long polls off its workers.
//! - [`info`], [`lines`], [`records`]: `info` lines as data; a search's lines as the page
//!   lists them (several with `MultiPV`, exact values marked); games loaded from match
//!   records.
//! - `page.html`, `page.css`, `page.js`: the page; boards are drawn by the pictures'
//!   `draw.js` from the same layout and frame data as `tessera render`.
//!
//! Nothing from the page chooses a program or a file: the engines come from the command
//! line, a game record is sent by the page as text.

pub mod driver;
pub mod info;
pub mod lines;
pub mod polls;
pub mod records;
pub mod server;
pub mod table;

use std::io::Write as _;
use std::net::IpAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use crate::arena::EngineGroups;
use crate::arena::settings::EngineSpec;
use crate::game::{GameConfig, Variant};
use crate::registry::ParameterArgs;

use driver::{Driver, DriverTimeouts, Shared};
use table::Table;

/// The long description of the command's `--help`.
pub const GUI_LONG_ABOUT: &str = "Play, watch and analyse in a browser: a local web server driving engines over \
        the protocol.\n\n\
        Prints `listening on http://HOST:PORT/`; open that address. The page needs no network \
        and fetches nothing from outside. Choose the variant, board side and Catchup rule; \
        play against an engine with either colour, let two people play, or watch engine \
        against engine. Pick a piece or cell and the legal moves are marked (a checkers \
        capture is entered by clicking through its path, a Catchup turn by picking one to \
        three stones and \"End turn\", a Cheversi placement by a piece button and a square). \
        Undo and redo (also the arrow keys), a time, node or depth limit per move or a clock, \
        a start from a position string, copying the position string and the move list, and \
        loading a game from a `tessera match` JSONL line or PGN game to step through it. \
        \"Analyse\" shows the engine's lines live (\"Lines\" 1 to 5, sent as `MultiPV`), \
        best first, each with its score, an exact one (the engine's proven marker: Cheversi \
        near the end, hex checkers endings in the tables, Catchup proven by the solver) marked \
        \"exact\"; one line's moves are numbered on the board, several lines' first moves \
        drawn each in its colour and number; \"Stop\" ends it; \"Evaluation\" shows the \
        engine's `eval`.\n\n\
        The server talks to engines only through the protocol, as an outside GUI would, and \
        the rules library referees every move, a person's or an engine's. A crashed or hung \
        engine is shown on the page and restarted by its \"Restart\" button; the game stays \
        as it was.\n\n\
        Security: it answers only requests whose Host is its own address (or localhost), so \
        another site cannot reach it by DNS rebinding; posts must be JSON from the page's own \
        origin; bodies over 256 KiB are refused; a bad request or an illegal move changes \
        nothing. The page cannot choose a program or a file: the engines come from the \
        command line, and a game to load is read by the browser and sent as text.";

/// Arguments of `tessera gui`; the doc comments are its `--help`.
#[derive(Debug, Clone, clap::Args)]
#[command(
    after_long_help = "Example:\n  tessera gui                 # then open the printed address\n  \
        tessera gui --port 8080 --engine cmd=/opt/other-engine name=other"
)]
pub struct GuiArgs {
    /// Address to listen on; anything but a loopback address lets other machines in.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Port to listen on; 0 picks a free one (printed on stdout).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Engines the page may choose from, as in `tessera match`.
    #[command(flatten)]
    pub engine: EngineGroups,
    /// The variant of the first game.
    #[arg(
        long,
        default_value = "kruzno",
        value_parser = crate::registry::variant_parser(),
        ignore_case = true
    )]
    pub variant: Variant,
    /// Board side of the first game. Default: the variant's own.
    #[arg(long)]
    pub size: Option<usize>,
    /// The parameters of the first game.
    #[command(flatten)]
    pub parameters: ParameterArgs,
    /// The seed of the engines' seeds: each engine that advertises `Seed` gets one of its
    /// own per game (as in `tessera match`), so a strength level does not replay its
    /// answers. Default: from the clock, different in every session.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Milliseconds an engine may take beyond a move's time before it counts as hung.
    #[arg(long, default_value_t = 5000)]
    pub grace_ms: u64,
    /// Milliseconds an engine gets to start, to answer `isready`, and to stop.
    #[arg(long, default_value_t = 10000)]
    pub ready_ms: u64,
    /// Milliseconds a search bounded only by nodes or depth may take before it counts as hung.
    #[arg(long, default_value_t = 120_000)]
    pub unbounded_ms: u64,
}

/// The engine specs from the command line, or this binary itself.
fn engine_specs(groups: &EngineGroups) -> Result<Vec<EngineSpec>, String> {
    if groups.0.is_empty() {
        let exe = std::env::current_exe()
            .map_err(|error| format!("cannot find this program to run as the engine: {error}"))?;
        let words = [
            format!("cmd={}", exe.to_string_lossy()),
            "name=tessera".to_string(),
        ];
        return EngineSpec::from_words(&[], &words)
            .map(|spec| vec![spec])
            .map_err(|error| error.to_string());
    }
    groups
        .0
        .iter()
        .map(|words| EngineSpec::from_words(&[], words).map_err(|error| error.to_string()))
        .collect()
}

/// A seed from the clock's nanoseconds (0 if the clock is before 1970).
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos() as u64)
}

/// Starts the server and serves until the process is ended.
pub fn run(args: &GuiArgs) -> ExitCode {
    match serve(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn serve(args: &GuiArgs) -> Result<(), String> {
    let specs = engine_specs(&args.engine)?;
    let config = args.parameters.apply(GameConfig {
        size: args.size,
        ..GameConfig::new(args.variant)
    });
    let names = specs.iter().map(|spec| spec.name.clone()).collect();
    let table = Table::new(config, names)?;
    let shared = Arc::new(Shared::new(table));
    let timeouts = DriverTimeouts {
        ready: Duration::from_millis(args.ready_ms),
        grace: Duration::from_millis(args.grace_ms),
        unbounded_move: Duration::from_millis(args.unbounded_ms),
    };
    let listener = server::Listener::bind(args.host, args.port, Arc::clone(&shared))?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let driver = Driver::new(Arc::clone(&shared), specs, seed, timeouts);
    std::thread::Builder::new()
        .name("engine driver".to_string())
        .spawn(move || driver.run())
        .map_err(|error| format!("cannot start the engine driver: {error}"))?;
    {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "listening on http://{}/", listener.address());
        let _ = stdout.flush();
    }
    listener.serve();
    shared.update(|table| table.shutdown = true);
    Ok(())
}
