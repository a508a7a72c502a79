//! The games Tessera plays, listed once: a [`Registry`]. Whatever offers a choice of
//! game or checks one reads it: the command line's `--variant`, `--size` and parameter
//! flags ([`ParameterArgs`]), the protocol's `UCI_Variant`, `BoardSize` and parameter
//! options, the match runner and its test engine, and the GUI page (served as JSON).
//! What each game is (its names, board sides, parameters and score units) is its
//! [`GameFacts`], stated next to its rules.
//!
//! Whatever plays a game by text holds an [`AnyGame`]: a game record behind a trait
//! object ([`PlayedGame`], one virtual call per command; perft and the search below it
//! stay generic). A game added from outside the crate comes in through its
//! [`GameEntry`] ([`Registry::with`]); `src/docs/adding_a_game.md` says how, and
//! `tests/added_game` does it.

mod any;
mod arguments;
mod entry;
mod played;

use crate::game::facts::MAX_PARAMETERS;
use crate::game::{GameFacts, GameParameter, UnknownVariant, Variant, either_of};

pub use any::AnyGame;
pub use arguments::{ParameterArgs, size_help, variant_parser};
pub use entry::{GameEntry, PositionFn, StartFn};
pub use played::{PlayedGame, SearchResult};

/// An ordered list of games: the choices of `UCI_Variant`, in the order the handshake
/// lists them (the first is the default). A value, passed to what needs it (no global
/// list): a program that adds a game makes its own with [`Registry::with`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registry {
    games: Vec<Variant>,
}

impl Default for Registry {
    fn default() -> Self {
        Registry::builtin()
    }
}

impl Registry {
    /// The four built-in games.
    pub fn builtin() -> Registry {
        Registry {
            games: Variant::ALL.to_vec(),
        }
    }

    /// This registry with `entry`'s game added last, or why it cannot be: its name is
    /// taken or not one lower-case word, its default side is not one of its sides, a
    /// parameter has no values or shares an option with another game's parameter of other
    /// values, or the games have more than [`MAX_PARAMETERS`] parameters between them.
    pub fn with(mut self, entry: &'static GameEntry) -> Result<Registry, String> {
        let facts = entry.facts;
        let name = facts.name;
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        {
            return Err(format!("a game's name is one lower-case word ({name})"));
        }
        if self.find(name).is_ok() {
            return Err(format!("two games named {name}"));
        }
        if !facts.sizes.contains(&facts.default_size) {
            return Err(format!(
                "{name}: default side {} is not one of its sides",
                facts.default_size
            ));
        }
        for parameter in facts.parameters {
            if parameter.values.is_empty() {
                return Err(format!(
                    "{name}: parameter {} has no values",
                    parameter.option
                ));
            }
            if let Some(known) = self.parameter(parameter.option)
                && known.values != parameter.values
            {
                return Err(format!(
                    "{name}: parameter {} has other values in another game",
                    parameter.option
                ));
            }
        }
        self.games.push(Variant::Added(entry));
        if self.parameters().len() > MAX_PARAMETERS {
            return Err(format!("more than {MAX_PARAMETERS} game parameters"));
        }
        Ok(self)
    }

    /// The games, in order.
    pub fn games(&self) -> &[Variant] {
        &self.games
    }

    /// The game used when none is chosen (the first).
    pub fn default_game(&self) -> Variant {
        self.games.first().copied().unwrap_or(Variant::Cheversi)
    }

    /// The game named `name` (case-insensitive), or an error listing the known names.
    pub fn find(&self, name: &str) -> Result<Variant, UnknownVariant> {
        self.games
            .iter()
            .copied()
            .find(|variant| variant.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| UnknownVariant::among(name, &self.games))
    }

