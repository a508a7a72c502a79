//! A game of any variant, chosen at run time, speaking in move and position text.
//!
//! The protocol session and the match runner hold an [`AnyGame`]; search and perft are
//! generic and reach the concrete game through [`AnyGame::kind`] (`with_record!`).

use super::catchup::Catchup;
use super::checkers::{LargeCheckers, SmallCheckers};
use super::cheversi::Cheversi;
use super::{GameConfig, GameRecord, MoveError, Outcome, Player, PositionError, Rules, Variant};

/// The concrete game behind an [`AnyGame`]: one arm per rules module.
// A Catchup position is about 1 KB of fixed arrays (cheap copy-make for search); a game
// holds one `GameKind`, so boxing would only add an indirection to every `with_record!` use.
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
            $crate::game::any::GameKind::Cheversi($record) => $body,
            $crate::game::any::GameKind::Checkers($record) => $body,
            $crate::game::any::GameKind::LargeCheckers($record) => $body,
            $crate::game::any::GameKind::Catchup($record) => $body,
        }
    };
}

/// A game record of any variant plus the configuration that made it.
#[derive(Clone, Debug)]
pub struct AnyGame {
    config: GameConfig,
    kind: GameKind,
}

impl AnyGame {
    /// The start position of a configuration; the board size must be one the variant is
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
        let kind = match config.variant {
            Variant::Cheversi => GameKind::Cheversi(GameRecord::new(Cheversi::start(&config)?)),
            Variant::Kruzno | Variant::HexCheckers if config.board_size() <= 6 => {
                GameKind::Checkers(GameRecord::new(SmallCheckers::start(&config)?))
            }
            Variant::Kruzno | Variant::HexCheckers => {
                GameKind::LargeCheckers(GameRecord::new(LargeCheckers::start(&config)?))
            }
            Variant::Catchup => GameKind::Catchup(GameRecord::new(Catchup::start(&config)?)),
        };
        Ok(AnyGame { config, kind })
    }

    /// A game set up from a position string (a new history starts there).
    pub fn from_position_text(config: GameConfig, text: &str) -> Result<Self, PositionError> {
        let kind = match config.variant {
            Variant::Cheversi => GameKind::Cheversi(GameRecord::new(Cheversi::from_position_text(
                text, &config,
            )?)),
            // The row count fixes the side, so it picks the set width.
            Variant::Kruzno | Variant::HexCheckers
                if super::checkers::position_side(text).is_none_or(|side| side <= 6) =>
            {
                GameKind::Checkers(GameRecord::new(SmallCheckers::from_position_text(
                    text, &config,
                )?))
            }
            Variant::Kruzno | Variant::HexCheckers => GameKind::LargeCheckers(GameRecord::new(
                LargeCheckers::from_position_text(text, &config)?,
            )),
            Variant::Catchup => {
                GameKind::Catchup(GameRecord::new(Catchup::from_position_text(text, &config)?))
            }
        };
        Ok(AnyGame { config, kind })
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    pub fn variant(&self) -> Variant {
        self.config.variant
    }

    pub fn kind(&self) -> &GameKind {
        &self.kind
    }

    pub fn side_to_move(&self) -> Player {
        with_record!(&self.kind, record => record.side_to_move())
    }

    /// The result, repetition included; `None` while the game runs.
    pub fn outcome(&self) -> Option<Outcome> {
        with_record!(&self.kind, record => record.outcome())
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The rule score `[player 1, player 2]`.
    pub fn score(&self) -> [i32; 2] {
        with_record!(&self.kind, record => record.position().score())
    }

    pub fn position_text(&self) -> String {
        with_record!(&self.kind, record => record.position().position_text())
    }

    /// The position string the game started from.
    pub fn start_position_text(&self) -> String {
        with_record!(&self.kind, record => record.start().position_text())
    }

    pub fn hash(&self) -> u64 {
        with_record!(&self.kind, record => record.position().hash())
    }

    /// Number of moves played since the start position.
    pub fn ply_count(&self) -> usize {
        with_record!(&self.kind, record => record.moves().len())
    }

    /// Every legal move's canonical text, sorted by text.
    pub fn legal_move_texts(&self) -> Vec<String> {
        with_record!(&self.kind, record => {
            let mut moves = Vec::new();
            record.legal_moves(&mut moves);
            let position = record.position();
            let mut texts: Vec<String> =
                moves.into_iter().map(|mv| position.move_text(mv)).collect();
            texts.sort();
            texts
        })
    }

    /// The canonical texts of the moves played so far.
    pub fn played_move_texts(&self) -> Vec<String> {
        with_record!(&self.kind, record => {
            let mut position = record.start().clone();
            record
                .moves()
                .iter()
                .map(|&mv| {
                    let text = position.move_text(mv);
                    position.play_unchecked(mv);
                    text
                })
                .collect()
        })
    }

    /// Parses, checks and plays a move; returns its canonical text. On error nothing
    /// changes.
    pub fn play_text(&mut self, text: &str) -> Result<String, MoveError> {
        with_record!(&mut self.kind, record => {
            let before = record.position().clone();
            let mv = record.play_text(text)?;
            Ok(before.move_text(mv))
        })
    }

    /// Canonical form of a legal move string, without playing it.
    pub fn canonical_move_text(&self, text: &str) -> Result<String, MoveError> {
        let mut copy = self.clone();
        copy.play_text(text)
    }
}
