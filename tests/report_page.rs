//! `tessera report` end to end: real `tessera match` runs (a resumed run with a cut line,
//! shards, a run cut short) turned into a page that parses, lists every game once,
//! replays every game, and shows the runner's own numbers.

mod arena_common;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use arena_common::{
    BINARY, one_node_match, records, run_match, scratch, test_engine_pair, text, words,
};
use tessera::arena::runner::merge;
use tessera::arena::sprt::Sprt;

fn match_arguments(variant: &str, jsonl: &Path, extra: &[&str]) -> Vec<String> {
    let mut extra_first = vec!["--max-plies", "200", "--random-plies", "2"];
    extra_first.extend(extra);
    one_node_match(test_engine_pair(), variant, jsonl, &extra_first)
}

fn report(files: &[PathBuf], output: &Path) -> (String, String) {
    let result = Command::new(BINARY)
        .arg("report")
        .args(files)
        .arg("-o")
        .arg(output)
        .output()
        .expect("the binary runs");
    assert!(result.status.success(), "{}", text(&result.stderr));
    (
        std::fs::read_to_string(output).expect("page written"),
        text(&result.stderr),
    )
}

/// The text of the element with this id.
fn text_of(document: &roxmltree::Document, id: &str) -> Option<String> {
    let node = document
        .descendants()
        .find(|node| node.attribute("id") == Some(id))?;
    Some(
        node.descendants()
            .filter(|node| node.is_text())
            .filter_map(|node| node.text())
            .collect(),
    )
}

/// The page's `REPORT` data object.
fn report_data(page: &str) -> serde_json::Value {
    let start = page.find("const REPORT = ").expect("data script") + "const REPORT = ".len();
    let end = start + page[start..].find(";\n//]]>").expect("end of data");
    serde_json::from_str(&page[start..end]).expect("the data is JSON")
}

