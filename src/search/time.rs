//! The time manager: how long one search may run.
//!
//! Policy. With `movetime`, the search stops at `movetime - MoveOverhead`, but keeps back
//! at most half the movetime: the default overhead (50 ms, what a loaded machine needs;
//! the contributor guide has the figure) would otherwise leave nothing of a 50 ms move.
//! Up to that limit it iterates: a movetime
//! has no soft target, since time one move leaves unused is lost, and the iteration cut
//! at the limit still offers the best root move it has found. With a clock,
//! the usable time is the remaining time minus `MoveOverhead` and a safety margin (5%,
//! at most 50 ms). The *soft* target is that time divided by the moves still to make
//! (`movestogo`, else the game's own estimate, at least 1) plus half the increment (so in
//! a long game the clock settles where a move costs one increment with a bank of about
//! `moves x increment / 2 + MoveOverhead` left, e.g. 0.26 s at 1 s + 10 ms: a buffer against a busy machine); the *hard* limit, checked inside the search, is 4x the soft target but
//! never more than 25% of the usable time (90% with `movestogo 1`). Between iterations the
//! search stops once it has used the soft target scaled by the position's need: x1.6 when
//! the best move changed in the last iteration, x1.3 more when the score dropped; and it
//! does not start an iteration it is unlikely to finish (more than 60% of the target
//! used).

use std::time::Duration;

use crate::game::Player;

use super::SearchLimits;

/// Time bounds of one search; `None` means no time bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

impl TimeBudget {
    pub const UNLIMITED: TimeBudget = TimeBudget {
        soft: None,
        hard: None,
    };

    /// The budget for `side` to move under `limits`.
    pub fn new(
        limits: &SearchLimits,
        side: Player,
        move_overhead: Duration,
        expected_moves_left: u32,
    ) -> TimeBudget {
        if limits.infinite {
            return TimeBudget::UNLIMITED;
        }
        let mut budget = TimeBudget::UNLIMITED;
        if let Some(movetime) = limits.movetime {
            let hard = movetime
                .saturating_sub(move_overhead.min(movetime / 2))
                .max(Duration::from_millis(1));
            // No soft target: time a move cannot save is spent, the last iteration cut
            // at the limit (its best root move so far counts).
            budget = TimeBudget {
                soft: None,
                hard: Some(hard),
            };
        }
        if let Some(remaining) = limits.clock.time[side.index()] {
            let increment = limits.clock.increment[side.index()];
            let usable = remaining.saturating_sub(move_overhead);
            let margin = (usable / 20).min(Duration::from_millis(50));
            let usable = usable.saturating_sub(margin);
            let moves = limits
                .clock
                .moves_to_go
                .unwrap_or(expected_moves_left)
                .clamp(1, 60);
            let soft = usable / moves + increment / 2;
            let cap = if moves == 1 {
                usable * 9 / 10
            } else {
                usable / 4
            };
            let hard = (soft * 4).min(cap).max(Duration::from_millis(1));
            let soft = soft.min(hard);
            budget = TimeBudget {
                soft: Some(budget.soft.map_or(soft, |other| other.min(soft))),
                hard: Some(budget.hard.map_or(hard, |other| other.min(hard))),
            };
        }
        budget
    }

    /// Whether to start another iteration after `elapsed`, given how unstable the search
    /// looks (`scale` >= 1).
    pub fn continue_iterating(&self, elapsed: Duration, scale: f64) -> bool {
        match (self.soft, self.hard) {
            (Some(soft), hard) => {
                let target = soft.mul_f64(scale);
                let target = hard.map_or(target, |hard| target.min(hard));
                elapsed < target.mul_f64(0.6)
            }
            (None, Some(hard)) => elapsed < hard,
            (None, None) => true,
        }
    }

    /// Whether the search must stop now.
    pub fn hard_expired(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|hard| elapsed >= hard)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::TimeBudget;
    use crate::game::Player;
    use crate::search::{Clock, SearchLimits};

