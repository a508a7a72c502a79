//! The facts of the two checkers games: Kruzno on side 6 only, hex checkers on sides 4 to
//! 9 (9 by default); neither has parameters; scores count men.

use crate::game::facts::{BoardShape, GameFacts, ScoreUnits};

pub static KRUZNO: GameFacts = GameFacts {
    name: "kruzno",
    title: "Kruzno",
    // Kruzno is played on side 6; a position string may still give another side.
    sizes: 6..=6,
    board: BoardShape::Hex,
    default_size: 6,
    parameters: &[],
    score_units: ScoreUnits::Hundredths("men"),
};

pub static HEX_CHECKERS: GameFacts = GameFacts {
    name: "hexcheckers",
    title: "Hex checkers",
    sizes: 4..=9,
    board: BoardShape::Hex,
    default_size: 9,
    parameters: &[],
    score_units: ScoreUnits::Hundredths("men"),
};
