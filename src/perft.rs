//! perft: the number of distinct move sequences of a given length, the standard check of
//! a move generator. A finished game has no moves, threefold repetition included: the
//! history of the game so far counts, as the draw rule says (a position set up from a
//! position string starts a new history; protocol.md, "Rule decisions").

use std::time::Instant;

use crate::game::record::repetition_count;
use crate::game::{AnyGame, Rules};

/// Counts leaf nodes `depth` plies below `position`, whose history is just itself. With
/// `bulk`, the last ply is counted with [`Rules::count_moves`] instead of playing every
/// move.
pub fn perft<R: Rules>(position: &R, depth: u32, bulk: bool) -> u64 {
    perft_after(position, &[position.hash()], depth, bulk)
}

/// perft below a position reached through `history` (hashes of every position of the
/// game, oldest first, ending with `position`'s own).
pub fn perft_after<R: Rules>(position: &R, history: &[u64], depth: u32, bulk: bool) -> u64 {
    let mut buffers: Vec<Vec<R::Move>> = (0..depth).map(|_| Vec::new()).collect();
    let mut history = history.to_vec();
    history.reserve(depth as usize);
    perft_with(position, depth, bulk, &mut buffers, &mut history)
}

fn perft_with<R: Rules>(
    position: &R,
    depth: u32,
    bulk: bool,
    buffers: &mut [Vec<R::Move>],
    history: &mut Vec<u64>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    // A third occurrence needs at least four reversible plies since the first.
    let window = position.repetition_window();
    if window >= 4 && repetition_count(history, window) >= 3 {
        return 0;
    }
    if bulk && depth == 1 {
        return position.count_moves();
    }
    let Some((moves, deeper)) = buffers.split_first_mut() else {
        return 1;
    };
    position.legal_moves(moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        let mut child = position.clone();
        child.play_unchecked(mv);
        nodes += if depth == 1 {
            std::hint::black_box(&child);
            1
        } else {
            history.push(child.hash());
            let count = perft_with(&child, depth - 1, bulk, deeper, history);
            history.pop();
            count
        };
    }
    nodes
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
    if depth == 0 {
        return Vec::new();
    }
    let window = position.repetition_window();
    if window >= 4 && repetition_count(history, window) >= 3 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut line = history.to_vec();
    let mut rows: Vec<(String, u64)> = moves
        .into_iter()
        .map(|mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            line.push(child.hash());
            let count = perft_after(&child, &line, depth - 1, bulk);
            line.pop();
            (position.move_text(mv), count)
        })
        .collect();
    rows.sort();
    rows
}

/// The output of `perft` / `divide`, written once for the `tessera perft` and `divide`
/// subcommands and the protocol commands: `divide` gives one `<move>: <count>` line per
/// legal move (sorted) and a blank line; both end with the time and `Nodes searched: N`.
pub fn report(game: &AnyGame, depth: u32, divide: bool, bulk: bool, out: &mut dyn FnMut(String)) {
    let started = Instant::now();
    let nodes = if divide && depth > 0 {
        let rows = game.divide(depth, bulk);
        for (text, count) in &rows {
            out(format!("{text}: {count}"));
        }
        out(String::new());
        rows.iter().map(|(_, count)| count).sum()
    } else {
        game.perft(depth, bulk)
    };
    let seconds = started.elapsed().as_secs_f64();
    out(format!(
        "Time: {} ms, {:.0} nodes/s",
        (seconds * 1000.0).round(),
        nodes as f64 / seconds.max(1e-9)
    ));
    out(format!("Nodes searched: {nodes}"));
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
}
