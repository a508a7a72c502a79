//! Alpha-beta: iterative deepening, principal variation search with aspiration windows,
//! a shared transposition table (Lazy SMP across threads), move ordering (table move,
//! forcing moves, killers, history), late move reductions, single-reply extensions,
//! quiescence over forcing moves, repetition and mate-distance handling.
//!
//! # Design
//!
//! Iterative deepening, PVS, aspiration windows (30 cp, doubling), a lockless shared
//! transposition table (a move stored as the game's code when it has one, else as its
//! index in the legal move list), staged ordering: table move > 2 killers (tried before
//! the other moves are scored, and in games with [`StagedMoves`] before they are even
//! listed) > forcing moves by hint > quiet moves by history plus hint; late move
//! reductions for quiet late moves, single-reply extension, quiescence over forcing moves
//! (no stand-pat while every move is forcing), repetition inside the search (a repeat of
//! any earlier position within the game's repetition window scores as a draw),
//! mate-distance pruning. Files: `node` (one node), `ordering`, `picker` and `ranked` (the
//! move order), `leaves` (quiescence and the values of leaves and finished games).
//!
//! The hooks of a family of games change the search only for that family
//! ([`AlphaBetaGame`] lists them): in a [`FixedLength`] game a search that reaches the end
//! is exact and does not reduce, its last plies may be solved without playing them, and
//! leaves near the end take exact values; in a [`ProgressRule`] game the count shapes
//! leaf values and table keys (below); [`ExactTables`] values end the search of a node.
//! What each game does with its hooks, and why, is in its evaluation module
//! (`crate::eval::cheversi`, `crate::eval::checkers`).
//!
//! # Draws and progress rules
//!
//! The mechanisms are generic; a game's [`ProgressRule`] hooks set their sizes.
//! - A draw (repetition, a progress rule run out, a drawn end) scores minus the
//!   [`contempt`](AlphaBetaGame::contempt) for the engine's side, read at the root.
//! - Over the last [`draw_fade_plies`](ProgressRule::draw_fade_plies) before a
//!   progress-rule draw, a quiet leaf's value slides linearly towards the draw value, by
//!   at most [`draw_fade_limit`](ProgressRule::draw_fade_limit): an advantage that cannot
//!   become a capture in time is worth a draw, so the engine captures or trades while it
//!   still can. The plies the side to move needs to reach contact
//!   ([`plies_to_contact`](ProgressRule::plies_to_contact)) do not count as time left,
//!   which gives a reason to close in while the draw is beyond the horizon.
//! - The [`material_guard`](ProgressRule::material_guard) keeps that pressure from
//!   buying a fresh count with material: a leaf, draw or table draw at which the engine's
//!   side has less material than at the root (below a secure lead) is worth at most the
//!   draw, less a charge per unit given. A man offered for a capture that comes back
//!   within the search (an exchange, a shot) costs nothing; a man given and not won back
//!   always scores below keeping it and taking the draw.
//! - The table key mixes in the plies left before the draw whenever the search can reach
//!   it, and the root's material lead while a guard is in force, so a value is never
//!   reused where the count or the guard would score it differently.
//!
//! `eval` shows the plain static evaluation.

use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::game::Rules;

use super::game::{AlphaBetaGame, HISTORY_SIZE};
#[cfg(doc)]
use super::game::{ExactTables, FixedLength, MaterialGuard, ProgressRule, StagedMoves};
use super::shared::Shared;
use super::{DEFAULT_EXACT_PLIES, Score, SearchInfo};

mod leaves;
mod lines;
mod node;
mod ordering;
mod picker;
mod ranked;

use ranked::Ranked;

/// A won game at the root; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this are proven wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A position the ending tables show won: `TABLE_WIN - n`, `n` plies from the root to
/// the capture that converts (see [`ExactTables::table_value`]); above any evaluation,
/// below the mates.
pub const TABLE_WIN: i32 = 100_000;
/// Scores beyond this are table wins (or mates): stored in the table relative to the node.
pub const TABLE_BOUND: i32 = TABLE_WIN - 1_000;
const INFINITY: i32 = MATE + 1;
/// Deepest ply the search reaches (extensions and quiescence included).
pub const MAX_PLY: usize = 160;
const MAX_DEPTH: i32 = 120;
/// How many plies of forcing moves quiescence follows before it trusts the evaluation.
const MAX_QUIESCENCE: i32 = 48;
const HISTORY_LIMIT: i32 = 1 << 16;
/// How many searched quiet moves a cut-off penalises in the history table.
const MAX_TRIED: usize = 32;

