//! The match runner (`tessera match`): engine-vs-engine games with the rules library as
//! referee, in the conventions of cutechess-cli and fastchess.
//!
//! Layout, bottom up:
//! - [`crate::random`], [`clock`], [`stats`], [`sprt`]: pure parts (seeded randomness, time
//!   controls, Elo/LOS/pentanomial statistics, the pentanomial GSPRT).
//! - [`settings`], [`openings`], [`schedule`]: what to play (engines, limits, openings,
//!   which global game numbers this run or shard plays).
//! - [`engine_process`]: an engine process with deadline-bounded line I/O.
//! - [`referee`]: one game, every move checked by the rules.
//! - [`record`], [`report`]: JSONL and PGN records; progress and the final table.
//! - [`runner`]: worker threads, resume, SPRT stop, merge.
//! - [`watch`]: following shards' growing records, one SPRT across them.
//! - [`test_engine`]: a deliberately misbehaving engine for the runner's own tests.

pub mod clock;
pub mod engine_process;
pub mod openings;
pub mod record;
pub mod referee;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod settings;
pub mod sprt;
pub mod stats;
pub mod test_engine;
pub mod watch;

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::game::GameConfig;
use crate::registry::{AnyGame, ParameterArgs, Registry};

use clock::TimeControl;
use openings::{BookOrder, OpeningBook};
use referee::GameSettings;
use runner::{MatchPlan, PlannedGame};
use settings::{EngineSpec, MoveLimits, Shard, Timeouts};
use sprt::Sprt;

/// The long description of the command's `--help`.
pub const MATCH_LONG_ABOUT: &str = "Play an engine-vs-engine match with the rules as referee.\n\n\
        Plays colour-swapped pairs of games between two engines that speak UGI or UCI, \
        checks every move with the rules library and takes every result from it, prints \
        Elo, pentanomial statistics and an optional SPRT, records the games (JSONL and PGN, \
        formats in protocol.md, \"Files\"), resumes an interrupted run, and splits a match \
        over many machines. It follows the conventions of cutechess-cli and fastchess \
        where it can.";

