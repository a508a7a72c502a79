//! Text output: a progress line per finished game (stderr) and the final table (stdout).

use std::fmt::Write as _;

use super::record::{MatchRecord, Scoreboard};
use super::sprt::{Sprt, SprtDecision};

fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |value| format!("{:.2}%", 100.0 * value))
}

fn estimate(value: Option<super::stats::Estimate>) -> String {
    value.map_or_else(|| "-".to_string(), |value| value.to_string())
}

/// The SPRT status words: `LLR 1.23 [-2.94, 2.94] continue`.
pub fn sprt_status(sprt: &Sprt, board: &Scoreboard) -> (f64, SprtDecision, String) {
    let llr = sprt.llr(&board.tally) + 0.0;
    let decision = sprt.decision(llr);
    let word = match decision {
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::AcceptH1 => "H1 accepted",
        SprtDecision::Continue => "continue",
    };
    let text = format!(
        "LLR {llr:.2} [{:.2}, {:.2}] {word}",
        sprt.lower_bound(),
        sprt.upper_bound()
    );
    (llr, decision, text)
}

/// One line per finished game.
pub fn progress_line(
    record: &MatchRecord,
    done: u64,
    total: u64,
    board: &Scoreboard,
    sprt: Option<&Sprt>,
) -> String {
    let tally = &board.tally;
    let mut line = format!(
        "[{done}/{total}] game {}: {} vs {} {} ({}, {} plies) | {} +{} ={} -{} score {} Elo {}",
        record.game + 1,
        record.white,
        record.black,
        record.result.as_str(),
        record.termination.as_str(),
        record.moves.len(),
        record.engines[0],
        tally.wins,
        tally.draws,
        tally.losses,
        percent(tally.score()),
        estimate(tally.elo()),
    );
    if let Some(sprt) = sprt {
        let (_, _, text) = sprt_status(sprt, board);
        line.push_str(" | ");
        line.push_str(&text);
    }
    line
}

/// Facts about the run itself (absent when merging files).
#[derive(Copy, Clone, Debug)]
pub struct RunFacts {
    pub games_played: u64,
    pub moves_played: u64,
    pub wall_seconds: f64,
    pub cpu_seconds: Option<f64>,
}

/// The final table.
pub fn final_table(
    title: &str,
    engines: &[String; 2],
    board: &Scoreboard,
    sprt: Option<&Sprt>,
    run: Option<RunFacts>,
) -> String {
    let tally = &board.tally;
    let mut text = String::new();
    let _ = writeln!(text, "{title}");
    let _ = writeln!(
        text,
        "{:<22}{} vs {} (from {}'s side)",
        "Engines", engines[0], engines[1], engines[0]
    );
    let _ = writeln!(
        text,
        "{:<22}{} (W {}, D {}, L {}); {} pairs",
        "Games",
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        tally.pairs()
    );
    let _ = writeln!(text, "{:<22}{}", "Score", percent(tally.score()));
    let _ = writeln!(text, "{:<22}{}", "Draw ratio", percent(tally.draw_ratio()));
    let _ = writeln!(text, "{:<22}{}", "Elo (95%)", estimate(tally.elo()));
    let _ = writeln!(
        text,
        "{:<22}{}",
        "Elo pentanomial (95%)",
        estimate(tally.elo_pentanomial())
    );
    let _ = writeln!(
        text,
        "{:<22}{}",
        "nElo (95%)",
        estimate(tally.normalized_elo())
    );
    let _ = writeln!(text, "{:<22}{}", "LOS", percent(tally.los()));
    let p = tally.pentanomial;
    let _ = writeln!(
        text,
        "{:<22}LL {} LD {} DD/WL {} WD {} WW {}",
        "Pentanomial", p[0], p[1], p[2], p[3], p[4]
    );
    if let Some(sprt) = sprt {
        let (_, _, status) = sprt_status(sprt, board);
        let _ = writeln!(text, "{:<22}{} ({sprt})", "SPRT", status);
    }
    let terminations: Vec<String> = board
        .terminations
        .iter()
        .map(|(termination, count)| format!("{} {count}", termination.as_str()))
        .collect();
    let _ = writeln!(text, "{:<22}{}", "Terminations", terminations.join(", "));
    let _ = writeln!(
        text,
        "{:<22}{} {}, {} {}",
        "Engine failures", engines[0], board.failures[0], engines[1], board.failures[1]
    );
    if board.unfinished > 0 || board.unpaired() > 0 {
        let _ = writeln!(
            text,
            "{:<22}{} unfinished, {} without their pair",
            "Incomplete",
            board.unfinished,
            board.unpaired()
        );
    }
    if let Some(run) = run {
        let minutes = run.wall_seconds / 60.0;
        let _ = writeln!(
            text,
            "{:<22}{} games, {} moves in {:.1} s ({:.1} games/min)",
            "This run",
            run.games_played,
            run.moves_played,
            run.wall_seconds,
            if minutes > 0.0 {
                run.games_played as f64 / minutes
            } else {
                0.0
            }
        );
        if let Some(cpu) = run.cpu_seconds {
            let per_move = if run.moves_played > 0 {
                cpu * 1e6 / run.moves_played as f64
            } else {
                0.0
            };
            let _ = writeln!(
                text,
                "{:<22}{cpu:.2} s CPU, {per_move:.0} us per move",
                "Runner overhead"
            );
        }
    }
    text
}

/// The runner's own CPU time (user + system, all threads) from `/proc/self/stat`, in
/// seconds; `None` where that file does not exist. Assumes the usual 100 ticks per second.
pub fn own_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces; fields after its closing ')' are plain.
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 of the file (utime, stime) are 11 and 12 after the name.
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    Some((user + system) / 100.0)
}
