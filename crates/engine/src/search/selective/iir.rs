//! Internal iterative reduction: a node with no table move has no good first move
//! to search, and is searched a ply shallower; the shallower result seeds the table
//! with a move for the next, deeper visit.

use crate::eval::Evaluator;
use crate::tt::TableAccess;
use damas_rules::variant::Rules;

use crate::search::engine::Engine;

/// Nodes with at least this many plies to go are reduced.
pub(crate) const IIR_MIN_DEPTH: u32 = 4;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// The depth a node searches to: `depth`, or one ply less at a non-root node
    /// with [`IIR_MIN_DEPTH`] or more plies to go that found no move in the table.
    #[inline(always)]
    pub(crate) fn iir_depth(&self, depth: u32, root: bool, has_tt_move: bool) -> u32 {
        if self.t.iir && !root && depth >= IIR_MIN_DEPTH && !has_tt_move {
            depth - 1
        } else {
            depth
        }
    }
}
