//! Monte Carlo tree search over single decisions ([`TreeGame`] steps): UCT with priors
//! as virtual visits, first-play urgency for untried steps, lazily created children (an
//! untried step costs one edge, not a node), and an MCTS-solver that propagates proven
//! wins and losses up the tree so proven moves are played.
//!
//! Results are credited to whoever acts at each node, so a turn of several steps by the
//! same player (Catchup) needs no special case: a node's statistics are from the point
//! of view of the player who chose the step leading to it.
//!
//! Plays Catchup: UCT (c = 0.6) with priors as 4 virtual visits, a turn being single-stone
//! steps (stones of one turn in increasing cell order, plus an explicit end-of-turn step),
//! playouts and priors by the `CatchupPlayout` option (`crate::eval::catchup_knowledge`),
//! MCTS-solver (proven wins and losses propagate; a proven win is played, a proven loss
//! avoided while any move is unproven). The threads' trees are run and combined by the
//! engine's MCTS driver.

use crate::game::{Outcome, Player};

use super::game::TreeGame;
use super::rng::Rng;

/// Tuning of the tree search.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// UCT exploration constant.
    pub exploration: f32,
    /// Weight of a prior, in virtual visits.
    pub prior_visits: f32,
    /// Most nodes plus edges the tree may hold (from the `Hash` option).
    pub max_entries: usize,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 0.6,
            prior_visits: 4.0,
            max_entries: 1 << 20,
        }
    }
}

#[derive(Clone, Debug)]
struct Node {
    first_edge: u32,
    edge_count: u32,
    /// The edge leading here (unused at the root).
    parent_edge: u32,
    expanded: bool,
    actor: Player,
    visits: f32,
    /// Results for the player who chose the step into this node (draws count half).
    wins: f32,
    /// The winner under perfect play, once proven.
    proven: Option<Player>,
}

impl Node {
    fn new(actor: Player, parent_edge: u32) -> Self {
        Node {
            first_edge: 0,
            edge_count: 0,
            parent_edge,
            expanded: false,
            actor,
            visits: 0.0,
            wins: 0.0,
            proven: None,
        }
    }
}

/// A step out of a node. Once tried, it holds what selection needs of its child, kept
/// current by [`Mcts::refresh_edge`] whenever the child's statistics change, so that
/// selection reads the parent's edges one after another and never the child nodes
/// scattered through the tree (those reads were the largest share of a simulation).
#[derive(Clone, Debug)]
struct Edge<S> {
    step: S,
    /// The child's proof, as [`Node::proven`].
    proven: Option<Player>,
    /// Index of the child node, 0 while the step is untried (0 is the root).
    child: u32,
    prior: Option<f32>,
    /// The child's visits plus the prior's, at least 1e-6.
    visits: f32,
    /// The child's mean result with the prior's virtual visits.
    mean: f32,
    /// `1 / sqrt(visits)`, for a cheap bound on the exploration term.
    inverse_root: f32,
}

/// A first step with its statistics, for combining root-parallel trees.
#[derive(Clone, Debug)]
pub struct RootChild<S> {
    pub step: S,
    pub visits: f32,
    pub wins: f32,
    pub proven: Option<Player>,
}

/// One search tree.
pub struct Mcts<T: TreeGame> {
    root: T,
    config: MctsConfig,
    nodes: Vec<Node>,
    edges: Vec<Edge<T::Step>>,
    path: Vec<u32>,
    steps: Vec<T::Step>,
    priors: Vec<Option<f32>>,
    /// Simulations run.
    pub simulations: u64,
    /// Deepest simulation path in steps.
    pub max_depth: usize,
}

impl<T: TreeGame> Mcts<T> {
    pub fn new(root: T, config: MctsConfig) -> Self {
        let actor = root.actor();
        Mcts {
            root,
            config,
            nodes: vec![Node::new(actor, 0)],
            edges: Vec::new(),
            path: Vec::new(),
            steps: Vec::new(),
            priors: Vec::new(),
            simulations: 0,
            max_depth: 0,
        }
    }

