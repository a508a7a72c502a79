//! Openings: a book file of position strings (optionally followed by ` moves ...`), used in
//! order or shuffled, and/or a number of seeded random plies. Every opening is checked with
//! the rules library before the match starts, and each one is played as a colour-swapped
//! pair.

use std::path::Path;

use crate::game::GameConfig;
use crate::registry::AnyGame;

use crate::random::SplitMix64;

/// One opening: a position (or the start position) and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Canonical position string, `None` for the variant's start position.
    pub position: Option<String>,
    /// Canonical move texts.
    pub moves: Vec<String>,
}

/// Why an opening could not be used.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    #[error("cannot read openings file {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("openings file line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("openings file has no openings ({0})")]
    Empty(String),
    #[error("no {plies}-ply random opening leaves the game running (pair {pair})")]
    RandomPlies { plies: usize, pair: u64 },
    #[error("opening does not replay: {0}")]
    Replay(String),
}

impl Opening {
    /// The variant's start position.
    pub fn start() -> Self {
        Opening {
            position: None,
            moves: Vec::new(),
        }
    }

    /// Parses and checks one book line; returns the canonical form.
    pub fn parse(text: &str, config: GameConfig) -> Result<Self, String> {
        let text = text.trim();
        let (position, moves) = match text.split_once(" moves") {
            Some((position, moves)) if moves.is_empty() || moves.starts_with(' ') => (
                position.trim(),
                moves.split_whitespace().collect::<Vec<_>>(),
            ),
            _ => (text, Vec::new()),
        };
        let mut game = if position.is_empty() || position == "startpos" {
            AnyGame::new(config).map_err(|error| error.to_string())?
        } else {
            AnyGame::from_position_text(config, position).map_err(|error| error.to_string())?
        };
        let canonical_position =
            (!position.is_empty() && position != "startpos").then(|| game.start_position_text());
        let mut canonical_moves = Vec::with_capacity(moves.len());
        for (ply, text) in moves.iter().enumerate() {
            let canonical = game
                .play_text(text)
                .map_err(|error| format!("opening move {} ({text}): {error}", ply + 1))?;
            canonical_moves.push(canonical);
        }
        if game.is_over() {
            return Err("the game is already over after this opening".to_string());
        }
        Ok(Opening {
            position: canonical_position,
            moves: canonical_moves,
        })
    }

    /// The game after the opening, ready for the engines' first move.
    pub fn replay(&self, config: GameConfig) -> Result<AnyGame, OpeningError> {
        let replay_error = |error: String| OpeningError::Replay(error);
        let mut game = match &self.position {
            Some(text) => AnyGame::from_position_text(config, text),
            None => AnyGame::new(config),
        }
        .map_err(|error| replay_error(error.to_string()))?;
        for text in &self.moves {
            game.play_text(text)
                .map_err(|error| replay_error(error.to_string()))?;
        }
        Ok(game)
    }
}

/// Book order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum BookOrder {
    /// In file order, from the first line (wrapping around).
    #[default]
    Sequential,
    /// A permutation of the file fixed by `--seed`.
    Random,
}

/// Where each pair's opening comes from.
#[derive(Clone, Debug)]
pub struct OpeningBook {
    config: GameConfig,
    entries: Vec<Opening>,
    /// Book index for each position in the play order.
    order: Vec<usize>,
    random_plies: usize,
    seed: u64,
}

impl OpeningBook {
    /// A book of the start position only (plus random plies if asked).
    pub fn start_only(config: GameConfig, random_plies: usize, seed: u64) -> Self {
        OpeningBook {
            config,
            entries: vec![Opening::start()],
            order: vec![0],
            random_plies,
            seed,
        }
    }

