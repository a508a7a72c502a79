//! The fitted Catchup knowledge tables (see [`super::catchup_knowledge`]), as printed by
//! `scripts/fits/catchup_fit.rs` (side 5; the same tables serve every side), and their
//! type.

/// Number of feature codes ([`super::catchup_knowledge::feature_code`]).
pub const CODES: usize = 48;

/// The fitted knowledge of one rule.
#[derive(Debug)]
pub struct Knowledge {
    /// Acceptance weight per code, the strongest 65535.
    pub weights: [u16; CODES],
    /// For 1, 2 and 3 stones allowed, the probability (of 65536) of placing fewer than
    /// 2 and fewer than 3 stones.
    pub fewer_than: [[u16; 2]; 4],
    /// The prior of a step of each code (MCTS: a mean result over virtual visits):
    /// `0.4 + 0.1 ln(weight / weight of a lone stone)`, clamped to 0.05..0.95.
    pub priors: [f32; CODES],
}

/// `catchup_fit revised 80 30000 uniform 1` 80 games, 30000 simulations per move, teacher uniform, 4058 stones.
#[rustfmt::skip]
pub static REVISED: Knowledge = Knowledge {
    weights: [921, 6209, 6209, 6209, 1593, 6209, 6209, 6209, 5814, 6209, 6209, 6209, 1899, 6209, 3717, 1033, 4625, 6209, 10029, 3931, 11185, 6209, 32518, 20474, 3793, 6209, 6080, 1758, 9382, 6209, 21023, 11030, 28252, 6209, 63965, 65535, 5554, 6209, 10726, 3743, 4668, 6209, 5308, 3818, 10042, 6209, 53857, 56665],
    fewer_than: [[0, 0], [65535, 65535], [974, 65535], [1809, 3947]],
    priors: [0.400, 0.591, 0.591, 0.591, 0.455, 0.591, 0.591, 0.591, 0.584, 0.591, 0.591, 0.591, 0.472, 0.591, 0.540, 0.411, 0.561, 0.591, 0.639, 0.545, 0.650, 0.591, 0.756, 0.710, 0.542, 0.591, 0.589, 0.465, 0.632, 0.591, 0.713, 0.648, 0.742, 0.591, 0.824, 0.826, 0.580, 0.591, 0.645, 0.540, 0.562, 0.591, 0.575, 0.542, 0.639, 0.591, 0.807, 0.812],
};

/// `catchup_fit original 80 30000 uniform 2` 80 games, 30000 simulations per move, teacher uniform, 4066 stones.
#[rustfmt::skip]
pub static ORIGINAL: Knowledge = Knowledge {
    weights: [729, 4617, 4617, 4617, 1385, 4617, 4617, 4617, 3894, 4617, 4617, 4617, 1342, 4617, 2017, 555, 2550, 4617, 5004, 2769, 7576, 4617, 25374, 17484, 1399, 4617, 4470, 984, 5839, 4617, 10741, 7504, 17273, 4617, 44892, 40577, 6121, 4617, 11992, 3644, 3769, 4617, 10513, 26723, 8341, 4617, 49062, 65535],
    fewer_than: [[0, 0], [65535, 65535], [587, 65535], [1208, 3254]],
    priors: [0.400, 0.585, 0.585, 0.585, 0.464, 0.585, 0.585, 0.585, 0.568, 0.585, 0.585, 0.585, 0.461, 0.585, 0.502, 0.373, 0.525, 0.585, 0.593, 0.533, 0.634, 0.585, 0.755, 0.718, 0.465, 0.585, 0.581, 0.430, 0.608, 0.585, 0.669, 0.633, 0.717, 0.585, 0.812, 0.802, 0.613, 0.585, 0.680, 0.561, 0.564, 0.585, 0.667, 0.760, 0.644, 0.585, 0.821, 0.850],
};
