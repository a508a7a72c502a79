//! Won endings taken from real games: every position of a recorded hexcheckers game
//! whose material the tables cover and that they show won for the side to move, with
//! the game's own counter counted. `tessera endings --from-games` prints them as a suite
//! (an openings book for `tessera match`).

use super::{EndingTables, Value};
use crate::game::checkers::LargeCheckers;
use crate::game::{GameConfig, Player, Rules, Variant};

/// One recorded game: where it started and the moves played.
pub struct RecordedGame<'a> {
    /// A name for error lines and the suite's comments (file and game number).
    pub name: String,
    /// A position string, or `startpos` (or empty) for the start position.
    pub start: &'a str,
    /// Every move from `start`: the opening's, then the engines'.
    pub moves: Vec<String>,
}

/// A won position found in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnding {
    /// The position string, counter as played.
    pub position: String,
    /// The side to move's men, the other side's.
    pub material: (usize, usize),
    /// Plies to the converting capture, at most the plies the counter leaves.
    pub plies: u8,
    pub game: String,
    /// Plies played in the game before it.
    pub ply: usize,
}

/// The won positions of `games` (side `side`): the first `per_game` of each game (later
/// ones of the same game follow from them), each once. An error names a game whose start or move does not read.
pub fn won_positions_in_games(
    tables: &EndingTables,
    side: usize,
    games: &[RecordedGame<'_>],
    per_game: usize,
) -> Result<Vec<GameEnding>, String> {
    let config = GameConfig {
        size: Some(side),
        ..GameConfig::new(Variant::HexCheckers)
    };
    let mut found: Vec<GameEnding> = Vec::new();
    for game in games {
        let start = if game.start.is_empty() || game.start == "startpos" {
            LargeCheckers::start(&config)
        } else {
            LargeCheckers::from_position_text(game.start, &config)
        };
        let mut position =
            start.map_err(|error| format!("{}: start position: {error}", game.name))?;
        let mut taken = 0;
        for ply in 0..=game.moves.len() {
            if taken < per_game
                && let Some(Value::Win(plies)) = tables.value(&position)
            {
                // A position another game reached already counts for this game too
                // (a colour-swapped pair of equal engines plays the same game twice).
                taken += 1;
                let text = position.position_text();
                if !found.iter().any(|ending| ending.position == text) {
                    let mover = position.side_to_move();
                    let count = |player: Player| position.men(player).len() as usize;
                    found.push(GameEnding {
                        position: text,
                        material: (count(mover), count(mover.opponent())),
                        plies,
                        game: game.name.clone(),
                        ply,
                    });
                }
            }
            let Some(text) = game.moves.get(ply) else {
                break;
            };
            let mv = position
                .parse_move(text)
                .map_err(|error| format!("{}: move {} {text}: {error}", game.name, ply + 1))?;
            position
                .play(mv)
                .map_err(|error| format!("{}: move {} {text}: {error}", game.name, ply + 1))?;
        }
    }
    Ok(found)
}
