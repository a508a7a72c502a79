//! The exact search, written once for every game the solver handles: fail-soft alpha-beta
//! over exact values (Catchup: +1 win, -1 loss; Cheversi: the final margin in points), with
//! a table of proven bounds ([`SolveTable`]), the table's move and the ply's two killers
//! tried first (each built alone, before the other children are generated: at a node that
//! one of them cuts, the generation is saved), the other children ordered by the game's
//! cheap knowledge, and enhanced transposition cutoffs (a child already known to refute the
//! parent's window ends the node before any search).
//!
//! A value is found with null windows: win/draw/loss is one search of the window
//! `(-1, 1)`, an exact margin is MTD(f) (null-window searches that move a bound towards
//! the value until both meet). Threads share the table and run the same search, each
//! putting off the children another is searching; the first answer stops the others
//! (an unfinished search stores nothing, so the table holds only proven facts).

use std::fmt::Debug;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::table::{Key, SolveTable, mix};

/// A game position the solver can search: exact values, children with an ordering
/// score, and a key that names the position exactly.
pub trait Solvable: Clone + Send + Sync + 'static {
    type Move: Copy + Eq + Debug + Send + Sync + 'static;

    /// The exact value of a finished game for the side to move; `None` while it runs.
    fn final_value(&self) -> Option<i32>;

    /// Every legal move with the position after it and an ordering score (higher is tried
    /// first), into `children` (cleared first).
    fn children(&self, children: &mut Vec<Child<Self>>);

    /// The position's exact name for the table (after symmetries, if the game uses them).
    fn key(&self) -> Key;

    /// [`Solvable::children`] but those the game values itself at or below `alpha` and
    /// those named in `tried` (searched already); returns the largest value of those it
    /// valued, `None` when none. Children it leaves in the list are searched as usual.
    /// It adds to `nodes` what the search would have counted for the children it valued.
    /// Cheversi values White's 7th placements so (most are refuted by Black's killer
    /// through a bound, without a position built), the others by its shortcut of Black's
    /// 7th placement, which the search would call for them anyway; and White's 6th
    /// placements answered by Black's 6th killer, looking up and storing in `table` the
    /// positions after them as the search would.
    fn children_above(
        &self,
        _alpha: i32,
        _tried: Staged,
        children: &mut Vec<Child<Self>>,
        _scratch: &mut Self::Scratch,
        _table: &SolveTable,
        _nodes: &mut u64,
    ) -> Option<i32> {
        self.children(children);
        None
    }

    /// The key that tells the root's moves apart: two moves whose positions share it are
    /// symmetric, and one of them is solved for both. The table key by default.
    fn root_key(&self) -> Key {
        self.key()
    }

    /// A non-zero code naming `mv` among this position's moves.
    fn move_code(&self, mv: Self::Move) -> u32;

    /// The child after the move named `code` when that move is legal here. The search
    /// tries the table's move and the killers this way before it generates every child
    /// (a cut by one of them saves the generation); `None` always is correct, only slower.
    /// The child is searched at once, never sorted, so its `order` is not read.
    fn child_by_code(&self, _code: u32) -> Option<Child<Self>> {
        None
    }

    /// The canonical text of `mv` (the engine's move notation).
    fn move_text(&self, mv: Self::Move) -> String;

    /// Plies or cells left: how far the end is, for the table and cut-off thresholds.
    fn remaining(&self) -> u32;

    /// Every value lies within `-value_bound()..=value_bound()`.
    fn value_bound(&self) -> i32;

    /// What a thread's [`Solvable::shortcut`] keeps between calls (Cheversi: the facts
    /// its sibling positions share); `()` for none.
    type Scratch: Default + Send;

    /// The value, fail-soft within `alpha..beta`, when the game has a shortcut cheaper
    /// than the search (Cheversi's last three placements). It adds to `nodes` the
    /// positions it settled below this one (each counted as the search would).
    fn shortcut(
        &self,
        _alpha: i32,
        _beta: i32,
        _scratch: &mut Self::Scratch,
        _nodes: &mut u64,
    ) -> Option<i32> {
        None
    }

    /// An estimate of the value, where MTD(f) starts (a start near the value saves the
    /// costly windows on either side); 0 by default. A slow estimate ends early once
    /// `stop` is set (the solve is stopped then anyway).
    fn guess(&self, _stop: &AtomicBool) -> i32 {
        0
    }

    /// Positions with fewer [`Solvable::remaining`] than this are searched without the
    /// table (they are cheaper to search than to look up).
    const TABLE_MIN_REMAINING: u32 = 2;

    /// Below this many remaining plies or cells, no enhanced transposition cut-off is
    /// tried (it computes every child's key, which costs more than it saves near the end).
    const ETC_MIN_REMAINING: u32 = 12;

    /// With several threads, a node with at least this many remaining marks itself as
    /// being searched, and a node with more puts such children off until its others are
    /// searched ([`Shared::mark_busy`]); `u32::MAX` for never (the threads then share
    /// only the table, and mostly search the same subtrees side by side).
    const DEFER_MIN_REMAINING: u32 = u32::MAX;
}

