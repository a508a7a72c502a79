//! The MCTS driver: root-parallel trees, one per thread, run until the shared limits stop
//! them, then a vote over their root moves; progress and the result as the engine
//! reports them.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::game::Player;

use super::alphabeta::pv_text;
use super::game::{MctsGame, TreeGame};
use super::mcts::{Mcts, MctsConfig, RootChild};
use super::rng::{self, Rng};
use super::shared::Shared;
use super::{GameSearchResult, Score, SearchInfo, SearchLimits};

/// When no limit at all is given, run this many simulations rather than forever.
pub const DEFAULT_SIMULATIONS: u64 = 2_000_000;
/// MCTS simulations bought by `go depth 0`; each further ply doubles it.
const MCTS_SIMULATIONS_PER_DEPTH: u64 = 1_000;
/// Bytes the MCTS tree spends per node or edge, for sizing it from `Hash`.
const MCTS_ENTRY_BYTES: usize = 32;

/// The simulation budget of a search: `nodes`, and `depth` as simulations. MCTS has no
/// depth: `go depth N` buys a simulation budget that doubles per ply, so a depth-bounded
/// request always ends (and deeper means stronger). With no limit at all
/// (`default_limits`), [`DEFAULT_SIMULATIONS`].
pub fn node_limit(limits: &SearchLimits, default_limits: bool) -> Option<u64> {
    let depth_limit = limits
        .depth
        .map(|depth| (MCTS_SIMULATIONS_PER_DEPTH << depth.min(20)).min(DEFAULT_SIMULATIONS));
    match (limits.nodes, depth_limit) {
        (Some(nodes), Some(depth)) => Some(nodes.min(depth)),
        (nodes, depth) => nodes
            .or(depth)
            .or(default_limits.then_some(DEFAULT_SIMULATIONS)),
    }
}

/// Tree entries each of `threads` trees may hold within `hash_mb` MiB.
pub fn tree_entries(hash_mb: usize, threads: usize) -> usize {
    (hash_mb << 20) / MCTS_ENTRY_BYTES / threads
}

/// Where a search's progress goes, and how many lines each report gives (`MultiPV`: the
/// first moves with the most visits, each with its own score and continuation).
pub struct Progress<'a> {
    pub report: &'a mut dyn FnMut(SearchInfo),
    pub lines: usize,
}

/// Runs `threads` trees from `root` (the view of `position`) until `shared` stops them,
/// reporting the main tree's progress, and returns the voted move.
pub fn search<G: MctsGame>(
    position: &G,
    root: G::Tree,
    config: MctsConfig,
    seed: u64,
    threads: usize,
    shared: &Shared,
    progress: Progress<'_>,
) -> GameSearchResult<G::Move> {
    let Progress { report, lines } = progress;
    let trees: Vec<(Mcts<G::Tree>, Rng)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads)
            .map(|thread_index| {
                let root = root.clone();
                scope.spawn(move || {
                    run_tree(
                        root,
                        config,
                        seed,
                        thread_index,
                        shared,
                        None::<&mut TreeReporter<G::Tree>>,
                    )
                })
            })
            .collect();
        let mut report_tree = |tree: &Mcts<G::Tree>, shared: &Shared| {
            report_infos(position, tree, shared, lines, report);
        };
        let main = run_tree(
            root.clone(),
            config,
            seed,
            0,
            shared,
            Some(&mut report_tree),
        );
        shared.abort();
        let mut trees = vec![main];
        trees.extend(handles.into_iter().filter_map(|handle| handle.join().ok()));
        trees
    });
    let (first, tree_index) = combine_roots(&trees);
    let (tree, rng) = &trees[tree_index];
    let first = longest_defence(position, tree).or(first);
    let mut rng = rng.clone();
    let pv = tree.principal_variation(first, &mut rng);
    let moves = moves_of_steps(position, &pv);
    let info = mcts_info(position, tree, shared);
    if lines > 1 {
        report_infos(position, tree, shared, lines, report);
    } else {
        report(info.clone());
    }
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    GameSearchResult {
        best_move: moves.first().copied().or(legal.first().copied()),
        ponder: moves.get(1).copied(),
        score: info.score,
        nodes: info.nodes,
        depth: info.depth.unwrap_or(0),
    }
}