/// Arguments of `tessera match`. The doc comments are the command's `--help`: each says
/// its flag's default.
#[derive(Debug, Clone, clap::Args)]
#[command(
    after_long_help = include_str!("manual.txt")
)]
pub struct MatchArgs {
    /// The `--engine` groups.
    #[command(flatten)]
    pub engine: EngineGroups,
    /// Settings applied to both engines: the keys of --engine, e.g. option.Hash=16. An
    /// engine's own words win for single-valued keys; options from --each are sent first.
    /// Default: none.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub each: Vec<String>,
    /// The game. Required (except with --merge or --watch).
    #[arg(long, value_name = "VARIANT", help = variant_help())]
    pub variant: Option<String>,
    /// Board side, sent as BoardSize and checked against the variant's range. Default:
    /// the variant's own (nothing is sent).
    #[arg(long)]
    pub size: Option<usize>,
    /// The game's parameters, each sent as its option (--rule as CatchupRule).
    #[command(flatten)]
    pub parameters: ParameterArgs,
    /// Games in this run: colour-swapped pairs from the same opening (game g belongs to
    /// pair g/2; the first engine has White in even games). With --shard, the games of all
    /// shards; with --watch, the games of the whole match, so the watcher stops once all
    /// are in. An odd N leaves the last pair with one game, which counts in W/D/L but not
    /// in the pentanomial statistics. Default: 2.
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Games played at the same time, each with its own two engine processes, kept from
    /// game to game.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// A clock per player: moves/seconds+increment (40/60+0.5: 60 s for every 40 moves
    /// plus 0.5 s a move), seconds+increment (10+0.1) or seconds (8); seconds may be
    /// fractional or m:ss (1:30+1). At least one of --tc, --movetime, --nodes and --depth
    /// is required (they combine), unless both engines have limits of their own. Default:
    /// no clock.
    #[arg(long, value_name = "TC")]
    pub tc: Option<TimeControl>,
    /// Milliseconds a move may overrun the time left (or the movetime) before it loses on
    /// time.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub timemargin: u64,
    /// Fixed time per move in milliseconds (go movetime); a move slower than it plus
    /// --timemargin loses on time. Default: none.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Node limit per move (go nodes). Default: none.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth limit per move (go depth). Default: none.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Opening book (format in protocol.md, "Openings books"); every line is checked with
    /// the rules before the match starts, and each opening serves one colour-swapped pair,
    /// the book wrapping around. Default: the start position.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Book order: sequential, or random (a permutation fixed by --seed).
    #[arg(long, value_enum, default_value_t = BookOrder::Sequential)]
    pub order: BookOrder,
    /// Random legal plies played for each pair after the book opening (or from the start
    /// position). They depend only on the seed and the pair, so a resumed run or a shard
    /// plays exactly the same openings; openings where the game would be over are drawn
    /// again.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub random_plies: usize,
    /// Seed for the book order and the random plies (splitmix64); the same seed gives the
    /// same schedule.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Adjudicate a draw after this many engine plies (opening plies not counted).
    /// Default: no limit.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<usize>,
    /// Restart a crashed or stalled engine for its next game. On by default.
    #[arg(long, overrides_with = "no_recover")]
    pub recover: bool,
    /// Stop the match after a game in which an engine crashed or stalled (games already
    /// running finish). Off by default.
    #[arg(long, overrides_with = "recover")]
    pub no_recover: bool,
    /// A sequential probability ratio test on the pentanomial pair results: elo0=A elo1=B
    /// [alpha=0.05] [beta=0.05] [model=normalized|logistic] (normalized, the default, reads
    /// elo0 and elo1 as normalised Elo as fishtest and fastchess do; logistic as plain Elo).
    /// The match stops as soon as the log-likelihood ratio crosses a bound; games in
    /// progress finish and are recorded. The settings go into every record. With --shard
    /// the test does not stop the shard: --watch or --merge decides over all shards. With
    /// --merge or --watch it replaces the test recorded in the files. Default: no test.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Vec<String>,
    /// Append the games as PGN-like text to this file. Default: none.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Write one JSON object per game to this file, appended and flushed as each game
    /// finishes; a non-empty file is refused unless --resume is given. Default: none.
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<PathBuf>,
    /// Continue an interrupted run: the games already in the --jsonl file are skipped and
    /// the rest of the schedule is played as long as the command line is the same (a cut
    /// last line is removed first; a file from other engines, variant, size or seed is
    /// refused). If the recorded games already decide the SPRT, nothing more is played.
    /// Off by default.
    #[arg(long, requires = "jsonl")]
    pub resume: bool,
    /// Recompute and print the statistics of these JSONL files (shards) and exit; plays
    /// nothing. The test recorded in the files is evaluated on the merged games. With
    /// --watch, files to follow besides those in the directory. Default: off.
    #[arg(long, value_name = "FILE", num_args = 0..)]
    pub merge: Option<Vec<PathBuf>>,
    /// Follow every *.jsonl file of DIR (shards, also files that appear later) while it
    /// grows, print a status line (games, W/D/L, pairs, LLR) to stderr whenever records
    /// arrive, and exit with the merged table on stdout when the SPRT is decided or --games
    /// distinct games are in; plays nothing. Only complete lines are read, and a file that
    /// shrinks (a shard started over) is read again, so no game counts twice. Default: off.
    #[arg(long, value_name = "DIR")]
    pub watch: Option<PathBuf>,
    /// With --watch: run this shell command (sh -c) once the SPRT is decided, after the
    /// table is printed, e.g. "scancel $SLURM_ARRAY_JOB_ID"; a failing command makes the
    /// watcher exit with status 1. Default: none.
    #[arg(long, value_name = "COMMAND", requires = "watch")]
    pub on_decision: Option<String>,
    /// With --watch: milliseconds between looks at the files.
    #[arg(long, value_name = "MS", default_value_t = 2_000, requires = "watch")]
    pub poll_ms: u64,
    /// Global number of this run's first game (even), so that runs play other openings.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub game_offset: u64,
    /// Play block INDEX of COUNT (1-based) of the pairs of --games, e.g. --shard 2/8. Game
    /// numbers stay global, so every shard plays other openings and --merge keeps the pairs
    /// apart. Default: the whole match.
    #[arg(long, value_name = "INDEX/COUNT")]
    pub shard: Option<Shard>,
    /// Milliseconds to wait for ugiok/uciok and for every readyok.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub ready_timeout: u64,
    /// Milliseconds to wait beyond a move's time limit (clock or movetime, plus margin)
    /// before a silent engine counts as stalled.
    #[arg(long, value_name = "MS", default_value_t = 1_000)]
    pub grace: u64,
    /// Milliseconds to wait for a bestmove when only --nodes or --depth bound the search.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    pub move_timeout: u64,
}

