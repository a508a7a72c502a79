//! `bench`: fixed positions from every variant searched with fixed limits on one thread
//! with a fixed seed, so the total node count is a signature of the search's behaviour:
//! it changes only when the search (or the rules' move order) changes.
//!
//! Alpha-beta positions run to a fixed depth, MCTS positions a fixed number of
//! simulations (their lines still show the chosen move and score).
//!
//! The positions are each variant's start position and the positions reached from it by
//! a seeded sequence of random moves (so they follow the rules whatever their encoding).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::game::{AnyGame, GameConfig, GameRecord, Variant};
use crate::search::alphabeta::pv_text;
use crate::search::game::{Algorithm, SearchGame, algorithm};
use crate::search::rng;
use crate::search::{Engine, Score, SearchLimits, SearchOptions};
use crate::with_record;

/// Plies of random play before each bench position after the start position.
const OPENING_PLIES: [usize; 3] = [0, 6, 14];
/// Alpha-beta searches a fixed depth per variant (so the node count reflects the
/// search's behaviour); MCTS a fixed number of simulations.
fn alpha_beta_depth(variant: Variant) -> u32 {
    match variant {
        Variant::Cheversi => 7,
        Variant::Kruzno => 9,
        Variant::HexCheckers | Variant::Catchup => 8,
    }
}
const MCTS_SIMULATIONS: u64 = 20_000;

/// Runs the bench, writing its lines through `out`; returns total nodes.
pub fn run(out: &mut dyn FnMut(String)) -> u64 {
    let started = Instant::now();
    let mut total = 0;
    for variant in Variant::ALL {
        let Ok(start) = AnyGame::new(GameConfig::new(variant)) else {
            out(format!("{variant}: no start position"));
            continue;
        };
        for (index, &plies) in OPENING_PLIES.iter().enumerate() {
            let nodes = with_record!(start.kind(), record => {
                bench_position(variant, record, plies, index as u64, out)
            });
            total += nodes;
        }
    }
    let seconds = started.elapsed().as_secs_f64().max(1e-6);
    out(format!(
        "{total} nodes {} nps",
        (total as f64 / seconds) as u64
    ));
    total
}

fn bench_position<G: SearchGame>(
    variant: Variant,
    start: &GameRecord<G>,
    plies: usize,
    seed: u64,
    out: &mut dyn FnMut(String),
) -> u64 {
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
    let limits = match algorithm::<G>() {
        Algorithm::AlphaBeta => SearchLimits {
            depth: Some(alpha_beta_depth(variant)),
            ..SearchLimits::default()
        },
        Algorithm::Mcts => SearchLimits {
            nodes: Some(MCTS_SIMULATIONS),
            ..SearchLimits::default()
        },
    };
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let result = engine.search_record(&record, &limits, &stop, &mut |_| {});
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
    out(format!(
        "{variant} {} | depth {} score {score} bestmove {best} nodes {} nps {}",
        position.position_text(),
        result.depth,
        result.nodes,
        (result.nodes as f64 / elapsed) as u64
    ));
    result.nodes
}
