//! Futility pruning: near the horizon, at a null-window node whose static evaluation
//! plus a margin per ply to go stays at or below `alpha`, the quiet moves after the
//! first that neither give nor threaten a capture are not searched.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::TableAccess;
use damas_rules::movegen::Board;
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use crate::search::engine::Engine;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// The value a futile move is scored at (the evaluation plus the margin), when the node
    /// at `pos`, whose moves are quiet, may skip its futile moves: a null-window, non-root
    /// node with few plies to go (`futility-max-depth`), no capture threatened against the
    /// side to move and no proven bound; the margin is `futility-margin` a ply to go
    /// ([`Tuning`](crate::search::Tuning)). `None` where every move is searched. The
    /// evaluation is shared with reverse futility pruning through `static_eval`.
    pub(crate) fn futility(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
        static_eval: &mut Option<Score>,
    ) -> Option<Score> {
        if !self.t.futility
            || ply == 0
            || beta.0 - alpha.0 != 1
            || alpha.is_proven()
            || depth > self.tune.futility_max_depth()
            || Board::from(pos).threatened()
        {
            return None;
        }
        let margin = self.tune.futility_margin();
        let v = Score(self.static_eval(pos, ply, static_eval).0 + margin.0 * depth as i32);
        (v <= alpha).then_some(v)
    }
}

/// Whether a quiet move leading to `child` is futile: it gives the opponent no
/// capture and threatens none of its own (the evaluation sees neither a shot nor an
/// exchange coming).
#[inline]
pub(crate) fn futile(child: &Position) -> bool {
    let board = Board::from(child);
    !board.has_capture() && !board.threatened()
}

#[cfg(test)]
mod tests {
    use super::futile;
    use damas_rules::fen::parse_fen;

    #[test]
    fn a_move_is_futile_only_without_captures_either_way() {
        let child = |fen: &str| parse_fen(fen).expect("fen");
        // White has moved; Black to move. Nothing to capture for either side.
        assert!(futile(&child("B:Wd4:Bh8")));
        // The move offers Black a capture (c5xe3).
        assert!(!futile(&child("B:Wd4:Bc5")));
        // The move threatens White's capture d4xf6 (Black's e5 cannot take d4: c3 is
        // occupied).
        assert!(!futile(&child("B:Wc3,d4:Be5")));
    }
}
