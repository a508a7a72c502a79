//! Move ordering for the alpha-beta worker: the table move and killers first (staged, so
//! a cut-off among them saves scoring the rest), then captures by hint, then quiet moves
//! by history plus hint.

use super::picker::MovePicker;
use super::ranked::{KILLER_SCORE, NOISY_SCORE, Ranked, TABLE_SCORE};
use super::{HISTORY_LIMIT, Worker};
use crate::search::game::AlphaBetaGame;

fn update_history(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_LIMIT;
}

impl<G: AlphaBetaGame> Worker<'_, G> {
    pub(super) fn reward_quiet(
        &mut self,
        position: &G,
        mv: G::Move,
        depth: i32,
        ply: usize,
        picker: &MovePicker<G::Move>,
    ) {
        let (moves, tried) = (&picker.moves, &picker.tried);
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        let slot = position.history_index(mv);
        update_history(&mut self.history[slot], bonus);
        for &index in tried {
            let slot = position.history_index(moves[index]);
            update_history(&mut self.history[slot], -bonus);
        }
    }

    /// The moves tried before any other is scored: the table move, then the killers that
    /// are legal quiet moves here. A cut-off among them saves scoring the rest, which is
    /// most of a node's cost when it has many moves.
    pub(super) fn first_moves(
        &self,
        position: &G,
        moves: &[G::Move],
        table_move: Option<usize>,
        ply: usize,
        order: &mut Vec<Ranked>,
    ) {
        order.clear();
        if let Some(index) = table_move {
            order.push(Ranked::new(TABLE_SCORE, index));
        }
        let killers = self.killers[ply];
        if killers[0].is_none() {
            return;
        }
        // One tight search per killer (legal move lists never repeat a move).
        let found =
            killers.map(|killer| killer.and_then(|killer| position.find_move(moves, killer)));
        for (slot, index) in found.into_iter().enumerate() {
            if let Some(index) = index
                && Some(index) != table_move
                && !position.is_noisy(moves[index])
            {
                order.push(Ranked::new(KILLER_SCORE - slot as i32, index));
            }
        }
    }

    /// [`Self::first_moves`] for a position whose moves are not listed yet (all moves
    /// quiet: [`StagedMoves::quiet_move_count`]; the table move, if any, known by its code):
    /// `moves` receives the table move and the killers that are legal here, and `order`
    /// points at them, in the same order.
    pub(super) fn staged_first_moves(
        &self,
        position: &G,
        table_move: Option<G::Move>,
        ply: usize,
        moves: &mut Vec<G::Move>,
        order: &mut Vec<Ranked>,
    ) {
        moves.clear();
        order.clear();
        let table_move = table_move.filter(|&mv| position.is_legal_quiet(mv));
        if let Some(mv) = table_move {
            order.push(Ranked::new(TABLE_SCORE, 0));
            moves.push(mv);
        }
        for (slot, killer) in self.killers[ply].into_iter().enumerate() {
            if let Some(killer) = killer
                && Some(killer) != table_move
                && position.is_legal_quiet(killer)
            {
                order.push(Ranked::new(KILLER_SCORE - slot as i32, moves.len()));
                moves.push(killer);
            }
        }
    }

    /// Appends every move not among the first `tried` entries of `order`, scored:
    /// forcing moves by their hint, quiet ones by history plus hint.
    pub(super) fn score_rest(
        &mut self,
        position: &G,
        moves: &[G::Move],
        tried: usize,
        order: &mut Vec<Ranked>,
    ) {
        let mut hints = std::mem::take(&mut self.hints);
        position.order_hints(moves, &mut hints);
        for (index, (&mv, &hint)) in moves.iter().zip(&hints).enumerate() {
            if order[..tried].iter().any(|first| first.index() == index) {
                continue;
            }
            let hint = hint.clamp(-1 << 20, 1 << 20);
            let score = if position.is_noisy(mv) {
                NOISY_SCORE + hint
            } else {
                self.history[position.history_index(mv)] + hint
            };
            order.push(Ranked::new(score, index));
        }
        self.hints = hints;
    }
}