    /// Who acts at the root.
    pub fn root_actor(&self) -> Player {
        self.nodes[0].actor
    }

    /// How full the tree is, in permille of its budget.
    pub fn fill_permille(&self) -> u32 {
        ((self.nodes.len() + self.edges.len()) * 1000 / self.config.max_entries.max(1)).min(1000)
            as u32
    }

    /// The proven winner of the root position, if the solver found one.
    pub fn proven(&self) -> Option<Player> {
        self.nodes[0].proven
    }

    fn full(&self) -> bool {
        self.nodes.len() + self.edges.len() >= self.config.max_entries
    }

    /// Runs one simulation: select, expand, play out, back up.
    pub fn simulate(&mut self, rng: &mut Rng) {
        self.simulations += 1;
        let mut state = self.root.clone();
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        path.push(0);
        let mut node = 0usize;
        let winner: Option<Player> = loop {
            if let Some(winner) = self.nodes[node].proven {
                break Some(winner);
            }
            if let Some(outcome) = state.outcome() {
                break self.finish(node, outcome);
            }
            if !self.nodes[node].expanded {
                if self.full() {
                    break winner_of(state.playout(rng));
                }
                self.expand(node, &state);
            }
            let Some(edge) = self.select(node) else {
                // Every step loses: the solver has proven this node.
                break self.nodes[node].proven;
            };
            let step = self.edges[edge].step;
            state.apply(step);
            let child = self.edges[edge].child as usize;
            if child != 0 {
                node = child;
                path.push(node as u32);
                continue;
            }
            let created = self.nodes.len();
            self.nodes.push(Node::new(state.actor(), edge as u32));
            self.edges[edge].child = created as u32;
            path.push(created as u32);
            node = created;
            if let Some(outcome) = state.outcome() {
                break self.finish(node, outcome);
            }
            break winner_of(state.playout(rng));
        };
        self.max_depth = self.max_depth.max(path.len() - 1);
        self.back_up(&path, winner);
        self.path = path;
    }

    fn finish(&mut self, node: usize, outcome: Outcome) -> Option<Player> {
        let winner = winner_of(outcome);
        self.set_proven(node, winner);
        winner
    }

    /// Sets a node's proof, and its copy on the edge leading to it.
    fn set_proven(&mut self, node: usize, winner: Option<Player>) {
        self.nodes[node].proven = winner;
        if node != 0 {
            self.edges[self.nodes[node].parent_edge as usize].proven = winner;
        }
    }

    /// Recomputes what the edge leading to `node` (not the root) holds of it, with the
    /// operations selection used to do on the node itself.
    fn refresh_edge(&mut self, node: usize) {
        let child = &self.nodes[node];
        let edge = &mut self.edges[child.parent_edge as usize];
        let (prior_wins, prior_visits) = match edge.prior {
            Some(prior) => (prior * self.config.prior_visits, self.config.prior_visits),
            None => (0.0, 0.0),
        };
        edge.visits = (child.visits + prior_visits).max(1e-6);
        edge.mean = (child.wins + prior_wins) / edge.visits;
        edge.inverse_root = 1.0 / edge.visits.sqrt();
    }

    fn expand(&mut self, node: usize, state: &T) {
        let mut steps = std::mem::take(&mut self.steps);
        let mut priors = std::mem::take(&mut self.priors);
        state.steps(&mut steps);
        state.priors(&steps, &mut priors);
        let first = self.edges.len() as u32;
        for (&step, &prior) in steps.iter().zip(&priors) {
            self.edges.push(Edge {
                step,
                proven: None,
                child: 0,
                prior,
                visits: 0.0,
                mean: 0.0,
                inverse_root: 0.0,
            });
        }
        let entry = &mut self.nodes[node];
        entry.first_edge = first;
        entry.edge_count = steps.len() as u32;
        entry.expanded = true;
        self.steps = steps;
        self.priors = priors;
    }

