//! Catchup's facts: side 2 to 9 (5 by default), the rule for the third stone as its one
//! parameter, and scores as a win rate (the engine plays it by MCTS).

use crate::game::facts::{BoardShape, GameFacts, GameParameter, Level, ScoreUnits};

use super::rule::CatchupRule;

pub static FACTS: GameFacts = GameFacts {
    name: "catchup",
    title: "Catchup",
    sizes: 2..=9,
    board: BoardShape::Hex,
    default_size: 5,
    parameters: &[RULE_PARAMETER],
    score_units: ScoreUnits::WinRate,
    levels: &LEVELS,
};

/// The parameter that picks the rule for the third stone ([`CatchupRule`]).
const RULE_PARAMETER: GameParameter = GameParameter {
    option: CatchupRule::OPTION,
    flag: "rule",
    title: "Catchup rule",
    values: &CatchupRule::NAMES,
};

/// Catchup's strength levels (measured on side 5, used on every side): the node budget, lines and temperature of each level, weakest
/// first, and its Elo measured by `python3 scripts/matches/ladder.py --variant catchup --size 5 --levels 7`
/// (the uniformly random mover is 0). Level 1 draws among every legal move at a temperature
/// above even a proven result's value (the moves its few playouts do not reach count as its
/// worst line): it plays as `random` does (measured -31 ± 48 against it, so 0 here) and loses
/// to `greedy`, the weakest the draw allows. Levels 2 and 3 draw among the children their
/// budgets visit (at most one per node).
pub static LEVELS: [Level; 7] = [
    Level {
        nodes: 10,
        lines: 0,
        temperature: 3_000_000,
        elo: 0,
    },
    Level {
        nodes: 10,
        lines: 10,
        temperature: 1000,
        elo: 299,
    },
    Level {
        nodes: 30,
        lines: 30,
        temperature: 300,
        elo: 442,
    },
    Level {
        nodes: 100,
        lines: 3,
        temperature: 150,
        elo: 652,
    },
    Level {
        nodes: 300,
        lines: 3,
        temperature: 100,
        elo: 820,
    },
    Level {
        nodes: 1_000,
        lines: 3,
        temperature: 50,
        elo: 1030,
    },
    Level {
        nodes: 3_000,
        lines: 2,
        temperature: 20,
        elo: 1325,
    },
];
