//! Match statistics from the first engine's point of view: W/D/L, score, Elo with a 95%
//! interval, likelihood of superiority, draw ratio, and pentanomial counts over pairs.
//!
//! Formulas (the same as cutechess-cli and fastchess, so numbers can be compared):
//! - score `s = (W + D/2) / N`; Elo `= -400 log10(1/s - 1)`.
//! - trinomial interval: per-game variance `v = (W(1-s)^2 + D(1/2-s)^2 + L s^2) / N`,
//!   score bounds `s ± 1.96 sqrt(v/N)`, Elo error = half the Elo distance between them.
//! - pentanomial: the same over pairs, the pair score being 0, 1/4, 1/2, 3/4 or 1; its
//!   normalised Elo is `(s - 1/2) / sqrt(2 v) * 800 / ln 10` (fastchess's nElo).
//! - LOS `= (1 + erf((W - L) / sqrt(2 (W + L)))) / 2` (the normal approximation used by
//!   cutechess-cli; draws carry no information about which engine is stronger).

use std::fmt;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Game results of one pair of colour-swapped games, in half points for the first engine:
/// index 0 = lost both (LL), 1 = LD, 2 = WL or DD, 3 = WD, 4 = WW.
pub type Pentanomial = [u64; 5];

/// Counts of results from the first engine's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub pentanomial: Pentanomial,
}

/// A point estimate with the half-width of its 95% interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub error: f64,
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A score of 0 or 1 has an infinite Elo and no meaningful interval.
        if !self.value.is_finite() {
            return f.write_str(if self.value > 0.0 { "+inf" } else { "-inf" });
        }
        // Adding 0.0 turns -0.0 into 0.0, so an even score does not print as "-0.00".
        write!(f, "{:.2} +/- {:.2}", self.value + 0.0, self.error + 0.0)
    }
}

/// The score of one game for the first engine, in half points (0, 1 or 2).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GamePoints {
    Loss,
    Draw,
    Win,
}

impl GamePoints {
    pub fn half_points(self) -> usize {
        match self {
            GamePoints::Loss => 0,
            GamePoints::Draw => 1,
            GamePoints::Win => 2,
        }
    }
}

impl Tally {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn pairs(&self) -> u64 {
        self.pentanomial.iter().sum()
    }

    /// Adds one game's result.
    pub fn add_game(&mut self, points: GamePoints) {
        match points {
            GamePoints::Loss => self.losses += 1,
            GamePoints::Draw => self.draws += 1,
            GamePoints::Win => self.wins += 1,
        }
    }

    /// Adds one complete pair (its games must also be added with [`Tally::add_game`]).
    pub fn add_pair(&mut self, first: GamePoints, second: GamePoints) {
        self.pentanomial[first.half_points() + second.half_points()] += 1;
    }

    /// The first engine's score in `[0, 1]`; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / games as f64)
    }

    pub fn draw_ratio(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.draws as f64 / games as f64)
    }

    /// Elo and its 95% interval from W/D/L (each game independent).
    pub fn elo(&self) -> Option<Estimate> {
        let frequencies = [self.losses, self.draws, self.wins];
        interval(&frequencies, &[0.0, 0.5, 1.0]).map(|(score, error)| elo_estimate(score, error))
    }

    /// Elo and its 95% interval from the pentanomial pair counts.
    pub fn elo_pentanomial(&self) -> Option<Estimate> {
        interval(&self.pentanomial, &PAIR_SCORES).map(|(score, error)| elo_estimate(score, error))
    }

    /// Normalised Elo (fastchess's nElo) and its 95% interval, from the pair counts.
    pub fn normalized_elo(&self) -> Option<Estimate> {
        let (score, error) = interval(&self.pentanomial, &PAIR_SCORES)?;
        let pairs = self.pairs() as f64;
        let variance = error * error / (Z_95 * Z_95) * pairs;
        if variance <= 0.0 {
            return None;
        }
        let scale = 800.0 / std::f64::consts::LN_10 / (2.0 * variance).sqrt();
        Some(Estimate {
            value: (score - 0.5) * scale,
            error: error * scale,
        })
    }

    /// Likelihood of superiority of the first engine, in `[0, 1]`.
    pub fn los(&self) -> Option<f64> {
        let decisive = self.wins + self.losses;
        if decisive == 0 {
            return None;
        }
        let difference = self.wins as f64 - self.losses as f64;
        Some(0.5 * (1.0 + erf(difference / (2.0 * decisive as f64).sqrt())))
    }
}

/// The score of a pair for each pentanomial index.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Mean score and the 95% half-width of its mean, for counts over outcomes with the given
/// scores. `None` without data.
fn interval(counts: &[u64], scores: &[f64]) -> Option<(f64, f64)> {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return None;
    }
    let total = total as f64;
    let mean: f64 = counts
        .iter()
        .zip(scores)
        .map(|(&count, &score)| count as f64 * score)
        .sum::<f64>()
        / total;
    let variance: f64 = counts
        .iter()
        .zip(scores)
        .map(|(&count, &score)| count as f64 * (score - mean).powi(2))
        .sum::<f64>()
        / total;
    Some((mean, Z_95 * (variance / total).sqrt()))
}

