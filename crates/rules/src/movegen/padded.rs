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
//!
//! Outside the crate a [`Padded`] set is only read (counted, turned, converted, its
//! raw bits numbered by the endgame databases); the stepping and iteration helpers
//! are the generator's own.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::bitboard::{Bitboard, Dir};
use crate::square::Square;

/// A set of squares in the ghost-square layout (bits 0..36, ghosts at 4, 13, 22, 31):
/// the masks of a [`super::Board`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Padded(pub(crate) u64);

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

    /// The one-square set of `sq` (the layout's tests).
    #[cfg(test)]
    pub(crate) const fn from_square(sq: Square) -> Padded {
        Padded(1 << BIT_OF_SQUARE[sq.index()])
    }

    /// The raw bits (bit `9m + c` for column `c` of row pair `m`; see the module
    /// documentation), for code that numbers sets in this layout.
    #[inline(always)]
    pub const fn bits(self) -> u64 {
        self.0
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
    pub(crate) const fn step(self, dir: Dir) -> Padded {
        Padded(match dir {
            Dir::NE => self.0 << 5,
            Dir::NW => self.0 << 4,
            Dir::SE => self.0 >> 4,
            Dir::SW => self.0 >> 5,
        })
    }

    /// The square of a one-square set.
    #[inline(always)]
    pub(crate) const fn square(self) -> Square {
        Square::from_index(SQUARE_OF_BIT[self.0.trailing_zeros() as usize & 63] as u32)
    }

    /// The square one diagonal step in `dir` from a one-square set (the step must
    /// stay on the board): [`Padded::square`] of [`Padded::step`], one addition
    /// instead of a shift and a second bit scan.
    #[inline(always)]
    pub(crate) const fn stepped_square(self, dir: Dir) -> Square {
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
    pub(crate) const fn singles(self) -> Singles {
        Singles(self.0)
    }
}

/// Iterator over the one-square subsets of a [`Padded`] set, lowest first.
#[derive(Clone, Copy)]
pub(crate) struct Singles(u64);

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
