//! The search's view of a transposition table, so that one node search serves both
//! the thesis' table ([`crate::tt::Table`], exclusive, with on-path flags) and the
//! default engine's ([`crate::shared_tt::SharedTable`], shared between threads).

use crate::shared_tt::{SharedTable, StoredMove};
use crate::tt::{key, Bound, Entry, Slot, Table};
use damas_rules::moves::Move;
use damas_rules::position::Position;

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Found {
    pub value: i16,
    pub depth: u32,
    pub bound: Bound,
    /// The position is on the search path (tables that track it).
    pub on_path: bool,
    /// The best move as the table codes it.
    pub best: Option<u32>,
}

impl From<Entry> for Found {
    #[inline(always)]
    fn from(e: Entry) -> Found {
        Found {
            value: e.value(),
            depth: e.depth(),
            bound: e.bound(),
            on_path: e.on_path(),
            best: e.best().map(|i| i as u32),
        }
    }
}

/// Mark the root and the reversible part of the game history as on the path, as
/// the thesis does, so that meeting one of them again in the tree scores a draw.
/// Returns the slots marked here, for [`unmark_path`] after the search. The lookups
/// are not counted in the table's counters.
pub(crate) fn mark_game_path<T: TableAccess>(
    tt: &mut T,
    pos: &Position,
    history: &[Position],
) -> Vec<T::Slot> {
    let mut marked = Vec::new();
    let mut next = pos;
    for p in std::iter::once(pos).chain(history.iter().rev()) {
        if !damas_rules::drawrules::reversible(p, next) {
            break;
        }
        if let Some((s, found)) = tt.probe(key(p)) {
            if !found.is_some_and(|f| f.on_path) {
                tt.set_path(s, true);
                marked.push(s);
            }
        }
        next = p;
    }
    tt.set_counters((0, 0));
    marked
}

/// Clear the on-path flags [`mark_game_path`] set.
pub(crate) fn unmark_path<T: TableAccess>(tt: &mut T, marked: Vec<T::Slot>) {
    for s in marked {
        tt.set_path(s, false);
    }
}

/// Operations of the node search on a table.
pub(crate) trait TableAccess {
    /// Where a probed entry will be stored.
    type Slot: Copy;
    /// Whether the table keeps on-path flags (the thesis' repetition detection).
    const TRACKS_PATH: bool;
    /// Look `k` up and reserve its place: `None` when there is nowhere to store it.
    fn probe(&mut self, k: u64) -> Option<(Self::Slot, Option<Found>)>;
    /// Look `k` up without reserving anything.
    fn find(&mut self, k: u64) -> Option<Found>;
    /// Record a result (keeping the old best move when `best` is `None`).
    fn store(
        &mut self,
        slot: Self::Slot,
        value: i16,
        depth: u32,
        bound: Bound,
        best: Option<(usize, Move)>,
    );
    /// Set or clear the on-path flag (no-op for tables that do not track it).
    fn set_path(&mut self, slot: Self::Slot, on: bool);
    /// Prefetch the place of `k`.
    fn prefetch(&self, k: u64);
    /// Index in `moves` (the list as generated and selected) of a stored best move.
    fn best_index(code: u32, moves: &[Move]) -> Option<usize>;
    /// Accesses and key comparisons so far.
    fn counters(&self) -> (u64, u64);
    /// Restore the counters (lookups for reports are not counted).
    fn set_counters(&mut self, c: (u64, u64));
    /// Used entries per thousand.
    fn fill_permille(&self) -> u32;
}

impl TableAccess for Table {
    type Slot = Slot;
    const TRACKS_PATH: bool = true;

    #[inline(always)]
    fn probe(&mut self, k: u64) -> Option<(Slot, Option<Found>)> {
        let s = Table::probe(self, k)?;
        Some((s, Some(self.entry(s).into())))
    }

    #[inline(always)]
    fn find(&mut self, k: u64) -> Option<Found> {
        Table::find(self, k).map(Found::from)
    }

    #[inline(always)]
    fn store(
        &mut self,
        slot: Slot,
        value: i16,
        depth: u32,
        bound: Bound,
        best: Option<(usize, Move)>,
    ) {
        Table::store(self, slot, value, depth, bound, best.map(|b| b.0));
    }

    #[inline(always)]
    fn set_path(&mut self, slot: Slot, on: bool) {
        Table::set_path(self, slot, on);
    }

    #[inline(always)]
    fn prefetch(&self, k: u64) {
        Table::prefetch(self, k);
    }

    #[inline(always)]
    fn best_index(code: u32, _moves: &[Move]) -> Option<usize> {
        Some(code as usize)
    }

    fn counters(&self) -> (u64, u64) {
        (self.accesses, self.compares)
    }

    fn set_counters(&mut self, c: (u64, u64)) {
        (self.accesses, self.compares) = c;
    }

    fn fill_permille(&self) -> u32 {
        Table::fill_permille(self)
    }
}

/// One thread's handle on a [`SharedTable`], with its own counters.
pub(crate) struct SharedHandle<'a> {
    pub table: &'a SharedTable,
    pub accesses: u64,
}

impl<'a> SharedHandle<'a> {
    pub fn new(table: &'a SharedTable) -> SharedHandle<'a> {
        SharedHandle { table, accesses: 0 }
    }
}

#[inline(always)]
fn found(e: crate::shared_tt::Entry) -> Found {
    Found {
        value: e.value,
        depth: e.depth,
        bound: e.bound,
        on_path: false,
        best: e.best.map(StoredMove::code),
    }
}

impl TableAccess for SharedHandle<'_> {
    /// The key: the entry's place is chosen again when storing, since other threads
    /// may have replaced it in the meantime.
    type Slot = u64;
    const TRACKS_PATH: bool = false;

    #[inline(always)]
    fn probe(&mut self, k: u64) -> Option<(u64, Option<Found>)> {
        self.accesses += 1;
        Some((k, self.table.probe(k).map(found)))
    }

    #[inline(always)]
    fn find(&mut self, k: u64) -> Option<Found> {
        self.accesses += 1;
        self.table.probe(k).map(found)
    }

    #[inline(always)]
    fn store(&mut self, k: u64, value: i16, depth: u32, bound: Bound, best: Option<(usize, Move)>) {
        let best = best.map(|b| StoredMove::of(b.1));
        self.table.store(k, value, depth, bound, best);
    }

    #[inline(always)]
    fn set_path(&mut self, _: u64, _: bool) {}

    #[inline(always)]
    fn prefetch(&self, k: u64) {
        self.table.prefetch(k);
    }

    #[inline(always)]
    fn best_index(code: u32, moves: &[Move]) -> Option<usize> {
        StoredMove::from_code(code).find(moves)
    }

    fn counters(&self) -> (u64, u64) {
        // One bucket (one cache line) is read per access.
        (self.accesses, self.accesses)
    }

    fn set_counters(&mut self, c: (u64, u64)) {
        self.accesses = c.0;
    }

    fn fill_permille(&self) -> u32 {
        self.table.fill_permille()
    }
}