fn elo_estimate(score: f64, error: f64) -> Estimate {
    let low = score_to_elo(score - error);
    let high = score_to_elo(score + error);
    Estimate {
        value: score_to_elo(score),
        error: (high - low) / 2.0,
    }
}

/// Elo difference of a score (infinite at 0 and 1; scores are clamped into `[0, 1]`).
pub fn score_to_elo(score: f64) -> f64 {
    let score = score.clamp(0.0, 1.0);
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of an Elo difference under the logistic model.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function to about 1.2e-7 (the `erfcc` fit of Numerical Recipes in C, 2nd
/// edition, section 6.2); std has no `erf`.
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let polynomial = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let complement = t * polynomial.exp();
    if x >= 0.0 {
        1.0 - complement
    } else {
        complement - 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} differs from {expected} by more than {tolerance}"
        );
    }

    fn tally(wins: u64, draws: u64, losses: u64) -> Tally {
        Tally {
            wins,
            draws,
            losses,
            pentanomial: [0; 5],
        }
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // Abramowitz and Stegun, table 7.1: erf(0.5) = 0.5204998778, erf(1) = 0.8427007929,
        // erf(2) = 0.9953222650.
        close(erf(0.0), 0.0, 1e-7);
        close(erf(0.5), 0.520_499_877_8, 2e-7);
        close(erf(1.0), 0.842_700_792_9, 2e-7);
        close(erf(2.0), 0.995_322_265_0, 2e-7);
        close(erf(-1.0), -0.842_700_792_9, 2e-7);
    }

    #[test]
    fn elo_and_interval_from_wdl_match_fastchess() {
        // fastchess app/tests/elo_test.cpp, "EloWDL 2": W 136, L 96, D 111 gives
        // Elo 40.70 +/- 30.43 (its EloWDL uses the cutechess formula of this module).
        // A hand computation with the formula in Python gives 40.7025 +/- 30.4272.
        let elo = tally(136, 111, 96).elo().expect("games played");
        close(elo.value, 40.7025, 1e-3);
        close(elo.error, 30.4272, 1e-3);
    }

    #[test]
    fn elo_of_simple_scores_by_hand() {
        // 3 wins, 1 loss: s = 0.75, Elo = -400 log10(1/3) = 190.85 (hand computation).
        let elo = tally(3, 0, 1).elo().expect("games played");
        close(elo.value, 190.848_501_9, 1e-6);
        // Even score: Elo 0 exactly.
        close(tally(5, 10, 5).elo().expect("games").value, 0.0, 1e-12);
        assert_eq!(tally(0, 0, 0).elo(), None);
        let perfect = tally(2, 0, 0).elo().expect("games");
        assert!(perfect.value.is_infinite());
        assert_eq!(perfect.to_string(), "+inf");
        // One win, one loss: the upper score bound passes 1, so the interval is unbounded.
        assert_eq!(
            tally(1, 0, 1).elo().expect("games").to_string(),
            "0.00 +/- inf"
        );
    }

    #[test]
    fn los_by_hand() {
        // W 136, L 96: LOS = (1 + erf(40 / sqrt(464))) / 2 = 0.995682 (Python math.erf).
        close(
            tally(136, 111, 96).los().expect("decisive games"),
            0.995_681_9,
            1e-6,
        );
        // Equal wins and losses: one half (to the accuracy of erf).
        close(tally(7, 3, 7).los().expect("decisive games"), 0.5, 1e-7);
        // W 10, L 5: (1 + erf(5 / sqrt(30))) / 2 = 0.901647 (Python math.erf).
        close(
            tally(10, 0, 5).los().expect("decisive games"),
            0.901_647_2,
            1e-6,
        );
        assert_eq!(tally(0, 4, 0).los(), None);
    }

    #[test]
    fn pentanomial_elo_matches_fastchess() {
        // fastchess app/tests/elo_test.cpp, "EloPentanomial 1": LL 34, LD 54, WL 31,
        // DD 32, WD 64, WW 75 gives Elo 55.58 +/- 27.65 and nElo 57.94 +/- 28.28.
        let counts = Tally {
            pentanomial: [34, 54, 31 + 32, 64, 75],
            ..Tally::default()
        };
        let elo = counts.elo_pentanomial().expect("pairs played");
        close(elo.value, 55.58, 0.01);
        close(elo.error, 27.65, 0.01);
        let normalized = counts.normalized_elo().expect("pairs played");
        close(normalized.value, 57.94, 0.01);
        close(normalized.error, 28.28, 0.01);
    }

    #[test]
    fn pairs_land_in_the_right_bucket() {
        let mut counts = Tally::default();
        counts.add_pair(GamePoints::Win, GamePoints::Loss);
        counts.add_pair(GamePoints::Draw, GamePoints::Draw);
        counts.add_pair(GamePoints::Win, GamePoints::Draw);
        counts.add_pair(GamePoints::Loss, GamePoints::Loss);
        assert_eq!(counts.pentanomial, [1, 0, 2, 1, 0]);
        assert_eq!(counts.pairs(), 4);
    }
}
