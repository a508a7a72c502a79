//! Exact tables for hex checkers endings with few men (`hexcheckers`, no border rule):
//! which side wins, and in how many plies, under the 80-ply rule.
//!
//! A retrograde solver ([`Tables`]) goes through every placement of the men of one
//! material class, both sides to move. Captures lead to the smaller classes, solved first,
//! and reset the draw counter, so a position's value is the number of plies to the next
//! capture that keeps the win (or to the position where the loser has no legal move):
//! with `c` plies already counted, a position is won under the 80-ply rule exactly when
//! that distance is at most `80 - c`. Repetition needs no handling: the winner reaches
//! its target in a bounded number of plies and never needs to repeat, and a loser who
//! repeats only loses sooner (a position repeated three times inside a forced win is
//! impossible, since every ply of the winner's line lowers the distance).
//!
//! The rules are the same for both colours and in all six directions (men step and jump
//! every way, no promotion, no border rule), so the tables are kept from the side to
//! move's view and the twelve symmetries of the hexagon give equal values; the tests
//! check both against the engine's own move generation.
//!
//! Sizes: a table holds one byte per placement of each side's men, `C(cells, a) *
//! C(cells, b)`. On side 9 (217 cells) 2 against 1 takes 10 MB (both sides to move),
//! 3 against 1 about 730 MB and 2 against 2 about 550 MB; those are built on demand by
//! the `endings` command, which also writes them folded by the symmetries to a file
//! ([`EndingsFile`], 85 MB for side 9 up to 3 against 1) that the engine loads
//! ([`EndingTables`], the `EndingsFile` option) and its search probes.

mod board;
mod engine;
mod file;
mod harvest;
mod report;
mod solve;
mod verify;

#[cfg(test)]
mod file_tests;
#[cfg(test)]
mod tests;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::hex::MAX_SIDE;
use crate::game::Rules;
use crate::game::checkers::{Checkers, DRAW_PLIES};

pub use board::{Fold, MAX_MEN, SolverBoard};
pub use engine::{BUILT_IN, EndingTables};
pub use file::{EndingsFile, EndingsFileError, FORMAT};
pub use harvest::{GameEnding, RecordedGame, won_positions_in_games};
pub use report::{ClassReport, EndingsRequest, TableReport, class_report, run, won_positions};
pub use solve::{MAX_DISTANCE, Table, Tables, Value};
pub use verify::verify;

/// Plies a conversion may take from a fresh counter: the game's draw rule.
pub const PLY_LIMIT: u8 = DRAW_PLIES as u8;

/// The material the engine's own tables hold: up to two men against one, either way
/// round (10 MB on side 9, built in about 1.6 s on a loaded 2-core machine).
pub const ENGINE_MEN: (usize, usize) = (2, 1);

/// The engine's tables per board side, solved once.
static TABLES: [OnceLock<Option<Tables>>; MAX_SIDE + 1] = [const { OnceLock::new() }; MAX_SIDE + 1];

/// The engine's tables for board `side` (4 to 9), solved once on first use (side 9:
/// 1 to 3 s), waiting for them if they are being solved.
pub fn engine_tables(side: usize) -> Option<&'static Tables> {
    TABLES
        .get(side)?
        .get_or_init(|| {
            let board = SolverBoard::new(side).filter(|_| side >= 4)?;
            let mut tables = Tables::new(board, PLY_LIMIT);
            tables.solve_up_to(ENGINE_MEN.0, ENGINE_MEN.1);
            Some(tables)
        })
        .as_ref()
}

/// The engine's tables for `side` if they are solved already; otherwise `None`, and the
/// first call starts solving them on a thread of their own. The search asks this, so no
/// move waits seconds for a table: at 100 ms a move, solving side 9's at the first
/// 3-man position lost games on time.
pub fn engine_tables_if_ready(side: usize) -> Option<&'static Tables> {
    static STARTED: [AtomicBool; MAX_SIDE + 1] = [const { AtomicBool::new(false) }; MAX_SIDE + 1];
    if let Some(tables) = TABLES.get(side)?.get() {
        return tables.as_ref();
    }
    if !STARTED.get(side)?.swap(true, Ordering::Relaxed) {
        let spawned = std::thread::Builder::new()
            .name("ending-tables".to_string())
            .spawn(move || {
                engine_tables(side);
            });
        if let Err(error) = spawned {
            log::warn!("cannot start solving the ending tables of side {side}: {error}");
        }
    }
    None
}

/// Values by position, from the solver's tables or from a file: what [`probe`] reads.
pub trait EndingValues {
    fn board(&self) -> &SolverBoard;

    /// Plies a conversion may take from a fresh counter.
    fn limit(&self) -> u8;

    /// The value for the side to move from sorted cell lists (`None` outside the tables).
    fn value(&self, mover: &[u8], opponent: &[u8]) -> Option<Value>;
}

impl EndingValues for Tables {
    fn board(&self) -> &SolverBoard {
        Tables::board(self)
    }

    fn limit(&self) -> u8 {
        Tables::limit(self)
    }

    fn value(&self, mover: &[u8], opponent: &[u8]) -> Option<Value> {
        Tables::value(self, mover, opponent)
    }
}

/// The value of `position` for its side to move under the 80-ply rule (its counter
/// counted), or `None` if the tables do not cover it: another board side, the border
/// rule, material outside the tables, a side without men (the game is over), or a game
/// already over by the counter.
pub fn probe<const N: usize>(
    tables: &(impl EndingValues + ?Sized),
    position: &Checkers<N>,
) -> Option<Value> {
    let board = tables.board();
    if position.border_rule() || position.geometry().side() != board.side() {
        return None;
    }
    let counted = position.plies_since_capture();
    let remaining = usize::from(tables.limit()).checked_sub(counted)?;
    let (cells, counts) = probe_lists(position)?;
    if counts[0] == 0 || counts[1] == 0 {
        return None;
    }
    let value = tables.value(&cells[0][..counts[0]], &cells[1][..counts[1]])?;
    Some(value.within(remaining))
}

/// The cells (ordinals) of the side to move's men and of the other side's, sorted, with
/// their counts; `None` if a side has more than [`MAX_MEN`].
fn probe_lists<const N: usize>(position: &Checkers<N>) -> Option<([[u8; MAX_MEN]; 2], [usize; 2])> {
    let side = position.side_to_move();
    let mut cells = [[0u8; MAX_MEN]; 2];
    let mut counts = [0usize; 2];
    for (slot, player) in [side, side.opponent()].into_iter().enumerate() {
        // Men come in cell order, which is ordinal order: the lists come out sorted.
        for bit in position.men(player) {
            let ordinal = position.geometry().ordinal(bit)?;
            *cells[slot].get_mut(counts[slot])? = ordinal as u8;
            counts[slot] += 1;
        }
    }
    Some((cells, counts))
}