    /// UCT over the edges of `node`, skipping proven losses; `None` when all are lost.
    ///
    /// The value of a tried step is its mean plus
    /// `exploration * sqrt(ln(parent visits + 1) / visits)`: a division and a square
    /// root per step. Most steps fall well short of the best so far, which a
    /// multiplication by the cached `1 / sqrt(visits)` shows within a margin far above
    /// the rounding of either form; only the others are computed exactly, so the choice
    /// (the first step of greatest value) is the one the exact values give.
    fn select(&self, node: usize) -> Option<usize> {
        let parent = &self.nodes[node];
        let actor = parent.actor;
        let log_visits = (parent.visits + 1.0).ln();
        let exploration = self.config.exploration;
        let prior_weight = self.config.prior_visits;
        let scaled_root = exploration * log_visits.sqrt();
        // An untried step's mean and visits are fixed by its prior, so its exploration
        // term is one of two values, computed once here rather than per edge (the same
        // operations, so the same values).
        let untried_bonus = |visits: f32| exploration * (log_visits / visits).sqrt();
        let (bonus_with_prior, bonus_without) =
            (untried_bonus(prior_weight.max(1.0)), untried_bonus(1.0));
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        let range = parent.first_edge as usize..(parent.first_edge + parent.edge_count) as usize;
        for (index, edge) in self.edges[range.clone()].iter().enumerate() {
            let value = if edge.child == 0 {
                match edge.prior {
                    Some(prior) => prior + bonus_with_prior,
                    // First-play urgency: an untried step counts as one even result.
                    None => 0.5 + bonus_without,
                }
            } else {
                match edge.proven {
                    Some(winner) if winner == actor => return Some(range.start + index),
                    Some(_) => continue,
                    None => {}
                }
                let bonus = scaled_root * edge.inverse_root;
                let margin = 1e-5 * (edge.mean.abs() + bonus);
                let exact = || edge.mean + exploration * (log_visits / edge.visits).sqrt();
                if edge.mean + bonus + margin <= best_value {
                    debug_assert!(exact() <= best_value, "the bound must hold");
                    continue;
                }
                exact()
            };
            if value > best_value {
                best_value = value;
                best = Some(range.start + index);
            }
        }
        best
    }

    fn back_up(&mut self, path: &[u32], winner: Option<Player>) {
        for position in (0..path.len()).rev() {
            let node = path[position] as usize;
            let credit = if position == 0 {
                0.0
            } else {
                let chooser = self.nodes[path[position - 1] as usize].actor;
                match winner {
                    Some(player) if player == chooser => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                }
            };
            let entry = &mut self.nodes[node];
            entry.visits += 1.0;
            entry.wins += credit;
            if position > 0 {
                self.refresh_edge(node);
            }
        }
        // Solver: a node is won for its actor if one step wins, and lost if every step
        // loses. A node's proof can only change when a child's did, and every change is
        // followed up here at once: the walk up stops at the first node whose child on
        // the path is unproven (or that stays unproven).
        for position in (0..path.len().saturating_sub(1)).rev() {
            let node = path[position] as usize;
            if self.nodes[node].proven.is_some() {
                continue;
            }
            if self.nodes[path[position + 1] as usize].proven.is_none() {
                debug_assert!(self.proof(node).is_none(), "a proof left behind");
                break;
            }
            match self.proof(node) {
                Some(winner) => self.set_proven(node, Some(winner)),
                None => break,
            }
        }
    }

    /// The winner of `node` proven by its children's proofs: its actor if one step wins,
    /// the opponent if every step loses.
    fn proof(&self, node: usize) -> Option<Player> {
        let entry = &self.nodes[node];
        if !entry.expanded || entry.edge_count == 0 {
            return None;
        }
        let actor = entry.actor;
        let range = entry.first_edge as usize..(entry.first_edge + entry.edge_count) as usize;
        let mut all_lost = true;
        for edge in &self.edges[range] {
            if edge.child == 0 {
                all_lost = false;
                continue;
            }
            match edge.proven {
                Some(winner) if winner == actor => return Some(actor),
                Some(_) => {}
                None => all_lost = false,
            }
        }
        all_lost.then(|| actor.opponent())
    }

