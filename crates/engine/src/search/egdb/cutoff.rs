//! The endgame database inside the tree: a node it covers is scored at once when its
//! value is decided (or drawn, by the draw policy), searched on otherwise.

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::TableAccess;
use damas_rules::drawrules;
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use super::progress::{self, UNKNOWN_DISTANCE};
use crate::search::engine::Engine;
use crate::search::options::{DrawPolicy, WinPolicy};
use damas_egdb::oracle::{Oracle, OracleValue};

impl<E: Evaluator + ?Sized, T: TableAccess, R: Rules> Engine<'_, E, T, R> {
    /// Whether the root of this search, `ply` plies up, has at most `max` pieces
    /// (it is in the database): the path ends with the root and the node's ancestors.
    fn root_within(&self, ply: u32, max: u32) -> bool {
        self.root(ply).is_some_and(|root| root.piece_count() <= max)
    }

    /// The root of this search, `ply` plies up (the path ends with the root and the
    /// node's ancestors).
    fn root(&self, ply: u32) -> Option<&Position> {
        self.path
            .len()
            .checked_sub(ply as usize)
            .and_then(|i| self.path.get(i))
    }

    /// The oracle's value of the root of this search, `ply` plies up (asked once
    /// per search); `None` when the root is not in the database.
    fn root_value(&mut self, oracle: &dyn Oracle, ply: u32) -> Option<OracleValue> {
        if self.root_value.is_none() {
            let value = self
                .root(ply)
                .filter(|root| oracle.covers(root))
                .and_then(|root| oracle.probe_value(root))
                .map(|a| a.value);
            self.root_value = Some(value);
        }
        self.root_value.flatten()
    }

    /// Oracle lookup: a proven score for won and lost positions (and for draws when
    /// the policy says so); for drawn positions searched on, the depth is reduced on
    /// entering the database. `pos` is one the oracle covers.
    #[inline(never)]
    pub(crate) fn oracle(
        &mut self,
        oracle: &dyn Oracle,
        pos: &Position,
        ply: u32,
        depth: &mut u32,
    ) -> Option<Score> {
        let max = oracle.max_pieces();
        let answer = oracle.probe_value(pos)?;
        let decided = answer.value != OracleValue::Draw;
        if decided
            && self.opts.egdb_wins == WinPolicy::Play
            && self
                .root_value(oracle, ply)
                .is_some_and(|v| v != OracleValue::Draw)
        {
            // Inside a decided ending the evaluation chooses between the lines (it
            // values material, which the counting rules cannot draw away); only a
            // distance a counting rule outlasts is a verdict: a draw.
            if self.t.rules {
                let left = drawrules::material_plies_left(pos, self.path.iter().rev());
                if outlasts_count(answer.plies, left) {
                    self.stats.egdb_cutoffs += 1;
                    return Some(Score::DRAW);
                }
            }
            return None;
        }
        if decided && answer.plies.is_none() {
            if drawrules::material_count(pos).is_some_and(|n| n <= 10) {
                // Two pieces against a lone king (or three, the king on the long
                // diagonal) are drawn after 5 moves each, and a database without
                // distances cannot say the win comes in time: search on, and score
                // the horizon as a draw.
                // When the root is a database win or loss, the choice is between
                // lines that keep it: the horizon is left to the evaluation, above
                // the positions the database draws (scored as draws below).
                if *depth > 0
                    || self
                        .root_value(oracle, ply)
                        .is_some_and(|v| v != OracleValue::Draw)
                {
                    return None;
                }
                self.stats.egdb_cutoffs += 1;
                return Some(Score::DRAW);
            }
            if *depth > 0 && self.root_within(ply, max) {
                // A win/draw/loss-only database says who wins, not how: inside a won
                // ending the search goes on, so that it finds the progress (captures,
                // promotions, the defender cornered) that the leaves' estimate rewards.
                return None;
            }
        }
        if decided && self.t.rules {
            // One walk back: the reachable count equals the rule's own where one applies.
            let left = drawrules::material_plies_left_reachable(pos, self.path.iter().rev());
            if outlasts_count(answer.plies, left) {
                if drawrules::material_count(pos).is_some() {
                    // A material counting rule draws the game before the conversion
                    // the distance counts: the defender holds out until then.
                    self.stats.egdb_cutoffs += 1;
                    return Some(Score::DRAW);
                }
                // The lone king may reach the long diagonal first: the win is not
                // proven, so the search goes on (the evaluation at its horizon).
                return None;
            }
        }
        let dist = |a: Option<u32>| {
            let unknown = || {
                let winner = match answer.value {
                    OracleValue::Win => pos.side_to_move(),
                    _ => pos.side_to_move().opponent(),
                };
                UNKNOWN_DISTANCE + progress::estimate(pos, winner)
            };
            match a {
                // A stored distance stays a counted one, below the uncounted band.
                Some(a) => (ply + a).min(UNKNOWN_DISTANCE - 1),
                None => (ply + unknown()).min(Score::MAX_MATE_PLY as u32 - 1),
            }
        };
        match answer.value {
            OracleValue::Win => {
                self.stats.egdb_cutoffs += 1;
                Some(Score::win_in(dist(answer.plies)))
            }
            OracleValue::Loss => {
                self.stats.egdb_cutoffs += 1;
                Some(Score::loss_in(dist(answer.plies)))
            }
            // Below a won or lost root a drawn position is only a draw: searching on
            // could score it above the lines that keep the win.
            OracleValue::Draw
                if self
                    .root_value(oracle, ply)
                    .is_some_and(|v| v != OracleValue::Draw) =>
            {
                self.stats.egdb_cutoffs += 1;
                Some(Score::DRAW)
            }
            OracleValue::Draw => match self.opts.egdb_draws {
                DrawPolicy::Score => {
                    self.stats.egdb_cutoffs += 1;
                    Some(Score::DRAW)
                }
                DrawPolicy::Reduce(r) => {
                    if self
                        .path
                        .last()
                        .is_none_or(|parent| parent.piece_count() > max)
                    {
                        *depth = depth.saturating_sub(r);
                    }
                    None
                }
            },
        }
    }
}

/// Whether a database distance (plies to the next conversion) is longer than the
/// plies a material counting rule leaves (`left`, from [`drawrules`]): the count
/// draws the game first. Unknown distances and positions without a rule are not.
pub(crate) fn outlasts_count(distance: Option<u32>, left: Option<usize>) -> bool {
    distance.zip(left).is_some_and(|(d, l)| d as usize > l)
}
