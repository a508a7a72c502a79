//! Strength levels (`UCI_LimitStrength`): the engine plays as a weaker player, not as
//! the full engine on a short clock. A level searches its candidate moves (every root
//! move, or its best few: several lines, `MultiPV`) within a small node budget, and
//! (where the budget does not cover one ply of each) one ply; then it draws its move
//! among them with weights `exp((score - best) / T)`: a move `T` centi-units worse than the best is drawn `e`
//! times less often, so the mistakes are the ones the search itself sees as small, and
//! their size falls with the temperature `T`. The draw uses the engine's generator,
//! seeded by `Seed`, so a level plays the same moves for the same seed and history; the
//! budget counts nodes, so it plays alike on a fast or a slow machine (a `go` with less
//! time still stops it sooner).
//!
//! Written once for every game: alpha-beta reports one line per root move, the MCTS one
//! per root child visited (the search's own choice first; no other line counts as better
//! than it, so a child that a few lucky playouts overrate is not preferred to it); a level
//! over every move also draws the moves left without a line, each as its worst line. Each
//! game's levels, with their measured Elo, are facts of the game
//! ([`GameFacts::levels`](crate::game::GameFacts::levels)). This file holds what a level
//! is and the draw; the engine's search at a level is in `level_search`.

use crate::game::Level;
use crate::search::Score;
use crate::search::rng::Rng;

/// A proven win's value in centi-units, for the draw: far above any estimate.
const PROVEN: i64 = 1_000_000;

/// How a limited engine plays: its node budget per move, its candidates and its
/// temperature, resolved from a game's levels ([`Strength::of_level`], [`Strength::for_elo`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Strength {
    pub nodes: u64,
    /// The best lines the move is drawn among; 0 for every legal move.
    pub lines: u32,
    /// Centi-units of the game's score; 0 always plays the search's choice.
    pub temperature: u32,
}

impl Strength {
    /// The strength of one level of a table.
    pub fn of_level(level: &Level) -> Self {
        Strength {
            nodes: level.nodes.max(1),
            lines: level.lines,
            temperature: level.temperature,
        }
    }

    /// The strength for `elo` in `levels` (weakest first, Elo rising): between two levels,
    /// the node budget and the temperature interpolated geometrically (a temperature is a
    /// scale: linearly, the midpoints played 40 to 110 Elo below their targets) and the lines
    /// those of the nearer level; below the
    /// weakest or above the strongest, that level. `None` for a game without levels.
    pub fn for_elo(levels: &[Level], elo: u32) -> Option<Self> {
        let first = levels.first()?;
        let last = levels.last()?;
        if elo <= first.elo {
            return Some(Strength::of_level(first));
        }
        if elo >= last.elo {
            return Some(Strength::of_level(last));
        }
        let (low, high) = levels
            .windows(2)
            .map(|pair| (&pair[0], &pair[1]))
            .find(|(low, high)| (low.elo..=high.elo).contains(&elo))?;
        let span = f64::from(high.elo.saturating_sub(low.elo)).max(1.0);
        let fraction = f64::from(elo - low.elo) / span;
        let nodes = geometric(low.nodes.max(1) as f64, high.nodes.max(1) as f64, fraction);
        let temperature = geometric(
            f64::from(low.temperature),
            f64::from(high.temperature),
            fraction,
        );
        let nearer = if fraction < 0.5 { low } else { high };
        Some(Strength {
            nodes: nodes.round().max(1.0) as u64,
            lines: nearer.lines,
            temperature: temperature.round().max(0.0) as u32,
        })
    }

    /// The lowest and highest Elo of `levels`; `None` for a game without levels.
    pub fn elo_range(levels: &[Level]) -> Option<(u32, u32)> {
        let low = levels.iter().map(|level| level.elo).min()?;
        let high = levels.iter().map(|level| level.elo).max()?;
        Some((low, high))
    }
}

/// The point `fraction` of the way from `low` to `high` on a log scale; linear where
/// either is 0 (a level that always plays its search's choice).
fn geometric(low: f64, high: f64, fraction: f64) -> f64 {
    if low <= 0.0 || high <= 0.0 {
        return low + fraction * (high - low);
    }
    (low.ln() + fraction * (high.ln() - low.ln())).exp()
}

