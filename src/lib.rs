//! Tessera: a headless engine for four abstract games (Cheversi, Kruzno Checkers, hex
//! checkers, Catchup) speaking a UGI/UCI-style text protocol.
//!
//! Architecture, bottom up:
//! - [`board`]: hex geometry and bitsets shared by the hex games.
//! - [`game`]: the [`game::Rules`] trait and one module per game; [`game::AnyGame`] picks
//!   a game at run time and speaks in move and position text.
//! - [`perft`]: move-path counting, the check of every move generator.
//! - [`eval`] and [`search`]: static evaluation per game; alpha-beta and MCTS written once,
//!   generic over the rules.
//! - [`protocol`]: the UGI/UCI loop (parse with nom, a session state machine, thin I/O).
//! - [`arena`]: the match runner, with the rules library as referee.
//! - [`picture`]: SVG pictures of positions (`tessera render`) shared with the report page.
//! - [`report`]: `tessera report`, one HTML page (summary, plots, games, replay) from records.
//! - [`gui`]: `tessera gui`, a local web server and page that drive engines over the protocol.
//! - [`bench`](mod@bench): the fixed node signature.
//! - [`solve`]: `tessera solve`, exact values (Catchup's small boards, Cheversi), with
//!   checkpoints and checkable proofs.
//!
//! The contributor guide is the [`docs`] module: the architecture, how search and solve
//! work, how to add a game, how to measure a change, and the commit form.
//!
//! Glossary: *ply* = one move of one side; *position string* = the FEN-like text of
//! each game (protocol.md's appendices); *cell* = a hex board location, stored as a bit of the padded layout
//! ([`board::hex`]); *bulk counting* = counting the last ply's moves without playing them.

pub mod arena;
pub mod bench;
pub mod board;
pub mod docs;
pub mod engine;
pub mod eval;
pub mod game;
pub mod gui;
pub mod perft;
pub mod picture;
pub mod protocol;
pub mod random;
pub mod report;
pub mod search;
pub mod solve;

/// Prints a subcommand's answer, one line each on stdout (a closed pipe ends the output
/// quietly), or its error on stderr; gives the exit status.
pub fn print_lines<E: std::fmt::Display>(result: Result<Vec<String>, E>) -> std::process::ExitCode {
    use std::io::Write;
    match result {
        Ok(lines) => {
            let mut stdout = std::io::stdout().lock();
            for line in lines {
                if writeln!(stdout, "{line}").is_err() {
                    break;
                }
            }
            std::process::ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