/// Receives a tree now and then, to report progress.
type TreeReporter<'a, T> = dyn FnMut(&Mcts<T>, &Shared) + 'a;

/// Runs one MCTS tree until the shared limits stop it.
fn run_tree<T: TreeGame>(
    root: T,
    config: MctsConfig,
    seed: u64,
    thread_index: usize,
    shared: &Shared,
    mut report: Option<&mut TreeReporter<T>>,
) -> (Mcts<T>, Rng) {
    let mut rng = rng::seeded(seed ^ (thread_index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut tree = Mcts::new(root, config);
    let mut unflushed = 0u64;
    let mut last_report = Instant::now();
    loop {
        if shared.node_limit_reached(unflushed) || shared.aborted() {
            break;
        }
        tree.simulate(&mut rng);
        unflushed += 1;
        if tree.proven().is_some() {
            shared.abort();
            break;
        }
        if unflushed >= 64 {
            shared.nodes.fetch_add(unflushed, Ordering::Relaxed);
            unflushed = 0;
            let elapsed = shared.clock_elapsed();
            if shared.poll() {
                break;
            }
            if let (Some(soft), Some(elapsed)) = (shared.budget.soft, elapsed)
                && elapsed >= soft
            {
                shared.abort();
                break;
            }
            if let Some(report) = report.as_mut()
                && last_report.elapsed() >= Duration::from_secs(1)
            {
                last_report = Instant::now();
                report(&tree, shared);
            }
        }
    }
    shared.nodes.fetch_add(unflushed, Ordering::Relaxed);
    (tree, rng)
}

/// Root-parallel trees vote: the first step with the most visits over all trees (a
/// proven win in any tree first), and the tree that knows it best.
fn combine_roots<T: TreeGame>(trees: &[(Mcts<T>, Rng)]) -> (Option<T::Step>, usize) {
    if trees.len() == 1 {
        return (None, 0);
    }
    let mut merged: Vec<RootChild<T::Step>> = Vec::new();
    let root_actor = trees[0].0.root_actor();
    for (tree, _) in trees {
        for child in tree.root_children() {
            match merged.iter_mut().find(|known| known.step == child.step) {
                Some(known) => {
                    known.visits += child.visits;
                    known.wins += child.wins;
                    known.proven = known.proven.or(child.proven);
                }
                None => merged.push(child),
            }
        }
    }
    let key = |child: &RootChild<T::Step>| -> (u8, f32) {
        let class = match child.proven {
            Some(winner) if winner == root_actor => 2,
            Some(_) => 0,
            None => 1,
        };
        (class, child.visits)
    };
    let best = merged
        .iter()
        .max_by(|a, b| {
            key(a)
                .partial_cmp(&key(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .map(|child| child.step);
    let Some(step) = best else {
        return (None, 0);
    };
    let tree_index = (0..trees.len())
        .max_by(|&a, &b| {
            let visits = |index: usize| {
                trees[index]
                    .0
                    .root_children()
                    .iter()
                    .find(|child| child.step == step)
                    .map_or(0.0, |child| child.visits)
            };
            visits(a).total_cmp(&visits(b))
        })
        .unwrap_or(0);
    (Some(step), tree_index)
}

/// Groups a step principal variation into whole moves (consecutive steps by one player
/// make one move).
fn moves_of_steps<G: MctsGame>(
    position: &G,
    pv: &[(Player, <G::Tree as TreeGame>::Step)],
) -> Vec<G::Move> {
    let mut moves = Vec::new();
    let mut current = position.clone();
    let mut start = 0;
    while start < pv.len() {
        let actor = pv[start].0;
        let end = pv[start..]
            .iter()
            .position(|(who, _)| *who != actor)
            .map_or(pv.len(), |offset| start + offset);
        let steps: Vec<_> = pv[start..end].iter().map(|(_, step)| *step).collect();
        let Some(mv) = current.move_from_steps(&steps) else {
            break;
        };
        moves.push(mv);
        current.play_unchecked(mv);
        start = end;
    }
    moves
}

/// The score of a win rate: 400·log10(w / (1 − w)) centi-units, w clamped to
/// [0.001, 0.999] (so at most about ±1200), the Elo-style logistic scale.
pub fn win_rate_score(win_rate: f32) -> i32 {
    let w = f64::from(win_rate).clamp(0.001, 0.999);
    (400.0 * (w / (1.0 - w)).log10()).round() as i32
}

/// The win rate a score stands for: the inverse of [`win_rate_score`],
/// 1 / (1 + 10^(−cp / 400)).
pub fn score_win_rate(cp: i64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-(cp as f64) / 400.0))
}

fn mcts_info<G: MctsGame>(position: &G, tree: &Mcts<G::Tree>, shared: &Shared) -> SearchInfo {
    let mut rng = rng::seeded(0);
    let pv = tree.principal_variation(longest_defence(position, tree), &mut rng);
    line_info(position, tree, shared, &pv, tree.proven(), tree.win_rate())
}

/// The turns of `mover` in the step line `pv`, which makes `moves` whole moves (at
/// least 1): a proven line's `mate` distance (the line's own, not necessarily the
/// shortest).
fn line_distance<S>(mover: Player, pv: &[(Player, S)], moves: usize) -> i32 {
    let turns = pv
        .iter()
        .filter(|(actor, _)| *actor == mover)
        .count()
        .max(1) as i32;
    let own_turns = moves.div_ceil(2).max(1) as i32;
    own_turns.min(turns)
}

/// [`line_distance`] of the line that starts with `step`.
fn step_distance<G: MctsGame>(
    position: &G,
    tree: &Mcts<G::Tree>,
    step: <G::Tree as TreeGame>::Step,
) -> i32 {
    let pv = tree.principal_variation(Some(step), &mut rng::seeded(0));
    let moves = moves_of_steps(position, &pv).len();
    line_distance(position.side_to_move(), &pv, moves)
}

/// In a root the solver proved lost, the first step with the longest defence (by its
/// line's distance; the most simulated of equal ones): against a fallible opponent the
/// longest resistance, and what a person studying the position expects first. `None`
/// in any other root (the search's own choice stands).
fn longest_defence<G: MctsGame>(
    position: &G,
    tree: &Mcts<G::Tree>,
) -> Option<<G::Tree as TreeGame>::Step> {
    let actor = tree.root_actor();
    if tree.proven().is_none_or(|winner| winner == actor) {
        return None;
    }
    let mut best: Option<(i32, f32, <G::Tree as TreeGame>::Step)> = None;
    for child in tree.root_children() {
        if child.proven.is_none() {
            continue;
        }
        let distance = step_distance(position, tree, child.step);
        if best.is_none_or(|(longest, visits, _)| (distance, child.visits) > (longest, visits)) {
            best = Some((distance, child.visits, child.step));
        }
    }
    best.map(|(_, _, step)| step)
}

/// The `info` of one line: its step principal variation `pv`, and the proven winner or
/// the win rate of its first step.
fn line_info<G: MctsGame>(
    position: &G,
    tree: &Mcts<G::Tree>,
    shared: &Shared,
    pv: &[(Player, <G::Tree as TreeGame>::Step)],
    proven: Option<Player>,
    win_rate: f32,
) -> SearchInfo {
    let moves = moves_of_steps(position, pv);
    let mover = position.side_to_move();
    let score = match proven {
        Some(winner) => {
            let distance = line_distance(mover, pv, moves.len());
            Score::Mate(if winner == mover { distance } else { -distance })
        }
        None => Score::Centipawns(win_rate_score(win_rate)),
    };
    SearchInfo {
        depth: Some(moves.len() as u32),
        seldepth: Some(tree.max_depth as u32),
        score: Some(score),
        pv: pv_text(position, &moves),
        hashfull: Some(tree.fill_permille()),
        ..shared.info(0)
    }
}

/// Reports the main tree: one `info` line, or with `lines` above 1 one per first move
/// visited, up to `lines`, ranked as the search picks its move (a proven win first, a
/// proven loss last, else by visits; among proven lines the quicker win and the longer
/// defence first, by the line's own distance). Line 1 is the single line's report; a first step
/// names one whole move (a turn's stones come in increasing order), so the lines are
/// distinct moves. A line whose first step the solver proved is followed by its marker
/// ([`report_proven`]).
fn report_infos<G: MctsGame>(
    position: &G,
    tree: &Mcts<G::Tree>,
    shared: &Shared,
    lines: usize,
    report: &mut dyn FnMut(SearchInfo),
) {
    let first = mcts_info(position, tree, shared);
    if lines <= 1 {
        report(first);
        return;
    }
    let mut rng = rng::seeded(0);
    let best = longest_defence(position, tree).or_else(|| {
        tree.principal_variation(None, &mut rng)
            .first()
            .map(|&(_, step)| step)
    });
    let actor = tree.root_actor();
    let class = |child: &RootChild<<G::Tree as TreeGame>::Step>| match child.proven {
        Some(winner) if winner == actor => 2,
        Some(_) => 0,
        None => 1,
    };
    // Proven lines are ranked by their distance (a quicker win, a longer defence first),
    // the others by visits: only a proven line's distance is needed to sort.
    let mut others: Vec<_> = tree
        .root_children()
        .into_iter()
        .filter(|child| Some(child.step) != best && (child.visits > 0.0 || child.proven.is_some()))
        .map(|child| {
            let distance_rank = match child.proven {
                Some(winner) if winner == actor => -step_distance(position, tree, child.step),
                Some(_) => step_distance(position, tree, child.step),
                None => 0,
            };
            (child, distance_rank)
        })
        .collect();
    others.sort_by(|(a, a_rank), (b, b_rank)| {
        (class(b), *b_rank, b.visits, b.wins)
            .partial_cmp(&(class(a), *a_rank, a.visits, a.wins))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    // Line 1 is proven when its first step is, even before the root is.
    let best_proven = tree.proven().or_else(|| {
        tree.root_children()
            .iter()
            .find(|child| Some(child.step) == best)
            .and_then(|child| child.proven)
    });
    let first = if best_proven == tree.proven() {
        first
    } else {
        let pv = tree.principal_variation(None, &mut rng::seeded(0));
        line_info(position, tree, shared, &pv, best_proven, tree.win_rate())
    };
    report(SearchInfo {
        multipv: Some(1),
        ..first
    });
    report_proven(best_proven, actor, report);
    for (index, (child, _)) in others.into_iter().take(lines - 1).enumerate() {
        let pv = tree.principal_variation(Some(child.step), &mut rng::seeded(0));
        let win_rate = if child.visits > 0.0 {
            child.wins / child.visits
        } else {
            0.5
        };
        report(SearchInfo {
            multipv: Some(index as u32 + 2),
            ..line_info(position, tree, shared, &pv, child.proven, win_rate)
        });
        report_proven(child.proven, actor, report);
    }
}

/// After a line whose first step is proven, its marker: `info string proven win` or
/// `proven loss` for the root's side to move (the result is exact; the `mate` distance is
/// the line's, not necessarily the shortest).
fn report_proven(proven: Option<Player>, actor: Player, report: &mut dyn FnMut(SearchInfo)) {
    let Some(winner) = proven else {
        return;
    };
    let result = if winner == actor { "win" } else { "loss" };
    report(SearchInfo {
        string: Some(format!("proven {result}")),
        ..SearchInfo::default()
    });
}
