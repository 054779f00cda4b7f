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

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// How many plies shallower move `m` (the `rank`-th searched, reaching `child`)
    /// is searched first at a node with `depth` to go: 2 from twice `lmr-min-move`
    /// and twice `lmr-min-depth` ([`Tuning`](crate::search::Tuning)), 1 from those,
    /// `None` where it is not reduced (the technique is off, the window is open, it
    /// captures, or it gives the opponent a capture).
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
        if !self.t.lmr || beta.0 - alpha.0 != 1 || m.is_capture() {
            return None;
        }
        let (min_depth, min_move) = (self.tune.lmr_min_depth(), self.tune.lmr_min_move());
        if depth < min_depth || rank < min_move || has_capture(child) {
            return None;
        }
        Some(if rank >= 2 * min_move && depth >= 2 * min_depth {
            2
        } else {
            1
        })
    }
}
