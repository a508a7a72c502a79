//! Zobrist keys for the checkers games: one key per colour and cell bit for the men, one per
//! colour and cell bit for a Kruzno obligation, and one for the side to move.
//!
//! The keys come from a fixed splitmix64 stream computed at compile time, so hashes are the
//! same in every run and on every machine (the search's table and repetition rely on them).

use crate::random::splitmix64;

use crate::board::hex::MAX_BITS;

/// The key tables, indexed by colour (0 White, 1 Black) and cell bit.
pub(super) struct Keys {
    pub men: [[u64; MAX_BITS]; 2],
    pub obligations: [[u64; MAX_BITS]; 2],
    pub black_to_move: u64,
}

const fn build_keys() -> Keys {
    let mut keys = Keys {
        men: [[0; MAX_BITS]; 2],
        obligations: [[0; MAX_BITS]; 2],
        black_to_move: 0,
    };
    // A seed of its own, so checkers keys differ from other games' streams.
    let mut state = 0xC4EC_4E55_0000_0001u64;
    let mut colour = 0;
    while colour < 2 {
        let mut bit = 0;
        while bit < MAX_BITS {
            let (next, key) = splitmix64(state);
            keys.men[colour][bit] = key;
            let (next, key) = splitmix64(next);
            keys.obligations[colour][bit] = key;
            state = next;
            bit += 1;
        }
        colour += 1;
    }
    keys.black_to_move = splitmix64(state).1;
    keys
}

pub(super) static KEYS: Keys = build_keys();
