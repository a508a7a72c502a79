//! Fits the Catchup knowledge tables (src/eval/catchup_weights.rs) to the moves of long
//! MCTS searches.
//!
//!     cargo run --release --example catchup_fit -- revised 60 40000 uniform 1
//!
//! Arguments: rule (revised|original), games, simulations per move, the teacher's
//! `CatchupPlayout` (uniform|knowledge), seed; side 5. Each game opens with two random
//! turns, then every turn is the move of a search of that many simulations. Each stone of
//! each chosen move (in cell order, the earlier ones placed) is a decision among the
//! empty cells; the strength of every feature code is fitted to those decisions by
//! minorization-maximization (Hunter 2004, the Bradley-Terry model of a weighted draw,
//! one virtual win and loss against strength 1 per code). Stones per turn are counted
//! per number allowed. The prior of a code is `0.4 + 0.1 ln(strength / strength of a
//! lone stone)` (clamped to 0.05..0.95; the scale 0.1 chosen by matches).
//! For comparison it also prints each code's mean result at the roots (visit-weighted,
//! first steps with at least 32 visits, minus the root's mean, plus 0.5): priors taken
//! from those measured weaker. Prints the tables as Rust, ready to paste.

use tessera::eval::catchup::CatchupTree;
use tessera::eval::catchup_knowledge::{CODES, code_name, feature_code, turn_scores};
use tessera::game::catchup::{Catchup, PlayoutPosition};
use tessera::game::{CatchupRule, Rules};
use tessera::search::game::MctsGame;
use tessera::search::mcts::{Mcts, MctsConfig};
use tessera::search::rng::{Rng, seeded};

use tessera::eval::catchup_knowledge::PlayoutPolicy;

/// One stone choice: how many empty cells had each code, and the chosen code.
struct Decision {
    available: [u16; CODES],
    chosen: usize,
}

struct Statistics {
    decisions: Vec<Decision>,
    /// Turns by stones allowed (1-3) and stones placed (1-3).
    lengths: [[u64; 4]; 4],
    /// Visit-weighted sums of (step mean - root mean) and visits, per code.
    advantage: [f64; CODES],
    advantage_visits: [f64; CODES],
}

fn random_turn(position: &mut Catchup, rng: &mut Rng) {
    let cells: Vec<usize> = position.empty_cells().iter().collect();
    let count = 1 + rng.below(position.stones_allowed());
    let mut chosen = Vec::new();
    while chosen.len() < count {
        let cell = cells[rng.below(cells.len())];
        if !chosen.contains(&cell) {
            chosen.push(cell);
        }
    }
    let mv = tessera::game::catchup::Move::from_cells(&chosen).expect("distinct cells");
    position.play_unchecked(mv);
}

fn record_root(
    position: &Catchup,
    tree: &Mcts<<Catchup as MctsGame>::Tree>,
    stats: &mut Statistics,
) {
    let children = tree.root_children();
    let total_visits: f32 = children.iter().map(|child| child.visits).sum();
    let total_wins: f32 = children.iter().map(|child| child.wins).sum();
    if total_visits < 1.0 {
        return;
    }
    let root_mean = total_wins / total_visits;
    let board = position.playout_board();
    let scores = turn_scores(&board, position.rule());
    let mover = position.side_to_move().index();
    for child in children {
        if child.visits < 32.0 || child.step == u16::MAX {
            continue;
        }
        let contacts = board.contacts(position.ordinal(usize::from(child.step)), mover);
        let code = feature_code(contacts, &scores);
        let mean = child.wins / child.visits;
        stats.advantage[code] += f64::from(child.visits) * f64::from(mean - root_mean);
        stats.advantage_visits[code] += f64::from(child.visits);
    }
}

fn record_move(position: &Catchup, cells: &[u16], stats: &mut Statistics) {
    let mut board = position.playout_board();
    let mut scores = turn_scores(&board, position.rule());
    let mover = position.side_to_move();
    let mut buffer = [0u8; 256];
    for &bit in cells {
        let count = board.empty_cells(&[], &mut buffer);
        let mut available = [0u16; CODES];
        for &cell in &buffer[..count] {
            available[feature_code(board.contacts(cell, mover.index()), &scores)] += 1;
        }
        let ordinal = position.ordinal(usize::from(bit));
        let chosen = feature_code(board.contacts(ordinal, mover.index()), &scores);
        stats.decisions.push(Decision { available, chosen });
        board.place(ordinal, mover.index());
        scores.mover = board.player_score(mover);
    }
    stats.lengths[position.stones_allowed()][cells.len()] += 1;
}

