//! Cheversi's facts: the 8x8 board only, no parameters, scores in points.

use crate::game::facts::{BoardShape, GameFacts, ScoreUnits};

pub static FACTS: GameFacts = GameFacts {
    name: "cheversi",
    title: "Cheversi",
    sizes: 8..=8,
    board: BoardShape::Square,
    default_size: 8,
    parameters: &[],
    score_units: ScoreUnits::Hundredths("points"),
};
