//! The generic search on a toy game defined here ("piles"): alpha-beta against a plain
//! negamax, determinism, limits, strategies, and the MCTS-solver on a multi-step tree.
//!
//! Piles: four piles of stones; a move takes 1 to 3 stones from one pile and scores them
//! for the mover, +2 more for emptying the pile (that move is "noisy"). When every pile
//! is empty the higher score wins. The same position can arise at different plies, so
//! the transposition table meets the same position at different remaining depths.

use std::sync::atomic::AtomicBool;

use tessera::engine::{
    Algorithm, AlphaBetaSupply, Engine, EngineGame, SearchOptions, SearchRequest, Strategy,
};
use tessera::game::{GameConfig, GameRecord, MoveError, Outcome, Player, PositionError, Rules};
use tessera::search::alphabeta::{AlphaBetaConfig, MATE, to_score};
use tessera::search::game::{
    AlphaBetaGame, Evaluate, ExactTables, FixedLength, MctsGame, ProgressRule, SearchGame,
    StagedMoves, Terminal, TreeGame,
};
use tessera::search::rng::Rng;
use tessera::search::{GameSearchResult, Score, SearchLimits};

#[derive(Clone, Debug, PartialEq, Eq)]
struct Piles<const MCTS: bool> {
    piles: [u8; 4],
    scores: [i32; 2],
    side: Player,
}

type Move = (u8, u8);

impl<const MCTS: bool> Piles<MCTS> {
    fn random(rng: &mut Rng, most: usize) -> Self {
        let mut piles = [0u8; 4];
        for pile in &mut piles {
            *pile = rng.below(most + 1) as u8;
        }
        if piles.iter().all(|&pile| pile == 0) {
            piles[0] = 1;
        }
        let side = if rng.below(2) == 0 {
            Player::One
        } else {
            Player::Two
        };
        Piles {
            piles,
            scores: [rng.below(4) as i32, rng.below(4) as i32],
            side,
        }
    }
}

impl<const MCTS: bool> Rules for Piles<MCTS> {
    type Move = Move;

    fn start(_config: &GameConfig) -> Result<Self, PositionError> {
        Ok(Piles {
            piles: [3, 4, 5, 6],
            scores: [0, 0],
            side: Player::One,
        })
    }

    fn from_position_text(text: &str, _config: &GameConfig) -> Result<Self, PositionError> {
        Err(PositionError::Syntax {
            token: text.to_string(),
            reason: "toy game has no position text".to_string(),
        })
    }

    fn position_text(&self) -> String {
        format!("{:?} {:?} {:?}", self.piles, self.scores, self.side)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        for (pile, &stones) in self.piles.iter().enumerate() {
            for take in 1..=stones.min(3) {
                moves.push((pile as u8, take));
            }
        }
    }

    fn play_unchecked(&mut self, (pile, take): Move) {
        let stones = &mut self.piles[pile as usize];
        *stones -= take;
        let bonus = if *stones == 0 { 2 } else { 0 };
        self.scores[self.side.index()] += i32::from(take) + bonus;
        self.side = self.side.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.piles.iter().any(|&pile| pile > 0) {
            return None;
        }
        Some(match self.scores[0].cmp(&self.scores[1]) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::One),
            std::cmp::Ordering::Less => Outcome::Win(Player::Two),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn score(&self) -> [i32; 2] {
        self.scores
    }

    fn hash(&self) -> u64 {
        let mut key = self.side.index() as u64;
        for &pile in &self.piles {
            key = key * 31 + u64::from(pile);
        }
        for &score in &self.scores {
            key = key * 131 + score as u64;
        }
        key.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x1234_5678
    }

    fn move_text(&self, (pile, take): Move) -> String {
        format!("{pile}:{take}")
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
            .into_iter()
            .find(|&mv| self.move_text(mv) == text)
            .ok_or_else(|| MoveError::illegal(text, "no such move"))
    }
}

impl SearchGame for Piles<false> {
    fn evaluation_report(&self) -> (Vec<(String, i32)>, i32) {
        (self.evaluation_terms(), self.evaluate())
    }
}

impl Evaluate for Piles<false> {
    fn evaluate(&self) -> i32 {
        let own = self.side.index();
        // Odd-looking but deterministic terms, so ordering and the table matter.
        100 * (self.scores[own] - self.scores[1 - own]) + 7 * i32::from(self.piles[own] % 3)
    }
}

impl AlphaBetaGame for Piles<false> {
    fn is_noisy(&self, (pile, take): Move) -> bool {
        self.piles[pile as usize] == take
    }

