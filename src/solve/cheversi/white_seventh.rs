//! White's 7th placement (four placements left), most of its children settled before any
//! node is made for them.
//!
//! A White node four placements before the end mostly fails low: every White 7th
//! placement is refuted, nearly always by the same Black 7th placement (the thread's
//! killer), and after it nearly every White 8th candidate is settled by a bound read from
//! the square facts of the board with the killer and without White's 7th piece
//! ([`super::ending`]). That board is the same for every White 7th placement of the node,
//! so the bound of a whole child (White's 7th, the killer, White's best 8th, Black's
//! King) is a loop over White's 8th candidates on facts computed once per node: no
//! position is built for the child, no move list generated, no search entered. Only the
//! children whose bound stays above the window are built and valued, by the shortcut of
//! Black's 7th placement as the search would value them; when that finds a new killer,
//! the children still open are bounded again with it.

use std::cmp::Reverse;

use crate::game::Player;
use crate::game::cheversi::bitboard::{DARK_SQUARES, KING_ATTACKS, LIGHT_SQUARES, neighbours};
use crate::game::cheversi::{Cheversi, Move, PieceKind, Squares};

use super::super::search::{Child, Solvable, Staged};
use super::super::table::SolveTable;
use super::ending::{Facts, Scratch};
use super::state::{CheversiState, VALUE_BOUND};

/// Nodes the search would have counted for a child settled here: the position after
/// White's 7th and the one after the killer (node counts stay comparable).
const NODES_PER_SETTLED_CHILD: u64 = 2;

impl CheversiState {
    /// The children the search must value itself: four placements left, those White's 7th
    /// pass leaves ([`CheversiState::seventh_pass`]); six left, those the 6th pass leaves
    /// (`white_sixth`); elsewhere every child. Returns the largest value at or below
    /// `alpha` of the children valued here (`None` when none).
    pub(super) fn children_above(
        &self,
        alpha: i32,
        tried: Staged,
        children: &mut Vec<Child<Self>>,
        scratch: &mut Scratch,
        table: &SolveTable,
        nodes: &mut u64,
    ) -> Option<i32> {
        match self.remaining() {
            4 => {
                children.clear();
                let pass = self.seventh_pass(alpha, tried, scratch, nodes);
                match pass.above {
                    Some((seventh, child, rest)) => {
                        // Above `alpha`: the search values it again with its window,
                        // first; the others only if it does not cut.
                        children.push(Child {
                            mv: seventh,
                            order: i32::MAX,
                            position: child,
                        });
                        for &rest in &scratch.sevenths[rest..] {
                            let gain = self.gain(rest);
                            children.push(Child {
                                mv: rest,
                                order: gain,
                                position: self.after(rest, gain),
                            });
                        }
                    }
                    // Every White 7th placement refuted: Black's 6th placement before it
                    // is the one to try first against White's next 6th placements.
                    None => scratch.sixth_killer = self.position.last_placement(),
                }
                pass.settled
            }
            6 => self.sixth_children_above(alpha, tried, children, scratch, table, nodes),
            _ => {
                self.children(children);
                None
            }
        }
    }

    /// White's 7th placements (four left) valued here, but those in `tried` (searched
    /// already): each first bounded with Black's killer as the reply
    /// ([`CheversiState::settle_by_killer`]), the others valued as the search would value
    /// them (Black's 7th placement is a shortcut, not stored) with the null window at
    /// `alpha`, and the candidates still open bounded again whenever that changes the
    /// killer (a White 7th placement the killer does not refute is mostly refuted by the
    /// next killer, as are the ones after it). Stops at the first child valued above
    /// `alpha`; the placements not yet valued are then `scratch.sevenths[rest..]`.
    pub(super) fn seventh_pass(
        &self,
        alpha: i32,
        tried: Staged,
        scratch: &mut Scratch,
        nodes: &mut u64,
    ) -> SeventhPass {
        let mut open = std::mem::take(&mut scratch.sevenths);
        open.clear();
        let squares = self.position.legal_squares_by_kind();
        for kind in PieceKind::ALL {
            for square in Squares(squares[kind.index()]) {
                let mv = Move::new(kind, square);
                if !tried.contains(&self.move_code(mv)) {
                    open.push(mv);
                }
            }
        }
        let mut settled = None;
        let mut above = None;
        let mut bounded_with = None;
        let mut sorted = false;
        let mut index = 0;
        while index < open.len() {
            if let Some(killer) = scratch.killer
                && bounded_with != Some(killer)
            {
                bounded_with = Some(killer);
                let kept = self.settle_by_killer(
                    killer,
                    alpha,
                    &mut open[index..],
                    scratch,
                    nodes,
                    &mut settled,
                );
                open.truncate(index + kept);
                continue;
            }
            if !sorted {
                // The largest gain first, as the search orders its children: a node that
                // does not fail low mostly succeeds with one of them.
                sorted = true;
                open[index..].sort_by_cached_key(|&mv| Reverse(self.gain(mv)));
            }
            let seventh = open[index];
            index += 1;
            let gain = self.gain(seventh);
            let child = self.after(seventh, gain);
            *nodes += 1;
            let value = -child.black_seventh(-alpha - 1, -alpha, scratch, nodes);
            if value <= alpha {
                settled = settled.max(Some(value));
                continue;
            }
            above = Some((seventh, child, index));
            break;
        }
        scratch.sevenths = open;
        SeventhPass { settled, above }
    }

