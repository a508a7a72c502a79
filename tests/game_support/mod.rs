//! Helpers shared by the search tests: positions reached by random play.

use tessera::game::Rules;
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
