//! The rules of every game behind one small trait, [`Rules`].
//!
//! Each game is one module (`cheversi`, `checkers` for both Kruzno and hex checkers,
//! `catchup`). Evaluation and search live elsewhere: a `Rules` value knows only what is
//! legal, what a move does, and how the game ends. [`GameRecord`] adds the history that
//! repetition needs and speaks in move and position text. [`GameFacts`] say what each
//! game is (names, board sides, parameters), [`GameConfig`] which game is set up, and
//! [`GameKind`] holds a built-in game's record for generic code. Picking any game at run
//! time, added ones included, is the registry's (`crate::registry::AnyGame`), above the
//! engine that searches it.

pub mod board_field;
pub mod builtin;
pub mod catchup;
pub mod checkers;
pub mod cheversi;
pub mod error;
pub mod facts;
pub mod record;

use std::fmt::Debug;
use std::hash::Hash;
use std::str::FromStr;

pub use builtin::GameKind;
pub use catchup::CatchupRule;
pub use error::{MoveError, PositionError};
pub use facts::{
    BoardShape, GameFacts, GameParameter, Level, ParameterValues, ScoreUnits, either_of, listed,
};
pub use record::GameRecord;

/// One of the two players. Player 1 is White and moves first in every game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    One,
    Two,
}

impl Player {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 0 for player 1, 1 for player 2: an index into per-player arrays.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Player::One => 0,
            Player::Two => 1,
        }
    }

    /// `w` or `b`, as in position strings.
    pub fn letter(self) -> char {
        match self {
            Player::One => 'w',
            Player::Two => 'b',
        }
    }
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The protocol's word for the result: `p1win`, `p2win` or `draw`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win(Player::One) => "p1win",
            Outcome::Win(Player::Two) => "p2win",
            Outcome::Draw => "draw",
        }
    }

    /// +1 if `player` won, -1 if it lost, 0 for a draw.
    pub fn value_for(self, player: Player) -> i32 {
        match self {
            Outcome::Win(winner) if winner == player => 1,
            Outcome::Win(_) => -1,
            Outcome::Draw => 0,
        }
    }
}

/// A game: one of the four built-in ones, or one added from outside this crate (a test's
/// game, through its registry entry). Every `match` on it is exhaustive, so the places
/// that know a built-in game by name say what an added game gets instead. What each game
/// is (names, board sides, parameters) is its [`GameFacts`], stated next to its rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Cheversi,
    Kruzno,
    HexCheckers,
    Catchup,
    /// A game added through a registry entry (`crate::registry::GameEntry`).
    Added(&'static dyn AddedGame),
}

/// A game added from outside the built-in ones: its facts, and behind `Any` what sets it
/// up and searches it (the registry's `GameEntry`, which implements this; the rooms that
/// need it sit above the engine).
pub trait AddedGame: Sync {
    /// The game's facts.
    fn facts(&self) -> &'static GameFacts;

    /// The value behind this trait, for the registry to recover its entry.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// Added games are one game when they share their facts.
impl PartialEq for dyn AddedGame {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.facts(), other.facts())
    }
}

impl Eq for dyn AddedGame {}

impl Hash for dyn AddedGame {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.facts().name.hash(state);
    }
}

impl Debug for dyn AddedGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AddedGame({})", self.facts().name)
    }
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::Cheversi,
        Variant::Kruzno,
        Variant::HexCheckers,
        Variant::Catchup,
    ];

    /// The game's facts: names, board sides, parameters, score units.
    pub fn facts(self) -> &'static GameFacts {
        match self {
            Variant::Cheversi => &cheversi::FACTS,
            Variant::Kruzno => &checkers::KRUZNO,
            Variant::HexCheckers => &checkers::HEX_CHECKERS,
            Variant::Catchup => &catchup::FACTS,
            Variant::Added(game) => game.facts(),
        }
    }

    /// The protocol name (`UCI_Variant` value).
    pub fn name(self) -> &'static str {
        self.facts().name
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown variant name: the name and the known ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant, expected {expected} ({name})")]
pub struct UnknownVariant {
    pub name: String,
    /// The known names, as a sentence ("a, b or c").
    pub expected: String,
}

impl UnknownVariant {
    /// The error for `name` among the games `known`.
    pub fn among(name: &str, known: &[Variant]) -> Self {
        let names: Vec<&str> = known.iter().map(|variant| variant.name()).collect();
        UnknownVariant {
            name: name.to_string(),
            expected: either_of(&names),
        }
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// One of the built-in games by its name (case-insensitive).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Variant::ALL
            .into_iter()
            .find(|variant| variant.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownVariant::among(text, &Variant::ALL))
    }
}

/// Everything needed to set up a game: the variant and its parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameConfig {
    pub variant: Variant,
    /// Board side; `None` means the variant's default. A position string's own row count
    /// wins over this for hex games.
    pub size: Option<usize>,
    /// The values chosen for parameters (a game's own are read through
    /// [`GameConfig::parameter`]).
    pub parameters: ParameterValues,
}

impl GameConfig {
    pub fn new(variant: Variant) -> Self {
        GameConfig {
            variant,
            size: None,
            parameters: ParameterValues::default(),
        }
    }

    /// The board side in force: the chosen one or the variant's default.
    pub fn board_size(&self) -> usize {
        self.size.unwrap_or(self.variant.facts().default_size)
    }