    /// Settles the White 7th placements of `open` whose bound with `killer` as Black's
    /// reply ([`CheversiState::seventh_bound`]) is at most `alpha`, raising `settled` to
    /// their bounds; moves the others to the front of `open` and returns their count.
    fn settle_by_killer(
        &self,
        killer: Move,
        alpha: i32,
        open: &mut [Move],
        scratch: &mut Scratch,
        nodes: &mut u64,
        settled: &mut Option<i32>,
    ) -> usize {
        // The board with the killer and without White's 7th piece, the same whichever
        // 7th placement builds it.
        let without = open.iter().find_map(|&seventh| {
            let mut board = self.position.clone();
            board.place(seventh);
            board.is_legal(killer).then(|| {
                board.place(killer);
                board.without(seventh.square())
            })
        });
        let Some(without) = without else {
            return open.len();
        };
        // White's margin on that board.
        let black_gain = self
            .position
            .square_effect(killer.square())
            .margin_change(Player::Two, killer.kind());
        let margin_without = self.margin - black_gain;
        let facts = scratch.facts_about(without);
        let ceilings = ceilings(facts);
        let last_kinds = self.last_white_kinds(killer);
        let mut kept = 0;
        for index in 0..open.len() {
            let seventh = open[index];
            let ceiling = self
                .seventh_ceiling(seventh, &last_kinds, facts, margin_without, &ceilings)
                .filter(|&bound| bound <= alpha);
            let bound = match ceiling {
                Some(bound) => Some(bound),
                None => self.seventh_bound(seventh, &last_kinds, alpha, facts, margin_without),
            };
            match bound {
                Some(bound) => {
                    *settled = (*settled).max(Some(bound));
                    *nodes += NODES_PER_SETTLED_CHILD;
                }
                None => {
                    open[kept] = seventh;
                    kept += 1;
                }
            }
        }
        kept
    }

    /// A coarser bound than [`CheversiState::seventh_bound`], read with one square effect:
    /// the margin after `seventh` and `killer` plus `ceilings` of White's last kind, the
    /// largest bound any White 8th candidate can have whatever square White's 7th piece
    /// takes. `None` when the killer of `last_kinds` is not legal after `seventh`. Most
    /// White 7th placements stay at or below the window even so, and then their
    /// candidates are not looked at one by one.
    fn seventh_ceiling(
        &self,
        seventh: Move,
        last_kinds: &LastKinds,
        facts: &mut Facts,
        margin_without: i32,
        ceilings: &[i32; 5],
    ) -> Option<i32> {
        let kind = last_kinds.after(seventh)?;
        let gain = facts
            .effect(seventh.square())
            .margin_change(Player::One, seventh.kind());
        Some(margin_without + gain + ceilings[kind.index()])
    }

