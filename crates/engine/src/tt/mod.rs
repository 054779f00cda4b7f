//! Transposition tables: the default engine's [`shared::SharedTable`] (replacing,
//! shared without locks between threads) and the thesis' [`thesis::Table`] (never
//! replacing, with on-path flags, kept as the thesis describes it for the node-count
//! study). Both are found by a position's [`Key`] and store [`Bound`]ed values in the
//! node-relative form of [`to_tt`]; the search reaches either through
//! `TableAccess`, so that one node search serves both.

use crate::score::Score;
use damas_rules::key::Key;
use damas_rules::moves::Move;
use shared::{SharedTable, StoredMove};
use thesis::{Entry, Slot, Table};

pub mod alloc;
mod prefetch;
pub mod shared;
pub mod thesis;

/// What an entry's value means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Bound {
    /// Created by a probe, no value yet (the thesis' `NEW`).
    New = 0,
    /// The true value is at most the stored one (all moves failed low).
    Upper = 1,
    /// The true value is at least the stored one (a move failed high).
    Lower = 2,
    /// The stored value is exact.
    Exact = 3,
}

/// A score as stored: proven results relative to the node, not the root, so that
/// the entry holds in any transposition.
#[inline]
pub fn to_tt(s: Score, ply: u32) -> i16 {
    let v = if s.is_win() {
        s.0 + ply as i32
    } else if s.is_loss() {
        s.0 - ply as i32
    } else {
        s.0
    };
    v.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

/// The inverse of [`to_tt`] at `ply`.
#[inline]
pub fn from_tt(v: i16, ply: u32) -> Score {
    let s = Score(i32::from(v));
    if s.is_win() {
        Score(s.0 - ply as i32)
    } else if s.is_loss() {
        Score(s.0 + ply as i32)
    } else {
        s
    }
}

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

/// Operations of the node search on a table.
pub(crate) trait TableAccess {
    /// Where a probed entry will be stored.
    type Slot: Copy;
    /// Whether the table keeps on-path flags (the thesis' repetition detection).
    const TRACKS_PATH: bool;
    /// Look `k` up and reserve its place: `None` when there is nowhere to store it.
    fn probe(&mut self, k: Key) -> Option<(Self::Slot, Option<Found>)>;
    /// Look `k` up without reserving anything.
    fn find(&mut self, k: Key) -> Option<Found>;
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
    fn prefetch(&self, k: Key);
    /// Index in `moves` (the list as generated and selected) of a stored best move;
    /// `None` where the list has no such move (an entry of another position whose
    /// key matched in the bits the table compares).
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
    fn probe(&mut self, k: Key) -> Option<(Slot, Option<Found>)> {
        let s = Table::probe(self, k)?;
        Some((s, Some(self.entry(s).into())))
    }

    #[inline(always)]
    fn find(&mut self, k: Key) -> Option<Found> {
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
    fn prefetch(&self, k: Key) {
        Table::prefetch(self, k);
    }

    #[inline(always)]
    fn best_index(code: u32, moves: &[Move]) -> Option<usize> {
        // The table stores the index alone: a colliding key can bring one past the
        // end of this position's list.
        ((code as usize) < moves.len()).then_some(code as usize)
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
fn found(e: shared::Entry) -> Found {
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
    type Slot = Key;
    const TRACKS_PATH: bool = false;

    #[inline(always)]
    fn probe(&mut self, k: Key) -> Option<(Key, Option<Found>)> {
        self.accesses += 1;
        Some((k, self.table.probe(k).map(found)))
    }

    #[inline(always)]
    fn find(&mut self, k: Key) -> Option<Found> {
        self.accesses += 1;
        self.table.probe(k).map(found)
    }

    #[inline(always)]
    fn store(&mut self, k: Key, value: i16, depth: u32, bound: Bound, best: Option<(usize, Move)>) {
        let best = best.map(|b| StoredMove::of(b.1));
        self.table.store(k, value, depth, bound, best);
    }

    #[inline(always)]
    fn set_path(&mut self, _: Key, _: bool) {}

    #[inline(always)]
    fn prefetch(&self, k: Key) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::variant::Variant;

    #[test]
    fn proven_scores_are_node_relative() {
        let s = Score::win_in(9);
        assert_eq!(from_tt(to_tt(s, 4), 4), s);
        assert_eq!(from_tt(to_tt(s, 4), 6), Score::win_in(11));
        let l = Score::loss_in(9);
        assert_eq!(from_tt(to_tt(l, 4), 2), Score::loss_in(7));
        assert_eq!(from_tt(to_tt(Score(-250), 3), 8), Score(-250));
    }

    #[test]
    fn a_stored_index_past_the_list_is_no_move() {
        // The thesis' table compares 32 bits of a key besides its slot, so it can
        // find another position's entry and, with it, an index past this list.
        let pos = damas_rules::fen::parse_fen("W:Wa1,c1,e1:Bh8").unwrap();
        let moves = damas_rules::movegen::legal_moves(Variant::Brazilian, &pos);
        let n = moves.len();
        assert_eq!(
            <Table as TableAccess>::best_index(n as u32 - 1, &moves),
            Some(n - 1)
        );
        assert_eq!(<Table as TableAccess>::best_index(n as u32, &moves), None);
        assert_eq!(<Table as TableAccess>::best_index(126, &moves), None);
        // The replacing table finds its stored move in the list, or nothing.
        let code = StoredMove::of(moves[2]).code();
        assert_eq!(
            <SharedHandle as TableAccess>::best_index(code, &moves),
            Some(2)
        );
        assert_eq!(
            <SharedHandle as TableAccess>::best_index(code, &moves[..2]),
            None
        );
    }
}
