//! The default engine's transposition table: replacing, kept across the moves of a
//! game, and shared without locks between search threads.
//!
//! Four 16-byte entries share one 64-byte bucket (one cache line). An entry is two
//! atomic words, `key ^ data` and `data` (the XOR scheme of Hyatt and Mann): a reader
//! that sees halves of two different writes recomputes a key that does not match,
//! so a torn entry is never trusted. A new result replaces, in order, the entry of
//! the same key, an empty entry, or the entry least worth keeping: shallow and from
//! an old search (each search has a generation number, see [`SharedTable::new_search`]).
//!
//! The best move is stored by its squares (from, to, and a 16-bit fold of the
//! captured set), not by its index in the generated list, so an entry does not
//! depend on the move generator's order.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use super::alloc::{try_heap, TableAllocError};
use super::prefetch::prefetch;
use super::Bound;
use damas_rules::key::Key;
use damas_rules::moves::Move;

/// Entries per bucket (a bucket is one 64-byte cache line).
pub const BUCKET_ENTRIES: usize = 4;
/// Deepest depth an entry records; deeper results are stored as this.
pub const MAX_STORED_DEPTH: u32 = 127;
/// Generations are counted modulo this.
const GENERATIONS: u8 = 64;
/// Smallest table (one megabyte is 16384 buckets).
pub const MIN_MB: usize = 1;
/// Largest table accepted (64 GiB).
pub const MAX_MB: usize = 65536;

// Layout of the data word (low to high): 16-bit value, 7-bit depth, 2-bit bound,
// 6-bit generation, valid bit, then the move: 5-bit from, 5-bit to, 16-bit fold of
// the captured squares, has-move bit.
const DEPTH_SHIFT: u32 = 16;
const BOUND_SHIFT: u32 = 23;
const GEN_SHIFT: u32 = 25;
const VALID_BIT: u64 = 1 << 31;
const MOVE_SHIFT: u32 = 32;
const MOVE_MASK: u64 = (1 << 27) - 1;
const HAS_MOVE: u64 = 1 << 26;

/// A table size in megabytes as given on command lines and in parameters: a whole
/// number from [`MIN_MB`] to [`MAX_MB`].
pub fn parse_hash(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(mb) if (MIN_MB..=MAX_MB).contains(&mb) => Ok(mb),
        _ => Err(format!(
            "expected megabytes from {MIN_MB} to {MAX_MB}, got {s:?}"
        )),
    }
}

/// A best move as stored: its squares and a fold of the captured set.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct StoredMove(u32);

impl StoredMove {
    /// The code of `m`. A crowned capture (Russian) flips the fold's top bit, so
    /// that it is told from an uncrowned twin taking the same pieces to the same square.
    pub fn of(m: Move) -> StoredMove {
        let c = m.captured().0;
        let fold = ((c ^ (c >> 16)) & 0xffff) ^ u32::from(m.crowned()) << 15;
        StoredMove(
            m.from().index() as u32 | (m.to().index() as u32) << 5 | fold << 10 | HAS_MOVE as u32,
        )
    }

    /// The raw code (for callers that carry it around untyped).
    pub fn code(self) -> u32 {
        self.0
    }

    /// The move of a raw [`StoredMove::code`].
    pub fn from_code(code: u32) -> StoredMove {
        StoredMove(code)
    }

    /// Whether `m` is the stored move.
    pub fn matches(self, m: Move) -> bool {
        StoredMove::of(m) == self
    }

    /// Index of the stored move in `moves` (the first match).
    pub fn find(self, moves: &[Move]) -> Option<usize> {
        moves.iter().position(|&m| self.matches(m))
    }
}

/// One decoded entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The stored value (node-relative, see [`super::to_tt`]).
    pub value: i16,
    /// Depth of the search that produced it.
    pub depth: u32,
    /// Meaning of the value.
    pub bound: Bound,
    /// The best move, when one was found.
    pub best: Option<StoredMove>,
    generation: u8,
}

