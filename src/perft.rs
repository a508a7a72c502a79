//! perft: the number of distinct move sequences of a given length, the standard check of
//! a move generator. A finished game has no moves, threefold repetition included: the
//! history of the game so far counts, as the draw rule says (a position set up from a
//! position string starts a new history; protocol.md, "Rule decisions").
//!
//! A count can be cut short by a stop flag (the protocol's `stop`): the flag is read
//! before every move two or more plies above the leaves, so a cut comes within the count
//! of one position's moves.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::game::record::repetition_count;
use crate::game::{GameRecord, Rules};

/// A count that may have been cut short by a stop flag.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// Leaf nodes counted (all of them when `complete`).
    pub nodes: u64,
    /// False when the stop flag ended the count early.
    pub complete: bool,
}

/// A stop flag that is never raised, for counts that always run to the end.
static NEVER: AtomicBool = AtomicBool::new(false);

/// Counts leaf nodes `depth` plies below `position`, whose history is just itself. With
/// `bulk`, the last ply is counted with [`Rules::count_moves`] instead of playing every
/// move.
pub fn perft<R: Rules>(position: &R, depth: u32, bulk: bool) -> u64 {
    perft_after(position, &[position.hash()], depth, bulk)
}

/// perft below a position reached through `history` (hashes of every position of the
/// game, oldest first, ending with `position`'s own).
pub fn perft_after<R: Rules>(position: &R, history: &[u64], depth: u32, bulk: bool) -> u64 {
    perft_until(position, history, depth, bulk, &NEVER).nodes
}

/// [`perft_after`] that ends early once `stop` is raised.
pub fn perft_until<R: Rules>(
    position: &R,
    history: &[u64],
    depth: u32,
    bulk: bool,
    stop: &AtomicBool,
) -> Count {
    let mut buffers: Vec<Vec<R::Move>> = (0..depth).map(|_| Vec::new()).collect();
    let mut walk = Walk {
        bulk,
        history: history.to_vec(),
        stop,
        cut: false,
    };
    walk.history.reserve(depth as usize);
    let nodes = walk.count(position, depth, &mut buffers);
    Count {
        nodes,
        complete: !walk.cut,
    }
}

/// The state of one perft walk: the line's hashes and the stop flag.
struct Walk<'a> {
    bulk: bool,
    history: Vec<u64>,
    stop: &'a AtomicBool,
    /// The stop flag ended the walk.
    cut: bool,
}

impl Walk<'_> {
    fn count<R: Rules>(&mut self, position: &R, depth: u32, buffers: &mut [Vec<R::Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        // A third occurrence needs at least four reversible plies since the first.
        let window = position.repetition_window();
        if window >= 4 && repetition_count(&self.history, window) >= 3 {
            return 0;
        }
        if self.bulk && depth == 1 {
            return position.count_moves();
        }
        let Some((moves, deeper)) = buffers.split_first_mut() else {
            return 1;
        };
        position.legal_moves(moves);
        let mut nodes = 0;
        if depth == 1 {
            for &mv in moves.iter() {
                let mut child = position.clone();
                child.play_unchecked(mv);
                std::hint::black_box(&child);
                nodes += 1;
            }
            return nodes;
        }
        for &mv in moves.iter() {
            if self.stop.load(Ordering::Relaxed) {
                self.cut = true;
                break;
            }
            let mut child = position.clone();
            child.play_unchecked(mv);
            self.history.push(child.hash());
            nodes += self.count(&child, depth - 1, deeper);
            self.history.pop();
        }
        nodes
    }
}

/// perft split by root move: `(move text, count)` sorted by move text. Depth 0 has no
/// root moves to split by, so it gives no rows.
pub fn divide<R: Rules>(position: &R, depth: u32, bulk: bool) -> Vec<(String, u64)> {
    divide_after(position, &[position.hash()], depth, bulk)
}

/// [`divide`] below a position reached through `history` (as in [`perft_after`]).
pub fn divide_after<R: Rules>(
    position: &R,
    history: &[u64],
    depth: u32,
    bulk: bool,
) -> Vec<(String, u64)> {
    divide_until(position, history, depth, bulk, &NEVER).0
}

