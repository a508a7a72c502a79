//! The knowledge playout's stone draw on the one-word board (sides up to 5): every empty
//! cell's feature code read at once from cell masks, then one exact weighted draw.
//!
//! The rejection draw of [`Knowledge::place_stone`] read a frontier cell's contacts for
//! every proposal, about four per stone, and its accept test was a mispredicted branch
//! each time: three quarters of the playout's time. Here the codes come from masks the
//! [`WordBoard`] keeps as stones go down (each group's halo, each player's adjacent
//! cells, the halos of each player's largest groups) and one pass over the mover's
//! groups:
//! - a cell next to no own group has code own 0 and never raises or grants;
//! - a cell next to exactly one own group raises the score exactly when that group is a
//!   largest one (its halo is in the largest halo), and then grants 3 stones exactly
//!   when reaching one more than the mover's score does so for the first time this turn;
//! - the opponent term is the opponent's adjacent cells and largest halo (when its
//!   largest group has at least 2 stones);
//! - the cells next to two or more own groups (merge cells) take their group counts
//!   from the same pass and the size of the group they would make from a second pass
//!   over the groups next to them ([`CodeMasks::merge_code`]).
//!
//! The nine mask classes and those cells are weighted by [`DrawWeights`], one class (or
//! cell) is drawn by its total weight from the low 32 bits of one random word, and the
//! cell within a class from the high 32: the same distribution as the rejection draw
//! (each cell in proportion to its code's draw weight), with other random numbers.

use crate::eval::catchup_knowledge::{DrawWeights, Knowledge, TurnScores};
use crate::game::catchup::{PlayoutPosition, WordBoard, select_bit};
use crate::search::rng::Rng;

/// A way to draw a playout's stones by weight on board `B`: the state it keeps across
/// the playout and the draw of one stone.
pub trait StoneDraw<B: PlayoutPosition> {
    /// The state for a playout starting on `board`.
    fn of(board: &B) -> Self;

    /// Draws one stone for the mover by `draw` weight, places it on `board` and updates
    /// the mover's score in `scores`.
    fn place_stone(
        &mut self,
        draw: &DrawWeights,
        board: &mut B,
        scores: &mut TurnScores,
        rng: &mut Rng,
    );
}

/// The mask draw of the module comment: it keeps no state of its own.
pub struct MaskDraw;

/// The cells of each class of the mask draw whose code the masks decide, with their
/// codes: own groups 0 or 1, opponent term 0, 1 or 2, raising or not.
pub struct CodeMasks {
    pub masks: [u64; 9],
    pub codes: [u8; 9],
    /// The cells next to two or more of the mover's groups (codes read one by one).
    pub merges: u64,
    /// The cells next to three or more of them.
    pub three: u64,
    /// The cells next to an opponent's stone, and next to one of its largest groups
    /// when those have at least 2 stones (the opponent term 1 or 2).
    pub touching: u64,
    pub largest: u64,
    /// The least joined group that raises the mover's score, and the least that grants
    /// the opponent 3 stones for the first time this turn (`usize::MAX` once granted).
    raise_from: usize,
    grant_from: usize,
}

impl CodeMasks {
    /// The classes of the empty cells of `board` for its mover at `scores`.
    #[inline(always)]
    pub fn of(board: &WordBoard<true>, scores: &TurnScores) -> CodeMasks {
        let mover = board.side_to_move().index();
        let opponent = 1 - mover;
        let empty = board.empty_mask();
        let (mut once, mut twice, mut three) = (0u64, 0u64, 0u64);
        board.for_each_group(mover, |halo, _| {
            let touched = halo & empty;
            three |= twice & touched;
            twice |= once & touched;
            once |= touched;
        });
        let single = once & !twice;
        let alone = empty & !once;
        let raising = single & board.largest_halo(mover);
        let plain = single & !raising;
        let touching = board.adjacent_mask(opponent) & empty;
        let largest = if board.largest(opponent) >= 2 {
            board.largest_halo(opponent) & touching
        } else {
            0
        };
        let smaller = touching & !largest;
        let apart = !touching;
        let raise_from = scores.mover + 1;
        let grant_from = if scores.grants(scores.mover) {
            usize::MAX
        } else {
            scores.grant_from()
        };
        let grants = raise_from >= grant_from;
        // Code = ((own * 3 + opponent) * 2 + raises) * 2 + grants (Features::code).
        let raised = 2 + u8::from(grants);
        CodeMasks {
            masks: [
                alone & apart,
                alone & smaller,
                alone & largest,
                plain & apart,
                plain & smaller,
                plain & largest,
                raising & apart,
                raising & smaller,
                raising & largest,
            ],
            codes: [0, 4, 8, 12, 16, 20, 12 + raised, 16 + raised, 20 + raised],
            merges: twice,
            three,
            touching,
            largest,
            raise_from,
            grant_from,
        }
    }