    fn order_hint(&self, (_, take): Move) -> i32 {
        i32::from(take)
    }
}

// Piles belongs to none of the families of alpha-beta games.
impl StagedMoves for Piles<false> {}
impl FixedLength for Piles<false> {}
impl ProgressRule for Piles<false> {}
impl ExactTables for Piles<false> {
    type Tables = ();
}

/// Piles plays as the engine's games do: alpha-beta with nothing supplied beyond the
/// position.
impl EngineGame for Piles<false> {
    const ALGORITHM: Algorithm = Algorithm::AlphaBeta;

    fn full_search(
        engine: &mut Engine,
        request: SearchRequest<'_, Self>,
    ) -> GameSearchResult<Move> {
        let supply = AlphaBetaSupply {
            tables: &(),
            exact: None,
        };
        engine.alpha_beta_search(request, supply)
    }
}

/// The MCTS view: a turn is single-stone steps from one pile plus an explicit end step
/// (at most three stones, the turn ends by itself after the third or when the pile is
/// empty), like a Catchup turn of several stones.
#[derive(Clone, Debug)]
struct StoneTree {
    position: Piles<true>,
    pile: Option<u8>,
    taken: u8,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Step {
    Take(u8),
    End,
}

impl StoneTree {
    fn end_turn(&mut self) {
        if let Some(pile) = self.pile.take() {
            self.position.play_unchecked((pile, self.taken));
        }
        self.taken = 0;
    }
}

impl TreeGame for StoneTree {
    type Step = Step;

    fn actor(&self) -> Player {
        self.position.side
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.pile.is_some() {
            None
        } else {
            self.position.outcome()
        }
    }

    fn steps(&self, steps: &mut Vec<Step>) {
        steps.clear();
        match self.pile {
            None => {
                for (pile, &stones) in self.position.piles.iter().enumerate() {
                    if stones > 0 {
                        steps.push(Step::Take(pile as u8));
                    }
                }
            }
            Some(pile) => {
                steps.push(Step::Take(pile));
                steps.push(Step::End);
            }
        }
    }

    fn apply(&mut self, step: Step) {
        match step {
            Step::End => self.end_turn(),
            Step::Take(pile) => {
                self.pile = Some(pile);
                self.taken += 1;
                if self.taken == 3 || self.position.piles[pile as usize] == self.taken {
                    self.end_turn();
                }
            }
        }
    }
}

impl SearchGame for Piles<true> {
    fn evaluation_report(&self) -> (Vec<(String, i32)>, i32) {
        (Vec::new(), 0)
    }
}

impl MctsGame for Piles<true> {
    type Tree = StoneTree;

    fn tree(&self) -> StoneTree {
        StoneTree {
            position: self.clone(),
            pile: None,
            taken: 0,
        }
    }

    fn move_from_steps(&self, steps: &[Step]) -> Option<Move> {
        let Step::Take(pile) = *steps.first()? else {
            return None;
        };
        let take = steps
            .iter()
            .filter(|step| **step == Step::Take(pile))
            .count() as u8;
        Some((pile, take))
    }
}

/// Piles as a tree of single stones, searched by MCTS.
impl EngineGame for Piles<true> {
    const ALGORITHM: Algorithm = Algorithm::Mcts;

