//! Move generation, bulk counting and making moves.
//!
//! Steps and the test "does any capture exist" are whole-set shifts. Capture chains are
//! enumerated by a depth-first search over a fixed-size stack of frames, one per jump, so
//! nothing is allocated; the same search either pushes moves or only counts them.

use super::moves::{MAX_JUMPS, Move};
use super::zobrist::KEYS;
use super::{Checkers, DRAW_PLIES, NO_CELL};
use crate::board::strided::StridedSet;
use crate::game::Player;

/// Calls `self.method::<WIDTH>(arguments)` with the board's width as a constant for the
/// boards played most (Kruzno's side 6 in two words, hex checkers' sides 7, 8 and 9 in
/// five), so their shifts compile to constant shifts; other boards read the offsets at
/// run time (`WIDTH` 0): a division, a remainder and variable shift counts per shift,
/// several times slower. One copy of each function per case, from one generic body.
/// Generic arguments after the width may follow the method's name
/// (`self.method::<_>(...)`).
macro_rules! with_width {
    ($self:ident . $method:ident $(::<$($generic:ty),*>)? ( $($argument:expr),* )) => {
        match (N, $self.layout.width()) {
            (2, 11) => $self.$method::<11 $($(, $generic)*)?>($($argument),*),
            (5, 13) => $self.$method::<13 $($(, $generic)*)?>($($argument),*),
            (5, 15) => $self.$method::<15 $($(, $generic)*)?>($($argument),*),
            (5, 17) => $self.$method::<17 $($(, $generic)*)?>($($argument),*),
            _ => $self.$method::<0 $($(, $generic)*)?>($($argument),*),
        }
    };
}

/// Work that grows sets many times, run by [`Checkers::with_grown`] with the grow
/// function of the position's board.
pub trait GrowingTask<const N: usize> {
    type Output;

    fn run(self, grown: impl Fn(StridedSet<N>) -> StridedSet<N> + Copy) -> Self::Output;
}

/// One level of the chain search: where the man stands and which jumps are still to try.
#[derive(Copy, Clone, Default)]
struct Frame {
    cell: u16,
    /// Directions not yet tried, one bit per direction index.
    pending: u8,
}

impl<const N: usize> Checkers<N> {
    #[inline]
    fn offset(&self, direction: usize) -> isize {
        self.layout.offsets[direction] as isize
    }

    /// Cells holding no man.
    #[inline]
    pub(super) fn empty_cells(&self) -> StridedSet<N> {
        self.valid().without(self.men[0] | self.men[1])
    }

    /// The positive offsets of the direction pairs `d`, `d + 3` (`d` below 3): constants
    /// when `WIDTH` is the board's width (see [`with_width`]), read from the layout when
    /// it is 0. Callers spell out the three pairs: a loop over them stays a loop, with
    /// the shifts computed at run time.
    #[inline(always)]
    fn amounts<const WIDTH: usize>(&self) -> [usize; 3] {
        if WIDTH == 0 {
            let offsets = &self.layout.offsets;
            [0, 1, 2].map(|direction| offsets[direction] as usize)
        } else {
            [1, WIDTH + 1, WIDTH]
        }
    }

    /// Per direction, the cells whose neighbour that way is in `empty`; met with a side's
    /// men, the steps it has in that direction.
    ///
    /// Directions come in opposite pairs `d`, `d + 3` with offsets `+o`, `-o` (`o > 0`):
    /// `empty` shifted down by `o` marks the cells whose `+o` neighbour is empty.
    #[inline(always)]
    fn open_cells<const WIDTH: usize>(&self, empty: StridedSet<N>) -> [StridedSet<N>; 6] {
        let [right, up_right, up_left] = self.amounts::<WIDTH>();
        [
            empty.shifted_down(right),
            empty.shifted_down(up_right),
            empty.shifted_down(up_left),
            empty.shifted_up(right),
            empty.shifted_up(up_right),
            empty.shifted_up(up_left),
        ]
    }

