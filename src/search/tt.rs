//! The transposition table: one shared array of slots that every search thread reads
//! and writes without locks. A slot stores `key ^ data` next to `data`, so a slot torn by
//! two threads writing at once fails the key check instead of returning another
//! position's data (the classic lockless XOR scheme).
//!
//! A move is stored as the game's 15-bit code for it ([`StagedMoves::move_code`]) or else
//! as its index in the position's legal move list, which is the same every time the rules
//! generate it; either keeps the table independent of the game. A code lets the search try
//! the table move without listing the moves.
//!
//! [`StagedMoves::move_code`]: super::game::StagedMoves::move_code

use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score bounds the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the score (a fail high).
    Lower,
    /// The true value is at most the score (a fail low).
    Upper,
}

/// How a stored best move is named.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TableMove {
    /// Its index in the position's legal move list.
    Index(usize),
    /// The game's code for it (below [`MAX_MOVE_CODE`]).
    Code(u16),
}

/// Codes and indices share 16 bits: the top bit tells them apart, and all ones is "none",
/// so codes stay below `2^15 - 1`.
pub const MAX_MOVE_CODE: u16 = (1 << 15) - 1;

/// What a probe finds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub score: i32,
    /// Below 128 (the search never goes deeper than `MAX_DEPTH`).
    pub depth: i32,
    pub bound: Bound,
    /// The best move, if one is known.
    pub table_move: Option<TableMove>,
}

#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Fixed-size table, allocated when the `Hash` option is set.
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    generation: AtomicU64,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TranspositionTable({} slots)", self.slots.len())
    }
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();
const NO_MOVE: u64 = 0xffff;
const CODE_FLAG: u64 = 0x8000;

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one), a power of two of slots.
    pub fn new(megabytes: usize) -> Self {
        let bytes = megabytes.clamp(1, 1 << 16) << 20;
        // The largest power of two that fits (a power of two already fits whole).
        let count = (bytes / SLOT_BYTES + 1).next_power_of_two() / 2;
        let count = count.max(1024);
        let slots = (0..count).map(|_| Slot::default()).collect();
        TranspositionTable {
            slots,
            generation: AtomicU64::new(1),
        }
    }

    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(1, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) % 63) + 1;
        self.generation.store(next, Ordering::Relaxed);
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        // The top bits pick the slot; the low bits vary more in weak hashes, so mix first.
        let mixed = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        &self.slots[(mixed >> 32) as usize & (self.slots.len() - 1)]
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        Some(unpack(data))
    }

    /// Stores an entry, keeping a deeper entry of the same search for another position.
    pub fn store(&self, key: u64, entry: Entry) {
        let slot = self.slot(key);
        let generation = self.generation.load(Ordering::Relaxed);
        let old = slot.data.load(Ordering::Relaxed);
        let old_key = slot.check.load(Ordering::Relaxed) ^ old;
        if old != 0 && old_key != key {
            let old_generation = (old >> 58) & 63;
            let old_depth = ((old >> 48) & 0xff) as i32;
            if old_generation == generation && old_depth > entry.depth + 2 {
                return;
            }
        }
        let mut entry = entry;
        if entry.table_move.is_none() && old != 0 && old_key == key {
            entry.table_move = unpack(old).table_move;
        }
        let data = pack(entry, generation);
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of slots written during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| {
                let data = slot.data.load(Ordering::Relaxed);
                data != 0 && (data >> 58) & 63 == generation
            })
            .count();
        (used * 1000 / sample) as u32
    }
}

/// Layout: score 32 bits | move 16 (code flag, then 15 bits of code or index) | depth 8 |
/// bound 2 | generation 6.
fn pack(entry: Entry, generation: u64) -> u64 {
    let bound = match entry.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let move_bits = match entry.table_move {
        // An index keeps the code flag clear, or it would come back as a code.
        Some(TableMove::Index(index)) if (index as u64) < CODE_FLAG => index as u64,
        Some(TableMove::Code(code)) if code < MAX_MOVE_CODE => u64::from(code) | CODE_FLAG,
        _ => NO_MOVE,
    };
    u64::from(entry.score as u32)
        | move_bits << 32
        | (entry.depth.clamp(0, 255) as u64) << 48
        | bound << 56
        | generation << 58
}

fn unpack(data: u64) -> Entry {
    let move_bits = (data >> 32) & 0xffff;
    let table_move = if move_bits == NO_MOVE {
        None
    } else if move_bits & CODE_FLAG != 0 {
        Some(TableMove::Code((move_bits & !CODE_FLAG) as u16))
    } else {
        Some(TableMove::Index(move_bits as usize))
    };
    Entry {
        score: data as u32 as i32,
        table_move,
        depth: ((data >> 48) & 0xff) as i32,
        bound: match (data >> 56) & 3 {
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => Bound::Exact,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{Bound, Entry, TableMove, TranspositionTable};

    #[test]
    fn stores_and_verifies_keys() {
        let table = TranspositionTable::new(1);
        let entry = Entry {
            score: -123_456,
            depth: 7,
            bound: Bound::Lower,
            table_move: Some(TableMove::Index(42)),
        };
        table.store(0xdead_beef, entry);
        assert_eq!(table.probe(0xdead_beef), Some(entry));
        assert_eq!(table.probe(0xdead_beee), None);
        let no_move = Entry {
            table_move: None,
            bound: Bound::Upper,
            ..entry
        };
        table.store(0xdead_beef, no_move);
        // The known move survives a store without one.
        assert_eq!(
            table.probe(0xdead_beef).and_then(|e| e.table_move),
            Some(TableMove::Index(42))
        );
        // A code comes back as a code, the largest one too.
        for code in [0, super::MAX_MOVE_CODE - 1] {
            let coded = Entry {
                table_move: Some(TableMove::Code(code)),
                ..entry
            };
            table.store(0xdead_beef, coded);
            assert_eq!(table.probe(0xdead_beef), Some(coded));
        }
        // An index beyond 15 bits is not stored rather than misread as a code.
        let far = Entry {
            table_move: Some(TableMove::Index(0x8000)),
            ..entry
        };
        table.store(0xfeed, far);
        assert_eq!(table.probe(0xfeed).map(|e| e.table_move), Some(None));
        assert!(table.hashfull() <= 1000);
        table.clear();
        assert_eq!(table.probe(0xdead_beef), None);
    }

    #[test]
    fn a_table_fills_the_size_asked_for_in_a_power_of_two_of_slots() {
        let bytes = |megabytes| TranspositionTable::new(megabytes).slots.len() * super::SLOT_BYTES;
        assert_eq!(bytes(64), 64 << 20);
        assert_eq!(bytes(1), 1 << 20);
        assert_eq!(bytes(100), 64 << 20, "the power of two below");
        assert_eq!(bytes(127), 64 << 20);
        assert_eq!(bytes(128), 128 << 20);
    }
}