fn play_game(
    rule: CatchupRule,
    simulations: u64,
    policy: PlayoutPolicy,
    rng: &mut Rng,
    stats: &mut Statistics,
) {
    let mut position = Catchup::empty_board(5, rule).expect("side 5");
    for _ in 0..2 {
        random_turn(&mut position, rng);
    }
    while position.outcome().is_none() {
        let mut tree = Mcts::new(
            CatchupTree::for_search(position.clone(), policy),
            MctsConfig::default(),
        );
        for _ in 0..simulations {
            tree.simulate(rng);
            if tree.proven().is_some() {
                break;
            }
        }
        let mover = position.side_to_move();
        let steps: Vec<u16> = tree
            .principal_variation(None, rng)
            .into_iter()
            .take_while(|(actor, _)| *actor == mover)
            .map(|(_, step)| step)
            .collect();
        let Some(mv) = position.move_from_steps(&steps) else {
            random_turn(&mut position, rng);
            continue;
        };
        if tree.proven().is_none() {
            record_root(&position, &tree, stats);
            record_move(&position, mv.cells(), stats);
        }
        position.play_unchecked(mv);
    }
}

/// The strengths by minorization-maximization, scaled so the strongest is 1.
fn fit(decisions: &[Decision]) -> [f64; CODES] {
    let mut wins = [1.0f64; CODES];
    for decision in decisions {
        wins[decision.chosen] += 1.0;
    }
    let mut gamma = [1.0f64; CODES];
    for _ in 0..200 {
        let mut denominator = [0.0f64; CODES];
        for code in 0..CODES {
            denominator[code] = 2.0 / (gamma[code] + 1.0);
        }
        for decision in decisions {
            let total: f64 = (0..CODES)
                .map(|code| f64::from(decision.available[code]) * gamma[code])
                .sum();
            for (sum, &count) in denominator.iter_mut().zip(&decision.available) {
                *sum += f64::from(count) / total;
            }
        }
        for code in 0..CODES {
            gamma[code] = wins[code] / denominator[code];
        }
    }
    let best = gamma.iter().cloned().fold(0.0, f64::max);
    gamma.map(|value| value / best)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rule: CatchupRule = args
        .first()
        .map_or("revised", String::as_str)
        .parse()
        .expect("rule");
    let games: u64 = args
        .get(1)
        .map_or(Ok(40), |text| text.parse())
        .expect("games");
    let simulations: u64 = args
        .get(2)
        .map_or(Ok(20_000), |text| text.parse())
        .expect("simulations");
    let policy =
        PlayoutPolicy::from_name(args.get(3).map_or("uniform", String::as_str)).expect("policy");
    let seed: u64 = args
        .get(4)
        .map_or(Ok(1), |text| text.parse())
        .expect("seed");
    let mut rng = seeded(seed);
    let mut stats = Statistics {
        decisions: Vec::new(),
        lengths: [[0; 4]; 4],
        advantage: [0.0; CODES],
        advantage_visits: [0.0; CODES],
    };
    for game in 0..games {
        play_game(rule, simulations, policy, &mut rng, &mut stats);
        eprintln!(
            "game {} done, {} decisions",
            game + 1,
            stats.decisions.len()
        );
    }
    let gamma = fit(&stats.decisions);
    let mut chosen = [0u64; CODES];
    let mut available = [0u64; CODES];
    for decision in &stats.decisions {
        chosen[decision.chosen] += 1;
        for (sum, &count) in available.iter_mut().zip(&decision.available) {
            *sum += u64::from(count);
        }
    }
    println!(
        "// {} games, {} simulations per move, teacher {}, {} stones",
        games,
        simulations,
        policy.name(),
        stats.decisions.len()
    );
    for code in 0..CODES {
        let root_mean = 0.5 + stats.advantage[code] / stats.advantage_visits[code].max(1.0);
        println!(
            "// {code:2} {:44} chosen {:5} of {:7} strength {:.4} root mean {:.3} ({:.0} visits)",
            code_name(code),
            chosen[code],
            available[code],
            gamma[code],
            root_mean,
            stats.advantage_visits[code]
        );
    }
    let weights: Vec<String> = gamma
        .iter()
        .map(|value| ((value * 65535.0).round() as u32).max(1).to_string())
        .collect();
    println!("weights: [{}],", weights.join(", "));
    let mut fewer = Vec::new();
    for allowed in 0..4 {
        let row = stats.lengths[allowed];
        let total: u64 = row.iter().sum();
        let below = |limit: usize| -> u64 {
            if total == 0 {
                return 0;
            }
            ((row[..limit].iter().sum::<u64>() as f64 / total as f64) * 65535.0).round() as u64
        };
        fewer.push(format!("[{}, {}]", below(2), below(3)));
        println!(
            "// allowed {allowed}: turns by stones placed {:?}",
            &row[1..]
        );
    }
    println!("fewer_than: [{}],", fewer.join(", "));
    let lone = (gamma[0] * 65535.0).round().max(1.0);
    let priors: Vec<String> = gamma
        .iter()
        .map(|value| {
            let weight = (value * 65535.0).round().max(1.0);
            let prior = 0.4 + 0.1 * (weight / lone).ln();
            format!("{:.3}", prior.clamp(0.05, 0.95))
        })
        .collect();
    println!("priors: [{}],", priors.join(", "));
}