    /// The protocol names, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.games.iter().map(|variant| variant.name()).collect()
    }

    /// The names as a sentence: "cheversi, kruzno, hexcheckers or catchup".
    pub fn names_text(&self) -> String {
        either_of(&self.names())
    }

    /// The facts of every game, in order.
    pub fn facts(&self) -> impl Iterator<Item = &'static GameFacts> + '_ {
        self.games.iter().map(|variant| variant.facts())
    }

    /// The largest board side any game is played on (the `BoardSize` option's maximum).
    pub fn largest_size(&self) -> usize {
        self.facts()
            .map(|facts| *facts.sizes.end())
            .max()
            .unwrap_or_default()
    }

    /// Every parameter of the games, each option once (where it first appears), in order.
    pub fn parameters(&self) -> Vec<&'static GameParameter> {
        let mut found: Vec<&'static GameParameter> = Vec::new();
        for parameter in self.facts().flat_map(|facts| facts.parameters) {
            if !found
                .iter()
                .any(|known| known.option.eq_ignore_ascii_case(parameter.option))
            {
                found.push(parameter);
            }
        }
        found
    }

    /// The parameter set by the protocol option `option` (case-insensitive).
    pub fn parameter(&self, option: &str) -> Option<&'static GameParameter> {
        self.parameters()
            .into_iter()
            .find(|parameter| parameter.option.eq_ignore_ascii_case(option))
    }
}

#[cfg(test)]
mod tests {
    use super::{AnyGame, GameEntry, Registry};
    use crate::game::catchup::Catchup;
    use crate::game::{BoardShape, CatchupRule, GameConfig, GameFacts, ScoreUnits, Variant};

    /// Catchup on the small boards only, added as a game of its own.
    static SMALL_FACTS: GameFacts = GameFacts {
        name: "smallcatchup",
        title: "Small Catchup",
        sizes: 2..=3,
        default_size: 3,
        board: BoardShape::Hex,
        parameters: &[],
        score_units: ScoreUnits::WinRate,
        levels: &[],
    };
    static SMALL: GameEntry = GameEntry::of::<Catchup>(&SMALL_FACTS);

    #[test]
    fn an_added_game_is_found_set_up_and_played_through_its_entry() {
        let registry = Registry::builtin().with(&SMALL).expect("a new name");
        assert_eq!(registry.names().last(), Some(&"smallcatchup"));
        let variant = registry.find("SmallCatchup").expect("listed");
        assert_eq!(variant, Variant::Added(&SMALL));
        assert_ne!(variant, Variant::Catchup);
        let mut game = AnyGame::new(GameConfig::new(variant)).expect("side 3 starts");
        assert_eq!(game.position_text(), "3/4/5/4/3 w 1");
        let catchup = GameConfig {
            size: Some(3),
            ..GameConfig::new(Variant::Catchup)
        };
        let builtin = AnyGame::new(catchup).expect("side 3 starts");
        assert_eq!(game.perft(2, true), builtin.perft(2, true));
        assert_eq!(game.play_text("C3"), Ok("c3".to_string()));
        assert!(game.record::<Catchup>().is_some());
        let large = GameConfig {
            size: Some(5),
            ..GameConfig::new(variant)
        };
        assert!(
            AnyGame::new(large).is_err(),
            "side 5 is not one of its sides"
        );
        assert_eq!(
            registry.with(&SMALL).map(|_| ()),
            Err("two games named smallcatchup".to_string())
        );
    }

    #[test]
    fn the_builtin_registry_lists_the_four_games_and_their_facts() {
        let registry = Registry::builtin();
        assert_eq!(
            registry.names(),
            ["cheversi", "kruzno", "hexcheckers", "catchup"]
        );
        assert_eq!(
            registry.names_text(),
            "cheversi, kruzno, hexcheckers or catchup"
        );
        assert_eq!(registry.find("HexCheckers"), Ok(Variant::HexCheckers));
        assert_eq!(
            registry.find("chess").map_err(|error| error.to_string()),
            Err(
                "unknown variant, expected cheversi, kruzno, hexcheckers or catchup (chess)"
                    .to_string()
            )
        );
        assert_eq!(registry.largest_size(), 9);
        for facts in registry.facts() {
            assert!(facts.sizes.contains(&facts.default_size), "{}", facts.name);
        }
        let options: Vec<&str> = registry.parameters().iter().map(|p| p.option).collect();
        assert_eq!(options, ["CatchupRule"]);
    }

    #[test]
    fn catchups_parameter_default_is_the_rules_default() {
        let parameter = Registry::builtin()
            .parameter("catchuprule")
            .expect("Catchup has its rule");
        assert_eq!(parameter.default_value(), CatchupRule::default().name());
        assert_eq!(parameter.values, CatchupRule::NAMES);
    }
}
