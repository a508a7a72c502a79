//! The deliberately weak players of the `Strategy` option.

use crate::game::{Outcome, Player};

use super::game::SearchGame;
use super::rng::Rng;

/// A uniformly random legal move.
pub fn random_move<M: Copy>(moves: &[M], rng: &mut Rng) -> Option<M> {
    (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
}

/// The value of `position` for `mover` as the weak strategies see it: the rule score
/// difference (men in the checkers games), a finished game as its result first.
fn rule_value<G: SearchGame>(position: &G, mover: Player) -> i64 {
    let rule_value = i64::from(position.greedy_value(mover));
    match position.outcome() {
        Some(Outcome::Win(winner)) if winner == mover => (1 << 40) + rule_value,
        Some(Outcome::Win(_)) => -(1 << 40) + rule_value,
        _ => rule_value,
    }
}

/// The move maximising the mover's rule score minus the opponent's one ply ahead (a
/// finished game counts as its result), ties broken at random.
pub fn greedy_move<G: SearchGame>(
    position: &G,
    moves: &[G::Move],
    rng: &mut Rng,
) -> Option<G::Move> {
    let mover = position.side_to_move();
    best_of(moves, rng, |mv| {
        let mut child = position.clone();
        child.play_unchecked(mv);
        Some(rule_value(&child, mover))
    })
}

/// The move whose worst reply leaves the mover the most rule score (a two-ply minimax on
/// [`greedy_move`]'s value: in checkers it sees a man left hanging and takes a man
/// offered, nothing more), ties broken at random. A move is dropped as soon as one reply
/// shows it worse than the best so far, so ties are still found exactly.
pub fn minimax2_move<G: SearchGame>(
    position: &G,
    moves: &[G::Move],
    rng: &mut Rng,
) -> Option<G::Move> {
    let mover = position.side_to_move();
    let mut best = i64::MIN;
    let mut replies = Vec::new();
    best_of(moves, rng, |mv| {
        let mut child = position.clone();
        child.play_unchecked(mv);
        child.legal_moves(&mut replies);
        let value = if replies.is_empty() {
            rule_value(&child, mover)
        } else {
            let mut worst = i64::MAX;
            for &reply in &replies {
                let mut grandchild = child.clone();
                grandchild.play_unchecked(reply);
                worst = worst.min(rule_value(&grandchild, mover));
                if worst < best {
                    return None;
                }
            }
            worst
        };
        best = best.max(value);
        Some(value)
    })
}

/// A random one of the moves with the highest value; `value` may answer `None` for a
/// move it knows to be worse than one it valued before.
fn best_of<M: Copy>(
    moves: &[M],
    rng: &mut Rng,
    mut value: impl FnMut(M) -> Option<i64>,
) -> Option<M> {
    let mut best_value = i64::MIN;
    let mut ties: Vec<M> = Vec::new();
    for &mv in moves {
        let Some(value) = value(mv) else { continue };
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
