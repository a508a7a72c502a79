//! Cheversi evaluation: an estimate of the final margin, 100 centi-units per point.
//!
//! Terms, each "own minus opponent's" from the side to move's view:
//! - *secure attacks*: attacked empty squares no piece touches yet. Only a square next to
//!   a piece can be filled (rule 2), so these points survive at least one more placement;
//!   worth a full point each.
//! - *exposed attacks*: attacked empty squares on the frontier of the cluster, where the
//!   next placements go; worth 0.7 of a point each.
//! - *hand*: pieces still to place, at the points a piece of that kind usually adds
//!   (Queen 9, Rook 5.5, Bishop 4.5, Knight 4, King 3.5).
//! - *tempo*: the side to move places first, worth half a point.
//!
//! The game always ends at the 16th placement, so the search is exact near the end
//! ([`SearchGame::plies_to_end`]); there the final score itself, not this estimate, is
//! the value ([`Terminal::Exact`]).

use crate::game::cheversi::bitboard::{bishop_attacks, neighbours, rook_attacks};
use crate::game::cheversi::{Cheversi, Move, PLACEMENTS, PieceKind, Square, attacks};
use crate::game::{Outcome, Player};
use crate::search::game::{Algorithm, MoveTree, SearchGame, Terminal, first_step};

const SECURE: i32 = 100;
const EXPOSED: i32 = 70;
const TEMPO: i32 = 50;
/// Expected points of a piece still in hand, by [`PieceKind::index`].
const HAND: [i32; 5] = [350, 900, 550, 450, 400];

/// One side's attack terms: (secure, exposed) attacked squares.
fn attack_terms(position: &Cheversi, player: Player) -> (i32, i32) {
    let occupied = position.occupied();
    let frontier = neighbours(occupied) & !occupied;
    let (mut secure, mut exposed) = (0, 0);
    for kind in PieceKind::ALL {
        let mut pieces = position.pieces(player, kind);
        while pieces != 0 {
            let index = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let Some(square) = Square::from_index(index) else {
                continue;
            };
            let attacked = attacks(kind, square, occupied) & !occupied;
            secure += (attacked & !frontier).count_ones() as i32;
            exposed += (attacked & frontier).count_ones() as i32;
        }
    }
    (secure, exposed)
}

fn hand_value(position: &Cheversi, player: Player) -> i32 {
    PieceKind::ALL
        .iter()
        .map(|&kind| HAND[kind.index()] * i32::from(position.in_hand(player, kind)))
        .sum()
}

/// The terms for `player` minus those of its opponent.
fn terms(position: &Cheversi, player: Player) -> [(&'static str, i32); 3] {
    let (own_secure, own_exposed) = attack_terms(position, player);
    let (opp_secure, opp_exposed) = attack_terms(position, player.opponent());
    [
        ("secure_attacks", SECURE * (own_secure - opp_secure)),
        ("exposed_attacks", EXPOSED * (own_exposed - opp_exposed)),
        (
            "hand",
            hand_value(position, player) - hand_value(position, player.opponent()),
        ),
    ]
}

impl SearchGame for Cheversi {
    const ALGORITHM: Algorithm = Algorithm::AlphaBeta;
    type Tree = MoveTree<Cheversi>;
    const HAS_NOISY_MOVES: bool = false;

    fn evaluate(&self) -> i32 {
        let mover = self.side_to_move();
        terms(self, mover)
            .iter()
            .map(|(_, value)| value)
            .sum::<i32>()
            + TEMPO
    }

    fn evaluation_terms(&self) -> Vec<(String, i32)> {
        let mut lines: Vec<(String, i32)> = terms(self, Player::One)
            .iter()
            .map(|&(name, value)| (name.to_string(), value))
            .collect();
        let tempo = match self.side_to_move() {
            Player::One => TEMPO,
            Player::Two => -TEMPO,
        };
        lines.push(("tempo".to_string(), tempo));
        lines.push((
            "points_now".to_string(),
            100 * (self.points(Player::One) - self.points(Player::Two)),
        ));
        lines
    }

    /// Placements that attack many empty squares first.
    fn order_hint(&self, mv: Move) -> i32 {
        let square = mv.square();
        let occupied = self.occupied() | square.bit();
        (attacks(mv.kind(), square, occupied) & !occupied).count_ones() as i32 * 8
    }

    /// The same hints, with each square's rook and bishop rays traced once for all the
    /// kinds placed there (a Queen's are their union).
    fn order_hints(&self, moves: &[Move], hints: &mut Vec<i32>) {
        let occupied = self.occupied();
        let mut traced = 0u64;
        let mut rook = [0u64; 64];
        let mut bishop = [0u64; 64];
        hints.clear();
        hints.extend(moves.iter().map(|&mv| {
            let square = mv.square();
            let index = square.index();
            if matches!(
                mv.kind(),
                PieceKind::Rook | PieceKind::Bishop | PieceKind::Queen
            ) && traced & square.bit() == 0
            {
                traced |= square.bit();
                rook[index] = rook_attacks(square, occupied);
                bishop[index] = bishop_attacks(square, occupied);
            }
            let attacked = match mv.kind() {
                PieceKind::Rook => rook[index],
                PieceKind::Bishop => bishop[index],
                PieceKind::Queen => rook[index] | bishop[index],
                kind => attacks(kind, square, occupied),
            };
            (attacked & !occupied).count_ones() as i32 * 8
        }));
    }

    fn history_index(&self, mv: Move) -> usize {
        mv.kind().index() * 64 + mv.square().index()
    }

    /// A finished game is worth its exact margin.
    fn terminal(&self, _outcome: Outcome) -> Terminal {
        let mover = self.side_to_move();
        Terminal::Exact(100 * (self.points(mover) - self.points(mover.opponent())))
    }

    fn plies_to_end(&self) -> Option<u32> {
        Some(u32::from(PLACEMENTS.saturating_sub(self.placements())))
    }

    fn expected_moves_left(&self) -> u32 {
        u32::from(PLACEMENTS.saturating_sub(self.placements()))
            .div_ceil(2)
            .max(1)
    }

    fn tree(&self) -> Self::Tree {
        MoveTree(self.clone())
    }

    fn move_from_steps(&self, steps: &[Move]) -> Option<Move> {
        first_step(steps)
    }
}
