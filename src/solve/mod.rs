//! `tessera solve`: exact game values. Catchup on the small boards (sides 2 to 5, with the
//! hexagon's twelve symmetries) and Cheversi (the exact final margin, or only win, draw
//! or loss) from any position; hex checkers endings have their own retrograde tables
//! (`tessera endings`).
//!
//! Files: [`search`] (the alpha-beta over exact values, written once), [`table`] (proven
//! bounds keyed by exact position names), [`catchup`] and [`cheversi`] (each game's
//! compact position, move order and key), [`driver`] (root, threads, progress,
//! checkpoints), [`checkpoint`] (the file format), [`proof`] (strategies and their
//! checker).
//!
//! Output on stdout, one fact a line: with `--all` `<move>: <value>` per root move, then
//! `value: <value>` and `bestmove <move>`; a value is `win`, `loss` or `draw` (Catchup,
//! and Cheversi with `--wdl`) or the final margin for the side to move (Cheversi).
//! Progress lines go to stderr.

pub mod catchup;
pub mod checkpoint;
pub mod cheversi;
pub mod driver;
pub mod proof;
pub mod search;
pub mod table;

use std::path::PathBuf;

use crate::game::{CatchupRule, GameConfig, GameKind, Player, Rules, Variant};
use crate::with_record;

use self::catchup::{CatchupState, MAX_SOLVE_SIDE};
use self::checkpoint::Header;
use self::cheversi::CheversiState;
use self::driver::{Question, Settings, Solution};
use self::search::{Shared, Solvable};

/// The long description of the command's `--help`.
pub const SOLVE_LONG_ABOUT: &str = "Exact game value of a position (Catchup sides 2-5, Cheversi), best move, \
        proofs.\n\n\
        Prints `value: <value>` and `bestmove <move>` (with --all first one `<move>: <value>` \
        line per root move); a value is win, loss or draw for the side to move, or for \
        Cheversi the exact final margin in points. Progress goes to stderr. The output, the \
        checkpoint and proof files, and what a user needs to know of the method are in \
        protocol.md, \"Solving\" and \"Files\".";

/// Arguments of `tessera solve`; the doc comments are its `--help`.
#[derive(Debug, Clone, clap::Args)]
#[command(
    after_long_help = "Example:\n  tessera solve --variant catchup --size 3 --rule original --all\n  \
        tessera solve --variant cheversi --moves Ke4 Nd5 Qe5 Qf6 Rd4 Bc6 Nf4 Rg6 --wdl\n  \
        tessera solve --variant catchup --size 2 --proof p.txt && tessera solve --check p.txt"
)]
pub struct SolveArgs {
    /// cheversi or catchup. Required, unless --check is given.
    #[arg(long, required_unless_present = "check")]
    pub variant: Option<Variant>,
    /// Board side (catchup 2-5). Default: the variant's own; a --fen's row count overrides
    /// it.
    #[arg(long)]
    pub size: Option<usize>,
    /// Catchup rule: revised or original.
    #[arg(long, default_value = "revised")]
    pub rule: CatchupRule,
    /// Start from this position string. Default: the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the position before solving. Default: none.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// Also print the value of every root move. Off by default.
    #[arg(long)]
    pub all: bool,
    /// Win, draw or loss only (Cheversi: cheaper than the exact margin). Off by default.
    #[arg(long, conflicts_with = "at_least")]
    pub wdl: bool,
    /// Only whether the value is at least MARGIN: prints a proven bound, `>=V` or `<=V`
    /// (one null-window search: the cheapest question when one bound is known). Default:
    /// the exact value.
    #[arg(
        long,
        value_name = "MARGIN",
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(i32).range(-1000..=1000)
    )]
    pub at_least: Option<i32>,
    /// Search threads (they share the table).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The most memory the table may grow to, in MiB (it starts small).
    #[arg(long, default_value_t = 256, value_name = "MB")]
    pub hash: usize,
    /// Write the proven facts here at intervals and at the end; resume from it when it
    /// exists (a file of another position or version, or cut short, is refused). Default:
    /// none.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    pub checkpoint_seconds: f64,
    /// Write a proof (the strategies behind the value) to this file. Default: none.
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,
    /// Check a proof file against the rules instead of solving. Default: none.
    #[arg(long, value_name = "FILE", conflicts_with = "variant")]
    pub check: Option<PathBuf>,
    /// Seconds between progress lines on stderr; 0 for none.
    #[arg(long, default_value_t = 2.0, value_name = "SECONDS")]
    pub progress: f64,
}

