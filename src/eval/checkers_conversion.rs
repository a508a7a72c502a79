//! Hex checkers conversion terms: what the side ahead in men needs to close out an ending
//! (capture or block every enemy man) before the 80-ply rule draws it, and the contact
//! distance the draw fade uses.
//!
//! Measured on side 9 with 60 ending positions from real games (the leader 3 or more men
//! ahead with at most 12 men, the other side at most 4), each played from both colours at
//! 20,000 nodes a move against the previous evaluation defending: with `hunt`, `restrict`
//! and `space` alone the leader converted 9 of 60 (15%); `space` at 8 instead of 3, 16 of
//! 60; adding `gather` at 3, 8, 16 and 30: 35, 42, 48 and 40 of 60; `gather` at 16 with its
//! capture offset, 46 of 60 with fewer men given away (212 against 246 over the 60 games);
//! `hunt` at 0, the same within the noise (47 of 60). Hunters spread over the board never
//! trap a runner; the whole army closing in does, so `gather` counts every man on the
//! board: counted within 8 rings only, the men beyond had no pull once advancement
//! stopped counting, and in a side-9 ending from a real game 7 of 10 men stayed on their
//! first rows while 3 chased a lone man through count after count.

use crate::board::StridedSet;
use crate::board::hex::HexGeometry;
use crate::game::checkers::GrowingTask;

/// The conversion terms apply against at most this many enemy men.
pub(super) const HUNT_MEN: u32 = 8;
/// How many men must be near the enemy before the draw fade counts them in contact: 6 on
/// side 9, where the armies start 11 rows apart, 3 elsewhere. Against minimax2 at
/// 30,000 nodes, 40 games each: on side 9 with 3, two or three runners reached the
/// enemy's closed army, could not force a trade, and 5 games died 30 v 30 at the 80-ply
/// rule (87.5%); with 6 the army follows them: none, 98.75%. On side 8 6 scored 92.5%
/// against 98.75% (more endings drawn), on side 7 90.0% against 91.25%.
pub(super) fn contact_men(side: usize) -> u32 {
    if side >= 9 { 6 } else { 3 }
}

/// What `gather` adds per own man for each enemy man short of [`HUNT_MEN`], so that with
/// the other terms a capture raises the bonus, whatever closeness it costs the hunters.
const GATHER_OFFSET: i32 = 8;

/// The weights of the conversion terms on one board size, in centi-men per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ConversionWeights {
    pub hunt: i32,
    pub restrict: i32,
    pub space: i32,
    pub gather: i32,
    /// The fewest men the side ahead needs for the terms: with fewer the ending is a
    /// draw however the men stand (exact tables: 3 against 1 is drawn in 93% of side-9
    /// positions and 91% of side-8 ones, 2 against anything on every side), so trading
    /// down into it earns nothing.
    pub fewest_men: i32,
    /// Whether a converting side's advancement stops counting (men parked on the enemy's
    /// edge catch nobody; `gather` pulls them to the enemy men instead).
    pub replaces_advancement: bool,
    /// Whether the terms grow in as the enemy men fall (see [`Self::ramp`]).
    pub ramps_in: bool,
}

/// The denominator of [`ConversionWeights::ramp`]: the terms at full weight.
pub(super) const FULL_RAMP: i32 = (HUNT_MEN as i32 + 1) * (HUNT_MEN as i32 + 1);

impl ConversionWeights {
    /// Sides 7 to 9 (the big boards, where the lone men have room to run): `space` 8 and
    /// `gather` 16 (measured, see the module documentation), and no terms for 3 men or
    /// fewer on sides 8 and 9, 2 on side 7, where the exact tables say such endings are
    /// drawn (3 against 1 is won from 69% of side-7 positions). Smaller boards, Kruzno
    /// among them, keep the weights they were tuned with and no `gather`.
    pub(super) fn for_side(side: usize) -> Self {
        if side >= 7 {
            ConversionWeights {
                hunt: 15,
                restrict: 10,
                space: 8,
                gather: 16,
                fewest_men: if side >= 8 { 4 } else { 3 },
                replaces_advancement: true,
                ramps_in: side == 7,
            }
        } else {
            ConversionWeights {
                hunt: 15,
                restrict: 10,
                space: 3,
                gather: 0,
                fewest_men: 2,
                replaces_advancement: false,
                ramps_in: false,
            }
        }
    }

