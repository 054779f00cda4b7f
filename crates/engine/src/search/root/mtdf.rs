//! MTD(f) (Plaat et al.; thesis §3.8): the root value found by a series of null-window
//! searches over the transposition table, each starting from the previous bound.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::TableAccess;
use damas_rules::moves::Move;
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use crate::search::engine::Engine;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// One MTD(f) iteration to `depth` from the first guess `guess`: the exact root
    /// value and a move achieving it, or `None` when the search was stopped.
    pub(crate) fn mtdf(
        &mut self,
        pos: &Position,
        depth: u32,
        guess: Score,
    ) -> Option<(Score, Move)> {
        let (mut lower, mut upper) = (-Score::INFINITE, Score::INFINITE);
        let mut g = guess;
        let mut best = None;
        while lower < upper {
            let beta = if g == lower { Score(g.0 + 1) } else { g };
            self.root_best = None;
            g = self.node(pos, depth, 0, Score(beta.0 - 1), beta);
            if self.budget.aborted {
                return None;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
                best = self.root_best;
            }
        }
        best.map(|m| (g, m))
    }
}
