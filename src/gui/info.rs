//! An engine's `info` line as the page shows it: the fields of `protocol.md` section 4
//! (`go`), read the way an outside GUI reads them (unknown fields are skipped).

use serde::Serialize;

use crate::game::ScoreUnits;
use crate::search::alphabeta::{TABLE_BOUND, TABLE_WIN};
use crate::search::mcts_driver::score_win_rate;

/// The score of an `info` line, from the side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// Centi-units of the variant (`protocol.md`, "Score units").
    Cp(i64),
    /// A proven result in this many own moves (negative: the side to move loses).
    Mate(i64),
}

impl Score {
    /// The score as the page shows it, in the units of the game's facts: `+1.50 men`,
    /// `62% (cp 85)`, `wins in 3`, a table win `win, converts in 7 plies`.
    pub fn text(&self, units: ScoreUnits) -> String {
        match (*self, units) {
            (Score::Mate(moves), _) if moves > 0 => format!("wins in {moves}"),
            (Score::Mate(moves), _) => format!("loses in {}", -moves),
            (Score::Cp(cp), ScoreUnits::Hundredths(_)) if cp.abs() >= i64::from(TABLE_BOUND) => {
                conversion_text(cp > 0, i64::from(TABLE_WIN) - cp.abs())
            }
            (Score::Cp(cp), ScoreUnits::WinRate) => {
                let percent = 100.0 * score_win_rate(cp);
                format!("{percent:.0}% (cp {cp})")
            }
            (Score::Cp(cp), ScoreUnits::Hundredths(unit)) => {
                let sign = if cp >= 0 { "+" } else { "" };
                format!("{sign}{:.2} {unit}", cp as f64 / 100.0)
            }
        }
    }
}

/// A won or lost ending by the tables, `plies` to the capture that converts it (hex
/// checkers scores it `cp 100000 - plies`).
pub fn conversion_text(won: bool, plies: i64) -> String {
    let plies = if plies == 1 {
        "1 ply".to_string()
    } else {
        format!("{plies} plies")
    };
    if won {
        format!("win, converts in {plies}")
    } else {
        format!("loss, converted in {plies}")
    }
}

/// The fields of one `info` line; absent fields stay `None` (or empty).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Info {
    pub depth: Option<u64>,
    pub seldepth: Option<u64>,
    /// The line's rank among several (`MultiPV`), from 1; `None` in a single-line search.
    pub multipv: Option<u64>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time: Option<u64>,
    pub pv: Vec<String>,
    /// The text after `string`, if the line carries one.
    pub string: Option<String>,
    /// The exact value the engine's marker line right after this one gave (the words
    /// after `info string proven`: `cp 300`, `win 7`, `draw`, `loss`); `None` for an
    /// estimate. Set by [`super::lines::RankedLines`].
    pub exact: Option<String>,
}

/// Words that start a new field; a `pv` runs until one of them.
const FIELDS: [&str; 10] = [
    "depth", "seldepth", "multipv", "score", "nodes", "nps", "time", "hashfull", "pv", "string",
];

/// Reads an `info` line; `None` for any other line.
pub fn parse_info(line: &str) -> Option<Info> {
    let mut words = line.split_whitespace().peekable();
    if words.next() != Some("info") {
        return None;
    }
    let mut info = Info::default();
    while let Some(word) = words.next() {
        let mut number = || words.next().and_then(|value| value.parse::<u64>().ok());
        match word {
            "depth" => info.depth = number(),
            "seldepth" => info.seldepth = number(),
            "multipv" => info.multipv = number(),
            "nodes" => info.nodes = number(),
            "nps" => info.nps = number(),
            "time" => info.time = number(),
            "hashfull" => {
                words.next();
            }
            "score" => {
                let kind = words.next();
                let value = words.next().and_then(|value| value.parse::<i64>().ok());
                info.score = match (kind, value) {
                    (Some("cp"), Some(value)) => Some(Score::Cp(value)),
                    (Some("mate"), Some(value)) => Some(Score::Mate(value)),
                    _ => None,
                };
            }
            "pv" => {
                while let Some(next) = words.peek() {
                    if FIELDS.contains(next) {
                        break;
                    }
                    info.pv.push((*next).to_string());
                    words.next();
                }
            }
            "string" => {
                let rest: Vec<&str> = words.by_ref().collect();
                info.string = Some(rest.join(" "));
            }
            _ => {}
        }
    }
    Some(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_field_and_skips_unknown_ones() {
        let info = parse_info(
            "info depth 7 seldepth 9 score cp -35 nodes 12000 nps 400000 time 30 hashfull 2 \
             currmove x pv c3-d3 h4-g4 string note",
        )
        .expect("an info line");
        assert_eq!(info.depth, Some(7));
        assert_eq!(info.seldepth, Some(9));
        assert_eq!(info.score, Some(Score::Cp(-35)));
        assert_eq!(info.nodes, Some(12000));
        assert_eq!(info.nps, Some(400000));
        assert_eq!(info.time, Some(30));
        assert_eq!(info.pv, ["c3-d3", "h4-g4"]);
        assert_eq!(info.string.as_deref(), Some("note"));
        assert_eq!(info.multipv, None);
        let ranked = parse_info("info depth 3 multipv 2 score cp 5 pv a1").expect("an info line");
        assert_eq!(ranked.multipv, Some(2));
        let mate = parse_info("info score mate -3 pv a1").expect("an info line");
        assert_eq!(mate.score, Some(Score::Mate(-3)));
        assert_eq!(Score::Mate(-3).text(ScoreUnits::WinRate), "loses in 3");
        assert_eq!(
            Score::Cp(-150).text(ScoreUnits::Hundredths("men")),
            "-1.50 men"
        );
        assert_eq!(
            Score::Cp(0).text(ScoreUnits::Hundredths("points")),
            "+0.00 points"
        );
        assert_eq!(Score::Cp(400).text(ScoreUnits::WinRate), "91% (cp 400)");
        assert_eq!(
            Score::Cp(99_993).text(ScoreUnits::Hundredths("men")),
            "win, converts in 7 plies"
        );
        assert_eq!(
            Score::Cp(-99_999).text(ScoreUnits::Hundredths("men")),
            "loss, converted in 1 ply"
        );
        assert_eq!(parse_info("bestmove a1"), None);
        let broken = parse_info("info depth x score cp").expect("an info line");
        assert_eq!((broken.depth, broken.score), (None, None));
    }
}
