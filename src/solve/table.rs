//! The solver's transposition table: proven bounds on exact game values, keyed by the
//! whole position (128 bits that name it exactly, after the board's symmetries where the
//! game applies them), so an entry is a fact about that position and never another's.
//!
//! Every entry says `lower <= value <= upper` for the side to move, whatever window the
//! search that stored it had; so entries can be merged (bounds intersected), written to a
//! checkpoint and read back by another run. Buckets of four entries, each behind its own
//! lock (threads share the table; a lock without contention costs about as much as the
//! cache miss it comes with). A full bucket drops the entry with the least work behind it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// A position's name: two words that identify it exactly.
pub type Key = [u64; 2];

/// Entries per bucket.
const WAYS: usize = 4;

/// One stored fact: `lower <= value <= upper`, with the move that proved the last lower
/// bound (the game's code, 0 for none) and the work behind it (log2 of the nodes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: Key,
    pub lower: i16,
    pub upper: i16,
    pub best: u32,
    pub work: u8,
}

type Bucket = [Option<Entry>; WAYS];

/// Fixed-size table of proven bounds.
pub struct SolveTable {
    buckets: Box<[Mutex<Bucket>]>,
    stored: AtomicU64,
}

impl std::fmt::Debug for SolveTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SolveTable({} buckets)", self.buckets.len())
    }
}

/// Bytes one bucket takes, for sizing the table from megabytes.
const BUCKET_BYTES: usize = std::mem::size_of::<Mutex<Bucket>>();

impl SolveTable {
    /// A table of about `megabytes` MiB (at least 1), a power of two of buckets.
    pub fn new(megabytes: usize) -> Self {
        let bytes = megabytes.clamp(1, 1 << 20) << 20;
        let count = ((bytes / BUCKET_BYTES + 1).next_power_of_two() / 2).max(256);
        SolveTable {
            buckets: (0..count).map(|_| Mutex::new([None; WAYS])).collect(),
            stored: AtomicU64::new(0),
        }
    }

    /// Positions stored now.
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }

    fn bucket(&self, key: Key) -> std::sync::MutexGuard<'_, Bucket> {
        let mixed = (key[0] ^ key[1].rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mixed = mixed ^ (mixed >> 31);
        let index = (mixed as usize) & (self.buckets.len() - 1);
        // A thread that panicked while holding a bucket left whole entries behind (each
        // write is one assignment), so a poisoned lock is still sound to use.
        self.buckets[index]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The entry of `key`, if stored.
    pub fn probe(&self, key: Key) -> Option<Entry> {
        self.bucket(key)
            .iter()
            .flatten()
            .find(|entry| entry.key == key)
            .copied()
    }

    /// Records `lower <= value <= upper` for `key`, merged with what is stored; `best`
    /// (when not 0) replaces the stored move.
    pub fn store(&self, key: Key, lower: i32, upper: i32, best: u32, work: u8) {
        let lower = lower.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let upper = upper.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let mut bucket = self.bucket(key);
        if let Some(entry) = bucket.iter_mut().flatten().find(|entry| entry.key == key) {
            entry.lower = entry.lower.max(lower);
            entry.upper = entry.upper.min(upper);
            if best != 0 {
                entry.best = best;
            }
            entry.work = entry.work.max(work);
            return;
        }
        let fresh = Entry {
            key,
            lower,
            upper,
            best,
            work,
        };
        if let Some(slot) = bucket.iter_mut().find(|slot| slot.is_none()) {
            *slot = Some(fresh);
            self.stored.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let victim = bucket
            .iter_mut()
            .flatten()
            .min_by_key(|entry| entry.work)
            .expect("a full bucket has entries");
        if victim.work <= work {
            *victim = fresh;
        }
    }

    /// Every stored entry (for a checkpoint). Searches may go on meanwhile: whatever is
    /// read is a proven fact, whether or not it is the newest.
    pub fn entries(&self) -> Vec<Entry> {
        let mut all = Vec::with_capacity(self.stored() as usize);
        for bucket in self.buckets.iter() {
            let bucket = bucket
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            all.extend(bucket.iter().flatten().copied());
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_bounds_merge_and_other_keys_stay_apart() {
        let table = SolveTable::new(1);
        table.store([1, 2], -5, 10, 7, 3);
        table.store([1, 2], 0, 20, 0, 1);
        let entry = table.probe([1, 2]).expect("stored");
        assert_eq!(
            (entry.lower, entry.upper, entry.best, entry.work),
            (0, 10, 7, 3)
        );
        assert_eq!(table.probe([2, 1]), None);
        assert_eq!(table.stored(), 1);
        assert_eq!(table.entries().len(), 1);
    }
}
