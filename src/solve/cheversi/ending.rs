//! Cheversi's last three placements, valued without the search's own nodes.
//!
//! The last placement (Black's King) is the best score change over its squares; the last
//! two are White's candidates, each bounded by Black's King reply and only the few the
//! bound leaves open played ([`CheversiState::last_two_placements`]); the last three are
//! Black's 7th placement, the killer first, as the search would do them
//! ([`CheversiState::black_seventh`]).
//!
//! Most of the work is Black's killer refuting White's 7th placements one after the
//! other: siblings whose positions differ only by White's 7th piece. So the effects of
//! every square on the board without that piece are kept ([`Facts`]) and reused: an
//! effect changes only when the piece stands on the square's rays or a Knight's jump
//! away, and even then White's candidate there gains at most what it gains without that
//! piece plus what White's own pieces lose there ([`CheversiState::white_eighth_reusing`]).
//! The same bounds settle most White 7th placements one level up, before a position is
//! built for them (`white_seventh`).
//!
//! Where White's 8th succeeds instead (after each Black 7th placement of a White 7th that
//! Black cannot refute), the White 8th candidate that last succeeded is played first.

use crate::game::Player;
use crate::game::cheversi::bitboard::{
    KING_ATTACKS, KNIGHT_ATTACKS, bishop_attacks, neighbours, rook_attacks,
};
use crate::game::cheversi::position::SquareEffect;
use crate::game::cheversi::{Cheversi, Move, PieceKind, Square, Squares};

use super::state::{CheversiState, VALUE_BOUND};

/// What one thread keeps between Black's 7th placements (the search's scratch).
#[derive(Debug, Default)]
pub struct Scratch {
    /// Black's 7th placement that last refuted White's 7th: tried first, as the search
    /// tries its killer.
    pub(super) killer: Option<Move>,
    /// Black's 7th placement that last refuted White's 7th where the killer was illegal
    /// (White's 7th took its square): tried first then, while the killer stays.
    pub(super) second_killer: Option<Move>,
    /// The square facts of the last few killers' positions, without White's 7th piece
    /// (a killer that fails once is often back at the next sibling).
    facts: [Facts; FACT_BOARDS],
    /// The entry of `facts` to be replaced next.
    next_facts: usize,
    /// Black's placements with their gains (a buffer kept between calls).
    pub(super) moves: Vec<(i32, Move)>,
    /// White's 8th placement that last reached `beta` in the last two placements: tried
    /// first there.
    pub(super) eighth_killer: Option<Move>,
    /// White's 7th placements still open (a buffer of `white_seventh`).
    pub(super) sevenths: Vec<Move>,
    /// True when the last Black 7th placement node failed low (every placement refuted):
    /// the next one then bounds Black's killer by White's 8th killer's reply first.
    pub(super) black_failed: bool,
    /// Black's 6th placement that last refuted every White 7th placement after it: the
    /// reply the 6th pass (`white_sixth`) tries.
    pub(super) sixth_killer: Option<Move>,
}

/// Boards whose facts a thread keeps.
const FACT_BOARDS: usize = 4;

/// A new board takes over the facts of a kept one that differs from it on at most this
/// many squares (see [`Facts::moved_to`]); a board further from all is filled anew.
const MAX_CHANGED_SQUARES: u32 = 4;

/// Facts about the squares of one board, computed when first asked for.
#[derive(Clone, Debug)]
pub(super) struct Facts {
    /// The board they are about.
    board: Cheversi,
    /// Squares whose `effects` are known.
    known: u64,
    effects: [SquareEffect; 64],
    /// Squares whose King floor (see [`Facts::floor`]) is known.
    floors_known: u64,
    floors: [i32; 64],
    /// Squares whose `bounds` are known.
    bounds_known: u64,
    bounds: [CandidateBound; 64],
}

/// A bound on White's 8th placement on one square, from the facts of the board without
/// White's 7th piece, once that piece stands on some square `u`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct CandidateBound {
    /// By kind, the gain less the best King floor next to the square: the bound when `u`
    /// is neither on `reach` nor on `zone`.
    far: [i16; 5],
    /// The same without White's losses on the square: the bound when `u` is on `reach`.
    near: [i16; 5],
    /// The square's rays ([`SquareEffect::reach`]).
    reach: u64,
    /// The square of the best King floor and its neighbours: with `u` on a neighbour,
    /// that floor falls by one (a neighbour fewer; Black's rays only get shorter).
    zone: u64,
    /// The square of the best King floor.
    king: u8,
    /// With `u` on `king`, the bound grows by this: the best floor less the second best
    /// one, which falls by one at most.
    king_taken: i16,
}

