//! The game path at the start of a search: the root and the reversible part of the
//! game history are flagged in the thesis' table, so that its on-path flags also
//! find repetitions of positions played before the search.

use crate::tt::TableAccess;
use damas_rules::position::Position;

/// Mark the root and the reversible part of the game history as on the path, as
/// the thesis does, so that meeting one of them again in the tree scores a draw.
/// Returns the slots marked here, for [`unmark_path`] after the search. The lookups
/// are not counted in the table's counters.
pub(crate) fn mark_game_path<T: TableAccess>(
    tt: &mut T,
    pos: &Position,
    history: &[Position],
) -> Vec<T::Slot> {
    let mut marked = Vec::new();
    let mut next = pos;
    for p in std::iter::once(pos).chain(history.iter().rev()) {
        if !damas_rules::drawrules::reversible(p, next) {
            break;
        }
        if let Some((s, found)) = tt.probe(p.key()) {
            if !found.is_some_and(|f| f.on_path) {
                tt.set_path(s, true);
                marked.push(s);
            }
        }
        next = p;
    }
    tt.set_counters((0, 0));
    marked
}

/// Clear the on-path flags [`mark_game_path`] set.
pub(crate) fn unmark_path<T: TableAccess>(tt: &mut T, marked: Vec<T::Slot>) {
    for s in marked {
        tt.set_path(s, false);
    }
}
