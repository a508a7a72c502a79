//! The retrograde solver: for one material class (A men against B, both sides to move) it
//! computes, per position, who can force a win within how many plies before the next
//! capture, with the classes of fewer men (already solved) as the exits.
//!
//! Values are from the side to move's view. A capture move leaves the class: its value is
//! read from the smaller class with a fresh counter, and it counts as won for the capturer
//! only if that position is won within the ply limit (80), lost if it is lost within it,
//! and drawn otherwise. Inside the class the solver computes the attractor layer by layer:
//! distance 0 is "no legal move", a win at distance `d + 1` has a step to a loss at `d`,
//! a loss at `d + 1` has only steps to wins of at most `d`. That distance is the number
//! of plies to the next capture or the end of the game, so a position whose counter is
//! `c` is won under the 80-ply rule exactly when its distance is at most `80 - c`.

use super::board::{CaptureResult, MAX_MEN, Occupancy, SolverBoard};

/// Longest distance the tables hold; positions not decided within it count as drawn.
pub const MAX_DISTANCE: u8 = 110;

/// Byte encoding of a value. `1..=31`: undecided, with that many steps not yet known to
/// lose (0 is left for overlapping men, which are not positions).
const DRAW: u8 = 32;
const WIN_BASE: u8 = 32;
const LOSS_BASE: u8 = WIN_BASE + MAX_DISTANCE + 1;
// Every loss fits in a byte, and so does every step count (at most six per man).
const _: () = assert!(LOSS_BASE as usize + MAX_DISTANCE as usize <= u8::MAX as usize);
const _: () = assert!(6 * MAX_MEN < DRAW as usize);

/// The value of a position for the side to move, before any 80-ply cut-off: the plies to
/// the capture that converts (or to the end of the game) under best play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Win(u8),
    Loss(u8),
    /// Neither side can force a won exit within [`MAX_DISTANCE`] plies.
    Draw,
}

impl Value {
    pub(super) fn decode(byte: u8) -> Value {
        if byte <= DRAW {
            Value::Draw
        } else if byte < LOSS_BASE {
            Value::Win(byte - WIN_BASE)
        } else {
            Value::Loss(byte - LOSS_BASE)
        }
    }

    pub(super) fn encode(self) -> u8 {
        match self {
            Value::Win(plies) => WIN_BASE + plies,
            Value::Loss(plies) => LOSS_BASE + plies,
            Value::Draw => DRAW,
        }
    }

    /// The value with `remaining` plies left before the draw rule: a win or loss that
    /// takes longer is a draw.
    pub fn within(self, remaining: usize) -> Value {
        match self {
            Value::Win(plies) | Value::Loss(plies) if usize::from(plies) > remaining => Value::Draw,
            value => value,
        }
    }
}

/// One table: every placement of `mover` men for the side to move and `opponent` men for
/// the other, indexed by the rank of each sorted cell set (overlapping sets are unused).
pub struct Table {
    mover: usize,
    opponent: usize,
    /// C(cells, opponent): the stride of the mover's rank.
    opponent_sets: u64,
    values: Vec<u8>,
}

impl Table {
    fn new(board: &SolverBoard, mover: usize, opponent: usize) -> Self {
        let opponent_sets = board.combinations(opponent);
        let size = board.combinations(mover) * opponent_sets;
        Table {
            mover,
            opponent,
            opponent_sets,
            values: vec![0; usize::try_from(size).expect("a table fits in memory")],
        }
    }

    /// The men of each side.
    pub fn material(&self) -> (usize, usize) {
        (self.mover, self.opponent)
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.values.len()
    }

    #[inline]
    fn index(&self, board: &SolverBoard, mover: &[u8], opponent: &[u8]) -> usize {
        (board.rank(mover) * self.opponent_sets + board.rank(opponent)) as usize
    }

    /// The men of the position at `index`, sorted (`mover`, `opponent` sized to fit).
    fn position(&self, board: &SolverBoard, index: usize, mover: &mut [u8], opponent: &mut [u8]) {
        let index = index as u64;
        board.unrank(index / self.opponent_sets, mover);
        board.unrank(index % self.opponent_sets, opponent);
    }

    /// Calls `visit(mover, opponent, value)` for every real position (no shared cell).
    pub fn for_each(&self, board: &SolverBoard, mut visit: impl FnMut(&[u8], &[u8], Value)) {
        let (mut mover, mut opponent) = ([0u8; MAX_MEN], [0u8; MAX_MEN]);
        let (mover, opponent) = (&mut mover[..self.mover], &mut opponent[..self.opponent]);
        each_set(board.cells(), mover, |mover| {
            let occupied = Occupancy::of(mover);
            each_set(board.cells(), opponent, |opponent| {
                if opponent.iter().all(|&cell| !occupied.contains(cell)) {
                    let index = self.index(board, mover, opponent);
                    visit(mover, opponent, Value::decode(self.values[index]));
                }
            });
        });
    }
}

