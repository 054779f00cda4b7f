//! The move type and a fixed-capacity move list.

use std::fmt;
use std::mem::MaybeUninit;
use std::ops::Deref;

use crate::bitboard::Bitboard;
use crate::square::Square;

/// A move, identified (as FMJD rules do) by its start, end and the set of captured
/// squares, and, where a man can be crowned during a capture (Russian), by whether it
/// was. Two capture paths with the same identity are the same move; the path is
/// reconstructed for display by [`crate::notation`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    captured: Bitboard,
    from: Square,
    to: Square,
    crowned: bool,
}

impl Move {
    /// A move from `from` to `to` capturing `captured` (empty for a quiet move).
    pub const fn new(from: Square, to: Square, captured: Bitboard) -> Move {
        Move {
            captured,
            from,
            to,
            crowned: false,
        }
    }

    /// A man's capture from `from` to `to` taking `captured` during which the man
    /// reached its far row and was crowned (Russian rules): it ends as a king wherever
    /// it stops.
    pub const fn new_crowned(from: Square, to: Square, captured: Bitboard) -> Move {
        Move {
            captured,
            from,
            to,
            crowned: true,
        }
    }

    /// Whether a man was crowned during this capture (only under rules that crown
    /// mid-capture): its end square alone does not tell.
    pub const fn crowned(self) -> bool {
        self.crowned
    }

    /// Start square.
    pub const fn from(self) -> Square {
        self.from
    }

    /// End square.
    pub const fn to(self) -> Square {
        self.to
    }

    /// Captured squares (empty for a quiet move).
    pub const fn captured(self) -> Bitboard {
        self.captured
    }

    /// Whether the move captures.
    pub const fn is_capture(self) -> bool {
        self.captured.any()
    }

    /// The move seen from the other side of the board (for rotated positions).
    pub const fn rotate(self) -> Move {
        Move {
            captured: self.captured.rotate(),
            from: self.from.rotate(),
            to: self.to.rotate(),
            crowned: self.crowned,
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_capture() {
            write!(f, "{}x{}", self.from, self.to)?;
            for s in self.captured {
                write!(f, ":{s}")?;
            }
            if self.crowned {
                write!(f, "+")?;
            }
            Ok(())
        } else {
            write!(f, "{}-{}", self.from, self.to)
        }
    }
}

/// Capacity of a [`MoveList`] (search keeps move indices in a `u8`, so it must stay
/// 256). Positions hold at most 12 pieces a side ([`crate::Position::from_parts`]).
/// Quiet moves are bounded: at most 12 kings × 13 squares = 156 (a king sees at most
/// 13 squares on 8×8). Captures are one entry per (start, end, captured set) of
/// maximal length; single captures are bounded the same way (≤ 156), and a
/// hill-climbing search over valid positions found no capture position above 38
/// moves (none above 68 moves of any kind). As that bound is not proven, `push`
/// panics on overflow in every build rather than drop a legal move silently; the
/// check costs the same compare the old silent bound did, and the FEN fuzz target
/// generates the moves of every position it parses.
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack. The array is left uninitialised past `len`: clearing
/// 2 KB per node cost perft a tenth of its time.
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        // SAFETY: an array of MaybeUninit needs no initialisation.
        let moves: [MaybeUninit<Move>; MAX_MOVES] = unsafe { MaybeUninit::uninit().assume_init() };
        MoveList { moves, len: 0 }
    }

    /// Append a move. Valid positions never fill the list (see [`MAX_MOVES`]); a full
    /// list panics.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        assert!(self.len < MAX_MOVES, "MoveList overflow: see MAX_MOVES");
        self.moves[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }

    /// Append the moves of `moves`, each checked against the capacity as by
    /// [`MoveList::push`], with the length kept in a register meanwhile (the move
    /// generator's bulk path: `push` stores it back after every move).
    #[inline(always)]
    pub(crate) fn extend_from_iter<I: IntoIterator<Item = Move>>(&mut self, moves: I) {
        let mut len = self.len;
        for mv in moves {
            assert!(len < MAX_MOVES, "MoveList overflow: see MAX_MOVES");
            self.moves[len] = MaybeUninit::new(mv);
            len += 1;
        }
        self.len = len;
    }

    /// Remove every move.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keep the first `len` moves.
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// The moves as a mutable slice (for ordering).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: the first `len` elements were written by `push`; Move is plain data.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        // SAFETY: the first `len` elements were written by `push`; Move is plain data.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_list_holds_max_moves() {
        let mv = Move::new(
            Square::new(0).unwrap(),
            Square::new(4).unwrap(),
            Bitboard(0),
        );
        let mut list = MoveList::new();
        for _ in 0..MAX_MOVES {
            list.push(mv);
        }
        assert_eq!(list.len(), MAX_MOVES);
    }

    #[test]
    #[should_panic(expected = "MoveList overflow")]
    fn overflow_is_loud_not_a_dropped_move() {
        let mv = Move::new(
            Square::new(0).unwrap(),
            Square::new(4).unwrap(),
            Bitboard(0),
        );
        let mut list = MoveList::new();
        for _ in 0..=MAX_MOVES {
            list.push(mv);
        }
    }
}
