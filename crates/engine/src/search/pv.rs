//! The principal variation: the line of best moves found below each ply.

use damas_rules::moves::Move;

use super::limits::MAX_PLY;

/// Triangular principal-variation table.
pub(crate) struct PvTable {
    moves: Vec<[Move; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 2],
}

impl PvTable {
    pub fn new() -> PvTable {
        let none = Move::new(
            damas_rules::square::Square::new(0).expect("square 0"),
            damas_rules::square::Square::new(0).expect("square 0"),
            damas_rules::bitboard::Bitboard::EMPTY,
        );
        PvTable {
            moves: vec![[none; MAX_PLY + 1]; MAX_PLY + 1],
            len: [0; MAX_PLY + 2],
        }
    }

    #[inline(always)]
    pub(super) fn reset(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    #[inline]
    pub(super) fn update(&mut self, ply: usize, m: Move) {
        let child = self.len[ply + 1].min(MAX_PLY - ply);
        let (head, tail) = self.moves.split_at_mut(ply + 1);
        head[ply][0] = m;
        head[ply][1..=child].copy_from_slice(&tail[0][..child]);
        self.len[ply] = child + 1;
    }

    /// The variation found below `ply`.
    pub fn line(&self, ply: usize) -> &[Move] {
        &self.moves[ply][..self.len[ply]]
    }
}
