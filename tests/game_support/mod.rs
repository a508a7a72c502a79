//! Helpers shared by the search tests: positions reached by random play, and the plain
//! negamax the alpha-beta search is checked against.
#![allow(dead_code)]

use tessera::game::Rules;
use tessera::search::alphabeta::MATE;
use tessera::search::game::{AlphaBetaGame, Terminal};
use tessera::search::rng::Rng;

/// A position `plies` random plies from `start`, if the game is still running there.
pub fn random_position<G: Rules>(start: &G, plies: usize, rng: &mut Rng) -> Option<G> {
    let mut position = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        position.play_unchecked(moves[rng.below(moves.len())]);
    }
    position.outcome().is_none().then_some(position)
}

/// `with_record!` over the alpha-beta variants only: the body need not compile for
/// Catchup, whose game implements no alpha-beta hints.
#[macro_export]
macro_rules! with_alpha_beta_record {
    ($kind:expr, $record:ident => $body:expr) => {
        match $kind {
            GameKind::Cheversi($record) => $body,
            GameKind::Checkers($record) => $body,
            GameKind::LargeCheckers($record) => $body,
            GameKind::Catchup(_) => panic!("Catchup is searched by MCTS, not alpha-beta"),
        }
    };
}

fn terminal<G: AlphaBetaGame>(position: &G, ply: i32) -> i32 {
    let outcome = position.outcome().expect("no moves means the game is over");
    match position.terminal(outcome) {
        Terminal::Win => MATE - ply,
        Terminal::Loss => -MATE + ply,
        Terminal::Draw => 0,
        Terminal::Exact(value) => value,
    }
}

/// Plain negamax; at depth 0 the same quiescence rule as the engine (stand pat unless
/// every move is noisy, then noisy moves only; within `FINAL_LEAF_PLIES` of a fixed
/// end, the game played out to it).
pub fn negamax<G: AlphaBetaGame>(position: &G, depth: i32, ply: i32) -> i32 {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    if moves.is_empty() {
        return terminal(position, ply);
    }
    if depth <= 0 {
        if let Some(left) = position.plies_to_end()
            && left <= G::FINAL_LEAF_PLIES
        {
            return negamax(position, left as i32, ply);
        }
        if !G::HAS_NOISY_MOVES {
            return position.evaluate();
        }
        let noisy: Vec<G::Move> = moves
            .iter()
            .copied()
            .filter(|&mv| position.is_noisy(mv))
            .collect();
        let mut best = if noisy.len() == moves.len() {
            -MATE - 1
        } else {
            position.evaluate()
        };
        for mv in noisy {
            let mut child = position.clone();
            child.play_unchecked(mv);
            best = best.max(-negamax(&child, 0, ply + 1));
        }
        return best;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            -negamax(&child, depth - 1, ply + 1)
        })
        .max()
        .expect("moves is not empty")
}
