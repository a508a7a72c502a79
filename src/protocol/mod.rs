//! The UGI/UCI protocol: what clients send on stdin and what the engine answers.
//!
//! Layers, each usable alone:
//! - [`command`]: the [`Command`] enum;
//! - [`parse`]: the command table (parser and `help` read it) and nom parsers, one line to
//!   one command, never a panic;
//! - [`options`]: the option table behind the handshake and `setoption`;
//! - [`response`]: one [`Response`] per output line;
//! - [`session`]: the state machine, commands in, responses and jobs out, no I/O;
//! - [`job`]: search, perft and bench as work for another thread;
//! - [`io`]: the thin stdin/stdout loop with a reader thread and a worker thread;
//! - [`script`]: a synchronous driver for tests and scripts;
//! - [`board_text`]: the board as text for `d`.
//!
//! The normative description is `protocol.md`.

pub mod board_text;
pub mod command;
pub mod error;
pub mod io;
pub mod job;
pub mod options;
pub mod parse;
pub mod response;
pub mod script;
pub mod session;

pub use command::{Command, Dialect, PositionStart, Query};
pub use error::ProtocolError;
pub use io::{run, run_session, run_stdio};
pub use response::Response;
pub use script::ScriptRunner;
pub use session::{Session, Step};
