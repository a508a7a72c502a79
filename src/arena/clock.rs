//! Time controls and the clocks the runner keeps for each player.
//!
//! The runner measures every move itself (from sending `go` to reading `bestmove`), so an
//! engine's own idea of its time never decides a forfeit.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A `--tc` value: `moves/seconds+increment`, `seconds+increment` or `seconds`, where
/// seconds may be fractional or written `minutes:seconds` (cutechess-cli conventions).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period; the base time is added again after every period.
    pub moves: Option<u32>,
    pub base: Duration,
    pub increment: Duration,
}

/// Why a `--tc` string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad time control, expected moves/seconds+increment, seconds+increment or seconds: {reason} ({token})"
)]
pub struct TimeControlError {
    pub token: String,
    pub reason: String,
}

fn time_error(token: &str, reason: &str) -> TimeControlError {
    TimeControlError {
        token: token.to_string(),
        reason: reason.to_string(),
    }
}

/// The most minutes or seconds a time names (about 31 years): far from any real game,
/// and sums of such times stay far from overflowing a `Duration`.
const MAX_SECONDS: u64 = 1_000_000_000;

/// Parses `12.5` or `1:30` (minutes:seconds) into a duration.
fn parse_seconds(text: &str) -> Result<Duration, TimeControlError> {
    let (minutes, seconds) = match text.split_once(':') {
        Some((minutes, seconds)) => {
            let minutes: u64 = minutes
                .parse()
                .map_err(|_| time_error(text, "minutes must be a whole number"))?;
            if minutes > MAX_SECONDS / 60 {
                return Err(time_error(text, "minutes out of range"));
            }
            (minutes, seconds)
        }
        None => (0, text),
    };
    let seconds: f64 = seconds
        .parse()
        .map_err(|_| time_error(text, "not a number of seconds"))?;
    if !seconds.is_finite() || !(0.0..=MAX_SECONDS as f64).contains(&seconds) {
        return Err(time_error(text, "seconds out of range"));
    }
    let total = Duration::from_secs(minutes.saturating_mul(60)) + Duration::from_secs_f64(seconds);
    Ok(total)
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves: u32 = moves
                    .parse()
                    .map_err(|_| time_error(text, "moves per period must be a whole number"))?;
                if moves == 0 {
                    return Err(time_error(text, "moves per period must be positive"));
                }
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, increment)) => (parse_seconds(base), parse_seconds(increment)),
            None => (parse_seconds(rest), Ok(Duration::ZERO)),
        };
        // Errors name the whole time control, not just the part that failed.
        let whole = |error: TimeControlError| time_error(text, &error.reason);
        let (base, increment) = (base.map_err(whole)?, increment.map_err(whole)?);
        if base.is_zero() && increment.is_zero() {
            return Err(time_error(text, "no time at all"));
        }
        Ok(TimeControl {
            moves,
            base,
            increment,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

/// One player's clock during a game, kept by the runner; `go` sends what is left of it
/// (which the engine reads into its own [`Clock`](crate::search::Clock)).
#[derive(Clone, Debug)]
pub struct GameClock {
    control: TimeControl,
    remaining: Duration,
    moves_made: u32,
}

/// The clock ran out: the move took `elapsed`, more than the time left plus the margin.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Flagged {
    pub elapsed: Duration,
    pub allowed: Duration,
}

impl GameClock {
    pub fn new(control: TimeControl) -> Self {
        GameClock {
            control,
            remaining: control.base,
            moves_made: 0,
        }
    }

    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    pub fn increment(&self) -> Duration {
        self.control.increment
    }

    /// Moves left in the current period (`movestogo`), for `moves/...` controls.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.control
            .moves
            .map(|moves| moves - self.moves_made % moves)
    }

    /// The longest a move may take before it loses on time.
    pub fn allowed(&self, margin: Duration) -> Duration {
        self.remaining + margin
    }

    /// Charges a move that took `elapsed`; adds the increment and, at the end of a
    /// period, the base time again.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> Result<(), Flagged> {
        let allowed = self.allowed(margin);
        if elapsed > allowed {
            self.remaining = Duration::ZERO;
            return Err(Flagged { elapsed, allowed });
        }
        self.remaining = self.remaining.saturating_sub(elapsed) + self.control.increment;
        self.moves_made += 1;
        if let Some(moves) = self.control.moves {
            if self.moves_made % moves == 0 {
                self.remaining += self.control.base;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(value: u64) -> Duration {
        Duration::from_millis(value)
    }

    #[test]
    fn parses_every_form() {
        let tc: TimeControl = "40/60+0.5".parse().expect("valid");
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.base, ms(60_000));
        assert_eq!(tc.increment, ms(500));
        let tc: TimeControl = "10+0.1".parse().expect("valid");
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (None, ms(10_000), ms(100))
        );
        let tc: TimeControl = "8".parse().expect("valid");
        assert_eq!((tc.base, tc.increment), (ms(8_000), Duration::ZERO));
        let tc: TimeControl = "1:30+1".parse().expect("valid");
        assert_eq!((tc.base, tc.increment), (ms(90_000), ms(1_000)));
        let tc: TimeControl = "0.25".parse().expect("valid");
        assert_eq!(tc.base, ms(250));
    }

    #[test]
    fn rejects_bad_forms_naming_the_token() {
        for bad in [
            "",
            "abc",
            "0/10",
            "x/10",
            "10+",
            "-5",
            "0",
            "0+0",
            "NaN",
            "inf",
            "1e99",
            // Found by fuzzing: a minutes count this large overflowed a Duration.
            "9000000000009864671:66666",
            "16666667:0",
        ] {
            let error = bad.parse::<TimeControl>().expect_err(bad);
            assert!(error.to_string().contains(&format!("({bad})")), "{error}");
        }
    }

    #[test]
    fn increments_and_periods_refill_the_clock() {
        let mut clock = GameClock::new("2/1+0.1".parse().expect("valid"));
        assert_eq!(clock.moves_to_go(), Some(2));
        clock.charge(ms(300), Duration::ZERO).expect("in time");
        // 1000 - 300 + 100
        assert_eq!(clock.remaining(), ms(800));
        assert_eq!(clock.moves_to_go(), Some(1));
        clock
            .charge(ms(800), Duration::ZERO)
            .expect("exactly in time");
        // 800 - 800 + 100 increment + 1000 new period
        assert_eq!(clock.remaining(), ms(1_100));
        assert_eq!(clock.moves_to_go(), Some(2));
    }

    #[test]
    fn flags_past_the_margin_only() {
        let mut clock = GameClock::new("1".parse().expect("valid"));
        clock.charge(ms(1_040), ms(50)).expect("within the margin");
        assert_eq!(clock.remaining(), Duration::ZERO);
        let flagged = clock.charge(ms(51), ms(50)).expect_err("past the margin");
        assert_eq!(flagged.allowed, ms(50));
    }
}
