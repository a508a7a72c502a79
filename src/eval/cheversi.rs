//! Cheversi evaluation: an estimate of the final margin, 100 centi-units per point.
//!
//! Terms, each "own minus opponent's" from the side to move's view:
//! - *secure attacks*: attacked empty squares no piece touches yet. Only a square next to
//!   a piece can be filled (rule 2), so these points survive at least one more placement.
//! - *exposed attacks*: attacked empty squares on the frontier of the cluster, where the
//!   next placements go.
//! - *hand*: pieces still to place (a Queen in hand is worth most; the Kings' turns are
//!   fixed by the rules, so a King is the zero point).
//! - *tempo*: what the side to move can expect beyond the other terms.
//!
//! The weights are fitted, not guessed: least squares against the exact final margin of
//! 8,000 positions, 1,000 at each count of 1 to 8 placements before the end (self-play
//! after 1-4 random placements, each position solved by the exact search). The attack
//! weights and the tempo depend on how many placements are left (an attack is worth
//! about 0.45 points 8 placements before the end and 0.94 one before it, as fewer
//! placements are left to block it); the hand values are shared. Five-fold
//! cross-validated error 2.5 points. Weights per count of placements left matter most
//! 1 to 3 placements before the end, where a short search's leaves are.
//!
//! The game always ends at the 16th placement ([`FixedLength`]), so the search is exact
//! near the end ([`FixedLength::plies_to_end`]); there the final score itself, not this
//! estimate, is the value ([`Terminal::Exact`]). The last two placements of an exact
//! search are solved directly (fail-soft, in the same window) from how each placement
//! changes both sides' points, without playing the moves
//! ([`FixedLength::best_final_move`]); and a leaf one placement before the end (the last
//! placement is Black's King, on at most 8 squares) takes that exact value instead of the
//! evaluation, in every search ([`FixedLength::FINAL_LEAF_PLIES`]), so a search that
//! stops one placement short of the end is exact at its leaves.
//!
//! Every placement is quiet: no quiescence, and the search tries its killers before it
//! lists the placements ([`StagedMoves`]), whose lists are sorted, so a killer is found by
//! binary search. Further from the end than the search reaches, the engine's exact phase
//! tries the solver first (`crate::engine::exact`).

use crate::game::cheversi::bitboard::{
    KING_ATTACKS, KNIGHT_ATTACKS, bishop_attacks, neighbours, rook_attacks,
};
use crate::game::cheversi::{Cheversi, Move, PLACEMENTS, PieceKind, Square, Squares, attacks};
use crate::game::{Outcome, Player};
use crate::search::game::{
    AlphaBetaGame, Evaluate, ExactTables, FixedLength, ProgressRule, SearchGame, StagedMoves,
    Terminal,
};

/// Fitted weights (centi-points) of the terms that depend on the placements left.
struct Weights {
    secure: i32,
    exposed: i32,
    tempo: i32,
}

impl Weights {
    const fn new(secure: i32, exposed: i32, tempo: i32) -> Self {
        Weights {
            secure,
            exposed,
            tempo,
        }
    }
}

/// The weights fitted 1 to 8 placements before the end (index: placements left - 1).
const FITTED: [Weights; 8] = [
    Weights::new(94, 93, 653),
    Weights::new(95, 87, 249),
    Weights::new(87, 79, 661),
    Weights::new(82, 71, 226),
    Weights::new(73, 69, 560),
    Weights::new(66, 63, 205),
    Weights::new(58, 58, 460),
    Weights::new(42, 44, 128),
];

/// The weights for a position `left` placements before the end: its own fitted set, or
/// further out the set of the same parity (the tempo differs with who moves) nearest in
/// length.
fn weights(left: u8) -> &'static Weights {
    match left {
        0 => &FITTED[0],
        1..=8 => &FITTED[usize::from(left) - 1],
        left if left % 2 == 1 => &FITTED[6],
        _ => &FITTED[7],
    }
}

/// Value of a piece still in hand relative to a King, by [`PieceKind::index`].
const HAND: [i32; 5] = [0, 566, 176, 7, 59];

