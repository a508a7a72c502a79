//! Piece kinds, what each attacks, and the placement move.

use std::fmt;

use super::bitboard::{KING_ATTACKS, KNIGHT_ATTACKS, Square, bishop_attacks, rook_attacks};

/// The five kinds of piece. Both sides own K, Q, R, R, B, B, N, N.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    King = 0,
    Queen = 1,
    Rook = 2,
    Bishop = 3,
    Knight = 4,
}

impl PieceKind {
    /// Every kind, in index order.
    pub const ALL: [PieceKind; 5] = [
        PieceKind::King,
        PieceKind::Queen,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
    ];

    /// 0..5: an index into per-kind arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `index` (0..5).
    #[inline]
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        match index {
            0 => Some(PieceKind::King),
            1 => Some(PieceKind::Queen),
            2 => Some(PieceKind::Rook),
            3 => Some(PieceKind::Bishop),
            4 => Some(PieceKind::Knight),
            _ => None,
        }
    }

    /// How many of this kind each side owns at the start.
    #[inline]
    pub const fn count(self) -> u8 {
        match self {
            PieceKind::King | PieceKind::Queen => 1,
            PieceKind::Rook | PieceKind::Bishop | PieceKind::Knight => 2,
        }
    }

    /// The uppercase letter: `K Q R B N`.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Queen => 'Q',
            PieceKind::Rook => 'R',
            PieceKind::Bishop => 'B',
            PieceKind::Knight => 'N',
        }
    }

    /// The full English name, for error messages.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "King",
            PieceKind::Queen => "Queen",
            PieceKind::Rook => "Rook",
            PieceKind::Bishop => "Bishop",
            PieceKind::Knight => "Knight",
        }
    }

    /// The kind of a letter in either case (`k` and `K` are both the King).
    pub fn from_letter(letter: char) -> Option<PieceKind> {
        match letter.to_ascii_uppercase() {
            'K' => Some(PieceKind::King),
            'Q' => Some(PieceKind::Queen),
            'R' => Some(PieceKind::Rook),
            'B' => Some(PieceKind::Bishop),
            'N' => Some(PieceKind::Knight),
            _ => None,
        }
    }
}

/// One placement: a kind from the mover's hand onto a square. Two bytes, `Copy`; the two
/// Rooks (Bishops, Knights) are interchangeable, so the kind is all a move names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    kind: PieceKind,
    square: Square,
}

impl Move {
    #[inline]
    pub const fn new(kind: PieceKind, square: Square) -> Move {
        Move { kind, square }
    }

    #[inline]
    pub const fn kind(self) -> PieceKind {
        self.kind
    }

    #[inline]
    pub const fn square(self) -> Square {
        self.square
    }
}

/// The canonical text: uppercase letter, lowercase square (`Ke4`).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind.letter(), self.square)
    }
}

/// The squares a piece of `kind` on `square` attacks when `occupied` holds the pieces on the
/// board. Sliding rays include the first occupied square they meet (scoring masks it out:
/// occupied squares never score); `square` itself is never included.
#[inline]
pub fn attacks(kind: PieceKind, square: Square, occupied: u64) -> u64 {
    match kind {
        PieceKind::King => KING_ATTACKS[square.index()],
        PieceKind::Knight => KNIGHT_ATTACKS[square.index()],
        PieceKind::Rook => rook_attacks(square, occupied),
        PieceKind::Bishop => bishop_attacks(square, occupied),
        PieceKind::Queen => rook_attacks(square, occupied) | bishop_attacks(square, occupied),
    }
}