/// The codes of the moves a node searched before it generated its children: the table's
/// move and the ply's two killers (0 for none).
pub type Staged = [u32; 3];

/// The table's move and then the killers, in the order they are tried.
fn tried_first(table_move: u32, killers: [u32; 2]) -> Staged {
    [table_move, killers[0], killers[1]]
}

/// A move, the position it leads to and its ordering score.
#[derive(Clone, Debug)]
pub struct Child<G: Solvable> {
    pub mv: G::Move,
    pub position: G,
    pub order: i32,
}

/// What all threads share: the table, the node count, the stop flag and the marks of the
/// nodes being searched.
#[derive(Debug)]
pub struct Shared {
    pub table: SolveTable,
    pub nodes: AtomicU64,
    pub stop: AtomicBool,
    pub start: Instant,
    /// Stop once this many nodes are counted (checked when a worker flushes its count,
    /// every 4096 nodes, so one thread stops at the same node every time).
    pub node_limit: Option<u64>,
    /// Set while several threads search: only then are nodes marked in `busy`.
    pub parallel: AtomicBool,
    /// The nodes some thread is searching now, a mark (the key mixed, never 0) per slot.
    /// A thread that meets one of them among a node's children searches the node's other
    /// children first, so that the two threads part ways instead of searching the same
    /// subtree side by side, and by the time it comes back the answer is mostly in the
    /// table (ABDADA's deferral). A mark is a hint: a slot taken by another key leaves a
    /// node unmarked, which only costs that node's sharing.
    busy: Box<[AtomicU64]>,
}

impl Shared {
    pub fn new(megabytes: usize) -> Self {
        Shared {
            table: SolveTable::new(megabytes),
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            start: Instant::now(),
            node_limit: None,
            parallel: AtomicBool::new(false),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The slot of `key` in `busy` and its mark there.
    fn busy_slot(&self, key: Key) -> (&AtomicU64, u64) {
        let mixed = mix(key) as u64;
        (&self.busy[mixed as usize % BUSY_SLOTS], mixed | 1)
    }

    /// Marks the position of `key` as being searched until the mark is dropped (no mark
    /// when its slot holds another's).
    pub fn mark_busy(&self, key: Key) -> BusyMark<'_> {
        let (slot, mark) = self.busy_slot(key);
        let taken = slot
            .compare_exchange(0, mark, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok();
        BusyMark {
            slot: taken.then_some(slot),
        }
    }

    /// Whether some thread is searching the position of `key` now.
    pub fn is_busy(&self, key: Key) -> bool {
        let (slot, mark) = self.busy_slot(key);
        slot.load(Ordering::Relaxed) == mark
    }

    /// Ready for another solve with the same table (the engine keeps its proven facts
    /// between moves): counters cleared, the clock restarted, `node_limit` set.
    pub fn restart(&mut self, node_limit: Option<u64>) {
        self.nodes = AtomicU64::new(0);
        self.stop = AtomicBool::new(false);
        self.start = Instant::now();
        self.node_limit = node_limit;
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Slots of [`Shared::busy`]: far more than the nodes all threads have open at once.
const BUSY_SLOTS: usize = 1 << 16;

/// A node's mark ([`Shared::mark_busy`]), taken off when it is dropped (when the node is
/// done, whichever way it returns).
pub struct BusyMark<'a> {
    slot: Option<&'a AtomicU64>,
}

impl Drop for BusyMark<'_> {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            // Only its own mark: the slot is never taken by another while it is held.
            slot.store(0, Ordering::Relaxed);
        }
    }
}

