//! The `Strategy` option and its deliberately weak players.

use crate::game::{Outcome, Player};
use crate::search::game::SearchGame;
use crate::search::rng::Rng;

/// Which player the engine plays as: the full search or one of a gauntlet of deliberately
/// weak ones (fixed opponents of different styles, for measuring the full search without
/// the shared blind spots of self-play or of a single opponent).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    #[default]
    Full,
    /// Four-ply alpha-beta on the rule score alone (fewer plies where a fixed node budget
    /// runs out first, as in Catchup's wide turns).
    Minimax4,
    /// Two-ply minimax on the rule score alone (men in the checkers games).
    Minimax2,
    /// [`Strategy::Minimax2`], then the move that leaves its own army least advanced: a
    /// defender that stays home and comes forward only when it must.
    Defender,
    /// [`Strategy::Minimax2`], then the move that leaves its own army most advanced: an
    /// attacker that comes forward whenever two plies show it loses nothing by it.
    Attacker,
    /// [`Strategy::Minimax2`] over a random sample of its legal moves: a player that sees
    /// tactics two plies deep but only among the moves it happens to consider.
    Sampled2,
    /// One ply on the rule score alone.
    Greedy,
    Random,
}

impl Strategy {
    /// Every strategy, the full search first, as the `Strategy` option lists them.
    pub const ALL: [Strategy; 8] = [
        Strategy::Full,
        Strategy::Minimax4,
        Strategy::Minimax2,
        Strategy::Defender,
        Strategy::Attacker,
        Strategy::Sampled2,
        Strategy::Greedy,
        Strategy::Random,
    ];
    /// The option values, in the order of [`Strategy::ALL`].
    pub const NAMES: [&'static str; 8] = [
        "full", "minimax4", "minimax2", "defender", "attacker", "sampled2", "greedy", "random",
    ];

    /// The option value naming this strategy.
    pub const fn name(self) -> &'static str {
        Strategy::NAMES[self as usize]
    }
}

impl std::str::FromStr for Strategy {
    type Err = String;

    /// A strategy from its option value; anything else is an error naming the choices.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Strategy::NAMES
            .iter()
            .position(|&name| name == text)
            .map(|index| Strategy::ALL[index])
            .ok_or_else(|| format!("expected one of {}", Strategy::NAMES.join(", ")))
    }
}

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
    let mut best = i64::MIN;
    let mut replies = Vec::new();
    best_of(moves, rng, |mv| {
        let value = two_ply_value(position, mv, best, &mut replies)?;
        best = best.max(value);
        Some(value)
    })
}

/// The mover's rule value after `mv` and the opponent's worst reply for it, or `None` as
/// soon as one reply shows it below `best` (the best value found so far).
fn two_ply_value<G: SearchGame>(
    position: &G,
    mv: G::Move,
    best: i64,
    replies: &mut Vec<G::Move>,
) -> Option<i64> {
    let mover = position.side_to_move();
    let mut child = position.clone();
    child.play_unchecked(mv);
    child.legal_moves(replies);
    if replies.is_empty() {
        return Some(rule_value(&child, mover));
    }
    let mut worst = i64::MAX;
    for &reply in replies.iter() {
        let mut grandchild = child.clone();
        grandchild.play_unchecked(reply);
        worst = worst.min(rule_value(&grandchild, mover));
        if worst < best {
            return None;
        }
    }
    Some(worst)
}

/// Bits below the rule value that [`defender_move`] and [`attacker_move`] keep for their
/// tie-break.
const ADVANCEMENT_TIE_BITS: u32 = 16;

/// Which way [`advancement_tie_move`] breaks ties.
#[derive(Copy, Clone)]
enum Advance {
    Least,
    Most,
}

/// [`minimax2_move`]'s choice, and among equal values the move after which the mover's
/// army stands least advanced ([`SearchGame::advancement`]), ties broken at random: a
/// defender that keeps its men home, steps back when it can, and comes forward only when
/// the two-ply value or the lack of other moves makes it.
pub fn defender_move<G: SearchGame>(
    position: &G,
    moves: &[G::Move],
    rng: &mut Rng,
) -> Option<G::Move> {
    advancement_tie_move(position, moves, rng, Advance::Least)
}

/// [`minimax2_move`]'s choice, and among equal values the move after which the mover's
/// army stands most advanced, ties broken at random: an attacker that marches on the
/// enemy whenever two plies show no man lost by it.
pub fn attacker_move<G: SearchGame>(
    position: &G,
    moves: &[G::Move],
    rng: &mut Rng,
) -> Option<G::Move> {
    advancement_tie_move(position, moves, rng, Advance::Most)
}