impl Default for Facts {
    fn default() -> Self {
        let nothing = SquareEffect {
            losses: [0; 2],
            gains: [0; 5],
            reach: 0,
        };
        Facts {
            board: Cheversi::new(),
            known: 0,
            effects: [nothing; 64],
            floors_known: 0,
            floors: [0; 64],
            bounds_known: 0,
            bounds: [CandidateBound::default(); 64],
        }
    }
}

impl Scratch {
    /// The facts about `board`: those kept, or a new entry in place of the oldest. The
    /// new entry starts from the facts of the kept board closest to `board`, when one
    /// differs from it on a few squares only: the next board four placements before the
    /// end differs from the last by White's 6th piece alone (and Black's killers), and
    /// most squares' facts do not see that piece.
    pub(super) fn facts_about(&mut self, board: Cheversi) -> &mut Facts {
        if let Some(index) = self.facts.iter().position(|facts| facts.board == board) {
            return &mut self.facts[index];
        }
        let index = self.next_facts;
        self.next_facts = (index + 1) % FACT_BOARDS;
        let (closest, changed) = self
            .facts
            .iter()
            .enumerate()
            .map(|(kept, facts)| (kept, changed_squares(&facts.board, &board)))
            .min_by_key(|(_, changed)| changed.count_ones())
            .expect("facts are kept for some boards");
        if changed.count_ones() > MAX_CHANGED_SQUARES {
            self.facts[index].about(board);
        } else {
            if closest != index {
                let (low, high) = self.facts.split_at_mut(closest.max(index));
                let (target, source) = if index < closest {
                    (&mut low[index], &high[0])
                } else {
                    (&mut high[0], &low[closest])
                };
                target.clone_from(source);
            }
            self.facts[index].moved_to(board, changed);
        }
        &mut self.facts[index]
    }
}

impl Facts {
    /// Makes the facts about `board`, forgetting those about another board.
    fn about(&mut self, board: Cheversi) {
        self.board = board;
        self.known = 0;
        self.floors_known = 0;
        self.bounds_known = 0;
    }

    /// Makes the facts about `board`, which differs from the board they are about on the
    /// squares `changed` only, keeping those the change cannot reach. A square's effect
    /// depends on what stands on its rays up to the first piece, its Knight jumps and its
    /// neighbours, so only the squares that see a changed square that way (through the
    /// pieces both boards share) lose it; a King floor depends on its square's effect and
    /// neighbours, the same squares; a candidate's bound on its effect and its
    /// neighbours' floors, so those squares' neighbours lose it too.
    fn moved_to(&mut self, board: Cheversi, changed: u64) {
        let shared = self.board.occupied() & board.occupied();
        let mut reached = changed;
        for square in Squares(changed) {
            let index = square.index();
            reached |= rook_attacks(square, shared)
                | bishop_attacks(square, shared)
                | KNIGHT_ATTACKS[index]
                | KING_ATTACKS[index];
        }
        self.board = board;
        self.known &= !reached;
        self.floors_known &= !reached;
        self.bounds_known &= !(reached | neighbours(reached));
    }

    pub(super) fn board(&self) -> &Cheversi {
        &self.board
    }

    /// The effect of filling the empty `square`.
    pub(super) fn effect(&mut self, square: Square) -> SquareEffect {
        let index = square.index();
        if self.known & square.bit() == 0 {
            self.effects[index] = self.board.square_effect(square);
            self.known |= square.bit();
        }
        self.effects[index]
    }

    /// The King floor of the empty `king` (see [`CheversiState::king_floor`]): what Black's
    /// King there gains at least next to a White piece placed on a neighbour.
    fn floor(&mut self, king: Square) -> i32 {
        let index = king.index();
        if self.floors_known & king.bit() == 0 {
            let black_losses = self.effect(king).losses[Player::Two.index()];
            self.floors[index] = floor_of(king, !self.board.occupied(), black_losses);
            self.floors_known |= king.bit();
        }
        self.floors[index]
    }

    /// The bound of White's 8th placement on the empty `square`.
    #[inline]
    pub(super) fn bound(&mut self, square: Square) -> &CandidateBound {
        if self.bounds_known & square.bit() == 0 {
            self.fill_bound(square);
        }
        &self.bounds[square.index()]
    }

