//! The report page: XHTML-compatible HTML (it parses as XML too, which the tests use),
//! with everything inline: style, plots, the game list, the replay data and the scripts.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::{Value, json};

use super::data::{InputFile, ReportData};
use super::plots::{LineChart, Series, histogram};
use super::replay::{game_json, pack, replay};
use crate::arena::record::{MatchRecord, Scoreboard};
use crate::arena::report::final_table;
use crate::arena::stats::{GamePoints, Tally};
use crate::picture::{Frame, layout, svg};
use crate::registry::Registry;

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

pub use crate::picture::markup::escape;

/// JSON safe inside a `<script>` element that is also a CDATA section.
fn script_json(value: &Value) -> String {
    value
        .to_string()
        .replace("</", "<\\/")
        .replace("]]>", "]]\\u003e")
}

fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |value| format!("{:.2}%", 100.0 * value))
}

/// The page for the collected records.
pub fn html(data: &ReportData) -> String {
    let records: Vec<(usize, &MatchRecord)> = data
        .files
        .iter()
        .enumerate()
        .flat_map(|(source, file)| file.records.iter().map(move |record| (source, record)))
        .collect();
    let mut out = String::with_capacity(4096 + records.len() * 2048);
    out.push_str("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n");
    let _ = writeln!(
        out,
        "<title>Tessera report: {}</title>",
        escape(&data.merged.title)
    );
    let _ = writeln!(out, "<style>/*<![CDATA[*/\n{STYLE}/*]]>*/</style>\n</head>");
    out.push_str("<body>\n");
    let _ = writeln!(
        out,
        "<h1>Tessera match report</h1>\n<p class=\"files\">{} game(s) from {}</p>",
        records.len(),
        data.files
            .iter()
            .map(|file| format!("<code>{}</code>", escape(&file.name)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    warnings(&mut out, &data.files);
    summary(&mut out, data, &records);
    plots(&mut out, data, &records);
    viewer(&mut out);
    game_list(&mut out, &records);
    replay_data(&mut out, &records);
    let _ = writeln!(
        out,
        "<script>//<![CDATA[\n{}\n{SCRIPT}\n//]]></script>\n</body>\n</html>",
        crate::picture::DRAW_JS
    );
    out
}

fn warnings(out: &mut String, files: &[InputFile]) {
    for file in files {
        if let Some(line) = file.skipped_line {
            let _ = writeln!(
                out,
                "<p class=\"warning\">{} line {line}: a cut last line (the run stopped while writing it) was skipped.</p>",
                escape(&file.name)
            );
        }
    }
}

/// The runner's table, then the same statistics per engine pair and per colour.
fn summary(out: &mut String, data: &ReportData, records: &[(usize, &MatchRecord)]) {
    out.push_str("<section id=\"summary-section\"><h2>Summary</h2>\n");
    let _ = writeln!(out, "<pre id=\"summary\">{}</pre>", escape(&data.summary));
    // Per engine pair, when the files hold more than one.
    let pairs: BTreeSet<&[String; 2]> = records.iter().map(|(_, record)| &record.engines).collect();
    if pairs.len() > 1 {
        out.push_str("<h3>Per engine pair</h3>\n");
        for pair in pairs {
            let mut board = Scoreboard::default();
            for (source, record) in records.iter().filter(|(_, record)| &record.engines == pair) {
                board.add(*source, record);
            }
            let title = format!("{} vs {}", pair[0], pair[1]);
            let table = final_table(&title, pair, &board, data.sprt.as_ref(), None);
            let _ = writeln!(out, "<pre class=\"pair\">{}</pre>", escape(&table));
        }
    }
    // Per colour of the first engine.
    let mut colours = [Tally::default(), Tally::default()];
    for (_, record) in records {
        if let Some(points) = record.first_engine_points() {
            colours[record.white_engine.min(1)].add_game(points);
        }
    }
    let _ = writeln!(
        out,
        "<h3>Per colour (from {}'s side)</h3>\n<table class=\"numbers\" id=\"colours\"><thead><tr><th>{} plays</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th><th>Elo (95%)</th></tr></thead><tbody>",
        escape(&data.merged.engines[0]),
        escape(&data.merged.engines[0])
    );
    for (tally, colour) in colours.iter().zip(["White", "Black"]) {
        let _ = writeln!(
            out,
            "<tr><td>{colour}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            percent(tally.score()),
            tally
                .elo()
                .map_or_else(|| "-".to_string(), |elo| elo.to_string())
        );
    }
    out.push_str("</tbody></table></section>\n");
}

fn plots(out: &mut String, data: &ReportData, records: &[(usize, &MatchRecord)]) {
    out.push_str("<section id=\"plots\"><h2>Plots</h2>\n<div class=\"plots\">\n");
    let mut board = Scoreboard::default();
    let mut elo = Vec::new();
    let mut band = Vec::new();
    let mut score = Vec::new();
    let mut llr = Vec::new();
    for (index, (source, record)) in records.iter().enumerate() {
        board.add(*source, record);
        let games = (index + 1) as f64;
        if let Some(estimate) = board.tally.elo() {
            if estimate.value.is_finite() {
                elo.push((games, estimate.value));
                if estimate.error.is_finite() {
                    band.push((
                        games,
                        estimate.value - estimate.error,
                        estimate.value + estimate.error,
                    ));
                }
            }
        }
        if let Some(value) = board.tally.score() {
            score.push((games, 100.0 * value));
        }
        if let Some(sprt) = &data.sprt {
            llr.push((games, sprt.llr(&board.tally)));
        }
    }
    let first = &data.merged.engines[0];
    let elo_chart = LineChart {
        title: format!("Elo of {first} with its 95% interval"),
        x_label: "games played".to_string(),
        y_label: "Elo".to_string(),
        series: vec![Series {
            name: "Elo".to_string(),
            class: "first",
            points: elo,
        }],
        band,
        guides: vec![(0.0, "0".to_string())],
    };
    out.push_str(&elo_chart.svg());
    let score_chart = LineChart {
        title: format!("Score of {first}"),
        x_label: "games played".to_string(),
        y_label: "score %".to_string(),
        series: vec![Series {
            name: "score %".to_string(),
            class: "second",
            points: score,
        }],
        band: Vec::new(),
        guides: vec![(50.0, "50%".to_string())],
    };
    out.push_str(&score_chart.svg());
    if let Some(sprt) = &data.sprt {
        let chart = LineChart {
            title: format!("SPRT log-likelihood ratio ({sprt})"),
            x_label: "games played".to_string(),
            y_label: "LLR".to_string(),
            series: vec![Series {
                name: "LLR".to_string(),
                class: "first",
                points: llr,
            }],
            band: Vec::new(),
            guides: vec![
                (sprt.lower_bound(), format!("H0 {:.2}", sprt.lower_bound())),
                (sprt.upper_bound(), format!("H1 {:.2}", sprt.upper_bound())),
            ],
        };
        out.push_str("<div id=\"sprt-plot\">");
        out.push_str(&chart.svg());
        out.push_str("</div>");
    }
    let lengths: Vec<f64> = records
        .iter()
        .map(|(_, record)| record.moves.len() as f64)
        .collect();
    out.push_str(&histogram(
        "Game length (engine plies)",
        "plies",
        &lengths,
        30,
    ));
    let times: Vec<f64> = records
        .iter()
        .flat_map(|(_, record)| record.times_ms.iter().map(|&time| time as f64))
        .collect();
    out.push_str(&histogram("Time per move", "milliseconds", &times, 30));
    out.push_str("</div></section>\n");
}

fn viewer(out: &mut String) {
    out.push_str(
        "<section id=\"replay\"><h2>Replay</h2>\n\
<p id=\"replay-title\">Pick a game in the list below (or press n / p for the next / previous game).</p>\n\
<div class=\"viewer\"><div><div id=\"board\"></div>\n\
<div class=\"buttons\"><button id=\"first\" type=\"button\">|&lt;</button> <button id=\"previous\" type=\"button\">&lt;</button> \
<span id=\"ply\">-</span> <button id=\"next\" type=\"button\">&gt;</button> <button id=\"last\" type=\"button\">&gt;|</button> \
<span class=\"hint\">arrow keys step, Home / End jump</span></div></div>\n\
<div class=\"moves\"><table id=\"move-list\"><thead><tr><th>ply</th><th>side</th><th>move</th><th>time ms</th><th>used s</th></tr></thead><tbody></tbody></table></div></div>\n\
</section>\n",
    );
}

fn result_class(record: &MatchRecord) -> &'static str {
    match record.first_engine_points() {
        Some(GamePoints::Win) => "win",
        Some(GamePoints::Draw) => "draw",
        Some(GamePoints::Loss) => "loss",
        None => "unfinished",
    }
}

fn game_list(out: &mut String, records: &[(usize, &MatchRecord)]) {
    let results: BTreeSet<&str> = records
        .iter()
        .map(|(_, record)| record.result.as_str())
        .collect();
    let terminations: BTreeSet<&str> = records
        .iter()
        .map(|(_, record)| record.termination.as_str())
        .collect();
    out.push_str("<section id=\"games\"><h2>Games</h2>\n<p class=\"filters\">Result <select id=\"filter-result\"><option value=\"\">all</option>");
    for result in results {
        let _ = write!(out, "<option>{}</option>", escape(result));
    }
    out.push_str(
        "</select> Termination <select id=\"filter-termination\"><option value=\"\">all</option>",
    );
    for termination in terminations {
        let _ = write!(out, "<option>{}</option>", escape(termination));
    }
    let _ = writeln!(
        out,
        "</select> Text <input id=\"filter-text\" type=\"search\" placeholder=\"engine, opening, reason\"/> <span id=\"shown\">{} games</span> <span class=\"hint\">click a column title to sort</span></p>",
        records.len()
    );
    out.push_str("<table id=\"game-list\"><thead><tr><th data-type=\"number\">game</th><th>white</th><th>black</th><th>result</th><th>first engine</th><th>termination</th><th data-type=\"number\">plies</th><th data-type=\"number\">opening</th><th>reason</th></tr></thead><tbody>\n");
    for (index, (_, record)) in records.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr data-index=\"{index}\" data-result=\"{}\" data-termination=\"{}\" class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(record.result.as_str()),
            record.termination.as_str(),
            result_class(record),
            record.game + 1,
            escape(&record.white),
            escape(&record.black),
            escape(record.result.as_str()),
            result_class(record),
            record.termination.as_str(),
            record.moves.len(),
            record.opening.index,
            escape(&record.reason)
        );
    }
    out.push_str("</tbody></table></section>\n");
}