    /// Reads and checks every line of a book file (blank lines and `#` comments skipped).
    pub fn from_file(
        path: &Path,
        config: GameConfig,
        order: BookOrder,
        random_plies: usize,
        seed: u64,
    ) -> Result<Self, OpeningError> {
        let text = std::fs::read_to_string(path).map_err(|source| OpeningError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::from_text(&text, config, order, random_plies, seed).map_err(|error| match error {
            OpeningError::Empty(_) => OpeningError::Empty(path.display().to_string()),
            other => other,
        })
    }

    pub fn from_text(
        text: &str,
        config: GameConfig,
        order: BookOrder,
        random_plies: usize,
        seed: u64,
    ) -> Result<Self, OpeningError> {
        let mut entries = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let opening = Opening::parse(line, config).map_err(|reason| OpeningError::Line {
                line: number + 1,
                reason,
            })?;
            entries.push(opening);
        }
        if entries.is_empty() {
            return Err(OpeningError::Empty(String::new()));
        }
        let mut permutation: Vec<usize> = (0..entries.len()).collect();
        if order == BookOrder::Random {
            SplitMix64::new(seed).shuffle(&mut permutation);
        }
        Ok(OpeningBook {
            config,
            entries,
            order: permutation,
            random_plies,
            seed,
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The opening of pair `pair` (a global pair number, so shards differ) and its book
    /// index. Random plies come from a stream of `(seed, pair)` alone.
    pub fn for_pair(&self, pair: u64) -> Result<(usize, Opening), OpeningError> {
        let index = self.order[(pair % self.order.len() as u64) as usize];
        let base = &self.entries[index];
        if self.random_plies == 0 {
            return Ok((index, base.clone()));
        }
        let start = base.replay(self.config)?;
        let mut rng = SplitMix64::for_item(self.seed, pair);
        for _attempt in 0..1000 {
            let mut game = start.clone();
            let mut moves = base.moves.clone();
            let mut finished = false;
            for _ in 0..self.random_plies {
                let legal = game.legal_move_texts();
                if legal.is_empty() {
                    finished = true;
                    break;
                }
                let pick = &legal[rng.below_exact(legal.len() as u64) as usize];
                let canonical = game
                    .play_text(pick)
                    .map_err(|error| OpeningError::Replay(error.to_string()))?;
                moves.push(canonical);
            }
            if !finished && !game.is_over() {
                return Ok((
                    index,
                    Opening {
                        position: base.position.clone(),
                        moves,
                    },
                ));
            }
        }
        Err(OpeningError::RandomPlies {
            plies: self.random_plies,
            pair,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    fn cheversi() -> GameConfig {
        GameConfig::new(Variant::Cheversi)
    }

    const BOOK: &str =
        "# comment\n8/8/8/8/8/8/8/8 w - moves k@e4\n\nstartpos moves Kd4 Qd5\nstartpos\n";

    #[test]
    fn book_lines_are_canonical_and_wrap_in_order() {
        let book =
            OpeningBook::from_text(BOOK, cheversi(), BookOrder::Sequential, 0, 0).expect("valid");
        assert_eq!(book.len(), 3);
        let (index, first) = book.for_pair(0).expect("opening");
        assert_eq!(index, 0);
        assert_eq!(first.position.as_deref(), Some("8/8/8/8/8/8/8/8 w -"));
        assert_eq!(first.moves, ["Ke4"], "moves are stored in canonical text");
        assert_eq!(book.for_pair(1).expect("opening").1.moves, ["Kd4", "Qd5"]);
        assert_eq!(book.for_pair(2).expect("opening").1, Opening::start());
        assert_eq!(book.for_pair(3).expect("opening").0, 0, "wraps around");
    }

    #[test]
    fn random_order_is_a_seeded_permutation() {
        let lines: String = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"]
            .iter()
            .map(|square| format!("startpos moves K{square}\n"))
            .collect();
        let order = |seed| -> Vec<usize> {
            let book = OpeningBook::from_text(&lines, cheversi(), BookOrder::Random, 0, seed)
                .expect("valid");
            (0..8)
                .map(|pair| book.for_pair(pair).expect("opening").0)
                .collect()
        };
        let mut sorted = order(1);
        assert_eq!(order(1), sorted, "same seed, same order");
        assert_ne!(order(1), order(2));
        sorted.sort_unstable();
        assert_eq!(sorted, (0..8).collect::<Vec<_>>());
    }

    #[test]
    fn bad_lines_name_their_line_number() {
        for (text, line) in [
            ("startpos\nstartpos moves Kz9\n", 2),
            ("\n\nnot a position\n", 3),
            ("startpos moves Ke4 Ke5\n", 1),
        ] {
            let error = OpeningBook::from_text(text, cheversi(), BookOrder::Sequential, 0, 0)
                .expect_err(text);
            assert!(
                error.to_string().contains(&format!("line {line}:")),
                "{error}"
            );
        }
        assert!(
            OpeningBook::from_text("# nothing\n\n", cheversi(), BookOrder::Sequential, 0, 0)
                .is_err()
        );
    }

    #[test]
    fn random_plies_depend_on_seed_and_pair_only() {
        for variant in Variant::ALL {
            let config = GameConfig::new(variant);
            let book = OpeningBook::start_only(config, 4, 7);
            let opening = book.for_pair(5).expect("opening");
            assert_eq!(opening, book.for_pair(5).expect("opening"), "{variant}");
            assert_eq!(opening.1.moves.len(), 4);
            let game = opening.1.replay(config).expect("replays legally");
            assert!(!game.is_over());
            let others: Vec<Opening> = (0..8)
                .map(|pair| book.for_pair(pair).expect("opening").1)
                .collect();
            assert!(
                others.iter().any(|other| *other != opening.1),
                "{variant}: openings vary"
            );
            let reseeded = OpeningBook::start_only(config, 4, 8);
            assert_ne!(
                reseeded.for_pair(5).expect("opening").1,
                opening.1,
                "{variant}"
            );
        }
    }
}
