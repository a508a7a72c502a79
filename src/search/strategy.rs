//! The deliberately weak players of the `Strategy` option.

use crate::game::Outcome;

use super::game::SearchGame;
use super::rng::Rng;

/// A uniformly random legal move.
pub fn random_move<M: Copy>(moves: &[M], rng: &mut Rng) -> Option<M> {
    (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
}

/// The move maximising the mover's rule score minus the opponent's one ply ahead (a
/// finished game counts as its result), ties broken at random.
pub fn greedy_move<G: SearchGame>(
    position: &G,
    moves: &[G::Move],
    rng: &mut Rng,
) -> Option<G::Move> {
    let mover = position.side_to_move();
    let mut best_value = i64::MIN;
    let mut ties: Vec<G::Move> = Vec::new();
    for &mv in moves {
        let mut child = position.clone();
        child.play_unchecked(mv);
        let rule_value = i64::from(child.greedy_value(mover));
        let value = match child.outcome() {
            Some(Outcome::Win(winner)) if winner == mover => (1 << 40) + rule_value,
            Some(Outcome::Win(_)) => -(1 << 40) + rule_value,
            _ => rule_value,
        };
        if value > best_value {
            best_value = value;
            ties.clear();
        }
        if value == best_value {
            ties.push(mv);
        }
    }
    random_move(&ties, rng)
}