    /// The share of the terms, out of [`FULL_RAMP`], a side earns against `enemies` men:
    /// all of it, or with [`Self::ramps_in`] ((HUNT_MEN + 1 - enemies) / (HUNT_MEN + 1))^2.
    /// On side 7 a bonus that appeared whole at the ninth enemy man made trading men away
    /// to reach it look good (15 v 10 traded down to 8 v 7; against minimax2 at 100k
    /// nodes, 10 games: 90% without, 100% with). On sides 8 and 9 the same ramp took the
    /// pull away when it was needed (side 9: 95% without, 60% with, eight draws).
    pub(super) fn ramp(self, enemies: i32) -> i32 {
        if self.ramps_in {
            (HUNT_MEN as i32 + 1 - enemies).max(0).pow(2)
        } else {
            FULL_RAMP
        }
    }
}

/// The conversion terms of one side (all zero unless it is ahead against few men).
#[derive(Default, Debug)]
pub(super) struct Conversion {
    pub hunt: i32,
    pub restrict: i32,
    pub space: i32,
    pub gather: i32,
}

impl Conversion {
    /// The weighted sum of the terms (the evaluation keeps them apart, by name).
    #[cfg(test)]
    pub(super) fn total(&self, weights: ConversionWeights) -> i32 {
        weights.hunt * self.hunt
            + weights.restrict * self.restrict
            + weights.space * self.space
            + weights.gather * self.gather
    }
}

/// True when a side with `men` men against `enemies` earns [`conversion`] terms: ahead
/// against at most [`HUNT_MEN`], with at least the board's
/// [`ConversionWeights::fewest_men`]. Checked before the call, which then happens only in
/// endings (the evaluation runs at every node).
#[inline]
pub(super) fn converting(weights: ConversionWeights, men: i32, enemies: i32) -> bool {
    enemies <= HUNT_MEN as i32 && men > enemies && men >= weights.fewest_men
}

/// For the side ahead in men against at most [`HUNT_MEN`] enemy men: bonuses for being
/// close to every enemy man (`hunt`), for taking away his steps (`restrict`), for owning
/// the board (`space`) and for bringing the whole army near the enemy (`gather`, only
/// when `with_gather`), so a won ending is closed out (a side must capture or block every
/// man to win) instead of drifting into the 80-ply rule. Each bonus is a constant minus
/// what the enemy men still have, so a capture always raises it. `grown` is the board's
/// [`HexGeometry::grown`] (the position's faster
/// [`Checkers::grown`](crate::game::checkers::Checkers::grown) in play), `valid` its
/// cells. Callers check [`converting`] first.
#[allow(clippy::too_many_arguments)]
pub(super) fn conversion<const N: usize>(
    geometry: &HexGeometry,
    grown: impl Fn(StridedSet<N>) -> StridedSet<N> + Copy,
    valid: StridedSet<N>,
    men: StridedSet<N>,
    enemies: StridedSet<N>,
    empty: StridedSet<N>,
    enemy_steps: i32,
    with_gather: bool,
) -> Conversion {
    debug_assert!(men.len() > enemies.len() && enemies.len() <= HUNT_MEN);
    let diameter = 2 * (geometry.side() as i32 - 1);
    // Distance from each enemy man to the nearest own man: rings around the own men
    // (the board is convex, so ring r holds exactly the cells at distance r).
    let mut distances = 0;
    let mut reach = men;
    let mut unreached = enemies;
    let mut ring = 0;
    while !unreached.is_empty() && ring < diameter {
        ring += 1;
        reach = grown(reach) & valid;
        let found = unreached & reach;
        distances += ring * found.len() as i32;
        unreached = unreached.without(found);
    }
    Conversion {
        hunt: HUNT_MEN as i32 * diameter - distances,
        restrict: 6 * HUNT_MEN as i32 - enemy_steps,
        space: geometry.cell_count() as i32 - enemy_space(grown, empty, men, enemies) as i32,
        gather: if with_gather {
            gather(grown, valid, diameter, men, enemies)
        } else {
            0
        },
    }
}

