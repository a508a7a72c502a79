//! The facts of the two checkers games: Kruzno on side 6 only, hex checkers on sides 4 to
//! 9 (9 by default); neither has parameters; scores count men.

use crate::game::facts::{BoardShape, GameFacts, Level, ScoreUnits};

pub static KRUZNO: GameFacts = GameFacts {
    name: "kruzno",
    title: "Kruzno",
    // Kruzno is played on side 6; a position string may still give another side.
    sizes: 6..=6,
    board: BoardShape::Hex,
    default_size: 6,
    parameters: &[],
    score_units: ScoreUnits::Hundredths("men"),
    levels: &KRUZNO_LEVELS,
};

pub static HEX_CHECKERS: GameFacts = GameFacts {
    name: "hexcheckers",
    title: "Hex checkers",
    sizes: 4..=9,
    board: BoardShape::Hex,
    default_size: 9,
    parameters: &[],
    score_units: ScoreUnits::Hundredths("men"),
    levels: &HEX_CHECKERS_LEVELS,
};

/// Kruzno's strength levels: the node budget, lines and temperature of each level, weakest
/// first, and its Elo measured by `python3 scripts/matches/ladder.py --variant kruzno --levels 6`
/// (the uniformly random mover is 0). Level 1 searches one ply and draws among every move at
/// a temperature above even a proven result's value: it plays as `random` does (14 ± 30),
/// the weakest the draw allows. `greedy` plays as `random` does too (captures are
/// compulsory), so the two are even.
pub static KRUZNO_LEVELS: [Level; 6] = [
    Level {
        nodes: 1,
        lines: 0,
        temperature: 3_000_000,
        elo: 14,
    },
    Level {
        nodes: 300,
        lines: 0,
        temperature: 1000,
        elo: 167,
    },
    Level {
        nodes: 300,
        lines: 3,
        temperature: 30,
        elo: 380,
    },
    Level {
        nodes: 3_000,
        lines: 3,
        temperature: 10,
        elo: 634,
    },
    Level {
        nodes: 6_000,
        lines: 3,
        temperature: 5,
        elo: 767,
    },
    Level {
        nodes: 12_000,
        lines: 3,
        temperature: 2,
        elo: 913,
    },
];

/// Hex checkers' strength levels (measured on side 5, used on every side): the node budget, lines and temperature of each level, weakest
/// first, and its Elo measured by `python3 scripts/matches/ladder.py --variant hexcheckers --size 5 --levels 7`
/// (the uniformly random mover is 0). Level 1 searches one ply and draws among every move at a
/// temperature above even a proven result's value: it plays as `random` does (measured
/// -23 ± 46 against it, so 0 here) and loses to `greedy`, the weakest the draw allows.
pub static HEX_CHECKERS_LEVELS: [Level; 7] = [
    Level {
        nodes: 1,
        lines: 0,
        temperature: 3_000_000,
        elo: 0,
    },
    Level {
        nodes: 50,
        lines: 0,
        temperature: 3000,
        elo: 218,
    },
    Level {
        nodes: 300,
        lines: 0,
        temperature: 1000,
        elo: 359,
    },
    Level {
        nodes: 300,
        lines: 0,
        temperature: 300,
        elo: 584,
    },
    Level {
        nodes: 300,
        lines: 0,
        temperature: 100,
        elo: 742,
    },
    Level {
        nodes: 3_000,
        lines: 3,
        temperature: 20,
        elo: 1036,
    },
    Level {
        nodes: 20_000,
        lines: 3,
        temperature: 5,
        elo: 1269,
    },
];
