//! The position: bitboards per colour and kind, the placement count, the last placement and
//! an incrementally kept Zobrist hash. A small plain-data struct, so search and
//! perft copy it instead of undoing moves.

use crate::game::Player;

use super::bitboard::{
    KING_ATTACKS, KNIGHT_ATTACKS, Square, Squares, beyond, bishop_attacks, neighbours, rook_attacks,
};
use super::piece::{Move, PieceKind, attacks};
use super::zobrist::KEYS;

/// Placements in a whole game: 8 per side.
pub const PLACEMENTS: u8 = 16;

/// A Cheversi position (see the module documentation for the rules). Plain data, 72 bytes,
/// so a `clone` is a short copy. (Not `Copy`: generic code shared with the other games calls
/// `clone`, which clippy would flag on a `Copy` type.) The hands and the touched squares of
/// rule 2 are derived from the bitboards when moves are generated, which keeps making a
/// move (done at every leaf of a search) down to a few instructions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cheversi {
    /// Pieces on the board by colour (index [`Player::index`]).
    pub(super) colours: [u64; 2],
    /// Pieces on the board by kind (index [`PieceKind::index`]), both colours.
    pub(super) kinds: [u64; 5],
    /// Zobrist hash of the pieces and the side to move, kept incrementally; the rule keys
    /// are added when it is read ([`Cheversi::zobrist`]).
    pub(super) board_hash: u64,
    /// The kinds each colour still holds in hand, bit [`PieceKind::index`] each, kept on
    /// [`Cheversi::place`] (it fits in the struct's padding): move generation reads it at
    /// every node instead of counting five kinds.
    pub(super) hands: [u8; 2],
    /// Placements made so far, 0..=16; White moves on even counts.
    pub(super) placements: u8,
    pub(super) last: Option<Move>,
}

/// What filling one empty square does to the points ([`Cheversi::square_effect`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SquareEffect {
    /// Points the pieces on the board lose, by colour ([`Player::index`]).
    pub losses: [i32; 2],
    /// Points a piece of each kind placed there gains, by [`PieceKind::index`].
    pub gains: [i32; 5],
    /// The squares the square's rook and bishop rays reach, up to and including the first
    /// piece each way. A placement elsewhere, off these squares and off the square's
    /// Knight jumps, leaves the effect as it is (the solver reuses effects so).
    pub reach: u64,
}

impl SquareEffect {
    /// How `player`'s margin changes when it places a `kind` on the square: the piece's
    /// gain, the opponent's losses, less its own.
    #[inline]
    pub fn margin_change(&self, player: Player, kind: PieceKind) -> i32 {
        self.gains[kind.index()] + self.losses[player.opponent().index()]
            - self.losses[player.index()]
    }
}

/// Every kind in hand: the start.
const FULL_HAND: u8 = (1 << PieceKind::ALL.len()) - 1;

impl Default for Cheversi {
    fn default() -> Self {
        Cheversi::new()
    }
}

impl Cheversi {
    /// The start: an empty board, White to place its King.
    pub const fn new() -> Cheversi {
        Cheversi {
            colours: [0; 2],
            kinds: [0; 5],
            board_hash: 0,
            hands: [FULL_HAND; 2],
            placements: 0,
            last: None,
        }
    }

    /// A position from its pieces and last placement, with the derived fields (placement
    /// count, hash) recomputed. The caller has validated the pieces.
    pub(super) fn from_pieces(pieces: &[[u64; 5]; 2], last: Option<Square>) -> Cheversi {
        let mut position = Cheversi::new();
        for (colour, sets) in pieces.iter().enumerate() {
            for kind in PieceKind::ALL {
                let set = sets[kind.index()];
                position.colours[colour] |= set;
                position.kinds[kind.index()] |= set;
                position.placements += set.count_ones() as u8;
            }
        }
        position.last = last.and_then(|square| {
            position
                .piece_at(square)
                .map(|(_, kind)| Move::new(kind, square))
        });
        position.board_hash = position.compute_board_hash();
        position.hands = position.compute_hands();
        position
    }

    /// The kinds each colour holds in hand, from the bitboards.
    pub(super) fn compute_hands(&self) -> [u8; 2] {
        std::array::from_fn(|colour| {
            PieceKind::ALL
                .into_iter()
                .filter(|&kind| self.in_hand_of(colour, kind) > 0)
                .fold(0, |hand, kind| hand | 1 << kind.index())
        })
    }

    /// Whose turn it is (White after an even number of placements). After the 16th
    /// placement this is White, though no move remains.
    #[inline]
    pub fn side_to_move(&self) -> Player {
        if self.placements & 1 == 0 {
            Player::One
        } else {
            Player::Two
        }
    }

