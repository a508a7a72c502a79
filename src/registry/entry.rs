//! A registry entry: an added game's facts and the functions that set it up as an
//! [`AnyGame`](super::AnyGame). A game added from outside the crate (a test's game)
//! writes its own, usually with [`GameEntry::of`], and [`Variant::Added`] names it. The
//! built-in games need none: [`GameKind`] sets them up (see [`start`]).

use std::any::Any;

use crate::engine::EngineGame;
use crate::game::{AddedGame, GameConfig, GameFacts, GameKind, GameRecord, PositionError, Variant};
use crate::with_record;

use super::played::PlayedGame;

/// A game's setup as functions of a configuration.
pub type StartFn = fn(&GameConfig) -> Result<Box<dyn PlayedGame>, PositionError>;
/// A game's setup from a position string.
pub type PositionFn = fn(&GameConfig, &str) -> Result<Box<dyn PlayedGame>, PositionError>;

/// An added game's entry: its facts, and how its games are set up (each into a record
/// the engine can search; see [`PlayedGame`]).
#[derive(Debug)]
pub struct GameEntry {
    pub facts: &'static GameFacts,
    /// The start position of a configuration (its board size already checked against
    /// the facts).
    pub start: StartFn,
    /// A position string under a configuration (a new history starts there).
    pub from_position_text: PositionFn,
}

impl GameEntry {
    /// The entry of a game played with one rules type, `G`.
    pub const fn of<G: EngineGame>(facts: &'static GameFacts) -> GameEntry {
        GameEntry {
            facts,
            start: start_of::<G>,
            from_position_text: position_of::<G>,
        }
    }
}

impl AddedGame for GameEntry {
    fn facts(&self) -> &'static GameFacts {
        self.facts
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn start_of<G: EngineGame>(config: &GameConfig) -> Result<Box<dyn PlayedGame>, PositionError> {
    Ok(Box::new(GameRecord::new(G::start(config)?)))
}

fn position_of<G: EngineGame>(
    config: &GameConfig,
    text: &str,
) -> Result<Box<dyn PlayedGame>, PositionError> {
    Ok(Box::new(GameRecord::new(G::from_position_text(
        text, config,
    )?)))
}

/// A built-in game's record, boxed.
fn boxed(kind: GameKind) -> Box<dyn PlayedGame> {
    with_record!(kind, record => Box::new(record) as Box<dyn PlayedGame>)
}

/// The entry of an added game; `None` for one added by something else than an entry.
fn entry(game: &dyn AddedGame) -> Result<&GameEntry, PositionError> {
    game.as_any()
        .downcast_ref::<GameEntry>()
        .ok_or_else(|| PositionError::Game {
            token: game.facts().name.to_string(),
            reason: "an added game without a registry entry".to_string(),
        })
}

/// The start position of a configuration's game: a built-in game's through [`GameKind`]
/// (which picks the rules type, a checkers board's word count by its side), an added
/// game's through its entry.
pub fn start(config: &GameConfig) -> Result<Box<dyn PlayedGame>, PositionError> {
    match config.variant {
        Variant::Added(game) => (entry(game)?.start)(config),
        _ => GameKind::new(config).map(boxed),
    }
}

/// A configuration's game set up from a position string, as [`start`] does.
pub fn from_position_text(
    config: &GameConfig,
    text: &str,
) -> Result<Box<dyn PlayedGame>, PositionError> {
    match config.variant {
        Variant::Added(game) => (entry(game)?.from_position_text)(config, text),
        _ => GameKind::from_position_text(config, text).map(boxed),
    }
}
