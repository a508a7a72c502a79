//! A registry entry: a game's facts and the functions that set it up as an [`AnyGame`].
//! The four built-in games have one each here; a game added from outside the crate (a
//! test's game) writes its own, usually with [`GameEntry::of`], and its
//! [`Variant::Added`] names it.

use std::any::Any;

use crate::engine::EngineGame;
use crate::game::{
    AddedGame, GameConfig, GameFacts, GameKind, GameRecord, PositionError, Variant, catchup,
    checkers, cheversi,
};
use crate::with_record;

use super::played::PlayedGame;

/// A game's setup as functions of a configuration.
pub type StartFn = fn(&GameConfig) -> Result<Box<dyn PlayedGame>, PositionError>;
/// A game's setup from a position string.
pub type PositionFn = fn(&GameConfig, &str) -> Result<Box<dyn PlayedGame>, PositionError>;

/// One game of a registry: its facts, and how its games are set up (each into a record
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

    /// The entry of a game: a built-in one's, or the added game's own. `None` only for a
    /// game added by something other than a registry entry.
    pub fn find(variant: Variant) -> Option<&'static GameEntry> {
        match variant {
            Variant::Cheversi => Some(&CHEVERSI),
            Variant::Kruzno => Some(&KRUZNO),
            Variant::HexCheckers => Some(&HEX_CHECKERS),
            Variant::Catchup => Some(&CATCHUP),
            Variant::Added(game) => game.as_any().downcast_ref::<GameEntry>(),
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

/// The built-in games' setup: through [`GameKind`], which picks the rules type (the
/// checkers board's word count by its side).
fn builtin_start(config: &GameConfig) -> Result<Box<dyn PlayedGame>, PositionError> {
    GameKind::new(config).map(boxed)
}

fn builtin_position(config: &GameConfig, text: &str) -> Result<Box<dyn PlayedGame>, PositionError> {
    GameKind::from_position_text(config, text).map(boxed)
}

const fn builtin(facts: &'static GameFacts) -> GameEntry {
    GameEntry {
        facts,
        start: builtin_start,
        from_position_text: builtin_position,
    }
}

static CHEVERSI: GameEntry = builtin(&cheversi::FACTS);
static KRUZNO: GameEntry = builtin(&checkers::KRUZNO);
static HEX_CHECKERS: GameEntry = builtin(&checkers::HEX_CHECKERS);
static CATCHUP: GameEntry = builtin(&catchup::FACTS);
