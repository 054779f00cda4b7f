//! The ghost-square board layout the move generator works in.
//!
//! The public [`Bitboard`] packs the 32 squares four to a row, so one diagonal step
//! shifts by 3, 4 or 5 depending on the row's parity and needs two masks. Here every
//! pair of rows takes nine bits, the ninth (bit `9m + 4`) being a *ghost* square that is
//! never occupied: row `2m` sits at bits `9m..9m+4`, row `2m + 1` at `9m+5..9m+9`.
//! Every step is then one constant shift (NE +5, NW +4, SE −4, SW −5), and a step off
//! the board lands on a ghost, below bit 0 or above bit 35 — outside every mask of
//! real squares, so `step(d) & empty` needs no edge masks at all.
//!
//! The mapping keeps the square order (bit order = internal square order), so iterating
//! a padded set visits squares in the same order as the [`Bitboard`] it came from.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use std::mem::MaybeUninit;

use crate::bitboard::{Bitboard, Dir};
use crate::moves::MAX_MOVES;
use crate::position::{Color, Position};
use crate::square::Square;

/// A set of squares in the ghost-square layout (bits 0..36, ghosts at 4, 13, 22, 31).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Padded(pub u64);

/// Bit offsets of even rows' nibbles (rows 1, 3, 5, 7) once bytes are nine bits apart.
const EVEN_NIBBLES: u64 = 0xF | 0xF << 9 | 0xF << 18 | 0xF << 27;
/// Bit offsets of odd rows' nibbles (rows 2, 4, 6, 8) before the ghost is inserted.
const ODD_NIBBLES: u64 = EVEN_NIBBLES << 4;

impl Padded {
    /// No squares.
    pub const EMPTY: Padded = Padded(0);
    /// Every real square (the ghosts and bits ≥ 36 excluded).
    pub const ALL: Padded = Padded::from_bitboard(Bitboard::ALL);

    /// The same set in the ghost-square layout.
    #[inline(always)]
    pub const fn from_bitboard(b: Bitboard) -> Padded {
        let mut y = b.0 as u64;
        // Bytes (row pairs) 2 and 3 up by 2, then bytes 1 and 3 up by 1: byte m at 9m.
        y = (y & 0xFFFF) | ((y & 0xFFFF_0000) << 2);
        y = (y & (0xFF | 0xFF << 18)) | ((y & (0xFF << 8 | 0xFF << 26)) << 1);
        // The odd row of each pair up by one more, past its ghost.
        Padded((y & EVEN_NIBBLES) | ((y & ODD_NIBBLES) << 1))
    }

    /// The same set in the public layout (ghost bits are dropped).
    #[inline(always)]
    pub const fn to_bitboard(self) -> Bitboard {
        let mut y = self.0;
        y = (y & EVEN_NIBBLES) | ((y >> 1) & ODD_NIBBLES);
        y = (y & (0xFF | 0xFF << 18)) | ((y >> 1) & (0xFF << 8 | 0xFF << 26));
        y = (y & 0xFFFF) | ((y >> 2) & 0xFFFF_0000);
        Bitboard(y as u32)
    }

    /// The one-square set of `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Padded {
        Padded(1 << BIT_OF_SQUARE[sq.index()])
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The squares one diagonal step away in `dir`; steps off the board leave the
    /// real squares (intersect with a real-square mask before use).
    #[inline(always)]
    pub const fn step(self, dir: Dir) -> Padded {
        Padded(match dir {
            Dir::NE => self.0 << 5,
            Dir::NW => self.0 << 4,
            Dir::SE => self.0 >> 4,
            Dir::SW => self.0 >> 5,
        })
    }

    /// The lowest square's bit as a one-square set (`self` must not be empty).
    #[inline(always)]
    pub const fn lowest(self) -> Padded {
        Padded(self.0 & self.0.wrapping_neg())
    }

    /// The square of a one-square set.
    #[inline(always)]
    pub const fn square(self) -> Square {
        Square::from_index(SQUARE_OF_BIT[self.0.trailing_zeros() as usize & 63] as u32)
    }

    /// The square one diagonal step in `dir` from a one-square set (the step must
    /// stay on the board): [`Padded::square`] of [`Padded::step`], one addition
    /// instead of a shift and a second bit scan.
    #[inline(always)]
    pub const fn stepped_square(self, dir: Dir) -> Square {
        let delta: i32 = match dir {
            Dir::NE => 5,
            Dir::NW => 4,
            Dir::SE => -4,
            Dir::SW => -5,
        };
        let bit = self.0.trailing_zeros() as i32 + delta;
        Square::from_index(SQUARE_OF_BIT[bit as usize & 63] as u32)
    }

