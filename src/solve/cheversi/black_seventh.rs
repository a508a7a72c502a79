//! Black's 7th placement (three placements left), valued without the search's own nodes:
//! Black's killer first, through the square facts its siblings share (`ending`), then
//! every placement by the margin it gains.
//!
//! Where Black's 7th must fail (below the value, White's 7th succeeds, and every Black
//! reply must be refuted), White's 8th killer refutes nearly all of them, and what it
//! does hardly depends on Black's 7th piece: its gain does not see a piece off its rays
//! (and off its Knight jumps, for a Knight), and Black's King replies next to it do not
//! see one off their rays, or gain at most Black's losses there with one on them (the
//! piece can only cut rays: the King's empty neighbours and White's losses there only
//! fall, Black's losses fall at most to nothing). So the line "White's 8th killer, then
//! Black's best King" is valued once per node ([`EighthReply`]), and each Black 7th
//! placement off the killer's rays is bounded from it and its own gain, without a
//! position built: the mirror of the White 7th pass (`white_seventh`).

use std::cmp::Reverse;

use crate::game::Player;
use crate::game::cheversi::bitboard::{KING_ATTACKS, KNIGHT_ATTACKS};
use crate::game::cheversi::{Cheversi, Move, PieceKind, Squares};

use super::ending::Scratch;
use super::state::{CheversiState, VALUE_BOUND};

/// White's 8th killer answering Black's 7th placements, as far as it does not depend on
/// which one (see the module notes).
#[derive(Clone, Debug)]
pub(super) struct EighthReply {
    /// Squares where Black's 7th piece may change the killer's gain or legality: its
    /// rays, its neighbours (the King squares and rule 7), its Knight jumps for a Knight,
    /// and its own square.
    near: u64,
    /// The killer's gain for White (on the board before Black's 7th).
    gain: i32,
    /// Black's King squares next to the killer: what the King gains there for Black on
    /// the board with the killer and without Black's 7th piece, Black's own losses there
    /// (the most a piece on the square's rays can add), the square's rays, and the
    /// square.
    kings: [(i32, i32, u64, u64); 8],
    /// Entries of `kings` in use.
    count: usize,
}

impl EighthReply {
    /// The reply of White's 8th `killer` on `position` (three placements left, Black to
    /// move), read on the board after `probe` (a Black placement off the killer's
    /// neighbours) and the killer, with `probe` taken off again; `None` when the killer
    /// is not legal after `probe` (then not after any placement away from it).
    pub(super) fn new(position: &Cheversi, killer: Move, probe: Move) -> Option<EighthReply> {
        let square = killer.square();
        if (KING_ATTACKS[square.index()] | square.bit()) & probe.square().bit() != 0 {
            return None;
        }
        let mut board = position.clone();
        board.place(probe);
        if !board.is_legal(killer) {
            return None;
        }
        board.place(killer);
        let board = board.without(probe.square());
        let effect = position.square_effect(square);
        let gain = effect.margin_change(Player::One, killer.kind());
        let knight = if killer.kind() == PieceKind::Knight {
            KNIGHT_ATTACKS[square.index()]
        } else {
            0
        };
        let mut reply = EighthReply {
            near: effect.reach | KING_ATTACKS[square.index()] | knight | square.bit(),
            gain,
            kings: [(0, 0, 0, 0); 8],
            count: 0,
        };
        for king in Squares(KING_ATTACKS[square.index()] & !board.occupied()) {
            let effect = board.square_effect(king);
            let gained = effect.margin_change(Player::Two, PieceKind::King);
            let black = Player::Two.index();
            reply.kings[reply.count] = (gained, effect.losses[black], effect.reach, king.bit());
            reply.count += 1;
        }
        if reply.count == 0 {
            // Rule 7 leaves the King a square; a board without one is left to the search.
            return None;
        }
        Some(reply)
    }