/// Which shape-changing enhancements run. All on for play; the value-preserving subset
/// (no reductions or extensions, table cut-offs only at equal depth) makes the search
/// return exactly the fixed-depth negamax value, which the tests check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    pub reductions: bool,
    pub extensions: bool,
    pub aspiration: bool,
    /// Use a table score only when it was searched to exactly the depth wanted.
    pub strict_table_depth: bool,
    /// Plies before a fixed-length game's end from which the search is exact; `None`
    /// takes [`DEFAULT_EXACT_PLIES`] (the engine fills in its `ExactPlies` option, the one
    /// home of that value).
    pub exact_plies: Option<u32>,
    /// What a draw (repetition, draw rule, drawn end) costs the side the engine plays,
    /// in centi-units, so it plays on against weaker play instead of repeating; `None`
    /// takes the game's own [`AlphaBetaGame::contempt`].
    pub contempt: Option<i32>,
    /// Plies before a progress-rule draw (checkers' 80-ply rule) over which leaf values
    /// slide towards the draw value; 0 turns it off (see `Worker::leaf_value`); `None`
    /// takes the game's own [`ProgressRule::draw_fade_plies`].
    pub draw_fade_plies: Option<u32>,
    /// Whether the game's [`ProgressRule::material_guard`] applies.
    pub material_guard: bool,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            reductions: true,
            extensions: true,
            aspiration: true,
            strict_table_depth: false,
            exact_plies: None,
            contempt: None,
            draw_fade_plies: None,
            material_guard: true,
        }
    }
}

impl AlphaBetaConfig {
    /// Enhancements that keep the fixed-depth value exact.
    pub fn value_preserving() -> Self {
        AlphaBetaConfig {
            reductions: false,
            extensions: false,
            aspiration: true,
            strict_table_depth: true,
            exact_plies: Some(0),
            contempt: Some(0),
            draw_fade_plies: Some(0),
            material_guard: false,
        }
    }
}

/// What one alpha-beta search found.
#[derive(Clone, Debug)]
pub struct AlphaBetaResult<M> {
    pub best_move: Option<M>,
    /// Internal score (see [`MATE`]) from the side to move's view.
    pub value: i32,
    pub depth: u32,
    pub pv: Vec<M>,
}

/// The protocol score of an internal value.
pub fn to_score(value: i32) -> Score {
    if value.abs() >= MATE_BOUND {
        let plies = MATE - value.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if value > 0 { moves } else { -moves })
    } else {
        Score::Centipawns(value)
    }
}

/// One line of an iteration: its value (from the side to move's view) and its principal
/// variation, which starts with the line's root move.
#[derive(Clone, Debug)]
struct RootLine<M> {
    value: i32,
    pv: Vec<M>,
}

/// The material guard as a search applies it: [`MaterialGuard::penalty`] per unit of the
/// engine's material lead below `protected_lead` at a leaf, which is the root's lead up
/// to [`MaterialGuard::secure_lead`] (computed once, not at every leaf).
#[derive(Copy, Clone, Debug)]
struct Guard {
    penalty: i32,
    protected_lead: i32,
}

/// Per-thread search state.
pub struct Worker<'a, G: AlphaBetaGame> {
    shared: &'a Shared<'a>,
    /// The game's tables ([`ExactTables::table_value`]).
    tables: &'a G::Tables,
    config: AlphaBetaConfig,
    thread_index: usize,
    /// Nodes searched by this thread; `flushed` of them are already in the shared count.
    pub nodes: u64,
    flushed: u64,
    seldepth: usize,
    hashes: Vec<u64>,
    moves: Vec<Vec<G::Move>>,
    order: Vec<Vec<Ranked>>,
    /// The draw fade in force: [`AlphaBetaConfig::draw_fade_plies`] or the game's own.
    fade_plies: u32,
    /// The contempt in force, read once from the root: [`AlphaBetaConfig::contempt`] or
    /// the game's own (checkers counts the men for it, and draws are scored at every
    /// faded leaf).
    contempt: i32,
    /// The material guard in force, read once from the root
    /// ([`ProgressRule::material_guard`]).
    guard: Option<Guard>,
    /// Mixed into every table key while a guard is in force: values then depend on the
    /// protected lead, so a table entry is reused only under the same one.
    guard_key: u64,
    /// Per ply, the quiet moves searched so far (indices into `moves`), whose history a
    /// cut-off lowers: a kept buffer, since zeroing a fresh array cost more per node.
    tried: Vec<Vec<usize>>,
    /// Scratch for [`AlphaBetaGame::order_hints`].
    hints: Vec<i32>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<G::Move>>,
    root_best: Option<(G::Move, i32)>,
    root_depth: i32,
    reporter: Option<&'a mut dyn FnMut(SearchInfo)>,
    last_report: Instant,
    current: Option<(u32, AlphaBetaResult<G::Move>)>,
    /// Several lines asked for (`MultiPV` above 1): every line reports its rank, even
    /// where fewer moves are legal.
    multi_line: bool,
    /// Lines each iteration finds, at most one per legal move.
    wanted_lines: usize,
    /// Root moves the current root search leaves out: the lines already found.
    excluded: Vec<G::Move>,
    /// The lines of the last completed iteration, best first (with several lines).
    lines: Vec<RootLine<G::Move>>,
    root: G,
}

