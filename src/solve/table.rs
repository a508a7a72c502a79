//! The solver's transposition table: proven bounds on exact game values, keyed by the
//! whole position (128 bits that name it exactly, after the board's symmetries where the
//! game applies them), so an entry is a fact about that position and never another's.
//!
//! Every entry says `lower <= value <= upper` for the side to move, whatever window the
//! search that stored it had; so entries can be merged (bounds intersected), written to a
//! checkpoint and read back by another run. Buckets of four entries of three words each;
//! the buckets are split into stripes, each behind its own lock (threads share the table;
//! a lock without contention costs about as much as the cache miss it comes with). The
//! words start as zeros, which the allocator hands out as untouched pages, so a large table
//! costs nothing until it is used. A full bucket drops the entry with the least work
//! behind it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// A position's name: two words that identify it exactly.
pub type Key = [u64; 2];

/// Entries per bucket.
const WAYS: usize = 4;

/// Locks: buckets are spread over this many stripes.
const STRIPES: usize = 1024;

/// Bits of an entry's move code (larger codes are stored as "no move", which only costs
/// the move order a hint; every game's codes fit).
const MOVE_BITS: u32 = 24;

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

/// An entry as three words: the key, then the bounds, move and work packed (the top bit
/// marks the slot as used, so an all-zero slot is empty).
type Slot = [u64; 3];

const USED: u64 = 1 << 63;

impl Entry {
    fn pack(&self) -> Slot {
        let best = if self.best >> MOVE_BITS == 0 {
            u64::from(self.best)
        } else {
            0
        };
        let data = u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | best << 32
            | u64::from(self.work & 0x7f) << 56
            | USED;
        [self.key[0], self.key[1], data]
    }

    fn unpack(slot: &Slot) -> Option<Entry> {
        let data = slot[2];
        (data & USED != 0).then(|| Entry {
            key: [slot[0], slot[1]],
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            best: ((data >> 32) & ((1 << MOVE_BITS) - 1)) as u32,
            work: ((data >> 56) & 0x7f) as u8,
        })
    }
}

type Bucket = [Slot; WAYS];

/// Fixed-size table of proven bounds.
pub struct SolveTable {
    stripes: Box<[Mutex<Vec<Bucket>>]>,
    /// Buckets per stripe, a power of two.
    per_stripe: usize,
    stored: AtomicU64,
}

impl std::fmt::Debug for SolveTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SolveTable({} buckets)",
            self.stripes.len() * self.per_stripe
        )
    }
}

/// Bytes one bucket takes, for sizing the table from megabytes.
const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

impl SolveTable {
    /// A table of about `megabytes` MiB (at least 1), a power of two of buckets.
    pub fn new(megabytes: usize) -> Self {
        let bytes = megabytes.clamp(1, 1 << 20) << 20;
        let count = ((bytes / BUCKET_BYTES + 1).next_power_of_two() / 2).max(STRIPES);
        let per_stripe = count / STRIPES;
        SolveTable {
            stripes: (0..STRIPES)
                .map(|_| Mutex::new(vec![[[0u64; 3]; WAYS]; per_stripe]))
                .collect(),
            per_stripe,
            stored: AtomicU64::new(0),
        }
    }

    /// Positions stored now.
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }

    /// The stripe holding `key`'s bucket, locked, and the bucket's index in it.
    fn bucket(&self, key: Key) -> (MutexGuard<'_, Vec<Bucket>>, usize) {
        let mixed = (key[0] ^ key[1].rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mixed = (mixed ^ (mixed >> 31)) as usize;
        let stripe = mixed & (STRIPES - 1);
        let index = (mixed >> STRIPES.trailing_zeros()) & (self.per_stripe - 1);
        // A thread that panicked while holding a stripe left whole entries behind (each
        // write is one assignment), so a poisoned lock is still sound to use.
        let guard = self.stripes[stripe]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        (guard, index)
    }

    /// The entry of `key`, if stored.
    pub fn probe(&self, key: Key) -> Option<Entry> {
        let (stripe, index) = self.bucket(key);
        stripe[index]
            .iter()
            .filter(|slot| slot[0] == key[0] && slot[1] == key[1])
            .find_map(Entry::unpack)
    }

    /// Records `lower <= value <= upper` for `key`, merged with what is stored; `best`
    /// (when not 0) replaces the stored move.
    pub fn store(&self, key: Key, lower: i32, upper: i32, best: u32, work: u8) {
        let lower = lower.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let upper = upper.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let (mut stripe, index) = self.bucket(key);
        let bucket = &mut stripe[index];
        for slot in bucket.iter_mut() {
            if let Some(mut entry) = Entry::unpack(slot)
                && entry.key == key
            {
                entry.lower = entry.lower.max(lower);
                entry.upper = entry.upper.min(upper);
                if best != 0 {
                    entry.best = best;
                }
                entry.work = entry.work.max(work);
                *slot = entry.pack();
                return;
            }
        }
        let fresh = Entry {
            key,
            lower,
            upper,
            best,
            work,
        };
        if let Some(slot) = bucket.iter_mut().find(|slot| slot[2] & USED == 0) {
            *slot = fresh.pack();
            self.stored.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let victim = bucket
            .iter_mut()
            .min_by_key(|slot| (slot[2] >> 56) & 0x7f)
            .expect("a bucket has slots");
        if (*victim)[2] >> 56 & 0x7f <= u64::from(work) {
            *victim = fresh.pack();
        }
    }

    /// Every stored entry (for a checkpoint). Searches may go on meanwhile: whatever is
    /// read is a proven fact, whether or not it is the newest.
    pub fn entries(&self) -> Vec<Entry> {
        let mut all = Vec::with_capacity(self.stored() as usize);
        for stripe in self.stripes.iter() {
            let stripe = stripe
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            all.extend(stripe.iter().flatten().filter_map(Entry::unpack));
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

    #[test]
    fn packed_entries_keep_negative_bounds_and_drop_only_oversized_moves() {
        let table = SolveTable::new(1);
        table.store([0, 0], -127, -3, (1 << 24) - 1, 64);
        table.store([5, 0], 2, 2, 1 << 24, 0);
        let entry = table.probe([0, 0]).expect("the all-zero key is stored");
        assert_eq!(
            (entry.lower, entry.upper, entry.best, entry.work),
            (-127, -3, (1 << 24) - 1, 64)
        );
        let entry = table.probe([5, 0]).expect("stored");
        assert_eq!((entry.lower, entry.upper, entry.best), (2, 2, 0));
        assert_eq!(table.probe([0, 5]), None);
    }
}