    /// The best edge of `node` for its actor: a proven win, else the most visited step
    /// not proven lost, else the most visited.
    fn best_edge(&self, node: usize) -> Option<usize> {
        let entry = &self.nodes[node];
        if !entry.expanded {
            return None;
        }
        let actor = entry.actor;
        let range = entry.first_edge as usize..(entry.first_edge + entry.edge_count) as usize;
        let key = |index: usize| -> (u8, f32, f32) {
            let child = self.edges[index].child as usize;
            if child == 0 {
                return (1, 0.0, 0.0);
            }
            let child = &self.nodes[child];
            let class = match child.proven {
                Some(winner) if winner == actor => 3,
                Some(_) => 0,
                None => 2,
            };
            (class, child.visits, child.wins)
        };
        let mut best: Option<usize> = None;
        for index in range {
            best = match best {
                Some(current) if key(current) >= key(index) => Some(current),
                _ => Some(index),
            };
        }
        best
    }

    /// The first steps with their statistics.
    pub fn root_children(&self) -> Vec<RootChild<T::Step>> {
        let root = &self.nodes[0];
        if !root.expanded {
            return Vec::new();
        }
        let range = root.first_edge as usize..(root.first_edge + root.edge_count) as usize;
        range
            .map(|index| {
                let edge = &self.edges[index];
                let child = (edge.child != 0).then(|| &self.nodes[edge.child as usize]);
                RootChild {
                    step: edge.step,
                    visits: child.map_or(0.0, |node| node.visits),
                    wins: child.map_or(0.0, |node| node.wins),
                    proven: child.and_then(|node| node.proven),
                }
            })
            .collect()
    }

    /// The principal variation as `(actor, step)` pairs, starting with `first` when given.
    /// Stops where the tree ends; `complete_turn` then finishes the root player's turn
    /// with random steps so the first move is always whole.
    pub fn principal_variation(
        &self,
        first: Option<T::Step>,
        rng: &mut Rng,
    ) -> Vec<(Player, T::Step)> {
        let mut state = self.root.clone();
        let root_actor = state.actor();
        let mut pv = Vec::new();
        let mut node = Some(0usize);
        let mut first = first;
        while state.outcome().is_none() {
            let Some(current) = node else { break };
            let edge = match first.take() {
                Some(step) => {
                    let entry = &self.nodes[current];
                    let range =
                        entry.first_edge as usize..(entry.first_edge + entry.edge_count) as usize;
                    range.clone().find(|&index| self.edges[index].step == step)
                }
                None => self.best_edge(current),
            };
            let Some(edge) = edge else { break };
            let actor = state.actor();
            let step = self.edges[edge].step;
            pv.push((actor, step));
            state.apply(step);
            let child = self.edges[edge].child as usize;
            node = (child != 0 && pv.len() < 64).then_some(child);
        }
        // Finish the root player's turn if the tree stopped inside it.
        let mut steps = Vec::new();
        while state.outcome().is_none()
            && state.actor() == root_actor
            && pv.iter().all(|(actor, _)| *actor == root_actor)
        {
            state.steps(&mut steps);
            if steps.is_empty() {
                break;
            }
            let step = steps[rng.below(steps.len())];
            pv.push((root_actor, step));
            state.apply(step);
        }
        pv
    }

    /// The root actor's expected result of the best first step, in `[0, 1]`.
    pub fn win_rate(&self) -> f32 {
        let children = self.root_children();
        let best = children
            .iter()
            .filter(|child| child.visits > 0.0)
            .max_by(|a, b| a.visits.total_cmp(&b.visits));
        best.map_or(0.5, |child| child.wins / child.visits)
    }
}

fn winner_of(outcome: Outcome) -> Option<Player> {
    match outcome {
        Outcome::Win(player) => Some(player),
        Outcome::Draw => None,
    }
}
