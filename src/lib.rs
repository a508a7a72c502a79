//! Tessera: a headless engine for four abstract games (Cheversi, Kruzno Checkers, hex
//! checkers, Catchup) speaking a UGI/UCI-style text protocol.
//!
//! # Layers
//!
//! The rooms of the crate, bottom up. A room imports (a `use crate::..` item or a
//! `crate::` path) only from rooms on lower levels; rooms on one level do not import each
//! other. `tests/layers.rs` reads this table and checks every file under `src/` against
//! it, and that no two files import each other in a circle.
//!
//! | level | room | why it sits here |
//! |---|---|---|
//! | 0 | [`random`] | seeded randomness, needing nothing: every room above may draw from it |
//! | 1 | [`board`] | hex geometry and bitsets, shared by the hex games; no rules |
//! | 2 | [`game`] | the [`game::Rules`] trait, one module per game with its facts; [`game::Variant`] names a game, built in or added |
//! | 3 | [`perft`] | move-path counting, the check of every move generator: needs only the rules |
//! | 3 | [`endings`] | hex checkers' exact ending tables: the retrograde solver, its file format and `tessera endings`; needs only the rules |
//! | 3 | [`search`] | alpha-beta and MCTS written once over its own traits: needs only the rules, names no game |
//! | 4 | [`eval`] | each game's evaluation, move hints and playouts: implements the search's traits for the game types |
//! | 5 | [`solve`] | `tessera solve`, exact values; Cheversi's MTD(f) starts from the evaluation search's estimate |
//! | 6 | [`engine`] | options, strategies, Cheversi's exact phase, loaded ending tables: wires each game to its search and solver |
//! | 7 | [`bench`](mod@bench) | the fixed node signature: fixed searches through the engine |
//! | 7 | [`registry`] | the list of games and one entry per game: [`registry::AnyGame`] sets any game up, added ones too, and plays, counts and searches it by text; needs the engine to search |
//! | 8 | [`protocol`] | the UGI/UCI loop (nom parser, session state machine, thin I/O): drives the engine, perft and bench |
//! | 8 | [`picture`] | SVG pictures of positions (`tessera render`), drawn from the rules alone |
//! | 8 | [`arena`] | `tessera match`: talks to engines as processes, the rules library as referee |
//! | 9 | [`report`] | `tessera report`, one HTML page from arena's records, drawn with pictures |
//! | 10 | [`gui`] | `tessera gui`: a web server driving engines through arena's client, with pictures and records |
//! | 11 | [`docs`] | the contributor guide: text only, placed last so it may link anywhere |
//!
//! [`print_lines`] and `main.rs` sit above every room.
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
pub mod endings;
pub mod engine;
pub mod eval;
pub mod game;
pub mod gui;
pub mod perft;
pub mod picture;
pub mod protocol;
pub mod random;
pub mod registry;
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
