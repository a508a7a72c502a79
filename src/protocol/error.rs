//! Everything the protocol can reject, each naming the offending token.
//!
//! The session answers every error with one line, `info string error: <message>`, where
//! the message ends with the token in parentheses; the engine keeps running.

use thiserror::Error;

use crate::game::{MoveError, PositionError};

/// Why a line, or the command on it, was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProtocolError {
    #[error("unknown command ({token})")]
    UnknownCommand { token: String },
    #[error("{what} ({token})")]
    Syntax { what: String, token: String },
    #[error("missing {what} ({after})")]
    Missing { what: String, after: String },
    #[error("bad number for {keyword}: {reason} ({token})")]
    Number {
        keyword: String,
        token: String,
        reason: String,
    },
    #[error("line is not valid UTF-8 (byte {offset})")]
    InvalidUtf8 { offset: usize },
    #[error("line too long, the limit is {limit} bytes ({length} bytes)")]
    LineTooLong { length: usize, limit: usize },
    #[error("unknown option ({name})")]
    UnknownOption { name: String },
    #[error("bad value for option {name}: {reason} ({value})")]
    OptionValue {
        name: String,
        value: String,
        reason: String,
    },
    #[error("unknown query, expected {expected} ({token})")]
    UnknownQuery { token: String, expected: String },
    #[error("bad position string: {0}")]
    Position(PositionError),
    #[error("bad move at ply {ply}: {error}")]
    Move { ply: usize, error: MoveError },
    #[error("a search is running, send stop first ({command})")]
    SearchRunning { command: String },
    #[error("no go ponder search is running ({command})")]
    NotPondering { command: String },
    #[error("internal error, the {job} failed ({message})")]
    JobFailed { job: String, message: String },
    #[error("too many commands waiting for the running job, the limit is {limit} ({command})")]
    QueueFull { command: String, limit: usize },
}

impl ProtocolError {
    /// A malformed argument: `what` went wrong at `token`.
    pub fn syntax(what: impl Into<String>, token: impl Into<String>) -> Self {
        ProtocolError::Syntax {
            what: what.into(),
            token: token.into(),
        }
    }

    /// An argument is missing after the word `after`.
    pub fn missing(what: impl Into<String>, after: impl Into<String>) -> Self {
        ProtocolError::Missing {
            what: what.into(),
            after: after.into(),
        }
    }
}