    /// The pieces of one colour and kind on the board.
    #[inline]
    pub fn pieces(&self, player: Player, kind: PieceKind) -> u64 {
        self.colours[player.index()] & self.kinds[kind.index()]
    }

    /// The pieces of one kind on the board, both colours.
    #[inline]
    pub fn kinds_on_board(&self, kind: PieceKind) -> u64 {
        self.kinds[kind.index()]
    }

    /// Every piece of one colour on the board.
    #[inline]
    pub fn pieces_of(&self, player: Player) -> u64 {
        self.colours[player.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.colours[0] | self.colours[1]
    }

    /// The colour and kind of the piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<(Player, PieceKind)> {
        let bit = square.bit();
        let player = if self.colours[0] & bit != 0 {
            Player::One
        } else if self.colours[1] & bit != 0 {
            Player::Two
        } else {
            return None;
        };
        PieceKind::ALL
            .into_iter()
            .find(|kind| self.kinds[kind.index()] & bit != 0)
            .map(|kind| (player, kind))
    }

    /// How many pieces of `kind` `player` still holds in hand.
    #[inline]
    pub fn in_hand(&self, player: Player, kind: PieceKind) -> u8 {
        self.in_hand_of(player.index(), kind)
    }

    /// [`Cheversi::in_hand`] by colour index.
    #[inline]
    pub(super) fn in_hand_of(&self, colour: usize, kind: PieceKind) -> u8 {
        let on_board = (self.colours[colour] & self.kinds[kind.index()]).count_ones() as u8;
        kind.count().saturating_sub(on_board)
    }

    /// Every empty square touching a piece (the squares rule 2 allows).
    #[inline]
    pub fn touched(&self) -> u64 {
        let occupied = self.occupied();
        neighbours(occupied) & !occupied
    }

    /// Placements made so far by both sides (0..=16).
    #[inline]
    pub fn placements(&self) -> u8 {
        self.placements
    }

    /// Placements made so far by `player` (0..=8).
    #[inline]
    pub fn placements_of(&self, player: Player) -> u8 {
        match player {
            Player::One => self.placements.div_ceil(2),
            Player::Two => self.placements / 2,
        }
    }

    /// The most recent placement (kind and square), `None` on the empty board.
    #[inline]
    pub fn last_placement(&self) -> Option<Move> {
        self.last
    }

    /// True once all 16 pieces stand on the board.
    #[inline]
    pub fn is_finished(&self) -> bool {
        self.placements >= PLACEMENTS
    }

    /// True while a queen call (rule 5) binds the mover: the previous placement was a Queen
    /// and the mover's Queen is still in hand.
    #[inline]
    pub fn queen_call(&self) -> bool {
        matches!(self.last, Some(last) if last.kind() == PieceKind::Queen)
            && self.colours[(self.placements & 1) as usize] & self.kinds[PieceKind::Queen.index()]
                == 0
    }

    /// `player`'s points if the game ended now: one per (own piece, empty square it
    /// attacks) pair.
    pub fn points(&self, player: Player) -> i32 {
        let occupied = self.occupied();
        let empty = !occupied;
        let mut points = 0;
        for kind in PieceKind::ALL {
            for square in Squares(self.pieces(player, kind)) {
                points += (attacks(kind, square, occupied) & empty).count_ones();
            }
        }
        points as i32
    }

    /// How each side's points (by [`Player::index`]) change when the side to move places
    /// `mv`, without placing it. The search uses it to score the game's last placement
    /// for every candidate at once (see [`Cheversi::square_effect`]).
    #[inline]
    pub fn points_change(&self, mv: Move) -> [i32; 2] {
        let effect = self.square_effect(mv.square());
        let mut change = effect.losses.map(|lost| -lost);
        change[(self.placements & 1) as usize] += effect.gains[mv.kind().index()];
        change
    }

    /// What filling the empty `square` does to the points, for every kind at once (a move
    /// list shares it between the kinds placed on one square): every piece attacking the
    /// square loses it, a slider also loses the empty squares behind it, and a new piece
    /// gains the empty squares it attacks. Two magic lookups and a few popcounts.
    #[inline]
    pub fn square_effect(&self, square: Square) -> SquareEffect {
        let index = square.index();
        let occupied = self.occupied();
        let empty_after = !(occupied | square.bit());
        let rook = rook_attacks(square, occupied);
        let bishop = bishop_attacks(square, occupied);
        let reach = [
            KING_ATTACKS[index],
            rook | bishop,
            rook,
            bishop,
            KNIGHT_ATTACKS[index],
        ];
        let gains = reach.map(|set| (set & empty_after).count_ones() as i32);
        let losses = self.losses_through(square, rook, bishop, empty_after);
        SquareEffect {
            losses,
            gains,
            reach: rook | bishop,
        }
    }