/// Calls `visit` with every sorted set of `set.len()` cells below `cells`, in rank order.
pub(super) fn each_set(cells: usize, set: &mut [u8], mut visit: impl FnMut(&[u8])) {
    let size = set.len();
    for (index, cell) in set.iter_mut().enumerate() {
        *cell = index as u8;
    }
    if size > cells {
        return;
    }
    loop {
        visit(set);
        // Colex successor: raise the lowest cell that can rise, reset the ones below it.
        let Some(raise) = (0..size).find(|&index| {
            let limit = if index + 1 < size {
                set[index + 1]
            } else {
                cells as u8
            };
            usize::from(set[index]) + 1 < usize::from(limit)
        }) else {
            return;
        };
        set[raise] += 1;
        for (index, cell) in set[..raise].iter_mut().enumerate() {
            *cell = index as u8;
        }
    }
}

/// Every solved table of one board, indexed by (mover's men, opponent's men).
pub struct Tables {
    board: SolverBoard,
    /// Plies a conversion may take from a fresh counter (80 in the game).
    limit: u8,
    tables: Vec<Option<Table>>,
}

impl Tables {
    /// No tables yet on `board`; conversions must take at most `limit` plies.
    pub fn new(board: SolverBoard, limit: u8) -> Self {
        Tables {
            board,
            limit: limit.min(MAX_DISTANCE),
            tables: (0..(MAX_MEN + 1) * (MAX_MEN + 1)).map(|_| None).collect(),
        }
    }

    pub fn board(&self) -> &SolverBoard {
        &self.board
    }

    pub fn limit(&self) -> u8 {
        self.limit
    }

    fn slot(mover: usize, opponent: usize) -> usize {
        mover * (MAX_MEN + 1) + opponent
    }

    /// The table with `mover` men to move against `opponent`, if solved.
    pub fn table(&self, mover: usize, opponent: usize) -> Option<&Table> {
        self.tables.get(Self::slot(mover, opponent))?.as_ref()
    }

    /// Solves every class with at most `strong` men against at most `weak` (either side
    /// to move), smaller classes first. Classes already solved are kept.
    pub fn solve_up_to(&mut self, strong: usize, weak: usize) {
        let (strong, weak) = (strong.min(MAX_MEN), weak.min(MAX_MEN));
        let mut classes: Vec<(usize, usize)> = (1..=strong)
            .flat_map(|a| (1..=weak.min(a)).map(move |b| (a, b)))
            .chain((1..=weak).flat_map(|a| (1..=strong.min(a)).map(move |b| (a, b))))
            .collect();
        classes.sort_by_key(|&(a, b)| (a + b, a.max(b)));
        classes.dedup();
        for (a, b) in classes {
            if self.table(a, b).is_none() {
                self.solve_class(a, b);
            }
        }
    }

    /// The value of a position from sorted cell lists (`None` outside the solved tables).
    /// A side with no men to move has lost.
    pub fn value(&self, mover: &[u8], opponent: &[u8]) -> Option<Value> {
        if mover.is_empty() {
            return Some(Value::Loss(0));
        }
        let table = self.table(mover.len(), opponent.len())?;
        Some(Value::decode(
            table.values[table.index(&self.board, mover, opponent)],
        ))
    }

    /// Solves the class of `a` men against `b` (both tables), whose smaller classes are
    /// solved.
    fn solve_class(&mut self, a: usize, b: usize) {
        let mut pair = vec![Table::new(&self.board, a, b)];
        if a != b {
            pair.push(Table::new(&self.board, b, a));
        }
        for table in &mut pair {
            self.initialise(table);
        }
        let mut level = Vec::new();
        for distance in 0..MAX_DISTANCE {
            let mut any = false;
            for from in 0..pair.len() {
                // Distance 0 has losses only (a win takes at least one ply).
                let wins = if distance == 0 {
                    None
                } else {
                    Some(Value::Win(distance).encode())
                };
                let losses = Value::Loss(distance).encode();
                level.clear();
                level.extend(
                    pair[from]
                        .values
                        .iter()
                        .enumerate()
                        .filter(|&(_, &value)| value == losses || Some(value) == wins)
                        .map(|(index, _)| index),
                );
                any |= !level.is_empty();
                let to = if pair.len() == 2 { 1 - from } else { 0 };
                for &index in &level {
                    let won = Some(pair[from].values[index]) == wins;
                    self.retract(&mut pair, from, to, index, won, distance);
                }
            }
            if !any && distance > 1 {
                break;
            }
        }
        for table in pair {
            let slot = Self::slot(table.mover, table.opponent);
            self.tables[slot] = Some(table);
        }
    }

