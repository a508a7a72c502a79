//! nom parsers: one input line becomes one [`Command`]. Nothing here can fail loudly:
//! a line that does not parse becomes [`Command::Invalid`] naming the bad token. The
//! command table ([`COMMANDS`]) gives each command word its argument parser and its
//! `help` line, so the parser and `help` can never drift apart.
//!
//! Tokens are separated by any run of whitespace (spaces, tabs, a trailing `\r`).
//! Command words, keywords and option names are case-insensitive; moves and position
//! strings are passed on exactly as written.

use std::sync::Arc;
use std::time::Duration;

use nom::branch::alt;
use nom::bytes::complete::{take_till1, take_while};
use nom::character::complete::{char, digit1};
use nom::combinator::{all_consuming, opt, recognize};
use nom::sequence::preceded;
use nom::{IResult, Parser};

use crate::search::{PonderClock, SearchLimits};

use super::command::{Command, Dialect, PositionStart, Query};
use super::error::ProtocolError;

/// Deepest `go depth` accepted.
pub const MAX_SEARCH_DEPTH: u32 = 255;
/// Deepest `perft` / `divide` accepted.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Parses the arguments after a command word (the text after the word, untrimmed).
pub type ArgumentParser = fn(&str) -> Result<Command, ProtocolError>;

/// One row of the command table.
pub struct CommandSpec {
    /// The words that start this command (the first is the main one).
    pub words: &'static [&'static str],
    /// Arguments as `help` shows them.
    pub arguments: &'static str,
    /// One line for `help`.
    pub summary: &'static str,
    pub parse: ArgumentParser,
}

/// Every command, in the order `help` lists them.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        words: &["ugi"],
        arguments: "",
        summary: "identify the engine and list its options, then ugiok",
        parse: hello,
    },
    CommandSpec {
        words: &["uci"],
        arguments: "",
        summary: "the same, ending with uciok",
        parse: hello_uci,
    },
    CommandSpec {
        words: &["isready"],
        arguments: "",
        summary: "answer readyok at once, whatever runs or waits",
        parse: is_ready,
    },
    CommandSpec {
        words: &["setoption"],
        arguments: "name <name> value <value>",
        summary: "set an engine option (names are case-insensitive)",
        parse: set_option,
    },
    CommandSpec {
        words: &["uginewgame", "ucinewgame"],
        arguments: "",
        summary: "forget search tables and histories",
        parse: new_game,
    },
    CommandSpec {
        words: &["position"],
        arguments: "startpos | fen <position string> [moves <move> ...]",
        summary: "set the position; on any error nothing changes",
        parse: position,
    },
    CommandSpec {
        words: &["go"],
        arguments: "[p1time|wtime <ms>] [p2time|btime <ms>] [p1inc|winc <ms>] [p2inc|binc <ms>] \
                    [movestogo <n>] [movetime <ms>] [depth <n>] [nodes <n>] [infinite] [ponder]",
        summary: "search the position, then send bestmove",
        parse: go,
    },
    CommandSpec {
        words: &["ponderhit"],
        arguments: "",
        summary: "the expected move was played: the go ponder search goes on as a timed one",
        parse: ponder_hit,
    },
    CommandSpec {
        words: &["stop"],
        arguments: "",
        summary: "end the running search, perft, divide or bench (and those waiting)",
        parse: stop,
    },
    CommandSpec {
        words: &["query"],
        arguments: "gameover | p1turn | result | moves | score | fen | variant",
        summary: "ask about the position; the reply starts with response",
        parse: query,
    },
    CommandSpec {
        words: &["d", "show"],
        arguments: "",
        summary: "draw the board, with position string, side to move and rule score",
        parse: show,
    },
    CommandSpec {
        words: &["perft"],
        arguments: "<depth>",
        summary: "count move paths of this length from the position",
        parse: perft,
    },
    CommandSpec {
        words: &["divide"],
        arguments: "<depth>",
        summary: "perft split by first move, one move: count line per move",
        parse: divide,
    },
    CommandSpec {
        words: &["bench"],
        arguments: "",
        summary: "run the fixed search benchmark (node signature)",
        parse: bench,
    },
    CommandSpec {
        words: &["eval"],
        arguments: "",
        summary: "show the static evaluation of the position",
        parse: eval,
    },
    CommandSpec {
        words: &["help"],
        arguments: "",
        summary: "list the commands",
        parse: help,
    },
    CommandSpec {
        words: &["quit"],
        arguments: "",
        summary: "stop any search and exit",
        parse: quit,
    },
];