/// Deepest ply the buffers hold (Catchup side 5 has 61 cells, Cheversi 16 placements).
const MAX_PLY: usize = 64;

/// One thread's search: buffers per ply and a node count flushed into [`Shared`].
pub struct Worker<'a, G: Solvable> {
    shared: &'a Shared,
    children: Vec<Vec<Child<G>>>,
    /// Per ply, the indices of the children put off because another thread was searching
    /// them ([`Shared::busy`]).
    deferred: Vec<Vec<usize>>,
    nodes: u64,
    flushed: u64,
    /// 0 for the first thread; the others stage no move near the root (see `search`).
    thread_index: usize,
    /// Per ply, the codes of the last two moves that cut off there, the newest first
    /// (tried after the table's: the second one refutes much of what the first does not).
    killers: Vec<[u32; 2]>,
    /// The root move of the last search that reached its `beta` (or else its best); `None`
    /// when that search answered at the root without trying a move.
    pub root_best: Option<G::Move>,
    /// The game's memory for [`Solvable::shortcut`].
    scratch: G::Scratch,
}

impl<'a, G: Solvable> Worker<'a, G> {
    pub fn new(shared: &'a Shared, thread_index: usize) -> Self {
        Worker {
            shared,
            children: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            deferred: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            nodes: 0,
            flushed: 0,
            thread_index,
            killers: vec![[0; 2]; MAX_PLY + 1],
            root_best: None,
            scratch: G::Scratch::default(),
        }
    }

