//! Search: best moves for any game.
//!
//! [`Engine`] is what the protocol talks to: options, the transposition table (allocated
//! when options change, never inside a search), and one `search` call per `go`. The
//! searches are written once, generic over [`game::SearchGame`]: alpha-beta
//! ([`alphabeta`]) for Cheversi and the checkers games, MCTS ([`mcts`]) for Catchup;
//! per-game evaluation, move hints and playout policy live in `crate::eval`.
//!
//! Layout: `types` (re-exported here) holds what the engine and its callers exchange
//! (options, limits, progress, results); `engine` the [`Engine`] facade; `mcts_driver`
//! the multi-thread MCTS run around [`mcts`]; [`shared`] and [`time`] the stop flag, node
//! count and time budget both searches share; [`estimate`] the fixed-depth value the
//! solver starts from.

pub mod alphabeta;
mod engine;
pub mod estimate;
pub mod game;
pub mod mcts;
mod mcts_driver;
pub mod rng;
pub mod shared;
pub mod strategy;
pub mod time;
pub mod tt;
mod types;

pub use engine::Engine;
pub use mcts_driver::win_rate_score;
pub use types::{
    Clock, DEFAULT_EXACT_PLIES, GameSearchResult, MAX_THREADS, Score, SearchInfo, SearchLimits,
    SearchOptions, SearchResult, Strategy,
};
