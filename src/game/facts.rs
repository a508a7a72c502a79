//! What is known of a game before any position exists: its names, the board sides it is
//! played on, its parameters and what its engine's scores mean.
//!
//! Each game states its facts once, next to its rules (`cheversi::FACTS`,
//! `checkers::KRUZNO`, ...); everything that lists games or checks a configuration (the
//! command line, the protocol's options, the match runner, the GUI page) reads them from
//! there, through [`Variant::facts`](super::Variant::facts).

use std::ops::RangeInclusive;

/// The facts of one game.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct GameFacts {
    /// The protocol name: the `UCI_Variant` value, `--variant` on the command line, the
    /// `variant` of match records. Lower case, one word.
    pub name: &'static str,
    /// The name people read ("Hex checkers").
    pub title: &'static str,
    /// The board sides the game is played on (the `BoardSize` option, `--size`).
    pub sizes: RangeInclusive<usize>,
    /// The side used when none is chosen.
    pub default_size: usize,
    /// The board's shape, as `d` draws it from the position string.
    pub board: BoardShape,
    /// The game's parameters, each set by a protocol option of its own.
    pub parameters: &'static [GameParameter],
    /// What a `score cp N` of the engine means in this game.
    pub score_units: ScoreUnits,
    /// The engine's strength levels (`UCI_LimitStrength`), weakest first, each with its
    /// measured Elo; empty for a game without levels (it then always plays at full
    /// strength).
    pub levels: &'static [Level],
}

impl GameFacts {
    /// "side 8 only" or "sides 4 to 9", as error messages say it.
    pub fn sizes_text(&self) -> String {
        if self.sizes.start() == self.sizes.end() {
            format!("side {} only", self.sizes.start())
        } else {
            format!("sides {} to {}", self.sizes.start(), self.sizes.end())
        }
    }

    /// The parameter set by the protocol option `option` (case-insensitive), if the game
    /// has one.
    pub fn parameter(&self, option: &str) -> Option<&'static GameParameter> {
        self.parameters
            .iter()
            .find(|parameter| parameter.option.eq_ignore_ascii_case(option))
    }
}

/// A parameter of a game: one choice among named values, fixed for the whole game (as
/// Catchup's rule for the third stone).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct GameParameter {
    /// The protocol option that sets it (`CatchupRule`).
    pub option: &'static str,
    /// Its command-line flag without the dashes (`rule` for `--rule`).
    pub flag: &'static str,
    /// What it is, for people ("Catchup rule").
    pub title: &'static str,
    /// Its values; the first is the default.
    pub values: &'static [&'static str],
}

impl GameParameter {
    /// The value in force when none is chosen (the first of [`GameParameter::values`]).
    pub fn default_value(&self) -> &'static str {
        self.values.first().copied().unwrap_or_default()
    }

    /// The value named `text` (case-insensitive), as the parameter spells it.
    pub fn value(&self, text: &str) -> Option<&'static str> {
        self.values
            .iter()
            .copied()
            .find(|value| value.eq_ignore_ascii_case(text))
    }

    /// [`GameParameter::value`], or an error naming `text` and the values.
    pub fn parse(&self, text: &str) -> Result<&'static str, String> {
        self.value(text).ok_or_else(|| {
            format!(
                "unknown {}, expected {} ({text})",
                self.title,
                either_of(self.values)
            )
        })
    }
}

/// `a`, `a or b`, `a, b or c`: alternatives as a sentence says them.
pub fn either_of(words: &[&str]) -> String {
    listed(words, "or")
}

/// `a`, `a and b`, `a, b and c` (with `conjunction` for `and`).
pub fn listed(words: &[&str], conjunction: &str) -> String {
    match words {
        [] => String::new(),
        [only] => only.to_string(),
        [init @ .., last] => format!("{} {conjunction} {last}", init.join(", ")),
    }
}

/// One strength level of a game's engine (`UCI_LimitStrength`): how much it searches
/// (a node budget, so that it plays alike on a fast or a slow machine), among how many of
/// the best moves it picks (`lines`; 0 for every legal move) and how freely (a softmax
/// temperature in the game's centi-units: a move `temperature` worse than the best is
/// drawn `e` times less often), with the Elo measured for it on the scale where the
/// uniformly random mover is 0 (`scripts/matches/ladder.py`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Level {
    pub nodes: u64,
    pub lines: u32,
    pub temperature: u32,
    pub elo: u32,
}

/// A board's shape. The first field of the game's position string lists its rows,
/// separated by `/`, with pieces as letters and runs of empty cells as digits.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoardShape {
    /// The 8x8 board, rank 8 first.
    Square,
    /// A hexhex board ([`crate::board::hex`]), its last row first.
    Hex,
}

/// What the engine's `score cp N` measures in a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScoreUnits {
    /// 100 per unit of the rule score's lead; the unit's name in the plural ("men").
    Hundredths(&'static str),
    /// The logistic scale of the search's win rate `w`: `cp = 400 log10(w / (1 - w))`.
    WinRate,
}

/// Most parameters a configuration holds values for (over every game of a registry).
pub const MAX_PARAMETERS: usize = 8;

/// The values chosen for game parameters, by option name. A parameter without a value
/// here takes its game's default; a value for a parameter the game does not have is kept
/// but unused (the protocol's `CatchupRule` may be set before `UCI_Variant`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ParameterValues {
    chosen: [Option<(&'static str, &'static str)>; MAX_PARAMETERS],
}

impl ParameterValues {
    /// The value chosen for the option `option` (case-insensitive), if any.
    pub fn get(&self, option: &str) -> Option<&'static str> {
        self.chosen
            .iter()
            .flatten()
            .find(|(name, _)| name.eq_ignore_ascii_case(option))
            .map(|&(_, value)| value)
    }

    /// Chooses `value` for `parameter` (replacing an earlier choice). The default value
    /// is kept as no choice, so two configurations that play alike compare equal. False
    /// when [`MAX_PARAMETERS`] other parameters already have values.
    pub fn set(&mut self, parameter: &'static GameParameter, value: &'static str) -> bool {
        let same = |entry: &Option<(&str, &str)>| matches!(entry, Some((name, _)) if name.eq_ignore_ascii_case(parameter.option));
        let known = self.chosen.iter().position(same);
        if value == parameter.default_value() {
            if let Some(index) = known {
                self.chosen[index] = None;
            }
            return true;
        }
        match known.or_else(|| self.chosen.iter().position(Option::is_none)) {
            Some(index) => {
                self.chosen[index] = Some((parameter.option, value));
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{GameParameter, ParameterValues};

    static SHAPE: GameParameter = GameParameter {
        option: "Shape",
        flag: "shape",
        title: "Shape",
        values: &["round", "square"],
    };

    #[test]
    fn chosen_values_replace_and_read_back_case_insensitively() {
        let mut values = ParameterValues::default();
        assert_eq!(values.get("shape"), None);
        assert!(values.set(&SHAPE, "square"));
        assert_eq!(values.get("SHAPE"), Some("square"));
        // The default is no choice: the same values as never choosing.
        assert!(values.set(&SHAPE, "round"));
        assert_eq!(values, ParameterValues::default());
        assert_eq!(SHAPE.default_value(), "round");
        assert_eq!(SHAPE.value("Square"), Some("square"));
        assert_eq!(SHAPE.value("oval"), None);
        assert_eq!(
            SHAPE.parse("oval"),
            Err("unknown Shape, expected round or square (oval)".to_string())
        );
    }
}