    /// A bound on White's margin after `seventh` (White's 7th placement) when Black
    /// answers with the killer of `last_kinds`, if it is legal then and the bound is at
    /// most `alpha`: the margin after both placements plus the largest bound of White's
    /// 8th candidates ([`super::ending`]'s candidate bounds with White's 7th piece on its
    /// square), from `facts` about the board with the killer and without White's 7th
    /// piece, where White's margin is `margin_without`. Asked only where the ceiling
    /// fails (about one White 7th placement in 35), so the candidates are bounded one by
    /// one: an index of which candidates the piece's square can change cost as much to
    /// build per pass as it saved.
    fn seventh_bound(
        &self,
        seventh: Move,
        last_kinds: &LastKinds,
        alpha: i32,
        facts: &mut Facts,
        margin_without: i32,
    ) -> Option<i32> {
        let square = seventh.square();
        let (kind, candidates) = self.eighth_squares(seventh, last_kinds, facts.board())?;
        let effect = facts.effect(square);
        let base = margin_without + effect.margin_change(Player::One, seventh.kind());
        let mut best = None;
        for candidate in Squares(candidates) {
            let bound = base + facts.bound(candidate).with_seventh(kind, square);
            if bound > alpha {
                return None;
            }
            best = best.max(Some(bound));
        }
        // No candidate (never in a real game): leave the child to the search.
        best.filter(|&bound| bound > -VALUE_BOUND - 1)
    }
}

impl CheversiState {
    /// White's 8th placements after White's 7th `seventh` and Black's killer (the one of
    /// `last_kinds`), by the rules without a board built (`without` is the board with the killer and without
    /// White's 7th piece): White's last piece kind and its squares, or `None` when the
    /// killer is not legal after `seventh`. `settle_by_killer` found the killer legal
    /// after some White 7th placement, and what else Black's 7th may take does not depend
    /// on White's 7th (its kinds are fixed by Black's hand, the Queen if still in hand by
    /// rule 6), so only its square and the touching rule are checked here. White's last
    /// piece is the one `seventh` leaves in hand (a queen call after Black's Queen asks
    /// for nothing else), on an empty square touching a piece and another empty square
    /// (rule 7), a second Bishop on the colour opposite the first.
    fn eighth_squares(
        &self,
        seventh: Move,
        last_kinds: &LastKinds,
        without: &Cheversi,
    ) -> Option<(PieceKind, u64)> {
        let square = seventh.square();
        let white = Player::One;
        let kind = last_kinds.after(seventh)?;
        let occupied = without.occupied() | square.bit();
        let empty = !occupied;
        let mut squares = neighbours(occupied) & empty & neighbours(empty);
        if kind == PieceKind::Bishop {
            let mut bishops = self.position.pieces(white, PieceKind::Bishop);
            if seventh.kind() == PieceKind::Bishop {
                bishops |= square.bit();
            }
            if bishops & DARK_SQUARES != 0 {
                squares &= LIGHT_SQUARES;
            } else if bishops != 0 {
                squares &= DARK_SQUARES;
            }
        }
        Some((kind, squares))
    }

    /// White's last piece after each White 7th placement of a pass with Black's `killer`
    /// (the one the placement leaves in hand), worked out once per pass: by the
    /// placement's kind, and whether the killer touches a piece already.
    fn last_white_kinds(&self, killer: Move) -> LastKinds {
        let target = killer.square();
        let around = KING_ATTACKS[target.index()];
        let by_seventh = PieceKind::ALL.map(|seventh| {
            PieceKind::ALL
                .into_iter()
                .find(|&kind| self.position.in_hand(Player::One, kind) > u8::from(kind == seventh))
        });
        LastKinds {
            target: target.bit(),
            around,
            touching: around & self.position.occupied() != 0,
            by_seventh,
        }
    }
}

/// What [`CheversiState::seventh_pass`] found.
pub(super) struct SeventhPass {
    /// The largest value at or below `alpha` of the children valued (`None` when none).
    pub settled: Option<i32>,
    /// The first child valued above `alpha`, with the index in `Scratch::sevenths` of
    /// the placements not yet valued.
    pub above: Option<(Move, CheversiState, usize)>,
}

/// White's last piece after a White 7th placement and Black's killer, read per placement
/// from facts of the pass (see [`CheversiState::last_white_kinds`]).
struct LastKinds {
    /// The killer's square.
    target: u64,
    /// The killer's square's neighbours.
    around: u64,
    /// The killer touches a piece whatever White's 7th placement.
    touching: bool,
    /// By the kind of White's 7th piece, the kind it leaves in hand.
    by_seventh: [Option<PieceKind>; 5],
}