/// Per own man at distance d from the nearest enemy man, `diameter + 1 - d` (every man
/// on the board counts, so the men left at home walk too); plus [`GATHER_OFFSET`] per own
/// man for each enemy man short of [`HUNT_MEN`], so taking a man raises the term and
/// losing a hunter lowers it the more, the fewer enemies are left. Out of line: inlined
/// into the evaluation it slowed every side-9 position by a sixth, endings or not.
#[inline(never)]
fn gather<const N: usize>(
    grown: impl Fn(StridedSet<N>) -> StridedSet<N>,
    valid: StridedSet<N>,
    diameter: i32,
    men: StridedSet<N>,
    enemies: StridedSet<N>,
) -> i32 {
    let mut gather = 0;
    let mut around = enemies;
    let mut counted = StridedSet::EMPTY;
    for ring in 1..=diameter {
        around = grown(around) & valid;
        let found = (around & men).without(counted);
        gather += (diameter + 1 - ring) * found.len() as i32;
        counted |= found;
        if counted.len() == men.len() {
            break;
        }
    }
    gather + GATHER_OFFSET * men.len() as i32 * (HUNT_MEN as i32 - enemies.len() as i32)
}

/// [`conversion`]'s arguments but the grow function, which
/// [`Checkers::with_grown`](crate::game::checkers::Checkers::with_grown) supplies with the
/// board's width fixed for all of its loops.
pub(super) struct ConversionTask<'a, const N: usize> {
    pub geometry: &'a HexGeometry,
    pub valid: StridedSet<N>,
    pub men: StridedSet<N>,
    pub enemies: StridedSet<N>,
    pub empty: StridedSet<N>,
    pub enemy_steps: i32,
    pub with_gather: bool,
}

impl<const N: usize> GrowingTask<N> for ConversionTask<'_, N> {
    type Output = Conversion;

    fn run(self, grown: impl Fn(StridedSet<N>) -> StridedSet<N> + Copy) -> Conversion {
        let ConversionTask {
            geometry,
            valid,
            men,
            enemies,
            empty,
            enemy_steps,
            with_gather,
        } = self;
        conversion(
            geometry,
            grown,
            valid,
            men,
            enemies,
            empty,
            enemy_steps,
            with_gather,
        )
    }
}

/// The distance within which `wanted` men of `men` (or all of them, if fewer) stand
/// from the enemy army ([`contact_men`]); 0 when either army is empty. Rings are grown
/// around the enemy men until they hold enough own men (`grown` and `valid` as for
/// [`conversion`]).
pub(super) fn contact_distance<const N: usize>(
    grown: impl Fn(StridedSet<N>) -> StridedSet<N>,
    valid: StridedSet<N>,
    men: StridedSet<N>,
    enemies: StridedSet<N>,
    wanted: u32,
) -> u32 {
    if men.is_empty() || enemies.is_empty() {
        return 0;
    }
    let wanted = men.len().min(wanted);
    let mut reach = enemies;
    let mut distance = 0;
    while (reach & men).len() < wanted {
        distance += 1;
        reach = grown(reach) & valid;
    }
    distance
}

