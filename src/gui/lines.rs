//! The lines of a search as the page lists them and draws them: the engine's last report
//! of several lines (`multipv 1` to N, or the one line of a single-line search), each
//! with the exact value of the proven marker that followed it (`info string proven ...`,
//! protocol.md "Proven scores"), if any.
//!
//! An engine writes a report's lines in one go, but the page may look between two of
//! them, and alpha-beta reports line 1 alone once a second in the middle of an
//! iteration: the lines of the report before fill the ranks the new one has not reached
//! yet, so the list and the board do not flicker between N lines and one.

use serde::Serialize;

use super::info::{Info, Score, conversion_text};
use crate::game::ScoreUnits;

/// The last reports of one search.
#[derive(Clone, Debug, Default)]
pub struct RankedLines {
    /// The report being received, line 1 first.
    receiving: Vec<Info>,
    /// The lines shown when it began.
    previous: Vec<Info>,
}

impl RankedLines {
    /// Takes one `info` line of the search; true when the lines shown may have changed.
    pub fn push(&mut self, info: &Info) -> bool {
        let marker = info
            .string
            .as_deref()
            .and_then(|text| text.strip_prefix("proven "));
        if let Some(value) = marker
            && info.pv.is_empty()
            && info.score.is_none()
        {
            let Some(last) = self.receiving.last_mut() else {
                return false;
            };
            last.exact = Some(value.to_string());
            return true;
        }
        if info.pv.is_empty() || info.score.is_none() {
            return false;
        }
        let rank = info.multipv.unwrap_or(1) as usize;
        if rank == 1 {
            // A single line replaces the one before it at once.
            self.previous = if info.multipv.is_some() {
                self.shown()
            } else {
                Vec::new()
            };
            self.receiving = vec![info.clone()];
        } else if rank == self.receiving.len() + 1 {
            self.receiving.push(info.clone());
        } else {
            return false;
        }
        true
    }

    /// The lines to show, line 1 first: the report being received, then the lines
    /// shown before it beyond its length whose first moves it does not have yet (a
    /// report comes line by line, and a search in the middle of an iteration reports
    /// line 1 alone).
    pub fn shown(&self) -> Vec<Info> {
        let mut lines = self.receiving.clone();
        for line in self.previous.iter().skip(self.receiving.len()) {
            if !lines
                .iter()
                .any(|known| known.pv.first() == line.pv.first())
            {
                lines.push(line.clone());
            }
        }
        lines
    }
}

/// One line as the page gets it: the `info` fields, the score as text, and the exact
/// value as text when the engine proved it.
#[derive(Serialize)]
pub struct LineView<'a> {
    #[serde(flatten)]
    pub info: &'a Info,
    pub score_text: Option<String>,
    pub exact_text: Option<String>,
}

impl<'a> LineView<'a> {
    pub fn new(info: &'a Info, units: ScoreUnits) -> Self {
        LineView {
            info,
            score_text: info.score.map(|score| score.text(units)),
            exact_text: info
                .exact
                .as_deref()
                .map(|exact| exact_text(exact, info.score, units)),
        }
    }
}

/// An exact value (the words after `proven`) as the page shows it: a Cheversi margin in
/// points, a hex checkers win or loss with the plies to the capture that converts it,
/// a draw, a Catchup result with its line's distance.
pub fn exact_text(exact: &str, score: Option<Score>, units: ScoreUnits) -> String {
    let words: Vec<&str> = exact.split_whitespace().collect();
    let number = |word: &str| word.parse::<i64>().ok();
    match (words.as_slice(), score) {
        (["cp", value], _) => {
            number(value).map_or(exact.to_string(), |value| Score::Cp(value).text(units))
        }
        (["draw"], _) => "draw".to_string(),
        ([_, ..], Some(score @ Score::Mate(_))) => score.text(units),
        ([result @ ("win" | "loss"), count], _) => number(count)
            .map_or(exact.to_string(), |plies| {
                conversion_text(*result == "win", plies)
            }),
        _ => exact.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::info::parse_info;

    fn push(lines: &mut RankedLines, text: &str) -> bool {
        lines.push(&parse_info(text).expect("an info line"))
    }

    fn shown_moves(lines: &RankedLines) -> Vec<String> {
        lines
            .shown()
            .iter()
            .map(|info| {
                format!(
                    "{}{}",
                    info.pv[0],
                    info.exact.as_deref().map_or("", |_| "!")
                )
            })
            .collect()
    }

    #[test]
    fn shows_the_last_whole_report_with_its_markers() {
        let mut lines = RankedLines::default();
        push(&mut lines, "info depth 1 multipv 1 score cp 10 pv a1");
        push(&mut lines, "info depth 1 multipv 2 score cp 5 pv b1");
        push(&mut lines, "info depth 1 multipv 3 score cp 1 pv c1");
        assert_eq!(shown_moves(&lines), ["a1", "b1", "c1"]);
        // A report half received: the lines before fill in the ranks beyond it, without
        // its moves; line 1 alone (mid-iteration) keeps the others.
        push(&mut lines, "info depth 2 multipv 1 score cp 9 pv a1");
        push(&mut lines, "info depth 2 multipv 1 score cp 9 pv a1");
        assert_eq!(shown_moves(&lines), ["a1", "b1", "c1"]);
        push(&mut lines, "info depth 2 multipv 1 score cp 9 pv b1");
        assert_eq!(shown_moves(&lines), ["b1", "c1"]);
        push(&mut lines, "info depth 2 multipv 2 score cp 4 pv a1");
        assert!(push(&mut lines, "info string proven cp 4"));
        push(&mut lines, "info depth 2 multipv 3 score cp 0 pv c1");
        assert_eq!(shown_moves(&lines), ["b1", "a1!", "c1"]);
        // Progress lines without a pv and other strings change nothing; a rank out of
        // order is ignored.
        assert!(!push(&mut lines, "info nodes 5 nps 5 time 1"));
        assert!(!push(&mut lines, "info string EndingsFile: none"));
        assert!(!push(&mut lines, "info depth 3 multipv 3 score cp 0 pv c1"));
        assert_eq!(shown_moves(&lines), ["b1", "a1!", "c1"]);
        // A single-line search: each line replaces the last, a marker marks it.
        let mut single = RankedLines::default();
        push(&mut single, "info depth 1 score cp 3 pv a1");
        push(&mut single, "info depth 2 score cp 2 pv b1");
        push(&mut single, "info string proven cp 2");
        assert_eq!(shown_moves(&single), ["b1!"]);
    }

    #[test]
    fn exact_values_read_as_text() {
        let points = ScoreUnits::Hundredths("points");
        let men = ScoreUnits::Hundredths("men");
        assert_eq!(
            exact_text("cp 300", Some(Score::Cp(300)), points),
            "+3.00 points"
        );
        assert_eq!(
            exact_text("win 7", Some(Score::Cp(99_993)), men),
            "win, converts in 7 plies"
        );
        assert_eq!(
            exact_text("loss 1", Some(Score::Cp(-99_999)), men),
            "loss, converted in 1 ply"
        );
        assert_eq!(exact_text("win 1", Some(Score::Mate(1)), men), "wins in 1");
        assert_eq!(exact_text("draw", Some(Score::Cp(0)), men), "draw");
        assert_eq!(
            exact_text("loss", Some(Score::Mate(-2)), ScoreUnits::WinRate),
            "loses in 2"
        );
    }
}
