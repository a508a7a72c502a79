//! Several lines (`MultiPV`): each iteration searches the root once per line, each time
//! without the root moves of the lines found before it and with an aspiration window
//! around that line's value in the previous iteration; then it ranks the lines by value.
//! The first search of an iteration is the single-line search, so line 1 is what one line
//! would give (the table, filled by the other lines too, may only change which of two
//! equal moves comes first). A root searched without some of its moves stores nothing.

use std::time::Instant;

use super::{RootLine, Worker, pv_text, to_score};
use crate::search::SearchInfo;
use crate::search::game::AlphaBetaGame;

impl<G: AlphaBetaGame> Worker<'_, G> {
    /// One iteration at `depth` with [`Worker::with_lines`] lines: returns the best
    /// line's value and leaves its principal variation in `pv[0]`. Cut short, it leaves
    /// the lines of the last completed iteration, and `root_best` as the single-line
    /// search would (in the first line), or the first line of this iteration (after it).
    pub(super) fn search_lines(&mut self, root: &G, depth: i32, previous: i32) -> i32 {
        let mut found: Vec<RootLine<G::Move>> = Vec::with_capacity(self.wanted_lines);
        let mut value = previous;
        for index in 0..self.wanted_lines {
            let guess = self.lines.get(index).map_or(previous, |line| line.value);
            self.root_best = None;
            value = self.aspiration(root, depth, guess);
            if self.shared.aborted() {
                break;
            }
            let Some(&first) = self.pv[0].first() else {
                break;
            };
            found.push(RootLine {
                value,
                pv: self.pv[0].clone(),
            });
            self.excluded.push(first);
        }
        self.excluded.clear();
        let Some(best) = found.first() else {
            return value;
        };
        if self.shared.aborted() {
            self.root_best = best.pv.first().map(|&first| (first, best.value));
            return best.value;
        }
        // Stable: of equal values, the line found first stays first.
        found.sort_by_key(|line| std::cmp::Reverse(line.value));
        self.pv[0].clone_from(&found[0].pv);
        let value = found[0].value;
        self.lines = found;
        value
    }

    /// One `info` line per line of the last completed iteration (searched to `depth`),
    /// the best first, each with its rank.
    pub(super) fn report_lines(&mut self, depth: u32) {
        self.last_report = Instant::now();
        let counters = self.shared.info(self.nodes - self.flushed);
        let infos: Vec<SearchInfo> = self
            .lines
            .iter()
            .enumerate()
            .map(|(index, line)| SearchInfo {
                depth: Some(depth),
                seldepth: Some(self.seldepth as u32),
                multipv: Some(index as u32 + 1),
                score: Some(to_score(line.value)),
                pv: pv_text(&self.root, &line.pv),
                ..counters.clone()
            })
            .collect();
        if let Some(reporter) = self.reporter.as_mut() {
            for info in infos {
                reporter(info);
            }
        }
    }
}
