//! Perfect knowledge of some positions, as a search consults it: the [`Oracle`]
//! trait, its answers, and its implementation by the endgame databases ([`Egdb`]).
//! The engine's search and test doubles take any [`Oracle`]; the trait lives with
//! the databases so that the engine depends on them and not the other way round.

use std::sync::Arc;

use crate::{Egdb, Wdl};
use damas_rules::moves::Move;
use damas_rules::position::Position;
use damas_rules::Variant;

/// Win, draw or loss for the side to move, as an [`Oracle`] knows it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum OracleValue {
    /// The side to move wins with best play.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses with best play.
    Loss,
}

/// What an [`Oracle`] knows about a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OracleAnswer {
    /// The game-theoretic value for the side to move.
    pub value: OracleValue,
    /// The best move (fastest win, slowest loss, or one keeping the draw).
    pub best: Option<Move>,
    /// Plies to the end with best play, when known (wins and losses), or to the
    /// next capture or promotion when [`OracleAnswer::to_conversion`].
    pub plies: Option<u32>,
    /// `plies` counts to the next conversion (capture or promotion), not to the
    /// end: a line that long may be all king moves, which a counting rule draws.
    pub to_conversion: bool,
}

/// Perfect knowledge of some positions (an endgame database).
pub trait Oracle: Send + Sync {
    /// The answer for `pos`, or `None` when the position is not covered.
    fn probe(&self, pos: &Position) -> Option<OracleAnswer>;
    /// Positions with more pieces than this are never probed.
    fn max_pieces(&self) -> u32;
    /// Whether `pos` has few enough pieces to be probed: the one place where the
    /// search, its root and the terminal UI test a position against the database.
    #[inline]
    fn covers(&self, pos: &Position) -> bool {
        pos.piece_count() <= self.max_pieces()
    }
    /// Called at the root of a search before the root is probed, never inside the
    /// tree: a chance to do costly work for this one position (the databases solve
    /// the distances of its slice when no file holds them). With `wait` (searches
    /// limited by nodes or depth only, which must not depend on timing) the work is
    /// done before returning; otherwise it may go on in the background, so that a
    /// timed move never waits for it.
    fn prepare_root(self: Arc<Self>, _pos: &Position, _wait: bool) {}
    /// As [`Oracle::probe`] but the best move may be left out (inside the tree only
    /// the value is needed, and finding the move can cost a move generation).
    fn probe_value(&self, pos: &Position) -> Option<OracleAnswer> {
        self.probe(pos)
    }
    /// The rules its answers hold under: a search of another variant never
    /// consults it (the engine's `SearchOptions::with_variant` drops it).
    fn variant(&self) -> Variant {
        Variant::Brazilian
    }
    /// Whether a search consults it only from a root it covers (the small set built
    /// into the program): from a root with more pieces the search is the one it
    /// would be without it.
    fn root_only(&self) -> bool {
        false
    }
}

/// The 1–4-piece databases built into the program for `variant`, as a search's
/// oracle ([`Egdb::built_in`]): what every front end uses where no directory
/// holds databases. `None` only if the program's copy is damaged.
pub fn built_in(variant: Variant) -> Option<Arc<dyn Oracle>> {
    Egdb::built_in(variant)
        .ok()
        .map(|db| Arc::new(db) as Arc<dyn Oracle>)
}

fn value(wdl: Wdl) -> OracleValue {
    match wdl {
        Wdl::Win => OracleValue::Win,
        Wdl::Draw => OracleValue::Draw,
        Wdl::Loss => OracleValue::Loss,
    }
}

impl Oracle for Egdb {
    fn probe(&self, pos: &Position) -> Option<OracleAnswer> {
        let p = Egdb::probe(self, pos)?;
        // Without a distance (the slices store win/draw/loss only) a winning move may
        // make no progress and a losing one may lose at once: leave both to the
        // search, which scores the database's wins by progress, so the winner drives
        // towards the end and the loser resists it. A drawing move is as good as any.
        let best = p
            .best
            .filter(|_| p.wdl == Wdl::Draw || p.distance.is_some());
        Some(OracleAnswer {
            value: value(p.wdl),
            best,
            plies: p.distance.map(u32::from),
            to_conversion: p.distance.is_some()
                && !self.has_legacy_part(pos.piece_count() as usize),
        })
    }

    fn probe_value(&self, pos: &Position) -> Option<OracleAnswer> {
        let v = Egdb::probe_value(self, pos)?;
        Some(OracleAnswer {
            value: value(v.wdl),
            best: None,
            plies: v.distance.map(u32::from),
            to_conversion: v.distance.is_some()
                && !self.has_legacy_part(pos.piece_count() as usize),
        })
    }

    fn root_only(&self) -> bool {
        self.is_built_in()
    }

    fn prepare_root(self: Arc<Self>, pos: &Position, wait: bool) {
        // A failed solve is remembered and leaves the position to the conversion
        // search, as without distances.
        if wait {
            let _ = self.solve_distances(pos);
        } else {
            Egdb::solve_distances_in_background(&self, pos);
        }
    }

    fn max_pieces(&self) -> u32 {
        Egdb::max_pieces(self) as u32
    }

    fn variant(&self) -> Variant {
        Egdb::variant(self)
    }
}
