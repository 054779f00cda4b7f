//! Internal iterative reduction: a node with no table move has no good first move
//! to search, and is searched a ply shallower; the shallower result seeds the table
//! with a move for the next, deeper visit.

use crate::eval::Evaluator;
use crate::tt::TableAccess;
use damas_rules::variant::Rules;

use crate::search::engine::Engine;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// The depth a node searches to: `depth`, or one ply less at a non-root node with
    /// `iir-min-depth` ([`Tuning`](crate::search::Tuning)) or more plies to go that found
    /// no move in the table.
    #[inline(always)]
    pub(crate) fn iir_depth(&self, depth: u32, root: bool, has_tt_move: bool) -> u32 {
        if self.t.iir && !root && !has_tt_move && depth >= self.tune.iir_min_depth() {
            depth - 1
        } else {
            depth
        }
    }
}