/// Layouts, packed games and the self-check pictures (the Rust drawing of a few
/// positions, which the page's self-test redraws with `draw.js` and compares).
fn replay_data(out: &mut String, records: &[(usize, &MatchRecord)]) {
    let mut layouts: BTreeMap<String, Value> = BTreeMap::new();
    let mut games = Vec::with_capacity(records.len());
    let mut checks = Vec::new();
    let mut checked: BTreeSet<String> = BTreeSet::new();
    // The packed games, one per line of a plain-text element: the browser's script
    // parser never reads them, the page picks one line when a game is opened.
    let mut packed: Vec<String> = Vec::with_capacity(records.len());
    for (index, (_, record)) in records.iter().enumerate() {
        let replayed = match replay(record) {
            Ok(replayed) => replayed,
            Err(problem) => {
                games.push(json!({"layout": Value::Null, "problem": problem}));
                continue;
            }
        };
        let (variant, side) = replayed.layout;
        let key = format!("{}/{side}", variant.name());
        if !layouts.contains_key(&key) {
            if let Some(board) = layout(variant, side) {
                layouts.insert(key.clone(), json!(board));
            }
        }
        if checked.insert(key.clone()) {
            if let Some(board) = layout(variant, side) {
                let last = replayed.frames.len() - 1;
                for ply in [0, replayed.frames.len() / 2, last] {
                    let frame: &Frame = &replayed.frames[ply];
                    checks
                        .push(json!({"game": index, "ply": ply, "svg": svg::draw(&board, frame)}));
                }
            }
        }
        let text = game_json(record, &replayed).to_string();
        packed.push(pack(&text));
        games.push(json!({"layout": key, "data": packed.len() - 1}));
    }
    let variants = Registry::builtin().names();
    let data = json!({
        "layouts": layouts,
        "games": games,
        "checks": checks,
        "variants": variants,
    });
    let _ = writeln!(
        out,
        "<script>//<![CDATA[\nconst REPORT = {};\n//]]></script>",
        script_json(&data)
    );
    // Base64 holds no `<` or `&`, so the lines are safe as element text in HTML and XML.
    let _ = writeln!(
        out,
        "<script type=\"text/plain\" id=\"packed-games\">\n{}\n</script>",
        packed.join("\n")
    );
}