impl LastKinds {
    /// White's last piece after `seventh`, or `None` when the killer is not legal then.
    #[inline]
    fn after(&self, seventh: Move) -> Option<PieceKind> {
        let bit = seventh.square().bit();
        if bit & self.target != 0 || !(self.touching || self.around & bit != 0) {
            return None;
        }
        self.by_seventh[seventh.kind().index()]
    }
}

/// By kind, the largest bound ([`CandidateBound::ceiling`]) of White's 8th candidates on
/// the board of `facts` (with Black's killer, without White's 7th piece), whatever square
/// White's 7th piece takes: every empty square with an empty neighbour and within two
/// steps of a piece (White's 7th piece touches one, and White's 8th touches a piece).
fn ceilings(facts: &mut Facts) -> [i32; 5] {
    let occupied = facts.board().occupied();
    let near = neighbours(occupied) | occupied;
    let candidates = !occupied & neighbours(!occupied) & (neighbours(near) | near);
    let mut ceilings = [-VALUE_BOUND - 1; 5];
    for candidate in Squares(candidates) {
        let bound = facts.bound(candidate);
        for kind in PieceKind::ALL {
            ceilings[kind.index()] = ceilings[kind.index()].max(bound.ceiling(kind));
        }
    }
    ceilings
}

#[cfg(test)]
mod tests {
    use super::super::{minimax, random_board};
    use super::*;
    use crate::game::Rules;
    use crate::game::cheversi::Cheversi;
    use crate::random::SplitMix64;

    /// A random board four placements before the end, White's 7th placements there, a
    /// random Black reply to one of them as the killer, and the board after both with
    /// that 7th piece lifted again (what the pass reads White's 8th from).
    fn seventh_pass_board(rng: &mut SplitMix64) -> (Cheversi, Vec<Move>, Move, Cheversi) {
        let board = random_board(rng, 12);
        let mut sevenths = Vec::new();
        board.legal_moves(&mut sevenths);
        let mut after = board.clone();
        let first = sevenths[rng.below(sevenths.len())];
        after.play_unchecked(first);
        let mut replies = Vec::new();
        after.legal_moves(&mut replies);
        let killer = replies[rng.below(replies.len())];
        after.play_unchecked(killer);
        let without = after.without(first.square());
        (board, sevenths, killer, without)
    }

    /// The bound of a White 7th placement with a given Black reply is never below White's
    /// true margin after both (minimax over the last two placements), whatever `alpha`;
    /// and it meets that margin exactly on some children, so a bound made a point lower
    /// (wrong) fails here. At a high `alpha` the pass settles every child by its ceiling
    /// ([`CheversiState::seventh_ceiling`]), which is never below the bound from the
    /// candidates one by one and meets it on some children (a ceiling a point lower
    /// fails here too).
    #[test]
    fn the_seventh_bound_with_black_reply_never_excludes_the_true_value() {
        let mut rng = SplitMix64::new(4477);
        let (mut settled, mut exact, mut ceilings_met) = (0, 0, 0);
        for _ in 0..60 {
            // Black's reply: a random placement legal after a random White 7th.
            let (board, sevenths, killer, without) = seventh_pass_board(&mut rng);
            let state = CheversiState::new(board.clone());
            let mut scratch = Scratch::default();
            let mut nodes = 0;
            let mut open: Vec<Move> = sevenths.clone();
            let mut total = None;
            // A high alpha, so that most children are settled and their bounds checked.
            let alpha = VALUE_BOUND - 1;
            let kept = state.settle_by_killer(
                killer,
                alpha,
                &mut open,
                &mut scratch,
                &mut nodes,
                &mut total,
            );
            open.truncate(kept);
            // The candidates' bounds one by one, from facts of their own.
            let mut own_scratch = Scratch::default();
            let facts = own_scratch.facts_about(without);
            let last_kinds = state.last_white_kinds(killer);
            let margin_without = state.margin
                - board
                    .square_effect(killer.square())
                    .margin_change(Player::Two, killer.kind());
            for &seventh in &sevenths {
                let mut both = board.clone();
                both.play_unchecked(seventh);
                if !both.is_legal(killer) {
                    assert!(
                        open.contains(&seventh),
                        "{seventh} has no Black reply {killer}"
                    );
                    continue;
                }
                both.play_unchecked(killer);
                let truth = minimax(&both);
                let one_by_one = state
                    .seventh_bound(seventh, &last_kinds, VALUE_BOUND, facts, margin_without)
                    .expect("a bound below the largest value");
                assert!(
                    one_by_one >= truth,
                    "{board:?} {seventh} {killer}: {one_by_one} < {truth}"
                );
                let mut alone = vec![seventh];
                let mut bound = None;
                let kept = state.settle_by_killer(
                    killer,
                    alpha,
                    &mut alone,
                    &mut scratch,
                    &mut nodes,
                    &mut bound,
                );
                assert_eq!(
                    kept, 0,
                    "{board:?} {seventh} {killer}: settled by its ceiling"
                );
                let bound = bound.expect("a settled bound");
                assert!(
                    bound >= one_by_one,
                    "{board:?} {seventh} {killer}: ceiling {bound} < {one_by_one}"
                );
                assert!(total >= Some(bound), "the pass keeps the largest bound");
                settled += 1;
                exact += usize::from(one_by_one == truth);
                ceilings_met += usize::from(bound == one_by_one);
            }
        }
        assert!(settled > 1000, "{settled} children bounded");
        assert!(exact > 20, "{exact} of {settled} bounds exact");
        assert!(
            ceilings_met > 100,
            "{ceilings_met} of {settled} ceilings met"
        );
    }