/// Both sides' attack terms, by [`Player::index`]: (secure, exposed) attacked squares.
/// One pass over the pieces with the frontier computed once: this is most of the
/// evaluation's cost. A Queen counts as a Rook and a Bishop on one square (their attack
/// sets are disjoint), so each slider is one table lookup.
fn attack_terms(position: &Cheversi) -> [(i32, i32); 2] {
    let occupied = position.occupied();
    let frontier = neighbours(occupied) & !occupied;
    let secure_squares = !occupied & !frontier;
    let queens = position.kinds_on_board(PieceKind::Queen);
    let rook_like = position.kinds_on_board(PieceKind::Rook) | queens;
    let bishop_like = position.kinds_on_board(PieceKind::Bishop) | queens;
    let kings = position.kinds_on_board(PieceKind::King);
    let knights = position.kinds_on_board(PieceKind::Knight);
    [Player::One, Player::Two].map(|player| {
        let own = position.pieces_of(player);
        let (mut secure, mut exposed) = (0, 0);
        let mut count = |attacked: u64| {
            secure += (attacked & secure_squares).count_ones() as i32;
            exposed += (attacked & frontier).count_ones() as i32;
        };
        for square in Squares(own & kings) {
            count(KING_ATTACKS[square.index()]);
        }
        for square in Squares(own & knights) {
            count(KNIGHT_ATTACKS[square.index()]);
        }
        for square in Squares(own & rook_like) {
            count(rook_attacks(square, occupied));
        }
        for square in Squares(own & bishop_like) {
            count(bishop_attacks(square, occupied));
        }
        (secure, exposed)
    })
}

/// Empty squares a piece of `kind` on `square` would attack.
fn attacked_empty(kind: PieceKind, square: Square, occupied: u64) -> u32 {
    (attacks(kind, square, occupied) & !occupied).count_ones()
}

/// The ordering hint of a placement attacking `count` empty squares.
fn placement_hint(count: u32) -> i32 {
    count as i32 * 8
}

fn hand_value(position: &Cheversi, player: Player) -> i32 {
    PieceKind::ALL
        .iter()
        .map(|&kind| HAND[kind.index()] * i32::from(position.in_hand(player, kind)))
        .sum()
}

/// The weights for `position`; their `tempo` is the side to move's expected edge beyond
/// the terms.
fn weights_of(position: &Cheversi) -> &'static Weights {
    weights(PLACEMENTS.saturating_sub(position.placements()))
}

