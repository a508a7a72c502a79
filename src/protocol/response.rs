//! What the engine sends back: one [`Response`] is one output line.

use std::fmt;

use crate::search::{Score, SearchInfo};

use super::command::Dialect;
use super::error::ProtocolError;

/// Longest error message sent; longer ones (a huge bad token) are cut in the middle.
const MAX_ERROR_LENGTH: usize = 300;

/// One line of output.
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    /// `id name <name>`.
    IdName(String),
    /// `id author <author>`.
    IdAuthor(String),
    /// An `option name ...` line of the handshake.
    OptionLine(String),
    /// `ugiok` | `uciok`.
    HandshakeDone(Dialect),
    ReadyOk,
    /// A search progress line, `info depth ...`.
    Info(SearchInfo),
    /// `info string <text>`.
    InfoString(String),
    /// `info string error: <error>`.
    Error(ProtocolError),
    /// `bestmove <move>`, `bestmove 0000` when there is none.
    BestMove(Option<String>),
    /// `bestmove <move> ponder <reply>` (with the `Ponder` option on).
    BestMoveAndPonder {
        best: String,
        ponder: String,
    },
    /// `response <word> ...`: the answer to `query`.
    Answer(Vec<String>),
    /// A plain text line (`d`, `perft`, `help`, `eval`, `bench`).
    Text(String),
}

impl Response {
    /// `info string <text>`.
    pub fn info_string(text: impl Into<String>) -> Self {
        Response::InfoString(text.into())
    }

    /// A one-word answer: `response <word>`.
    pub fn answer(word: impl Into<String>) -> Self {
        Response::Answer(vec![word.into()])
    }
}

impl From<ProtocolError> for Response {
    fn from(error: ProtocolError) -> Self {
        Response::Error(error)
    }
}

/// `text` with control characters escaped, so a reply is always one printable line.
pub fn printable(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `text` cut to about `limit` characters, keeping both ends.
fn shortened(text: &str, limit: usize) -> String {
    let count = text.chars().count();
    if count <= limit {
        return text.to_string();
    }
    let keep = limit / 2;
    let head: String = text.chars().take(keep).collect();
    let tail: String = text.chars().skip(count - keep).collect();
    format!("{head}...{tail}")
}

fn write_score(f: &mut fmt::Formatter<'_>, score: Score) -> fmt::Result {
    match score {
        Score::Centipawns(value) => write!(f, " score cp {value}"),
        Score::Mate(moves) => write!(f, " score mate {moves}"),
    }
}

fn write_info(f: &mut fmt::Formatter<'_>, info: &SearchInfo) -> fmt::Result {
    let only_text = info.depth.is_none() && info.score.is_none() && info.pv.is_empty();
    if let (true, Some(text)) = (only_text, &info.string) {
        return write!(f, "info string {}", printable(text));
    }
    f.write_str("info")?;
    if let Some(depth) = info.depth {
        write!(f, " depth {depth}")?;
    }
    if let Some(seldepth) = info.seldepth {
        write!(f, " seldepth {seldepth}")?;
    }
    if let Some(rank) = info.multipv {
        write!(f, " multipv {rank}")?;
    }
    if let Some(score) = info.score {
        write_score(f, score)?;
    }
    write!(
        f,
        " nodes {} nps {} time {}",
        info.nodes, info.nps, info.time_ms
    )?;
    if let Some(hashfull) = info.hashfull {
        write!(f, " hashfull {hashfull}")?;
    }
    if !info.pv.is_empty() {
        write!(f, " pv {}", printable(&info.pv.join(" ")))?;
    }
    if let Some(text) = &info.string {
        write!(f, " string {}", printable(text))?;
    }
    Ok(())
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::IdName(name) => write!(f, "id name {name}"),
            Response::IdAuthor(author) => write!(f, "id author {author}"),
            Response::OptionLine(line) => f.write_str(line),
            Response::HandshakeDone(Dialect::Ugi) => f.write_str("ugiok"),
            Response::HandshakeDone(Dialect::Uci) => f.write_str("uciok"),
            Response::ReadyOk => f.write_str("readyok"),
            Response::Info(info) => write_info(f, info),
            Response::InfoString(text) => write!(f, "info string {}", printable(text)),
            Response::Error(error) => write!(
                f,
                "info string error: {}",
                printable(&shortened(&error.to_string(), MAX_ERROR_LENGTH))
            ),
            Response::BestMove(Some(text)) => write!(f, "bestmove {}", printable(text)),
            Response::BestMove(None) => f.write_str("bestmove 0000"),
            Response::BestMoveAndPonder { best, ponder } => write!(
                f,
                "bestmove {} ponder {}",
                printable(best),
                printable(ponder)
            ),
            Response::Answer(words) if words.is_empty() => f.write_str("response"),
            Response::Answer(words) => write!(f, "response {}", printable(&words.join(" "))),
            Response::Text(text) => f.write_str(&printable(text)),
        }
    }
}
