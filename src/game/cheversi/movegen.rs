//! Legal placements as bitboards: one square mask shared by every kind (rules 1, 2, 7, 8),
//! a narrower mask for a second Bishop (rule 4), and the set of kinds allowed (rules 1, 3,
//! 5, 6). Counting moves is then a few popcounts, which is what perft's bulk counting and
//! the search's move ordering use.
//!
//! `Cheversi::refusal` checks one move rule by rule, to say *why* a move is illegal; a
//! test holds it equal to the generator on random positions.

use crate::game::Player;

use super::bitboard::{
    ALL_SQUARES, DARK_SQUARES, KING_ATTACKS, LIGHT_SQUARES, Squares, neighbours,
};
use super::piece::{Move, PieceKind};
use super::position::{Cheversi, PLACEMENTS};

/// Bit of [`PieceKind::Bishop`] in a kind set.
const BISHOP_BIT: u8 = 1 << PieceKind::Bishop as u8;
/// Bit of [`PieceKind::Queen`] in a kind set.
const QUEEN_BIT: u8 = 1 << PieceKind::Queen as u8;
/// Bit of [`PieceKind::Rook`] in a kind set.
const ROOK_BIT: u8 = 1 << PieceKind::Rook as u8;
/// Bit of [`PieceKind::Knight`] in a kind set.
const KNIGHT_BIT: u8 = 1 << PieceKind::Knight as u8;
/// Bit of [`PieceKind::King`] in a kind set.
const KING_BIT: u8 = 1 << PieceKind::King as u8;

/// The last placement of Black's Queen deadline (rule 6): Black's 7th is the 14th overall
/// (placement count 13 before it).
const BLACK_SEVENTH: u8 = 13;
/// White's 8th placement comes after 14 placements (rule 7).
const WHITE_EIGHTH: u8 = 14;
/// Black's 8th placement, its King, comes after 15 placements (rules 3 and 8).
const BLACK_EIGHTH: u8 = 15;

/// Every legal placement, as masks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Targets {
    /// Squares any allowed kind may take.
    squares: u64,
    /// Squares a Bishop may take (`squares` narrowed by rule 4).
    bishop_squares: u64,
    /// Allowed kinds, bit [`PieceKind::index`] each.
    kinds: u8,
}

impl Targets {
    const NONE: Targets = Targets {
        squares: 0,
        bishop_squares: 0,
        kinds: 0,
    };

    /// True when no placement is left: cheaper than a count of zero (every kind but a
    /// second Bishop may take any of `squares`, and `bishop_squares` lies within them).
    #[inline]
    fn is_empty(&self) -> bool {
        self.squares == 0
            || (self.kinds & !BISHOP_BIT == 0
                && (self.kinds & BISHOP_BIT == 0 || self.bishop_squares == 0))
    }

    #[inline]
    fn count(&self) -> u64 {
        let plain_kinds = (self.kinds & !BISHOP_BIT).count_ones() as u64;
        let bishops = if self.kinds & BISHOP_BIT != 0 {
            self.bishop_squares.count_ones() as u64
        } else {
            0
        };
        self.squares.count_ones() as u64 * plain_kinds + bishops
    }

    #[inline]
    fn squares_for(&self, kind: PieceKind) -> u64 {
        if self.kinds & (1 << kind as u8) == 0 {
            0
        } else if kind == PieceKind::Bishop {
            self.bishop_squares
        } else {
            self.squares
        }
    }
}

/// Why a placement is refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    GameOver,
    Occupied,
    NotInHand,
    /// A placement rule (protocol.md, Appendix A) forbids it; the text names the rule.
    Rule(&'static str),
}

impl Cheversi {
    /// The kinds the mover may place: those in hand, narrowed by rules 1, 3, 5 and 6.
    #[inline]
    fn allowed_kinds(&self) -> u8 {
        let colour = (self.placements & 1) as usize;
        if self.placements == 0 {
            return KING_BIT;
        }
        let mut kinds = self.hands[colour];
        if kinds & QUEEN_BIT != 0
            && (self.placements == BLACK_SEVENTH
                || matches!(self.last, Some(last) if last.kind() == PieceKind::Queen))
        {
            return QUEEN_BIT;
        }
        if colour == Player::Two.index() && self.placements != BLACK_EIGHTH {
            kinds &= !KING_BIT;
        }
        kinds
    }

    /// Squares the mover's next Bishop may take by rule 4: the colour opposite its first
    /// Bishop once that one stands on the board.
    #[inline]
    fn bishop_colour_squares(&self) -> u64 {
        let colour = (self.placements & 1) as usize;
        let bishops = self.colours[colour] & self.kinds[PieceKind::Bishop.index()];
        if bishops == 0 {
            ALL_SQUARES
        } else if bishops & DARK_SQUARES != 0 {
            LIGHT_SQUARES
        } else {
            DARK_SQUARES
        }
    }

    /// The squares allowed by rules 1, 2, 7 and 8; `adjacency: false` drops rule 2 (the
    /// fallback).
    #[inline]
    fn target_squares(&self, adjacency: bool) -> u64 {
        let empty = !self.occupied();
        let mut squares = if self.placements == 0 || !adjacency {
            empty
        } else {
            neighbours(!empty) & empty
        };
        match self.placements {
            WHITE_EIGHTH => squares &= neighbours(empty),
            BLACK_EIGHTH => {
                if let Some(last) = self.last {
                    squares &= KING_ATTACKS[last.square().index()];
                }
            }
            _ => {}
        }
        squares
    }

    #[inline]
    fn targets_with(&self, adjacency: bool) -> Targets {
        let squares = self.target_squares(adjacency);
        Targets {
            squares,
            bishop_squares: squares & self.bishop_colour_squares(),
            kinds: self.allowed_kinds(),
        }
    }