    /// The mover's men that can jump now, and the [`Self::open_cells`] of `empty`: met
    /// with `own`, the men that can step per direction. An enemy man on an open cell,
    /// shifted back, marks the cell a jump over it starts from. Counting the steps (the
    /// costly popcounts) is left to the caller, which often needs no count.
    #[inline(always)]
    fn scan<const WIDTH: usize>(
        &self,
        own: StridedSet<N>,
        enemy: StridedSet<N>,
        empty: StridedSet<N>,
    ) -> (StridedSet<N>, [StridedSet<N>; 6]) {
        let open = self.open_cells::<WIDTH>(empty);
        let [right, up_right, up_left] = self.amounts::<WIDTH>();
        let jumpers = (enemy & open[0]).shifted_down(right)
            | (enemy & open[1]).shifted_down(up_right)
            | (enemy & open[2]).shifted_down(up_left)
            | (enemy & open[3]).shifted_up(right)
            | (enemy & open[4]).shifted_up(up_right)
            | (enemy & open[5]).shifted_up(up_left);
        (jumpers & own, open)
    }

    /// Steps of the obligated man onto empty non-border cells, as a direction mask.
    #[inline(always)]
    fn exits(&self, cell: usize, empty: StridedSet<N>) -> u8 {
        let inner = empty.without(self.restricted());
        let mut mask = 0;
        for direction in 0..6 {
            let next = (cell as isize + self.offset(direction)) as usize;
            if inner.contains(next) {
                mask |= 1 << direction;
            }
        }
        mask
    }

    /// The step offset of `direction`: a constant when `WIDTH` is the board's width (see
    /// [`with_width`]), read from the layout when it is 0.
    #[inline(always)]
    fn offset_for<const WIDTH: usize>(&self, direction: usize) -> isize {
        if WIDTH == 0 {
            self.offset(direction)
        } else {
            let width = WIDTH as isize;
            [1, width + 1, width, -1, -width - 1, -width][direction]
        }
    }

    /// Directions in which a man on `cell` can jump an enemy of `enemy` onto `empty`.
    #[inline(always)]
    fn jump_directions<const WIDTH: usize>(
        &self,
        cell: usize,
        enemy: StridedSet<N>,
        empty: StridedSet<N>,
    ) -> u8 {
        if N == 2 && WIDTH == 11 {
            return kruzno_jump_directions(cell, enemy.words(), empty.words());
        }
        let mut mask = 0;
        for direction in 0..6 {
            let offset = self.offset_for::<WIDTH>(direction);
            let middle = (cell as isize + offset) as usize;
            let landing = (cell as isize + 2 * offset) as usize;
            if enemy.contains(middle) && empty.contains(landing) {
                mask |= 1 << direction;
            }
        }
        mask
    }

    /// Calls `visit` with every complete capture chain of the man on `start`.
    ///
    /// `empty` must count `start` as empty (the mover has left it). Jumped men stay on
    /// the board until the end of the move; they can never be landed on anyway, since
    /// landing cells and jumped cells lie on different cosets of the 2-step lattice.
    #[inline]
    fn for_each_chain<const WIDTH: usize>(
        &self,
        start: usize,
        mut enemy: StridedSet<N>,
        empty: StridedSet<N>,
        mut visit: impl FnMut(Move),
    ) {
        let mut frames = [Frame::default(); MAX_JUMPS + 1];
        let pending = self.jump_directions::<WIDTH>(start, enemy, empty);
        if pending == 0 {
            return;
        }
        frames[0] = Frame {
            cell: start as u16,
            pending,
        };
        let mut depth = 0;
        let mut path: u128 = 0;
        loop {
            let frame = &mut frames[depth];
            if frame.pending == 0 {
                if depth == 0 {
                    return;
                }
                // Back up one jump: the man jumped from the frame below.
                depth -= 1;
                let direction = ((path >> (3 * depth)) & 7) as usize;
                let middle = frames[depth].cell as isize + self.offset_for::<WIDTH>(direction);
                enemy.insert_by_select(middle as usize);
                continue;
            }
            let direction = frame.pending.trailing_zeros() as usize;
            frame.pending &= frame.pending - 1;
            let offset = self.offset_for::<WIDTH>(direction);
            let middle = frame.cell as isize + offset;
            let landing = (middle + offset) as usize;
            enemy.remove_by_select(middle as usize);
            path = (path & !(7u128 << (3 * depth))) | (direction as u128) << (3 * depth);
            let next = self.jump_directions::<WIDTH>(landing, enemy, empty);
            if next == 0 {
                let jumps = depth + 1;
                visit(Move::capture(
                    start,
                    jumps,
                    path & ((1u128 << (3 * jumps)) - 1),
                ));
                enemy.insert_by_select(middle as usize);
            } else {
                depth += 1;
                frames[depth] = Frame {
                    cell: landing as u16,
                    pending: next,
                };
            }
        }
    }

