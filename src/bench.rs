//! `bench`: fixed positions from every variant searched with fixed limits on one thread
//! with a fixed seed, so the total node count is a signature of the search's behaviour:
//! it changes only when the search (or the rules' move order) changes.
//!
//! Alpha-beta positions run to a fixed depth, MCTS positions a fixed number of
//! simulations (their lines still show the chosen move and score).
//!
//! The positions are each variant's start position and the positions reached from it by
//! a seeded sequence of random moves (so they follow the rules whatever their encoding).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::engine::{Algorithm, Engine, EngineGame, SearchOptions};
use crate::game::{GameConfig, GameKind, GameRecord, Variant};
use crate::search::alphabeta::pv_text;
use crate::search::rng;
use crate::search::{Score, SearchLimits};
use crate::with_record;

/// Plies of random play before each bench position after the start position.
const OPENING_PLIES: [usize; 3] = [0, 6, 14];
/// Alpha-beta searches a fixed depth per variant (so the node count reflects the
/// search's behaviour); MCTS a fixed number of simulations.
fn alpha_beta_depth(variant: Variant) -> u32 {
    match variant {
        Variant::Cheversi => 7,
        Variant::Kruzno => 9,
        Variant::HexCheckers | Variant::Catchup | Variant::Added(_) => 8,
    }
}
const MCTS_SIMULATIONS: u64 = 20_000;

/// Runs the bench, writing its lines through `out`; returns total nodes.
pub fn run(out: &mut dyn FnMut(String)) -> u64 {
    let never = AtomicBool::new(false);
    run_until(&never, out).unwrap_or_default()
}

/// [`run`] that ends early once `stop` is raised: then the position being searched gets
/// no line, one line says the bench was interrupted (its count is no signature) and the
/// result is `None`.
pub fn run_until(stop: &AtomicBool, out: &mut dyn FnMut(String)) -> Option<u64> {
    let started = Instant::now();
    let mut total = 0;
    let mut done = 0;
    let count = Variant::ALL.len() * OPENING_PLIES.len();
    for variant in Variant::ALL {
        let Ok(start) = GameKind::new(&GameConfig::new(variant)) else {
            out(format!("{variant}: no start position"));
            continue;
        };
        for (index, &plies) in OPENING_PLIES.iter().enumerate() {
            let searched = (!stop.load(Ordering::Relaxed)).then(|| {
                with_record!(&start, record => {
                    bench_position(variant, record, plies, index as u64, stop)
                })
            });
            // A search cut by the stop flag gives no line: its count is not the position's.
            let Some((line, nodes)) = searched.filter(|_| !stop.load(Ordering::Relaxed)) else {
                out(format!(
                    "info string bench interrupted by stop after {} ms: {done} of {count} \
                     positions searched, {total} nodes, not a signature",
                    started.elapsed().as_millis()
                ));
                return None;
            };
            out(line);
            total += nodes;
            done += 1;
        }
    }
    let seconds = started.elapsed().as_secs_f64().max(1e-6);
    out(format!(
        "{total} nodes {} nps",
        (total as f64 / seconds) as u64
    ));
    Some(total)
}

fn bench_position<G: EngineGame>(
    variant: Variant,
    start: &GameRecord<G>,
    plies: usize,
    seed: u64,
    stop: &AtomicBool,
) -> (String, u64) {
    let mut rng = rng::seeded(0xbe9c ^ seed);
    let mut record = GameRecord::new(start.position().clone());
    let mut moves = Vec::new();
    for _ in 0..plies {
        record.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        record.play_unchecked(moves[rng.below(moves.len())]);
    }
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 16,
        threads: 1,
        seed: 1,
        ..SearchOptions::default()
    });
    let limits = match G::ALGORITHM {
        Algorithm::AlphaBeta => SearchLimits {
            depth: Some(alpha_beta_depth(variant)),
            ..SearchLimits::default()
        },
        Algorithm::Mcts => SearchLimits {
            nodes: Some(MCTS_SIMULATIONS),
            ..SearchLimits::default()
        },
    };
    let started = Instant::now();
    let result = engine.search_record(&record, &limits, stop, &mut |_| {});
    let elapsed = started.elapsed().as_secs_f64().max(1e-6);
    let position = record.position();
    let best = result
        .best_move
        .and_then(|mv| pv_text(position, &[mv]).into_iter().next())
        .unwrap_or_else(|| "none".to_string());
    let score = match result.score {
        Some(Score::Centipawns(value)) => format!("cp {value}"),
        Some(Score::Mate(moves)) => format!("mate {moves}"),
        None => "none".to_string(),
    };
    let line = format!(
        "{variant} {} | depth {} score {score} bestmove {best} nodes {} nps {}",
        position.position_text(),
        result.depth,
        result.nodes,
        (result.nodes as f64 / elapsed) as u64
    );
    (line, result.nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A raised stop flag ends the bench before its first search, with one line that
    /// says so and no signature.
    #[test]
    fn a_raised_stop_flag_gives_no_signature() {
        let stop = AtomicBool::new(true);
        let mut lines = Vec::new();
        assert_eq!(run_until(&stop, &mut |line| lines.push(line)), None);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("info string bench interrupted by stop after "));
        assert!(lines[0].ends_with(": 0 of 12 positions searched, 0 nodes, not a signature"));
    }
}