/// Empty cells the enemy men reach strictly before any own man, both walking one step a
/// turn over empty cells (a breadth-first race from both armies at once).
fn enemy_space<const N: usize>(
    grown: impl Fn(StridedSet<N>) -> StridedSet<N>,
    empty: StridedSet<N>,
    men: StridedSet<N>,
    enemies: StridedSet<N>,
) -> u32 {
    let mut own_reach = men;
    let mut enemy_reach = enemies;
    let mut enemy_only = StridedSet::EMPTY;
    loop {
        let claimed = own_reach | enemy_reach;
        let own_next = (grown(own_reach) & empty).without(claimed);
        let enemy_next = (grown(enemy_reach) & empty).without(claimed);
        // Once the enemy cannot grow, its region is final.
        if enemy_next.is_empty() {
            return enemy_only.len();
        }
        enemy_only |= enemy_next.without(own_next);
        own_reach |= own_next;
        enemy_reach |= enemy_next;
    }
}

#[cfg(test)]
mod tests {
    use super::{
        Conversion, ConversionWeights, GATHER_OFFSET, HUNT_MEN, contact_distance, contact_men,
        conversion,
    };
    use crate::board::hex::{Direction, HexGeometry, geometry};
    use crate::board::{HexSet, StridedSet};
    use crate::random::SplitMix64;

    /// The geometry's [`HexGeometry::grown`], the reference for the position's.
    fn grown(geometry: &HexGeometry, set: StridedSet<5>) -> StridedSet<5> {
        StridedSet::from(geometry.grown(HexSet::from(set)))
    }

    /// The conversion terms as the evaluation computes them, from the two armies alone.
    fn conversion_of(
        geometry: &HexGeometry,
        men: StridedSet<5>,
        enemies: StridedSet<5>,
    ) -> Conversion {
        let valid = StridedSet::from(geometry.valid::<5>());
        let empty = valid.without(men | enemies);
        let enemy_steps = Direction::ALL
            .iter()
            .map(|&direction| (enemies.shifted(geometry.offset(direction)) & empty).len() as i32)
            .sum();
        conversion(
            geometry,
            |set| grown(geometry, set),
            valid,
            men,
            enemies,
            empty,
            enemy_steps,
            true,
        )
    }

    /// Two armies of the given sizes on random distinct cells (the enemy placed first).
    fn random_armies(
        rng: &mut SplitMix64,
        cells: &[u16],
        own_count: usize,
        enemy_count: usize,
    ) -> (StridedSet<5>, StridedSet<5>) {
        let mut men = StridedSet::<5>::EMPTY;
        let mut enemies = StridedSet::<5>::EMPTY;
        while enemies.len() < enemy_count as u32 {
            enemies.insert(cells[rng.below(cells.len())] as usize);
        }
        while men.len() < own_count as u32 {
            let cell = cells[rng.below(cells.len())] as usize;
            if !enemies.contains(cell) {
                men.insert(cell);
            }
        }
        (men, enemies)
    }

    /// A random side ahead (2 to 28 men) against 1 to 8 enemy men: a converting pair.
    fn converting_armies(rng: &mut SplitMix64, cells: &[u16]) -> (StridedSet<5>, StridedSet<5>) {
        let enemy_count = 1 + rng.below(8);
        let own_count = enemy_count + 1 + rng.below(20);
        random_armies(rng, cells, own_count, enemy_count)
    }

    #[test]
    fn taking_an_enemy_man_always_raises_the_conversion_bonus_and_hunt_measures_distances() {
        let geometry = geometry(9).expect("side 9 exists");
        let cells = geometry.cells();
        let weighted = |men: StridedSet<5>, enemies: StridedSet<5>| {
            conversion_of(geometry, men, enemies).total(ConversionWeights::for_side(9))
        };
        let mut rng = SplitMix64::new(7);
        for _ in 0..200 {
            let (men, enemies) = converting_armies(&mut rng, cells);
            // The ring search measures the same distances as the geometry.
            let nearest: usize = enemies
                .iter()
                .map(|enemy| {
                    men.iter()
                        .map(|own| geometry.distance(own, enemy))
                        .min()
                        .unwrap_or(0)
                })
                .sum();
            let diameter = 2 * (9 - 1);
            assert_eq!(
                conversion_of(geometry, men, enemies).hunt,
                8 * diameter - nearest as i32
            );
            let before = weighted(men, enemies);
            assert!(before >= 0, "a bonus, never a penalty");
            // Taking the last man wins the game (no men, no move), so the evaluation never
            // scores a board without enemy men.
            if enemies.len() == 1 {
                continue;
            }
            for enemy in enemies.iter() {
                let mut fewer = enemies;
                fewer.remove(enemy);
                assert!(weighted(men, fewer) > before, "{men:?} {enemies:?} {enemy}");
            }
        }
    }

