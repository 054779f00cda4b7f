//! Quiescence: at the horizon, captures (compulsory in checkers, so there is no
//! stand-pat while one is available) are played out before the static evaluation.
//! Quiescence nodes are counted apart from search nodes (the thesis' convention).
//! A position reached by a capture is evaluated at once unless a capture follows.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::TableAccess;
use damas_rules::movegen::{Board, BoardMoves};
use damas_rules::variant::Rules;

use super::engine::Engine;
use super::report::Stats;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// Value of `pos`, where the side to move has a capture, once the captures are
    /// played out. Works on the move generator's [`Board`]: the capture tree is made
    /// and tested without converting masks, only evaluated positions are converted.
    pub(crate) fn qsearch(&mut self, pos: &Board, alpha: Score, beta: Score, ply: u32) -> Score {
        let mut list = BoardMoves::new();
        // Single man jumps (most captures) are listed without the capture search.
        pos.captures_with::<R>(&mut list);
        self.best_reply(pos, &list, alpha, beta, ply, |stats| stats.qs_nodes += 1)
    }

    /// Fail-soft best value of the moves `list` of `pos` at `ply`, each scored by
    /// [`Engine::reply_value`] (no deeper search), stopping at a cutoff; `count`
    /// records each move played in the statistics. `-∞` for an empty list.
    #[inline(always)]
    pub(crate) fn best_reply(
        &mut self,
        pos: &Board,
        list: &BoardMoves,
        mut alpha: Score,
        beta: Score,
        ply: u32,
        count: impl Fn(&mut Stats),
    ) -> Score {
        let mut best = -Score::INFINITE;
        for m in list.as_slice() {
            count(&mut self.stats);
            let s = self.reply_value(&pos.play(m), alpha, beta, ply);
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                }
                if s >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The value, for the side that moved, of `child` (reached by its move at
    /// `ply`): the opponent's captures played out, else the evaluation, and a win
    /// when the opponent has no move.
    #[inline(always)]
    pub(crate) fn reply_value(
        &mut self,
        child: &Board,
        alpha: Score,
        beta: Score,
        ply: u32,
    ) -> Score {
        if child.has_capture() {
            -self.qsearch(child, -beta, -alpha, ply + 1)
        } else if child.has_quiet_move() {
            -self.eval.eval_board_at(child, ply + 1, self.acc)
        } else {
            Score::win_in(ply + 1)
        }
    }
}
