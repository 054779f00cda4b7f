//! The thesis' transposition table (§6.5.4, §4.2): open addressing with double
//! hashing over `2^p` eight-byte entries, found by the position's [`Key`] (Bob
//! Jenkins' 64-bit mix).
//!
//! Probe sequence `h_i(k) = (f(k) + i·d(k)) mod 2^p` with `f(k) = k >> (64 − p)` and
//! `d(k) = ((k >> 32) << 1) + 1` (odd, so the sequence is a permutation); only the
//! first [`MAX_PROBES`] slots are tried, and a position whose slots are all taken by
//! other keys is simply not stored. Entries are never removed: the table is cleared
//! between searches.

use super::alloc::{try_heap, TableAllocError};
use super::prefetch::prefetch;
use super::Bound;
use damas_rules::key::Key;

/// Slots tried per access before giving up.
pub const MAX_PROBES: u64 = 33;

/// No best move stored.
pub const NO_MOVE: u8 = 127;
/// Deepest depth an entry can record; deeper results are stored as this.
pub const MAX_STORED_DEPTH: u32 = 63;

// Layout of the 64-bit entry (low to high): 32-bit check key, 16-bit value, 6-bit
// depth, 2-bit bound, 1-bit on-path flag, 7-bit best-move index.
const VALUE_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 48;
const BOUND_SHIFT: u32 = 54;
const PATH_BIT: u64 = 1 << 56;
const MOVE_SHIFT: u32 = 57;

/// One decoded entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry(u64);

impl Entry {
    fn fresh(check: u32) -> Entry {
        Entry(u64::from(check) | u64::from(NO_MOVE) << MOVE_SHIFT)
    }
    fn check(self) -> u32 {
        self.0 as u32
    }
    /// The stored value (node-relative: see [`super::to_tt`]).
    pub fn value(self) -> i16 {
        (self.0 >> VALUE_SHIFT) as u16 as i16
    }
    /// Depth of the search that produced the value.
    pub fn depth(self) -> u32 {
        ((self.0 >> DEPTH_SHIFT) & 63) as u32
    }
    /// Meaning of the value.
    pub fn bound(self) -> Bound {
        match (self.0 >> BOUND_SHIFT) & 3 {
            0 => Bound::New,
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        }
    }
    /// Whether the position is on the current search path (or in the game history).
    pub fn on_path(self) -> bool {
        self.0 & PATH_BIT != 0
    }
    /// Index of the best move in the generated move list, if any.
    pub fn best(self) -> Option<usize> {
        let m = (self.0 >> MOVE_SHIFT) as u8;
        (m != NO_MOVE).then_some(m as usize)
    }
}

/// Handle of a slot returned by [`Table::probe`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Slot(usize);

/// Entry storage: an anonymous mapping advised to use huge pages (a probe is a
/// random access, and with 4 KB pages most of them also miss the TLB), or a plain
/// vector where mapping fails.
enum Storage {
    Mapped(memmap2::MmapMut),
    Heap(Box<[u64]>),
}

impl Storage {
    fn try_new(len: usize) -> Result<Storage, TableAllocError> {
        match memmap2::MmapMut::map_anon(len * 8) {
            Ok(map) => {
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage); // a hint: failure is harmless
                let mut storage = Storage::Mapped(map);
                // Fault every page in now, so that no search pays for it (with huge
                // pages the kernel may compact memory on a first touch).
                storage.slots_mut().fill(0);
                Ok(storage)
            }
            Err(_) => try_heap(len, || 0).map(Storage::Heap),
        }
    }

    #[inline(always)]
    fn slots(&self) -> &[u64] {
        match self {
            // SAFETY: the mapping is page-aligned, zero-initialised, a multiple of 8
            // bytes long, and every bit pattern is a valid u64.
            Storage::Mapped(m) => unsafe {
                std::slice::from_raw_parts(m.as_ptr() as *const u64, m.len() / 8)
            },
            Storage::Heap(v) => v,
        }
    }

    #[inline(always)]
    fn slots_mut(&mut self) -> &mut [u64] {
        match self {
            // SAFETY: as in `slots`; the mapping is exclusively borrowed.
            Storage::Mapped(m) => unsafe {
                std::slice::from_raw_parts_mut(m.as_mut_ptr() as *mut u64, m.len() / 8)
            },
            Storage::Heap(v) => v,
        }
    }
}

/// The table, with its access counters.
pub struct Table {
    storage: Storage,
    bits: u32,
    /// Accesses since the last [`Table::reset_counters`].
    pub accesses: u64,
    /// Key comparisons (slots inspected) since the last reset.
    pub compares: u64,
}

impl Table {
    /// An empty table of `2^bits` entries (`bits` clamped to 10..=30); panics where
    /// the memory cannot be had (see [`Table::try_new`]).
    pub fn new(bits: u32) -> Table {
        Self::try_new(bits).unwrap_or_else(|e| panic!("{e}"))
    }

    /// An empty table of `2^bits` entries (`bits` clamped to 10..=30), or the error
    /// when that much memory cannot be had.
    pub fn try_new(bits: u32) -> Result<Table, TableAllocError> {
        let bits = bits.clamp(10, 30);
        Ok(Table {
            storage: Storage::try_new(1 << bits)?,
            bits,
            accesses: 0,
            compares: 0,
        })
    }

    /// `p`: the table has `2^p` entries.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Forget every entry.
    pub fn clear(&mut self) {
        self.storage.slots_mut().fill(0);
    }