    #[test]
    fn contact_distance_is_where_the_nth_nearest_man_stands_from_the_enemy() {
        let geometry = geometry(9).expect("side 9 exists");
        let cells = geometry.cells();
        let mut rng = SplitMix64::new(11);
        for _ in 0..300 {
            let enemy_count = 1 + rng.below(10);
            let own_count = 1 + rng.below(10);
            let (men, enemies) = random_armies(&mut rng, cells, own_count, enemy_count);
            let mut nearest: Vec<usize> = men
                .iter()
                .map(|own| {
                    enemies
                        .iter()
                        .map(|enemy| geometry.distance(own, enemy))
                        .min()
                        .unwrap_or(0)
                })
                .collect();
            nearest.sort_unstable();
            let valid = StridedSet::from(geometry.valid::<5>());
            for wanted in [contact_men(6), contact_men(9)] {
                let nth = nearest[nearest.len().min(wanted as usize) - 1];
                let distance =
                    contact_distance(|set| grown(geometry, set), valid, men, enemies, wanted);
                assert_eq!(distance, nth as u32);
            }
        }
        assert_eq!(
            contact_distance(
                |set| set,
                StridedSet::EMPTY,
                StridedSet::<5>::EMPTY,
                StridedSet::EMPTY,
                3
            ),
            0
        );
    }

    #[test]
    fn gather_counts_each_own_man_by_its_distance_to_the_nearest_enemy_man() {
        let geometry = geometry(9).expect("side 9 exists");
        let cells = geometry.cells();
        let diameter = 2 * (9 - 1);
        let mut rng = SplitMix64::new(13);
        for _ in 0..200 {
            let (men, enemies) = converting_armies(&mut rng, cells);
            let (own_count, enemy_count) = (men.len() as usize, enemies.len() as usize);
            let near: i32 = men
                .iter()
                .map(|own| {
                    let nearest = enemies
                        .iter()
                        .map(|enemy| geometry.distance(own, enemy) as i32)
                        .min()
                        .unwrap_or(i32::MAX);
                    diameter + 1 - nearest
                })
                .sum();
            let offset = GATHER_OFFSET * own_count as i32 * (HUNT_MEN as i32 - enemy_count as i32);
            assert_eq!(conversion_of(geometry, men, enemies).gather, near + offset);
        }
        // Hand-built, side 9 (diameter 16): the enemy man on the centre i9; own men on
        // i10 (beside it, 16) and on corner a1 (8 steps away, 9); then the enemy man on
        // a1 and own men on a2 (beside it, 16) and on the far corner q9 (16 steps, 1: the
        // farthest man still counts).
        let cell = |row: usize, number: usize| geometry.cell_at(row, number).expect("a cell");
        let set = |cells: &[usize]| {
            let mut set = StridedSet::<5>::EMPTY;
            cells.iter().for_each(|&cell| set.insert(cell));
            set
        };
        let offset = |own: i32, enemies: i32| GATHER_OFFSET * own * (HUNT_MEN as i32 - enemies);
        let centre = set(&[cell(8, 9)]);
        let gather = conversion_of(geometry, set(&[cell(8, 10), cell(0, 1)]), centre).gather;
        assert_eq!(gather, 16 + 9 + offset(2, 1));
        let corner = set(&[cell(0, 1)]);
        let gather = conversion_of(geometry, set(&[cell(0, 2), cell(16, 9)]), corner).gather;
        assert_eq!(gather, 16 + 1 + offset(2, 1));
    }
}
