//! A game in play behind a trait object: what the protocol, the match runner and the GUI
//! ask of any game, one call per command. It is implemented once, for the record of every
//! game the engine plays ([`GameRecord`] of an [`EngineGame`]): behind each call the
//! rules, perft and the search run on the concrete type, generic and monomorphised, so
//! the dynamic dispatch never reaches a search's inner loop.

use std::any::Any;
use std::fmt::Debug;
use std::sync::atomic::AtomicBool;

use crate::engine::{Engine, EngineGame};
use crate::game::{GameRecord, MoveError, Outcome, Player};
use crate::perft::PerftRoot;
use crate::search::alphabeta::pv_text;
use crate::search::{Score, SearchInfo, SearchLimits};

/// The result of a search by text (`AnyGame::search`): the move to play as text (`None` only when the
/// game is over) and its score.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub best_move: Option<String>,
    /// The reply expected to it, for `bestmove ... ponder` (`None` when the principal
    /// variation has no second move).
    pub ponder: Option<String>,
    pub score: Option<Score>,
}

/// A game record of any game, speaking in move and position text.
pub trait PlayedGame: Debug + Send + Sync {
    /// A copy of the record.
    fn clone_box(&self) -> Box<dyn PlayedGame>;
    /// The record behind the object, for code that knows a built-in game's type (the
    /// pictures, the GUI's move entry).
    fn as_any(&self) -> &dyn Any;
    fn side_to_move(&self) -> Player;
    /// The result, repetition included; `None` while the game runs.
    fn outcome(&self) -> Option<Outcome>;
    /// The rule score `[player 1, player 2]`.
    fn score(&self) -> [i32; 2];
    fn position_text(&self) -> String;
    /// The position string the game started from.
    fn start_position_text(&self) -> String;
    fn hash(&self) -> u64;
    /// Moves played since the start position.
    fn ply_count(&self) -> usize;
    /// Every legal move's canonical text, sorted.
    fn legal_move_texts(&self) -> Vec<String>;
    /// The canonical texts of the moves played so far.
    fn played_move_texts(&self) -> Vec<String>;
    /// Parses, checks and plays a move; its canonical text. On error nothing changes.
    fn play_text(&mut self, text: &str) -> Result<String, MoveError>;
    /// The record as perft counts it.
    fn perft_root(&self) -> &dyn PerftRoot;
    /// Searches the current position with `engine` (see [`Engine::search_record`]).
    fn search(
        &self,
        engine: &mut Engine,
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchInfo),
    ) -> SearchResult;
    /// The static evaluation with its terms, one line each, as `eval` prints it.
    fn evaluation_text(&self) -> Vec<String>;
}

impl<G: EngineGame> PlayedGame for GameRecord<G> {
    fn clone_box(&self) -> Box<dyn PlayedGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn side_to_move(&self) -> Player {
        GameRecord::side_to_move(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        GameRecord::outcome(self)
    }

    fn score(&self) -> [i32; 2] {
        self.position().score()
    }

    fn position_text(&self) -> String {
        self.position().position_text()
    }

    fn start_position_text(&self) -> String {
        self.start().position_text()
    }

    fn hash(&self) -> u64 {
        self.position().hash()
    }

    fn ply_count(&self) -> usize {
        self.moves().len()
    }

    fn legal_move_texts(&self) -> Vec<String> {
        GameRecord::legal_move_texts(self)
    }

    fn played_move_texts(&self) -> Vec<String> {
        GameRecord::played_move_texts(self)
    }

    fn play_text(&mut self, text: &str) -> Result<String, MoveError> {
        self.play_move_text(text)
    }

    fn perft_root(&self) -> &dyn PerftRoot {
        self
    }

    fn search(
        &self,
        engine: &mut Engine,
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchInfo),
    ) -> SearchResult {
        let found = engine.search_record(self, limits, stop, report);
        let position = self.position();
        // Played out from the position: a reply that is no legal move after the best one
        // is left out.
        let ponder = found
            .best_move
            .zip(found.ponder)
            .and_then(|(best, reply)| pv_text(position, &[best, reply]).into_iter().nth(1));
        SearchResult {
            best_move: found.best_move.map(|mv| position.move_text(mv)),
            ponder,
            score: found.score,
        }
    }

    fn evaluation_text(&self) -> Vec<String> {
        let position = self.position();
        let (terms, total) = position.evaluation_report();
        let mut lines: Vec<String> = terms
            .into_iter()
            .map(|(name, value)| format!("{name} {value}"))
            .collect();
        let mover = match position.side_to_move() {
            Player::One => "p1",
            Player::Two => "p2",
        };
        lines.push(format!("total {total} (side to move {mover})"));
        lines
    }
}