    /// The code of a merge cell (one of `merges`) whose stone would make a group of
    /// `joined` stones: the same as
    /// [`feature_code`](crate::eval::catchup_knowledge::feature_code) of its contacts.
    #[inline(always)]
    pub fn merge_code(&self, cell: u8, joined: usize) -> usize {
        let at = |mask: u64| usize::from(mask >> cell & 1 == 1);
        let own = 2 + at(self.three);
        let opponent = at(self.touching) + at(self.largest);
        let raises = usize::from(joined >= self.raise_from);
        let grants = usize::from(joined >= self.grant_from);
        ((own * 3 + opponent) * 2 + raises) * 2 + grants
    }

    /// The size of the group a stone on each merge cell would make, by cell (other
    /// entries 1): one pass over the mover's groups next to a merge cell.
    #[inline(always)]
    pub fn joined_sizes(&self, board: &WordBoard<true>) -> [u8; 64] {
        let mut joined = [1u8; 64];
        board.for_each_group(board.side_to_move().index(), |halo, size| {
            let mut cells = halo & self.merges;
            while cells != 0 {
                joined[cells.trailing_zeros() as usize & 63] += size;
                cells &= cells - 1;
            }
        });
        joined
    }
}

impl StoneDraw<WordBoard<true>> for MaskDraw {
    #[inline(always)]
    fn of(_board: &WordBoard<true>) -> Self {
        MaskDraw
    }

    #[inline(always)]
    fn place_stone(
        &mut self,
        draw: &DrawWeights,
        board: &mut WordBoard<true>,
        scores: &mut TurnScores,
        rng: &mut Rng,
    ) {
        let mover = board.side_to_move().index();
        let classes = CodeMasks::of(board, scores);
        // Running totals of the nine classes, then of each merge cell.
        let mut totals = [0u32; 9];
        let mut total = 0u32;
        for (slot, (&mask, &code)) in totals
            .iter_mut()
            .zip(classes.masks.iter().zip(&classes.codes))
        {
            total += mask.count_ones() * u32::from(draw.weights[usize::from(code)]);
            *slot = total;
        }
        let joined = if classes.merges != 0 {
            classes.joined_sizes(board)
        } else {
            [1; 64]
        };
        let code_of =
            |cell: u8| classes.merge_code(cell, usize::from(joined[usize::from(cell) & 63]));
        let mut rest = classes.merges;
        while rest != 0 {
            total += u32::from(draw.weights[code_of(rest.trailing_zeros() as u8)]);
            rest &= rest - 1;
        }
        let word = rng.next_u64();
        let target = (((word & 0xFFFF_FFFF) * u64::from(total)) >> 32) as u32;
        let class = totals.iter().filter(|&&sum| sum <= target).count();
        let cell = if class < 9 {
            let mask = classes.masks[class];
            let rank = ((word >> 32) * u64::from(mask.count_ones())) >> 32;
            select_bit(mask, rank as u32) as u8
        } else {
            // A merge cell: its codes read again (no buffer to fill on every stone).
            let mut sum = totals[8];
            let mut rest = classes.merges;
            loop {
                let cell = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                sum += u32::from(draw.weights[code_of(cell)]);
                if sum > target || rest == 0 {
                    break cell;
                }
            }
        };
        board.place(cell, mover);
        scores.mover = board.player_score(board.side_to_move());
    }
}

impl<B: PlayoutPosition> StoneDraw<B> for crate::eval::catchup_knowledge::EmptyCells {
    #[inline(always)]
    fn of(board: &B) -> Self {
        crate::eval::catchup_knowledge::EmptyCells::of(board)
    }

    #[inline(always)]
    fn place_stone(
        &mut self,
        draw: &DrawWeights,
        board: &mut B,
        scores: &mut TurnScores,
        rng: &mut Rng,
    ) {
        Knowledge::place_stone(draw, board, self, scores, rng);
    }
}
