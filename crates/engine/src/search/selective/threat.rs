//! Threat replies: a quiet horizon position where the opponent threatens a capture
//! (a shot the side to move must meet) is searched one ply further instead of being
//! evaluated as it stands, since the static evaluation cannot see the threat.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::TableAccess;
use damas_rules::movegen::{Board, BoardMoves};
use damas_rules::variant::Rules;

use crate::search::engine::Engine;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// Fail-soft value of `pos` (no capture for the side to move, a threatened
    /// capture for the opponent): the best of its quiet moves, each followed by the
    /// opponent's captures played out or by the evaluation ([`Engine::reply_value`]).
    /// Each reply counts as a search node (a leaf), so node limits account for the
    /// work.
    pub(crate) fn threat_reply(
        &mut self,
        pos: &Board,
        alpha: Score,
        beta: Score,
        ply: u32,
    ) -> Score {
        let mut list = BoardMoves::new();
        pos.quiet_moves(&mut list);
        self.best_reply(pos, &list, alpha, beta, ply, |stats| {
            stats.nodes += 1;
            stats.leaves += 1;
        })
    }
}
