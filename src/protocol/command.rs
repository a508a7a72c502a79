//! The commands a client can send, as data, and the table that both the parser and
//! `help` are generated from (so the two can never drift apart).

use crate::search::SearchLimits;

use super::error::ProtocolError;
use super::parse;

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
        parse: parse::hello,
    },
    CommandSpec {
        words: &["uci"],
        arguments: "",
        summary: "the same, ending with uciok",
        parse: parse::hello_uci,
    },
    CommandSpec {
        words: &["isready"],
        arguments: "",
        summary: "answer readyok at once, whatever runs or waits",
        parse: parse::is_ready,
    },
    CommandSpec {
        words: &["setoption"],
        arguments: "name <name> value <value>",
        summary: "set an engine option (names are case-insensitive)",
        parse: parse::set_option,
    },
    CommandSpec {
        words: &["uginewgame", "ucinewgame"],
        arguments: "",
        summary: "forget search tables and histories",
        parse: parse::new_game,
    },
    CommandSpec {
        words: &["position"],
        arguments: "startpos | fen <position string> [moves <move> ...]",
        summary: "set the position; on any error nothing changes",
        parse: parse::position,
    },
    CommandSpec {
        words: &["go"],
        arguments: "[p1time|wtime <ms>] [p2time|btime <ms>] [p1inc|winc <ms>] [p2inc|binc <ms>] \
                    [movestogo <n>] [movetime <ms>] [depth <n>] [nodes <n>] [infinite]",
        summary: "search the position, then send bestmove",
        parse: parse::go,
    },
    CommandSpec {
        words: &["stop"],
        arguments: "",
        summary: "end the running search, perft, divide or bench (and those waiting)",
        parse: parse::stop,
    },
    CommandSpec {
        words: &["query"],
        arguments: "gameover | p1turn | result | moves | score | fen | variant",
        summary: "ask about the position; the reply starts with response",
        parse: parse::query,
    },
    CommandSpec {
        words: &["d", "show"],
        arguments: "",
        summary: "draw the board, with position string, side to move and rule score",
        parse: parse::show,
    },
    CommandSpec {
        words: &["perft"],
        arguments: "<depth>",
        summary: "count move paths of this length from the position",
        parse: parse::perft,
    },
    CommandSpec {
        words: &["divide"],
        arguments: "<depth>",
        summary: "perft split by first move, one move: count line per move",
        parse: parse::divide,
    },
    CommandSpec {
        words: &["bench"],
        arguments: "",
        summary: "run the fixed search benchmark (node signature)",
        parse: parse::bench,
    },
    CommandSpec {
        words: &["eval"],
        arguments: "",
        summary: "show the static evaluation of the position",
        parse: parse::eval,
    },
    CommandSpec {
        words: &["help"],
        arguments: "",
        summary: "list the commands",
        parse: parse::help,
    },
    CommandSpec {
        words: &["quit"],
        arguments: "",
        summary: "stop any search and exit",
        parse: parse::quit,
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