/// The long help of `--engine`, shared by `tessera match` and `tessera gui`.
const ENGINE_HELP: &str = "An engine, as KEY=VALUE words:\n\
    cmd=PATH (required): the program.\n\
    arg=ARG: one command-line argument; repeat for more (arg=--log arg=warn).\n\
    name=NAME: the name in records and tables (default: the program's file name; two equal \
    names get -1 and -2).\n\
    dir=DIR: the working directory (default: the runner's).\n\
    proto=auto|ugi|uci (default auto): auto sends `ugi`, waits up to 2 s (or the ready \
    timeout, if shorter) for `ugiok`, and falls back to `uci` when the engine stays silent \
    or answers \"unknown\".\n\
    option.NAME=VALUE: sent as `setoption name NAME value VALUE` after the handshake.\n\
    tc=TC, st=SECONDS, movetime=MS, nodes=N, depth=N: this engine's own search limits (time \
    odds, scaling tests); with any of them they replace all the match-wide limits for this \
    engine, and a colour's clock follows the engine playing it (default: the match's).\n\
    ponder: the engine thinks on the opponent's time (`tessera match` only): it gets \
    `setoption name Ponder value true`; after a `bestmove M ponder P` it gets the position \
    with M and P and `go ponder` with the clocks; when the opponent plays P it gets \
    `ponderhit` and its clock runs from there, else `stop` (its bestmove is dropped) and \
    the real position and `go`. --each ponder: both engines (default: off).\n\
    `tessera match` requires exactly two engines and reports from the first one's side; \
    `tessera gui` offers every engine given to the page (default: this program alone).";

/// `--engine KEY=VALUE...`, given twice: clap's derive cannot keep the words of each
/// occurrence apart, so this reads them with `get_occurrences`.
#[derive(Debug, Clone, Default)]
pub struct EngineGroups(pub Vec<Vec<String>>);