    /// A bound on Black's margin after Black's 7th placement `mv` (gaining Black `gain`
    /// from `margin`) on `position`, White's killer and Black's best King; `None` when
    /// the killer is not legal after `mv`. Away from the killer (see
    /// [`EighthReply::near`]) from the reply's facts alone; near it, the killer's gain
    /// and legality are read on the board after `mv`.
    #[inline]
    pub(super) fn bound(
        &self,
        position: &Cheversi,
        killer: Move,
        margin: i32,
        gain: i32,
        mv: Move,
    ) -> Option<i32> {
        let square = mv.square().bit();
        let killer_gain = if self.near & square == 0 {
            self.gain
        } else {
            let mut board = position.clone();
            board.place(mv);
            if !board.is_legal(killer) {
                return None;
            }
            board
                .square_effect(killer.square())
                .margin_change(Player::One, killer.kind())
        };
        // A King square Black's 7th piece takes is no reply; one whose rays it stands on
        // gains at most Black's losses there more.
        let king = self.kings[..self.count]
            .iter()
            .filter(|&&(_, _, _, king)| king != square)
            .map(|&(gained, losses, rays, _)| gained + if rays & square != 0 { losses } else { 0 })
            .max()?;
        Some(margin + gain - killer_gain + king)
    }
}

impl CheversiState {
    /// White's 8th `killer`'s reply here (three placements left), read with `probe`, a
    /// legal Black placement, on the board (see [`EighthReply::new`]), with the killer.
    fn eighth_reply(&self, killer: Option<Move>, probe: Move) -> Option<(EighthReply, Move)> {
        let killer = killer?;
        EighthReply::new(&self.position, killer, probe).map(|reply| (reply, killer))
    }

    /// [`CheversiState::eighth_reply`] with the first of `moves` away from the killer as
    /// the probe.
    fn eighth_reply_among(
        &self,
        killer: Option<Move>,
        moves: &[(i32, Move)],
    ) -> Option<(EighthReply, Move)> {
        let square = killer?.square();
        let near = KING_ATTACKS[square.index()] | square.bit();
        let &(_, probe) = moves.iter().find(|(_, mv)| near & mv.square().bit() == 0)?;
        self.eighth_reply(killer, probe)
    }

    /// Black's 7th placement (three placements left), fail-soft: the thread's killer first,
    /// its White 8th candidates bounded from the square facts it shares with its siblings,
    /// then every placement by the margin it gains, as the search orders them, each first
    /// bounded by White's 8th killer's reply ([`EighthReply`]) and settled when that
    /// bound cannot beat the window (it counts each position after Black's placement in
    /// `nodes`, as the search would).
    pub(super) fn black_seventh(
        &self,
        alpha: i32,
        beta: i32,
        scratch: &mut Scratch,
        nodes: &mut u64,
    ) -> i32 {
        let mut best = -VALUE_BOUND - 1;
        let margin = self.mover_margin();
        let mut moves = std::mem::take(&mut scratch.moves);
        let mut reply = None;
        let mut tried = None;
        let killer_legal = scratch
            .killer
            .is_some_and(|killer| self.position.is_legal(killer));
        // Where the killer is illegal (White's 7th took its square, or it touches no
        // piece without that one), the placement that refuted last where it was, before
        // any other placement's gain is computed.
        let first = if killer_legal {
            scratch.killer
        } else {
            scratch
                .second_killer
                .filter(|&second| self.position.is_legal(second))
        };
        if let Some(killer) = first {
            tried = Some(killer);
            *nodes += 1;
            let gain = self.gain(killer);
            // After a node that failed low, the next mostly fails too: the killer is first
            // bounded by White's 8th killer's reply, which then serves the others.
            if scratch.black_failed {
                reply = self.eighth_reply(scratch.eighth_killer, killer);
            }
            let settled = reply.as_ref().and_then(|(reply, eighth)| {
                reply.bound(&self.position, *eighth, margin, gain, killer)
            });
            match settled {
                Some(bound) if bound <= alpha => best = bound,
                _ => {
                    let child = self.after(killer, gain);
                    // Three placements left: the last one was White's 7th (when known).
                    // Its siblings share the facts of the board without it after the
                    // killer; after the second killer they do not (it answers the one
                    // White 7th placement on the killer's square), and the candidates
                    // valued directly cost less than those facts.
                    let shared = self.position.last_placement().filter(|_| killer_legal);
                    best = match shared {
                        Some(seventh) => {
                            -child.white_eighth_reusing(-beta, -alpha, seventh.square(), scratch)
                        }
                        _ => -child.last_two_placements(-beta, -alpha, scratch),
                    };
                    if best >= beta {
                        self.remember_refutation(killer, killer_legal, scratch);
                        scratch.black_failed = false;
                        scratch.moves = moves;
                        return best;
                    }
                }
            }
        }
        self.placements_with_gains(&mut moves);
        if moves.is_empty() {
            scratch.moves = moves;
            return -VALUE_BOUND;
        }
        moves.sort_by_key(|&(gain, _)| Reverse(gain));
        let mut replied_with = reply.as_ref().map(|&(_, eighth)| eighth);
        for &(gain, mv) in moves.iter() {
            if tried == Some(mv) {
                continue;
            }
            *nodes += 1;
            if scratch.eighth_killer != replied_with {
                // White's 8th killer changed (or none was tried yet): its reply anew.
                replied_with = scratch.eighth_killer;
                reply = self.eighth_reply_among(replied_with, &moves);
            }
            let bound = reply
                .as_ref()
                .and_then(|(reply, eighth)| reply.bound(&self.position, *eighth, margin, gain, mv));
            if let Some(bound) = bound
                && bound <= alpha.max(best)
            {
                best = best.max(bound);
                continue;
            }
            let value = -self
                .after(mv, gain)
                .last_two_placements(-beta, -alpha.max(best), scratch);
            if reply.is_some() && bound.is_none() {
                // White's 8th killer was illegal after `mv` alone (`mv` took its square
                // or its last empty neighbour): it stays the killer for the others.
                scratch.eighth_killer = replied_with;
            }
            if value > best {
                best = value;
                if best >= beta {
                    self.remember_refutation(mv, killer_legal, scratch);
                    break;
                }
            }
        }
        scratch.black_failed = best < beta;
        scratch.moves = moves;
        best
    }

