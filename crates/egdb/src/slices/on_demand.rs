//! Distances to conversion solved on demand, for slices without a distance file.
//!
//! A win/draw/loss slice says who wins, not how; without its `.dtc` file a long
//! win may be drawn by a counting rule before a search finds the conversion. At
//! the root of a won or lost position the engine asks for the distances of that
//! one slice: its pair (the slice and its mirror) is solved in memory by the
//! builder's own retrograde ([`solve_distances`]), its exits valued from the
//! win/draw/loss files, and kept for the life of the database handle. A solved
//! slice then answers exactly as its distance file would.
//!
//! Bounded: only slices of at most [`OnDemandDistances::PIECE_LIMIT`] pieces are
//! solved, so at most one byte per position of every 2–5-piece slice (146 MB) is
//! ever kept. The largest five-piece pair (18.5 M positions) takes seconds; a
//! six-piece pair a minute or more, too long for a move (docs/egdb.md).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::error::EgdbError;
use crate::slices::build::solve_distances;
use crate::slices::db::SliceDb;
use crate::slices::dtc::plies_from;
use crate::slices::slice::{Slice, SliceIndex};
use damas_rules::position::Position;

/// The distances of one solved slice.
#[derive(Debug)]
struct Solved {
    index: SliceIndex,
    /// One byte per position, as in a distance file's body.
    plies: Box<[u8]>,
}

/// The slices whose distances were solved on demand. `Send + Sync`; lookups are
/// lock-free, solves take turns.
#[derive(Debug)]
pub struct OnDemandDistances {
    /// Indexed by [`Slice::key`]; `None` inside: the solve failed (not retried).
    solved: Vec<OnceLock<Option<Solved>>>,
    /// Whether any slice was solved (keeps lookups free until one is).
    any: AtomicBool,
    /// Bytes of distances kept.
    bytes: AtomicU64,
    /// One solve at a time.
    solving: Mutex<()>,
    /// Whether a background solve is running ([`crate::Egdb::solve_distances_in_background`]).
    background: AtomicBool,
    /// The most pieces of a slice solved.
    piece_limit: usize,
}

impl Default for OnDemandDistances {
    fn default() -> Self {
        OnDemandDistances {
            solved: (0..Slice::KEYS).map(|_| OnceLock::new()).collect(),
            any: AtomicBool::new(false),
            bytes: AtomicU64::new(0),
            solving: Mutex::new(()),
            background: AtomicBool::new(false),
            piece_limit: Self::PIECE_LIMIT,
        }
    }
}

impl OnDemandDistances {
    /// The most pieces of a slice solved unless set otherwise.
    pub const PIECE_LIMIT: usize = 5;

    /// Solve only slices of at most `pieces` pieces from now on (0: none).
    pub fn set_piece_limit(&mut self, pieces: usize) {
        self.piece_limit = pieces;
    }

    /// Whether the distances of `slice` are known.
    pub fn has(&self, slice: Slice) -> bool {
        slice.is_valid() && matches!(self.solved[slice.key()].get(), Some(Some(_)))
    }

    /// Whether [`Self::solve`] would work on `slice`: within the limits, and
    /// neither solved nor tried before.
    pub fn wants(&self, slice: Slice) -> bool {
        slice.is_valid()
            && slice.pieces() <= self.piece_limit
            && self.solved[slice.key()].get().is_none()
    }

    /// Claim the one background solve; `false` while another runs.
    pub(crate) fn begin_background(&self) -> bool {
        self.background
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Release the background solve claimed by [`Self::begin_background`].
    pub(crate) fn end_background(&self) {
        self.background.store(false, Ordering::Release);
    }

    /// Bytes of distances kept.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Solve the pair of `slice` from `db` unless known, tried before, or over
    /// the limits. `Ok(true)`: its distances are known now.
    pub fn solve(&self, db: &SliceDb, slice: Slice) -> Result<bool, EgdbError> {
        if !slice.is_valid() || slice.pieces() > self.piece_limit {
            return Ok(false);
        }
        if let Some(done) = self.solved[slice.key()].get() {
            return Ok(done.is_some());
        }
        // A poisoned lock only means another solve panicked; its slot stays empty.
        let _turn = self.solving.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(done) = self.solved[slice.key()].get() {
            return Ok(done.is_some());
        }
        match solve_distances(db, slice) {
            Ok(pair) => {
                for (s, plies) in pair {
                    self.bytes.fetch_add(plies.len() as u64, Ordering::Relaxed);
                    let solved = Solved {
                        index: SliceIndex::new(s),
                        plies: plies.into_boxed_slice(),
                    };
                    let _ = self.solved[s.key()].set(Some(solved));
                }
                self.any.store(true, Ordering::Release);
                Ok(true)
            }
            Err(e) => {
                for s in [slice, slice.mirror()] {
                    let _ = self.solved[s.key()].set(None);
                }
                Err(e)
            }
        }
    }

    /// Plies to conversion of `pos`, a won or lost position, when its slice was
    /// solved: as [`crate::slices::dtc::SliceDistances::plies`].
    #[inline]
    pub fn plies(&self, pos: &Position) -> Option<u8> {
        if !self.any.load(Ordering::Acquire) {
            return None;
        }
        plies_from(pos, |slice, white, black, kings| {
            let sv = self.solved.get(slice.key())?.get()?.as_ref()?;
            let rank = usize::try_from(sv.index.rank(white, black, kings)).ok()?;
            sv.plies.get(rank).copied()
        })
    }
}