    /// Updates the undecided predecessors of the decided position `index` of
    /// `pair[from]`: each is a position of `pair[to]` where the side to move steps into it.
    /// If it is lost for its side to move (`won` false), they win at `distance + 1`; if it
    /// is won, one more of their steps is known to lose, and a predecessor with no other
    /// step left loses at `distance + 1`.
    fn retract(
        &self,
        pair: &mut [Table],
        from: usize,
        to: usize,
        index: usize,
        won: bool,
        distance: u8,
    ) {
        let board = &self.board;
        let (mut mover, mut opponent) = ([0u8; MAX_MEN], [0u8; MAX_MEN]);
        let (mover, opponent) = (
            &mut mover[..pair[from].mover],
            &mut opponent[..pair[from].opponent],
        );
        pair[from].position(board, index, mover, opponent);
        let mut occupied = Occupancy::of(mover);
        for &cell in opponent.iter() {
            occupied.insert(cell);
        }
        let mut before = [0u8; MAX_MEN];
        let before = &mut before[..opponent.len()];
        for man in 0..opponent.len() {
            for direction in 0..6 {
                let Some(origin) = board.neighbour(opponent[man], direction) else {
                    continue;
                };
                if occupied.contains(origin) {
                    continue;
                }
                before.copy_from_slice(opponent);
                before[man] = origin;
                before.sort_unstable();
                let target = pair[to].index(board, before, mover);
                let slot = &mut pair[to].values[target];
                if *slot == 0 || *slot >= DRAW {
                    continue;
                }
                *slot = if !won {
                    Value::Win(distance + 1).encode()
                } else if *slot == 1 {
                    Value::Loss(distance + 1).encode()
                } else {
                    *slot - 1
                };
            }
        }
    }

    /// Sets every position of `table` that its smaller classes or the lack of moves
    /// decide (a capture to move, or no legal move), and gives the others their count of
    /// steps.
    fn initialise(&self, table: &mut Table) {
        let board = &self.board;
        let (mut mover, mut opponent) = ([0u8; MAX_MEN], [0u8; MAX_MEN]);
        let (mover, opponent) = (&mut mover[..table.mover], &mut opponent[..table.opponent]);
        let mut results = Vec::new();
        let mut index = 0;
        each_set(board.cells(), mover, |mover| {
            let own = Occupancy::of(mover);
            each_set(board.cells(), opponent, |opponent| {
                if opponent.iter().all(|&cell| !own.contains(cell)) {
                    table.values[index] = self.first_value(mover, opponent, &mut results);
                }
                index += 1;
            });
        });
    }

    /// The byte a position starts with (see [`Self::initialise`]).
    fn first_value(&self, mover: &[u8], opponent: &[u8], results: &mut Vec<CaptureResult>) -> u8 {
        let board = &self.board;
        board.captures(mover, opponent, results);
        if !results.is_empty() {
            return self.capture_value(mover, opponent, results).encode();
        }
        let mut occupied = Occupancy::of(mover);
        for &cell in opponent {
            occupied.insert(cell);
        }
        let mut steps = 0;
        board.for_each_step(mover, occupied, |_, _| steps += 1);
        if steps == 0 {
            Value::Loss(0).encode()
        } else {
            steps
        }
    }

    /// A position with captures to make: won in one ply if some chain leaves the opponent
    /// lost within the limit, lost in one if every chain leaves it won within the limit,
    /// drawn otherwise.
    fn capture_value(&self, mover: &[u8], opponent: &[u8], results: &[CaptureResult]) -> Value {
        let limit = usize::from(self.limit);
        let mut all_lose = true;
        for result in results {
            let mut next_mover = [0u8; MAX_MEN];
            let mut count = 0;
            for (man, &cell) in opponent.iter().enumerate() {
                if result.captured >> man & 1 == 0 {
                    next_mover[count] = cell;
                    count += 1;
                }
            }
            let mut next_opponent = [0u8; MAX_MEN];
            let next_opponent = &mut next_opponent[..mover.len()];
            next_opponent.copy_from_slice(mover);
            next_opponent[result.man] = result.end;
            next_opponent.sort_unstable();
            let value = self
                .value(&next_mover[..count], next_opponent)
                .expect("smaller classes are solved first")
                .within(limit);
            match value {
                Value::Loss(_) => return Value::Win(1),
                Value::Win(_) => {}
                Value::Draw => all_lose = false,
            }
        }
        if all_lose {
            Value::Loss(1)
        } else {
            Value::Draw
        }
    }
}
