//! The engine options: one table gives the `option` lines of the handshake and checks
//! every `setoption`. The game's options come first and are written from the registry
//! of games ([`OptionTable::new`]): `UCI_Variant` lists its games, `BoardSize` reaches
//! its largest side, and each game parameter is a combo of its own (`CatchupRule`); the
//! engine's own options follow.

use std::borrow::Cow;

use crate::engine::{SearchOptions, Strategy, Strength};
use crate::eval::catchup_knowledge::PlayoutPolicy;
use crate::game::GameConfig;
use crate::registry::Registry;

use super::error::ProtocolError;

/// The type of an option, as UCI announces it.
#[derive(Clone, Debug)]
pub enum OptionKind {
    Spin {
        default: u64,
        min: u64,
        max: u64,
    },
    Combo {
        default: &'static str,
        values: Cow<'static, [&'static str]>,
    },
    /// Free text (a file path); announced with `default <empty>` when empty.
    Text {
        default: &'static str,
    },
    /// `true` or `false` (case-insensitive).
    Check {
        default: bool,
    },
}

/// Which option a table row is; decides how a value is applied.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionId {
    Variant,
    BoardSize,
    /// A game parameter: the option's name is the parameter's.
    Parameter,
    Hash,
    Threads,
    MoveOverhead,
    Seed,
    Strategy,
    ExactPlies,
    CatchupPlayout,
    EndingsFile,
    MultiPv,
    Ponder,
    LimitStrength,
    Elo,
    StrengthLevel,
}

impl OptionId {
    /// True for the options that define the game: changing one resets the position.
    pub fn changes_game(self) -> bool {
        matches!(
            self,
            OptionId::Variant | OptionId::BoardSize | OptionId::Parameter
        )
    }
}

/// One row of the option table.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub id: OptionId,
    pub kind: OptionKind,
}

/// The engine's own options, in the order the handshake lists them after the game's.
const ENGINE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "Hash",
        id: OptionId::Hash,
        kind: OptionKind::Spin {
            default: 64,
            min: 1,
            max: 33_554_432,
        },
    },
    OptionSpec {
        name: "Threads",
        id: OptionId::Threads,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: crate::engine::MAX_THREADS as u64,
        },
    },
    OptionSpec {
        name: "MoveOverhead",
        id: OptionId::MoveOverhead,
        kind: OptionKind::Spin {
            default: 50,
            min: 0,
            max: 5000,
        },
    },
    OptionSpec {
        name: "Seed",
        id: OptionId::Seed,
        kind: OptionKind::Spin {
            default: 0,
            min: 0,
            max: i32::MAX as u64,
        },
    },
    OptionSpec {
        name: "Strategy",
        id: OptionId::Strategy,
        kind: OptionKind::Combo {
            default: Strategy::Full.name(),
            values: Cow::Borrowed(&Strategy::NAMES),
        },
    },
    OptionSpec {
        name: "ExactPlies",
        id: OptionId::ExactPlies,
        kind: OptionKind::Spin {
            default: crate::search::DEFAULT_EXACT_PLIES as u64,
            min: 0,
            max: 16,
        },
    },
    OptionSpec {
        name: "CatchupPlayout",
        id: OptionId::CatchupPlayout,
        kind: OptionKind::Combo {
            default: PlayoutPolicy::DEFAULT.name(),
            values: Cow::Borrowed(&PlayoutPolicy::NAMES),
        },
    },
    OptionSpec {
        name: "EndingsFile",
        id: OptionId::EndingsFile,
        kind: OptionKind::Text { default: "" },
    },
    OptionSpec {
        name: "MultiPV",
        id: OptionId::MultiPv,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: crate::engine::MAX_LINES as u64,
        },
    },
    OptionSpec {
        name: "Ponder",
        id: OptionId::Ponder,
        kind: OptionKind::Check { default: false },
    },
];