    /// The mover's men, the enemy men and the empty cells.
    #[inline]
    fn sides(&self) -> (StridedSet<N>, StridedSet<N>, StridedSet<N>) {
        let own = self.men[self.side.index()];
        let enemy = self.men[self.side.opponent().index()];
        (own, enemy, self.empty_cells())
    }

    /// The mover's obligated man, if it has one.
    #[inline]
    fn own_obligation(&self) -> Option<usize> {
        match self.obligations[self.side.index()] {
            NO_CELL => None,
            cell => Some(cell as usize),
        }
    }

    /// True if the side to move has any legal move (draw counters aside).
    pub(super) fn has_moves(&self) -> bool {
        with_width!(self.has_moves_for())
    }

    #[inline(always)]
    fn has_moves_for<const WIDTH: usize>(&self) -> bool {
        let (own, enemy, empty) = self.sides();
        let (jumpers, open) = self.scan::<WIDTH>(own, enemy, empty);
        !jumpers.is_empty() || open.iter().any(|&set| !(set & own).is_empty())
    }

    /// Fills `moves` with every legal move (none once the 80-ply draw holds).
    pub(super) fn generate(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.plies_since_capture >= DRAW_PLIES {
            return;
        }
        with_width!(self.generate_for(moves))
    }

    #[inline(always)]
    fn generate_for<const WIDTH: usize>(&self, moves: &mut Vec<Move>) {
        let (own, enemy, empty) = self.sides();
        let (jumpers, open) = self.scan::<WIDTH>(own, enemy, empty);
        if !jumpers.is_empty() {
            self.push_chains::<WIDTH>(jumpers, enemy, empty, moves);
            return;
        }
        let steppers = open.map(|set| set & own);
        if let Some(cell) = self.own_obligation() {
            let mut exits = self.exits(cell, empty);
            if exits != 0 {
                while exits != 0 {
                    moves.push(Move::step(cell, exits.trailing_zeros() as usize));
                    exits &= exits - 1;
                }
                return;
            }
        }
        // One reservation, then bit by bit: the steps are most of the moves at most
        // nodes, and a cell-by-cell set iterator costs more than the pushes themselves.
        // By direction, then cell: the order of the encoding (see `find_move`).
        let total: u32 = steppers.iter().map(|set| set.len()).sum();
        moves.reserve(total as usize);
        for (direction, set) in steppers.into_iter().enumerate() {
            set.for_each(|from| moves.push(Move::step(from, direction)));
        }
    }

    /// Fills `moves` with the legal captures only and returns `None`, or, when there is
    /// no capture to make, each colour's open steps ([`Self::open_steps`], White's first)
    /// with `moves` left empty: the side to move has steps exactly when its count is above
    /// zero (captures are compulsory, so the two never mix). `None` with no moves once the
    /// 80-ply draw holds. Quiescence needs no step list, and its evaluation counts the
    /// open steps from the same shifted empty cells as the capture test.
    pub fn captures_or_open_steps(&self, moves: &mut Vec<Move>) -> Option<[u32; 2]> {
        moves.clear();
        if self.plies_since_capture >= DRAW_PLIES {
            return None;
        }
        with_width!(self.captures_or_open_steps_for(moves))
    }

