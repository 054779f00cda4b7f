//! ProbCut (Buro): at a null-window node deep enough, a shallower search of the same
//! position that clears `beta` by a margin predicts the full search's cutoff, which
//! is then taken without the full search. With `probcut-tt`, a table entry that
//! already holds such a shallower result takes the cutoff without any search.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::{from_tt, Bound, Found, TableAccess};
use damas_rules::movegen::has_capture;
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use crate::search::engine::Engine;

/// ProbCut is tried at nodes with `probcut-min-depth` plies to go or more, by a search
/// `probcut-reduction` plies shallower, against `beta` raised by `probcut-margin`
/// ([`Tuning`](crate::search::Tuning)). Nodes this close to the root are always searched in
/// full.
const PROBCUT_MIN_PLY: u32 = 2;

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// The value that cuts this node off (`≥ beta`) when the shallow search of `pos`
    /// `probcut-reduction` plies shallower clears `beta + probcut-margin`; `None` where
    /// ProbCut does not apply or the shallow search falls short. With `probcut-tt`,
    /// the node's table entry `entry` answers first when it is a lower bound at least
    /// that deep which clears the raised bound. Called before the node's moves are
    /// generated (the shallow search is a normal node at the same ply and reuses its
    /// move list).
    pub(crate) fn probcut(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: u32,
        (alpha, beta): (Score, Score),
        entry: Option<Found>,
    ) -> Option<Score> {
        if !self.t.probcut
            || ply < PROBCUT_MIN_PLY
            || beta.0 - alpha.0 != 1
            || beta.is_proven()
            || depth < self.tune.probcut_min_depth()
        {
            return None;
        }
        let raised = Score(beta.0 + self.tune.probcut_margin().0);
        if raised.is_proven() || has_capture(pos) {
            return None;
        }
        let shallow = depth.saturating_sub(self.tune.probcut_reduction());
        if self.t.probcut_tt && entry.is_some_and(|e| clears(e, ply, shallow, raised)) {
            self.stats.tt_cutoffs += 1;
            return Some(beta);
        }
        let v = self.node(pos, shallow, ply, Score(raised.0 - 1), raised);
        if v < raised || self.budget.aborted {
            return None;
        }
        // An interior node: its work was the shallow search.
        self.stats.interior += 1;
        Some(beta)
    }
}

/// Whether table entry `e`, read at `ply`, is a lower bound at least as deep as
/// ProbCut's shallow search (`shallow` plies to go) that reaches `raised`: the
/// shallow search would clear it too.
fn clears(e: Found, ply: u32, shallow: u32, raised: Score) -> bool {
    matches!(e.bound, Bound::Lower | Bound::Exact)
        && e.depth >= shallow
        && from_tt(e.value, ply) >= raised
}

#[cfg(test)]
mod tests {
    use super::clears;
    use crate::score::Score;
    use crate::tt::{Bound, Found};

    fn entry(value: i16, depth: u32, bound: Bound) -> Found {
        Found {
            value,
            depth,
            bound,
            on_path: false,
            best: None,
        }
    }

    #[test]
    fn only_a_deep_enough_lower_bound_above_the_raised_bound_clears() {
        // A node 9 plies to go, ProbCut's search 5 plies shallower, raised bound 150.
        let clear = |e| clears(e, 4, 9 - 5, Score(150));
        assert!(clear(entry(150, 4, Bound::Lower)));
        assert!(clear(entry(200, 8, Bound::Exact)));
        // Shallower than ProbCut's own search.
        assert!(!clear(entry(200, 3, Bound::Lower)));
        // Below the raised bound.
        assert!(!clear(entry(149, 6, Bound::Lower)));
        // An upper bound, or no bound, says nothing about clearing it.
        assert!(!clear(entry(200, 6, Bound::Upper)));
        assert!(!clear(entry(200, 6, Bound::New)));
    }
}
