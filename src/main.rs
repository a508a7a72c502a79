//! Command line: parse with clap, then hand off. Without a subcommand the protocol loop
//! runs on stdin/stdout.

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use tessera::game::{GameConfig, Variant, listed};
use tessera::registry::{AnyGame, ParameterArgs, Registry, size_help, variant_parser};

#[derive(Parser)]
#[command(name = "tessera", version, about = about())]
struct Cli {
    /// Log level on stderr (off, error, warn, info, debug, trace); default: RUST_LOG, else warn.
    #[arg(long, global = true, value_name = "LEVEL")]
    log: Option<log::LevelFilter>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count move paths of a given length.
    Perft(PerftArgs),
    /// perft split by root move, one `move: count` line per move.
    Divide(PerftArgs),
    /// Fixed search benchmark; ends with `<N> nodes <M> nps`.
    #[command(
        long_about = "Fixed search benchmark; ends with `<N> nodes <M> nps`.\n\n\
            Searches fixed positions of every variant to fixed depths (MCTS: a fixed number of \
            simulations) on one thread with a fixed seed. N is the search's signature: it \
            changes only when the search's behaviour changes, and tests/search_bench.rs \
            compares it with tests/data/bench_signature.txt."
    )]
    Bench,
    /// Solve small hex checkers endings exactly and print the figures (and won positions).
    #[command(long_about = ENDINGS_LONG_ABOUT)]
    Endings(EndingsArgs),
    /// Exact game value of a position (Catchup sides 2-5, Cheversi), best move, proofs.
    #[command(long_about = tessera::solve::SOLVE_LONG_ABOUT)]
    Solve(Box<tessera::solve::SolveArgs>),
    /// Play an engine-vs-engine match with the rules as referee.
    #[command(long_about = tessera::arena::MATCH_LONG_ABOUT)]
    Match(Box<tessera::arena::MatchArgs>),
    /// Draw a position as SVG (stdout unless -o).
    #[command(long_about = RENDER_LONG_ABOUT)]
    Render(RenderArgs),
    /// One self-contained HTML page (summary, plots, game list, replay) from JSONL records.
    #[command(long_about = tessera::report::REPORT_LONG_ABOUT)]
    Report(tessera::report::ReportArgs),
    /// Play, watch and analyse in a browser: a local web server driving engines over the protocol.
    #[command(long_about = tessera::gui::GUI_LONG_ABOUT)]
    Gui(Box<tessera::gui::GuiArgs>),
    /// A misbehaving engine for the match runner's tests (hidden).
    #[command(hide = true)]
    TestEngine(tessera::arena::test_engine::TestEngineArgs),
}

/// The program's one-line description, naming its games.
fn about() -> String {
    let titles: Vec<&str> = Registry::builtin()
        .facts()
        .map(|facts| facts.title)
        .collect();
    format!("Engine for {}", listed(&titles, "and"))
}

/// Arguments of `perft` and `divide`; the doc comments are their `--help`.
#[derive(Args)]
#[command(
    after_long_help = "Output: with divide one `<move>: <count>` line per legal move, sorted by \
        move text, then a blank line; then `Time: <ms> ms, <n> nodes/s` and `Nodes searched: \
        <n>`. The counts follow the game's history (protocol.md, \"Rule decisions\"); the \
        check values are in protocol.md's appendices.\n\n\
        Example:\n  tessera perft cheversi 5\n  tessera divide catchup 2 --size 3 --rule original"
)]
struct PerftArgs {
    /// The game.
    #[arg(value_parser = variant_parser(), ignore_case = true)]
    variant: Variant,
    /// Plies to count, 0 to 64.
    depth: u32,
    /// Start from this position string. Default: the start position.
    #[arg(long)]
    fen: Option<String>,
    #[arg(long, help = size_help())]
    size: Option<usize>,
    /// The game's parameters.
    #[command(flatten)]
    parameters: ParameterArgs,
    /// Play every move at the last ply instead of counting them (bulk counting, the
    /// default).
    #[arg(long)]
    no_bulk: bool,
}

/// The long description of the command's `--help`.
const RENDER_LONG_ABOUT: &str = "Draw a position as SVG (stdout unless -o).\n\n\
        Any position of any variant and board side. Hex boards are drawn as in protocol.md: \
        row `a`, White's edge, at the bottom, row letters on the left and right edges, cell \
        numbers along the bottom and top edges, every cell's name in small print. The \
        picture shows the last move (a checkers capture as its whole path with the men it \
        took crossed out, a Catchup turn's stones framed), the side to move, the result, and \
        per game: Cheversi's attacked empty squares with each side's attacker counts (blue \
        White, red Black) and the score; Kruzno's restricted ring (shaded) and pending \
        obligations (dashed green rings); Catchup's largest group of each side (tinted) and \
        each side's group sizes. The SVG uses no fonts or files from outside (the chess \
        pieces are Unicode glyphs) and is the same bytes for the same input.";

