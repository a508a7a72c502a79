//! The sequential probability ratio test over pentanomial pair results, as fishtest and
//! fastchess run it (a generalised SPRT: the log-likelihood ratio of the maximum-likelihood
//! pair-score distributions under the two hypotheses, evaluated on the observed
//! frequencies).
//!
//! Reference: Michel Van den Bergh, "Comments on Normalized Elo" (the MLE under a fixed
//! normalised Elo, section 4.1; under a fixed expected score, proposition 1.1). Counts of
//! zero are replaced by 1e-3 so that the MLE exists, as fastchess does.

use std::fmt;
use std::str::FromStr;

use super::stats::{PAIR_SCORES, Tally, elo_to_score};

/// How `elo0`/`elo1` are read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum SprtModel {
    /// Normalised Elo (fishtest and fastchess's default): the bounds scale with the
    /// observed variance, so draw-heavy matches need no different bounds.
    #[default]
    Normalized,
    /// Plain logistic Elo.
    Logistic,
}

/// `--sprt elo0=A elo1=B alpha=0.05 beta=0.05 [model=normalized|logistic]`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// Where the test stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The lower bound was crossed: the first engine is not `elo1` better (H0 accepted).
    AcceptH0,
    /// The upper bound was crossed: the first engine is `elo1` better (H1 accepted).
    AcceptH1,
    Continue,
}

/// Why a `--sprt` value was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad --sprt setting: {reason} ({token})")]
pub struct SprtError {
    pub token: String,
    pub reason: String,
}

impl Sprt {
    /// Parses the `key=value` words of `--sprt`.
    pub fn from_words(words: &[String]) -> Result<Self, SprtError> {
        let error = |token: &str, reason: &str| SprtError {
            token: token.to_string(),
            reason: reason.to_string(),
        };
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        };
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| error(word, "expected key=value"))?;
            if key == "model" {
                sprt.model = value
                    .parse()
                    .map_err(|reason: String| error(word, &reason))?;
                continue;
            }
            let number: f64 = value
                .parse()
                .ok()
                .filter(|number: &f64| number.is_finite())
                .ok_or_else(|| error(word, "not a number"))?;
            match key {
                "elo0" => sprt.elo0 = number,
                "elo1" => sprt.elo1 = number,
                "alpha" => sprt.alpha = number,
                "beta" => sprt.beta = number,
                _ => {
                    return Err(error(
                        word,
                        "unknown key, expected elo0 elo1 alpha beta model",
                    ));
                }
            }
        }
        let all = words.join(" ");
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err(error(&all, "elo0 and elo1 are required"));
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err(error(&all, "elo0 must be below elo1"));
        }
        let in_range = |p: f64| p > 0.0 && p < 1.0;
        if !in_range(sprt.alpha) || !in_range(sprt.beta) || sprt.alpha + sprt.beta >= 1.0 {
            return Err(error(
                &all,
                "alpha and beta must lie in (0, 1) with a sum below 1",
            ));
        }
        Ok(sprt)
    }

    /// The lower bound, `ln(beta / (1 - alpha))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound, `ln((1 - beta) / alpha)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 for the pair counts.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.pairs() == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = tally
            .pentanomial
            .iter()
            .map(|&count| if count == 0 { 1e-3 } else { count as f64 })
            .collect();
        let total: f64 = counts.iter().sum();
        let observed: Vec<f64> = counts.iter().map(|count| count / total).collect();
        let (under_h0, under_h1) = match self.model {
            SprtModel::Normalized => {
                // A pair's normalised Elo is sqrt(2) times the per-game one.
                let to_t =
                    |elo: f64| std::f64::consts::SQRT_2 * elo / (800.0 / std::f64::consts::LN_10);
                (
                    mle_normalized(&observed, 0.5, to_t(self.elo0)),
                    mle_normalized(&observed, 0.5, to_t(self.elo1)),
                )
            }
            SprtModel::Logistic => (
                mle_with_mean(&observed, elo_to_score(self.elo0)),
                mle_with_mean(&observed, elo_to_score(self.elo1)),
            ),
        };
        total
            * observed
                .iter()
                .zip(under_h0.iter().zip(&under_h1))
                .map(|(p, (p0, p1))| p * (p1.ln() - p0.ln()))
                .sum::<f64>()
    }

    pub fn decision(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={} model={}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            match self.model {
                SprtModel::Normalized => "normalized",
                SprtModel::Logistic => "logistic",
            }
        )
    }
}

impl FromStr for SprtModel {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "normalized" | "normalised" => Ok(SprtModel::Normalized),
            "logistic" => Ok(SprtModel::Logistic),
            _ => Err("model must be normalized or logistic".to_string()),
        }
    }
}

