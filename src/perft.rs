//! perft: the number of distinct move sequences of a given length, the standard check of
//! a move generator. A finished game has no moves, so its count is 0 below depth 0.

use crate::game::Rules;

/// Counts leaf nodes `depth` plies below `position`. With `bulk`, the last ply is
/// counted with [`Rules::count_moves`] instead of playing every move.
pub fn perft<R: Rules>(position: &R, depth: u32, bulk: bool) -> u64 {
    let mut buffers: Vec<Vec<R::Move>> = (0..depth).map(|_| Vec::new()).collect();
    perft_with(position, depth, bulk, &mut buffers)
}

fn perft_with<R: Rules>(position: &R, depth: u32, bulk: bool, buffers: &mut [Vec<R::Move>]) -> u64 {
    if depth == 0 {
        return 1;
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
            perft_with(&child, depth - 1, bulk, deeper)
        };
    }
    nodes
}

/// perft split by root move: `(move text, count)` sorted by move text.
pub fn divide<R: Rules>(position: &R, depth: u32, bulk: bool) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut rows: Vec<(String, u64)> = moves
        .into_iter()
        .map(|mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            let count = perft(&child, depth.saturating_sub(1), bulk);
            (position.move_text(mv), count)
        })
        .collect();
    rows.sort();
    rows
}
