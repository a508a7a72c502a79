//! The search of one node: table probe and cut-off, the moves in the picker's order with
//! principal variation search, late move reductions and the single-reply extension, and
//! the store of the result.

use super::picker::MovePicker;
use super::ranked::KILLER_SCORE;
use super::{INFINITY, MATE, MAX_PLY, MAX_TRIED, TABLE_BOUND, Worker};
use crate::search::game::AlphaBetaGame;
use crate::search::tt::{Bound, Entry, TableMove};

fn to_table(value: i32, ply: usize) -> i32 {
    if value >= TABLE_BOUND {
        value + ply as i32
    } else if value <= -TABLE_BOUND {
        value - ply as i32
    } else {
        value
    }
}

fn from_table(value: i32, ply: usize) -> i32 {
    if value >= TABLE_BOUND {
        value - ply as i32
    } else if value <= -TABLE_BOUND {
        value + ply as i32
    } else {
        value
    }
}

impl<G: AlphaBetaGame> Worker<'_, G> {
    pub(super) fn search(
        &mut self,
        position: &G,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(position, alpha, beta, ply, 0);
        }
        if self.count_node(ply) {
            return 0;
        }
        let key = position.hash();
        let plies_to_draw = position.plies_to_draw();
        if ply > 0 {
            if let Some(value) = self.decided_value(position, key, plies_to_draw, ply) {
                return value;
            }
            if let Some(value) = self.table_score(position, ply) {
                return value;
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let exact = position
            .plies_to_end()
            .is_some_and(|plies| plies as i32 <= depth);
        if exact
            && ply > 0
            && let Some((mv, value)) = position.best_final_move(alpha, beta)
        {
            self.pv[ply].push(mv);
            return value;
        }
        let key = table_key(key, plies_to_draw, depth) ^ self.guard_key;
        let entry = if depth > 1 {
            self.shared.table.probe(key)
        } else {
            None
        };
        if let Some(entry) = entry
            && !pv_node
            && let Some(value) = self.table_cut(entry, depth, (alpha, beta), ply)
        {
            return value;
        }
        let mut picker = self.lend_picker(ply);
        let move_count = self.start_moves(position, entry, ply, &mut picker);
        if move_count == 0 {
            self.return_picker(ply, picker);
            return self.terminal_value(position, ply);
        }
        let extension = i32::from(
            self.config.extensions && move_count == 1 && ply < 2 * self.root_depth as usize,
        );
        let original_alpha = alpha;
        let mut best_value = -INFINITY;
        let mut best_index = None;
        // Root moves left out (the lines already found, `MultiPV`) are not counted.
        let mut skipped = 0;
        while let Some((number, ranked)) = self.next_move(position, &mut picker, &mut best_index) {
            let (order_score, index) = (ranked.score(), ranked.index());
            let mv = picker.moves[index];
            if ply == 0 && self.excluded.contains(&mv) {
                skipped += 1;
                continue;
            }
            let number = number - skipped;
            let noisy = position.is_noisy(mv);
            let mut child = position.clone();
            child.play_unchecked(mv);
            self.hashes.push(child.hash());
            let new_depth = depth - 1 + extension;
            let value = if number == 0 {
                -self.child_search(&child, new_depth, -beta, -alpha, ply + 1, pv_node)
            } else {
                let reducible = !exact && !noisy && order_score < KILLER_SCORE - 1;
                let reduction = self.reduction(depth, number, pv_node, reducible);
                self.later_move_value(&child, new_depth, reduction, (alpha, beta), ply, pv_node)
            };
            self.hashes.pop();
            if self.shared.aborted() {
                self.return_picker(ply, picker);
                return 0;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_index = Some(index);
                    alpha = value;
                    if ply == 0 {
                        self.root_best = Some((mv, value));
                    }
                    self.extend_pv(ply, mv);
                    if value >= beta {
                        if !noisy {
                            self.reward_quiet(position, mv, depth, ply, &picker);
                        }
                        break;
                    }
                }
            }
            if !noisy && picker.tried.len() < MAX_TRIED {
                picker.tried.push(index);
            }
        }
        // A root searched without some of its moves has no value of its own to store.
        if depth > 1 && (ply > 0 || self.excluded.is_empty()) {
            let window = (original_alpha, beta);
            self.store(
                position,
                key,
                (ply, depth),
                window,
                (best_value, best_index),
                &mut picker,
            );
        }
        self.return_picker(ply, picker);
        best_value
    }

    /// The value of a node below the root that its history or the progress rule already
    /// decides (a repetition, the draw-rule count run out), before its moves are looked at.
    #[inline(always)]
    fn decided_value(
        &self,
        position: &G,
        key: u64,
        plies_to_draw: Option<u32>,
        ply: usize,
    ) -> Option<i32> {
        if self.is_repetition(key, position.repetition_window()) {
            return Some(self.guarded(position, self.draw_value(position)));
        }
        if plies_to_draw == Some(0) {
            return Some(self.terminal_value(position, ply));
        }
        None
    }

    /// The table's value for a node searched to `depth` when it settles the node within
    /// `window` (an exact value, or a bound beyond the window), else `None`.
    #[inline(always)]
    fn table_cut(
        &self,
        entry: Entry,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
    ) -> Option<i32> {
        if entry.depth != depth && (self.config.strict_table_depth || entry.depth < depth) {
            return None;
        }
        let value = from_table(entry.score, ply);
        let cut = match entry.bound {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        };
        cut.then_some(value)
    }

    /// Late move reduction of the `number`th move (from 0) of a node at `depth`; only
    /// `reducible` moves (quiet, below the killers, outside an exact search) are reduced.
    #[inline(always)]
    fn reduction(&self, depth: i32, number: usize, pv_node: bool, reducible: bool) -> i32 {
        if self.config.reductions && reducible && depth >= 3 && number >= 3 {
            1 + i32::from(depth >= 6 && number >= 8) + i32::from(!pv_node && number >= 16)
        } else {
            0
        }
    }

    /// The value of a move after the first (principal variation search): a null window at
    /// the reduced depth, again at full depth when it beats alpha after a reduction, and
    /// with the full window in a PV node when it falls inside it.
    #[inline(always)]
    fn later_move_value(
        &mut self,
        child: &G,
        new_depth: i32,
        reduction: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        let mut value = -self.child_search(
            child,
            (new_depth - reduction).max(0),
            -alpha - 1,
            -alpha,
            ply + 1,
            false,
        );
        if value > alpha && reduction > 0 {
            value = -self.child_search(child, new_depth, -alpha - 1, -alpha, ply + 1, false);
        }
        if value > alpha && value < beta && pv_node {
            value = -self.child_search(child, new_depth, -beta, -alpha, ply + 1, true);
        }
        value
    }

    /// Stores a node's result in the table: its bound from where `value` fell in the
    /// node's `window`, and its best move by code, or by index in the full move list.
    #[inline(always)]
    fn store(
        &self,
        position: &G,
        key: u64,
        (ply, depth): (usize, i32),
        (alpha, beta): (i32, i32),
        (value, best_index): (i32, Option<usize>),
        picker: &mut MovePicker<G::Move>,
    ) {
        let bound = if value >= beta {
            Bound::Lower
        } else if value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let table_move = best_index.and_then(|index| {
            let best = picker.moves[index];
            if let Some(code) = position.move_code(best) {
                return Some(TableMove::Code(code));
            }
            if picker.listed {
                return Some(TableMove::Index(index));
            }
            // The table keeps the index in the full list.
            position.legal_moves(&mut picker.moves);
            position
                .find_move(&picker.moves, best)
                .map(TableMove::Index)
        });
        self.shared.table.store(
            key,
            Entry {
                score: to_table(value, ply),
                depth,
                bound,
                table_move,
            },
        );
    }

    /// [`Self::search`] of a child, straight into quiescence at the horizon (as `search`
    /// itself would go): most children are leaves, and the full search's frame costs more
    /// to set up than a quiet leaf costs to evaluate.
    #[inline(always)]
    fn child_search(
        &mut self,
        child: &G,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(child, alpha, beta, ply, 0);
        }
        self.search(child, depth, alpha, beta, ply, pv_node)
    }
}

/// Quiet plies beyond the nominal depth a search may still play (single-reply
/// extensions), for [`table_key`].
const DRAW_KEY_MARGIN: i32 = 4;

/// The table key of a position searched to `depth`: its hash, but mixed with the plies
/// left before a progress-rule draw when the search can reach that draw, since the value
/// then depends on the count (a value found far from the limit must not be reused at it).
#[inline]
fn table_key(hash: u64, plies_to_draw: Option<u32>, depth: i32) -> u64 {
    match plies_to_draw {
        Some(left) if (left as i32) <= depth + DRAW_KEY_MARGIN => {
            hash ^ (u64::from(left) + 1).wrapping_mul(0xd6e8_feb8_6659_fd93)
        }
        _ => hash,
    }
}