impl clap::FromArgMatches for EngineGroups {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineGroups(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for EngineGroups {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.arg(
            clap::Arg::new("engine")
                .long("engine")
                .value_name("KEY=VALUE")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .help(
                    "An engine: cmd=PATH [name=NAME] [arg=ARG]... [dir=DIR] [proto=auto|ugi|uci] \
                     [option.NAME=VALUE]... [tc=TC] [st=SECONDS] [movetime=MS] [nodes=N] [depth=N] \
                     [ponder]",
                )
                .long_help(ENGINE_HELP),
        )
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// Why the command line does not describe a runnable match.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error(transparent)]
    Settings(#[from] settings::SettingsError),
    #[error(transparent)]
    Sprt(#[from] sprt::SprtError),
    #[error(transparent)]
    Openings(#[from] openings::OpeningError),
    #[error(transparent)]
    Records(#[from] record::RecordError),
    #[error(transparent)]
    Run(#[from] runner::RunError),
    #[error(transparent)]
    Watch(#[from] watch::WatchError),
    #[error("{0}")]
    Invalid(String),
}

fn invalid(text: impl Into<String>) -> MatchError {
    MatchError::Invalid(text.into())
}

/// Runs a match (or a merge); returns the process exit status: 0 when the match ran.
pub fn run(args: &MatchArgs) -> ExitCode {
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .try_init();
    match run_checked(args) {
        Ok(table) => {
            print!("{table}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn parse_sprt(args: &MatchArgs) -> Result<Option<Sprt>, MatchError> {
    if args.sprt.is_empty() {
        Ok(None)
    } else {
        Ok(Some(Sprt::from_words(&args.sprt)?))
    }
}

/// `--variant`'s help: the games of the built-in registry.
fn variant_help() -> String {
    format!(
        "The game: {}. Required (except with --merge or --watch)",
        Registry::builtin().names_text()
    )
}

/// Checks the whole command line, then runs; returns the final table.
pub fn run_checked(args: &MatchArgs) -> Result<String, MatchError> {
    run_checked_in(args, &Registry::builtin())
}

/// [`run_checked`] with `--variant` one of the games of `registry` (a test's registry
/// with a game of its own: the referee sets the game up through its entry).
pub fn run_checked_in(args: &MatchArgs, registry: &Registry) -> Result<String, MatchError> {
    let sprt = parse_sprt(args)?;
    if let Some(directory) = &args.watch {
        let plan = watch::WatchPlan {
            directory: directory.clone(),
            files: args.merge.clone().unwrap_or_default(),
            sprt,
            games: args.games,
            on_decision: args.on_decision.clone(),
            poll: Duration::from_millis(args.poll_ms.max(1)),
        };
        return Ok(watch::run_watch(&plan)?);
    }
    if let Some(files) = &args.merge {
        if files.is_empty() {
            return Err(invalid(
                "--merge needs JSONL files (or --watch DIR to follow a directory)",
            ));
        }
        return Ok(runner::merge(files, sprt.as_ref())?);
    }
    let games = args.games.unwrap_or(2);
    let name = args
        .variant
        .as_deref()
        .ok_or_else(|| invalid(format!("--variant is required ({})", registry.names_text())))?;
    let variant = registry
        .find(name)
        .map_err(|error| invalid(format!("--variant: {error}")))?;
    if let Some(size) = args.size {
        let sizes = &variant.facts().sizes;
        if !sizes.contains(&size) {
            return Err(invalid(format!(
                "--size {size} is not a board side of {variant} ({}-{})",
                sizes.start(),
                sizes.end()
            )));
        }
    }
    let config = args.parameters.apply(GameConfig {
        size: args.size,
        ..GameConfig::new(variant)
    });
    AnyGame::new(config).map_err(|error| invalid(format!("cannot set up {variant}: {error}")))?;
    let engines = match args.engine.0.as_slice() {
        [first, second] => {
            let mut first = EngineSpec::from_words(&args.each, first)?;
            let mut second = EngineSpec::from_words(&args.each, second)?;
            if first.name == second.name {
                first.name.push_str("-1");
                second.name.push_str("-2");
            }
            [first, second]
        }
        other => {
            return Err(invalid(format!(
                "give --engine exactly twice (found {})",
                other.len()
            )));
        }
    };
    let limits = MoveLimits {
        clock: args.tc,
        movetime: args.movetime.map(Duration::from_millis),
        nodes: args.nodes,
        depth: args.depth,
    };
    if let Some(engine) = engines
        .iter()
        .find(|engine| engine.effective_limits(limits).is_empty())
    {
        return Err(invalid(format!(
            "give a search limit for {}: --tc, --movetime, --nodes or --depth (or tc=, st=, movetime=, nodes=, depth= in its --engine)",
            engine.name
        )));
    }
    if games == 0 {
        return Err(invalid("--games must be at least 1"));
    }
    if args.concurrency == 0 {
        return Err(invalid("--concurrency must be at least 1"));
    }
    let timeouts = Timeouts {
        ready: Duration::from_millis(args.ready_timeout),
        grace: Duration::from_millis(args.grace),
        unbounded_move: Duration::from_millis(args.move_timeout),
        margin: Duration::from_millis(args.timemargin),
    };
    let book = match &args.openings {
        Some(path) => {
            OpeningBook::from_file(path, config, args.order, args.random_plies, args.seed)?
        }
        None => OpeningBook::start_only(config, args.random_plies, args.seed),
    };
    let range = schedule::game_range(games, args.game_offset, args.shard)?;
    let total_games = range.end - range.start;
    let previous = match (&args.jsonl, args.resume) {
        (Some(path), true) if path.exists() => {
            runner::trim_partial_line(path).map_err(|source| runner::RunError::Output {
                path: path.display().to_string(),
                source,
            })?;
            let records = record::read_jsonl(path)?;
            check_resumable(&records, &engines, config, args.seed)?;
            records
        }
        (Some(path), false) if std::fs::metadata(path).is_ok_and(|meta| meta.len() > 0) => {
            return Err(invalid(format!(
                "{} already holds games; add --resume to continue it or choose another file",
                path.display()
            )));
        }
        _ => Vec::new(),
    };
    let done: HashSet<u64> = previous.iter().map(|record| record.game).collect();
    let mut games = Vec::new();
    for job in schedule::jobs(range, &done) {
        let (opening_index, opening) = book.for_pair(job.pair)?;
        games.push(PlannedGame {
            job,
            opening_index,
            opening,
        });
    }
    let settings = GameSettings {
        config,
        limits,
        timeouts,
        max_plies: args.max_plies,
        engines,
        seed: args.seed,
    };
    let started = if games.is_empty() {
        [None, None]
    } else {
        runner::start_engines(&settings).map_err(invalid)?
    };
    let plan = MatchPlan {
        settings,
        games,
        total_games,
        concurrency: args.concurrency,
        recover: !args.no_recover,
        sprt,
        sprt_stops: args.shard.is_none(),
        pgn: args.pgn.clone(),
        jsonl: args.jsonl.clone(),
        previous,
        started,
    };
    Ok(runner::run_match(plan)?)
}

/// A resumed file must hold games of the same match.
fn check_resumable(
    records: &[record::MatchRecord],
    engines: &[EngineSpec; 2],
    config: GameConfig,
    seed: u64,
) -> Result<(), MatchError> {
    for record in records {
        let names = [engines[0].name.clone(), engines[1].name.clone()];
        if record.engines != names
            || record.variant != config.variant.name()
            || record.size != config.board_size()
            || record.seed != seed
        {
            return Err(invalid(format!(
                "cannot resume: game {} was played by {:?} at {} size {} seed {}, not by {:?} at {} size {} seed {seed}",
                record.game,
                record.engines,
                record.variant,
                record.size,
                record.seed,
                names,
                config.variant,
                config.board_size()
            )));
        }
    }
    Ok(())
}