/// The strength options: `UCI_LimitStrength`, then `UCI_Elo` over the Elo of every
/// game's levels (from the weakest level of any game to the strongest of any; each game
/// clamps it to its own table) and `StrengthLevel` up to the longest table.
fn strength_options(registry: &Registry) -> [OptionSpec; 3] {
    let ranges: Vec<(u32, u32)> = registry
        .facts()
        .filter_map(|facts| Strength::elo_range(facts.levels))
        .collect();
    let low = ranges.iter().map(|range| range.0).min().unwrap_or(0);
    let high = ranges.iter().map(|range| range.1).max().unwrap_or(0);
    let most_levels = registry
        .facts()
        .map(|facts| facts.levels.len())
        .max()
        .unwrap_or(0);
    [
        OptionSpec {
            name: "UCI_LimitStrength",
            id: OptionId::LimitStrength,
            kind: OptionKind::Check { default: false },
        },
        OptionSpec {
            name: "UCI_Elo",
            id: OptionId::Elo,
            kind: OptionKind::Spin {
                default: u64::from(low),
                min: u64::from(low),
                max: u64::from(high),
            },
        },
        OptionSpec {
            name: "StrengthLevel",
            id: OptionId::StrengthLevel,
            kind: OptionKind::Spin {
                default: 0,
                min: 0,
                max: most_levels as u64,
            },
        },
    ]
}

/// The UCI spelling of an empty text value.
const EMPTY_TEXT: &str = "<empty>";

impl OptionSpec {
    /// The default value as `setoption` would send it.
    pub fn default_text(&self) -> String {
        match &self.kind {
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Combo { default, .. } => default.to_string(),
            OptionKind::Text { default: "" } => EMPTY_TEXT.to_string(),
            OptionKind::Text { default } => default.to_string(),
            OptionKind::Check { default } => default.to_string(),
        }
    }
}

/// The `option name ... type ...` line of one option.
pub fn option_line(spec: &OptionSpec) -> String {
    match &spec.kind {
        OptionKind::Spin { default, min, max } => format!(
            "option name {} type spin default {default} min {min} max {max}",
            spec.name
        ),
        OptionKind::Combo { default, values } => {
            let mut line = format!("option name {} type combo default {default}", spec.name);
            for value in values.iter() {
                line.push_str(" var ");
                line.push_str(value);
            }
            line
        }
        OptionKind::Text { .. } => format!(
            "option name {} type string default {}",
            spec.name,
            spec.default_text()
        ),
        OptionKind::Check { default } => {
            format!("option name {} type check default {default}", spec.name)
        }
    }
}

/// The option values in force: the game configuration and the search options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub game: GameConfig,
    pub search: SearchOptions,
    /// `Ponder`: `bestmove` names the reply the engine expects (`ponder <move>`).
    pub ponder: bool,
    /// `UCI_LimitStrength`: play at a strength level rather than at full strength.
    pub limit_strength: bool,
    /// `UCI_Elo`: the Elo the level is picked for, in the current game's levels.
    pub elo: u32,
    /// `StrengthLevel`: a level of the current game's table by number (1 the weakest),
    /// instead of `UCI_Elo`; 0 to follow `UCI_Elo`.
    pub level: u32,
}

impl Settings {
    /// The strength the engine plays at under these settings: `None` without
    /// `UCI_LimitStrength` or in a game without levels; else the level `StrengthLevel`
    /// names (clamped to the game's table) or the one `UCI_Elo` picks.
    pub fn strength(&self) -> Option<Strength> {
        if !self.limit_strength {
            return None;
        }
        let levels = self.game.variant.facts().levels;
        match self.level {
            0 => Strength::for_elo(levels, self.elo),
            level => {
                let index = (level as usize).min(levels.len()).checked_sub(1)?;
                levels.get(index).map(Strength::of_level)
            }
        }
    }
}

impl Default for Settings {
    /// Every option of the built-in games' table at its announced default.
    fn default() -> Self {
        OptionTable::builtin().defaults()
    }
}