    fn clock_limits(ms: u64, inc: u64, moves_to_go: Option<u32>) -> SearchLimits {
        SearchLimits {
            clock: Clock {
                time: [
                    Some(Duration::from_millis(ms)),
                    Some(Duration::from_millis(1)),
                ],
                increment: [Duration::from_millis(inc), Duration::ZERO],
                moves_to_go,
            },
            ..SearchLimits::default()
        }
    }

    #[test]
    fn clock_budget_stays_inside_the_remaining_time() {
        let overhead = Duration::from_millis(30);
        for (ms, inc, mtg) in [
            (1000, 10, None),
            (50, 0, None),
            (10, 0, Some(1)),
            (0, 0, None),
        ] {
            let budget = TimeBudget::new(&clock_limits(ms, inc, mtg), Player::One, overhead, 30);
            let hard = budget.hard.expect("a clock gives a hard limit");
            let soft = budget.soft.expect("a clock gives a soft target");
            assert!(soft <= hard);
            assert!(
                hard <= Duration::from_millis(ms)
                    .saturating_sub(overhead)
                    .max(Duration::from_millis(1)),
                "{ms} {hard:?}"
            );
        }
        let budget = TimeBudget::new(&clock_limits(60_000, 0, None), Player::One, overhead, 30);
        assert!(
            budget
                .soft
                .is_some_and(|soft| soft > Duration::from_millis(1500))
        );
    }

    /// A long game at 1 s + 10 ms where every move takes its whole soft target: the clock
    /// settles with a bank well above the overhead instead of running down to it.
    #[test]
    fn long_games_keep_a_bank_on_the_clock() {
        let overhead = Duration::from_millis(50);
        let increment = Duration::from_millis(10);
        let mut remaining = Duration::from_millis(1000);
        let mut least = remaining;
        for _ in 0..400 {
            let limits = clock_limits(remaining.as_millis() as u64, 10, None);
            let budget = TimeBudget::new(&limits, Player::One, overhead, 40);
            let used = budget.soft.expect("a clock gives a soft target");
            remaining = remaining.saturating_sub(used) + increment;
            least = least.min(remaining);
        }
        assert!(least >= Duration::from_millis(250), "{least:?}");
    }

    #[test]
    fn movetime_and_infinite() {
        let limits = SearchLimits {
            movetime: Some(Duration::from_millis(100)),
            ..SearchLimits::default()
        };
        let hard = |movetime: u64, overhead: u64| {
            let limits = SearchLimits {
                movetime: Some(Duration::from_millis(movetime)),
                ..SearchLimits::default()
            };
            TimeBudget::new(&limits, Player::Two, Duration::from_millis(overhead), 30).hard
        };
        assert_eq!(hard(1000, 30), Some(Duration::from_millis(970)));
        assert_eq!(hard(100, 30), Some(Duration::from_millis(70)));
        assert_eq!(hard(100, 50), Some(Duration::from_millis(50)));
        assert_eq!(
            hard(50, 50),
            Some(Duration::from_millis(25)),
            "half at most"
        );
        assert_eq!(hard(100, 0), Some(Duration::from_millis(100)));
        assert_eq!(hard(1, 50), Some(Duration::from_millis(1)), "at least 1 ms");
        // A movetime is spent to its limit: iterations go on until the hard stop.
        let budget = TimeBudget::new(&limits, Player::Two, Duration::from_millis(50), 30);
        assert_eq!(budget.soft, None);
        assert!(budget.continue_iterating(Duration::from_millis(45), 3.0));
        assert!(!budget.continue_iterating(Duration::from_millis(50), 1.0));
        let infinite = SearchLimits {
            infinite: true,
            ..limits
        };
        assert_eq!(
            TimeBudget::new(&infinite, Player::Two, Duration::ZERO, 30),
            TimeBudget::UNLIMITED
        );
    }
}
