//! The games Tessera plays, listed once: a [`Registry`]. Whatever offers a choice of
//! game or checks one reads it: the command line's `--variant`, `--size` and parameter
//! flags ([`ParameterArgs`]), the protocol's `UCI_Variant`, `BoardSize` and parameter
//! options, the match runner and its test engine, and the GUI page (served as JSON).
//! What each game is (its names, board sides, parameters and score units) is its
//! [`GameFacts`], stated next to its rules.

mod arguments;

use crate::game::{GameFacts, GameParameter, UnknownVariant, Variant, either_of};

pub use arguments::{ParameterArgs, size_help, variant_parser};

/// An ordered list of games: the choices of `UCI_Variant`, in the order the handshake
/// lists them (the first is the default).
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
    use super::Registry;
    use crate::game::{CatchupRule, Variant};

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