impl Entry {
    fn decode(data: u64) -> Entry {
        let bound = match (data >> BOUND_SHIFT) & 3 {
            0 => Bound::New,
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        let mv = (data >> MOVE_SHIFT) & MOVE_MASK;
        Entry {
            value: data as u16 as i16,
            depth: ((data >> DEPTH_SHIFT) & 127) as u32,
            bound,
            best: (mv & HAS_MOVE != 0).then_some(StoredMove(mv as u32)),
            generation: ((data >> GEN_SHIFT) & 63) as u8,
        }
    }

    fn encode(self) -> u64 {
        let mv = self.best.map_or(0, |m| u64::from(m.0));
        u64::from(self.value as u16)
            | u64::from(self.depth.min(MAX_STORED_DEPTH)) << DEPTH_SHIFT
            | (self.bound as u64) << BOUND_SHIFT
            | u64::from(self.generation % GENERATIONS) << GEN_SHIFT
            | VALID_BIT
            | mv << MOVE_SHIFT
    }
}

/// One cache line of entries: words `2i` (key ^ data) and `2i + 1` (data).
#[repr(C, align(64))]
struct Bucket([AtomicU64; 2 * BUCKET_ENTRIES]);

impl Bucket {
    fn empty() -> Bucket {
        Bucket(std::array::from_fn(|_| AtomicU64::new(0)))
    }

    /// The two words of entry `i`: the key mixed with the data, and the data.
    #[inline(always)]
    fn words(&self, i: usize) -> (u64, u64) {
        (
            self.0[2 * i].load(Ordering::Relaxed),
            self.0[2 * i + 1].load(Ordering::Relaxed),
        )
    }

    /// The data of entry `i` if it holds `key` (and was not torn).
    #[inline(always)]
    fn read(&self, i: usize, key: Key) -> Option<u64> {
        let (k, d) = self.words(i);
        holds(k, d, key).then_some(d)
    }

    #[inline(always)]
    fn data(&self, i: usize) -> u64 {
        self.0[2 * i + 1].load(Ordering::Relaxed)
    }

    #[inline(always)]
    fn write(&self, i: usize, key: Key, data: u64) {
        self.0[2 * i].store(key.0 ^ data, Ordering::Relaxed);
        self.0[2 * i + 1].store(data, Ordering::Relaxed);
    }
}

/// Whether the words `k`, `d` of an entry hold `key`: valid, and not torn (the key
/// is stored mixed with the data, so a half-written entry does not match).
#[inline(always)]
fn holds(k: u64, d: u64, key: Key) -> bool {
    d & VALID_BIT != 0 && k ^ d == key.0
}

/// Bucket storage: an anonymous mapping advised to use huge pages (a probe is a
/// random access, and with 4 KB pages most of them also miss the TLB), or a plain
/// vector where mapping fails.
enum Storage {
    Mapped(memmap2::MmapMut, usize),
    Heap(Box<[Bucket]>),
}

impl Storage {
    fn try_new(n: usize) -> Result<Storage, TableAllocError> {
        let bytes = n
            .checked_mul(std::mem::size_of::<Bucket>())
            .ok_or(TableAllocError { bytes: usize::MAX })?;
        match memmap2::MmapMut::map_anon(bytes) {
            Ok(mut map) => {
                // A hint: failure is harmless.
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                // Fault every page in now, so that no search pays for it.
                map.fill(0);
                Ok(Storage::Mapped(map, n))
            }
            Err(_) => try_heap(n, Bucket::empty).map(Storage::Heap),
        }
    }

