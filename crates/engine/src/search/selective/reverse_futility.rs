//! Reverse futility pruning (the static null move): near the horizon, a quiet
//! position whose static evaluation clears `beta` by a margin per ply to go fails
//! high without a search.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::TableAccess;
use damas_rules::movegen::Board;
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use crate::search::engine::Engine;

/// Nodes with at most `rfp-max-depth` plies to go may be pruned when the evaluation
/// clears `beta` by `rfp-margin` a ply to go ([`Tuning`](crate::search::Tuning)), and
/// they lie at least this far below the root.
const RFP_MIN_PLY: u32 = 2;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// The fail-high value of a null-window node with few plies to go whose static
    /// evaluation, less the margin, still reaches `beta`: neither side may have a
    /// capture (a pending shot is beyond the evaluation) and the side to move must
    /// have a move. `None` where the node must be searched. The evaluation is kept in
    /// `static_eval` for the node's other tests.
    pub(crate) fn reverse_futility(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
        static_eval: &mut Option<Score>,
    ) -> Option<Score> {
        if !self.t.rfp
            || ply < RFP_MIN_PLY
            || beta.0 - alpha.0 != 1
            || beta.is_proven()
            || depth > self.tune.rfp_max_depth()
        {
            return None;
        }
        let board = Board::from(pos);
        if board.has_capture() || !board.has_quiet_move() {
            return None;
        }
        let v = self.static_eval(pos, ply, static_eval);
        let reduced = Score(v.0 - self.tune.rfp_margin().0 * depth as i32);
        (reduced >= beta && !reduced.is_proven() && !board.threatened()).then_some(reduced)
    }
}
