//! Quiescence: at the horizon, captures (compulsory in checkers, so there is no
//! stand-pat while one is available) are played out before the static evaluation.
//! Quiescence nodes are counted apart from search nodes (the thesis' convention).
//! A position reached by a capture is evaluated at once unless a capture follows.

use crate::eval::Evaluator;
use crate::movegen::{generate_captures, has_capture};
use crate::position::Position;
use crate::score::Score;

use super::order::has_quiet_move;
use super::pvs::Engine;
use super::table::TableAccess;

impl<E: Evaluator + ?Sized, T: TableAccess> Engine<'_, E, T> {
    /// Value of `pos`, where the side to move has a capture, once the captures are
    /// played out.
    pub(crate) fn qsearch(
        &mut self,
        pos: &Position,
        mut alpha: Score,
        beta: Score,
        ply: u32,
    ) -> Score {
        let p = (ply as usize).min(self.lists.len() - 1);
        generate_captures(pos, &mut self.lists[p]);
        let mut best = -Score::INFINITE;
        for i in 0..self.lists[p].len() {
            self.stats.qs_nodes += 1;
            let child = pos.play(self.lists[p][i]);
            let s = if has_capture(&child) {
                -self.qsearch(&child, -beta, -alpha, ply + 1)
            } else if has_quiet_move(&child) {
                -self.eval.eval(&child)
            } else {
                Score::win_in(ply + 1)
            };
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
}
