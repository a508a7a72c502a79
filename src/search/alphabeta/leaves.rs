//! Where the search stops: quiescence over forcing moves, the static value of a quiet
//! leaf (slid towards a coming progress-rule draw), and the values of finished games
//! and draws.

use super::ranked::{Ranked, pick_best};
use super::{INFINITY, MATE, MAX_PLY, MAX_QUIESCENCE, TABLE_WIN, Worker};
use crate::game::Outcome;
use crate::search::game::{AlphaBetaGame, TableValue, Terminal};

impl<G: AlphaBetaGame> Worker<'_, G> {
    pub(super) fn terminal_value(&self, position: &G, ply: usize) -> i32 {
        self.outcome_value(position, position.outcome(), ply)
    }

    /// [`Self::terminal_value`] for an outcome already known (computing it can cost as
    /// much as an evaluation: Cheversi scores the whole board).
    pub(super) fn outcome_value(&self, position: &G, outcome: Option<Outcome>, ply: usize) -> i32 {
        match outcome.map(|outcome| position.terminal(outcome)) {
            Some(Terminal::Win) => MATE - ply as i32,
            Some(Terminal::Loss) => -MATE + ply as i32,
            Some(Terminal::Exact(value)) => value,
            Some(Terminal::Draw) | None => self.guarded(position, self.draw_value(position)),
        }
    }

    /// The score of a node the ending tables cover, `ply` plies from the root: a table
    /// win `TABLE_WIN` less the plies from the root to the converting capture (a loss the
    /// negation), a position without a move a lost game, a table draw the draw value
    /// and its tie-break.
    #[inline(always)]
    pub(super) fn table_score(&self, position: &G, ply: usize) -> Option<i32> {
        let value = position.table_value(self.tables)?;
        let ply = ply as i32;
        Some(match value {
            TableValue::Loss(0) => -MATE + ply,
            TableValue::Win(plies) => TABLE_WIN - ply - plies as i32,
            TableValue::Loss(plies) => -TABLE_WIN + ply + plies as i32,
            TableValue::Draw(tie_break) => {
                self.guarded(position, self.draw_value(position) + tie_break)
            }
        })
    }

    /// A draw from the side to move's view: `-contempt` for the engine's side.
    pub(super) fn draw_value(&self, position: &G) -> i32 {
        let contempt = self.contempt;
        if position.side_to_move() == self.root.side_to_move() {
            -contempt
        } else {
            contempt
        }
    }

    /// The static evaluation, slid towards the draw value (by at most
    /// [`ProgressRule::draw_fade_limit`]) over the last `fade_plies` plies before a
    /// progress-rule draw: an advantage that cannot turn into a capture in time is worth a
    /// draw, so the engine trades or captures while it still can instead of at the last
    /// ply (or never, when the draw lies beyond its horizon). Plies the armies need to come into contact
    /// do not count as time left ([`ProgressRule::plies_to_contact`]), which gives the
    /// engine a reason to close in while the draw is still beyond its horizon.
    /// `evaluation` is the static evaluation when the caller has it already.
    /// Inlined at the leaves, where it runs once per quiet leaf, with the fade itself
    /// (rare: only near the draw) out of line.
    #[inline(always)]
    pub(super) fn leaf_value(&self, position: &G, evaluation: Option<i32>) -> i32 {
        let value = evaluation.unwrap_or_else(|| position.evaluate());
        let fade = self.fade_plies;
        let value = match position.plies_to_draw() {
            Some(left) if left < fade => self.faded(position, value, left),
            _ => value,
        };
        self.guarded(position, value)
    }

    /// `value` (from the side to move's view) less what the material guard charges for
    /// the material the engine's side has given since the root
    /// ([`ProgressRule::material_guard`]): a leaf, a draw or a table draw. Wins and
    /// losses are exact and never charged.
    #[inline(always)]
    pub(super) fn guarded(&self, position: &G, value: i32) -> i32 {
        let Some(guard) = self.guard else {
            return value;
        };
        let engine = self.root.side_to_move();
        let Some(lead) = position.material_lead(engine) else {
            return value;
        };
        let given = guard.protected_lead - lead;
        if given <= 0 {
            return value;
        }
        let charge = guard.penalty * given;
        let draw = self.draw_value(position);
        if position.side_to_move() == engine {
            value.min(draw) - charge
        } else {
            value.max(draw) + charge
        }
    }

    /// [`Self::leaf_value`] of `value` with `left` plies before the draw, inside the fade.
    #[inline(never)]
    fn faded(&self, position: &G, value: i32, left: u32) -> i32 {
        let fade = self.fade_plies;
        let slack = left.saturating_sub(position.plies_to_contact());
        let limit = position.draw_fade_limit();
        let towards = (self.draw_value(position) - value).clamp(-limit, limit);
        value + towards * (fade - slack) as i32 / fade as i32
    }

    /// A running game's leaf value: exact within [`FixedLength::FINAL_LEAF_PLIES`] of the
    /// end (fail-soft in `alpha..beta`, the final move kept as the principal variation),
    /// else the static evaluation.
    fn final_leaf_value(&mut self, position: &G, alpha: i32, beta: i32, ply: usize) -> i32 {
        if position
            .plies_to_end()
            .is_some_and(|plies| plies <= G::FINAL_LEAF_PLIES)
            && let Some((mv, value)) = position.best_final_move(alpha, beta)
        {
            self.pv[ply].push(mv);
            return value;
        }
        position.evaluate()
    }

    pub(super) fn quiescence(
        &mut self,
        position: &G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        quiescence_depth: i32,
    ) -> i32 {
        self.pv[ply].clear();
        if self.count_node(ply) {
            return 0;
        }
        if ply > 0
            && let Some(value) = self.table_score(position, ply)
        {
            return value;
        }
        if !G::HAS_NOISY_MOVES {
            return match position.outcome() {
                outcome @ Some(_) => self.outcome_value(position, outcome, ply),
                None => self.final_leaf_value(position, alpha, beta, ply),
            };
        }
        let (has_quiet, evaluation) = position.noisy_moves_and_evaluation(&mut self.moves[ply]);
        if self.moves[ply].is_empty() {
            // No forcing move: the leaf's value, or the end of the game.
            if !has_quiet {
                return self.terminal_value(position, ply);
            }
            return self.leaf_value(position, evaluation);
        }
        let moves = std::mem::take(&mut self.moves[ply]);
        let mut order = std::mem::take(&mut self.order[ply]);
        order.clear();
        for (index, &mv) in moves.iter().enumerate() {
            order.push(Ranked::new(position.order_hint(mv), index));
        }
        let forced = !has_quiet;
        let mut best_value = -INFINITY;
        if !forced || quiescence_depth >= MAX_QUIESCENCE || ply >= MAX_PLY - 1 {
            best_value = self.leaf_value(position, evaluation);
            if best_value >= beta || quiescence_depth >= MAX_QUIESCENCE || ply >= MAX_PLY - 1 {
                self.moves[ply] = moves;
                self.order[ply] = order;
                return best_value;
            }
            alpha = alpha.max(best_value);
        }
        for number in 0..order.len() {
            pick_best(&mut order, number);
            let mv = moves[order[number].index()];
            let mut child = position.clone();
            child.play_unchecked(mv);
            let value = -self.quiescence(&child, -beta, -alpha, ply + 1, quiescence_depth + 1);
            if self.shared.aborted() {
                self.moves[ply] = moves;
                self.order[ply] = order;
                return 0;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    alpha = value;
                    self.extend_pv(ply, mv);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.order[ply] = order;
        best_value
    }
}
