//! The engine's search at a strength level ([`Strength`]): the game's full search with
//! one line per candidate move within the level's budget, then the draw among the lines
//! (see [`strength`](super::strength)).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::GameRecord;
use crate::search::{GameSearchResult, Score, SearchInfo, SearchLimits};

use super::strength::{Strength, centi_units, draw};
use super::{Engine, EngineGame, SearchRequest};

impl Engine {
    /// Plays one move of `request` at `strength`: the game's full search with one line
    /// per root move (or the level's number of best lines), within the level's budget, then the draw among the lines. Reports
    /// one `info` line: the move drawn and its score. `moves` are the legal moves.
    ///
    /// A level over every move (lines 0) draws among every legal move: a move the search
    /// left without a line (an MCTS visits only the children its budget reaches) counts as
    /// its worst line, so the draw at a high temperature is the uniform draw of `random`.
    pub(super) fn level_search<G: EngineGame>(
        &mut self,
        request: SearchRequest<'_, G>,
        strength: Strength,
        moves: &[G::Move],
    ) -> GameSearchResult<G::Move> {
        let SearchRequest {
            record,
            limits,
            stop,
            report,
        } = request;
        let position = record.position();
        let limits = SearchLimits {
            nodes: Some(
                limits
                    .nodes
                    .map_or(strength.nodes, |nodes| nodes.min(strength.nodes)),
            ),
            infinite: false,
            ..limits.clone()
        };
        let saved = self.options.clone();
        self.options.lines = match strength.lines {
            0 => moves.len(),
            lines => (lines as usize).min(moves.len()),
        };
        self.options.threads = 1;
        let mut lines: Vec<(String, Score)> = Vec::new();
        let mut found = self.level_lines(record, &limits, stop, &mut lines);
        if lines.is_empty() && !stop.load(Ordering::Relaxed) {
            // The budget did not cover one ply of every move: one ply, whatever it costs
            // (the time limits still apply).
            let one_ply = SearchLimits {
                depth: Some(1),
                nodes: None,
                ..limits.clone()
            };
            let first = found.nodes;
            found = self.level_lines(record, &one_ply, stop, &mut lines);
            found.nodes += first;
        }
        self.options = saved;
        let mut candidates: Vec<(G::Move, Score)> = lines
            .iter()
            .filter_map(|(text, score)| Some((position.parse_move(text).ok()?, *score)))
            .collect();
        let Some(&(_, worst)) = candidates
            .iter()
            .min_by_key(|(_, score)| centi_units(*score))
        else {
            return found;
        };
        if strength.lines == 0 {
            let reached: HashSet<G::Move> = candidates.iter().map(|&(line, _)| line).collect();
            candidates.extend(
                moves
                    .iter()
                    .filter(|legal| !reached.contains(legal))
                    .map(|&legal| (legal, worst)),
            );
        }
        let scores: Vec<i64> = candidates
            .iter()
            .map(|&(_, score)| centi_units(score))
            .collect();
        let chosen = draw(&scores, strength.temperature, &mut self.state.rng);
        let (best_move, score) = candidates[chosen];
        report(SearchInfo {
            depth: Some(found.depth),
            score: Some(score),
            nodes: found.nodes,
            pv: vec![position.move_text(best_move)],
            ..SearchInfo::default()
        });
        GameSearchResult {
            best_move: Some(best_move),
            ponder: None,
            score: Some(score),
            nodes: found.nodes,
            depth: found.depth,
        }
    }

    /// The game's full search of `record` under `limits` with one line per root move
    /// (the options set so by the caller), leaving the last complete set of lines
    /// reported (first move and score of each, the best first) in `lines`.
    fn level_lines<G: EngineGame>(
        &mut self,
        record: &GameRecord<G>,
        limits: &SearchLimits,
        stop: &AtomicBool,
        lines: &mut Vec<(String, Score)>,
    ) -> GameSearchResult<G::Move> {
        lines.clear();
        let mut collect = |info: SearchInfo| {
            let (Some(score), Some(first)) = (info.score, info.pv.first()) else {
                return;
            };
            if info.multipv.is_none_or(|rank| rank == 1) {
                lines.clear();
            }
            lines.push((first.clone(), score));
        };
        let request = SearchRequest {
            record,
            limits,
            stop,
            report: &mut collect,
        };
        G::full_search(self, request)
    }
}
