//! The search's generator: the project's SplitMix64, seeded from the `Seed` option with a
//! salt so that search streams differ from other users of the same seed.

use crate::random::SplitMix64;

/// The search's random number generator.
pub type Rng = SplitMix64;

/// The generator for a `Seed` option value.
pub fn seeded(seed: u64) -> Rng {
    SplitMix64::new(seed ^ 0x853c_49e6_748f_ea9b)
}