impl<'a, G: AlphaBetaGame> Worker<'a, G> {
    /// A worker for `root`, whose game history (oldest first, `root` last) is `history`,
    /// probing `tables`.
    pub fn new(
        shared: &'a Shared<'a>,
        tables: &'a G::Tables,
        config: AlphaBetaConfig,
        thread_index: usize,
        root: &G,
        history: &[u64],
        reporter: Option<&'a mut dyn FnMut(SearchInfo)>,
    ) -> Self {
        let guard = root
            .material_guard()
            .filter(|_| config.material_guard)
            .and_then(|guard| {
                let root_lead = root.material_lead(root.side_to_move())?;
                Some(Guard {
                    penalty: guard.penalty,
                    protected_lead: root_lead.min(guard.secure_lead),
                })
            });
        let mut hashes = history.to_vec();
        if hashes.last() != Some(&root.hash()) {
            hashes.push(root.hash());
        }
        Worker {
            shared,
            tables,
            config,
            fade_plies: config
                .draw_fade_plies
                .unwrap_or_else(|| root.draw_fade_plies()),
            contempt: config.contempt.unwrap_or_else(|| root.contempt()),
            guard,
            guard_key: guard.map_or(0, |guard| {
                (guard.protected_lead as u64)
                    .wrapping_add(1 << 20)
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            }),
            thread_index,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            hashes,
            moves: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            order: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            tried: (0..=MAX_PLY)
                .map(|_| Vec::with_capacity(MAX_TRIED))
                .collect(),
            hints: Vec::new(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; HISTORY_SIZE],
            pv: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            root_best: None,
            root_depth: 1,
            reporter,
            last_report: Instant::now(),
            current: None,
            multi_line: false,
            wanted_lines: 1,
            excluded: Vec::new(),
            lines: Vec::new(),
            root: root.clone(),
        }
    }

    /// The worker reporting `lines` lines per iteration, the best first (`MultiPV`); the
    /// result is the first line's. Helper threads search one.
    pub fn with_lines(mut self, lines: usize) -> Self {
        self.multi_line = lines > 1;
        self.wanted_lines = lines.max(1);
        self
    }

    /// Iterative deepening until a limit; the main thread (index 0) decides when to stop.
    pub fn iterate(&mut self, max_depth: Option<u32>) -> AlphaBetaResult<G::Move> {
        let root = self.root.clone();
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let mut result = AlphaBetaResult {
            best_move: moves.first().copied(),
            value: 0,
            depth: 0,
            pv: moves.first().copied().into_iter().collect(),
        };
        if moves.is_empty() {
            return result;
        }
        let exact_at = root
            .plies_to_end()
            .filter(|&plies| plies <= self.config.exact_plies.unwrap_or(DEFAULT_EXACT_PLIES));
        self.wanted_lines = self.wanted_lines.min(moves.len());
        let max_depth = max_depth.map_or(MAX_DEPTH, |depth| (depth as i32).clamp(1, MAX_DEPTH));
        let mut scale = 1.0f64;
        let mut depth = 1;
        while depth <= max_depth {
            let searched = if self.thread_index % 2 == 1 && depth < max_depth {
                depth + 1
            } else {
                depth
            };
            self.root_best = None;
            self.root_depth = searched;
            let value = if self.multi_line {
                self.search_lines(&root, searched, result.value)
            } else {
                self.aspiration(&root, searched, result.value)
            };
            let aborted = self.shared.aborted();
            if aborted {
                if let Some((mv, value)) = self.root_best
                    && depth > 1
                {
                    if result.best_move != Some(mv) {
                        result.pv = vec![mv];
                    }
                    result.best_move = Some(mv);
                    result.value = value;
                }
                break;
            }
            let previous_move = result.best_move;
            let previous_value = result.value;
            result.value = value;
            result.depth = searched as u32;
            result.pv = self.pv[0].clone();
            if let Some(&first) = result.pv.first() {
                result.best_move = Some(first);
            }
            if self.thread_index != 0 {
                depth += 1;
                continue;
            }
            self.current = Some((searched as u32, result.clone()));
            self.report();
            let solved = exact_at.is_some_and(|plies| searched >= plies as i32)
                || (value.abs() >= MATE_BOUND && MATE - value.abs() <= searched);
            if solved {
                break;
            }
            if depth > 1 {
                if previous_move != result.best_move {
                    scale = (scale * 1.6).min(3.0);
                } else {
                    scale = (scale * 0.9).max(1.0);
                }
                if value < previous_value - 30 {
                    scale = (scale * 1.3).min(3.5);
                }
            }
            let in_time = self
                .shared
                .clock_elapsed()
                .is_none_or(|elapsed| self.shared.budget.continue_iterating(elapsed, scale));
            let exact_pending = exact_at.is_some() && !solved;
            if !exact_pending && !in_time {
                break;
            }
            if self.shared.node_limit_reached(0) {
                break;
            }
            depth += 1;
        }
        self.flush();
        result
    }

