//! Validated match settings built from the command line: engine specifications, search
//! limits, shards. Parsing errors name the offending word.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use super::clock::TimeControl;

/// Which handshake to use with an engine: the runner's choice, `Auto` included (the
/// engine's own record of the client's handshake is `protocol::Dialect`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum ProtocolDialect {
    /// Try `ugi`, fall back to `uci` when the engine does not answer `ugiok`.
    #[default]
    Auto,
    Ugi,
    Uci,
}

/// One `--engine` (merged with `--each`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub command: PathBuf,
    pub arguments: Vec<String>,
    pub name: String,
    pub directory: Option<PathBuf>,
    pub dialect: ProtocolDialect,
    /// `option.NAME=VALUE` pairs, sent with `setoption` in the order given.
    pub options: Vec<(String, String)>,
    /// This engine's own search limits (`tc=`, `st=`, `movetime=`, `nodes=`, `depth=`):
    /// when any is given they replace the match-wide ones for this engine, so a 4x-time
    /// or time-odds match needs no tricks.
    pub limits: Option<MoveLimits>,
    /// `ponder`: the engine thinks on the opponent's time, on the reply its `bestmove`
    /// names (`go ponder`, then `ponderhit` or `stop`), as fastchess and cutechess-cli do.
    pub ponder: bool,
}

/// Why an engine, shard or limit setting was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("bad engine setting: {reason} ({token})")]
    Engine { token: String, reason: String },
    #[error("bad --shard, expected INDEX/COUNT with 1 <= INDEX <= COUNT ({0})")]
    Shard(String),
    #[error("{0}")]
    Invalid(String),
}

fn engine_error(token: &str, reason: &str) -> SettingsError {
    SettingsError::Engine {
        token: token.to_string(),
        reason: reason.to_string(),
    }
}

/// A whole number above zero from an engine word's value, or an error naming the word.
fn positive<T: FromStr + Default + PartialOrd>(
    word: &str,
    value: &str,
    reason: &str,
) -> Result<T, SettingsError> {
    value
        .parse::<T>()
        .ok()
        .filter(|number| *number > T::default())
        .ok_or_else(|| engine_error(word, reason))
}

impl EngineSpec {
    /// Builds an engine from `--each` words followed by its own `--engine` words (its own
    /// words win; options from both are sent, `--each` first).
    pub fn from_words(each: &[String], own: &[String]) -> Result<Self, SettingsError> {
        let mut command = None;
        let mut name = None;
        let mut directory = None;
        let mut dialect = ProtocolDialect::Auto;
        let mut arguments = Vec::new();
        let mut options = Vec::new();
        let mut limits = MoveLimits::default();
        let mut ponder = false;
        for word in each.iter().chain(own) {
            if word == "ponder" {
                ponder = true;
                continue;
            }
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| engine_error(word, "expected key=value"))?;
            if let Some(option) = key.strip_prefix("option.") {
                if option.is_empty() {
                    return Err(engine_error(word, "option name missing"));
                }
                options.push((option.to_string(), value.to_string()));
                continue;
            }
            match key {
                "tc" => {
                    let control = value
                        .parse::<TimeControl>()
                        .map_err(|error| engine_error(word, &error.reason))?;
                    limits.clock = Some(control);
                }
                "st" => {
                    let seconds = value
                        .parse::<f64>()
                        .ok()
                        .filter(|seconds| seconds.is_finite() && *seconds > 0.0 && *seconds < 1e9)
                        .ok_or_else(|| engine_error(word, "st must be positive seconds"))?;
                    limits.movetime = Some(Duration::from_secs_f64(seconds));
                }
                "movetime" => {
                    let milliseconds =
                        positive(word, value, "movetime must be positive milliseconds")?;
                    limits.movetime = Some(Duration::from_millis(milliseconds));
                }
                "nodes" => {
                    limits.nodes = Some(positive(word, value, "nodes must be a positive count")?);
                }
                "depth" => {
                    limits.depth = Some(positive(word, value, "depth must be a positive count")?);
                }
                "cmd" => command = Some(PathBuf::from(value)),
                "name" => name = Some(value.to_string()),
                "arg" => arguments.push(value.to_string()),
                "dir" => directory = Some(PathBuf::from(value)),
                "proto" => {
                    dialect = match value {
                        "ugi" => ProtocolDialect::Ugi,
                        "uci" => ProtocolDialect::Uci,
                        "auto" => ProtocolDialect::Auto,
                        _ => return Err(engine_error(word, "proto must be ugi, uci or auto")),
                    }
                }
                _ => {
                    return Err(engine_error(
                        word,
                        "unknown key, expected cmd name arg dir proto tc st movetime nodes depth ponder option.NAME",
                    ));
                }
            }
        }
        let command =
            command.ok_or_else(|| engine_error(&own.join(" "), "cmd=PATH is required"))?;
        if command.as_os_str().is_empty() {
            return Err(engine_error("cmd=", "empty command"));
        }
        let name = name.unwrap_or_else(|| {
            command
                .file_stem()
                .map(|stem| stem.to_string_lossy().into_owned())
                .unwrap_or_else(|| command.to_string_lossy().into_owned())
        });
        Ok(EngineSpec {
            command,
            arguments,
            name,
            directory,
            dialect,
            options,
            limits: (!limits.is_empty()).then_some(limits),
            ponder,
        })
    }

    /// The limits this engine plays under: its own when it has any, else the match's.
    pub fn effective_limits(&self, match_limits: MoveLimits) -> MoveLimits {
        self.limits.unwrap_or(match_limits)
    }

    /// The value the user gave option `name` with `option.NAME=` (the last one sent wins;
    /// names compared ignoring case, as engines compare them).
    pub fn option_value(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(option, _)| option.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// What bounds each move an engine is asked for: any combination of a clock, a fixed
/// time, nodes and depth, sent as `go` arguments (which the engine reads into its own
/// [`SearchLimits`](crate::search::SearchLimits)).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveLimits {
    pub clock: Option<TimeControl>,
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

impl MoveLimits {
    pub fn is_empty(&self) -> bool {
        self.clock.is_none()
            && self.movetime.is_none()
            && self.nodes.is_none()
            && self.depth.is_none()
    }
}

/// How long the runner waits for an engine before calling it stalled.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// Handshake (`ugiok`) and `readyok`.
    pub ready: Duration,
    /// Extra wait beyond a move's time limit before a silent engine counts as stalled.
    pub grace: Duration,
    /// The wait for a `bestmove` when neither a clock nor `--movetime` bounds the move.
    pub unbounded_move: Duration,
    /// Allowed overrun of the clock or the movetime before a time forfeit.
    pub margin: Duration,
}