    /// White's 8th placements read from the rules ([`CheversiState::eighth_squares`])
    /// equal those of the board after White's 7th and Black's killer, and the killer is
    /// refused exactly where it is illegal, for every White 7th placement.
    #[test]
    fn eighth_squares_by_the_rules_equal_the_boards() {
        let mut rng = SplitMix64::new(6061);
        let mut compared = 0;
        for _ in 0..200 {
            let (board, sevenths, killer, without) = seventh_pass_board(&mut rng);
            let state = CheversiState::new(board.clone());
            let last_kinds = state.last_white_kinds(killer);
            for &seventh in &sevenths {
                let mut both = board.clone();
                both.play_unchecked(seventh);
                let expected = both.is_legal(killer).then(|| {
                    both.play_unchecked(killer);
                    both.legal_squares_by_kind()
                });
                let found =
                    state
                        .eighth_squares(seventh, &last_kinds, &without)
                        .map(|(kind, squares)| {
                            let mut by_kind = [0; 5];
                            by_kind[kind.index()] = squares;
                            by_kind
                        });
                assert_eq!(found, expected, "{board:?} {seventh} {killer}");
                compared += 1;
            }
        }
        assert!(compared > 5000, "{compared} placements compared");
    }

    /// `children_above` with Black's killer set: every child it does not return is worth
    /// at most `alpha` and at most the value it returns; the children it returns are
    /// legal placements not in `tried`.
    #[test]
    fn children_left_out_are_worth_at_most_alpha_and_the_value_returned() {
        let mut rng = SplitMix64::new(9001);
        for round in 0..24 {
            let (board, sevenths, killer, _) = seventh_pass_board(&mut rng);
            let state = CheversiState::new(board.clone());
            let truths: Vec<(Move, i32)> = sevenths
                .iter()
                .map(|&seventh| {
                    let mut child = board.clone();
                    child.play_unchecked(seventh);
                    (seventh, -minimax(&child))
                })
                .collect();
            let best = truths.iter().map(|&(_, value)| value).max().expect("moves");
            let mut scratch = Scratch::default();
            scratch.killer = Some(killer);
            let tried = [state.move_code(sevenths[0]), 0, 0];
            let alpha = best + [-3, -1, 0, 1, 4][round % 5];
            let mut children = Vec::new();
            let mut nodes = 0;
            let value = state.children_above(
                alpha,
                tried,
                &mut children,
                &mut scratch,
                &SolveTable::new(1),
                &mut nodes,
            );
            for &(seventh, truth) in &truths[1..] {
                if children.iter().any(|child| child.mv == seventh) {
                    continue;
                }
                let value = value.expect("a child left out has a value");
                assert!(truth <= value, "{board:?} {seventh}: {truth} > {value}");
                assert!(value <= alpha, "{board:?}: {value} above alpha {alpha}");
            }
            assert!(children.iter().all(|child| child.mv != sevenths[0]));
        }
    }
}