/// Why a solve could not run.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error("{0}")]
    Setup(String),
    #[error(transparent)]
    Checkpoint(#[from] checkpoint::CheckpointError),
    #[error("cannot write the proof {path}: {source}")]
    Proof {
        path: String,
        source: std::io::Error,
    },
}

/// Runs `tessera solve`: the answer lines, or why it could not run.
pub fn run(args: &SolveArgs) -> Result<Vec<String>, SolveError> {
    match &args.check {
        Some(path) => run_check(path),
        None => run_solve(args),
    }
}

fn run_check(path: &std::path::Path) -> Result<Vec<String>, SolveError> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| SolveError::Setup(format!("cannot read {}: {error}", path.display())))?;
    let (_, claims) = proof::check(&text)
        .map_err(|error| SolveError::Setup(format!("proof refused: {error}")))?;
    let mut lines: Vec<String> = claims
        .iter()
        .map(|claim| {
            format!(
                "claim {} at-least {}: ok ({} positions)",
                claim.player.letter(),
                claim.at_least,
                claim.positions
            )
        })
        .collect();
    lines.push("proof: ok".to_string());
    Ok(lines)
}

fn run_solve(args: &SolveArgs) -> Result<Vec<String>, SolveError> {
    let variant = args
        .variant
        .ok_or_else(|| SolveError::Setup("--variant is required".to_string()))?;
    let config = args.rule.chosen_in(GameConfig {
        size: args.size,
        ..GameConfig::new(variant)
    });
    let mut game = match &args.fen {
        Some(text) => GameKind::from_position_text(&config, text),
        None => GameKind::new(&config),
    }
    .map_err(|error| SolveError::Setup(error.to_string()))?;
    for (index, text) in args.moves.iter().enumerate() {
        with_record!(&mut game, record => record.play_move_text(text)).map_err(|error| {
            SolveError::Setup(format!("move {} of --moves: {error}", index + 1))
        })?;
    }
    let settings = Settings {
        question: match args.at_least {
            Some(threshold) => Question::AtLeast(threshold),
            None if args.wdl => Question::Sign,
            None => Question::Exact,
        },
        all: args.all,
        threads: args.threads.max(1),
        progress_seconds: args.progress.max(0.0),
        checkpoint_seconds: args.checkpoint_seconds.max(0.1),
    };
    match &game {
        GameKind::Cheversi(record) => {
            let position = record.position();
            let state = CheversiState::new(position.clone());
            let config = GameConfig {
                size: Some(config.board_size()),
                ..config
            };
            solve_game(&state, position, &config, args, &settings, false)
        }
        GameKind::Catchup(record) => {
            let position = record.position();
            let state = CatchupState::from_game(position).ok_or_else(|| {
                SolveError::Setup(format!(
                    "the solver takes Catchup boards of side 2 to {MAX_SOLVE_SIDE} (side {})",
                    position.side()
                ))
            })?;
            // The board side as played (a position string may set it).
            let config = GameConfig {
                size: Some(position.side()),
                ..config
            };
            solve_game(&state, position, &config, args, &settings, true)
        }
        GameKind::Checkers(_) | GameKind::LargeCheckers(_) => Err(SolveError::Setup(format!(
            "solve takes cheversi and catchup; {variant} endings are solved by `tessera endings`"
        ))),
    }
}

/// The word for a value's sign.
fn outcome_word(value: i32) -> &'static str {
    match value.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    }
}

