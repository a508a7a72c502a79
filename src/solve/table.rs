//! The solver's transposition table: proven bounds on exact game values, keyed by the
//! whole position (128 bits that name it exactly, after the board's symmetries where the
//! game applies them), so an entry is a fact about that position and never another's.
//!
//! Every entry says `lower <= value <= upper` for the side to move, whatever window the
//! search that stored it had; so entries can be merged (bounds intersected), written to a
//! checkpoint and read back by another run. Buckets of eight entries of three words each;
//! the buckets are split into stripes, each behind its own lock (threads share the table;
//! a lock without contention costs about as much as the cache miss it comes with). A
//! stripe starts small and doubles (its entries placed again) when a new entry meets a
//! full bucket, up to its share of the memory asked for: a solve that stores 200,000
//! positions then fills some 20 MB instead of faulting in every page of a 512 MB table
//! (about 0.45 s of system time), and its entries sit closer together. Only a full bucket
//! of a stripe at its largest drops an entry, the one with the least work behind it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// A position's name: two words that identify it exactly.
pub type Key = [u64; 2];

/// Entries per bucket. A stripe doubles when one of its buckets is full, so the larger
/// the bucket, the fuller the stripe before it doubles: with four, the 10-left line's
/// solve grew to 58 MB; with eight, to 32 MB, and a probe meets fewer cache misses (2%
/// faster there; no change at 12 left, where the table outgrows the cache anyway).
const WAYS: usize = 8;

/// Locks: buckets are spread over this many stripes.
const STRIPES: usize = 1024;

/// Buckets a stripe starts with (a power of two).
const FIRST_BUCKETS: usize = 8;

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
    /// Buckets a stripe may grow to, a power of two.
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
    /// A table of at most about `megabytes` MiB (at least 1), a power of two of buckets
    /// when full grown.
    pub fn new(megabytes: usize) -> Self {
        let bytes = megabytes.clamp(1, 1 << 20) << 20;
        let count = ((bytes / BUCKET_BYTES + 1).next_power_of_two() / 2).max(STRIPES);
        let per_stripe = count / STRIPES;
        let first = FIRST_BUCKETS.min(per_stripe);
        SolveTable {
            stripes: (0..STRIPES)
                .map(|_| Mutex::new(vec![[[0u64; 3]; WAYS]; first]))
                .collect(),
            per_stripe,
            stored: AtomicU64::new(0),
        }
    }

    /// Buckets the stripes hold now (they grow as entries come).
    #[cfg(test)]
    fn buckets(&self) -> usize {
        self.stripes
            .iter()
            .map(|stripe| stripe.lock().map_or(0, |stripe| stripe.len()))
            .sum()
    }

    /// Positions stored now.
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }

    /// The stripe holding `key`'s bucket, locked, and the bucket's index in it.
    fn bucket(&self, key: Key) -> (MutexGuard<'_, Vec<Bucket>>, usize) {
        let mixed = mix(key);
        // A thread that panicked while holding a stripe left whole entries behind (each
        // write is one assignment), so a poisoned lock is still sound to use.
        let guard = self.stripes[mixed & (STRIPES - 1)]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let index = index_in(mixed, guard.len());
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
        let (mut stripe, mut index) = self.bucket(key);
        let full = |stripe: &Vec<Bucket>, index: usize| {
            stripe[index]
                .iter()
                .all(|slot| slot[2] & USED != 0 && (slot[0], slot[1]) != (key[0], key[1]))
        };
        while full(&stripe, index) && stripe.len() < self.per_stripe {
            grow(&mut stripe);
            index = index_in(mix(key), stripe.len());
        }
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

    /// Calls `visit` with every stored entry, a stripe at a time (each copied out under
    /// its lock, then visited without it), so a checkpoint streams the table in little
    /// memory. Searches may go on meanwhile: whatever is read is a proven fact, whether or
    /// not it is the newest.
    pub fn for_each_entry(&self, mut visit: impl FnMut(&Entry)) {
        let mut entries = Vec::new();
        for stripe in self.stripes.iter() {
            entries.clear();
            {
                let stripe = stripe
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                entries.extend(stripe.iter().flatten().filter_map(Entry::unpack));
            }
            entries.iter().for_each(&mut visit);
        }
    }

    /// Every stored entry, collected (for tests and small tables).
    pub fn entries(&self) -> Vec<Entry> {
        let mut all = Vec::with_capacity(self.stored() as usize);
        self.for_each_entry(|entry| all.push(*entry));
        all
    }
}

/// A key's bits mixed (SplitMix64's finaliser, every bit of the key reaching every bit
/// of the result): the low bits pick the stripe, the next ones the bucket.
#[inline]
pub(super) fn mix(key: Key) -> usize {
    let mut mixed = key[0] ^ key[1].wrapping_mul(0x9e37_79b9_7f4a_7c15);
    mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (mixed ^ (mixed >> 31)) as usize
}

/// The bucket of a key mixed to `mixed` in a stripe of `buckets` (a power of two).
#[inline]
fn index_in(mixed: usize, buckets: usize) -> usize {
    (mixed >> STRIPES.trailing_zeros()) & (buckets - 1)
}

/// Doubles a stripe, each entry moved to its bucket in the larger one (the bucket it had
/// or the one half the new size above it, so none is dropped).
fn grow(stripe: &mut Vec<Bucket>) {
    let buckets = stripe.len() * 2;
    let mut larger = vec![[[0u64; 3]; WAYS]; buckets];
    let mut filled = vec![0u8; buckets];
    for slot in stripe.iter().flatten().filter(|slot| slot[2] & USED != 0) {
        let index = index_in(mix([slot[0], slot[1]]), buckets);
        larger[index][usize::from(filled[index])] = *slot;
        filled[index] += 1;
    }
    *stripe = larger;
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

    /// The stripes grow as entries come and none is dropped on the way: 40,000 keys in a
    /// table that starts with room for 65,536 entries (too few buckets to hold them all
    /// without growing: 8,192 buckets of eight) and may grow to 524,288; fewer than half
    /// of the stripes double on the way.
    #[test]
    fn a_growing_table_keeps_every_entry() {
        let table = SolveTable::new(16);
        let first = table.buckets();
        let keys: Vec<Key> = (0..40_000u64)
            .map(|n| [n.wrapping_mul(0x2545_f491_4f6c_dd1d), n])
            .collect();
        for (n, &key) in keys.iter().enumerate() {
            table.store(key, -(n as i32 % 100), n as i32 % 100, n as u32, 1);
        }
        assert_eq!(table.stored(), 40_000);
        for (n, &key) in keys.iter().enumerate() {
            let entry = table.probe(key).expect("every key kept");
            assert_eq!(
                (entry.lower, entry.upper, entry.best),
                (-((n % 100) as i16), (n % 100) as i16, n as u32)
            );
        }
        let grown = table.buckets();
        assert!(
            first < grown && grown < 2 * first,
            "{first} -> {grown} buckets: only the stripes that met a full bucket double"
        );
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
