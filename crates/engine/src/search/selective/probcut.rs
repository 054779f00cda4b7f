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

/// ProbCut is tried at nodes with this many plies to go or more …
pub(crate) const PROBCUT_MIN_DEPTH: u32 = 5;
/// … by a search this many plies shallower …
pub(crate) const PROBCUT_REDUCTION: u32 = 4;
/// … against `beta` raised by this margin (hundredths of a man).
pub(crate) const PROBCUT_MARGIN: Score = Score::centi(80);
/// Nodes this close to the root are always searched in full.
const PROBCUT_MIN_PLY: u32 = 2;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// The value that cuts this node off (`≥ beta`) when the shallow search of `pos`
    /// at `depth - PROBCUT_REDUCTION` clears `beta + PROBCUT_MARGIN`; `None` where
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
        let raised = Score(beta.0 + PROBCUT_MARGIN.0);
        if !self.t.probcut
            || depth < PROBCUT_MIN_DEPTH
            || ply < PROBCUT_MIN_PLY
            || beta.0 - alpha.0 != 1
            || beta.is_proven()
            || raised.is_proven()
            || has_capture(pos)
        {
            return None;
        }
        let v = self.node(
            pos,
            depth - PROBCUT_REDUCTION,
            ply,
            Score(raised.0 - 1),
            raised,
        );
        (v >= raised && !self.budget.aborted).then_some(beta)
    }
}
