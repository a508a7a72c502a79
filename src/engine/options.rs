//! The engine's options, as the protocol sets them with `setoption`: the search's
//! resources and the per-game choices (Cheversi's exact phase, Catchup's playout, hex
//! checkers' ending tables file).

use crate::eval::catchup_knowledge::PlayoutPolicy;
use crate::search::DEFAULT_EXACT_PLIES;

use super::strategy::Strategy;
use super::strength::Strength;

/// Most search threads (`Threads`): the option's maximum and the engine's clamp.
pub const MAX_THREADS: usize = 256;
/// Most lines a search reports (`MultiPV`): the option's maximum. A search reports at
/// most one line per legal move.
pub const MAX_LINES: usize = 256;

/// Engine options the protocol sets with `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    pub seed: u64,
    pub strategy: Strategy,
    /// `ExactPlies`: in a game of fixed length (Cheversi), search exactly to the end from
    /// this many plies before it.
    pub exact_plies: u32,
    /// `CatchupPlayout`: the playout and priors of the Catchup search.
    pub catchup_playout: PlayoutPolicy,
    /// `EndingsFile`: the ending tables file the engine loads (empty: none); loaded by
    /// [`Engine::load_endings`](super::Engine::load_endings).
    pub endings_file: String,
    /// `MultiPV`: how many lines a search reports, the best first, each with its own
    /// score; 1 is the plain search.
    pub lines: usize,
    /// `UCI_LimitStrength` with `UCI_Elo` or `StrengthLevel`, resolved in the current
    /// game's levels: how the limited engine plays; `None` at full strength.
    pub strength: Option<Strength>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            hash_mb: 64,
            threads: 1,
            move_overhead_ms: 50,
            seed: 0,
            strategy: Strategy::Full,
            exact_plies: DEFAULT_EXACT_PLIES,
            catchup_playout: PlayoutPolicy::default(),
            endings_file: String::new(),
            lines: 1,
            strength: None,
        }
    }
}
