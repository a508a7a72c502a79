//! Catchup's facts: side 2 to 9 (5 by default), the rule for the third stone as its one
//! parameter, and scores as a win rate (the engine plays it by MCTS).

use crate::game::facts::{BoardShape, GameFacts, GameParameter, ScoreUnits};

use super::rule::CatchupRule;

pub static FACTS: GameFacts = GameFacts {
    name: "catchup",
    title: "Catchup",
    sizes: 2..=9,
    board: BoardShape::Hex,
    default_size: 5,
    parameters: &[RULE_PARAMETER],
    score_units: ScoreUnits::WinRate,
};

/// The parameter that picks the rule for the third stone ([`CatchupRule`]).
const RULE_PARAMETER: GameParameter = GameParameter {
    option: CatchupRule::OPTION,
    flag: "rule",
    title: "Catchup rule",
    values: &CatchupRule::NAMES,
};