/// `--shard INDEX/COUNT`: this run plays the INDEX-th of COUNT equal blocks of pairs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl FromStr for Shard {
    type Err = SettingsError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || SettingsError::Shard(text.to_string());
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = index.parse().map_err(|_| bad())?;
        let count: u64 = count.parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn engine_words_merge_with_each() {
        let spec = EngineSpec::from_words(
            &words("option.Hash=8 proto=uci"),
            &words("cmd=/opt/bin/tessera arg=--log arg=warn option.Seed=3 dir=/tmp"),
        )
        .expect("valid");
        assert_eq!(spec.command, PathBuf::from("/opt/bin/tessera"));
        assert_eq!(spec.name, "tessera");
        assert_eq!(spec.arguments, ["--log", "warn"]);
        assert_eq!(spec.dialect, ProtocolDialect::Uci);
        assert_eq!(spec.directory, Some(PathBuf::from("/tmp")));
        assert_eq!(
            spec.options,
            [
                ("Hash".to_string(), "8".to_string()),
                ("Seed".to_string(), "3".to_string())
            ]
        );
        let named = EngineSpec::from_words(&[], &words("cmd=x name=Old")).expect("valid");
        assert_eq!(named.name, "Old");
        assert!(!named.ponder);
        let pondering = EngineSpec::from_words(&words("ponder"), &words("cmd=x")).expect("valid");
        assert!(pondering.ponder, "--each ponder: both engines");
    }

    #[test]
    fn engine_limit_words_override_the_match() {
        let plain = EngineSpec::from_words(&[], &words("cmd=x")).expect("valid");
        let match_limits = MoveLimits {
            movetime: Some(Duration::from_millis(100)),
            ..MoveLimits::default()
        };
        assert_eq!(plain.limits, None);
        assert_eq!(plain.effective_limits(match_limits), match_limits);
        let odds = EngineSpec::from_words(&[], &words("cmd=x tc=10+0.1 nodes=500")).expect("valid");
        let own = odds.effective_limits(match_limits);
        assert_eq!(own.movetime, None, "own limits replace the match's");
        assert_eq!(own.nodes, Some(500));
        assert_eq!(own.clock, Some("10+0.1".parse().expect("valid")));
        let fixed = EngineSpec::from_words(&[], &words("cmd=x st=0.4 depth=7")).expect("valid");
        let fixed = fixed.effective_limits(MoveLimits::default());
        assert_eq!(fixed.movetime, Some(Duration::from_millis(400)));
        assert_eq!(fixed.depth, Some(7));
        let millis = EngineSpec::from_words(&[], &words("cmd=x movetime=250")).expect("valid");
        assert_eq!(
            millis.effective_limits(MoveLimits::default()).movetime,
            Some(Duration::from_millis(250))
        );
    }

    #[test]
    fn engine_errors_name_the_word() {
        for (bad, token) in [
            ("name=x", "name=x"),
            ("cmd=x colour=red", "colour=red"),
            ("cmd=x proto=xboard", "proto=xboard"),
            ("cmd=x option.=1", "option.=1"),
            ("cmd=x hash", "hash"),
            ("cmd=x tc=fast", "tc=fast"),
            ("cmd=x st=-1", "st=-1"),
            ("cmd=x st=inf", "st=inf"),
            ("cmd=x movetime=0", "movetime=0"),
            ("cmd=x nodes=lots", "nodes=lots"),
            ("cmd=x depth=", "depth="),
        ] {
            let error = EngineSpec::from_words(&[], &words(bad)).expect_err(bad);
            assert!(error.to_string().contains(token), "{error}");
        }
    }

    #[test]
    fn shards_parse() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "3", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
