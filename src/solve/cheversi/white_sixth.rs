//! White's 6th placement (six placements left), its children valued without nodes of
//! their own where Black's 6th killer refutes them.
//!
//! A White node six placements before the end mostly fails low: every White 6th
//! placement is refuted, nearly always by the same Black 6th placement, and the White
//! node after that reply is settled by White's 7th pass (`white_seventh`) without a
//! child searched. So each White 6th placement is answered here with Black's 6th killer
//! and valued by that pass directly, with no search node for the two positions in
//! between. The position after White's 6th is still looked up and stored (a quarter of
//! them are met again, by White's 5th and 6th placements in the other order); the one
//! after Black's reply is not (almost never met again). The placements the killer does
//! not refute go to the search.

use super::super::search::{Child, Solvable, Staged};
use super::super::table::SolveTable;
use super::ending::Scratch;
use super::state::{CheversiState, VALUE_BOUND};

/// Nodes the search would have counted for a White 6th placement settled here besides
/// those of the 7th pass: the position after it and the one after Black's killer.
const NODES_PER_SETTLED_CHILD: u64 = 2;

impl CheversiState {
    /// White's 6th placements (six left) but those in `tried`: each answered by Black's
    /// 6th killer and valued by White's 7th pass at `alpha`; a placement whose 7th pass
    /// settles every child is worth at most the largest of their values, the others go
    /// into `children` (cleared first) for the search. Returns the largest value at or
    /// below `alpha` found (`None` when none).
    pub(super) fn sixth_children_above(
        &self,
        alpha: i32,
        tried: Staged,
        children: &mut Vec<Child<Self>>,
        scratch: &mut Scratch,
        table: &SolveTable,
        nodes: &mut u64,
    ) -> Option<i32> {
        self.children(children);
        let killer = scratch.sixth_killer?;
        let mut settled = None;
        // In the search's order (the largest gain first), stopping at the first child
        // the killer does not refute: the search values it first and the rest only if it
        // does not cut.
        children.sort_by_key(|child| std::cmp::Reverse(child.order));
        let mut stopped = false;
        children.retain(|child| {
            if stopped {
                return true;
            }
            let sixth = &child.position;
            if tried.contains(&self.move_code(child.mv)) {
                return true;
            }
            // Black's view of the position after White's 6th placement.
            let key = sixth.key();
            if let Some(entry) = table.probe(key) {
                if -i32::from(entry.lower) <= alpha {
                    *nodes += 1;
                    settled = settled.max(Some(-i32::from(entry.lower)));
                    return false;
                }
                if -i32::from(entry.upper) > alpha {
                    return true;
                }
            }
            if !sixth.position.is_legal(killer) {
                return true;
            }
            let gain = sixth.gain(killer);
            let reply = sixth.after(killer, gain);
            let before = *nodes;
            let pass = reply.seventh_pass(alpha, [0; 3], scratch, nodes);
            if pass.above.is_some() {
                stopped = true;
                return true;
            }
            let Some(value) = pass.settled else {
                stopped = true;
                return true;
            };
            *nodes += NODES_PER_SETTLED_CHILD;
            let work = (64 - (*nodes - before).leading_zeros()) as u8;
            table.store(key, -value, VALUE_BOUND, sixth.move_code(killer), work);
            settled = settled.max(Some(value));
            false
        });
        settled
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::search::{Shared, Worker};
    use super::super::random_board;
    use super::*;
    use crate::game::Rules;
    use crate::game::cheversi::Move;
    use crate::random::SplitMix64;

    /// White's 6th pass on random boards six placements before the end, with Black's best
    /// reply to one White 6th placement as the 6th killer and windows around the true
    /// value: every child it leaves out is worth at most `alpha` and at most the value it
    /// returns (which meets the largest of them on some boards, so a value a point lower
    /// fails here), and every entry it stores for the position after White's 6th
    /// placement bounds Black's true value there. The truth is each child solved by the
    /// search, which values its own children by White's 7th pass (tested against
    /// minimax) and not by this pass. With the table of those solves at hand, children
    /// are settled from it as well.
    #[test]
    fn children_left_out_are_worth_at_most_alpha_and_stored_bounds_hold() {
        let mut rng = SplitMix64::new(606);
        let (mut settled, mut exact, mut from_table) = (0, 0, 0);
        for round in 0..12 {
            let board = random_board(&mut rng, 10);
            let state = CheversiState::new(board.clone());
            let mut sixths = Vec::new();
            board.legal_moves(&mut sixths);
            let solved = Shared::new(16);
            let truths: Vec<(Move, i32)> = sixths
                .iter()
                .map(|&sixth| {
                    let mut child = board.clone();
                    child.play_unchecked(sixth);
                    let value = Worker::new(&solved, 0)
                        .exact(&CheversiState::new(child), 0)
                        .expect("a solve without a stop");
                    (sixth, -value)
                })
                .collect();
            let best = truths.iter().map(|&(_, value)| value).max().expect("moves");
            // Black's best reply to a random White 6th placement: the table's move there.
            let (sixth, _) = truths[rng.below(truths.len())];
            let after = state.after(sixth, state.gain(sixth));
            let code = solved
                .table
                .probe(after.key())
                .expect("a solved position is stored")
                .best;
            let killer = after.child_by_code(code).map(|child| child.mv);
            let alpha = best + [-3, -1, 0, 1, 4][round % 5];
            for table in [SolveTable::new(1), solved.table] {
                let mut scratch = Scratch::default();
                scratch.sixth_killer = killer;
                let mut children = Vec::new();
                let mut nodes = 0;
                let value = state.sixth_children_above(
                    alpha,
                    [0; 3],
                    &mut children,
                    &mut scratch,
                    &table,
                    &mut nodes,
                );
                let mut largest = None;
                for &(sixth, truth) in &truths {
                    let child = state.after(sixth, state.gain(sixth));
                    if let Some(entry) = table.probe(child.key()) {
                        let black = -truth;
                        assert!(
                            i32::from(entry.lower) <= black && black <= i32::from(entry.upper),
                            "{board:?} {sixth}: {entry:?} against {black}"
                        );
                    }
                    if children.iter().any(|child| child.mv == sixth) {
                        continue;
                    }
                    let value = value.expect("a child left out has a value");
                    assert!(truth <= value, "{board:?} {sixth}: {truth} > {value}");
                    assert!(value <= alpha, "{board:?}: {value} above alpha {alpha}");
                    largest = largest.max(Some(truth));
                    settled += 1;
                    from_table += usize::from(table.stored() > 1000);
                }
                exact += usize::from(largest.is_some() && largest == value);
            }
        }
        assert!(settled > 300, "{settled} children settled");
        assert!(exact > 2, "{exact} values met the largest child");
        assert!(
            from_table > 100,
            "{from_table} children settled with the solves' table"
        );
    }
}