    #[inline(always)]
    fn buckets(&self) -> &[Bucket] {
        match self {
            // SAFETY: the mapping is page-aligned (so 64-byte aligned), `n` buckets
            // long and zero-initialised, and all-zero atomics are valid buckets; it
            // is only ever accessed through these atomics.
            Storage::Mapped(m, n) => unsafe {
                std::slice::from_raw_parts(m.as_ptr() as *const Bucket, *n)
            },
            Storage::Heap(b) => b,
        }
    }
}

/// The table. Every method takes `&self`: threads share it through an `Arc`.
pub struct SharedTable {
    storage: Storage,
    generation: AtomicU8,
}

impl SharedTable {
    /// A table of `mb` megabytes (clamped to [`MIN_MB`]..=[`MAX_MB`]); panics where
    /// the memory cannot be had (see [`SharedTable::try_new`]).
    pub fn new(mb: usize) -> SharedTable {
        Self::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of `mb` megabytes (clamped to [`MIN_MB`]..=[`MAX_MB`]), or the error
    /// when that much memory cannot be had.
    pub fn try_new(mb: usize) -> Result<SharedTable, TableAllocError> {
        let n = mb.clamp(MIN_MB, MAX_MB) * (1 << 20) / std::mem::size_of::<Bucket>();
        Self::try_with_buckets(n)
    }

    /// A table of `n` buckets (at least one); tests use tiny ones.
    pub fn with_buckets(n: usize) -> SharedTable {
        Self::try_with_buckets(n).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of `n` buckets (at least one), or the error when the memory cannot be had.
    pub fn try_with_buckets(n: usize) -> Result<SharedTable, TableAllocError> {
        Ok(SharedTable {
            storage: Storage::try_new(n.max(1))?,
            generation: AtomicU8::new(0),
        })
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.buckets().len() * BUCKET_ENTRIES
    }

    /// Size in megabytes (rounded down).
    pub fn megabytes(&self) -> usize {
        std::mem::size_of_val(self.buckets()) >> 20
    }

    /// Forget every entry (new game). Must not run during a search.
    pub fn clear(&self) {
        for b in self.buckets().iter() {
            for w in &b.0 {
                w.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Start a new search: entries stored from now on are younger than all others.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store((g + 1) % GENERATIONS, Ordering::Relaxed);
    }

    /// The current search generation.
    pub fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    #[inline(always)]
    fn buckets(&self) -> &[Bucket] {
        self.storage.buckets()
    }

    #[inline(always)]
    fn bucket(&self, key: Key) -> &Bucket {
        // Multiply-high maps the key onto any bucket count without a modulo.
        let buckets = self.buckets();
        let i = ((u128::from(key.0) * buckets.len() as u128) >> 64) as usize;
        &buckets[i]
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn probe(&self, key: Key) -> Option<Entry> {
        let b = self.bucket(key);
        // Every entry is read and the first match kept by selection, not by a
        // branch per entry: which entry matches, if any, is unpredictable.
        let mut found = 0;
        for i in (0..BUCKET_ENTRIES).rev() {
            found = b.read(i, key).unwrap_or(found);
        }
        (found != 0).then(|| Entry::decode(found))
    }

    /// Record a result for `key`. Without a move, the key's previous move is kept.
    pub fn store(&self, key: Key, value: i16, depth: u32, bound: Bound, best: Option<StoredMove>) {
        let b = self.bucket(key);
        let generation = self.generation();
        let mut entry = Entry {
            value,
            depth,
            bound,
            best,
            generation,
        };
        // The same key first, then the least valuable entry: empty, else the one
        // with the lowest depth once each search of age counts as 4 plies. Every
        // entry is weighed and the choice made by selection rather than branches.
        let mut victim = 0;
        let mut worst = i64::MAX;
        let mut same = None;
        for i in (0..BUCKET_ENTRIES).rev() {
            // One read of the entry serves both the match and its worth, so the move
            // kept below comes from the very data that matched.
            let (k, d) = b.words(i);
            if holds(k, d, key) {
                same = Some((i, d));
            }
            let e = Entry::decode(d);
            let age = (generation + GENERATIONS - e.generation) % GENERATIONS;
            let worth = if d & VALID_BIT == 0 {
                i64::MIN
            } else {
                i64::from(e.depth) - 4 * i64::from(age)
            };
            // `<=` going backwards keeps the first of equally worthless entries.
            if worth <= worst {
                worst = worth;
                victim = i;
            }
        }
        if let Some((i, d)) = same {
            if entry.best.is_none() {
                entry.best = Entry::decode(d).best;
            }
            victim = i;
        }
        b.write(victim, key, entry.encode());
    }

    /// Entries of the current search per thousand, from the first thousand entries
    /// (the usual `hashfull` figure).
    pub fn fill_permille(&self) -> u32 {
        let g = self.generation();
        let buckets = &self.buckets()[..self.buckets().len().min(1000 / BUCKET_ENTRIES)];
        let used = buckets
            .iter()
            .flat_map(|b| (0..BUCKET_ENTRIES).map(move |i| b.data(i)))
            .filter(|&d| d & VALID_BIT != 0 && Entry::decode(d).generation == g)
            .count();
        (used * 1000 / (buckets.len() * BUCKET_ENTRIES)) as u32
    }

    /// Prefetch the bucket of `key` (a hint only).
    #[inline(always)]
    pub fn prefetch(&self, key: Key) {
        prefetch(self.bucket(key));
    }
}

#[cfg(test)]
mod tests;
