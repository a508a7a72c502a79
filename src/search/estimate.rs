//! A quick estimate of a position's value for the solver: the evaluation search of `go`
//! to a fixed depth, as `go depth N` runs it but with a table of its own. The solver
//! starts MTD(f) there, since a start at the value spares it the windows on either side
//! (see `crate::solve`).

use std::sync::atomic::AtomicBool;

use super::DEFAULT_EXACT_PLIES;
use super::alphabeta::{AlphaBetaConfig, Worker};
use super::game::AlphaBetaGame;
use super::shared::Shared;
use super::time::TimeBudget;
use super::tt::TranspositionTable;

/// The estimate's own table: enough for the searches the solver asks for (a few million
/// nodes), small enough to clear in a few milliseconds.
const TABLE_MEGABYTES: usize = 16;

/// The value, in the search's internal units from the side to move's view, of a
/// single-thread alpha-beta search of `position` to `depth` plies with the engine's
/// default settings, `tables` and a fresh table (so the same position always gets the
/// same estimate). Setting `stop` ends it early with the deepest finished iteration's
/// value.
pub fn fixed_depth_value<G: AlphaBetaGame>(
    position: &G,
    tables: &G::Tables,
    depth: u32,
    stop: &AtomicBool,
) -> i32 {
    let table = TranspositionTable::new(TABLE_MEGABYTES);
    let shared = Shared::new(&table, stop, None, TimeBudget::UNLIMITED, false);
    let config = AlphaBetaConfig {
        exact_plies: Some(DEFAULT_EXACT_PLIES),
        ..AlphaBetaConfig::default()
    };
    Worker::new(&shared, tables, config, 0, position, &[], None)
        .iterate(Some(depth))
        .value
}
