//! What the engine and its callers exchange: the options, the limits of one search, its
//! progress reports and its result.

use std::time::{Duration, Instant};

use crate::eval::catchup_knowledge::PlayoutPolicy;

/// Which player the engine plays as: the full search or one of a gauntlet of deliberately
/// weak ones (fixed opponents of different styles, for measuring the full search without
/// the shared blind spots of self-play or of a single opponent).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    #[default]
    Full,
    /// Four-ply alpha-beta on the rule score alone (fewer plies where a fixed node budget
    /// runs out first, as in Catchup's wide turns).
    Minimax4,
    /// Two-ply minimax on the rule score alone (men in the checkers games).
    Minimax2,
    /// [`Strategy::Minimax2`], then the move that leaves its own army least advanced: a
    /// defender that stays home and comes forward only when it must.
    Defender,
    /// [`Strategy::Minimax2`] over a random sample of its legal moves: a player that sees
    /// tactics two plies deep but only among the moves it happens to consider.
    Sampled2,
    /// One ply on the rule score alone.
    Greedy,
    Random,
}

impl Strategy {
    /// Every strategy, the full search first, as the `Strategy` option lists them.
    pub const ALL: [Strategy; 7] = [
        Strategy::Full,
        Strategy::Minimax4,
        Strategy::Minimax2,
        Strategy::Defender,
        Strategy::Sampled2,
        Strategy::Greedy,
        Strategy::Random,
    ];
    /// The option values, in the order of [`Strategy::ALL`].
    pub const NAMES: [&'static str; 7] = [
        "full", "minimax4", "minimax2", "defender", "sampled2", "greedy", "random",
    ];

    /// The option value naming this strategy.
    pub const fn name(self) -> &'static str {
        Strategy::NAMES[self as usize]
    }
}

impl std::str::FromStr for Strategy {
    type Err = String;

    /// A strategy from its option value; anything else is an error naming the choices.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Strategy::NAMES
            .iter()
            .position(|&name| name == text)
            .map(|index| Strategy::ALL[index])
            .ok_or_else(|| format!("expected one of {}", Strategy::NAMES.join(", ")))
    }
}

/// Default of `ExactPlies`: Cheversi is solved exactly from this many plies before the end.
pub const DEFAULT_EXACT_PLIES: u32 = 8;

/// Most search threads (`Threads`): the option's maximum and the engine's clamp.
pub const MAX_THREADS: usize = 256;

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
    /// When the `go` line arrived. Time limits count from here, not from the moment the
    /// search thread got going, so a delay in handing the command over (a busy machine)
    /// eats into the search, not into the caller's clock.
    pub received: Option<Instant>,
}

impl SearchLimits {
    /// True when no depth, node, time or clock limit was given (`infinite` aside).
    pub fn has_no_bound(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.clock.time.iter().all(Option::is_none)
    }

    /// True for a search that only `stop` ends for sure: `go infinite`, or `go` with no
    /// limit at all (its default depth is out of reach in the checkers variants).
    pub fn runs_until_stopped(&self) -> bool {
        self.infinite || self.has_no_bound()
    }
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

/// The result of a generic search: the move itself rather than its text.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSearchResult<M> {
    pub best_move: Option<M>,
    pub score: Option<Score>,
    /// Nodes (alpha-beta) or simulations (MCTS) searched.
    pub nodes: u64,
    /// Deepest completed iteration (alpha-beta) or principal variation length (MCTS).
    pub depth: u32,
}
