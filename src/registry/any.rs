//! A game of any registered game, chosen at run time, speaking in move and position text:
//! what the protocol session, the match runner's referee and the GUI hold. It is set up
//! through [`GameKind`](crate::game::GameKind) (a built-in game) or its registry entry
//! ([`GameEntry`](super::GameEntry), an added game), and reaches the concrete game
//! through [`PlayedGame`].

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::engine::Engine;
use crate::game::{GameConfig, GameRecord, MoveError, Outcome, Player, PositionError, Variant};
use crate::perft::PerftRoot;
use crate::search::{SearchInfo, SearchLimits};

use super::entry;
use super::played::{PlayedGame, SearchResult};

/// A game record of any game plus the configuration that made it.
#[derive(Debug)]
pub struct AnyGame {
    config: GameConfig,
    game: Box<dyn PlayedGame>,
}

impl Clone for AnyGame {
    fn clone(&self) -> Self {
        AnyGame {
            config: self.config,
            game: self.game.clone_box(),
        }
    }
}

impl AnyGame {
    /// The start position of a configuration; the board size must be one the game is
    /// played on.
    pub fn new(config: GameConfig) -> Result<Self, PositionError> {
        let side = config.board_size();
        let range = &config.variant.facts().sizes;
        if !range.contains(&side) {
            return Err(PositionError::BoardSize {
                token: side.to_string(),
                side,
                min: *range.start(),
                max: *range.end(),
            });
        }
        let game = entry::start(&config)?;
        Ok(AnyGame { config, game })
    }

    /// A game set up from a position string (a new history starts there).
    pub fn from_position_text(config: GameConfig, text: &str) -> Result<Self, PositionError> {
        let game = entry::from_position_text(&config, text)?;
        Ok(AnyGame { config, game })
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    pub fn variant(&self) -> Variant {
        self.config.variant
    }

    /// The record, when the game is played with the rules type `R` (the pictures and
    /// the GUI read a built-in game's own state through this).
    pub fn record<R: crate::game::Rules>(&self) -> Option<&GameRecord<R>> {
        self.game.as_any().downcast_ref::<GameRecord<R>>()
    }

    pub fn side_to_move(&self) -> Player {
        self.game.side_to_move()
    }

    /// The result, repetition included; `None` while the game runs.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The rule score `[player 1, player 2]`.
    pub fn score(&self) -> [i32; 2] {
        self.game.score()
    }

    pub fn position_text(&self) -> String {
        self.game.position_text()
    }

    /// The position string the game started from.
    pub fn start_position_text(&self) -> String {
        self.game.start_position_text()
    }

    pub fn hash(&self) -> u64 {
        self.game.hash()
    }

    /// Number of moves played since the start position.
    pub fn ply_count(&self) -> usize {
        self.game.ply_count()
    }

    /// Every legal move's canonical text, sorted by text.
    pub fn legal_move_texts(&self) -> Vec<String> {
        self.game.legal_move_texts()
    }

    /// The canonical texts of the moves played so far.
    pub fn played_move_texts(&self) -> Vec<String> {
        self.game.played_move_texts()
    }

    /// Parses, checks and plays a move; returns its canonical text. On error nothing
    /// changes.
    pub fn play_text(&mut self, text: &str) -> Result<String, MoveError> {
        self.game.play_text(text)
    }

    /// Canonical form of a legal move string, without playing it.
    pub fn canonical_move_text(&self, text: &str) -> Result<String, MoveError> {
        let mut copy = self.clone();
        copy.play_text(text)
    }

    /// The current position with its history, as perft counts it.
    pub fn perft_root(&self) -> &dyn PerftRoot {
        self.game.perft_root()
    }

    /// perft from the current position (its history counts); `bulk` counts the last
    /// ply without playing it.
    pub fn perft(&self, depth: u32, bulk: bool) -> u64 {
        self.perft_root().perft(depth, bulk)
    }

    /// Searches the current position with `engine` until a limit is reached or `stop`
    /// becomes true, calling `report` for progress. Returns the best move (`None` only
    /// when the game is over).
    pub fn search(
        &self,
        engine: &mut Engine,
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchInfo),
    ) -> SearchResult {
        let started = Instant::now();
        let result = self.game.search(engine, limits, stop, report);
        log::debug!("search finished in {:?}", started.elapsed());
        result
    }

    /// The static evaluation with its terms, as `eval` prints it (one line per term).
    pub fn evaluation_text(&self) -> Vec<String> {
        self.game.evaluation_text()
    }
}
