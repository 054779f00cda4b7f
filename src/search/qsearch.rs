//! Quiescence: at the horizon, captures (compulsory in checkers, so there is no
//! stand-pat while one is available) are played out before the static evaluation.
//! Quiescence nodes are counted apart from search nodes (the thesis' convention).

use crate::eval::Evaluator;
use crate::movegen::{generate_captures, has_capture};
use crate::moves::MoveList;
use crate::position::Position;
use crate::score::Score;

use super::order::has_move;
use super::pvs::Engine;

impl<E: Evaluator> Engine<'_, E> {
    /// Value of `pos`, which has at least one legal move, once its captures are
    /// played out.
    pub(crate) fn qsearch(
        &mut self,
        pos: &Position,
        mut alpha: Score,
        beta: Score,
        ply: u32,
    ) -> Score {
        if !has_capture(pos) {
            return self.eval.eval(pos);
        }
        let mut list = MoveList::new();
        generate_captures(pos, &mut list);
        let mut best = -Score::INFINITE;
        for &m in list.iter() {
            self.stats.qs_nodes += 1;
            let child = pos.play(m);
            let s = if has_move(&child) {
                -self.qsearch(&child, -beta, -alpha, ply + 1)
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