    fn full_search(
        engine: &mut Engine,
        request: SearchRequest<'_, Self>,
    ) -> GameSearchResult<Move> {
        let root = request.record.position().tree();
        engine.mcts_search(request, root)
    }
}

/// Plain fixed-depth negamax with the same quiescence rule as the engine: stand pat on
/// the evaluation unless every move is noisy, then follow noisy moves only.
fn negamax(position: &Piles<false>, depth: i32, ply: i32) -> i32 {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    if moves.is_empty() {
        return terminal(position, ply);
    }
    if depth <= 0 {
        return quiescence(position, ply);
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.play_unchecked(mv);
            -negamax(&child, depth - 1, ply + 1)
        })
        .max()
        .expect("moves is not empty")
}

fn quiescence(position: &Piles<false>, ply: i32) -> i32 {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    if moves.is_empty() {
        return terminal(position, ply);
    }
    let noisy: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&mv| position.is_noisy(mv))
        .collect();
    let mut best = if noisy.len() == moves.len() {
        i32::MIN + 1
    } else {
        position.evaluate()
    };
    for mv in noisy {
        let mut child = position.clone();
        child.play_unchecked(mv);
        best = best.max(-quiescence(&child, ply + 1));
    }
    best
}

fn terminal(position: &Piles<false>, ply: i32) -> i32 {
    let outcome = position.outcome().expect("no moves means the game is over");
    match position.terminal(outcome) {
        Terminal::Win => MATE - ply,
        Terminal::Loss => -MATE + ply,
        Terminal::Draw => 0,
        Terminal::Exact(value) => value,
    }
}

fn search<G: EngineGame>(
    engine: &mut Engine,
    position: &G,
    limits: &SearchLimits,
) -> GameSearchResult<G::Move> {
    let stop = AtomicBool::new(false);
    let record = GameRecord::new(position.clone());
    engine.search_record(&record, limits, &stop, &mut |_| {})
}

fn depth_limit(depth: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    }
}

#[test]
fn alpha_beta_equals_plain_negamax() {
    let mut rng = tessera::search::rng::seeded(11);
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 1,
        ..SearchOptions::default()
    });
    engine.set_alpha_beta_config(AlphaBetaConfig::value_preserving());
    let mut checked = 0;
    for _ in 0..40 {
        let position = Piles::<false>::random(&mut rng, 6);
        for depth in 1..=5 {
            engine.new_game();
            let result = search(&mut engine, &position, &depth_limit(depth));
            let expected = to_score(negamax(&position, depth as i32, 0));
            assert_eq!(result.score, Some(expected), "{position:?} depth {depth}");
            // The move played achieves the value one ply down.
            let mv = result.best_move.expect("the game is running");
            let mut child = position.clone();
            child.play_unchecked(mv);
            let value = -negamax(&child, depth as i32 - 1, 1);
            assert_eq!(Some(to_score(value)), Some(expected), "{position:?} {mv:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 200);
}

#[test]
fn new_options_keep_the_alpha_beta_tuning_a_caller_set() {
    // ExactPlies lives in the options only; the tuning's own choice (the value-preserving
    // subset searches nothing exactly) survives a later setoption.
    let mut engine = Engine::default();
    assert_eq!(engine.alpha_beta_config().exact_plies, None);
    engine.set_alpha_beta_config(AlphaBetaConfig::value_preserving());
    engine.set_options(SearchOptions {
        exact_plies: 12,
        ..SearchOptions::default()
    });
    assert_eq!(engine.alpha_beta_config().exact_plies, Some(0));
    assert_eq!(engine.options().exact_plies, 12);
}

#[test]
fn full_search_finds_the_solved_result_with_reductions_on() {
    // With every enhancement on, a search deep enough to reach the end of small games
    // still returns the solved value (reductions never hide a forced result here because
    // the search reaches every leaf at full depth again in later iterations).
    let mut rng = tessera::search::rng::seeded(5);
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 1,
        ..SearchOptions::default()
    });
    assert_eq!(engine.alpha_beta_config().contempt, None);
    for _ in 0..20 {
        let position = Piles::<false>::random(&mut rng, 3);
        engine.new_game();
        let result = search(&mut engine, &position, &depth_limit(16));
        let solved = to_score(negamax(&position, 16, 0));
        // Proven results must agree in sign.
        match (result.score, solved) {
            (Some(Score::Mate(found)), Score::Mate(exact)) => {
                assert_eq!(found.signum(), exact.signum(), "{position:?}")
            }
            // A draw scores the game's contempt, from the engine's side.
            (Some(Score::Centipawns(found)), Score::Centipawns(0))
                if found == -position.contempt() => {}
            (found, exact) => panic!("{position:?}: {found:?} vs {exact:?}"),
        }
    }
}

