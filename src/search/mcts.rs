//! Monte Carlo tree search over single decisions ([`TreeGame`] steps): UCT with priors
//! as virtual visits, first-play urgency for untried steps, lazily created children (an
//! untried step costs one edge, not a node), and an MCTS-solver that propagates proven
//! wins and losses up the tree so proven moves are played.
//!
//! Results are credited to whoever acts at each node, so a turn of several steps by the
//! same player (Catchup) needs no special case: a node's statistics are from the point
//! of view of the player who chose the step leading to it.
//!
//! RAVE, for trees that say who took each step by the end of a simulation
//! ([`TreeGame::uses_amaf`]): every edge also keeps all-moves-as-first statistics (each
//! step its node's actor took anywhere later in the simulation counts the actor's result),
//! and selection reads their minimum-error blend with the edge's own mean (`blend`) with
//! a much smaller exploration term ([`MctsConfig::rave_exploration`]).
//!
//! Plays Catchup: a turn being single-stone steps (stones of one turn in increasing cell
//! order, plus an explicit end-of-turn step), priors as 4 virtual visits, playouts and
//! priors by the `CatchupPlayout` option (`crate::eval::catchup_knowledge`): `knowledge`
//! with RAVE (b = 0.1, exploration 0.05), `uniform` with plain UCT (exploration 0.6);
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
    /// The exploration constant of a tree that keeps all-moves-as-first statistics
    /// ([`TreeGame::uses_amaf`]): their RAVE blend already spreads the simulations, and
    /// the UCT term on top of it costs strength (the figure is in the contributor guide,
    /// `crate::docs::search_and_solve`).
    pub rave_exploration: f32,
    /// The RAVE blend's bias `b` (see `blend`): how soon a step's own results outweigh its
    /// all-moves-as-first ones.
    pub rave_bias: f32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 0.6,
            prior_visits: 4.0,
            max_entries: 1 << 20,
            rave_exploration: 0.05,
            rave_bias: 0.1,
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
    /// Where this node's edges stand in [`Mcts::edges`].
    #[inline]
    fn edge_range(&self) -> std::ops::Range<usize> {
        self.first_edge as usize..(self.first_edge + self.edge_count) as usize
    }

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
    /// The child's visits plus the prior's, at least 1e-6 (untried: the prior's, at
    /// least 1).
    visits: f32,
    /// The child's mean result with the prior's virtual visits (untried: the prior, or
    /// an even result without one).
    plain_mean: f32,
    /// What selection reads: [`Edge::plain_mean`], blended with the all-moves-as-first
    /// mean when the search keeps one.
    mean: f32,
    /// All-moves-as-first statistics: simulations through the parent in which the
    /// parent's actor took this step later on, and the actor's results in them.
    amaf_visits: f32,
    amaf_wins: f32,
    /// The step's [`TreeGame::amaf_key`], [`NO_KEY`] for none.
    amaf_key: u8,
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
    /// The RAVE blend's bias term `4 b^2`, when the tree keeps all-moves-as-first
    /// statistics ([`TreeGame::uses_amaf`]).
    rave_bias: Option<f32>,
    /// Scratch list of the edges an all-moves-as-first update touches.
    taken: Vec<u32>,
    /// Simulations run.
    pub simulations: u64,
    /// Deepest simulation path in steps.
    pub max_depth: usize,
}

