//! `bench`: fixed positions from every variant searched with fixed limits on one thread
//! with a fixed seed, so the total node count is a signature of the search's behaviour:
//! it changes only when the search (or the rules' move order) changes.
//!
//! Alpha-beta positions run to a fixed depth, MCTS positions a fixed number of
//! simulations (their lines still show the chosen move and score).
//!
//! The positions are each variant's start position and the positions reached from it by
//! a seeded sequence of random moves (so they follow the rules whatever their encoding),
//! then a few fixed positions from real games (`FIXED_POSITIONS`) where random play
//! does not go.

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

/// Positions from real games, each searched like the others: hex checkers on side 9 with
/// the armies in contact (the evaluation's middle-game terms, backed offers among them)
/// and a won ending (the conversion terms). Random play from the start never reaches
/// them: on side 9 the armies begin 11 rows apart and a random game is drawn by the
/// 80-ply rule first. Each has its depth: the middle game's 60 moves a position make
/// depth 8 cost seven million nodes there.
const FIXED_POSITIONS: [(Variant, &str, u32); 2] = [
    (
        Variant::HexCheckers,
        "1BBBBBBB1/BB1B2B1BB/5BB2B1/3B2B2B2/B1B8B1/1B3WWW3B2/15/16/8W8/16/15/14/3W4W4/\
         1W4W3W1/2W1W2WW2/W1W5WW/WW1WWWWWW w - 0 101",
        6,
    ),
    (
        Variant::HexCheckers,
        "BB2WW3/7W2/10B/12/10B2/W6B6/15/3B12/17/16/15/8W5/13/12/3W2W2W1/4W2W2/6W1W \
         w - 3 361",
        8,
    ),
];

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
    let count = Variant::ALL.len() * OPENING_PLIES.len() + FIXED_POSITIONS.len();
    let mut searches = Vec::with_capacity(count);
    for variant in Variant::ALL {
        match GameKind::new(&GameConfig::new(variant)) {
            Ok(start) => {
                for (index, &plies) in OPENING_PLIES.iter().enumerate() {
                    searches.push(BenchSearch {
                        variant,
                        start: start.clone(),
                        plies,
                        seed: index as u64,
                        depth: alpha_beta_depth(variant),
                    });
                }
            }
            Err(_) => out(format!("{variant}: no start position")),
        }
    }
    for (variant, text, depth) in FIXED_POSITIONS {
        match GameKind::from_position_text(&GameConfig::new(variant), text) {
            Ok(start) => searches.push(BenchSearch {
                variant,
                start,
                plies: 0,
                seed: 0,
                depth,
            }),
            Err(error) => out(format!("{variant}: bad fixed position: {error}")),
        }
    }
    for search in &searches {
        let searched = (!stop.load(Ordering::Relaxed))
            .then(|| with_record!(&search.start, record => bench_position(search, record, stop)));
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
    let seconds = started.elapsed().as_secs_f64().max(1e-6);
    out(format!(
        "{total} nodes {} nps",
        (total as f64 / seconds) as u64
    ));
    Some(total)
}

/// One bench search: a start position (a variant's start or a fixed position), the random
/// plies played from it with `seed`, and the depth of an alpha-beta search.
struct BenchSearch {
    variant: Variant,
    start: GameKind,
    plies: usize,
    seed: u64,
    depth: u32,
}

/// Searches `search`'s start (`start`, its record) after its random plies.
fn bench_position<G: EngineGame>(
    search: &BenchSearch,
    start: &GameRecord<G>,
    stop: &AtomicBool,
) -> (String, u64) {
    let BenchSearch {
        variant,
        plies,
        seed,
        depth,
        ..
    } = *search;
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
            depth: Some(depth),
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
        assert!(lines[0].ends_with(": 0 of 14 positions searched, 0 nodes, not a signature"));
    }

    /// Every fixed position is a running game of its variant (a typo would drop it from
    /// the bench with only a line saying so).
    #[test]
    fn the_fixed_positions_are_running_games() {
        for (variant, text, _) in FIXED_POSITIONS {
            let game = GameKind::from_position_text(&GameConfig::new(variant), text)
                .unwrap_or_else(|error| panic!("{text}: {error}"));
            with_record!(&game, record => {
                let mut moves = Vec::new();
                record.legal_moves(&mut moves);
                assert!(!moves.is_empty(), "{text}: no legal move");
            });
        }
    }
}
