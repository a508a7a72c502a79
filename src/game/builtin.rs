//! The record of a built-in game as one enum, [`GameKind`], for code that runs one
//! generic function on whichever built-in game it holds (`with_record!`): bench, the
//! solver's front end, the tests. The registry's entries of the built-in games set their
//! games up through it, so the choice of a checkers board's word count lives here once.

use super::catchup::Catchup;
use super::checkers::{LargeCheckers, SmallCheckers};
use super::cheversi::Cheversi;
use super::{GameConfig, GameRecord, PositionError, Rules, Variant};

/// The concrete game of a built-in variant: one arm per rules type.
// A Catchup position is about 1 KB of fixed arrays (cheap copy-make for search); boxing
// would only add an indirection to every `with_record!` use.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum GameKind {
    Cheversi(GameRecord<Cheversi>),
    /// Kruzno and hex checkers on sides 4 to 6.
    Checkers(GameRecord<SmallCheckers>),
    /// Hex checkers (or Kruzno from a position string) on sides 7 to 9.
    LargeCheckers(GameRecord<LargeCheckers>),
    Catchup(GameRecord<Catchup>),
}

/// Runs `$body` with `$record` bound to the concrete [`GameRecord`], whatever the game.
#[macro_export]
macro_rules! with_record {
    ($kind:expr, $record:ident => $body:expr) => {
        match $kind {
            $crate::game::builtin::GameKind::Cheversi($record) => $body,
            $crate::game::builtin::GameKind::Checkers($record) => $body,
            $crate::game::builtin::GameKind::LargeCheckers($record) => $body,
            $crate::game::builtin::GameKind::Catchup($record) => $body,
        }
    };
}

/// The error for a game this enum does not hold (an added one).
fn not_builtin(config: &GameConfig) -> PositionError {
    PositionError::Game {
        token: config.variant.name().to_string(),
        reason: "not a built-in game".to_string(),
    }
}

impl GameKind {
    /// The start position of a built-in game.
    pub fn new(config: &GameConfig) -> Result<Self, PositionError> {
        Ok(match config.variant {
            Variant::Cheversi => GameKind::Cheversi(GameRecord::new(Cheversi::start(config)?)),
            Variant::Kruzno | Variant::HexCheckers if config.board_size() <= 6 => {
                GameKind::Checkers(GameRecord::new(SmallCheckers::start(config)?))
            }
            Variant::Kruzno | Variant::HexCheckers => {
                GameKind::LargeCheckers(GameRecord::new(LargeCheckers::start(config)?))
            }
            Variant::Catchup => GameKind::Catchup(GameRecord::new(Catchup::start(config)?)),
            Variant::Added(_) => return Err(not_builtin(config)),
        })
    }

    /// A built-in game set up from a position string (a new history starts there).
    pub fn from_position_text(config: &GameConfig, text: &str) -> Result<Self, PositionError> {
        Ok(match config.variant {
            Variant::Cheversi => {
                GameKind::Cheversi(GameRecord::new(Cheversi::from_position_text(text, config)?))
            }
            // The row count fixes the side, so it picks the set width.
            Variant::Kruzno | Variant::HexCheckers
                if super::checkers::position_side(text).is_none_or(|side| side <= 6) =>
            {
                GameKind::Checkers(GameRecord::new(SmallCheckers::from_position_text(
                    text, config,
                )?))
            }
            Variant::Kruzno | Variant::HexCheckers => GameKind::LargeCheckers(GameRecord::new(
                LargeCheckers::from_position_text(text, config)?,
            )),
            Variant::Catchup => {
                GameKind::Catchup(GameRecord::new(Catchup::from_position_text(text, config)?))
            }
            Variant::Added(_) => return Err(not_builtin(config)),
        })
    }

    /// The current position's string.
    pub fn position_text(&self) -> String {
        with_record!(self, record => record.position().position_text())
    }
}