impl<T: TreeGame> Mcts<T> {
    pub fn new(root: T, mut config: MctsConfig) -> Self {
        let actor = root.actor();
        let rave_bias = root.uses_amaf().then(|| {
            config.exploration = config.rave_exploration;
            4.0 * config.rave_bias * config.rave_bias
        });
        Mcts {
            root,
            config,
            nodes: vec![Node::new(actor, 0)],
            edges: Vec::new(),
            path: Vec::new(),
            steps: Vec::new(),
            priors: Vec::new(),
            rave_bias,
            taken: Vec::new(),
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
        let mut played_out = false;
        let winner: Option<Player> = loop {
            if let Some(winner) = self.nodes[node].proven {
                break Some(winner);
            }
            if let Some(outcome) = state.outcome() {
                break self.finish(node, outcome);
            }
            if !self.nodes[node].expanded {
                if self.full() {
                    played_out = true;
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
            played_out = true;
            break winner_of(state.playout(rng));
        };
        self.max_depth = self.max_depth.max(path.len() - 1);
        self.back_up(&path, winner);
        if played_out && self.rave_bias.is_some() {
            self.back_up_amaf(&path, winner, &state);
        }
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
        edge.plain_mean = (child.wins + prior_wins) / edge.visits;
        edge.inverse_root = 1.0 / edge.visits.sqrt();
        edge.mean = blend(edge, self.rave_bias);
    }

    /// Adds the simulation's all-moves-as-first results: at every node of the path, each
    /// step its actor took later in the simulation (by the tree game's final record)
    /// counts the actor's result.
    fn back_up_amaf(&mut self, path: &[u32], winner: Option<Player>, last: &T) {
        let Some(owners) = last.amaf_owners() else {
            return;
        };
        for &node in path {
            let entry = &self.nodes[node as usize];
            if !entry.expanded {
                continue;
            }
            let actor = entry.actor;
            let credit = match winner {
                Some(player) if player == actor => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            let edges = &mut self.edges[entry.edge_range()];
            // The steps the actor took, listed without branches (whether it took a step
            // is a coin toss to the processor: a branch per step mispredicted half the
            // time), then updated. `NO_KEY` is never a key that was taken.
            let taken = &mut self.taken;
            taken.resize(edges.len(), 0);
            let mut count = 0;
            for (index, edge) in edges.iter().enumerate() {
                taken[count] = index as u32;
                count += usize::from(owners.took(actor, edge.amaf_key));
            }
            for &index in &taken[..count] {
                let edge = &mut edges[index as usize];
                edge.amaf_visits += 1.0;
                edge.amaf_wins += credit;
                edge.mean = blend(edge, self.rave_bias);
            }
        }
    }

    fn expand(&mut self, node: usize, state: &T) {
        let mut steps = std::mem::take(&mut self.steps);
        let mut priors = std::mem::take(&mut self.priors);
        state.steps(&mut steps);
        state.priors(&steps, &mut priors);
        let first = self.edges.len() as u32;
        let prior_visits = self.config.prior_visits;
        let amaf = self.rave_bias.is_some();
        for (&step, &prior) in steps.iter().zip(&priors) {
            // Until tried, a step counts as its prior over the prior's virtual visits (at
            // least one), or without one as a single even result (first-play urgency).
            let (mean, visits) = match prior {
                Some(prior) => (prior, prior_visits.max(1.0)),
                None => (0.5, 1.0),
            };
            self.edges.push(Edge {
                step,
                proven: None,
                child: 0,
                prior,
                visits,
                plain_mean: mean,
                mean,
                amaf_visits: 0.0,
                amaf_wins: 0.0,
                amaf_key: match amaf {
                    true => state.amaf_key(step).unwrap_or(NO_KEY),
                    false => NO_KEY,
                },
                inverse_root: 1.0 / visits.sqrt(),
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
        let scaled_root = exploration * log_visits.sqrt();
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        let range = parent.edge_range();
        for (index, edge) in self.edges[range.clone()].iter().enumerate() {
            match edge.proven {
                Some(winner) if winner == actor => return Some(range.start + index),
                Some(_) => continue,
                None => {}
            }
            // Untried steps hold their prior as mean and visits (see `expand`).
            let bonus = scaled_root * edge.inverse_root;
            let margin = 1e-5 * (edge.mean.abs() + bonus);
            let exact = || edge.mean + exploration * (log_visits / edge.visits).sqrt();
            if edge.mean + bonus + margin <= best_value {
                debug_assert!(exact() <= best_value, "the bound must hold");
                continue;
            }
            let value = exact();
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
        let range = entry.edge_range();
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
        let range = entry.edge_range();
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
        let range = root.edge_range();
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
                Some(step) => self.nodes[current]
                    .edge_range()
                    .find(|&index| self.edges[index].step == step),
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

/// [`Edge::amaf_key`] of a step without one; trees keep their keys below it, so no
/// playout ever took it.
const NO_KEY: u8 = u8::MAX;

/// The mean selection reads: the plain mean, or with all-moves-as-first statistics the
/// RAVE blend `(1 - beta) plain + beta amaf_mean` with
/// `beta = n_amaf / (n + n_amaf + 4 b^2 n n_amaf)` (Gelly and Silver's minimum-error
/// schedule; `rave_bias` is `4 b^2`), `n` counting the prior's virtual visits. Written
/// with one division, `plain + (amaf_wins - n_amaf plain) / (n + n_amaf + 4 b^2 n n_amaf)`,
/// which is the plain mean exactly while `n_amaf` is 0.
#[inline(always)]
fn blend<S>(edge: &Edge<S>, rave_bias: Option<f32>) -> f32 {
    match rave_bias {
        Some(bias) => {
            let (visits, amaf, plain) = (edge.visits, edge.amaf_visits, edge.plain_mean);
            plain + (edge.amaf_wins - amaf * plain) / (visits + amaf + bias * visits * amaf)
        }
        None => edge.plain_mean,
    }
}

fn winner_of(outcome: Outcome) -> Option<Player> {
    match outcome {
        Outcome::Win(player) => Some(player),
        Outcome::Draw => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Owners;

    /// Three cells taken in turn, one a step; White wins when it holds cell 0. The playout
    /// takes the free cells in increasing order, so who takes what is known in advance.
    #[derive(Clone, Debug)]
    struct Fill {
        holder: [Option<Player>; 3],
        to_move: Player,
        amaf: bool,
        owners: Owners,
    }

    impl Fill {
        fn new(amaf: bool) -> Self {
            Fill {
                holder: [None; 3],
                to_move: Player::One,
                amaf,
                owners: Owners::default(),
            }
        }
    }

    impl TreeGame for Fill {
        type Step = u8;

        fn actor(&self) -> Player {
            self.to_move
        }

        fn outcome(&self) -> Option<Outcome> {
            self.holder
                .iter()
                .all(Option::is_some)
                .then(|| match self.holder[0] {
                    Some(Player::One) => Outcome::Win(Player::One),
                    _ => Outcome::Win(Player::Two),
                })
        }

        fn steps(&self, steps: &mut Vec<u8>) {
            steps.clear();
            steps.extend((0..3).filter(|&cell| self.holder[usize::from(cell)].is_none()));
        }

        fn apply(&mut self, step: u8) {
            self.holder[usize::from(step)] = Some(self.to_move);
            self.to_move = self.to_move.opponent();
        }

        fn playout(&mut self, _rng: &mut Rng) -> Outcome {
            while let Some(cell) = (0..3).find(|&cell| self.holder[cell].is_none()) {
                self.apply(cell as u8);
            }
            for (cell, holder) in self.holder.iter().enumerate() {
                let holder = holder.expect("a full board");
                self.owners.set(cell as u8, holder.index());
            }
            self.outcome().expect("a full board")
        }

        fn uses_amaf(&self) -> bool {
            self.amaf
        }

        fn amaf_key(&self, step: u8) -> Option<u8> {
            Some(step)
        }

        fn amaf_owners(&self) -> Option<&Owners> {
            self.amaf.then_some(&self.owners)
        }
    }

    fn root_edges(tree: &Mcts<Fill>) -> Vec<(u8, f32, f32, f32)> {
        let root = &tree.nodes[0];
        let range = root.edge_range();
        tree.edges[range]
            .iter()
            .map(|edge| (edge.step, edge.amaf_visits, edge.amaf_wins, edge.mean))
            .collect()
    }

    #[test]
    fn all_moves_as_first_credits_every_step_the_actor_took_later() {
        let config = MctsConfig::default();
        let mut tree = Mcts::new(Fill::new(true), config);
        assert_eq!(tree.config.exploration, config.rave_exploration);
        tree.simulate(&mut crate::search::rng::seeded(1));
        // The first step (cell 0, all equal) by White; the playout gives cell 1 to Black
        // and cell 2 to White, and White wins: cells 0 and 2 count a White win.
        let edges = root_edges(&tree);
        let stats: Vec<(u8, f32, f32)> = edges.iter().map(|e| (e.0, e.1, e.2)).collect();
        assert_eq!(stats, vec![(0, 1.0, 1.0), (1, 0.0, 0.0), (2, 1.0, 1.0)]);
        // Cell 1 keeps its first-play mean exactly; cell 2, untried, now leans to its
        // all-moves-as-first win.
        assert_eq!(edges[1].3, 0.5);
        let bias = 4.0 * config.rave_bias * config.rave_bias;
        assert!((edges[2].3 - (0.5 + 0.5 / (2.0 + bias))).abs() < 1e-6);
        assert!(edges[2].3 > 0.5 && edges[2].3 < 1.0);
        // A second simulation follows cell 0 (its win leads), then Black's first step
        // (cell 1) from the node now expanded; the playout gives cell 2 to White, who wins
        // again. Black's node credits Black's loss to cell 1 only.
        tree.simulate(&mut crate::search::rng::seeded(2));
        let stats: Vec<(u8, f32, f32)> =
            root_edges(&tree).iter().map(|e| (e.0, e.1, e.2)).collect();
        assert_eq!(stats, vec![(0, 2.0, 2.0), (1, 0.0, 0.0), (2, 2.0, 2.0)]);
        let black = &tree.nodes[tree.edges[tree.nodes[0].first_edge as usize].child as usize];
        assert_eq!(black.actor, Player::Two);
        let range = black.edge_range();
        let stats: Vec<(u8, f32, f32)> = tree.edges[range]
            .iter()
            .map(|edge| (edge.step, edge.amaf_visits, edge.amaf_wins))
            .collect();
        assert_eq!(stats, vec![(1, 1.0, 0.0), (2, 0.0, 0.0)]);
    }

    #[test]
    fn without_all_moves_as_first_the_means_stay_plain() {
        let config = MctsConfig::default();
        let mut tree = Mcts::new(Fill::new(false), config);
        assert_eq!(tree.config.exploration, config.exploration);
        for seed in 0..3 {
            tree.simulate(&mut crate::search::rng::seeded(seed));
        }
        for (_, amaf_visits, _, _) in root_edges(&tree) {
            assert_eq!(amaf_visits, 0.0);
        }
        let root = &tree.nodes[0];
        for edge in &tree.edges[root.edge_range()] {
            assert_eq!(edge.mean, edge.plain_mean);
        }
    }

    #[test]
    fn the_one_division_blend_is_the_weighted_mean() {
        let bias = 4.0 * 0.1f32 * 0.1;
        for (visits, plain, amaf_visits, amaf_wins) in [
            (1.0, 0.5, 3.0, 2.0),
            (40.0, 0.7, 90.0, 20.0),
            (4.0, 0.3, 1.0, 1.0),
        ] {
            let edge = Edge {
                step: 0u8,
                proven: None,
                child: 0,
                prior: None,
                visits,
                plain_mean: plain,
                mean: plain,
                amaf_visits,
                amaf_wins,
                amaf_key: 0,
                inverse_root: 1.0,
            };
            let beta = amaf_visits / (visits + amaf_visits + bias * visits * amaf_visits);
            let expected = (1.0 - beta) * plain + beta * (amaf_wins / amaf_visits);
            assert!((blend(&edge, Some(bias)) - expected).abs() < 1e-6);
            assert_eq!(blend(&edge, None), plain);
        }
    }
}
