//! A game's move tree: a line of moves with the comments after them and, at any
//! move, the variations played instead of it (PDN's `( … )` right after the move),
//! each a line of the same shape.

use crate::moves::Move;

use super::add_comment;

/// A line of moves with its comments and variations. Plies count from the line's
/// first move; a variation at ply `k` replaces the line's move `k`, so it starts
/// from the position before that move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// The moves, each legal after those before it.
    pub moves: Vec<Move>,
    /// Comments after moves as (ply, text), in ply order.
    pub comments: Vec<(usize, String)>,
    /// Variations as (ply, the lines played instead of the move at that ply), in
    /// ply order, each ply once.
    pub variations: Vec<(usize, Vec<Variation>)>,
}

impl Variation {
    /// The comment after the move at `ply`, if any.
    pub fn comment(&self, ply: usize) -> Option<&str> {
        comment_at(&self.comments, ply)
    }

    /// Add `text` to the comment after the move at `ply` (as
    /// [`PdnGame::add_comment`](super::PdnGame::add_comment) does).
    pub fn add_comment(&mut self, ply: usize, text: &str) {
        add_comment(&mut self.comments, ply, text);
    }

    /// The variations played instead of the move at `ply` (none: empty).
    pub fn variations_at(&self, ply: usize) -> &[Variation] {
        variations_at(&self.variations, ply)
    }

    /// Add `line` as the last variation played instead of the move at `ply`.
    pub fn add_variation(&mut self, ply: usize, line: Variation) {
        add_variation(&mut self.variations, ply, line);
    }
}

/// The comment at `ply` of `comments`.
pub(crate) fn comment_at(comments: &[(usize, String)], ply: usize) -> Option<&str> {
    comments
        .iter()
        .find(|(p, _)| *p == ply)
        .map(|(_, c)| c.as_str())
}

/// The variations at `ply` of `variations`.
pub(crate) fn variations_at(variations: &[(usize, Vec<Variation>)], ply: usize) -> &[Variation] {
    variations
        .iter()
        .find(|(p, _)| *p == ply)
        .map_or(&[], |(_, v)| v.as_slice())
}

/// Add `line` at `ply` of `variations`, kept in ply order.
pub(crate) fn add_variation(
    variations: &mut Vec<(usize, Vec<Variation>)>,
    ply: usize,
    line: Variation,
) {
    match variations.iter_mut().find(|(p, _)| *p == ply) {
        Some((_, v)) => v.push(line),
        None => {
            let at = variations.partition_point(|(p, _)| *p < ply);
            variations.insert(at, (ply, vec![line]));
        }
    }
}