#[test]
fn one_thread_with_a_node_limit_is_deterministic_and_honours_limits() {
    let start = Piles::<false> {
        piles: [9, 9, 9, 9],
        scores: [0, 0],
        side: Player::One,
    };
    let limits = SearchLimits {
        nodes: Some(20_000),
        ..SearchLimits::default()
    };
    let run = || {
        let mut engine = Engine::new(SearchOptions {
            hash_mb: 2,
            ..SearchOptions::default()
        });
        search(&mut engine, &start, &limits)
    };
    let first = run();
    let second = run();
    assert_eq!(first, second);
    assert_eq!(first.nodes, 20_000);
    let mut engine = Engine::new(SearchOptions::default());
    let shallow = search(&mut engine, &start, &depth_limit(3));
    assert_eq!(shallow.depth, 3);
    assert!(shallow.nodes < 20_000);
}

#[test]
fn info_lines_report_every_iteration() {
    let start = Piles::<false> {
        piles: [5, 6, 7, 8],
        scores: [0, 0],
        side: Player::One,
    };
    let mut engine = Engine::new(SearchOptions::default());
    let stop = AtomicBool::new(false);
    let record = GameRecord::new(start);
    let mut infos = Vec::new();
    engine.search_record(&record, &depth_limit(5), &stop, &mut |info| {
        infos.push(info)
    });
    let depths: Vec<u32> = infos.iter().filter_map(|info| info.depth).collect();
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    assert!(
        infos
            .iter()
            .all(|info| !info.pv.is_empty() && info.nodes > 0)
    );
    assert!(
        infos
            .iter()
            .all(|info| info.score.is_some() && info.hashfull.is_some())
    );
}

#[test]
fn strategies_are_legal_and_seeded() {
    let mut rng = tessera::search::rng::seeded(3);
    for strategy in [Strategy::Random, Strategy::Greedy, Strategy::Minimax2] {
        let options = SearchOptions {
            strategy,
            seed: 99,
            hash_mb: 1,
            ..SearchOptions::default()
        };
        let mut first = Engine::new(options.clone());
        let mut second = Engine::new(options.clone());
        let mut other = Engine::new(SearchOptions {
            seed: 100,
            ..options
        });
        let mut differs = false;
        for _ in 0..40 {
            let position = Piles::<false>::random(&mut rng, 6);
            let limits = SearchLimits::default();
            let a = search(&mut first, &position, &limits)
                .best_move
                .expect("running");
            let b = search(&mut second, &position, &limits)
                .best_move
                .expect("running");
            let c = search(&mut other, &position, &limits)
                .best_move
                .expect("running");
            assert_eq!(a, b);
            differs |= a != c;
            let mut legal = Vec::new();
            position.legal_moves(&mut legal);
            assert!(legal.contains(&a));
            if strategy == Strategy::Greedy {
                // Greedy maximises the mover's score gain: emptying bonus and size.
                let gain = |mv: Move| {
                    let mut child = position.clone();
                    child.play_unchecked(mv);
                    child.greedy_value(position.side)
                };
                let best = legal.iter().map(|&mv| gain(mv)).max();
                let won = {
                    let mut child = position.clone();
                    child.play_unchecked(a);
                    child.outcome() == Some(Outcome::Win(position.side))
                };
                assert!(won || Some(gain(a)) == best, "{position:?} {a:?}");
            }
            if strategy == Strategy::Minimax2 {
                // Minimax2 maximises the mover's worst score gain over the replies,
                // computed here by brute force without the strategy's early cut.
                let value = |game: &Piles<false>| {
                    let rule = i64::from(game.greedy_value(position.side));
                    match game.outcome() {
                        Some(Outcome::Win(winner)) if winner == position.side => (1 << 40) + rule,
                        Some(Outcome::Win(_)) => rule - (1 << 40),
                        _ => rule,
                    }
                };
                let worst_reply = |mv: Move| {
                    let mut child = position.clone();
                    child.play_unchecked(mv);
                    let mut replies = Vec::new();
                    child.legal_moves(&mut replies);
                    replies
                        .iter()
                        .map(|&reply| {
                            let mut grandchild = child.clone();
                            grandchild.play_unchecked(reply);
                            value(&grandchild)
                        })
                        .min()
                        .unwrap_or_else(|| value(&child))
                };
                let best = legal.iter().map(|&mv| worst_reply(mv)).max();
                assert_eq!(Some(worst_reply(a)), best, "{position:?} {a:?}");
            }
        }
        assert!(
            differs,
            "{strategy:?}: another seed never changed a tie-break"
        );
    }
}

