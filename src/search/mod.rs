//! Search: best moves for any game, written once.
//!
//! The searches are generic over the traits of [`game`]: alpha-beta ([`alphabeta`]) for
//! games with a static evaluation, MCTS ([`mcts`], run on several threads by
//! [`mcts_driver`]) for games better judged by playouts. A game implements those traits
//! in `crate::eval`; what a search needs beyond the position (a game's tables, its exact
//! phase, its playout policy) the engine above supplies (`crate::engine`), so nothing
//! here names a game.
//!
//! Layout: `types` (re-exported here) holds what a search and its callers exchange
//! (limits, progress, results); [`shared`] and [`time`] the stop flag, node count and
//! time budget both searches share; [`tt`] the transposition table; [`estimate`] the
//! fixed-depth value a solver may start from.

pub mod alphabeta;
pub mod estimate;
pub mod game;
pub mod mcts;
pub mod mcts_driver;
pub mod rng;
pub mod shared;
pub mod time;
pub mod tt;
mod types;

pub use mcts_driver::win_rate_score;
pub use types::{
    Clock, DEFAULT_EXACT_PLIES, GameSearchResult, PonderClock, Score, SearchInfo, SearchLimits,
};