    pub fn shared(&self) -> &'a Shared {
        self.shared
    }

    /// Adds this worker's unflushed nodes to the shared count.
    pub fn flush(&mut self) {
        let added = self.nodes - self.flushed;
        let total = self.shared.nodes.fetch_add(added, Ordering::Relaxed) + added;
        self.flushed = self.nodes;
        if self.shared.node_limit.is_some_and(|limit| total >= limit) {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The value of `position`, fail-soft within `alpha..beta`: a value at or below
    /// `alpha` is an upper bound, at or above `beta` a lower bound, else exact. After a
    /// stop the result means nothing (and nothing was stored).
    pub fn search(&mut self, position: &G, alpha: i32, beta: i32, ply: usize) -> i32 {
        if ply == 0 {
            // A root answered without searching its moves (the table, a shortcut) names
            // no move: a move kept from an earlier search proved another window, or
            // another position (two threads: the other's table entry cut here, and a
            // best move worth a point less was reported).
            self.root_best = None;
        }
        self.nodes += 1;
        if self.nodes - self.flushed >= 4096 {
            self.flush();
        }
        if let Some(value) = position.final_value() {
            return value;
        }
        if let Some(value) = position.shortcut(alpha, beta, &mut self.scratch, &mut self.nodes) {
            return value;
        }
        let bound = position.value_bound();
        let remaining = position.remaining();
        let use_table = remaining >= G::TABLE_MIN_REMAINING && ply < MAX_PLY;
        let (mut alpha, mut beta) = (alpha, beta);
        let mut table_move = 0;
        let mut key = [0; 2];
        let parallel = self.shared.parallel.load(Ordering::Relaxed);
        let mut _busy = None;
        if use_table {
            key = position.key();
            if let Some(entry) = self.shared.table.probe(key) {
                let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
                table_move = entry.best;
            }
            // Marked once the table has not answered: a node it answers is over at once.
            if parallel && remaining >= G::DEFER_MIN_REMAINING {
                _busy = Some(self.shared.mark_busy(key));
            }
        }
        let nodes_before = self.nodes;
        let slot = ply.min(MAX_PLY);
        let mut best = -bound - 1;
        let mut best_move = None;
        // The table's move and the killers first, each built alone: a cut by one of them
        // ends the node before the children are generated.
        let mut tried: Staged = [0; 3];
        // Near the root, helper threads search no move before the others: their moves are
        // ordered with the rest, and put off there when another thread is on them. The
        // same order in every thread, parted by the marks, beat a rotated order in the
        // helpers (two threads on the five 12-left Cheversi positions: 47.5 to 59.0 s,
        // against 66.0 to 68.6 s rotated).
        let staged = self.thread_index == 0 || ply >= 2;
        for (index, code) in tried_first(table_move, self.killers[slot])
            .into_iter()
            .enumerate()
        {
            if !staged || code == 0 || best >= beta || tried.contains(&code) {
                continue;
            }
            let Some(child) = position.child_by_code(code) else {
                continue;
            };
            tried[index] = code;
            let value = -self.search(&child.position, -beta, -alpha.max(best), ply + 1);
            if self.shared.stopped() {
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(child.mv);
            }
        }
        if best >= beta {
            // No move at all makes the cut only when the table's bounds left an empty
            // window: facts from a checkpoint that contradict the game (fuzzing found
            // one). The value then is the file's word; nothing to remember.
            if let Some(best_move) = best_move {
                self.remember_killer(slot, position.move_code(best_move));
            }
        } else {
            let mut children = std::mem::take(&mut self.children[slot]);
            let settled = position.children_above(
                alpha.max(best),
                tried,
                &mut children,
                &mut self.scratch,
                &self.shared.table,
                &mut self.nodes,
            );
            if let Some(settled) = settled {
                best = best.max(settled);
            }
            if children.is_empty() && settled.is_none() {
                // Cannot happen in the games solved (a running game always has a move); a
                // mover without one loses, as Cheversi's fallback says.
                self.children[slot] = children;
                return -bound;
            }
            // Where the staged moves were searched already they are skipped below, so
            // only a node that did not stage them sorts them first.
            let first = if staged {
                [0; 3]
            } else {
                tried_first(table_move, self.killers[slot])
            };
            order(position, &mut children, first);
            if use_table && remaining >= G::ETC_MIN_REMAINING {
                for child in children.iter() {
                    if child.position.remaining() < G::TABLE_MIN_REMAINING {
                        break;
                    }
                    if let Some(entry) = self.shared.table.probe(child.position.key()) {
                        let value = -i32::from(entry.upper);
                        if value >= beta {
                            let code = position.move_code(child.mv);
                            self.shared.table.store(key, value, bound, code, 0);
                            if ply == 0 {
                                self.root_best = Some(child.mv);
                            }
                            self.children[slot] = children;
                            return value;
                        }
                    }
                }
            }
            // With several threads, the children another thread is searching come last.
            // Not the first move of the node: a node that cuts mostly does so on it.
            let defer = parallel && remaining > G::DEFER_MIN_REMAINING;
            let mut deferred = std::mem::take(&mut self.deferred[slot]);
            deferred.clear();
            let (mut next, mut next_deferred) = (0, 0);
            loop {
                let index = if next < children.len() {
                    next += 1;
                    next - 1
                } else if let Some(&index) = deferred.get(next_deferred) {
                    next_deferred += 1;
                    index
                } else {
                    break;
                };
                let child = &children[index];
                let first_round = next_deferred == 0;
                if first_round {
                    if tried != [0; 3] && tried.contains(&position.move_code(child.mv)) {
                        continue;
                    }
                    let first = index == 0 && tried == [0; 3];
                    if defer && !first && self.shared.is_busy(child.position.key()) {
                        deferred.push(index);
                        continue;
                    }
                }
                let value = -self.search(&child.position, -beta, -alpha.max(best), ply + 1);
                if self.shared.stopped() {
                    self.children[slot] = children;
                    self.deferred[slot] = deferred;
                    return 0;
                }
                if value > best {
                    best = value;
                    best_move = Some(child.mv);
                    if value >= beta {
                        self.remember_killer(slot, position.move_code(child.mv));
                        break;
                    }
                }
            }
            self.deferred[slot] = deferred;
            self.children[slot] = children;
        }
        if ply == 0 {
            self.root_best = best_move;
        }
        if use_table {
            let code = best_move.map_or(0, |mv| position.move_code(mv));
            let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
            let (lower, upper) = if best >= beta {
                (best, bound)
            } else if best <= alpha {
                (-bound, best)
            } else {
                (best, best)
            };
            let code = if best > alpha { code } else { 0 };
            self.shared.table.store(key, lower, upper, code, work);
        }
        best
    }

    /// Makes `code`, which just cut off at `slot`, the ply's first killer.
    fn remember_killer(&mut self, slot: usize, code: u32) {
        let killers = &mut self.killers[slot];
        if killers[0] != code {
            *killers = [code, killers[0]];
        }
    }

    /// Win/draw/loss alone: the value's sign, from one search of the window `(-1, 1)`.
    pub fn sign(&mut self, position: &G) -> i32 {
        self.search(position, -1, 1, 0).signum()
    }

    /// The exact value by MTD(f) from the position's [`Solvable::guess`]. `None` after a
    /// stop.
    pub fn exact_from_guess(&mut self, position: &G) -> Option<i32> {
        let guess = position.guess(&self.shared.stop);
        self.exact(position, guess)
    }

    /// The exact value by MTD(f) from `guess`: null-window searches until the lower and
    /// upper bounds meet. `None` after a stop.
    ///
    /// A search that fails high is followed by one a point above its answer; one that
    /// fails low by one 1, 3, 7, ... points below it as the failures low go on: fail-soft
    /// answers are often only a point past the window (Cheversi's last two placements
    /// answer with bounds), and a window below the value is far cheaper to search than
    /// one above it.
    pub fn exact(&mut self, position: &G, guess: i32) -> Option<i32> {
        let bound = position.value_bound();
        let (mut lower, mut upper) = (-bound - 1, bound + 1);
        let mut beta = guess.clamp(-bound, bound);
        let mut proving = None;
        let mut step = 1i32;
        let mut last_failed_low = None;
        while lower < upper {
            let value = self.search(position, beta - 1, beta, 0);
            if self.shared.stopped() {
                return None;
            }
            let failed_low = value < beta;
            log::debug!(
                "window {beta}: {value} after {} nodes ({} placements left)",
                self.nodes,
                position.remaining()
            );
            if failed_low {
                upper = value;
            } else {
                lower = value;
                proving = self.root_best;
            }
            // Below the value the mover's cuts make a search cheap; above it the search
            // must refute every move. So climb a point at a time and fall fast: each
            // failure low in a row doubles the step down.
            step = if failed_low && last_failed_low == Some(true) {
                step.saturating_mul(2)
            } else {
                2
            };
            last_failed_low = Some(failed_low);
            beta = if failed_low {
                value - step + 1
            } else {
                value + 1
            };
            beta = beta.clamp(lower + 1, upper.max(lower + 1));
        }
        self.root_best = proving;
        Some(lower)
    }
}

/// Sorts `children` best first: the table's move, the ply's killers, then by ordering
/// score.
fn order<G: Solvable>(position: &G, children: &mut [Child<G>], first: Staged) {
    children.sort_by_key(|child| std::cmp::Reverse(child.order));
    for code in first.into_iter().rev() {
        if code != 0
            && let Some(index) = children
                .iter()
                .position(|child| position.move_code(child.mv) == code)
        {
            children[..=index].rotate_right(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::catchup::Catchup;
    use crate::game::{CatchupRule, GameConfig, Rules, Variant};
    use crate::random::SplitMix64;
    use crate::solve::catchup::CatchupState;
    use crate::solve::cheversi::{CheversiState, random_board};

    impl Shared {
        /// Slots of `busy` holding a mark.
        fn busy_marks(&self) -> usize {
            self.busy
                .iter()
                .filter(|slot| slot.load(Ordering::Relaxed) != 0)
                .count()
        }
    }

    /// With every child of `state` and the grandchildren under its first children marked
    /// busy, as if another thread held them all (a few share a slot and stay unmarked), a
    /// search with deferral on still reaches the value a search without marks reaches,
    /// and leaves no mark behind.
    fn assert_put_off_children_are_searched<G: Solvable + Debug>(state: &G) {
        let expected = Worker::new(&Shared::new(16), 0).exact(state, 0);
        let shared = Shared::new(16);
        shared.parallel.store(true, Ordering::Relaxed);
        let (mut children, mut grandchildren, mut marks) = (Vec::new(), Vec::new(), Vec::new());
        state.children(&mut children);
        for (index, child) in children.iter().enumerate() {
            marks.push(shared.mark_busy(child.position.key()));
            // The grandchildren under the first few children only: Catchup's are many
            // more than the marks have slots for.
            if index < 8 {
                child.position.children(&mut grandchildren);
                for grandchild in &grandchildren {
                    marks.push(shared.mark_busy(grandchild.position.key()));
                }
            }
        }
        let held = shared.busy_marks();
        let busy = children
            .iter()
            .filter(|child| shared.is_busy(child.position.key()))
            .count();
        assert!(
            busy * 10 >= children.len() * 9,
            "{busy} of {}",
            children.len()
        );
        assert_eq!(
            Worker::new(&shared, 0).exact(state, 0),
            expected,
            "{state:?}"
        );
        assert_eq!(shared.busy_marks(), held, "the search took its marks off");
        drop(marks);
        assert_eq!(shared.busy_marks(), 0);
    }

    /// With several threads, a child another thread is searching is put off and searched
    /// after the others: Cheversi 8 placements before the end, Catchup side 3 with 14 to
    /// 16 empty cells under both rules (deferral starts above 6 placements and 12 cells).
    #[test]
    fn children_put_off_as_busy_are_still_searched_and_marks_taken_off() {
        let mut rng = SplitMix64::new(2468);
        for _ in 0..6 {
            assert_put_off_children_are_searched(&CheversiState::new(random_board(&mut rng, 8)));
        }
        for round in 0..12 {
            let config =
                [CatchupRule::Original, CatchupRule::Revised][round % 2].chosen_in(GameConfig {
                    size: Some(3),
                    ..GameConfig::new(Variant::Catchup)
                });
            let mut position = Catchup::start(&config).expect("a start position");
            let mut moves = Vec::new();
            while position.empty_count() > 14 + round % 3 {
                position.legal_moves(&mut moves);
                position.play_unchecked(moves[rng.below(moves.len())]);
            }
            assert_put_off_children_are_searched(
                &CatchupState::from_game(&position).expect("side 3"),
            );
        }
    }

    /// Found by fuzzing checkpoints: a table bound beyond any value of the game (facts
    /// that contradict it) empties the window, so the node cuts before trying a move; the
    /// search takes the table's word instead of failing on a cut without a move.
    #[test]
    fn a_table_bound_outside_the_game_cuts_without_a_move() {
        let config = CatchupRule::Revised.chosen_in(GameConfig {
            size: Some(3),
            ..GameConfig::new(Variant::Catchup)
        });
        let start = Catchup::start(&config).expect("a start position");
        let state = CatchupState::from_game(&start).expect("side 3");
        let shared = Shared::new(1);
        shared.table.store(state.key(), -30_000, -100, 0, 1);
        let value = Worker::new(&shared, 0).search(&state, -1_000, 1_000, 0);
        assert!(value >= -100, "a cut at the table's upper bound: {value}");
    }

    #[test]
    fn a_new_cut_move_becomes_the_first_killer_and_the_first_the_second() {
        let shared = Shared::new(1);
        let mut worker: Worker<CheversiState> = Worker::new(&shared, 0);
        worker.remember_killer(3, 7);
        assert_eq!(worker.killers[3], [7, 0]);
        worker.remember_killer(3, 9);
        assert_eq!(worker.killers[3], [9, 7]);
        // The first killer cutting again keeps the second.
        worker.remember_killer(3, 9);
        assert_eq!(worker.killers[3], [9, 7]);
        worker.remember_killer(3, 7);
        assert_eq!(worker.killers[3], [7, 9]);
        assert_eq!(worker.killers[2], [0, 0], "other plies keep theirs");
        assert_eq!(tried_first(5, worker.killers[3]), [5, 7, 9]);
    }
}