/// The terms for `player` minus those of its opponent, with the position's `weights`.
fn terms(position: &Cheversi, player: Player, weights: &Weights) -> [(&'static str, i32); 3] {
    let attack = attack_terms(position);
    let (own_secure, own_exposed) = attack[player.index()];
    let (opp_secure, opp_exposed) = attack[player.opponent().index()];
    [
        ("secure_attacks", weights.secure * (own_secure - opp_secure)),
        (
            "exposed_attacks",
            weights.exposed * (own_exposed - opp_exposed),
        ),
        (
            "hand",
            hand_value(position, player) - hand_value(position, player.opponent()),
        ),
    ]
}

impl SearchGame for Cheversi {
    fn expected_moves_left(&self) -> u32 {
        u32::from(PLACEMENTS.saturating_sub(self.placements()))
            .div_ceil(2)
            .max(1)
    }

    fn evaluation_report(&self) -> (Vec<(String, i32)>, i32) {
        (self.evaluation_terms(), self.evaluate())
    }
}

impl Evaluate for Cheversi {
    fn evaluate(&self) -> i32 {
        let weights = weights_of(self);
        terms(self, self.side_to_move(), weights)
            .iter()
            .map(|(_, value)| value)
            .sum::<i32>()
            + weights.tempo
    }

    fn evaluation_terms(&self) -> Vec<(String, i32)> {
        let weights = weights_of(self);
        let mut lines: Vec<(String, i32)> = terms(self, Player::One, weights)
            .iter()
            .map(|&(name, value)| (name.to_string(), value))
            .collect();
        let tempo = match self.side_to_move() {
            Player::One => weights.tempo,
            Player::Two => -weights.tempo,
        };
        lines.push(("tempo".to_string(), tempo));
        lines.push((
            "points_now".to_string(),
            100 * (self.points(Player::One) - self.points(Player::Two)),
        ));
        lines
    }
}

impl AlphaBetaGame for Cheversi {
    const HAS_NOISY_MOVES: bool = false;

    /// Placement lists are sorted (generation goes by kind, then square, the order of
    /// [`Move`]), so a placement is found by binary search.
    #[inline]
    fn find_move(&self, moves: &[Move], mv: Move) -> Option<usize> {
        moves.binary_search(&mv).ok()
    }

    /// Placements that attack many empty squares first.
    fn order_hint(&self, mv: Move) -> i32 {
        placement_hint(attacked_empty(mv.kind(), mv.square(), self.occupied()))
    }

    fn history_index(&self, mv: Move) -> usize {
        mv.kind().index() * 64 + mv.square().index()
    }

    /// A finished game is worth its exact margin.
    fn terminal(&self, _outcome: Outcome) -> Terminal {
        let mover = self.side_to_move();
        Terminal::Exact(100 * (self.points(mover) - self.points(mover.opponent())))
    }
}

impl StagedMoves for Cheversi {
    /// Every placement is quiet, so the search may try its killers before listing the
    /// moves: a count is a few popcounts, and most nodes near the leaves cut on a killer.
    #[inline]
    fn quiet_move_count(&self) -> Option<usize> {
        Some(self.count_placements() as usize)
    }

    #[inline]
    fn is_legal_quiet(&self, mv: Move) -> bool {
        self.is_legal(mv)
    }
}

impl FixedLength for Cheversi {
    /// The last one or two placements solved from [`Cheversi::points_change`].
    fn best_final_move(&self, alpha: i32, beta: i32) -> Option<(Move, i32)> {
        let left = PLACEMENTS.checked_sub(self.placements())?;
        if left == 0 || left > 2 {
            return None;
        }
        let mover = self.side_to_move();
        let margin = self.points(mover) - self.points(mover.opponent());
        let (mv, points) = if left == 1 {
            best_last_placement(self, margin, beta, None)?
        } else {
            best_last_two_placements(self, margin, alpha, beta)?
        };
        Some((mv, 100 * points))
    }

    /// The last placement is Black's King next to White's last piece: at most 8 squares,
    /// so the exact value of a leaf one placement before the end costs about an
    /// evaluation.
    const FINAL_LEAF_PLIES: u32 = 1;

    fn plies_to_end(&self) -> Option<u32> {
        Some(u32::from(PLACEMENTS.saturating_sub(self.placements())))
    }
}

/// No progress rule: every game ends at the 16th placement.
impl ProgressRule for Cheversi {}

/// No tables: the exact phase of `go` solves the end instead (`crate::engine::exact`).
impl ExactTables for Cheversi {
    type Tables = ();
}

/// Most candidates [`best_last_two_placements`] sorts on the stack; the mover then has one
/// piece left, so one kind on at most 64 squares.
const MOST_LAST_CANDIDATES: usize = 64;

/// The change of the mover's margin (in points) when `mv` is placed.
fn margin_change(position: &Cheversi, mv: Move) -> i32 {
    let mover = position.side_to_move();
    let change = position.points_change(mv);
    change[mover.index()] - change[mover.opponent().index()]
}

/// The mover's best final placement and the final margin in points, given the margin
/// now. Tries `first` first when it is legal (the reply that refuted a sibling), and
/// stops at the first placement worth `beta` (centi-units) or more.
fn best_last_placement(
    position: &Cheversi,
    margin: i32,
    beta: i32,
    first: Option<Move>,
) -> Option<(Move, i32)> {
    let mut squares = position.legal_squares_by_kind();
    let mut best: Option<(Move, i32)> = None;
    let mut consider = |mv: Move| {
        let value = margin + margin_change(position, mv);
        if best.is_none_or(|(_, best_value)| value > best_value) {
            best = Some((mv, value));
        }
        100 * value >= beta
    };
    if let Some(mv) = first {
        let bit = mv.square().bit();
        let kind = mv.kind().index();
        if squares[kind] & bit != 0 {
            squares[kind] ^= bit;
            if consider(mv) {
                return best;
            }
        }
    }
    for kind in PieceKind::ALL {
        for square in Squares(squares[kind.index()]) {
            if consider(Move::new(kind, square)) {
                return best;
            }
        }
    }
    best
}

/// The last two placements by fail-soft alpha-beta (bounds in centi-units, result in
/// points): the mover's candidates are tried in order of the margin they leave, each
/// answered by [`best_last_placement`], which tries the last refutation first. `None`
/// when there are more candidates than the stack buffer holds (the search then plays
/// the moves).
fn best_last_two_placements(
    position: &Cheversi,
    margin: i32,
    mut alpha: i32,
    beta: i32,
) -> Option<(Move, i32)> {
    let filler = Move::new(PieceKind::King, Square::from_index(0)?);
    let mut candidates = [(0i32, filler); MOST_LAST_CANDIDATES];
    let mut count = 0;
    let squares = position.legal_squares_by_kind();
    for kind in PieceKind::ALL {
        for square in Squares(squares[kind.index()]) {
            let mv = Move::new(kind, square);
            *candidates.get_mut(count)? = (margin + margin_change(position, mv), mv);
            count += 1;
        }
    }
    let candidates = &mut candidates[..count];
    candidates.sort_unstable_by_key(|&(after, _)| std::cmp::Reverse(after));
    let mut best: Option<(Move, i32)> = None;
    let mut refutation = None;
    for &(after, mv) in candidates.iter() {
        let mut child = position.clone();
        child.place(mv);
        let (reply, reply_value) = best_last_placement(&child, -after, -alpha, refutation)?;
        refutation = Some(reply);
        let value = -reply_value;
        if best.is_none_or(|(_, best_value)| value > best_value) {
            best = Some((mv, value));
            alpha = alpha.max(100 * value);
            if 100 * value >= beta {
                break;
            }
        }
    }
    best
}