    /// Every legal placement: the rules as written, or, when they leave none, the fallback
    /// without rule 2.
    #[inline]
    pub(super) fn targets(&self) -> Targets {
        if self.placements >= PLACEMENTS {
            return Targets::NONE;
        }
        let targets = self.targets_with(true);
        if targets.is_empty() {
            self.targets_with(false)
        } else {
            targets
        }
    }

    /// True when the rules as written leave the mover no placement and the fallback (rule 2
    /// dropped) is in force. Never true in a position reachable by legal play (see the
    /// module documentation); exposed so tests can check that.
    pub fn needs_fallback(&self) -> bool {
        self.placements < PLACEMENTS && self.targets_with(true).is_empty()
    }

    /// True when the mover has no placement (the game is over, or, never in a reachable
    /// position, even the fallback leaves nothing). The search asks at every leaf, so the
    /// usual case is settled without the targets: from the 2nd to the 14th placement rule 2
    /// alone limits the squares, and some empty square touches a piece whenever the board
    /// is neither empty nor full, so a Queen, Rook or Knight in hand always has a square
    /// (a queen call or Black's Queen deadline allows the Queen, which is then in hand).
    #[inline]
    pub fn has_no_placement(&self) -> bool {
        let colour = (self.placements & 1) as usize;
        let settled = self.placements > 0
            && self.placements < WHITE_EIGHTH
            && self.hands[colour] & (QUEEN_BIT | ROOK_BIT | KNIGHT_BIT) != 0;
        !settled && self.targets().is_empty()
    }

    /// The number of legal placements: popcounts only.
    #[inline]
    pub fn count_placements(&self) -> u64 {
        self.targets().count()
    }

    /// Appends every legal placement to `moves` (which is not cleared).
    #[inline]
    pub fn generate_placements(&self, moves: &mut Vec<Move>) {
        let targets = self.targets();
        for kind in PieceKind::ALL {
            for square in Squares(targets.squares_for(kind)) {
                moves.push(Move::new(kind, square));
            }
        }
    }

    /// True when `mv` is a legal placement here: one mask test, for the search's killers.
    #[inline]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.targets().squares_for(mv.kind()) & mv.square().bit() != 0
    }

    /// The squares where a piece of `kind` may be placed now (empty when `kind` may not be
    /// placed at all).
    pub fn legal_squares(&self, kind: PieceKind) -> u64 {
        self.targets().squares_for(kind)
    }

    /// The legal squares of every kind at once, by [`PieceKind::index`] (one move
    /// generation for callers that walk the placements without a move list).
    pub fn legal_squares_by_kind(&self) -> [u64; 5] {
        let targets = self.targets();
        PieceKind::ALL.map(|kind| targets.squares_for(kind))
    }

    /// The squares where some piece may be placed now: the legal-square mask shared by every
    /// allowed kind (a second Bishop may take only the part of it on its colour).
    pub fn legal_square_mask(&self) -> u64 {
        let targets = self.targets();
        if targets.kinds == 0 {
            0
        } else if targets.kinds == BISHOP_BIT {
            targets.bishop_squares
        } else {
            targets.squares
        }
    }

    /// The kinds the mover may place now.
    pub fn legal_kinds(&self) -> impl Iterator<Item = PieceKind> + '_ {
        let targets = self.targets();
        PieceKind::ALL
            .into_iter()
            .filter(move |&kind| targets.squares_for(kind) != 0)
    }

    /// Why `mv` is illegal here, checking the rules one by one; `None` when it is legal.
    pub(super) fn refusal(&self, mv: Move) -> Option<Refusal> {
        if self.is_finished() {
            return Some(Refusal::GameOver);
        }
        let bit = mv.square().bit();
        if self.occupied() & bit != 0 {
            return Some(Refusal::Occupied);
        }
        let mover = self.side_to_move();
        let kind = mv.kind();
        if self.in_hand(mover, kind) == 0 {
            return Some(Refusal::NotInHand);
        }
        if self.placements == 0 && kind != PieceKind::King {
            return Some(Refusal::Rule(
                "White's first placement must be its King (rule 1)",
            ));
        }
        if self.queen_call() && kind != PieceKind::Queen {
            return Some(Refusal::Rule(
                "must place the Queen: the previous placement was a Queen (rule 5)",
            ));
        }
        if self.placements == BLACK_SEVENTH
            && self.in_hand(mover, PieceKind::Queen) > 0
            && kind != PieceKind::Queen
        {
            return Some(Refusal::Rule(
                "Black must place its Queen by its 7th placement (rule 6)",
            ));
        }
        if mover == Player::Two && kind == PieceKind::King && self.placements != BLACK_EIGHTH {
            return Some(Refusal::Rule(
                "Black's King must be Black's 8th placement (rule 3)",
            ));
        }
        if kind == PieceKind::Bishop && self.bishop_colour_squares() & bit == 0 {
            return Some(Refusal::Rule(
                "the second Bishop must stand on the colour opposite the first (rule 4)",
            ));
        }
        if self.placements == BLACK_EIGHTH {
            let touches_last = self
                .last
                .is_some_and(|last| KING_ATTACKS[last.square().index()] & bit != 0);
            if !touches_last {
                return Some(Refusal::Rule(
                    "Black's King must touch White's 8th piece (rule 8)",
                ));
            }
        }
        if self.placements > 0 && self.touched() & bit == 0 && !self.needs_fallback() {
            return Some(Refusal::Rule(
                "the piece must touch a piece already on the board (rule 2)",
            ));
        }
        if self.placements == WHITE_EIGHTH && neighbours(!self.occupied()) & bit == 0 {
            return Some(Refusal::Rule(
                "White's 8th placement must leave an empty square next to it (rule 7)",
            ));
        }
        None
    }
}