/// The command whose word is `word` (case-insensitive).
pub fn lookup(word: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|spec| {
        spec.words
            .iter()
            .any(|candidate| candidate.eq_ignore_ascii_case(word))
    })
}

/// The `help` text: one line per command, generated from [`COMMANDS`].
pub fn help_lines() -> Vec<String> {
    let mut lines = vec!["Commands (one per line; unknown input gets an error line):".to_string()];
    for spec in COMMANDS {
        let words = spec.words.join(" | ");
        let usage = if spec.arguments.is_empty() {
            words
        } else {
            format!("{words} {}", spec.arguments)
        };
        lines.push(format!("  {usage}"));
        lines.push(format!("      {}", spec.summary));
    }
    lines
}

/// Parses one line (without its line break).
pub fn parse_line(line: &str) -> Command {
    match word(line) {
        Err(_) => Command::Empty,
        Ok((rest, head)) => match lookup(head) {
            Some(spec) => (spec.parse)(rest).unwrap_or_else(Command::Invalid),
            None => Command::Invalid(ProtocolError::UnknownCommand {
                token: head.to_string(),
            }),
        },
    }
}

/// Whitespace, possibly none.
fn space(input: &str) -> IResult<&str, &str> {
    take_while(char::is_whitespace).parse(input)
}

/// The next token, skipping whitespace before it.
fn word(input: &str) -> IResult<&str, &str> {
    preceded(space, take_till1(char::is_whitespace)).parse(input)
}

/// The next token and the text after it, or `None` at the end of the line.
fn next_word(input: &str) -> Option<(&str, &str)> {
    word(input).ok().map(|(rest, token)| (token, rest))
}

/// Every remaining token.
fn words(mut input: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    while let Some((token, rest)) = next_word(input) {
        tokens.push(token);
        input = rest;
    }
    tokens
}

/// An optionally signed decimal integer, nothing else.
fn integer(input: &str) -> IResult<&str, &str> {
    all_consuming(recognize((opt(alt((char('-'), char('+')))), digit1))).parse(input)
}

/// Parses a signed integer token, naming `keyword` in errors.
fn signed(keyword: &str, token: &str) -> Result<i128, ProtocolError> {
    let number_error = |reason: &str| ProtocolError::Number {
        keyword: keyword.to_string(),
        token: token.to_string(),
        reason: reason.to_string(),
    };
    let (_, digits) = integer(token).map_err(|_| number_error("not an integer"))?;
    digits
        .parse::<i128>()
        .map_err(|_| number_error("out of range"))
}

/// Parses an integer token that must lie in `low..=high`.
fn bounded(keyword: &str, token: &str, low: u64, high: u64) -> Result<u64, ProtocolError> {
    let value = signed(keyword, token)?;
    if value < i128::from(low) || value > i128::from(high) {
        return Err(ProtocolError::Number {
            keyword: keyword.to_string(),
            token: token.to_string(),
            reason: format!("out of range, expected {low} to {high}"),
        });
    }
    u64::try_from(value).map_err(|_| ProtocolError::Number {
        keyword: keyword.to_string(),
        token: token.to_string(),
        reason: "out of range".to_string(),
    })
}

/// A time in milliseconds; negative values (sent by some interfaces after a flag fall)
/// count as zero.
fn milliseconds(keyword: &str, token: &str) -> Result<Duration, ProtocolError> {
    let value = signed(keyword, token)?;
    let millis = u64::try_from(value.max(0)).map_err(|_| ProtocolError::Number {
        keyword: keyword.to_string(),
        token: token.to_string(),
        reason: "out of range".to_string(),
    })?;
    Ok(Duration::from_millis(millis))
}

/// The token after `keyword`, which must be there.
fn argument<'a>(keyword: &str, rest: &'a str) -> Result<(&'a str, &'a str), ProtocolError> {
    next_word(rest).ok_or_else(|| ProtocolError::missing("argument", keyword))
}

