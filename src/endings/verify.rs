//! A check of solved tables on any board, with the engine's own move generation: for
//! sampled positions, the stored value must be the best of the values the engine's legal
//! moves lead to (quickest win, else draw, else slowest loss). The unit tests compare
//! with a full search on side 4; this catches faults that only big boards could show.

use super::board::position_text;
use super::board::{MAX_MEN, Occupancy};
use super::probe_lists;
use super::solve::{MAX_DISTANCE, Tables, Value};
use crate::game::checkers::Checkers;
use crate::game::{GameConfig, Rules, Variant};
use crate::random::SplitMix64;

/// Checks `samples` random positions of the table of `mover` men to move against
/// `opponent`; the number checked, or the first position whose value disagrees.
pub fn verify(
    tables: &Tables,
    mover: usize,
    opponent: usize,
    samples: usize,
    seed: u64,
) -> Result<usize, String> {
    let board = tables.board();
    if tables.table(mover, opponent).is_none() || mover > MAX_MEN || opponent > MAX_MEN {
        return Err(format!("{mover}v{opponent} is not solved"));
    }
    let mut rng = SplitMix64::new(seed);
    let (mut own, mut other) = ([0u8; MAX_MEN], [0u8; MAX_MEN]);
    let (own, other) = (&mut own[..mover], &mut other[..opponent]);
    let mut checked = 0;
    let mut moves = Vec::new();
    let hex_checkers = GameConfig::new(Variant::HexCheckers);
    while checked < samples {
        board.unrank(rng.below_exact(board.combinations(mover)), own);
        board.unrank(rng.below_exact(board.combinations(opponent)), other);
        let occupied = Occupancy::of(own);
        if other.iter().any(|&cell| occupied.contains(cell)) {
            continue;
        }
        let stored = tables.value(own, other).ok_or("solved tables answer")?;
        let text = position_text(board, own, other, true);
        let position: Checkers<5> = Checkers::from_position_text(&text, &hex_checkers)
            .map_err(|error| error.to_string())?;
        position.legal_moves(&mut moves);
        let mut best = (i32::MIN, Value::Loss(0));
        for &mv in &moves {
            let mut child = position.clone();
            child.play_unchecked(mv);
            let (cells, counts) = probe_lists(&child).ok_or("the child has too many men")?;
            let next = tables
                .value(&cells[0][..counts[0]], &cells[1][..counts[1]])
                .ok_or("the child's material is solved")?;
            let ours = if mv.is_capture() {
                match next.within(usize::from(tables.limit())) {
                    Value::Loss(_) => Value::Win(1),
                    Value::Win(_) => Value::Loss(1),
                    Value::Draw => Value::Draw,
                }
            } else {
                match next {
                    Value::Loss(plies) if plies < MAX_DISTANCE => Value::Win(plies + 1),
                    Value::Win(plies) if plies < MAX_DISTANCE => Value::Loss(plies + 1),
                    _ => Value::Draw,
                }
            };
            let score = match ours {
                Value::Win(plies) => 1000 - i32::from(plies),
                Value::Draw => 0,
                Value::Loss(plies) => -1000 + i32::from(plies),
            };
            if score > best.0 {
                best = (score, ours);
            }
        }
        if best.1 != stored {
            return Err(format!(
                "{text}: stored {stored:?}, the engine's moves give {:?}",
                best.1
            ));
        }
        checked += 1;
    }
    Ok(checked)
}