/// A score as a number of centi-units for the draw: a proven result far beyond every
/// estimate, a quicker win better than a slower one.
pub fn centi_units(score: Score) -> i64 {
    match score {
        Score::Centipawns(value) => i64::from(value),
        Score::Mate(moves) if moves > 0 => PROVEN - i64::from(moves),
        Score::Mate(moves) => -PROVEN - i64::from(moves),
    }
}

/// The index in `scores` (the search's lines, its own choice first) of the move drawn:
/// weights `exp((score - best) / temperature)`, where no line counts above the first.
pub fn draw(scores: &[i64], temperature: u32, rng: &mut Rng) -> usize {
    let Some(&first) = scores.first() else {
        return 0;
    };
    if temperature == 0 {
        return 0;
    }
    let weights: Vec<f64> = scores
        .iter()
        .map(|&score| ((score.min(first) - first) as f64 / f64::from(temperature)).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut target = rng.unit() * total;
    for (index, weight) in weights.iter().enumerate() {
        if target < *weight {
            return index;
        }
        target -= weight;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::{Strength, draw};
    use crate::game::Level;
    use crate::search::rng;

    const LEVELS: [Level; 3] = [
        Level {
            nodes: 100,
            lines: 0,
            temperature: 300,
            elo: 100,
        },
        Level {
            nodes: 10_000,
            lines: 4,
            temperature: 100,
            elo: 300,
        },
        Level {
            nodes: 40_000,
            lines: 4,
            temperature: 0,
            elo: 500,
        },
    ];

    #[test]
    fn elo_is_clamped_to_the_table_and_interpolated_between_levels() {
        assert_eq!(Strength::for_elo(&[], 100), None);
        assert_eq!(
            Strength::for_elo(&LEVELS, 0),
            Some(Strength::of_level(&LEVELS[0]))
        );
        assert_eq!(
            Strength::for_elo(&LEVELS, 9_999),
            Some(Strength::of_level(&LEVELS[2]))
        );
        assert_eq!(
            Strength::for_elo(&LEVELS, 300),
            Some(Strength::of_level(&LEVELS[1]))
        );
        // Halfway between 100 and 10 000 nodes and 300 and 100 degrees, both geometrically;
        // towards a temperature of 0, linearly.
        assert_eq!(
            Strength::for_elo(&LEVELS, 200),
            Some(Strength {
                nodes: 1_000,
                lines: 4,
                temperature: 173
            })
        );
        assert_eq!(
            Strength::for_elo(&LEVELS, 400),
            Some(Strength {
                nodes: 20_000,
                lines: 4,
                temperature: 50
            })
        );
        assert_eq!(Strength::elo_range(&LEVELS), Some((100, 500)));
    }

    #[test]
    fn the_draw_prefers_better_moves_more_the_colder_it_is() {
        let scores = [50, 40, -200, -1_000];
        let mut generator = rng::seeded(7);
        assert!((0..100).all(|_| draw(&scores, 0, &mut generator) == 0));
        let count = |temperature: u32| {
            let mut generator = rng::seeded(7);
            let mut counts = [0usize; 4];
            for _ in 0..4_000 {
                counts[draw(&scores, temperature, &mut generator)] += 1;
            }
            counts
        };
        let warm = count(400);
        let cold = count(50);
        assert!(warm[0] > warm[2] && warm[2] > warm[3], "{warm:?}");
        assert!(cold[0] > warm[0], "{cold:?} {warm:?}");
        assert!(cold[2] < warm[2], "{cold:?} {warm:?}");
        assert!(
            warm[3] > 0,
            "a warm level still blunders now and then: {warm:?}"
        );
    }

    #[test]
    fn no_line_counts_above_the_searchs_own_choice() {
        // A second line overrated above the first is drawn at most as often as it.
        let scores = [0, 500];
        let mut generator = rng::seeded(3);
        let seconds = (0..2_000)
            .filter(|_| draw(&scores, 100, &mut generator) == 1)
            .count();
        assert!((800..1_200).contains(&seconds), "{seconds}");
    }
}
