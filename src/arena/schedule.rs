//! Which games a run plays: global game numbers, pairs and colours.
//!
//! Game `g` belongs to pair `g / 2`; the first engine has White in even games. Numbers are
//! global across shards (`--game-offset`, `--shard`), so every shard plays other openings
//! and `--merge` can tell the pairs apart.

use std::collections::HashSet;
use std::ops::Range;

use super::settings::{SettingsError, Shard};

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
