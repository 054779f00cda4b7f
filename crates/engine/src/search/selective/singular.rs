//! Singular extensions: a table move that every other move, searched to half the
//! depth, falls short of by a margin is searched a ply deeper; where a second move
//! also clears `beta` at a null-window node, the node fails high at once (multi-cut).

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::{from_tt, Bound, Found, TableAccess};
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use crate::search::engine::Engine;

/// What the singular-extension test found for the table move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Singular {
    /// Singular: searched a ply deeper.
    Extend,
    /// Not singular, and two moves clear `beta`: the node's value.
    Cut(Score),
    /// Neither.
    No,
}

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// Whether the table move (index `tt_move` of this node's list, its entry
    /// `entry`) is singular: every other move, searched to half the depth, stays
    /// below the entry's lower bound less `se-margin` a ply to go
    /// ([`Tuning`](crate::search::Tuning)). At a null-window node whose
    /// margin-lowered bound still clears `beta`, another move reaching it cuts the
    /// node off (multi-cut). The node is on the path.
    pub(crate) fn singular(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: u32,
        (alpha, beta): (Score, Score),
        tt_move: Option<usize>,
        entry: Option<Found>,
    ) -> Singular {
        let p = ply as usize;
        let (Some(ti), Some(e)) = (tt_move, entry) else {
            return Singular::No;
        };
        let v = from_tt(e.value, ply);
        if !matches!(e.bound, Bound::Lower | Bound::Exact) || e.depth + 3 < depth || v.is_proven() {
            return Singular::No;
        }
        let bound = Score(v.0 - self.tune.se_margin().0 * depth as i32);
        if bound.is_proven() {
            return Singular::No;
        }
        for i in 0..self.lists[p].len() {
            if i == ti {
                continue;
            }
            let child = pos.play(self.lists[p][i]);
            let s = -self.child(
                &child,
                None,
                (depth - 1) / 2,
                ply + 1,
                -bound,
                Score(1 - bound.0),
            );
            if self.budget.aborted {
                return Singular::No;
            }
            if s >= bound {
                return if bound >= beta && beta.0 - alpha.0 == 1 {
                    Singular::Cut(bound)
                } else {
                    Singular::No
                };
            }
        }
        Singular::Extend
    }
}