/// Arguments of `render`; the doc comments are its `--help`.
#[derive(Args)]
#[command(
    after_long_help = "Example:\n  tessera render --variant kruzno --moves c3-d3 h4-g4 -o position.svg\n  \
        tessera render --variant catchup --size 4 --fen \"4/5/6/7/6/5/4 w 1\" --moves d4"
)]
struct RenderArgs {
    /// The game. Required.
    #[arg(long, value_parser = variant_parser(), ignore_case = true)]
    variant: Variant,
    #[arg(long, help = size_help())]
    size: Option<usize>,
    /// The game's parameters.
    #[command(flatten)]
    parameters: ParameterArgs,
    /// Start from this position string. Default: the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from the position; the last one is drawn as the last move. Default:
    /// none.
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// Write the SVG to this file. Default: stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

/// The long description of the command's `--help`.
const ENDINGS_LONG_ABOUT: &str = "Solve small hex checkers endings exactly and print the figures (and won \
        positions).\n\n\
        For every placement of the men of each material class up to --men, both sides to \
        move, a retrograde analysis finds the plies to the next capture that keeps a win (or \
        to the loser having no legal move), the winner shortening and the loser lengthening. \
        Captures lead into the smaller classes, solved first, with a fresh counter, so a \
        position with c plies counted is won under the ply rule exactly when that distance is \
        at most limit - c; repetition needs no handling, since the winner's line shortens the \
        distance at every ply. The rules are those of hexcheckers (no border rule), the same \
        for both colours, so one table per side to move serves both. Printed per table: the \
        positions won, lost and drawn, the longest win, and the shares by the weaker side's \
        distance from the edge. The values are checked against the engine's own move \
        generation in the tests; --verify re-derives sampled positions from the engine's \
        legal moves and the stored values of their successors. What the tables show, and the \
        file --write makes: protocol.md, Appendix B and \"Ending tables\".";

/// Arguments of `endings`; the doc comments are its `--help`.
#[derive(Args)]
#[command(
    after_long_help = "Example:\n  tessera endings --size 9 --men 3v1 --verify 20000\n  \
        tessera endings --size 9 --men 3v1 --write side9-3v1.tce\n  \
        tessera endings --size 9 --from-games run.jsonl --tables side9-3v1.tce"
)]
struct EndingsArgs {
    /// Board side, 4 to 9.
    #[arg(long, default_value_t = 9)]
    size: usize,
    /// Material as `<strong>v<weak>`, each 1 to 4: every class up to it is solved.
    #[arg(long, default_value = "2v1", value_parser = parse_material)]
    men: (usize, usize),
    /// Plies a conversion may take from a fresh counter (the game's rule is 80).
    #[arg(long, default_value_t = 80)]
    limit: u8,
    /// Also print this many won positions of the full material, strong side to move.
    #[arg(long, default_value_t = 0)]
    suite: usize,
    /// Shortest win (plies) a printed position may have.
    #[arg(long, default_value_t = 10)]
    min_plies: u8,
    /// Seed for drawing the printed and the verified positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Check this many sampled positions per table against the engine's own moves.
    #[arg(long, default_value_t = 0)]
    verify: usize,
    /// Write the tables (folded by the hexagon's symmetries) to this file, for the
    /// engine's `EndingsFile` option (tables without a side of one man are left out).
    /// Default: none.
    #[arg(long, value_name = "FILE")]
    write: Option<std::path::PathBuf>,
    /// Solve nothing: print the positions of these `tessera match --jsonl` files (side
    /// --size) that the --tables file shows won for the side to move, as a suite. Default:
    /// none.
    #[arg(long, value_name = "JSONL", num_args = 1.., requires = "tables")]
    from_games: Vec<std::path::PathBuf>,
    /// The tables file --from-games reads (as written by --write). Default: none.
    #[arg(long, value_name = "FILE")]
    tables: Option<std::path::PathBuf>,
    /// With --from-games: at most this many positions from each game (its first ones).
    #[arg(long, default_value_t = 1)]
    per_game: usize,
}

