//! Which games a run plays: global game numbers, pairs and colours.
//!
//! Game `g` belongs to pair `g / 2`; the first engine has White in even games. Numbers are
//! global across shards (`--game-offset`, `--shard`), so every shard plays other openings
//! and `--merge` can tell the pairs apart.

use std::collections::HashSet;
use std::ops::{Range, RangeInclusive};

use crate::random::SplitMix64;

use super::settings::{SettingsError, Shard};

/// The seeds the runner sends as `Seed`: a UCI spin is a 32-bit signed number, so every
/// engine can take a seed in this range.
pub const ENGINE_SEEDS: RangeInclusive<u64> = 0..=i32::MAX as u64;

/// Mixed into the match seed so that engine seeds are a stream apart from the openings'.
const ENGINE_SEED_SALT: u64 = 0x5EED_0FE4_614E_5EED;

/// The seeds an engine takes: its advertised `spin` range within [`ENGINE_SEEDS`], or
/// all of [`ENGINE_SEEDS`] when it states none (or one outside it).
pub fn engine_seed_range(advertised: Option<(i64, i64)>) -> RangeInclusive<u64> {
    let largest = *ENGINE_SEEDS.end();
    advertised
        .and_then(|(min, max)| {
            let low = u64::try_from(min.max(0)).ok()?;
            let high = u64::try_from(max).ok()?.min(largest);
            (low <= high).then_some(low..=high)
        })
        .unwrap_or(ENGINE_SEEDS)
}

/// One game to play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameJob {
    /// Global game number.
    pub game: u64,
    pub pair: u64,
    /// True when the first `--engine` plays White (player 1).
    pub first_is_white: bool,
}

impl GameJob {
    pub fn new(game: u64) -> Self {
        GameJob {
            game,
            pair: game / 2,
            first_is_white: game % 2 == 0,
        }
    }

    /// Index (0 or 1) of the engine playing White.
    pub fn white_engine(&self) -> usize {
        if self.first_is_white { 0 } else { 1 }
    }

    /// The `Seed` of the engine in `seat` (0 for the first `--engine`) in this game, in
    /// `range`: a function of the match seed, the game number and the seat alone, so that
    /// games draw independent numbers while a match (resumed, sharded, or at any
    /// concurrency) plays the same games for the same `--seed`.
    pub fn engine_seed(&self, match_seed: u64, seat: usize, range: RangeInclusive<u64>) -> u64 {
        let item = self.game.wrapping_mul(2).wrapping_add(seat as u64);
        let mut stream = SplitMix64::for_item(match_seed ^ ENGINE_SEED_SALT, item);
        let span = range.end().saturating_sub(*range.start()).saturating_add(1);
        range.start() + stream.below_exact(span.max(1))
    }
}

/// The global game numbers of this run: `games` from `offset`, or this shard's block of
/// pairs out of `games` in all.
pub fn game_range(
    games: u64,
    offset: u64,
    shard: Option<Shard>,
) -> Result<Range<u64>, SettingsError> {
    if offset % 2 != 0 {
        return Err(SettingsError::Invalid(format!(
            "--game-offset must be even so that pairs stay together ({offset})"
        )));
    }
    let Some(shard) = shard else {
        return Ok(offset..offset + games);
    };
    let pairs = games.div_ceil(2);
    let first_pair = pairs * (shard.index - 1) / shard.count;
    let end_pair = pairs * shard.index / shard.count;
    let start = offset + 2 * first_pair;
    let end = offset + (2 * end_pair).min(games);
    Ok(start..end)
}

/// The jobs of a run in order, leaving out games already recorded (`--resume`).
pub fn jobs(range: Range<u64>, done: &HashSet<u64>) -> Vec<GameJob> {
    range
        .filter(|game| !done.contains(game))
        .map(GameJob::new)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_game_once_and_keep_pairs_together() {
        for games in [1u64, 2, 7, 10, 101] {
            for count in 1..=5u64 {
                let mut seen = Vec::new();
                for index in 1..=count {
                    let range = game_range(games, 0, Some(Shard { index, count })).expect("valid");
                    assert_eq!(range.start % 2, 0, "a shard starts on a pair");
                    seen.extend(range);
                }
                assert_eq!(
                    seen,
                    (0..games).collect::<Vec<_>>(),
                    "{games} games, {count} shards"
                );
            }
        }
    }

    #[test]
    fn engine_seeds_differ_by_game_seat_and_match_seed_and_stay_in_range() {
        let mut seen = HashSet::new();
        for match_seed in [0u64, 1] {
            for game in 0..50 {
                for seat in 0..2 {
                    let seed = GameJob::new(game).engine_seed(match_seed, seat, ENGINE_SEEDS);
                    assert!(ENGINE_SEEDS.contains(&seed));
                    assert!(seen.insert(seed), "seed {seed} repeated");
                    // The same inputs give the same seed.
                    assert_eq!(
                        seed,
                        GameJob::new(game).engine_seed(match_seed, seat, ENGINE_SEEDS)
                    );
                }
            }
        }
        let narrow = engine_seed_range(Some((3, 5)));
        assert_eq!(narrow, 3..=5);
        let drawn: HashSet<u64> = (0..40)
            .map(|game| GameJob::new(game).engine_seed(7, 0, narrow.clone()))
            .collect();
        assert_eq!(drawn, [3, 4, 5].into_iter().collect());
        assert_eq!(engine_seed_range(None), ENGINE_SEEDS);
        assert_eq!(engine_seed_range(Some((-10, 2))), 0..=2);
        assert_eq!(engine_seed_range(Some((0, i64::MAX))), ENGINE_SEEDS);
        assert_eq!(engine_seed_range(Some((-5, -1))), ENGINE_SEEDS);
    }

    #[test]
    fn offsets_shift_games_and_must_be_even() {
        assert_eq!(game_range(6, 10, None).expect("valid"), 10..16);
        assert!(game_range(6, 3, None).is_err());
    }

    #[test]
    fn colours_alternate_within_pairs_and_resume_skips_done_games() {
        let done: HashSet<u64> = [0, 3].into_iter().collect();
        let jobs = jobs(0..6, &done);
        let games: Vec<u64> = jobs.iter().map(|job| job.game).collect();
        assert_eq!(games, [1, 2, 4, 5]);
        assert_eq!(
            jobs[0],
            GameJob {
                game: 1,
                pair: 0,
                first_is_white: false
            }
        );
        assert_eq!(jobs[1].white_engine(), 0);
        assert_eq!(jobs[3].pair, 2);
    }
}
