//! Which positions another thread is searching now (simplified ABDADA, after Tom
//! Kerrigan): a thread about to search a later move of a node first looks its child
//! up here, and when another thread is already inside that subtree it searches its
//! other moves first and comes back to the busy one last, when the other thread's
//! result is likely in the shared table. The threads of a parallel search thus
//! spread over different subtrees instead of searching the same one twice.
//!
//! The table is a small array of atomic keys, one per slot, claimed while a child
//! is searched and released after. A collision only defers a move or lets two
//! threads share a subtree: it can never change a value, only the order of moves.

use std::sync::atomic::{AtomicU64, Ordering};

use damas_rules::key::Key;

/// Slots in the table (a power of two): far more than two threads ever hold.
const SLOTS: usize = 1 << 14;

/// Children this close to the horizon are searched at once: their subtrees are too
/// small for deferring them to pay.
pub const MIN_DEPTH: u32 = 3;

/// Moves one node may put off; more are searched in order (a small array keeps the
/// single-threaded node's stack frame as it was).
pub const MAX_DEFERRED: usize = 32;

/// The positions being searched by some thread, by key.
pub struct Busy {
    slots: Vec<AtomicU64>,
}

impl Default for Busy {
    fn default() -> Self {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Busy {
    #[inline(always)]
    fn slot(&self, key: Key) -> &AtomicU64 {
        // The high bits choose the shared table's bucket; the low ones the slot here.
        &self.slots[key.0 as usize & (SLOTS - 1)]
    }

    /// Whether some thread is searching the position with `key` now.
    #[inline]
    pub fn is_busy(&self, key: Key) -> bool {
        key.0 != 0 && self.slot(key).load(Ordering::Relaxed) == key.0
    }

    /// Mark `key` as searched by this thread; returns whether it took the slot (then
    /// [`Busy::leave`] must follow).
    #[inline]
    pub fn enter(&self, key: Key) -> bool {
        let slot = self.slot(key);
        key.0 != 0
            && slot
                .compare_exchange(0, key.0, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// Release a slot taken by [`Busy::enter`].
    #[inline]
    pub fn leave(&self, key: Key) {
        let _ = self
            .slot(key)
            .compare_exchange(key.0, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_busy_between_enter_and_leave() {
        let b = Busy::default();
        let k = Key(0x1234_5678_9abc_def0);
        assert!(!b.is_busy(k));
        assert!(b.enter(k));
        assert!(b.is_busy(k));
        // A second thread cannot take the same slot.
        assert!(!b.enter(k));
        b.leave(k);
        assert!(!b.is_busy(k));
        assert!(b.enter(k));
    }

    #[test]
    fn a_colliding_key_neither_takes_nor_frees_the_slot() {
        let b = Busy::default();
        let k = Key(0x1000_0000_0000_0001);
        let other = Key(k.0 ^ (1 << 40)); // same slot, other key
        assert!(b.enter(k));
        assert!(!b.is_busy(other));
        assert!(!b.enter(other));
        b.leave(other);
        assert!(b.is_busy(k));
    }
}
