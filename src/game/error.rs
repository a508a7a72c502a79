//! Typed errors for move and position strings.
//!
//! Every error names the offending token and a reason, so the protocol can answer
//! `info string error: <reason> (<token>)` without guessing.

use thiserror::Error;

/// Why a move string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("empty move")]
    Empty,
    #[error("malformed move: {reason} ({token})")]
    Syntax { token: String, reason: String },
    #[error("unknown piece letter '{letter}' ({token})")]
    UnknownPiece { token: String, letter: char },
    #[error("not a square on this board ({token})")]
    OffBoard { token: String },
    #[error("square is occupied ({token})")]
    Occupied { token: String },
    #[error("no such piece in hand ({token})")]
    NotInHand { token: String },
    #[error("cell listed twice ({token})")]
    Duplicate { token: String },
    #[error("{given} stones given but at most {allowed} allowed ({token})")]
    TooManyStones {
        token: String,
        given: usize,
        allowed: usize,
    },
    #[error("ambiguous move, {count} legal moves match ({token})")]
    Ambiguous { token: String, count: usize },
    #[error("illegal move: {reason} ({token})")]
    Illegal { token: String, reason: String },
    #[error("the game is over ({token})")]
    GameOver { token: String },
}

impl MoveError {
    /// The token the error is about (empty for [`MoveError::Empty`]).
    pub fn token(&self) -> &str {
        match self {
            MoveError::Empty => "",
            MoveError::Syntax { token, .. }
            | MoveError::UnknownPiece { token, .. }
            | MoveError::OffBoard { token }
            | MoveError::Occupied { token }
            | MoveError::NotInHand { token }
            | MoveError::Duplicate { token }
            | MoveError::TooManyStones { token, .. }
            | MoveError::Ambiguous { token, .. }
            | MoveError::Illegal { token, .. }
            | MoveError::GameOver { token } => token,
        }
    }

    /// Shorthand for the most common rejection: well-formed but against a rule.
    pub fn illegal(token: &str, reason: impl Into<String>) -> Self {
        MoveError::Illegal {
            token: token.to_string(),
            reason: reason.into(),
        }
    }

    /// Shorthand for a malformed move string.
    pub fn syntax(token: &str, reason: impl Into<String>) -> Self {
        MoveError::Syntax {
            token: token.to_string(),
            reason: reason.into(),
        }
    }
}

/// Why a position string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("empty position string")]
    Empty,
    #[error("expected {expected} fields, found {found} ({token})")]
    FieldCount {
        token: String,
        expected: usize,
        found: usize,
    },
    #[error("malformed position: {reason} ({token})")]
    Syntax { token: String, reason: String },
    #[error("unknown piece letter '{letter}' ({token})")]
    UnknownPiece { token: String, letter: char },
    #[error("board side {side} not supported, expected {min} to {max} ({token})")]
    BoardSize {
        token: String,
        side: usize,
        min: usize,
        max: usize,
    },
    #[error("row has {found} cells, expected {expected} ({token})")]
    RowLength {
        token: String,
        expected: usize,
        found: usize,
    },
    #[error("side to move must be 'w' or 'b' ({token})")]
    SideToMove { token: String },
    #[error("piece counts contradict the side to move ({token})")]
    CountsContradictSide { token: String },
    #[error("too many pieces: {reason} ({token})")]
    TooManyPieces { token: String, reason: String },
    #[error("cell listed twice ({token})")]
    Duplicate { token: String },
    #[error("not a cell on this board ({token})")]
    OffBoard { token: String },
    #[error("bad number: {reason} ({token})")]
    Number { token: String, reason: String },
    #[error("position breaks a rule: {reason} ({token})")]
    Rule { token: String, reason: String },
    /// The game itself cannot be set up here (an added game where only the built-in ones
    /// can be); the token names the game.
    #[error("cannot set up this game: {reason} ({token})")]
    Game { token: String, reason: String },
}

impl PositionError {
    /// The token the error is about (empty for [`PositionError::Empty`]).
    pub fn token(&self) -> &str {
        match self {
            PositionError::Empty => "",
            PositionError::FieldCount { token, .. }
            | PositionError::Syntax { token, .. }
            | PositionError::UnknownPiece { token, .. }
            | PositionError::BoardSize { token, .. }
            | PositionError::RowLength { token, .. }
            | PositionError::SideToMove { token }
            | PositionError::CountsContradictSide { token }
            | PositionError::TooManyPieces { token, .. }
            | PositionError::Duplicate { token }
            | PositionError::OffBoard { token }
            | PositionError::Number { token, .. }
            | PositionError::Rule { token, .. }
            | PositionError::Game { token, .. } => token,
        }
    }

    /// Shorthand for a position that is well-formed but breaks a rule.
    pub fn rule(token: &str, reason: impl Into<String>) -> Self {
        PositionError::Rule {
            token: token.to_string(),
            reason: reason.into(),
        }
    }

    /// Shorthand for a malformed position string.
    pub fn syntax(token: &str, reason: impl Into<String>) -> Self {
        PositionError::Syntax {
            token: token.to_string(),
            reason: reason.into(),
        }
    }
}
