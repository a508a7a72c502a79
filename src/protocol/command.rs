//! The commands a client can send, as data (the parser's table of command words is in
//! [`super::parse`]).

use std::time::Instant;

use crate::search::SearchLimits;

use super::error::ProtocolError;

/// Which handshake the client used: it only decides the word that ends the reply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `ugi`, answered with `ugiok`.
    Ugi,
    /// `uci`, answered with `uciok`.
    Uci,
}

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    /// The variant's start position (`startpos`).
    StartPosition,
    /// A position string (`fen ...`): the tokens up to `moves`, joined by single spaces.
    Text(String),
}

/// What `query` asks about.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// `response true|false`.
    GameOver,
    /// `response true|false`: is player 1 to move.
    Player1Turn,
    /// `response p1win|p2win|draw|none`.
    Result,
    /// `response` and every legal move, sorted by text.
    Moves,
    /// `response <p1> <p2>`: the rule score.
    Score,
    /// `response <position string>`.
    Position,
    /// `response <variant name>`.
    Variant,
}

impl Query {
    /// Every query with its protocol word, in the order `help` lists them.
    pub const ALL: [(&'static str, Query); 7] = [
        ("gameover", Query::GameOver),
        ("p1turn", Query::Player1Turn),
        ("result", Query::Result),
        ("moves", Query::Moves),
        ("score", Query::Score),
        ("fen", Query::Position),
        ("variant", Query::Variant),
    ];
}

/// One parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A blank line: no reply.
    Empty,
    /// `ugi` | `uci`.
    Hello(Dialect),
    IsReady,
    /// `setoption name <name> [value <value>]`; checked against the option table later.
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `uginewgame` | `ucinewgame`.
    NewGame,
    /// `position startpos|fen <string> [moves ...]`.
    Position {
        start: PositionStart,
        moves: Vec<String>,
    },
    Go(SearchLimits),
    /// `ponderhit`, with when its line arrived (the `go ponder` clock starts there).
    PonderHit {
        received: Option<Instant>,
    },
    Stop,
    Query(Query),
    /// `d` | `show`.
    Show,
    Perft(u32),
    Divide(u32),
    Bench,
    Eval,
    Help,
    Quit,
    /// A line that could not be parsed: answered with an error line.
    Invalid(ProtocolError),
}

impl Command {
    /// The command word, for messages and logs.
    pub fn word(&self) -> &'static str {
        match self {
            Command::Empty => "",
            Command::Hello(Dialect::Ugi) => "ugi",
            Command::Hello(Dialect::Uci) => "uci",
            Command::IsReady => "isready",
            Command::SetOption { .. } => "setoption",
            Command::NewGame => "uginewgame",
            Command::Position { .. } => "position",
            Command::Go(_) => "go",
            Command::PonderHit { .. } => "ponderhit",
            Command::Stop => "stop",
            Command::Query(_) => "query",
            Command::Show => "d",
            Command::Perft(_) => "perft",
            Command::Divide(_) => "divide",
            Command::Bench => "bench",
            Command::Eval => "eval",
            Command::Help => "help",
            Command::Quit => "quit",
            Command::Invalid(_) => "invalid",
        }
    }
}
