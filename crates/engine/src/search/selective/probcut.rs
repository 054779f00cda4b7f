//! ProbCut (Buro): at a null-window node deep enough, a shallower search of the same
//! position that clears `beta` by a margin predicts the full search's cutoff, which
//! is then taken without the full search.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::TableAccess;
use damas_rules::movegen::has_capture;
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use crate::search::engine::Engine;

/// ProbCut is tried at nodes with `probcut-min-depth` plies to go or more, by a
/// search `probcut-reduction` plies shallower, against `beta` raised by
/// `probcut-margin` ([`Tuning`](crate::search::Tuning)). Nodes this close to the root are always searched in full.
const PROBCUT_MIN_PLY: u32 = 2;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// The value that cuts this node off (`≥ beta`) when the shallow search of `pos`
    /// `probcut-reduction` plies shallower clears `beta + probcut-margin`; `None` where
    /// ProbCut does not apply or the shallow search falls short. Called before the
    /// node's moves are generated (the shallow search is a normal node at the same
    /// ply and reuses its move list).
    pub(crate) fn probcut(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
    ) -> Option<Score> {
        if !self.t.probcut
            || ply < PROBCUT_MIN_PLY
            || beta.0 - alpha.0 != 1
            || beta.is_proven()
            || depth < self.tune.probcut_min_depth()
        {
            return None;
        }
        let raised = Score(beta.0 + self.tune.probcut_margin().0);
        if raised.is_proven() || has_capture(pos) {
            return None;
        }
        let v = self.node(
            pos,
            depth.saturating_sub(self.tune.probcut_reduction()),
            ply,
            Score(raised.0 - 1),
            raised,
        );
        (v >= raised && !self.budget.aborted).then_some(beta)
    }
}