/// The result of a successful `setoption`.
#[derive(Clone, Debug)]
pub struct OptionUpdate {
    pub id: OptionId,
    pub settings: Settings,
    /// Side effects worth telling the client (sent as `info string`).
    pub notes: Vec<String>,
}

/// Every option of an engine playing the games of a registry, in the order the handshake
/// lists them: the game's first (so interfaces that send options in this order set the
/// variant before the board size), then the engine's own.
#[derive(Clone, Debug)]
pub struct OptionTable {
    registry: Registry,
    specs: Vec<OptionSpec>,
}

impl OptionTable {
    /// The table of an engine playing the games of `registry`, or the name of a game
    /// parameter's option that one of the engine's own options already has.
    pub fn new(registry: Registry) -> Result<Self, String> {
        let mut specs = vec![
            OptionSpec {
                name: "UCI_Variant",
                id: OptionId::Variant,
                kind: OptionKind::Combo {
                    default: registry.default_game().name(),
                    values: Cow::Owned(registry.names()),
                },
            },
            OptionSpec {
                name: "BoardSize",
                id: OptionId::BoardSize,
                kind: OptionKind::Spin {
                    default: 0,
                    min: 0,
                    max: registry.largest_size() as u64,
                },
            },
        ];
        specs.extend(
            registry
                .parameters()
                .into_iter()
                .map(|parameter| OptionSpec {
                    name: parameter.option,
                    id: OptionId::Parameter,
                    kind: OptionKind::Combo {
                        default: parameter.default_value(),
                        values: Cow::Borrowed(parameter.values),
                    },
                }),
        );
        for (index, spec) in specs.iter().enumerate() {
            let clash = specs[..index]
                .iter()
                .chain(ENGINE_OPTIONS)
                .any(|other| other.name.eq_ignore_ascii_case(spec.name));
            if clash {
                return Err(format!("two options named {}", spec.name));
            }
        }
        specs.extend(ENGINE_OPTIONS.iter().cloned());
        specs.extend(strength_options(&registry));
        Ok(OptionTable { registry, specs })
    }

    /// The table of the built-in games.
    pub fn builtin() -> Self {
        OptionTable::new(Registry::builtin())
            .expect("the built-in games' parameters are named apart from the engine's options")
    }

    /// The games the table offers.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Every row, in handshake order.
    pub fn specs(&self) -> &[OptionSpec] {
        &self.specs
    }

    /// The handshake's `option` lines.
    pub fn lines(&self) -> Vec<String> {
        self.specs.iter().map(option_line).collect()
    }

    /// The row named `name` (case-insensitive).
    pub fn find(&self, name: &str) -> Option<&OptionSpec> {
        self.specs
            .iter()
            .find(|spec| spec.name.eq_ignore_ascii_case(name))
    }

    /// Every option at the default its row announces (applied through
    /// [`OptionTable::apply`], so the announced defaults are the ones in force).
    pub fn defaults(&self) -> Settings {
        let mut settings = Settings {
            game: GameConfig::new(self.registry.default_game()),
            search: SearchOptions::default(),
            ponder: false,
            limit_strength: false,
            elo: 0,
            level: 0,
        };
        for spec in &self.specs {
            match self.apply(&settings, spec.name, Some(&spec.default_text())) {
                Ok(update) => settings = update.settings,
                Err(error) => log::error!("option table default rejected: {error}"),
            }
        }
        settings
    }

