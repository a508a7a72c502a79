//! The command line's game flags, written from the built-in registry so that `--help`
//! and the checks follow the games' facts: `--variant`'s values, `--size`'s ranges and
//! one flag per game parameter (`--rule` for Catchup's `CatchupRule`).

use clap::builder::{PossibleValuesParser, TypedValueParser};

use crate::game::{GameConfig, ParameterValues, Variant, either_of};

use super::Registry;

/// `--variant`'s parser: one of the built-in games by name (case-insensitive); `--help`
/// lists them.
pub fn variant_parser() -> impl TypedValueParser<Value = Variant> {
    PossibleValuesParser::new(Registry::builtin().names()).try_map(|name| name.parse::<Variant>())
}

/// `--size`'s help: the ranges of the games played on more than one side.
pub fn size_help() -> String {
    let ranges: Vec<String> = Registry::builtin()
        .facts()
        .filter(|facts| facts.sizes.start() != facts.sizes.end())
        .map(|facts| {
            format!(
                "{} {}-{}",
                facts.name,
                facts.sizes.start(),
                facts.sizes.end()
            )
        })
        .collect();
    format!(
        "Board side ({}). Default: the variant's own; a --fen's row count overrides it.",
        ranges.join(", ")
    )
}

/// One flag per parameter of the built-in games (`--rule`); each takes one of the
/// parameter's values and defaults to its default. A flag of a parameter the chosen game
/// does not have is accepted and has no effect.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParameterArgs {
    pub values: ParameterValues,
}

impl ParameterArgs {
    /// `config` with the flags' values.
    pub fn apply(&self, config: GameConfig) -> GameConfig {
        GameConfig {
            parameters: self.values,
            ..config
        }
    }
}

impl clap::FromArgMatches for ParameterArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut values = ParameterValues::default();
        for parameter in Registry::builtin().parameters() {
            let Some(text) = matches.get_one::<String>(parameter.flag) else {
                continue;
            };
            let value = parameter.value(text).ok_or_else(|| {
                clap::Error::raw(
                    clap::error::ErrorKind::InvalidValue,
                    format!(
                        "--{}: expected {} ({text})\n",
                        parameter.flag,
                        either_of(parameter.values)
                    ),
                )
            })?;
            values.set(parameter, value);
        }
        Ok(ParameterArgs { values })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for ParameterArgs {
    fn augment_args(mut command: clap::Command) -> clap::Command {
        for parameter in Registry::builtin().parameters() {
            command = command.arg(
                clap::Arg::new(parameter.flag)
                    .long(parameter.flag)
                    .value_name("VALUE")
                    .ignore_case(true)
                    .value_parser(PossibleValuesParser::new(parameter.values))
                    .default_value(parameter.default_value())
                    .help(format!(
                        "{} (the {} option)",
                        parameter.title, parameter.option
                    )),
            );
        }
        command
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}
