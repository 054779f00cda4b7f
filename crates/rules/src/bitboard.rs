//! 32-bit square sets and the board geometry (neighbour tables and shifts).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::square::Square;

/// A set of squares: bit `i` is the square with internal index `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u32);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 32 squares.
    pub const ALL: Bitboard = Bitboard(u32::MAX);
    /// Rank 1 (White's back row, Black's promotion row).
    pub const RANK_1: Bitboard = Bitboard(0x0000_000F);
    /// Rank 8 (Black's back row, White's promotion row).
    pub const RANK_8: Bitboard = Bitboard(0xF000_0000);
    /// Squares on ranks 1, 3, 5, 7 (files a, c, e, g).
    pub const EVEN_ROWS: Bitboard = Bitboard(0x0F0F_0F0F);
    /// Squares on ranks 2, 4, 6, 8 (files b, d, f, h).
    pub const ODD_ROWS: Bitboard = Bitboard(0xF0F0_F0F0);
    /// File a (a1, a3, a5, a7).
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101);
    /// File h (h2, h4, h6, h8).
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080);

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The one-square mask.
    #[inline(always)]
    pub const fn square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// The lowest square, if any.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros()))
        }
    }

    /// The set turned by 180° (square `s` to `31 - s`).
    pub const fn rotate(self) -> Bitboard {
        Bitboard(self.0.reverse_bits())
    }

    /// The squares one diagonal step away in direction `dir` (off-board steps vanish).
    #[inline(always)]
    pub const fn step(self, dir: Dir) -> Bitboard {
        let b = self.0;
        let e = b & Self::EVEN_ROWS.0;
        let o = b & Self::ODD_ROWS.0;
        Bitboard(match dir {
            Dir::NE => (e << 4) | ((o & !Self::FILE_H.0) << 5),
            Dir::NW => ((e & !Self::FILE_A.0) << 3) | (o << 4),
            Dir::SE => (e >> 4) | ((o & !Self::FILE_H.0) >> 3),
            Dir::SW => ((e & !Self::FILE_A.0) >> 5) | (o >> 4),
        })
    }

    /// Iterate over the squares in index order.
    pub const fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter()
            .fold(Bitboard::EMPTY, |b, s| b | Bitboard::square(s))
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterator over the squares of a [`Bitboard`].
#[derive(Clone, Copy)]
pub struct BitIter(u32);

impl Iterator for BitIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Square::from_index(i))
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        self.iter()
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// A diagonal direction; north is towards rank 8.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Dir {
    /// Towards h8.
    NE = 0,
    /// Towards a8.
    NW = 1,
    /// Towards h1.
    SE = 2,
    /// Towards a1.
    SW = 3,
}

impl Dir {
    /// All four directions.
    pub const ALL: [Dir; 4] = [Dir::NE, Dir::NW, Dir::SE, Dir::SW];

    /// The opposite direction.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::NE => Dir::SW,
            Dir::NW => Dir::SE,
            Dir::SE => Dir::NW,
            Dir::SW => Dir::NE,
        }
    }
}

/// "No square" marker in [`NEIGHBOR`].
pub const NO_SQUARE: u8 = 32;

/// `NEIGHBOR[dir][sq]`: the index of the next square from `sq` in `dir`, or [`NO_SQUARE`].
pub const NEIGHBOR: [[u8; 32]; 4] = {
    let mut t = [[NO_SQUARE; 32]; 4];
    let deltas: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
    let mut d = 0;
    while d < 4 {
        let mut i = 0;
        while i < 32 {
            let row = (i / 4) as i8;
            let file = (2 * (i % 4) + (row as usize & 1)) as i8;
            let f = file + deltas[d].0;
            let r = row + deltas[d].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[d][i] = (r * 4 + f / 2) as u8;
            }
            i += 1;
        }
        d += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_agree_with_tables() {
        for d in Dir::ALL {
            for s in Square::ALL {
                let n = NEIGHBOR[d as usize][s.index()];
                let expect = if n == NO_SQUARE { 0 } else { 1u32 << n };
                assert_eq!(Bitboard::square(s).step(d).0, expect, "{d:?} from {s}");
                if n != NO_SQUARE {
                    assert_eq!(
                        NEIGHBOR[d.opposite() as usize][n as usize] as usize,
                        s.index()
                    );
                }
            }
        }
        let c3 = Square::from_algebraic("c3").unwrap();
        let mut ne = Vec::new();
        let mut b = Bitboard::square(c3).step(Dir::NE);
        while b.0 != 0 {
            ne.push(b.iter().next().unwrap().to_string());
            b = b.step(Dir::NE);
        }
        assert_eq!(ne, ["d4", "e5", "f6", "g7", "h8"]);
    }
}