    /// Keeps `refutation`, the Black 7th placement that refuted White's 7th here, for the
    /// next siblings: as the killer, unless the killer was illegal only because White's
    /// 7th took its square (it is back for the next sibling), when it is the second
    /// killer (a second killer that refutes again changes nothing).
    fn remember_refutation(&self, refutation: Move, killer_legal: bool, scratch: &mut Scratch) {
        let taken = self.position.last_placement().map(|last| last.square());
        if killer_legal || scratch.killer.map(|killer| killer.square()) != taken {
            scratch.killer = Some(refutation);
        } else {
            scratch.second_killer = Some(refutation);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{minimax, random_board};
    use super::*;
    use crate::game::Rules;
    use crate::random::SplitMix64;

    /// Black's margin at the end of the line: `board`'s mover (White) places `eighth`,
    /// then Black's best King.
    fn line_value(board: &Cheversi, eighth: Move) -> i32 {
        let mut after = board.clone();
        after.play_unchecked(eighth);
        minimax(&after)
    }

    /// The reply's bound of every Black 7th placement is never below Black's margin
    /// after that placement, White's 8th killer and Black's best King (so never below
    /// Black's value either: White may do better than its killer), and it meets that
    /// margin on most placements, so a bound a point lower, or one that forgets what a
    /// Black piece on a King square's rays gives back, fails here.
    #[test]
    fn the_eighth_reply_bound_is_never_below_the_killer_line() {
        let mut rng = SplitMix64::new(1313);
        let (mut bounded, mut exact, mut near) = (0, 0, 0);
        for _ in 0..300 {
            let board = random_board(&mut rng, 13);
            let state = CheversiState::new(board.clone());
            let mut moves = Vec::new();
            state.placements_with_gains(&mut moves);
            // White's 8th killer: White's best reply to a random Black placement.
            let (_, first) = moves[rng.below(moves.len())];
            let mut after = board.clone();
            after.play_unchecked(first);
            let mut eighths = Vec::new();
            after.legal_moves(&mut eighths);
            let killer = *eighths
                .iter()
                .min_by_key(|&&eighth| line_value(&after, eighth))
                .expect("White has an 8th placement");
            let Some((reply, killer)) = state.eighth_reply_among(Some(killer), &moves) else {
                continue;
            };
            let margin = state.mover_margin();
            for &(gain, mv) in &moves {
                let mut after = board.clone();
                after.play_unchecked(mv);
                let bound = reply.bound(&board, killer, margin, gain, mv);
                if !after.is_legal(killer) {
                    assert_eq!(bound, None, "{board:?} {mv} {killer}: illegal killer");
                    continue;
                }
                let Some(bound) = bound else {
                    continue;
                };
                let truth = line_value(&after, killer);
                assert!(bound >= truth, "{board:?} {mv} {killer}: {bound} < {truth}");
                bounded += 1;
                exact += usize::from(bound == truth);
                near += usize::from(reply.near & mv.square().bit() != 0);
            }
        }
        assert!(bounded > 3000, "{bounded} placements bounded");
        assert!(near > 500, "{near} placements near the killer");
        assert!(exact * 2 > bounded, "{exact} of {bounded} bounds exact");
    }
}