/// [`divide_after`] that ends early once `stop` is raised: the rows of the root moves
/// counted in full, and whether every root move was.
pub fn divide_until<R: Rules>(
    position: &R,
    history: &[u64],
    depth: u32,
    bulk: bool,
    stop: &AtomicBool,
) -> (Vec<(String, u64)>, bool) {
    if depth == 0 {
        return (Vec::new(), true);
    }
    let window = position.repetition_window();
    if window >= 4 && repetition_count(history, window) >= 3 {
        return (Vec::new(), true);
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut line = history.to_vec();
    let mut rows = Vec::with_capacity(moves.len());
    let mut complete = true;
    for mv in moves {
        if stop.load(Ordering::Relaxed) {
            complete = false;
            break;
        }
        let mut child = position.clone();
        child.play_unchecked(mv);
        line.push(child.hash());
        let count = perft_until(&child, &line, depth - 1, bulk, stop);
        line.pop();
        if !count.complete {
            complete = false;
            break;
        }
        rows.push((position.move_text(mv), count.nodes));
    }
    rows.sort();
    (rows, complete)
}

/// A game's current position with its history, counted through a trait object: what
/// the protocol's `perft` and `divide` reach whatever the game (the registry's games
/// hand themselves over as one). Every [`GameRecord`] is one; its history counts.
pub trait PerftRoot {
    /// [`perft_until`] from the current position.
    fn perft_until(&self, depth: u32, bulk: bool, stop: &AtomicBool) -> Count;

    /// [`divide_until`] from the current position: the rows counted in full, and whether
    /// every root move was.
    fn divide_until(&self, depth: u32, bulk: bool, stop: &AtomicBool)
    -> (Vec<(String, u64)>, bool);

    /// The full count (no stop flag).
    fn perft(&self, depth: u32, bulk: bool) -> u64 {
        self.perft_until(depth, bulk, &NEVER).nodes
    }
}

impl<R: Rules> PerftRoot for GameRecord<R> {
    fn perft_until(&self, depth: u32, bulk: bool, stop: &AtomicBool) -> Count {
        perft_until(self.position(), self.hashes(), depth, bulk, stop)
    }

    fn divide_until(
        &self,
        depth: u32,
        bulk: bool,
        stop: &AtomicBool,
    ) -> (Vec<(String, u64)>, bool) {
        divide_until(self.position(), self.hashes(), depth, bulk, stop)
    }
}

/// The output of `perft` / `divide`, written once for the `tessera perft` and `divide`
/// subcommands and the protocol commands: `divide` gives one `<move>: <count>` line per
/// legal move (sorted) and a blank line; both end with the time and `Nodes searched: N`.
/// A count cut short by `stop` gives, instead of those, the rows counted in full and one
/// line saying it was interrupted (its node count is not the position's); returns false
/// then.
pub fn report(
    game: &dyn PerftRoot,
    depth: u32,
    divide: bool,
    bulk: bool,
    stop: &AtomicBool,
    out: &mut dyn FnMut(String),
) -> bool {
    let started = Instant::now();
    let (nodes, complete) = if divide && depth > 0 {
        let (rows, complete) = game.divide_until(depth, bulk, stop);
        for (text, count) in &rows {
            out(format!("{text}: {count}"));
        }
        if complete {
            out(String::new());
        }
        (rows.iter().map(|(_, count)| count).sum(), complete)
    } else {
        let count = game.perft_until(depth, bulk, stop);
        (count.nodes, count.complete)
    };
    let seconds = started.elapsed().as_secs_f64();
    let milliseconds = (seconds * 1000.0).round();
    if !complete {
        let command = if divide { "divide" } else { "perft" };
        out(format!(
            "info string {command} {depth} interrupted by stop after {milliseconds} ms: \
             {nodes} nodes counted, not the full count"
        ));
        return false;
    }
    out(format!(
        "Time: {milliseconds} ms, {:.0} nodes/s",
        nodes as f64 / seconds.max(1e-9)
    ));
    out(format!("Nodes searched: {nodes}"));
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::checkers::SmallCheckers;
    use crate::game::{GameConfig, Variant};

    /// Two lone men shuffling back and forth: the start recurs at plies 4 and 8, so the
    /// eighth ply of a pure shuffle ends the game and perft(9) loses those lines.
    #[test]
    fn repetition_ends_lines_inside_perft() {
        let config = GameConfig::new(Variant::HexCheckers);
        let position = SmallCheckers::from_position_text("B3/5/6/7/6/5/W3 w - 0 1", &config)
            .expect("valid position");
        // Independent count (the rules' reading, checked by a separate Python generator).
        assert_eq!(perft(&position, 9, true), 506_657);
        assert_eq!(perft(&position, 8, true), perft(&position, 8, false));
        let rows = divide(&position, 9, true);
        assert_eq!(rows.iter().map(|(_, count)| count).sum::<u64>(), 506_657);
        assert!(divide(&position, 0, true).is_empty());
    }

    /// A raised stop flag ends a deep count at once and says it is not complete; a
    /// count of one ply (a single move list) always completes.
    #[test]
    fn a_raised_stop_flag_cuts_the_count_short() {
        let config = GameConfig::new(Variant::Kruzno);
        let game = GameRecord::new(SmallCheckers::start(&config).expect("kruzno starts"));
        let stop = AtomicBool::new(true);
        let cut = game.perft_until(30, true, &stop);
        assert!(!cut.complete);
        assert!(cut.nodes < game.perft(3, true));
        let (rows, complete) = game.divide_until(30, true, &stop);
        assert!(rows.is_empty() && !complete);
        let one = game.perft_until(1, false, &stop);
        assert_eq!(
            one,
            Count {
                nodes: game.perft(1, true),
                complete: true
            }
        );
        let mut lines = Vec::new();
        assert!(!report(&game, 12, true, true, &stop, &mut |line| lines.push(line)));
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("info string divide 12 interrupted by stop after "));
        assert!(lines[0].ends_with(" 0 nodes counted, not the full count"));
    }
}
