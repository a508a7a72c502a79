//! What the report page shows, computed before any HTML is written: the records of each
//! input file and the runner's statistics of them.

use std::path::PathBuf;

use crate::arena::record::{MatchRecord, RecordError, read_jsonl_reporting};
use crate::arena::report::final_table;
use crate::arena::runner::{Merged, merge_records};
use crate::arena::sprt::{Sprt, SprtError};

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
