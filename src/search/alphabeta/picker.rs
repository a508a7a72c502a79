//! The move picker of one alpha-beta node: which move the search tries next. The table
//! move and the killers come first (in games that stage, before the other moves are even
//! listed, so a cut-off among them saves listing and scoring the rest), then every other
//! move by its order score.

use super::Worker;
use super::ranked::{Ranked, pick_best};
use crate::search::game::AlphaBetaGame;
use crate::search::tt::{Entry, TableMove};

/// One node's moves and how far the search got through them. The buffers are the
/// worker's, lent for the node ([`Worker::lend_picker`]) and given back after it
/// ([`Worker::return_picker`]), so no node allocates.
pub(super) struct MovePicker<M> {
    /// The legal moves once `listed`; until then only the staged ones.
    pub(super) moves: Vec<M>,
    order: Vec<Ranked>,
    /// The quiet moves searched so far (indices into `moves`), whose history a cut-off
    /// lowers.
    pub(super) tried: Vec<usize>,
    /// True once `moves` holds every legal move.
    pub(super) listed: bool,
    /// True once every move has an entry in `order`.
    scored_all: bool,
    /// How many moves were handed out so far.
    handed_out: usize,
}

/// The table move of a node, in the form the search can use it.
#[derive(Copy, Clone, Debug)]
enum TableHint<M> {
    /// No table move, or a code that names no move of this game.
    Missing,
    /// A move decoded from its code: it can be tried before the moves are listed.
    Decoded(M),
    /// An index into the full move list: usable only once the moves are listed.
    Index(usize),
}

impl<G: AlphaBetaGame> Worker<'_, G> {
    /// The buffers of `ply`, cleared, as a picker with nothing handed out.
    #[inline(always)]
    pub(super) fn lend_picker(&mut self, ply: usize) -> MovePicker<G::Move> {
        let mut tried = std::mem::take(&mut self.tried[ply]);
        tried.clear();
        MovePicker {
            moves: std::mem::take(&mut self.moves[ply]),
            order: std::mem::take(&mut self.order[ply]),
            tried,
            listed: false,
            scored_all: false,
            handed_out: 0,
        }
    }

    /// Gives the buffers of [`Self::lend_picker`] back for the next node at `ply`.
    #[inline(always)]
    pub(super) fn return_picker(&mut self, ply: usize, picker: MovePicker<G::Move>) {
        self.moves[ply] = picker.moves;
        self.order[ply] = picker.order;
        self.tried[ply] = picker.tried;
    }

    /// Sets up the first moves of `position` (the table move of its table `entry`, then
    /// the killers) and returns the number of legal moves, 0 when the game is over.
    /// Unless the table move is known only by its index, a game that stages counts its
    /// moves without listing them, and `picker.moves` holds only the staged ones (see
    /// `list_after_staged`).
    #[inline(always)]
    pub(super) fn start_moves(
        &self,
        position: &G,
        entry: Option<Entry>,
        ply: usize,
        picker: &mut MovePicker<G::Move>,
    ) -> usize {
        let table_move = entry.and_then(|entry| entry.table_move);
        let staged_count = match table_move {
            None | Some(TableMove::Code(_)) => position.quiet_move_count(),
            Some(TableMove::Index(_)) => None,
        };
        picker.listed = staged_count.is_none();
        let move_count = staged_count.unwrap_or_else(|| {
            position.legal_moves(&mut picker.moves);
            picker.moves.len()
        });
        if move_count == 0 {
            return 0;
        }
        let hint = match table_move {
            None => TableHint::Missing,
            Some(TableMove::Index(index)) => TableHint::Index(index),
            Some(TableMove::Code(code)) => position
                .decode_move(code)
                .map_or(TableHint::Missing, TableHint::Decoded),
        };
        if picker.listed {
            let table_index = match hint {
                TableHint::Missing => None,
                TableHint::Index(index) => (index < picker.moves.len()).then_some(index),
                TableHint::Decoded(mv) => position.find_move(&picker.moves, mv),
            };
            self.first_moves(position, &picker.moves, table_index, ply, &mut picker.order);
        } else {
            let table_move = match hint {
                TableHint::Decoded(mv) => Some(mv),
                TableHint::Missing | TableHint::Index(_) => None,
            };
            self.staged_first_moves(
                position,
                table_move,
                ply,
                &mut picker.moves,
                &mut picker.order,
            );
        }
        move_count
    }

    /// The next move to search, with how many came before it, or `None` when every move
    /// was handed out. Once the first moves are used up it lists the moves (if they were
    /// staged: `best` is moved to the best move's place in the full list) and scores the
    /// rest.
    #[inline(always)]
    pub(super) fn next_move(
        &mut self,
        position: &G,
        picker: &mut MovePicker<G::Move>,
        best: &mut Option<usize>,
    ) -> Option<(usize, Ranked)> {
        let number = picker.handed_out;
        if number == picker.order.len() {
            if picker.scored_all {
                return None;
            }
            if !picker.listed {
                list_after_staged(
                    position,
                    &mut picker.moves,
                    &mut picker.order,
                    &mut picker.tried,
                    best,
                );
                picker.listed = true;
            }
            picker.scored_all = true;
            self.score_rest(position, &picker.moves, number, &mut picker.order);
            if number == picker.order.len() {
                return None;
            }
        }
        pick_best(&mut picker.order, number);
        picker.handed_out += 1;
        Some((number, picker.order[number]))
    }
}

/// Lists the legal moves once the staged moves (all of `moves`: the table move and the
/// killers, at most three) failed to cut, and points the entries of `order`, `tried` and
/// `best` at their places in the full list, so the search goes on exactly as if it had
/// listed the moves at once.
pub(super) fn list_after_staged<G: AlphaBetaGame>(
    position: &G,
    moves: &mut Vec<G::Move>,
    order: &mut [Ranked],
    tried: &mut [usize],
    best: &mut Option<usize>,
) {
    debug_assert!(moves.len() <= 3);
    let staged: [Option<G::Move>; 3] = std::array::from_fn(|index| moves.get(index).copied());
    position.legal_moves(moves);
    let place = |index: usize| {
        staged[index]
            .and_then(|mv| position.find_move(moves, mv))
            .expect("a staged move is a legal move")
    };
    for entry in order.iter_mut() {
        *entry = entry.with_index(place(entry.index()));
    }
    for index in tried.iter_mut().chain(best) {
        *index = place(*index);
    }
}