/// Exact winner by exhaustive search (small positions only).
fn solve(position: &Piles<true>) -> Option<Player> {
    if let Some(outcome) = position.outcome() {
        return match outcome {
            Outcome::Win(player) => Some(player),
            Outcome::Draw => None,
        };
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mover = position.side;
    let mut draw = false;
    for mv in moves {
        let mut child = position.clone();
        child.play_unchecked(mv);
        match solve(&child) {
            Some(winner) if winner == mover => return Some(mover),
            None => draw = true,
            Some(_) => {}
        }
    }
    if draw { None } else { Some(mover.opponent()) }
}

#[test]
fn mcts_solver_finds_forced_wins_in_multi_step_turns() {
    let mut rng = tessera::search::rng::seeded(17);
    let mut engine = Engine::new(SearchOptions {
        hash_mb: 8,
        ..SearchOptions::default()
    });
    let mut won_positions = 0;
    for _ in 0..40 {
        let position = Piles::<true>::random(&mut rng, 4);
        if solve(&position) != Some(position.side) {
            continue;
        }
        won_positions += 1;
        let limits = SearchLimits {
            nodes: Some(200_000),
            ..SearchLimits::default()
        };
        let result = search(&mut engine, &position, &limits);
        let mv = result.best_move.expect("running");
        let mut child = position.clone();
        child.play_unchecked(mv);
        assert_eq!(
            solve(&child),
            Some(position.side),
            "{position:?} played {mv:?}"
        );
        assert!(
            matches!(result.score, Some(Score::Mate(n)) if n > 0),
            "{position:?}: {:?}",
            result.score
        );
    }
    assert!(won_positions >= 10, "only {won_positions} won positions");
}

#[test]
fn mcts_with_a_node_limit_is_deterministic() {
    let position = Piles::<true> {
        piles: [7, 8, 9, 9],
        scores: [0, 0],
        side: Player::One,
    };
    let limits = SearchLimits {
        nodes: Some(5_000),
        ..SearchLimits::default()
    };
    let run = || {
        let mut engine = Engine::new(SearchOptions {
            hash_mb: 4,
            seed: 1,
            ..SearchOptions::default()
        });
        search(&mut engine, &position, &limits)
    };
    let first = run();
    assert_eq!(first, run());
    assert_eq!(first.nodes, 5_000);
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    assert!(legal.contains(&first.best_move.expect("running")));
}

#[test]
fn two_threads_share_the_work() {
    let start = Piles::<false> {
        piles: [9, 9, 9, 9],
        scores: [0, 0],
        side: Player::One,
    };
    let mut engine = Engine::new(SearchOptions {
        threads: 2,
        hash_mb: 4,
        ..SearchOptions::default()
    });
    let result = search(&mut engine, &start, &depth_limit(6));
    let mut legal = Vec::new();
    start.legal_moves(&mut legal);
    assert!(legal.contains(&result.best_move.expect("running")));
    assert_eq!(result.depth, 6);
}