/// [`minimax2_move`]'s choice, equal values ranked by the mover's advancement after the
/// move, the least or the most first as `advance` says.
fn advancement_tie_move<G: SearchGame>(
    position: &G,
    moves: &[G::Move],
    rng: &mut Rng,
    advance: Advance,
) -> Option<G::Move> {
    let mover = position.side_to_move();
    let mut best = i64::MIN;
    let mut replies = Vec::new();
    best_of(moves, rng, |mv| {
        let value = two_ply_value(position, mv, best, &mut replies)?;
        best = best.max(value);
        let mut child = position.clone();
        child.play_unchecked(mv);
        let advancement =
            i64::from(child.advancement(mover)).clamp(0, (1 << ADVANCEMENT_TIE_BITS) - 1);
        let rank = match advance {
            Advance::Least => -advancement,
            Advance::Most => advancement,
        };
        Some((value << ADVANCEMENT_TIE_BITS) + rank)
    })
}

/// How many of its legal moves [`sampled2_move`] considers.
pub const SAMPLED_CANDIDATES: usize = 12;

/// [`minimax2_move`] over [`SAMPLED_CANDIDATES`] of the legal moves drawn at random (all
/// of them when there are no more): sound two-ply tactics among the moves it happens to
/// look at, and blind to the rest.
pub fn sampled2_move<G: SearchGame>(
    position: &G,
    moves: &[G::Move],
    rng: &mut Rng,
) -> Option<G::Move> {
    let mut candidates = moves.to_vec();
    shuffle(&mut candidates, rng);
    candidates.truncate(SAMPLED_CANDIDATES);
    minimax2_move(position, &candidates, rng)
}

/// The plies [`Strategy::Minimax4`] searches.
pub const MINIMAX4_PLIES: u32 = 4;

/// Nodes a [`minimax_move`] iteration may visit before it is abandoned for the last
/// complete one: a fixed count, so the choice stays the same for a given seed on any
/// machine, and a wide game (Catchup's turns of up to three stones) still answers at once.
pub const MINIMAX_NODE_BUDGET: u64 = 500_000;

/// The move with the best rule value `plies` plies ahead (alpha-beta, a finished game
/// counting as its result), ties broken at random: the moves are shuffled and a later
/// move replaces the best only when strictly better, so every tied move is equally
/// likely. Iterations deepen from one ply; one that exceeds [`MINIMAX_NODE_BUDGET`]
/// nodes is abandoned and the last complete one's move is played.
pub fn minimax_move<G: SearchGame>(
    position: &G,
    moves: &[G::Move],
    plies: u32,
    rng: &mut Rng,
) -> Option<G::Move> {
    let mut order = moves.to_vec();
    shuffle(&mut order, rng);
    let mut chosen = order.first().copied();
    let mut search = MaterialSearch {
        nodes: 0,
        moves: Vec::new(),
    };
    for depth in 1..=plies.max(1) {
        search.nodes = 0;
        let mut best_value = i64::MIN;
        let mut best_move = None;
        for &mv in &order {
            let mut child = position.clone();
            child.play_unchecked(mv);
            let Some(value) =
                search.value(&child, depth - 1, i64::MIN + 1, best_value.saturating_neg())
            else {
                return chosen;
            };
            let value = -value;
            if best_move.is_none() || value > best_value {
                best_value = value;
                best_move = Some(mv);
            }
        }
        chosen = best_move;
    }
    chosen
}

/// Negamax alpha-beta on the rule value, for [`minimax_move`].
struct MaterialSearch<M> {
    nodes: u64,
    /// Move buffers per ply below the root.
    moves: Vec<Vec<M>>,
}

impl<M: Copy> MaterialSearch<M> {
    /// The rule value of `position` for its side to move searched `depth` plies deep
    /// (fail-soft within `alpha..beta`), or `None` once the node budget is spent.
    fn value<G: SearchGame<Move = M>>(
        &mut self,
        position: &G,
        depth: u32,
        mut alpha: i64,
        beta: i64,
    ) -> Option<i64> {
        self.nodes += 1;
        if self.nodes > MINIMAX_NODE_BUDGET {
            return None;
        }
        let mover = position.side_to_move();
        if depth == 0 || position.outcome().is_some() {
            return Some(rule_value(position, mover));
        }
        let ply = depth as usize;
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        position.legal_moves(&mut moves);
        let mut best = i64::MIN + 1;
        for &mv in &moves {
            let mut child = position.clone();
            child.play_unchecked(mv);
            let Some(value) = self.value(
                &child,
                depth - 1,
                beta.saturating_neg(),
                alpha.saturating_neg(),
            ) else {
                self.moves[ply] = moves;
                return None;
            };
            let value = -value;
            if value > best {
                best = value;
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.moves[ply] = moves;
        Some(best)
    }
}

/// Shuffles `items` in place (Fisher-Yates) with `rng`.
fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for index in (1..items.len()).rev() {
        items.swap(index, rng.below(index + 1));
    }
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