/// `3v1` to (3, 1): each count 1 to 4.
fn parse_material(text: &str) -> Result<(usize, usize), String> {
    let (strong, weak) = text
        .split_once('v')
        .ok_or_else(|| format!("material '{text}': expected <strong>v<weak>, e.g. 3v1"))?;
    let count = |part: &str| {
        part.parse::<usize>()
            .ok()
            .filter(|count| (1..=4).contains(count))
            .ok_or_else(|| format!("material '{text}': '{part}' is not a count from 1 to 4"))
    };
    Ok((count(strong)?, count(weak)?))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.log);
    match cli.command {
        Some(Command::Perft(args)) => run_perft(&args, false),
        Some(Command::Divide(args)) => run_perft(&args, true),
        Some(Command::Bench) => {
            tessera::bench::run(&mut |line| println!("{line}"));
            ExitCode::SUCCESS
        }
        Some(Command::Endings(args)) if !args.from_games.is_empty() => endings_from_games(&args),
        Some(Command::Endings(args)) => {
            let request = tessera::endings::EndingsRequest {
                side: args.size,
                men: args.men,
                limit: args.limit,
                suite: args.suite,
                min_plies: args.min_plies,
                seed: args.seed,
                verify: args.verify,
                write: args.write,
            };
            let mut stdout = std::io::stdout().lock();
            match tessera::endings::run(&request, &mut |line| {
                // A closed pipe ends the output quietly.
                let _ = writeln!(stdout, "{line}");
            }) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("error: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Solve(args)) => tessera::print_lines(tessera::solve::run(&args)),
        Some(Command::Match(args)) => tessera::arena::run(&args),
        Some(Command::Render(args)) => run_render(&args),
        Some(Command::Report(args)) => tessera::report::run(&args),
        Some(Command::Gui(args)) => tessera::gui::run(&args),
        Some(Command::TestEngine(args)) => tessera::arena::test_engine::run(&args),
        None => tessera::protocol::run_stdio(),
    }
}

/// `tessera endings --from-games`: the won positions of recorded games, as a suite
/// (each after the comments `# <file> game <n> ply <p>` and `# <a>v<b> win in <d> plies`).
fn endings_from_games(args: &EndingsArgs) -> ExitCode {
    use tessera::endings::{EndingTables, RecordedGame, won_positions_in_games};
    let run = || -> Result<Vec<String>, String> {
        let path = args
            .tables
            .as_deref()
            .ok_or("--from-games needs --tables")?;
        let tables =
            EndingTables::load(path).map_err(|error| format!("{}: {error}", path.display()))?;
        let mut records = Vec::new();
        for file in &args.from_games {
            let read = tessera::arena::record::read_jsonl(file)
                .map_err(|error| format!("{}: {error}", file.display()))?;
            records.extend(
                read.into_iter()
                    .map(|record| (file.display().to_string(), record)),
            );
        }
        let games: Vec<RecordedGame> = records
            .iter()
            .filter(|(_, record)| record.variant == "hexcheckers" && record.size == args.size)
            .map(|(file, record)| RecordedGame {
                name: format!("{file} game {}", record.game),
                start: &record.opening.position,
                moves: [&record.opening.moves[..], &record.moves[..]].concat(),
            })
            .collect();
        let found = won_positions_in_games(&tables, args.size, &games, args.per_game)?;
        let mut lines = vec![format!(
            "# {} won positions from {} side-{} games",
            found.len(),
            games.len(),
            args.size
        )];
        for ending in found {
            let (mover, other) = ending.material;
            lines.push(format!("# {} ply {}", ending.game, ending.ply));
            lines.push(format!("# {mover}v{other} win in {} plies", ending.plies));
            lines.push(ending.position);
        }
        Ok(lines)
    };
    tessera::print_lines(run())
}

/// Logs go to stderr only: stdout carries protocol lines.
fn init_logging(level: Option<log::LevelFilter>) {
    let mut builder =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"));
    builder.target(env_logger::Target::Stderr);
    if let Some(level) = level {
        builder.filter_level(level);
    }
    // A logger installed twice is harmless: keep the first.
    let _ = builder.try_init();
}

/// The game a subcommand starts from: the variant's start, or `--fen`; an error is
/// printed to stderr.
fn starting_game(
    variant: Variant,
    size: Option<usize>,
    parameters: &ParameterArgs,
    fen: Option<&str>,
) -> Option<AnyGame> {
    let config = parameters.apply(GameConfig {
        size,
        ..GameConfig::new(variant)
    });
    let game = match fen {
        Some(text) => AnyGame::from_position_text(config, text),
        None => AnyGame::new(config),
    };
    game.map_err(|error| eprintln!("error: {error}")).ok()
}

fn run_render(args: &RenderArgs) -> ExitCode {
    let Some(mut game) = starting_game(
        args.variant,
        args.size,
        &args.parameters,
        args.fen.as_deref(),
    ) else {
        return ExitCode::FAILURE;
    };
    let mut last = None;
    for (index, text) in args.moves.iter().enumerate() {
        match game.play_text(text) {
            Ok(canonical) => last = Some(canonical),
            Err(error) => {
                eprintln!("error: move {} of --moves: {error}", index + 1);
                return ExitCode::FAILURE;
            }
        }
    }
    let svg = match tessera::picture::render(&game, last.as_deref()) {
        Ok(svg) => svg,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let written = match &args.output {
        Some(path) => std::fs::write(path, &svg)
            .map_err(|error| format!("cannot write {}: {error}", path.display())),
        None => std::io::stdout()
            .lock()
            .write_all(svg.as_bytes())
            .map_err(|error| format!("cannot write the picture: {error}")),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run_perft(args: &PerftArgs, divide: bool) -> ExitCode {
    let Some(game) = starting_game(
        args.variant,
        args.size,
        &args.parameters,
        args.fen.as_deref(),
    ) else {
        return ExitCode::FAILURE;
    };
    let mut lines = Vec::new();
    let never = std::sync::atomic::AtomicBool::new(false);
    tessera::perft::report(
        game.perft_root(),
        args.depth,
        divide,
        !args.no_bulk,
        &never,
        &mut |line| lines.push(line),
    );
    // A closed pipe (`| head`) ends the output quietly instead of panicking.
    let mut stdout = std::io::stdout().lock();
    for line in lines {
        if writeln!(stdout, "{line}").is_err() {
            break;
        }
    }
    ExitCode::SUCCESS
}
