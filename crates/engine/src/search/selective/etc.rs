//! Enhanced transposition cutoffs: before searching a node near the root, look up
//! every child in the table; one whose stored bound already refutes it cuts the
//! node off without a search.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::{from_tt, Bound, TableAccess};
use damas_rules::key::Key;
use damas_rules::moves::MAX_MOVES;
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use crate::search::engine::Engine;

/// Enhanced transposition cutoffs are tried only this far from the horizon (near the
/// root), where a saved subtree is worth the extra probes.
pub(crate) const ETC_MIN_DEPTH: u32 = 6;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// Enhanced transposition cutoff: a child whose stored upper bound already
    /// refutes it gives this node a value `≥ beta` without searching.
    pub(crate) fn etc(
        &mut self,
        pos: &Position,
        p: usize,
        depth: u32,
        ply: u32,
        beta: Score,
    ) -> Option<Score> {
        // Every child's slot is requested first, so that the probes below wait for
        // memory once rather than once per move.
        let n = self.lists[p].len();
        let mut keys = [Key(0); MAX_MOVES];
        for (k, &m) in keys.iter_mut().zip(self.lists[p].iter()) {
            *k = pos.play(m).key();
            self.tt.prefetch(*k);
        }
        for (i, &k) in keys.iter().enumerate().take(n) {
            if let Some(e) = self.tt.find(k) {
                if e.on_path
                    || e.depth < depth - 1
                    || e.depth > depth - 1 && self.opts.tt_exact_draft
                {
                    continue;
                }
                if matches!(e.bound, Bound::Upper | Bound::Exact) {
                    let v = -from_tt(e.value, ply + 1);
                    // The child is made again only for a cutoff's repetition test.
                    if v >= beta
                        && (T::TRACKS_PATH || !self.repeats_after(pos, &pos.play(self.lists[p][i])))
                    {
                        return Some(v);
                    }
                }
            }
        }
        None
    }
}