    #[inline(always)]
    fn captures_or_open_steps_for<const WIDTH: usize>(
        &self,
        moves: &mut Vec<Move>,
    ) -> Option<[u32; 2]> {
        let (own, enemy, empty) = self.sides();
        let (jumpers, open) = self.scan::<WIDTH>(own, enemy, empty);
        if !jumpers.is_empty() {
            self.push_chains::<WIDTH>(jumpers, enemy, empty, moves);
            return None;
        }
        Some(
            self.men
                .map(|men| count_sum(&open.map(|cells| cells & men))),
        )
    }

    /// Pushes every capture chain of the men in `jumpers`.
    fn push_chains<const WIDTH: usize>(
        &self,
        jumpers: StridedSet<N>,
        enemy: StridedSet<N>,
        empty: StridedSet<N>,
        moves: &mut Vec<Move>,
    ) {
        for start in jumpers {
            let mut with_start = empty;
            with_start.insert_by_select(start);
            self.for_each_chain::<WIDTH>(start, enemy, with_start, |mv| moves.push(mv));
        }
    }

    /// The number of legal moves, without building the list when there is no capture.
    pub(super) fn count(&self) -> u64 {
        if let Some(count) = self.step_count() {
            return count.into();
        }
        let (own, enemy, empty) = self.sides();
        let (jumpers, _) = self.scan::<0>(own, enemy, empty);
        let mut count = 0;
        for start in jumpers {
            let mut with_start = empty;
            with_start.insert_by_select(start);
            self.for_each_chain::<0>(start, enemy, with_start, |_| count += 1);
        }
        count
    }

    /// The number of legal moves when there is no capture to make (all are steps), `None`
    /// when there is one; counted without listing the steps.
    pub fn step_count(&self) -> Option<u32> {
        if self.plies_since_capture >= DRAW_PLIES {
            return Some(0);
        }
        with_width!(self.step_count_for())
    }

    #[inline(always)]
    fn step_count_for<const WIDTH: usize>(&self) -> Option<u32> {
        let (own, enemy, empty) = self.sides();
        let (jumpers, open) = self.scan::<WIDTH>(own, enemy, empty);
        if !jumpers.is_empty() {
            return None;
        }
        if let Some(cell) = self.own_obligation() {
            let exits = self.exits(cell, empty);
            if exits != 0 {
                return Some(exits.count_ones());
            }
        }
        Some(count_sum(&open.map(|cells| cells & own)))
    }

    /// True when `mv` is a legal step here, for a position with no capture to make and
    /// moves left ([`Self::step_count`] gave a count above zero): the search's check of a
    /// killer without listing the moves.
    pub fn is_legal_step(&self, mv: Move) -> bool {
        if mv.is_capture() {
            return false;
        }
        let start = mv.start();
        if !self.men[self.side.index()].contains(start) {
            return false;
        }
        // A neighbour of a cell of the board stays inside the padded layout. Cell by cell:
        // the search tests its killers at most nodes, and one word of each set is enough.
        let end = (start as isize + self.offset(mv.direction(0))) as usize;
        if !self.valid().contains(end) || self.men[0].contains(end) || self.men[1].contains(end) {
            return false;
        }
        match self.own_obligation() {
            Some(cell) if self.exits(cell, self.empty_cells()) != 0 => {
                start == cell && !self.restricted().contains(end)
            }
            _ => true,
        }
    }

    /// Per colour, the pairs (man, direction) whose neighbouring cell is in `empty`: the
    /// steps each side's men would have without captures or obligations.
    pub fn open_steps(&self, empty: StridedSet<N>) -> [u32; 2] {
        with_width!(self.open_steps_for(empty))
    }

    #[inline(always)]
    fn open_steps_for<const WIDTH: usize>(&self, empty: StridedSet<N>) -> [u32; 2] {
        let open = self.open_cells::<WIDTH>(empty);
        self.men
            .map(|men| count_sum(&open.map(|cells| cells & men)))
    }

