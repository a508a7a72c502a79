//! `tessera report`: one self-contained HTML page from match records (JSONL): the
//! runner's summary, plots as inline SVG, a sortable and filterable game list, and a
//! replay viewer that draws boards with [`crate::picture`].
//!
//! - [`plots`]: line charts and histograms as SVG text.
//! - [`replay`]: each game's frames, compressed for the page.
//! - [`page`]: the HTML around them (`page.js` and `page.css` are included as text).
//!
//! The statistics come from the match runner's own code ([`crate::arena::runner::merge_records`]
//! and [`crate::arena::report::final_table`]), so the page's summary is the text
//! `tessera match --merge` prints for the same files.

pub mod page;
pub mod plots;
pub mod replay;

use std::path::PathBuf;
use std::process::ExitCode;

use crate::arena::record::{MatchRecord, RecordError, read_jsonl_reporting};
use crate::arena::report::final_table;
use crate::arena::runner::{Merged, merge_records};
use crate::arena::sprt::{Sprt, SprtError};

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

/// Why no report could be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error(transparent)]
    Records(#[from] RecordError),
    #[error(transparent)]
    Sprt(#[from] SprtError),
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
}

/// One input file as read.
#[derive(Clone, Debug)]
pub struct InputFile {
    pub name: String,
    pub records: Vec<MatchRecord>,
    /// The number of a cut last line that was skipped (a run stopped while writing).
    pub skipped_line: Option<usize>,
}

/// Everything the page shows, computed before any HTML is written.
pub struct ReportData {
    pub files: Vec<InputFile>,
    pub merged: Merged,
    pub sprt: Option<Sprt>,
    /// The runner's summary table for these records.
    pub summary: String,
}

/// Reads the files and computes the statistics.
pub fn collect(paths: &[PathBuf], sprt_words: &[String]) -> Result<ReportData, ReportError> {
    let mut files = Vec::new();
    for path in paths {
        let read = read_jsonl_reporting(path)?;
        if let Some(line) = read.skipped_line {
            eprintln!(
                "warning: {} line {line}: cut last line skipped (the run stopped while writing it)",
                path.display()
            );
        }
        files.push(InputFile {
            name: path.display().to_string(),
            records: read.records,
            skipped_line: read.skipped_line,
        });
    }
    let pairs: Vec<(String, Vec<MatchRecord>)> = files
        .iter()
        .map(|file| (file.name.clone(), file.records.clone()))
        .collect();
    let merged = merge_records(&pairs);
    // As in `--merge`: the settings given win over those the records carry.
    let sprt = if sprt_words.is_empty() {
        merged.recorded_sprt
    } else {
        Some(Sprt::from_words(sprt_words)?)
    };
    let summary = final_table(
        &merged.title,
        &merged.engines,
        &merged.board,
        sprt.as_ref(),
        None,
    );
    Ok(ReportData {
        files,
        merged,
        sprt,
        summary,
    })
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