    /// The value in force of the game's parameter set by `option`: the chosen one or its
    /// default; `None` when the game has no such parameter.
    pub fn parameter(&self, option: &str) -> Option<&'static str> {
        let parameter = self.variant.facts().parameter(option)?;
        Some(
            self.parameters
                .get(parameter.option)
                .unwrap_or(parameter.default_value()),
        )
    }

    /// Each of the game's parameters with its value in force, in the order of its facts.
    pub fn parameter_values(&self) -> Vec<(&'static GameParameter, &'static str)> {
        self.variant
            .facts()
            .parameters
            .iter()
            .map(|parameter| {
                let value = self
                    .parameters
                    .get(parameter.option)
                    .unwrap_or(parameter.default_value());
                (parameter, value)
            })
            .collect()
    }

    /// The values in force of the game's parameters, space-separated in the order of its
    /// facts (empty for a game without parameters): the records' `rule` field.
    pub fn parameter_words(&self) -> String {
        let values: Vec<&str> = self
            .parameter_values()
            .into_iter()
            .map(|(_, value)| value)
            .collect();
        values.join(" ")
    }

    /// Chooses the value `text` for the game's parameter set by `option`; an error names
    /// an option the game does not have, or a value the parameter does not.
    pub fn set_parameter(&mut self, option: &str, text: &str) -> Result<(), String> {
        let parameter = self
            .variant
            .facts()
            .parameter(option)
            .ok_or_else(|| format!("{} has no parameter {option}", self.variant))?;
        let value = parameter.parse(text)?;
        if self.parameters.set(parameter, value) {
            Ok(())
        } else {
            Err(format!("too many parameters ({})", parameter.option))
        }
    }

    /// Sets the game's parameters from [`GameConfig::parameter_words`] text; words beyond
    /// the game's parameters are ignored (older records name the Catchup rule for every
    /// game). An unknown value is an error naming it.
    pub fn set_parameter_words(&mut self, text: &str) -> Result<(), String> {
        let parameters = self.variant.facts().parameters;
        for (parameter, word) in parameters.iter().zip(text.split_whitespace()) {
            self.set_parameter(parameter.option, word)?;
        }
        Ok(())
    }
}

/// The rules of one game: the small core every engine component relies on.
///
/// A value is a complete position (board, side to move, and whatever rule state the
/// game needs), cheap to clone, so search and perft can copy-make. History-dependent
/// rules (threefold repetition) are handled by [`GameRecord`] using [`Rules::hash`] and
/// [`Rules::repetition_window`].
pub trait Rules: Clone + Debug + Send + Sync + 'static {
    /// One move as the rules define it (a placement, a whole capture chain, a whole turn).
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// The start position for a configuration.
    fn start(config: &GameConfig) -> Result<Self, PositionError>;

    /// Parses a position string; the configuration supplies the options a position
    /// string does not carry (the Catchup rule, the variant for checkers).
    fn from_position_text(text: &str, config: &GameConfig) -> Result<Self, PositionError>;

    /// The canonical position string.
    fn position_text(&self) -> String;

    /// Whose turn it is.
    fn side_to_move(&self) -> Player;

    /// Clears `moves` and fills it with every legal move. Empty exactly when
    /// [`Rules::outcome`] is `Some` (repetition aside, which only [`GameRecord`] sees).
    /// Must not allocate once `moves` has grown to the largest list it will hold.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// The number of legal moves; games override this with a count that does not build
    /// the list (perft's bulk counting at the last ply).
    fn count_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.len() as u64
    }

    /// Plays a move known to be legal (taken from [`Rules::legal_moves`]).
    fn play_unchecked(&mut self, mv: Self::Move);

    /// Plays a move after checking it is legal.
    fn play(&mut self, mv: Self::Move) -> Result<(), MoveError> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(MoveError::illegal(
                &self.move_text(mv),
                "not a legal move here",
            ))
        }
    }

    /// The result if the game is over by the position alone, `None` while it runs.
    fn outcome(&self) -> Option<Outcome>;

    /// The rule score `[player 1, player 2]`: Cheversi points, Catchup largest groups,
    /// checkers men on the board.
    fn score(&self) -> [i32; 2];

    /// Zobrist hash of everything that decides the legal moves and the result.
    fn hash(&self) -> u64;

    /// How many plies back an identical position can lie (plies since the last
    /// irreversible move); 0 for games where positions never repeat.
    fn repetition_window(&self) -> usize {
        0
    }

    /// The canonical text of a move legal in this position.
    fn move_text(&self, mv: Self::Move) -> String;

    /// Parses a move string and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;
}

/// Each player's cells (index 0 White) as masks over keys below 256 (Catchup: cell
/// ordinals): who took what in a finished playout, for the search's all-moves-as-first
/// statistics.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Owners([[u64; 4]; 2]);

impl Owners {
    /// Marks `ordinal` as taken by player `index`.
    #[inline]
    pub fn set(&mut self, ordinal: u8, index: usize) {
        self.0[index][usize::from(ordinal >> 6)] |= 1 << (ordinal & 63);
    }

    /// True when `player` took `ordinal`.
    #[inline]
    pub fn took(&self, player: Player, ordinal: u8) -> bool {
        self.0[player.index()][usize::from(ordinal >> 6)] >> (ordinal & 63) & 1 != 0
    }

    /// The owners of at most 64 keys from each player's word.
    #[inline]
    pub fn of_words(white: u64, black: u64) -> Owners {
        Owners([[white, 0, 0, 0], [black, 0, 0, 0]])
    }
}