    /// Per colour, the backed offers: the empty cells a man of that colour can step into
    /// so that an enemy man next to the cell can take it (the cell behind it along that
    /// line is empty after the step), and an own man two cells behind along that line
    /// takes the taker back, while the cell behind that backer is not empty, so the
    /// taker's chain cannot go on over the backer. The stepping man comes from the cell
    /// behind or from any other neighbour. An even exchange the opponent cannot refuse
    /// when the capture is its only one: the shape that opens a defence which never
    /// steps forward.
    pub fn backed_offers(&self) -> [u32; 2] {
        with_width!(self.backed_offers_for())
    }

    #[inline(always)]
    fn backed_offers_for<const WIDTH: usize>(&self) -> [u32; 2] {
        let empty = self.empty_cells();
        let [white, black] = self.men;
        // The grown sets repeat the one-step shifts made below; inlined, each is made once.
        let reach = [
            self.grown_for::<WIDTH>(white),
            self.grown_for::<WIDTH>(black),
        ];
        // One call per direction pair, written out: a loop over the amounts is not
        // unrolled, and its shifts would then be run-time shifts.
        let [right, up_right, up_left] = self.amounts::<WIDTH>();
        let first = backed_offers_along(self.men, empty, reach, right);
        let second = backed_offers_along(self.men, empty, reach, up_right);
        let third = backed_offers_along(self.men, empty, reach, up_left);
        [
            (first[0] | second[0] | third[0]).len(),
            (first[1] | second[1] | third[1]).len(),
        ]
    }

    /// `set` and every cell one step from it, unclipped (callers mask the result): the
    /// same cells as [`HexGeometry::grown`](crate::board::hex::HexGeometry::grown), but
    /// with this board's offsets, in pairs of known sign, read once instead of derived
    /// per direction (the evaluation's conversion terms grow sets many times).
    #[inline]
    pub fn grown(&self, set: StridedSet<N>) -> StridedSet<N> {
        with_width!(self.grown_for(set))
    }

    /// Runs `task` with [`Self::grown`] as a function whose board width is picked here,
    /// once, so on the played boards its shifts are constants inlined into the task's
    /// loops: picking the width per set, as `grown` does, cost a call and a branch each
    /// time (the conversion terms grow sets about ten times per evaluation).
    #[inline]
    pub fn with_grown<T: GrowingTask<N>>(&self, task: T) -> T::Output {
        with_width!(self.with_grown_for::<_>(task))
    }

    #[inline(always)]
    fn with_grown_for<const WIDTH: usize, T: GrowingTask<N>>(&self, task: T) -> T::Output {
        task.run(|set| self.grown_for::<WIDTH>(set))
    }

    #[inline(always)]
    fn grown_for<const WIDTH: usize>(&self, set: StridedSet<N>) -> StridedSet<N> {
        let [right, up_right, up_left] = self.amounts::<WIDTH>();
        set | set.shifted_down(right)
            | set.shifted_down(up_right)
            | set.shifted_down(up_left)
            | set.shifted_up(right)
            | set.shifted_up(up_right)
            | set.shifted_up(up_left)
    }

    /// Plays a legal move: moves the man, removes the jumped men, updates obligations,
    /// counters, side to move and hash.
    pub(super) fn apply(&mut self, mv: Move) {
        let mover = self.side.index();
        let opponent = 1 - mover;
        let start = mv.start();
        let mut cell = start as isize;
        if mv.is_capture() {
            for index in 0..mv.capture_count() {
                let offset = self.offset(mv.direction(index));
                let middle = (cell + offset) as usize;
                self.men[opponent].remove(middle);
                self.hash ^= KEYS.men[opponent][middle];
                self.placement[opponent].remove(self.layout.placement_terms[middle][opponent]);
                if self.obligations[opponent] as usize == middle {
                    self.hash ^= KEYS.obligations[opponent][middle];
                    self.obligations[opponent] = NO_CELL;
                }
                cell += 2 * offset;
            }
            self.plies_since_capture = 0;
        } else {
            cell += self.offset(mv.direction(0));
            self.plies_since_capture = self.plies_since_capture.saturating_add(1);
        }
        let end = cell as usize;
        self.men[mover].remove(start);
        self.men[mover].insert(end);
        self.hash ^= KEYS.men[mover][start] ^ KEYS.men[mover][end];
        self.placement[mover].remove(self.layout.placement_terms[start][mover]);
        self.placement[mover].add(self.layout.placement_terms[end][mover]);
        // The mover's obligation lapses after this turn; a new one arises on the border.
        if self.obligations[mover] != NO_CELL {
            self.hash ^= KEYS.obligations[mover][self.obligations[mover] as usize];
            self.obligations[mover] = NO_CELL;
        }
        if self.restricted().contains(end) {
            self.obligations[mover] = end as u16;
            self.hash ^= KEYS.obligations[mover][end];
        }
        if self.side == Player::Two {
            self.move_number = self.move_number.saturating_add(1);
        }
        self.side = self.side.opponent();
        self.hash ^= KEYS.black_to_move;
        debug_assert_eq!(self.hash, self.full_hash());
        debug_assert_eq!(self.placement, self.full_placement());
    }
}

