//! `tessera report`: one self-contained HTML page from match records (JSONL): the
//! runner's summary, plots as inline SVG, a sortable and filterable game list, and a
//! replay viewer that draws boards with [`crate::picture`].
//!
//! - [`data`]: the records read and the statistics computed, before any HTML.
//! - [`plots`]: line charts and histograms as SVG text.
//! - [`replay`]: each game's frames, compressed for the page.
//! - [`page`]: the HTML around them (`page.js` and `page.css` are included as text).
//!
//! The statistics come from the match runner's own code ([`crate::arena::runner::merge_records`]
//! and [`crate::arena::report::final_table`]), so the page's summary is the text
//! `tessera match --merge` prints for the same files.

pub mod data;
pub mod page;
pub mod plots;
pub mod replay;

use std::path::PathBuf;
use std::process::ExitCode;

pub use data::{InputFile, ReportData, ReportError, collect};

/// The long description of the command's `--help`.
pub const REPORT_LONG_ABOUT: &str = "One self-contained HTML page (summary, plots, game list, replay) from JSONL \
        records.\n\n\
        Reads one or more JSONL files of `tessera match` (a resumed run, shards, a run cut \
        short: a cut last line is skipped and named on stderr and in the page) and writes one \
        HTML file that needs nothing else (no network; it opens from file://): the summary \
        `tessera match --merge` prints for the same files, one table per engine pair, W/D/L \
        per colour; plots of Elo with its 95% interval and the score against games played, \
        the SPRT log-likelihood ratio against its bounds (when the records or --sprt give \
        the test), and the distributions of game length and time per move; the game list, \
        sortable by any column and filterable by result, termination and text; and a replay \
        viewer (click a game or press n/p, step with the buttons, the arrow keys and \
        Home/End), whose move list gives each move's time and each side's clock time used. \
        Each game's positions are computed in Rust and stored compressed, and unpacked only \
        when the game is opened. `report.html#selftest` checks that the page draws some \
        positions byte for byte as `tessera render` does.";

/// Arguments of `tessera report`; the doc comments are its `--help`.
#[derive(Debug, Clone, clap::Args)]
#[command(
    after_long_help = "Example:\n  tessera report run.jsonl -o report.html\n  \
        tessera report shard-*.jsonl -o report.html"
)]
pub struct ReportArgs {
    /// JSONL files written by `tessera match --jsonl` (several: shards, merged). Required.
    #[arg(required = true, value_name = "RUN.jsonl")]
    pub files: Vec<PathBuf>,
    /// The HTML file to write.
    #[arg(short, long, value_name = "FILE", default_value = "report.html")]
    pub output: PathBuf,
    /// SPRT settings (elo0=A elo1=B ...) when the records carry none, or to override them.
    /// Default: the records' own.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Vec<String>,
}

/// Builds the page for `paths`.
pub fn build(paths: &[PathBuf], sprt_words: &[String]) -> Result<String, ReportError> {
    let data = collect(paths, sprt_words)?;
    Ok(page::html(&data))
}

/// Runs `tessera report`; the exit status is 0 when the page was written.
pub fn run(args: &ReportArgs) -> ExitCode {
    let result = build(&args.files, &args.sprt).and_then(|html| {
        std::fs::write(&args.output, html).map_err(|source| ReportError::Write {
            path: args.output.display().to_string(),
            source,
        })
    });
    match result {
        Ok(()) => {
            eprintln!("wrote {}", args.output.display());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
