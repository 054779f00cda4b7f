//! The horizon: a node with no depth left is decided by the quiescence search of
//! its captures or by the static evaluation (a side without moves has lost).

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::{to_tt, Bound, TableAccess};
use damas_rules::movegen::Board;
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use super::engine::Engine;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// [`Engine::node`] with no depth left. Out of line from it, so that the many
    /// horizon nodes do not pay for the interior's frame (about half of all nodes).
    #[inline(never)]
    pub(crate) fn leaf(&mut self, pos: &Position, ply: u32, alpha: Score, beta: Score) -> Score {
        let mut depth = 0;
        match self.enter(pos, &mut depth, ply, alpha, beta) {
            Ok((slot, _)) => self.horizon(pos, slot, ply, alpha, beta),
            Err(v) => v,
        }
    }

    /// The value of `pos` at the horizon (or at the deepest ply), stored in `slot`.
    #[inline(always)]
    pub(crate) fn horizon(
        &mut self,
        pos: &Position,
        slot: Option<T::Slot>,
        ply: u32,
        alpha: Score,
        beta: Score,
    ) -> Score {
        // Converted once for the three tests and the quiescence search.
        let board = Board::from(pos);
        let capture = board.has_capture();
        let (v, bound) = if !capture && !board.has_quiet_move() {
            self.stats.terminal += 1;
            (Score::loss_in(ply), Bound::Exact)
        } else {
            self.stats.leaves += 1;
            if capture && self.t.qs {
                let v = self.qsearch(&board, alpha, beta, ply);
                (v, bound_of(v, alpha, beta))
            } else if !capture && self.t.threat && board.threatened() {
                let v = self.threat_reply(&board, alpha, beta, ply);
                (v, bound_of(v, alpha, beta))
            } else {
                (self.eval.eval_at(pos, ply, self.acc), Bound::Exact)
            }
        };
        if let Some(s) = slot {
            if !self.budget.aborted {
                self.tt.store(s, to_tt(v, ply), 0, bound, None);
            }
        }
        v
    }
}

/// The bound a fail-soft value carries with respect to its window.
#[inline(always)]
fn bound_of(v: Score, alpha: Score, beta: Score) -> Bound {
    if v <= alpha {
        Bound::Upper
    } else if v >= beta {
        Bound::Lower
    } else {
        Bound::Exact
    }
}
