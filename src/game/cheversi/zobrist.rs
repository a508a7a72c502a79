//! Zobrist keys: fixed pseudo-random numbers from splitmix64, computed at compile time so
//! hashes are the same on every run and every machine.
//!
//! A position's hash is the XOR of the keys of its pieces, [`ZobristKeys::black_to_move`]
//! when Black is to move, and the keys of the rule state the board alone does not show:
//! [`ZobristKeys::queen_call`] while a queen call (rule 5) is in force, and
//! [`ZobristKeys::rule8_square`] for White's 8th square while Black's King waits to touch it
//! (rule 8). Rule 7 and the Black Queen deadline follow from the piece counts.

use crate::random::splitmix64;

/// Every key the hash uses.
pub struct ZobristKeys {
    /// `pieces[colour][kind][square]`.
    pub pieces: [[[u64; 64]; 5]; 2],
    pub black_to_move: u64,
    pub queen_call: u64,
    /// Indexed by the square of White's 8th placement.
    pub rule8_square: [u64; 64],
}

const fn build() -> ZobristKeys {
    let mut keys = ZobristKeys {
        pieces: [[[0; 64]; 5]; 2],
        black_to_move: 0,
        queen_call: 0,
        rule8_square: [0; 64],
    };
    // The seed spells "Cheversi"; any fixed value works.
    let mut state = 0x4368_6576_6572_7369;
    let mut colour = 0;
    while colour < 2 {
        let mut kind = 0;
        while kind < 5 {
            let mut square = 0;
            while square < 64 {
                let (next, key) = splitmix64(state);
                state = next;
                keys.pieces[colour][kind][square] = key;
                square += 1;
            }
            kind += 1;
        }
        colour += 1;
    }
    let (next, key) = splitmix64(state);
    state = next;
    keys.black_to_move = key;
    let (next, key) = splitmix64(state);
    state = next;
    keys.queen_call = key;
    let mut square = 0;
    while square < 64 {
        let (next, key) = splitmix64(state);
        state = next;
        keys.rule8_square[square] = key;
        square += 1;
    }
    keys
}

/// The keys, built once at compile time.
pub static KEYS: ZobristKeys = build();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = KEYS.pieces.iter().flatten().flatten().copied().collect();
        all.push(KEYS.black_to_move);
        all.push(KEYS.queen_call);
        all.extend(KEYS.rule8_square);
        let count = all.len();
        assert!(all.iter().all(|&key| key != 0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count);
    }
}