    /// Computes the bound of [`Facts::bound`] (kept out of line: most calls find it known).
    #[inline(never)]
    fn fill_bound(&mut self, square: Square) {
        let index = square.index();
        {
            let effect = self.effect(square);
            // The best two King floors next to the square.
            let empty = !self.board.occupied();
            let (mut first, mut second) = ((-VALUE_BOUND, index), -VALUE_BOUND);
            for king in Squares(KING_ATTACKS[index] & empty) {
                let floor = self.floor(king);
                if floor > first.0 {
                    second = first.0;
                    first = (floor, king.index());
                } else if floor > second {
                    second = floor;
                }
            }
            let (white, black) = (Player::One.index(), Player::Two.index());
            let near = effect
                .gains
                .map(|gain| (gain + effect.losses[black] - first.0) as i16);
            self.bounds[index] = CandidateBound {
                far: near.map(|bound| bound - effect.losses[white] as i16),
                near,
                reach: effect.reach,
                zone: KING_ATTACKS[first.1] | 1 << first.1,
                king: first.1 as u8,
                king_taken: (first.0 - second + 1).min(2 * VALUE_BOUND) as i16,
            };
            self.bounds_known |= square.bit();
        }
    }
}

impl CandidateBound {
    /// The largest bound for `kind` whatever square White's 7th piece takes (the bound
    /// without White's losses on the square, raised as far as the King square allows).
    #[inline]
    pub(super) fn ceiling(&self, kind: PieceKind) -> i32 {
        i32::from(self.near[kind.index()]) + i32::from(self.king_taken.max(1))
    }

    /// The bound for `kind` once White's 7th piece stands on `seventh`.
    #[inline]
    pub(super) fn with_seventh(&self, kind: PieceKind, seventh: Square) -> i32 {
        let bit = seventh.bit();
        let mut bound = if self.reach & bit != 0 {
            self.near[kind.index()]
        } else {
            self.far[kind.index()]
        };
        if self.zone & bit != 0 {
            bound += if usize::from(self.king) == seventh.index() {
                self.king_taken
            } else {
                1
            };
        }
        i32::from(bound)
    }
}