fn log_ignored(command: &str, rest: &str) {
    let extra = words(rest);
    if !extra.is_empty() {
        log::debug!("{command}: ignoring extra tokens {extra:?}");
    }
}

/// A command without arguments; extra tokens are ignored (and logged).
fn bare(command: &'static str, value: Command) -> impl Fn(&str) -> Result<Command, ProtocolError> {
    move |rest| {
        log_ignored(command, rest);
        Ok(value.clone())
    }
}

pub(super) fn hello(rest: &str) -> Result<Command, ProtocolError> {
    bare("ugi", Command::Hello(Dialect::Ugi))(rest)
}

pub(super) fn hello_uci(rest: &str) -> Result<Command, ProtocolError> {
    bare("uci", Command::Hello(Dialect::Uci))(rest)
}

pub(super) fn is_ready(rest: &str) -> Result<Command, ProtocolError> {
    bare("isready", Command::IsReady)(rest)
}

pub(super) fn new_game(rest: &str) -> Result<Command, ProtocolError> {
    bare("uginewgame", Command::NewGame)(rest)
}

pub(super) fn ponder_hit(rest: &str) -> Result<Command, ProtocolError> {
    bare("ponderhit", Command::PonderHit { received: None })(rest)
}

pub(super) fn stop(rest: &str) -> Result<Command, ProtocolError> {
    bare("stop", Command::Stop)(rest)
}

pub(super) fn show(rest: &str) -> Result<Command, ProtocolError> {
    bare("d", Command::Show)(rest)
}

pub(super) fn bench(rest: &str) -> Result<Command, ProtocolError> {
    bare("bench", Command::Bench)(rest)
}

pub(super) fn eval(rest: &str) -> Result<Command, ProtocolError> {
    bare("eval", Command::Eval)(rest)
}

pub(super) fn help(rest: &str) -> Result<Command, ProtocolError> {
    bare("help", Command::Help)(rest)
}

pub(super) fn quit(rest: &str) -> Result<Command, ProtocolError> {
    bare("quit", Command::Quit)(rest)
}

/// `setoption name <name> [value <value>]`: the name runs up to the word `value`; the
/// value is everything after it, inner spaces kept.
pub(super) fn set_option(rest: &str) -> Result<Command, ProtocolError> {
    let (keyword, mut rest) =
        next_word(rest).ok_or_else(|| ProtocolError::missing("name", "setoption"))?;
    if !keyword.eq_ignore_ascii_case("name") {
        return Err(ProtocolError::syntax("expected name", keyword));
    }
    let mut name_words = Vec::new();
    let mut value = None;
    while let Some((token, after)) = next_word(rest) {
        if token.eq_ignore_ascii_case("value") {
            let text = after.trim();
            value = (!text.is_empty()).then(|| text.to_string());
            break;
        }
        name_words.push(token);
        rest = after;
    }
    if name_words.is_empty() {
        return Err(ProtocolError::missing("option name", "name"));
    }
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

/// `position startpos [moves ...]` | `position fen <string> [moves ...]`.
pub(super) fn position(rest: &str) -> Result<Command, ProtocolError> {
    let (kind, rest) =
        next_word(rest).ok_or_else(|| ProtocolError::missing("startpos or fen", "position"))?;
    let tokens = words(rest);
    let moves_at = tokens
        .iter()
        .position(|token| token.eq_ignore_ascii_case("moves"));
    let (before, moves) = match moves_at {
        Some(index) => (&tokens[..index], &tokens[index + 1..]),
        None => (&tokens[..], &tokens[tokens.len()..]),
    };
    let start = if kind.eq_ignore_ascii_case("startpos") {
        if let Some(extra) = before.first() {
            return Err(ProtocolError::syntax("expected moves", *extra));
        }
        PositionStart::StartPosition
    } else if kind.eq_ignore_ascii_case("fen") {
        if before.is_empty() {
            return Err(ProtocolError::missing("position string", "fen"));
        }
        PositionStart::Text(before.join(" "))
    } else {
        return Err(ProtocolError::syntax("expected startpos or fen", kind));
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|token| token.to_string()).collect(),
    })
}

