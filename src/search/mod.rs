//! Search: best moves for any game. PLACEHOLDER API owned by the search work: the
//! protocol calls exactly these items; the bodies are replaced by the real search.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::game::AnyGame;

/// Which player the engine plays as: the full search or a deliberately weak one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    #[default]
    Full,
    Greedy,
    Random,
}

/// Engine options the protocol sets with `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    pub seed: u64,
    pub strategy: Strategy,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            hash_mb: 64,
            threads: 1,
            move_overhead_ms: 30,
            seed: 0,
            strategy: Strategy::Full,
        }
    }
}

/// A player's clock as `go` reports it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining time per player `[p1, p2]`.
    pub time: [Option<Duration>; 2],
    pub increment: [Duration; 2],
    pub moves_to_go: Option<u32>,
}

/// What bounds one search (`go` arguments). All `None`/false means "search until stopped
/// or a sensible default depth".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub infinite: bool,
    pub clock: Clock,
}

/// A search score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-units: see protocol.md per variant.
    Centipawns(i32),
    /// A proven result in this many moves (positive: the side to move wins; negative: it
    /// loses), reported as `score mate N`.
    Mate(i32),
}

/// One progress report: becomes an `info` line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub score: Option<Score>,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: Option<u32>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

/// The outcome of a search: the move to play (`None` only when the game is over).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub best_move: Option<String>,
    pub score: Option<Score>,
}

/// Search state kept between moves: tables, histories, options.
#[derive(Debug, Default)]
pub struct Engine {
    options: SearchOptions,
}

impl Engine {
    pub fn new(options: SearchOptions) -> Self {
        Engine { options }
    }

    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Applies new options; allocates the hash table here, never inside `search`.
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
    }

    /// Forgets tables and histories (`uginewgame`).
    pub fn new_game(&mut self) {}

    /// Searches `game` until a limit is reached or `stop` becomes true, calling `report`
    /// for progress. Returns the best move (the first legal one in this placeholder).
    pub fn search(
        &mut self,
        game: &AnyGame,
        _limits: &SearchLimits,
        _stop: &AtomicBool,
        _report: &mut dyn FnMut(SearchInfo),
    ) -> SearchResult {
        SearchResult {
            best_move: game.legal_move_texts().into_iter().next(),
            score: None,
        }
    }

    /// The static evaluation with its terms, as `eval` prints it (one line per term).
    pub fn evaluation_text(&self, game: &AnyGame) -> Vec<String> {
        vec![format!("no evaluation yet for {}", game.variant())]
    }
}
