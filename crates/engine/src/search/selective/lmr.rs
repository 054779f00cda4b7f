//! Late move reductions: at a null-window node, a quiet move late in the ordering is
//! searched a ply or two shallower first, and again at full depth only if it beats
//! `alpha`.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::TableAccess;
use damas_rules::movegen::has_capture;
use damas_rules::moves::Move;
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use crate::search::engine::Engine;

/// Late move reductions apply from this many plies to go …
pub(crate) const LMR_MIN_DEPTH: u32 = 3;
/// … and from this move (0-based) in the ordered list on.
pub(crate) const LMR_MIN_MOVE: usize = 3;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// How many plies shallower move `m` (the `rank`-th searched, reaching `child`)
    /// is searched first at a node with `depth` to go: 2 when late and deep, 1
    /// otherwise, `None` where it is not reduced (the technique is off, the window
    /// is open, it captures, or it gives the opponent a capture).
    #[inline(always)]
    pub(crate) fn late_move_reduction(
        &self,
        m: Move,
        child: &Position,
        depth: u32,
        rank: usize,
        alpha: Score,
        beta: Score,
    ) -> Option<u32> {
        if !self.t.lmr
            || depth < LMR_MIN_DEPTH
            || rank < LMR_MIN_MOVE
            || beta.0 - alpha.0 != 1
            || m.is_capture()
            || has_capture(child)
        {
            return None;
        }
        Some(if rank >= 2 * LMR_MIN_MOVE && depth >= 2 * LMR_MIN_DEPTH {
            2
        } else {
            1
        })
    }
}