impl CheversiState {
    /// The mover's best last placement (Black's King), fail-soft against `beta`.
    pub(super) fn last_placement(&self, beta: i32) -> i32 {
        let base = self.mover_margin();
        let mover = self.position.side_to_move();
        let squares = self.position.legal_squares_by_kind();
        let mut best = -VALUE_BOUND - 1;
        for kind in PieceKind::ALL {
            for square in Squares(squares[kind.index()]) {
                let value = base
                    + self
                        .position
                        .square_effect(square)
                        .margin_change(mover, kind);
                if value > best {
                    best = value;
                    if best >= beta {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// The last two placements by fail-soft alpha-beta: each of White's candidates
    /// answered by Black's best King, the candidates tried in the order of the margin
    /// they leave.
    ///
    /// Most candidates are settled without playing them: Black's King goes next to
    /// White's last piece, and a King on the empty square `k` scores at least
    /// [`CheversiState::king_floor`]`(k)` for Black, so White's candidate is worth at most
    /// its margin minus the best floor next to it. A first pass over the candidates, in
    /// generation order, settles those whose bound cannot beat the window (their bound
    /// still counts towards the fail-soft value); only the others are sorted and played.
    /// Sorting every candidate cost a tenth of a solve, and the order matters only for
    /// the few that are played: a pass that fails low plays them all, and one that fails
    /// high stops at the first to reach `beta`.
    ///
    /// The thread's White 8th killer (the candidate that last reached `beta`) is played
    /// first, before any other candidate's square effect: where White's 8th succeeds, as
    /// against every Black 7th placement of a White 7th that Black cannot refute, the same
    /// candidate mostly succeeds after each of them.
    pub(super) fn last_two_placements(&self, alpha: i32, beta: i32, scratch: &mut Scratch) -> i32 {
        let mut best = -VALUE_BOUND - 1;
        if let Some(killer) = scratch.eighth_killer
            && self.position.is_legal(killer)
        {
            best = -self.after(killer, self.gain(killer)).last_placement(-alpha);
            if best >= beta {
                return best;
            }
        }
        let squares = self.position.legal_squares_by_kind();
        let mut cut = None;
        let value = self.settle_candidates(alpha, beta, squares, best, &mut cut);
        if cut.is_some() {
            scratch.eighth_killer = cut;
        }
        value
    }

    /// [`CheversiState::last_two_placements`] over White's candidates on `squares` (by
    /// kind) alone, the others already worth at most `best`.
    /// A candidate that reaches `beta` is left in `cut`.
    fn settle_candidates(
        &self,
        alpha: i32,
        beta: i32,
        squares: [u64; 5],
        best: i32,
        cut: &mut Option<Move>,
    ) -> i32 {
        let base = self.mover_margin();
        let mover = self.position.side_to_move().index();
        let empty = !self.position.occupied();
        let black = Player::Two.index();
        let mut floors = [0i32; 64];
        let mut known = 0u64;
        let mut best = best;
        // The candidates as order keys (`candidate_key`), later those still open with
        // their bound. White holds one piece before its last placement, so 64 entries
        // hold them all; one more (never seen) would be played at once, as correctly.
        let mut open = [0u64; 64];
        let mut count = 0;
        // Kind by kind (White has one left, so no square's effect is computed twice).
        for kind in PieceKind::ALL {
            for square in Squares(squares[kind.index()]) {
                let effect = self.position.square_effect(square);
                // A candidate's square is often a King square next to another candidate:
                // its floor comes with its effect.
                floors[square.index()] = floor_of(square, empty, effect.losses[black]);
                known |= square.bit();
                let taken = effect.losses[1 - mover] - effect.losses[mover];
                let gain = effect.gains[kind.index()] + taken;
                let mv = Move::new(kind, square);
                if let Some(slot) = open.get_mut(count) {
                    *slot = u64::from(candidate_key(gain, mv));
                    count += 1;
                } else {
                    best = best.max(-self.after(mv, gain).last_placement(-alpha.max(best)));
                    if best >= beta {
                        *cut = Some(mv);
                        return best;
                    }
                }
            }
        }
        // The largest gain first, played at once if its bound leaves it open: a node that
        // fails high mostly does so on it, before any other candidate's floors.
        if let Some(first) = (0..count).max_by_key(|&index| open[index]) {
            open.swap(0, first);
        }
        let mut still_open = 0;
        for index in 0..count {
            let (gain, mv) = candidate_of_key(open[index] as u32);
            let square = mv.square();
            // The best floor next to the candidate, as far as needed to settle it.
            let mut reply_floor = -VALUE_BOUND;
            for king in Squares(KING_ATTACKS[square.index()] & empty) {
                if base + gain - reply_floor <= alpha {
                    break;
                }
                if known & king.bit() == 0 {
                    floors[king.index()] = self.king_floor(king, empty);
                    known |= king.bit();
                }
                reply_floor = reply_floor.max(floors[king.index()]);
            }
            let bound = base + gain - reply_floor;
            if bound <= alpha {
                best = best.max(bound);
            } else if index == 0 {
                best = best.max(-self.after(mv, gain).last_placement(-alpha.max(best)));
                if best >= beta {
                    *cut = Some(mv);
                    return best;
                }
            } else {
                open[still_open] = open[index] << 32 | u64::from(bound as u32);
                still_open += 1;
            }
        }
        let count = still_open;
        let open = &mut open[..count];
        open.sort_unstable_by_key(|&entry| std::cmp::Reverse(entry));
        for &entry in open.iter() {
            let (key, bound) = ((entry >> 32) as u32, entry as u32 as i32);
            let needed = alpha.max(best);
            if bound <= needed {
                best = best.max(bound);
                continue;
            }
            let (gain, mv) = candidate_of_key(key);
            let value = -self.after(mv, gain).last_placement(-needed);
            if value > best {
                best = value;
                if best >= beta {
                    *cut = Some(mv);
                    break;
                }
            }
        }
        best
    }

    /// A lower bound on what Black's King on the empty square `king` gains for Black when
    /// it is the last placement, whatever White's 8th piece next to it was: it attacks
    /// its empty neighbours but that piece's square, White's pieces lose what they lose
    /// (at least nothing), and Black's own pieces lose at most what they lose on today's
    /// board (a piece placed since only shortens their rays).
    fn king_floor(&self, king: Square, empty: u64) -> i32 {
        let black = Player::Two.index();
        floor_of(king, empty, self.position.square_losses(king)[black])
    }

    /// [`CheversiState::last_two_placements`] after White's 7th piece on `seventh`, with
    /// each candidate first bounded from `facts` about the board without that piece
    /// (shared with the siblings that differ from this position only there): the same
    /// effect when `seventh` is off the candidate's rays (a Knight's jump only lowers
    /// the gain), else at most the gain there without White's losses; the same King
    /// floors less one next to `seventh`. Only the candidates left open are bounded
    /// again exactly and played.
    pub(super) fn white_eighth_reusing(
        &self,
        alpha: i32,
        beta: i32,
        seventh: Square,
        scratch: &mut Scratch,
    ) -> i32 {
        let facts = scratch.facts_about(self.position.without(seventh));
        self.white_eighth_with(alpha, beta, seventh, facts)
    }

    /// [`CheversiState::white_eighth_reusing`] with the `facts` about the board without
    /// White's 7th piece at hand.
    pub(super) fn white_eighth_with(
        &self,
        alpha: i32,
        beta: i32,
        seventh: Square,
        facts: &mut Facts,
    ) -> i32 {
        let base = self.mover_margin();
        let squares = self.position.legal_squares_by_kind();
        let mut open = [0u64; 5];
        let mut best = -VALUE_BOUND - 1;
        for kind in PieceKind::ALL {
            for square in Squares(squares[kind.index()]) {
                let bound = base + facts.bound(square).with_seventh(kind, seventh);
                if bound <= alpha {
                    best = best.max(bound);
                } else {
                    open[kind.index()] |= square.bit();
                }
            }
        }
        if open.iter().all(|&set| set == 0) {
            return best;
        }
        self.settle_candidates(alpha, beta, open, best, &mut None)
    }
}

/// The squares whose piece (or emptiness) differs between two boards.
fn changed_squares(one: &Cheversi, other: &Cheversi) -> u64 {
    let mut changed = 0;
    for player in [Player::One, Player::Two] {
        for kind in PieceKind::ALL {
            changed |= one.pieces(player, kind) ^ other.pieces(player, kind);
        }
    }
    changed
}

/// [`CheversiState::king_floor`] from the empty squares and what Black's pieces lose on
/// `king`: its empty neighbours but the one White's 8th piece took, less those losses.
fn floor_of(king: Square, empty: u64, black_losses: i32) -> i32 {
    let neighbours = (KING_ATTACKS[king.index()] & empty).count_ones() as i32;
    neighbours - 1 - black_losses
}

/// Bits of a candidate's move in [`candidate_key`].
const MOVE_KEY_BITS: u32 = 9;

/// A candidate of [`CheversiState::last_two_placements`] as one number that sorts by its
/// gain: the gain (offset to be positive) above the move's kind and square.
fn candidate_key(gain: i32, mv: Move) -> u32 {
    let code = (mv.kind().index() as u32) << 6 | mv.square().index() as u32;
    ((gain + VALUE_BOUND + 1) as u32) << MOVE_KEY_BITS | code
}

/// The gain and move of a [`candidate_key`].
fn candidate_of_key(key: u32) -> (i32, Move) {
    let gain = (key >> MOVE_KEY_BITS) as i32 - VALUE_BOUND - 1;
    let kind = PieceKind::from_index((key >> 6 & 7) as usize).expect("a kind from candidate_key");
    let square = Square::from_index((key & 63) as u8).expect("a square from candidate_key");
    (gain, Move::new(kind, square))
}

#[cfg(test)]
mod tests {
    use super::super::random_board;
    use super::*;
    use crate::game::Rules;
    use crate::random::SplitMix64;

    /// Every fact about every empty square of the facts' board, asked so.
    fn every_fact(facts: &mut Facts) -> Vec<(SquareEffect, i32, CandidateBound)> {
        Squares(!facts.board.occupied())
            .map(|square| {
                (
                    facts.effect(square),
                    facts.floor(square),
                    *facts.bound(square),
                )
            })
            .collect()
    }

    /// Facts taken over from a board that differs on a few squares (pieces taken off,
    /// moved to another square, or of another kind or colour there) equal the facts
    /// computed afresh: a square the change can reach but `moved_to` kept would differ.
    #[test]
    fn facts_moved_to_a_nearby_board_equal_fresh_facts() {
        let mut rng = SplitMix64::new(31);
        let mut compared = 0;
        for round in 0..300 {
            let board = random_board(&mut rng, 8 + (round % 7) as u8);
            let mut nearby = board.clone();
            for _ in 0..1 + round % 2 {
                let pieces: Vec<Square> = Squares(nearby.occupied()).collect();
                nearby = nearby.without(pieces[rng.below(pieces.len())]);
            }
            let mut moves = Vec::new();
            nearby.legal_moves(&mut moves);
            if moves.is_empty() {
                // A board with its King taken off has no placement.
                continue;
            }
            nearby.play_unchecked(moves[rng.below(moves.len())]);
            let mut kept = Facts::default();
            kept.about(board.clone());
            every_fact(&mut kept);
            let changed = changed_squares(&board, &nearby);
            kept.moved_to(nearby.clone(), changed);
            let mut fresh = Facts::default();
            fresh.about(nearby.clone());
            assert_eq!(
                every_fact(&mut kept),
                every_fact(&mut fresh),
                "{board:?} -> {nearby:?}"
            );
            compared += 1;
        }
        assert!(compared > 200, "{compared} boards compared");
    }
}