/// Solves `state`, the solver's form of `position`; `config` gives the game and the
/// board side as played.
fn solve_game<G: Solvable, R: Rules>(
    state: &G,
    position: &R,
    config: &GameConfig,
    args: &SolveArgs,
    settings: &Settings,
    words_only: bool,
) -> Result<Vec<String>, SolveError> {
    let shared = Shared::new(args.hash);
    let header = Header {
        variant: config.variant.name().to_string(),
        size: config.board_size(),
        rule: CatchupRule::of(config).name().to_string(),
        position: position.position_text(),
    };
    if let Some(path) = &args.checkpoint
        && path.exists()
    {
        let count = checkpoint::read(path, &header, &shared.table)?;
        eprintln!(
            "info string resumed {count} proven positions from {}",
            path.display()
        );
    }
    let writer = |shared: &Shared| {
        if let Some(path) = &args.checkpoint
            && let Err(error) = checkpoint::write(path, &header, &shared.table)
        {
            eprintln!("error: {error}");
        }
    };
    let writer_ref: Option<&driver::CheckpointWriter> = if args.checkpoint.is_some() {
        Some(&writer)
    } else {
        None
    };
    let solution: Solution<G::Move> = driver::solve(state, settings, &shared, writer_ref);
    let text = |value: i32| match settings.question {
        Question::AtLeast(threshold) if value >= threshold => format!(">={value}"),
        Question::AtLeast(_) => format!("<={value}"),
        Question::Sign => outcome_word(value).to_string(),
        Question::Exact if words_only => outcome_word(value).to_string(),
        Question::Exact => value.to_string(),
    };
    let mut lines: Vec<String> = solution
        .moves
        .iter()
        .map(|&(mv, value)| format!("{}: {}", state.move_text(mv), text(value)))
        .collect();
    lines.push(format!("value: {}", text(solution.value)));
    lines.push(format!(
        "bestmove {}",
        solution
            .best
            .map_or_else(|| "0000".to_string(), |mv| state.move_text(mv))
    ));
    let seconds = shared.start.elapsed().as_secs_f64();
    let nodes = shared.nodes.load(std::sync::atomic::Ordering::Relaxed);
    eprintln!(
        "info solved nodes {nodes} stored {} time {:.3}s rate {:.0}/s",
        shared.table.stored(),
        seconds,
        nodes as f64 / seconds.max(1e-9)
    );
    if let Some(path) = &args.proof {
        let mover = position.side_to_move();
        let claims = match settings.question {
            Question::AtLeast(threshold) => bound_claims(mover, solution.value, threshold),
            Question::Sign => proof_claims(mover, solution.value, true),
            Question::Exact => proof_claims(mover, solution.value, words_only),
        };
        let mut text = proof::header(config, &position.position_text());
        text.push_str(&proof::strategies(state, position, &claims, &shared));
        std::fs::write(path, text).map_err(|source| SolveError::Proof {
            path: path.display().to_string(),
            source,
        })?;
    }
    Ok(lines)
}

/// The claims that prove `value` for `mover`: the winner's win, both sides' draw, or
/// (exact margins) the mover's lower bound and the opponent's.
pub fn proof_claims(mover: Player, value: i32, sign_only: bool) -> Vec<(Player, i32)> {
    if sign_only {
        match value.signum() {
            1 => vec![(mover, 1)],
            -1 => vec![(mover.opponent(), 1)],
            _ => vec![(mover, 0), (mover.opponent(), 0)],
        }
    } else {
        vec![(mover, value), (mover.opponent(), -value)]
    }
}

/// The claim that proves the bound `--at-least threshold` answered with: a value at or
/// above the threshold is the mover's lower bound, one below it the mover's upper bound,
/// which is the opponent's lower bound.
pub fn bound_claims(mover: Player, value: i32, threshold: i32) -> Vec<(Player, i32)> {
    if value >= threshold {
        vec![(mover, value)]
    } else {
        vec![(mover.opponent(), -value)]
    }
}