/// The root of `sum p_i phi_i / (1 + theta phi_i) = 0` (decreasing in theta) between the
/// poles `-1/max(phi)` and `-1/min(phi)`, by bisection. `None` if phi has no sign change.
fn solve_theta(observed: &[f64], phi: &[f64]) -> Option<f64> {
    let low_phi = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let high_phi = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(low_phi < 0.0 && high_phi > 0.0) {
        return None;
    }
    let equation = |theta: f64| -> f64 {
        observed
            .iter()
            .zip(phi)
            .map(|(p, value)| p * value / (1.0 + theta * value))
            .sum()
    };
    let (mut low, mut high) = (-1.0 / high_phi, -1.0 / low_phi);
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if equation(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    Some(0.5 * (low + high))
}

/// The distribution closest (in likelihood) to `observed` whose mean pair score is `mean`.
fn mle_with_mean(observed: &[f64], mean: f64) -> Vec<f64> {
    let phi: Vec<f64> = PAIR_SCORES.iter().map(|score| score - mean).collect();
    match solve_theta(observed, &phi) {
        Some(theta) => observed
            .iter()
            .zip(&phi)
            .map(|(p, value)| p / (1.0 + theta * value))
            .collect(),
        None => observed.to_vec(),
    }
}

/// The distribution closest to `observed` with `(mean - reference) / sigma = t`, by the
/// fixed-point iteration of Van den Bergh's section 4.1, started from the uniform one.
fn mle_normalized(observed: &[f64], reference: f64, t: f64) -> Vec<f64> {
    let mut estimate = vec![1.0 / observed.len() as f64; observed.len()];
    for _ in 0..1000 {
        let mean: f64 = estimate.iter().zip(PAIR_SCORES).map(|(p, a)| p * a).sum();
        let variance: f64 = estimate
            .iter()
            .zip(PAIR_SCORES)
            .map(|(p, a)| p * (a - mean).powi(2))
            .sum();
        let sigma = variance.sqrt();
        let phi: Vec<f64> = PAIR_SCORES
            .iter()
            .map(|a| a - reference - 0.5 * t * sigma * (1.0 + ((a - mean) / sigma).powi(2)))
            .collect();
        let Some(theta) = solve_theta(observed, &phi) else {
            return estimate;
        };
        let mut largest_change: f64 = 0.0;
        for ((p, value), old) in observed.iter().zip(&phi).zip(estimate.iter_mut()) {
            let new = p / (1.0 + theta * value);
            largest_change = largest_change.max((new - *old).abs());
            *old = new;
        }
        if largest_change < 1e-10 {
            break;
        }
    }
    estimate
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    /// Pair counts in fastchess's constructor order (LL, LD, WL, DD, WD, WW).
    fn pairs(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Tally {
        Tally {
            pentanomial: [ll, ld, wl + dd, wd, ww],
            ..Tally::default()
        }
    }

    fn close(actual: f64, expected: f64) {
        // fastchess checks these to 1% (doctest Approx epsilon 0.01).
        assert!(
            (actual - expected).abs() <= 0.01 * expected.abs(),
            "LLR {actual}, expected {expected}"
        );
    }

    #[test]
    fn normalized_llr_matches_fastchess() {
        // fastchess app/tests/sprt_test.cpp, "normalized pentanomial 1" and "2"; an
        // independent Python transcription of the MLE gives 2.2504 and 3.0102.
        close(
            sprt(0.0, 2.0, SprtModel::Normalized).llr(&pairs(365, 16618, 36029, 200, 16974, 390)),
            2.25,
        );
        close(
            sprt(-1.75, 0.25, SprtModel::Normalized).llr(&pairs(127, 4883, 10311, 401, 5150, 104)),
            3.01,
        );
    }

    #[test]
    fn logistic_llr_matches_fastchess() {
        // fastchess app/tests/sprt_test.cpp, "logistic pentanomial 1" and "2".
        close(
            sprt(0.5, 2.5, SprtModel::Logistic).llr(&pairs(223, 9863, 20279, 1000, 10037, 246)),
            -3.07,
        );
        close(
            sprt(0.0, 2.0, SprtModel::Logistic).llr(&pairs(871, 26175, 55003, 980, 26678, 821)),
            -4.98,
        );
    }

    #[test]
    fn bounds_and_decisions() {
        let test = sprt(0.0, 5.0, SprtModel::Normalized);
        // ln(0.05 / 0.95) = -2.944439 and ln(0.95 / 0.05) = 2.944439 (hand computation).
        assert!((test.lower_bound() + 2.944_439).abs() < 1e-6);
        assert!((test.upper_bound() - 2.944_439).abs() < 1e-6);
        assert_eq!(test.decision(3.0), SprtDecision::AcceptH1);
        assert_eq!(test.decision(-3.0), SprtDecision::AcceptH0);
        assert_eq!(test.decision(0.0), SprtDecision::Continue);
        // A crushing first engine crosses the upper bound, a crushed one the lower (the
        // Python transcription gives about +5.9 and -6.1 for these 360 pairs).
        assert_eq!(
            test.decision(test.llr(&pairs(0, 0, 30, 30, 120, 180))),
            SprtDecision::AcceptH1
        );
        assert_eq!(
            test.decision(test.llr(&pairs(180, 120, 30, 30, 0, 0))),
            SprtDecision::AcceptH0
        );
        assert_eq!(test.llr(&Tally::default()), 0.0);
    }

    #[test]
    fn parses_words_and_rejects_bad_ones() {
        let words = |text: &str| text.split(' ').map(str::to_string).collect::<Vec<_>>();
        let parsed =
            Sprt::from_words(&words("elo0=0 elo1=5 alpha=0.1 model=logistic")).expect("ok");
        assert_eq!(parsed.elo1, 5.0);
        assert_eq!(parsed.alpha, 0.1);
        assert_eq!(parsed.beta, 0.05);
        assert_eq!(parsed.model, SprtModel::Logistic);
        for bad in [
            "elo0=0",
            "elo0=5 elo1=0",
            "elo0=0 elo1=5 alpha=1",
            "elo0=x elo1=5",
            "foo=1",
            "elo0",
        ] {
            assert!(Sprt::from_words(&words(bad)).is_err(), "{bad}");
        }
    }
}