    /// Checks `setoption name <name> value <value>` against the table and the current
    /// settings; returns the new settings. On error nothing is changed.
    pub fn apply(
        &self,
        settings: &Settings,
        name: &str,
        value: Option<&str>,
    ) -> Result<OptionUpdate, ProtocolError> {
        let spec = self
            .find(name)
            .ok_or_else(|| ProtocolError::UnknownOption {
                name: name.to_string(),
            })?;
        let value = value.ok_or_else(|| ProtocolError::missing("value", spec.name))?;
        let bad = |reason: String| ProtocolError::OptionValue {
            name: spec.name.to_string(),
            value: value.to_string(),
            reason,
        };
        let mut next = settings.clone();
        let mut notes = Vec::new();
        match &spec.kind {
            &OptionKind::Spin { min, max, .. } => {
                let number = value
                    .parse::<u64>()
                    .ok()
                    .filter(|number| (min..=max).contains(number))
                    .ok_or_else(|| bad(format!("expected an integer from {min} to {max}")))?;
                let as_usize = |number: u64| {
                    usize::try_from(number)
                        .map_err(|_| bad("too large for this machine".to_string()))
                };
                match spec.id {
                    OptionId::BoardSize => {
                        let variant = settings.game.variant;
                        let facts = variant.facts();
                        let size = as_usize(number)?;
                        if size != 0 && !facts.sizes.contains(&size) {
                            return Err(bad(format!(
                                "{variant} is played on {}, or 0 for the default",
                                facts.sizes_text()
                            )));
                        }
                        next.game.size = (size != 0).then_some(size);
                    }
                    OptionId::Hash => next.search.hash_mb = as_usize(number)?,
                    OptionId::Threads => next.search.threads = as_usize(number)?,
                    OptionId::MultiPv => next.search.lines = as_usize(number)?,
                    OptionId::MoveOverhead => next.search.move_overhead_ms = number,
                    OptionId::Seed => next.search.seed = number,
                    OptionId::Elo => {
                        next.elo =
                            u32::try_from(number).map_err(|_| bad("too large".to_string()))?
                    }
                    OptionId::StrengthLevel => {
                        next.level =
                            u32::try_from(number).map_err(|_| bad("too large".to_string()))?
                    }
                    OptionId::ExactPlies => {
                        next.search.exact_plies =
                            u32::try_from(number).map_err(|_| bad("too large".to_string()))?
                    }
                    _ => return Err(bad("not a spin option".to_string())),
                }
            }
            OptionKind::Combo { values, .. } => {
                let Some(&chosen) = values
                    .iter()
                    .find(|candidate| candidate.eq_ignore_ascii_case(value))
                else {
                    return Err(bad(format!("expected one of {}", values.join(", "))));
                };
                match spec.id {
                    OptionId::Variant => {
                        let variant = self
                            .registry
                            .find(chosen)
                            .map_err(|error| bad(error.to_string()))?;
                        next.game.variant = variant;
                        if let Some(size) = settings.game.size
                            && !variant.facts().sizes.contains(&size)
                        {
                            next.game.size = None;
                            notes.push(format!(
                                "BoardSize reset to 0: side {size} does not fit {variant}"
                            ));
                        }
                    }
                    OptionId::Parameter => {
                        let parameter = self
                            .registry
                            .parameter(spec.name)
                            .ok_or_else(|| bad("not a game parameter".to_string()))?;
                        if !next.game.parameters.set(parameter, chosen) {
                            return Err(bad("too many game parameters".to_string()));
                        }
                    }
                    OptionId::Strategy => {
                        next.search.strategy = chosen.parse::<Strategy>().map_err(bad)?;
                    }
                    OptionId::CatchupPlayout => {
                        next.search.catchup_playout =
                            PlayoutPolicy::from_name(chosen).ok_or_else(|| bad(String::new()))?;
                    }
                    _ => return Err(bad("not a combo option".to_string())),
                }
            }
            OptionKind::Text { .. } => match spec.id {
                OptionId::EndingsFile => {
                    next.search.endings_file = if value == EMPTY_TEXT {
                        String::new()
                    } else {
                        value.to_string()
                    };
                }
                _ => return Err(bad("not a text option".to_string())),
            },
            OptionKind::Check { .. } => {
                let on = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad("expected true or false".to_string())),
                };
                match spec.id {
                    OptionId::Ponder => next.ponder = on,
                    OptionId::LimitStrength => next.limit_strength = on,
                    _ => return Err(bad("not a check option".to_string())),
                }
            }
        }
        // The level follows the game too: a new variant has levels of its own.
        next.search.strength = next.strength();
        Ok(OptionUpdate {
            id: spec.id,
            settings: next,
            notes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{OptionId, OptionTable, OptionUpdate, Settings};
    use crate::engine::Strategy;
    use crate::game::{CatchupRule, Variant};
    use crate::protocol::ProtocolError;

    fn apply(
        settings: &Settings,
        name: &str,
        value: Option<&str>,
    ) -> Result<OptionUpdate, ProtocolError> {
        OptionTable::builtin().apply(settings, name, value)
    }

    fn set(settings: &Settings, name: &str, value: &str) -> Result<Settings, String> {
        apply(settings, name, Some(value))
            .map(|update| update.settings)
            .map_err(|error| error.to_string())
    }

    #[test]
    fn every_announced_default_is_accepted_and_in_force() {
        let defaults = Settings::default();
        for spec in OptionTable::builtin().specs() {
            let update = apply(&defaults, spec.name, Some(&spec.default_text()))
                .unwrap_or_else(|error| panic!("default of {} rejected: {error}", spec.name));
            assert_eq!(update.settings, defaults, "{}", spec.name);
        }
        assert_eq!(defaults.game.variant, Variant::Cheversi);
        assert_eq!(defaults.game.size, None);
        assert_eq!(defaults.search.hash_mb, 64);
        assert_eq!(defaults.search.strategy, Strategy::Full);
    }

    #[test]
    fn option_lines_use_uci_syntax() {
        let lines = OptionTable::builtin().lines();
        assert_eq!(
            lines[0],
            "option name UCI_Variant type combo default cheversi var cheversi var kruzno \
             var hexcheckers var catchup"
        );
        assert!(
            lines.contains(&"option name Hash type spin default 64 min 1 max 33554432".to_string())
        );
    }

    #[test]
    fn names_and_combo_values_are_case_insensitive() {
        let defaults = Settings::default();
        let settings = set(&defaults, "uci_variant", "CATCHUP").expect("accepted");
        assert_eq!(settings.game.variant, Variant::Catchup);
        let settings = set(&settings, "catchuprule", "Original").expect("accepted");
        assert_eq!(CatchupRule::of(&settings.game), CatchupRule::Original);
        let settings = set(&settings, "HASH", "128").expect("accepted");
        assert_eq!(settings.search.hash_mb, 128);
        let settings = set(&settings, "strategy", "Random").expect("accepted");
        assert_eq!(settings.search.strategy, Strategy::Random);
        let settings = set(&settings, "moveoverhead", "0").expect("accepted");
        assert_eq!(settings.search.move_overhead_ms, 0);
        let settings = set(&settings, "Seed", "2147483647").expect("accepted");
        assert_eq!(settings.search.seed, 2_147_483_647);
        let settings = set(&settings, "Threads", "2").expect("accepted");
        assert_eq!(settings.search.threads, 2);
    }

    #[test]
    fn bad_names_and_values_are_errors() {
        let defaults = Settings::default();
        assert_eq!(
            set(&defaults, "Colour", "white"),
            Err("unknown option (Colour)".into())
        );
        assert_eq!(
            set(&defaults, "Ponder", "yes"),
            Err("bad value for option Ponder: expected true or false (yes)".into())
        );
        assert!(set(&defaults, "ponder", "TRUE").expect("accepted").ponder);
        assert_eq!(
            set(&defaults, "Hash", "0"),
            Err("bad value for option Hash: expected an integer from 1 to 33554432 (0)".into())
        );
        assert_eq!(
            set(&defaults, "Hash", "-5"),
            Err("bad value for option Hash: expected an integer from 1 to 33554432 (-5)".into())
        );
        assert_eq!(
            set(&defaults, "UCI_Variant", "chess"),
            Err(
                "bad value for option UCI_Variant: expected one of cheversi, kruzno, \
                 hexcheckers, catchup (chess)"
                    .into()
            )
        );
        assert_eq!(
            apply(&defaults, "Hash", None)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            Err("missing value (Hash)".into())
        );
    }

    #[test]
    fn board_size_must_fit_the_variant() {
        let defaults = Settings::default();
        assert_eq!(
            set(&defaults, "BoardSize", "5"),
            Err(
                "bad value for option BoardSize: cheversi is played on side 8 only, or 0 \
                 for the default (5)"
                    .into()
            )
        );
        let catchup = set(&defaults, "UCI_Variant", "catchup").expect("accepted");
        let small = set(&catchup, "BoardSize", "3").expect("catchup fits side 3");
        assert_eq!(small.game.size, Some(3));
        assert_eq!(
            set(&small, "BoardSize", "0").expect("default").game.size,
            None
        );
        // Side 3 does not fit Kruzno: switching resets the size and says so.
        let update = apply(&small, "UCI_Variant", Some("kruzno")).expect("accepted");
        assert_eq!(update.id, OptionId::Variant);
        assert_eq!(update.settings.game.size, None);
        assert_eq!(
            update.notes,
            vec!["BoardSize reset to 0: side 3 does not fit kruzno".to_string()]
        );
        // Side 5 fits hexcheckers too: it is kept.
        let five = set(&catchup, "BoardSize", "5").expect("accepted");
        let hex = set(&five, "UCI_Variant", "hexcheckers").expect("accepted");
        assert_eq!(hex.game.size, Some(5));
    }

    #[test]
    fn strength_follows_the_limit_the_elo_the_level_and_the_variant() {
        use crate::engine::Strength;
        use crate::protocol::options::OptionKind;
        let defaults = Settings::default();
        assert_eq!(defaults.search.strength, None, "full strength by default");
        let table = OptionTable::builtin();
        let Some(OptionKind::Spin { min, max, .. }) =
            table.find("UCI_Elo").map(|spec| spec.kind.clone())
        else {
            panic!("UCI_Elo is a spin option");
        };
        let weakest = |variant: Variant| Strength::of_level(&variant.facts().levels[0]);
        let strongest = |variant: Variant| {
            let levels = variant.facts().levels;
            Strength::of_level(&levels[levels.len() - 1])
        };
        let low = set(&defaults, "UCI_Elo", &min.to_string()).expect("the minimum");
        assert_eq!(low.search.strength, None, "UCI_Elo alone changes nothing");
        let limited = set(&low, "UCI_LimitStrength", "true").expect("accepted");
        assert_eq!(limited.search.strength, Some(weakest(Variant::Cheversi)));
        // Switching the game picks the level in the new game's table.
        let catchup = set(&limited, "UCI_Variant", "catchup").expect("accepted");
        assert_eq!(catchup.search.strength, Some(weakest(Variant::Catchup)));
        let high = set(&catchup, "UCI_Elo", &max.to_string()).expect("the maximum");
        assert_eq!(high.search.strength, Some(strongest(Variant::Catchup)));
        let second = set(&high, "StrengthLevel", "2").expect("accepted");
        assert_eq!(
            second.search.strength,
            Some(Strength::of_level(&Variant::Catchup.facts().levels[1]))
        );
        let off = set(&second, "UCI_LimitStrength", "false").expect("accepted");
        assert_eq!(off.search.strength, None);
        assert_eq!(
            set(&defaults, "UCI_Elo", &(max + 1).to_string()),
            Err(format!(
                "bad value for option UCI_Elo: expected an integer from {min} to {max} ({})",
                max + 1
            ))
        );
        assert_eq!(
            set(&defaults, "UCI_Elo", "strong"),
            Err(format!(
                "bad value for option UCI_Elo: expected an integer from {min} to {max} (strong)"
            ))
        );
        assert_eq!(
            set(&defaults, "UCI_LimitStrength", "1"),
            Err("bad value for option UCI_LimitStrength: expected true or false (1)".into())
        );
    }
}
