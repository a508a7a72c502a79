//! Cheversi's facts: the 8x8 board only, no parameters, scores in points.

use crate::game::facts::{BoardShape, GameFacts, Level, ScoreUnits};

pub static FACTS: GameFacts = GameFacts {
    name: "cheversi",
    title: "Cheversi",
    sizes: 8..=8,
    board: BoardShape::Square,
    default_size: 8,
    parameters: &[],
    score_units: ScoreUnits::Hundredths("points"),
    levels: &LEVELS,
};

/// Cheversi's strength levels: the node budget, lines and temperature of each level, weakest
/// first, and its Elo measured by `python3 scripts/matches/ladder.py --variant cheversi --levels 5`
/// (the uniformly random mover is 0).
pub static LEVELS: [Level; 5] = [
    Level {
        nodes: 200,
        lines: 0,
        temperature: 400,
        elo: 326,
    },
    Level {
        nodes: 300,
        lines: 0,
        temperature: 250,
        elo: 415,
    },
    Level {
        nodes: 1_000,
        lines: 0,
        temperature: 150,
        elo: 569,
    },
    Level {
        nodes: 4_000,
        lines: 4,
        temperature: 80,
        elo: 915,
    },
    Level {
        nodes: 10_000,
        lines: 4,
        temperature: 40,
        elo: 1015,
    },
];
