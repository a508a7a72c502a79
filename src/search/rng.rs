//! A tiny seeded random number generator (SplitMix64): enough for move choice, playouts
//! and tie-breaking, reproducible from the `Seed` option, with no dependency.

/// SplitMix64: one 64-bit state, one add and a mixing function per number.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng {
            state: seed ^ 0x853c_49e6_748f_ea9b,
        }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..bound` (`bound > 0`), by multiply-shift (bias below 2^-32
    /// for the bounds a game uses).
    #[inline]
    pub fn below(&mut self, bound: usize) -> usize {
        ((u128::from(self.next_u64()) * bound as u128) >> 64) as usize
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn same_seed_same_sequence_and_bounded() {
        let mut first = Rng::new(7);
        let mut second = Rng::new(7);
        let mut other = Rng::new(8);
        let a: Vec<u64> = (0..8).map(|_| first.next_u64()).collect();
        let b: Vec<u64> = (0..8).map(|_| second.next_u64()).collect();
        let c: Vec<u64> = (0..8).map(|_| other.next_u64()).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut counts = [0usize; 5];
        for _ in 0..5000 {
            counts[first.below(5)] += 1;
        }
        assert!(counts.iter().all(|&count| count > 800), "{counts:?}");
    }
}