    /// Zero the access counters.
    pub fn reset_counters(&mut self) {
        self.accesses = 0;
        self.compares = 0;
    }

    /// Fraction of slots in use, from the first thousand (for reports).
    pub fn fill_permille(&self) -> u32 {
        let slots = self.storage.slots();
        let n = slots.len().min(1000);
        slots[..n].iter().filter(|&&e| e != 0).count() as u32 * 1000 / n as u32
    }

    #[inline(always)]
    fn check_of(k: u64) -> u32 {
        // 0 marks an empty slot, so a key whose low half is 0 is checked as 1.
        (k as u32).max(1)
    }

    /// Walk the probe sequence of `k`: the slot holding `k`, else (when `insert`)
    /// the first empty one, which is claimed with a fresh entry.
    #[inline(always)]
    fn walk(&mut self, key: Key, insert: bool) -> Option<(Slot, bool)> {
        let k = key.0;
        self.accesses += 1;
        let check = Self::check_of(k);
        let mask = (1u64 << self.bits) - 1;
        let mut h = self.home(key);
        let d = ((k >> 32) << 1) + 1;
        for _ in 0..MAX_PROBES {
            self.compares += 1;
            let i = h as usize;
            let e = self.storage.slots()[i];
            if e == 0 {
                if insert {
                    self.storage.slots_mut()[i] = Entry::fresh(check).0;
                    return Some((Slot(i), false));
                }
                return None;
            }
            if Entry(e).check() == check {
                return Some((Slot(i), true));
            }
            h = (h + d) & mask;
        }
        None
    }

    /// Find the entry of key `k`, creating an empty one when absent (the thesis'
    /// `load`). `None` when the first [`MAX_PROBES`] slots hold other keys.
    #[inline]
    pub fn probe(&mut self, k: Key) -> Option<Slot> {
        self.walk(k, true).map(|(s, _)| s)
    }

    /// Find the entry of key `k` without creating one.
    #[inline]
    pub fn find(&mut self, k: Key) -> Option<Entry> {
        self.walk(k, false).map(|(s, _)| self.entry(s))
    }

    /// The first slot of `k`'s probe sequence: its key's top bits.
    #[inline(always)]
    fn home(&self, k: Key) -> u64 {
        k.0 >> (64 - self.bits)
    }

    /// Prefetch the first slot of `k`'s sequence (a hint only).
    #[inline(always)]
    pub fn prefetch(&self, k: Key) {
        let i = self.home(k) as usize;
        prefetch(self.storage.slots().as_ptr().wrapping_add(i));
    }

    /// The entry in `slot`.
    #[inline(always)]
    pub fn entry(&self, slot: Slot) -> Entry {
        Entry(self.storage.slots()[slot.0])
    }

    /// Record a search result in `slot`, keeping its on-path flag, and keeping the
    /// old best move when `best` is `None`.
    #[inline]
    pub fn store(&mut self, slot: Slot, value: i16, depth: u32, bound: Bound, best: Option<usize>) {
        let old = Entry(self.storage.slots()[slot.0]);
        let best = match best {
            Some(i) if i < NO_MOVE as usize => i as u64,
            _ => (old.0 >> MOVE_SHIFT) & 127,
        };
        let e = u64::from(old.check())
            | u64::from(value as u16) << VALUE_SHIFT
            | u64::from(depth.min(MAX_STORED_DEPTH)) << DEPTH_SHIFT
            | (bound as u64) << BOUND_SHIFT
            | (old.0 & PATH_BIT)
            | best << MOVE_SHIFT;
        self.storage.slots_mut()[slot.0] = e;
    }

    /// Set or clear the on-path flag of `slot`.
    #[inline(always)]
    pub fn set_path(&mut self, slot: Slot, on: bool) {
        let e = &mut self.storage.slots_mut()[slot.0];
        if on {
            *e |= PATH_BIT;
        } else {
            *e &= !PATH_BIT;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::position::Position;

    #[test]
    fn store_and_read_back() {
        let mut t = Table::new(12);
        let k = Position::start().key();
        let s = t.probe(k).unwrap();
        assert_eq!(t.entry(s).bound(), Bound::New);
        assert_eq!(t.entry(s).best(), None);
        t.set_path(s, true);
        t.store(s, -1234, 9, Bound::Lower, Some(5));
        let e = t.find(k).unwrap();
        assert_eq!(
            (e.value(), e.depth(), e.bound(), e.on_path(), e.best()),
            (-1234, 9, Bound::Lower, true, Some(5))
        );
        t.set_path(s, false);
        t.store(s, 77, 100, Bound::Exact, None);
        let e = t.find(k).unwrap();
        assert_eq!(
            (e.value(), e.depth(), e.bound(), e.on_path(), e.best()),
            (77, MAX_STORED_DEPTH, Bound::Exact, false, Some(5))
        );
        assert!(t.find(Key(k.0 ^ 1)).is_none());
    }

    #[test]
    fn probe_gives_up_after_33_slots() {
        // Keys with the same high half share f and d, hence the whole sequence.
        let mut t = Table::new(10);
        let high = 0xdead_beef_u64 << 32;
        for low in 1..=MAX_PROBES {
            assert!(t.probe(Key(high | low)).is_some());
        }
        assert!(t.probe(Key(high | 1000)).is_none());
        assert!(t.find(Key(high | 7)).is_some());
    }
}