    /// The set turned half a board (square `s` to `31 − s`, as
    /// [`Bitboard::rotate`]): in this layout the 36 bits reversed.
    #[inline(always)]
    pub const fn rotate(self) -> Padded {
        Padded(self.0.reverse_bits() >> (64 - 36))
    }

    /// Iterate over the one-square subsets, lowest first.
    #[inline(always)]
    pub const fn singles(self) -> Singles {
        Singles(self.0)
    }
}

/// Iterator over the one-square subsets of a [`Padded`] set, lowest first.
#[derive(Clone, Copy)]
pub struct Singles(u64);

impl Iterator for Singles {
    type Item = Padded;
    #[inline(always)]
    fn next(&mut self) -> Option<Padded> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0 & self.0.wrapping_neg();
            self.0 ^= b;
            Some(Padded(b))
        }
    }
}

/// `BIT_OF_SQUARE[i]`: the padded bit of the square with internal index `i`.
const BIT_OF_SQUARE: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        let row = i / 4;
        t[i] = (9 * (row / 2) + 5 * (row % 2) + i % 4) as u8;
        i += 1;
    }
    t
};

/// `SQUARE_OF_BIT[b]`: the internal index of padded bit `b` (0 for ghosts, never read).
const SQUARE_OF_BIT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 32 {
        t[BIT_OF_SQUARE[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// `RAYS[d][b]`: the real squares a flying king on padded bit `b` sweeps in
/// direction `d` on an empty board, nearest first in step order (zero for ghost
/// bits). The capture generator finds the first piece on a ray with one bit scan
/// instead of stepping square by square.
pub(crate) const RAYS: [[u64; 36]; 4] = {
    let all = Padded::ALL.0;
    let mut t = [[0u64; 36]; 4];
    let mut d = 0;
    while d < 4 {
        let mut b = 0;
        while b < 36 {
            if all >> b & 1 == 1 {
                let mut sq: u64 = 1 << b;
                let mut ray = 0;
                loop {
                    sq = match d {
                        0 => sq << 5,
                        1 => sq << 4,
                        2 => sq >> 4,
                        _ => sq >> 5,
                    };
                    if sq & all == 0 {
                        break;
                    }
                    ray |= sq;
                }
                t[d][b] = ray;
            }
            b += 1;
        }
        d += 1;
    }
    t
};

/// A position in the ghost-square layout, seen from the side to move: what the move
/// generator and perft work on, so that a perft tree never converts layouts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PaddedPosition {
    /// The side to move's pieces.
    pub own: Padded,
    /// The opponent's pieces.
    pub opp: Padded,
    /// All kings.
    pub kings: Padded,
    /// Side to move (decides the men's direction and promotion row).
    pub side: Color,
}

/// Rank 1 (Black's promotion row) in the padded layout.
const RANK_1: Padded = Padded::from_bitboard(Bitboard::RANK_1);
/// Rank 8 (White's promotion row) in the padded layout.
const RANK_8: Padded = Padded::from_bitboard(Bitboard::RANK_8);

impl PaddedPosition {
    /// `pos` in the padded layout.
    #[inline(always)]
    pub fn new(pos: &Position) -> PaddedPosition {
        PaddedPosition {
            own: Padded::from_bitboard(pos.own()),
            opp: Padded::from_bitboard(pos.opp()),
            kings: Padded::from_bitboard(pos.kings()),
            side: pos.side_to_move(),
        }
    }

    /// The same position in the public layout.
    #[inline(always)]
    pub fn to_position(&self) -> Position {
        let (white, black) = match self.side {
            Color::White => (self.own, self.opp),
            Color::Black => (self.opp, self.own),
        };
        Position::from_parts_unchecked(
            white.to_bitboard(),
            black.to_bitboard(),
            self.kings.to_bitboard(),
            self.side,
        )
    }

    /// Empty real squares.
    #[inline(always)]
    pub const fn empty(&self) -> Padded {
        Padded(Padded::ALL.0 & !(self.own.0 | self.opp.0))
    }

    /// The side to move's men.
    #[inline(always)]
    pub const fn own_men(&self) -> Padded {
        Padded(self.own.0 & !self.kings.0)
    }

    /// The side to move's kings.
    #[inline(always)]
    pub const fn own_kings(&self) -> Padded {
        Padded(self.own.0 & self.kings.0)
    }

    /// The position after `mv` (legal here), with the same effects as [`Position::play`].
    #[inline(always)]
    pub fn play(&self, mv: &PaddedMove) -> PaddedPosition {
        match self.side {
            Color::White => self.play_as::<White>(mv),
            Color::Black => self.play_as::<Black>(mv),
        }
    }

    /// [`PaddedPosition::play`] when the side to move is known to be `S`.
    #[inline(always)]
    pub fn play_as<S: Side>(&self, mv: &PaddedMove) -> PaddedPosition {
        debug_assert_eq!(self.side, S::COLOR);
        let travel = mv.from ^ mv.to; // empty when a king capture ends where it started
        let promotion = S::PROMOTION;
        let mut kings = self.kings & !mv.captured;
        if (self.kings & mv.from).any() {
            kings ^= travel;
        } else {
            kings |= mv.to & promotion;
        }
        PaddedPosition {
            own: self.opp & !mv.captured,
            opp: self.own ^ travel,
            kings,
            side: S::Other::COLOR,
        }
    }
}

/// The side to move as a type: code generic over it (perft's inner loops, the bulk
/// count) has the men's directions and the promotion row as constants instead of
/// choosing them at every node.
pub trait Side {
    /// The colour.
    const COLOR: Color;
    /// The men's forward directions, in generation order.
    const FORWARD: [Dir; 2];
    /// The row where this side's men promote.
    const PROMOTION: Padded;
    /// The opponent.
    type Other: Side;
}

/// White to move (see [`Side`]).
pub struct White;
/// Black to move (see [`Side`]).
pub struct Black;

impl Side for White {
    const COLOR: Color = Color::White;
    const FORWARD: [Dir; 2] = [Dir::NE, Dir::NW];
    const PROMOTION: Padded = RANK_8;
    type Other = Black;
}

impl Side for Black {
    const COLOR: Color = Color::Black;
    const FORWARD: [Dir; 2] = [Dir::SE, Dir::SW];
    const PROMOTION: Padded = RANK_1;
    type Other = White;
}

/// A move in the padded layout: one-square start and end sets and the captured set.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PaddedMove {
    /// Start square.
    pub from: Padded,
    /// End square.
    pub to: Padded,
    /// Captured squares.
    pub captured: Padded,
}

/// A stack list of [`PaddedMove`]s with the capacity of a [`crate::moves::MoveList`].
pub struct PaddedMoves {
    moves: [MaybeUninit<PaddedMove>; MAX_MOVES],
    len: usize,
}

impl PaddedMoves {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> PaddedMoves {
        PaddedMoves {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// The moves.
    #[inline(always)]
    pub fn as_slice(&self) -> &[PaddedMove] {
        // SAFETY: the first `len` elements were written by `push`; the type is plain data.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<PaddedMove>(), self.len) }
    }
}

impl Default for PaddedMoves {
    fn default() -> Self {
        PaddedMoves::new()
    }
}

/// Where the generator writes moves: a public [`crate::moves::MoveList`] or a
/// [`PaddedMoves`] for perft.
pub trait MoveSink {
    /// Remove every move.
    fn clear(&mut self);
    /// Append a move.
    fn push(&mut self, from: Padded, to: Padded, captured: Padded);
    /// Whether this capture is already listed (two paths, one move).
    fn contains(&self, from: Padded, to: Padded, captured: Padded) -> bool;
    /// Append a quiet step to every square of `to`, in square order, each from the
    /// square one step in `back` (a man's moves in one direction).
    #[inline(always)]
    fn push_steps(&mut self, to: Padded, back: Dir) {
        for t in to.singles() {
            self.push(t.step(back), t, Padded::EMPTY);
        }
    }
}

impl MoveSink for PaddedMoves {
    #[inline(always)]
    fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    fn push(&mut self, from: Padded, to: Padded, captured: Padded) {
        assert!(self.len < MAX_MOVES, "see crate::moves::MAX_MOVES");
        self.moves[self.len] = MaybeUninit::new(PaddedMove { from, to, captured });
        self.len += 1;
    }

    fn contains(&self, from: Padded, to: Padded, captured: Padded) -> bool {
        self.as_slice().contains(&PaddedMove { from, to, captured })
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Padded {
            type Output = Padded;
            #[inline(always)]
            fn $f(self, rhs: Padded) -> Padded {
                Padded(self.0 $op rhs.0)
            }
        }
        impl $atr for Padded {
            #[inline(always)]
            fn $af(&mut self, rhs: Padded) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Padded {
    type Output = Padded;
    #[inline(always)]
    fn not(self) -> Padded {
        Padded(!self.0)
    }
}

#[cfg(test)]
mod tests;