/// Unpacks one game of the page (base64 of gzip of JSON), as the page's script does.
fn unpack(packed: &str) -> serde_json::Value {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bytes = Vec::new();
    let mut buffer = 0u32;
    let mut bits = 0;
    for byte in packed.bytes().filter(|&byte| byte != b'=') {
        let value = ALPHABET.iter().position(|&c| c == byte).expect("base64") as u32;
        buffer = (buffer << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    let mut json = String::new();
    flate2::read::GzDecoder::new(bytes.as_slice())
        .read_to_string(&mut json)
        .expect("gzip");
    serde_json::from_str(&json).expect("game JSON")
}

/// The checks every page must pass: XML, one list row and one replay per record,
/// the summary equal to `--merge`'s table.
fn check_page(page: &str, files: &[PathBuf], sprt: Option<&Sprt>) -> roxmltree::Document<'static> {
    let page: &'static str = Box::leak(page.to_string().into_boxed_str());
    // The page starts with `<!DOCTYPE html>`, which the parser must be allowed to read.
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let document =
        roxmltree::Document::parse_with_options(page, options).expect("the page parses as XML");
    let all: Vec<_> = files.iter().flat_map(|file| records(file)).collect();
    let rows: Vec<_> = document
        .descendants()
        .filter(|node| node.has_tag_name("tr") && node.attribute("data-index").is_some())
        .collect();
    assert_eq!(rows.len(), all.len(), "one list entry per game");
    for (index, (row, record)) in rows.iter().zip(&all).enumerate() {
        assert_eq!(
            row.attribute("data-index"),
            Some(index.to_string().as_str())
        );
        assert_eq!(row.attribute("data-result"), Some(record.result.as_str()));
    }
    let data = report_data(page);
    let games = data["games"].as_array().expect("games");
    assert_eq!(games.len(), all.len(), "one replay per game");
    let packed: Vec<&str> = text_of(&document, "packed-games")
        .expect("packed games")
        .leak()
        .split_whitespace()
        .collect();
    assert_eq!(packed.len(), all.len());
    for (game, record) in games.iter().zip(&all) {
        let line = game["data"].as_u64().expect("replayable") as usize;
        let replay = unpack(packed[line]);
        let plies = record.opening.moves.len() + record.moves.len();
        assert_eq!(replay["frames"].as_array().map(Vec::len), Some(plies + 1));
        assert_eq!(replay["problem"], serde_json::Value::Null);
    }
    let summary = text_of(&document, "summary").expect("summary");
    assert_eq!(
        summary,
        merge(files, sprt).expect("merge"),
        "the runner's numbers"
    );
    document
}

#[test]
fn resumed_cut_and_sharded_runs_make_complete_pages() {
    let dir = scratch("report");
    // A run with SPRT settings, cut in the middle of a line, resumed, then cut short again.
    let run = dir.join("run.jsonl");
    let sprt_words = ["--sprt", "elo0=0", "elo1=10"];
    let mut first = match_arguments("catchup", &run, &["--games", "4", "--size", "4"]);
    first.extend(words(&sprt_words));
    let output = run_match(&first);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let content = std::fs::read_to_string(&run).expect("readable");
    std::fs::write(&run, &content[..content.trim_end().len() - 30]).expect("writable");
    let mut resumed = match_arguments(
        "catchup",
        &run,
        &["--games", "6", "--size", "4", "--resume"],
    );
    resumed.extend(words(&sprt_words));
    let output = run_match(&resumed);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let runner_table = text(&output.stdout);
    let mut content = std::fs::read_to_string(&run).expect("readable");
    let last_line = content.lines().last().expect("a record").to_string();
    content.push_str(&last_line[..last_line.len() / 2]);
    std::fs::write(&run, content).expect("writable");

    let page_path = dir.join("run.html");
    let (page, stderr) = report(std::slice::from_ref(&run), &page_path);
    assert!(stderr.contains("cut last line skipped"), "{stderr}");
    assert!(
        page.contains("a cut last line"),
        "the page reports the skipped line"
    );
    let sprt = Sprt::from_words(&words(&["elo0=0", "elo1=10"])).expect("sprt");
    let document = check_page(&page, std::slice::from_ref(&run), Some(&sprt));
    assert_eq!(records(&run).len(), 6);
    assert!(
        document
            .descendants()
            .any(|node| node.attribute("id") == Some("sprt-plot")),
        "records with SPRT settings get the LLR plot"
    );
    // The page's summary lines are the runner's own (the runner adds its title and the
    // facts of this run around them).
    let summary = text_of(&document, "summary").expect("summary");
    for line in summary.lines().skip(1) {
        assert!(
            runner_table.contains(line),
            "{line:?} not in\n{runner_table}"
        );
    }

    // Two shards of a Kruzno match, merged.
    let shards: Vec<PathBuf> = (1..=2)
        .map(|shard| dir.join(format!("shard{shard}.jsonl")))
        .collect();
    for (index, shard) in shards.iter().enumerate() {
        let which = format!("{}/2", index + 1);
        let output = run_match(&match_arguments(
            "kruzno",
            shard,
            &["--games", "4", "--shard", &which],
        ));
        assert!(output.status.success(), "{}", text(&output.stderr));
    }
    let (page, _) = report(&shards, &dir.join("shards.html"));
    let document = check_page(&page, &shards, None);
    assert!(
        !document
            .descendants()
            .any(|node| node.attribute("id") == Some("sprt-plot")),
        "no SPRT settings, no LLR plot"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_or_broken_files_are_errors() {
    let dir = scratch("report-errors");
    let output = Command::new(BINARY)
        .args(["report", "/nonexistent/run.jsonl", "-o"])
        .arg(dir.join("x.html"))
        .output()
        .expect("runs");
    assert!(!output.status.success());
    assert!(text(&output.stderr).contains("/nonexistent/run.jsonl"));
    let broken = dir.join("broken.jsonl");
    std::fs::write(&broken, "{not json}\n{\"game\": 1}\n").expect("writable");
    let output = Command::new(BINARY)
        .arg("report")
        .arg(&broken)
        .arg("-o")
        .arg(dir.join("y.html"))
        .output()
        .expect("runs");
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("line 1"),
        "{}",
        text(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