/// [`Checkers::jump_directions`] on Kruzno's board (two words, width 11) from one window
/// of bits around the cell per word, instead of two cell tests per direction: chain
/// generation asks at every landing, and the tests were most of its cost.
///
/// Cell `c = 2b + p` is bit `b` of word `p`. A landing `c + 2o` is bit `b + o` of word
/// `p`; a jumped cell `c + o` is bit `b + o / 2` of word `p` for the even offsets `±12`,
/// and bit `b + floor((p + o) / 2)` of the other word for the odd ones. Each window holds
/// the bits `b - 12 ..= b + 12` of a word at `0 ..= 24` (the other word's shifted by `p`
/// more); cells beyond either end of the board read as absent, as in a cell test.
#[inline(always)]
fn kruzno_jump_directions<const N: usize>(cell: usize, enemy: &[u64; N], empty: &[u64; N]) -> u8 {
    let (word, bit) = (cell & 1, cell >> 1);
    // Words picked by comparison, not by index, so the sets can stay in registers.
    let pick = |words: &[u64; N], index: usize| if index == 0 { words[0] } else { words[1] };
    let window = |set: u64, shift: usize| (u128::from(set) << 12 >> shift) as u32;
    let landing = window(pick(empty, word), bit);
    let jumped_same = window(pick(enemy, word), bit);
    let jumped_other = window(pick(enemy, word ^ 1), bit + word);
    // Per direction (offsets 1, 12, 11, -1, -12, -11): the jumped cell's window and bit,
    // and the landing's bit.
    let jumps = [
        (jumped_other, 12, 13),
        (jumped_same, 18, 24),
        (jumped_other, 17, 23),
        (jumped_other, 11, 11),
        (jumped_same, 6, 0),
        (jumped_other, 6, 1),
    ];
    let mut mask = 0;
    for (direction, (jumped, jumped_bit, landing_bit)) in jumps.into_iter().enumerate() {
        mask |= ((jumped >> jumped_bit & landing >> landing_bit & 1) as u8) << direction;
    }
    mask
}

/// Per colour, the empty cells of [`Checkers::backed_offers`] along one direction pair
/// (`amount` and its opposite); `reach`: each colour's men and the cells next to them.
/// Written out per colour, in functions that are always inlined: array `map`s and
/// closures were not inlined here, which turned the constant shifts into run-time ones.
#[inline(always)]
fn backed_offers_along<const N: usize>(
    [white, black]: [StridedSet<N>; 2],
    empty: StridedSet<N>,
    [white_reach, black_reach]: [StridedSet<N>; 2],
    amount: usize,
) -> [StridedSet<N>; 2] {
    let white_steps = [white.shifted_up(amount), white.shifted_down(amount)];
    let black_steps = [black.shifted_up(amount), black.shifted_down(amount)];
    let empty_steps = [empty.shifted_up(amount), empty.shifted_down(amount)];
    [
        backed_offers_of(
            white,
            white_steps,
            black_steps,
            empty,
            empty_steps,
            white_reach,
            amount,
        ),
        backed_offers_of(
            black,
            black_steps,
            white_steps,
            empty,
            empty_steps,
            black_reach,
            amount,
        ),
    ]
}