    /// The `losses` of [`Cheversi::square_effect`] alone (the solver's bounds need no
    /// gains).
    #[inline]
    pub fn square_losses(&self, square: Square) -> [i32; 2] {
        let occupied = self.occupied();
        let rook = rook_attacks(square, occupied);
        let bishop = bishop_attacks(square, occupied);
        self.losses_through(square, rook, bishop, !(occupied | square.bit()))
    }

    /// The losses of [`Cheversi::square_effect`], from the rook and bishop rays of
    /// `square` and the squares left empty after filling it (both callers have them).
    #[inline(always)]
    fn losses_through(&self, square: Square, rook: u64, bishop: u64, empty_after: u64) -> [i32; 2] {
        let index = square.index();
        let kinds = &self.kinds;
        let stepping = (KNIGHT_ATTACKS[index] & kinds[PieceKind::Knight.index()])
            | (KING_ATTACKS[index] & kinds[PieceKind::King.index()]);
        let mut losses = self
            .colours
            .map(|pieces| (stepping & pieces).count_ones() as i32);
        let queens = kinds[PieceKind::Queen.index()];
        let sliders = (rook & (kinds[PieceKind::Rook.index()] | queens))
            | (bishop & (kinds[PieceKind::Bishop.index()] | queens));
        // Squares the sliders reaching `square` saw through it: past it, up to the next
        // blocker, which is what `square`'s own rays reach.
        let behind = (rook | bishop) & empty_after;
        for from in Squares(sliders) {
            let colour = usize::from(self.colours[0] & from.bit() == 0);
            losses[colour] += 1 + (beyond(from, square) & behind).count_ones() as i32;
        }
        losses
    }

    /// The Zobrist hash (see [`super::zobrist`]): pieces, side to move, and the rule state
    /// the board does not show.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.board_hash ^ self.rule_keys()
    }

    /// The keys of the rule state the board does not show: the queen call and, while
    /// Black's King is due, the square it must touch.
    #[inline]
    fn rule_keys(&self) -> u64 {
        let mut keys = 0;
        if self.queen_call() {
            keys ^= KEYS.queen_call;
        }
        if self.placements == PLACEMENTS - 1 {
            if let Some(last) = self.last {
                keys ^= KEYS.rule8_square[last.square().index()];
            }
        }
        keys
    }

    /// The hash of the pieces and the side to move, from scratch.
    pub(super) fn compute_board_hash(&self) -> u64 {
        let mut hash = 0;
        if self.side_to_move() == Player::Two {
            hash ^= KEYS.black_to_move;
        }
        for colour in 0..2 {
            for kind in PieceKind::ALL {
                for square in Squares(self.colours[colour] & self.kinds[kind.index()]) {
                    hash ^= KEYS.pieces[colour][kind.index()][square.index()];
                }
            }
        }
        hash
    }

    /// The position with the piece on the occupied `square` taken off, as if it had never
    /// been placed (and no placement is remembered as the last). The solver reads on it
    /// the square effects that positions differing by that one piece share.
    pub fn without(&self, square: Square) -> Cheversi {
        let bit = square.bit();
        let (player, kind) = self.piece_at(square).expect("an occupied square");
        let colour = player.index();
        let mut position = self.clone();
        position.colours[colour] &= !bit;
        position.kinds[kind.index()] &= !bit;
        position.hands[colour] |= 1 << kind.index();
        position.placements -= 1;
        position.last = None;
        position.board_hash ^=
            KEYS.pieces[colour][kind.index()][square.index()] ^ KEYS.black_to_move;
        position
    }

    /// Places `mv` for the side to move with no legality check. The move must be legal
    /// (in particular the kind in hand and the square empty).
    #[inline]
    pub fn place(&mut self, mv: Move) {
        let colour = (self.placements & 1) as usize;
        let kind = mv.kind().index();
        let square = mv.square();
        let bit = square.bit();
        debug_assert!(self.occupied() & bit == 0, "{mv} on an occupied square");
        debug_assert!(self.in_hand_of(colour, mv.kind()) > 0, "{mv} not in hand");
        self.colours[colour] |= bit;
        self.kinds[kind] |= bit;
        if (self.colours[colour] & self.kinds[kind]).count_ones() >= u32::from(mv.kind().count()) {
            self.hands[colour] &= !(1 << kind);
        }
        self.placements += 1;
        self.last = Some(mv);
        self.board_hash ^= KEYS.pieces[colour][kind][square.index()] ^ KEYS.black_to_move;
    }
}