    fn aspiration(&mut self, root: &G, depth: i32, previous: i32) -> i32 {
        if !self.config.aspiration || depth < 4 || previous.abs() >= MATE_BOUND {
            return self.search(root, depth, -INFINITY, INFINITY, 0, true);
        }
        let mut delta = 30;
        let mut alpha = (previous - delta).max(-INFINITY);
        let mut beta = (previous + delta).min(INFINITY);
        loop {
            let value = self.search(root, depth, alpha, beta, 0, true);
            if self.shared.aborted() {
                return value;
            }
            if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITY);
            } else if value >= beta {
                beta = (value + delta).min(INFINITY);
            } else {
                return value;
            }
            delta += delta;
            if delta > 2_000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Counts a node; true when the search must unwind. Inlined into every node, with
    /// the clock and the report once per 1024 nodes out of line ([`Self::check_in`]):
    /// the call itself cost more than the counting at quiescence leaves.
    #[inline(always)]
    fn count_node(&mut self, ply: usize) -> bool {
        if self.shared.aborted() {
            return true;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.shared.node_limit_reached(self.nodes - self.flushed) {
            self.shared.abort();
            return true;
        }
        self.nodes & 1023 == 0 && self.check_in()
    }

    /// [`Self::count_node`]'s work every 1024 nodes: flush the count, poll for a stop,
    /// report; true when the search must unwind.
    #[cold]
    #[inline(never)]
    fn check_in(&mut self) -> bool {
        self.flush();
        if self.shared.poll() {
            return true;
        }
        if self.thread_index == 0 && self.last_report.elapsed().as_millis() >= 1000 {
            self.report();
        }
        false
    }

    fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    fn report(&mut self) {
        self.last_report = Instant::now();
        let Some((depth, result)) = &self.current else {
            return;
        };
        if self.multi_line {
            self.report_lines(*depth);
            return;
        }
        let info = SearchInfo {
            depth: Some(*depth),
            seldepth: Some(self.seldepth as u32),
            score: Some(to_score(result.value)),
            pv: pv_text(&self.root, &result.pv),
            ..self.shared.info(self.nodes - self.flushed)
        };
        if let Some(reporter) = self.reporter.as_mut() {
            reporter(info);
        }
    }

    /// The principal variation at `ply`: `mv`, then the child's.
    #[inline(always)]
    fn extend_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    fn is_repetition(&self, key: u64, window: usize) -> bool {
        let length = self.hashes.len();
        if window < 2 || length < 3 {
            return false;
        }
        let lowest = length.saturating_sub(window + 1);
        let mut index = length - 3;
        loop {
            if self.hashes[index] == key {
                return true;
            }
            if index < lowest + 2 {
                return false;
            }
            index -= 2;
        }
    }
}

/// The principal variation as move texts, played out from `root`.
pub fn pv_text<G: Rules>(root: &G, pv: &[G::Move]) -> Vec<String> {
    let mut position = root.clone();
    let mut texts = Vec::with_capacity(pv.len());
    let mut legal = Vec::new();
    for &mv in pv {
        position.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            break;
        }
        texts.push(position.move_text(mv));
        position.play_unchecked(mv);
    }
    texts
}
