//! Perfect knowledge of some positions, as the search consults it: the [`Oracle`]
//! trait, implemented by the endgame databases (`damas_egdb::Egdb`) and by test
//! doubles. A leaf module, so that neither the search nor the databases own it.

use damas_rules::moves::Move;
use std::sync::Arc;

use damas_rules::position::Position;
use damas_rules::variant::Variant;

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
    /// consults it ([`crate::search::SearchOptions::with_variant`]).
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
