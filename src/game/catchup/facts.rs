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
/// (the uniformly random mover is 0). Level 1 draws among every root child at a temperature
/// of a proven result's value, with a budget that visits each of them on side 5 (a smaller one
/// visits only the children the search orders first, better than a random move), the weakest
/// the draw allows; the pull towards proven results still makes it stronger than `random`.
pub static LEVELS: [Level; 7] = [
    Level {
        nodes: 1_000,
        lines: 0,
        temperature: 1_000_000,
        elo: 241,
    },
    Level {
        nodes: 10,
        lines: 0,
        temperature: 1000,
        elo: 345,
    },
    Level {
        nodes: 30,
        lines: 0,
        temperature: 300,
        elo: 488,
    },
    Level {
        nodes: 100,
        lines: 3,
        temperature: 150,
        elo: 698,
    },
    Level {
        nodes: 300,
        lines: 3,
        temperature: 100,
        elo: 866,
    },
    Level {
        nodes: 1_000,
        lines: 3,
        temperature: 50,
        elo: 1076,
    },
    Level {
        nodes: 3_000,
        lines: 2,
        temperature: 20,
        elo: 1370,
    },
];