/// One colour's part of [`backed_offers_along`]: `own_steps`, `enemy_steps` and
/// `empty_steps` are those sets shifted up and down by `amount`.
#[inline(always)]
fn backed_offers_of<const N: usize>(
    own: StridedSet<N>,
    [own_up, own_down]: [StridedSet<N>; 2],
    [enemy_up, enemy_down]: [StridedSet<N>; 2],
    empty: StridedSet<N>,
    [empty_up, empty_down]: [StridedSet<N>; 2],
    reach: StridedSet<N>,
    amount: usize,
) -> StridedSet<N> {
    let forward = (enemy_down & own.shifted_up(2 * amount) & (own_up | (empty_up & reach)))
        .without(empty.shifted_up(3 * amount));
    let backward = (enemy_up & own.shifted_down(2 * amount) & (own_down | (empty_down & reach)))
        .without(empty.shifted_down(3 * amount));
    empty & (forward | backward)
}

/// The total number of cells in six sets. Plain popcounts: a carry-save tree takes
/// three of the six but costs more instructions than it saves (callgrind, hex checkers:
/// 4% fewer instructions in all without it; popcounts are cheap on this machine).
#[inline(always)]
fn count_sum<const N: usize>(sets: &[StridedSet<N>; 6]) -> u32 {
    sets.iter().map(|set| set.len()).sum()
}

#[cfg(test)]
mod tests {
    use super::{Checkers, Move};
    use crate::game::{GameConfig, Rules, Variant};
    use crate::random::SplitMix64;

    /// Along random games on a played board, the copies with constant shifts give what
    /// the generic copy (offsets read at run time) gives.
    fn constant_shifts_match_run_time_shifts<const N: usize, const WIDTH: usize>(
        start: Checkers<N>,
    ) {
        assert_eq!(start.layout.width(), WIDTH);
        let mut rng = SplitMix64::new(WIDTH as u64);
        let (mut moves, mut generic) = (Vec::<Move>::new(), Vec::new());
        for _ in 0..10 {
            let mut position = start.clone();
            for _ in 0..150 {
                // The entry points clear the lists; the copies only push.
                moves.clear();
                generic.clear();
                position.generate_for::<WIDTH>(&mut moves);
                position.generate_for::<0>(&mut generic);
                assert_eq!(moves, generic);
                assert_eq!(
                    position.step_count_for::<WIDTH>(),
                    position.step_count_for::<0>()
                );
                assert_eq!(
                    position.has_moves_for::<WIDTH>(),
                    position.has_moves_for::<0>()
                );
                assert_eq!(
                    position.backed_offers_for::<WIDTH>(),
                    position.backed_offers_for::<0>()
                );
                let empty = position.empty_cells();
                assert_eq!(
                    position.open_steps_for::<WIDTH>(empty),
                    position.open_steps_for::<0>(empty)
                );
                let men = position.men[0];
                assert_eq!(
                    position.grown_for::<WIDTH>(men),
                    position.grown_for::<0>(men)
                );
                moves.clear();
                generic.clear();
                let fast = position.captures_or_open_steps_for::<WIDTH>(&mut moves);
                assert_eq!(fast, position.captures_or_open_steps_for::<0>(&mut generic));
                assert_eq!(moves, generic);
                position.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                position.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
    }

    #[test]
    fn the_played_boards_shift_by_constants_as_by_their_offsets() {
        let kruzno = Checkers::<2>::start(&GameConfig::new(Variant::Kruzno)).expect("starts");
        constant_shifts_match_run_time_shifts::<2, 11>(kruzno);
        let hex = |side| {
            Checkers::<5>::start(&GameConfig {
                size: Some(side),
                ..GameConfig::new(Variant::HexCheckers)
            })
            .expect("starts")
        };
        constant_shifts_match_run_time_shifts::<5, 13>(hex(7));
        constant_shifts_match_run_time_shifts::<5, 15>(hex(8));
        constant_shifts_match_run_time_shifts::<5, 17>(hex(9));
    }
}