/// What a `go` keyword sets.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum GoKeyword {
    /// A player's remaining time (index 0 for player 1).
    Time(usize),
    /// A player's increment.
    Increment(usize),
    MovesToGo,
    MoveTime,
    Depth,
    Nodes,
    Infinite,
    Ponder,
}

/// Every `go` keyword (case-insensitive), the one table the parser reads: a token not
/// in it is skipped.
const GO_KEYWORDS: [(&str, GoKeyword); 14] = [
    ("p1time", GoKeyword::Time(0)),
    ("wtime", GoKeyword::Time(0)),
    ("p2time", GoKeyword::Time(1)),
    ("btime", GoKeyword::Time(1)),
    ("p1inc", GoKeyword::Increment(0)),
    ("winc", GoKeyword::Increment(0)),
    ("p2inc", GoKeyword::Increment(1)),
    ("binc", GoKeyword::Increment(1)),
    ("movestogo", GoKeyword::MovesToGo),
    ("movetime", GoKeyword::MoveTime),
    ("depth", GoKeyword::Depth),
    ("nodes", GoKeyword::Nodes),
    ("infinite", GoKeyword::Infinite),
    ("ponder", GoKeyword::Ponder),
];

/// `go` with its limits in any order; unknown tokens are skipped.
pub(super) fn go(mut rest: &str) -> Result<Command, ProtocolError> {
    let mut limits = SearchLimits::default();
    while let Some((keyword, after)) = next_word(rest) {
        rest = after;
        let Some(&(_, kind)) = GO_KEYWORDS
            .iter()
            .find(|(word, _)| word.eq_ignore_ascii_case(keyword))
        else {
            log::debug!("go: skipping unknown token {keyword:?}");
            continue;
        };
        if kind == GoKeyword::Infinite {
            limits.infinite = true;
            continue;
        }
        if kind == GoKeyword::Ponder {
            limits.ponder = Some(Arc::new(PonderClock::default()));
            continue;
        }
        let (token, after) = argument(keyword, rest)?;
        rest = after;
        match kind {
            GoKeyword::Time(player) => {
                limits.clock.time[player] = Some(milliseconds(keyword, token)?)
            }
            GoKeyword::Increment(player) => {
                limits.clock.increment[player] = milliseconds(keyword, token)?
            }
            GoKeyword::MoveTime => limits.movetime = Some(milliseconds(keyword, token)?),
            GoKeyword::MovesToGo => {
                let count = bounded(keyword, token, 1, u64::from(u32::MAX))?;
                limits.clock.moves_to_go = u32::try_from(count).ok();
            }
            GoKeyword::Depth => {
                let depth = bounded(keyword, token, 1, u64::from(MAX_SEARCH_DEPTH))?;
                limits.depth = u32::try_from(depth).ok();
            }
            GoKeyword::Nodes => limits.nodes = Some(bounded(keyword, token, 1, u64::MAX)?),
            GoKeyword::Infinite | GoKeyword::Ponder => {} // taken above: no argument
        }
    }
    Ok(Command::Go(limits))
}

/// `query <what>`.
pub(super) fn query(rest: &str) -> Result<Command, ProtocolError> {
    let (token, rest) = argument("query", rest)?;
    log_ignored("query", rest);
    Query::ALL
        .iter()
        .find(|(word, _)| word.eq_ignore_ascii_case(token))
        .map(|&(_, query)| Command::Query(query))
        .ok_or_else(|| ProtocolError::UnknownQuery {
            token: token.to_string(),
            expected: Query::ALL
                .iter()
                .map(|(word, _)| *word)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

fn depth_argument(keyword: &str, rest: &str) -> Result<u32, ProtocolError> {
    let (token, rest) = argument(keyword, rest)?;
    log_ignored(keyword, rest);
    let depth = bounded(keyword, token, 0, u64::from(MAX_PERFT_DEPTH))?;
    u32::try_from(depth).map_err(|_| ProtocolError::syntax("depth out of range", token))
}

pub(super) fn perft(rest: &str) -> Result<Command, ProtocolError> {
    depth_argument("perft", rest).map(Command::Perft)
}

pub(super) fn divide(rest: &str) -> Result<Command, ProtocolError> {
    depth_argument("divide", rest).map(Command::Divide)
}

#[cfg(test)]
mod tests;
