//! Squares of the 32 playing squares, in the thesis' internal numbering
//! (bit `i`: 0 = a1, 1 = c1, 2 = e1, 3 = g1, 4 = b2, …, 31 = h8).

use std::fmt;

/// One of the 32 dark squares; the inner value is the internal index 0..32.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// Every square in index order.
    pub const ALL: [Square; 32] = {
        let mut all = [Square(0); 32];
        let mut i = 0;
        while i < 32 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with internal index `i`, if `i < 32`.
    pub const fn new(i: u8) -> Option<Square> {
        if i < 32 {
            Some(Square(i))
        } else {
            None
        }
    }

    /// The square with internal index `i`; the caller guarantees `i < 32`.
    pub(crate) const fn from_index(i: u32) -> Square {
        debug_assert!(i < 32);
        Square(i as u8)
    }

    /// Internal index 0..32.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row 0..8, 0 being rank 1 (White's back row).
    pub const fn row(self) -> u8 {
        self.0 / 4
    }

    /// File 0..8, 0 being file a.
    pub const fn file(self) -> u8 {
        2 * (self.0 % 4) + (self.row() & 1)
    }

    /// The dark square at `file`, `row` (both 0..8); `None` for light or off-board squares.
    pub const fn from_coords(file: u8, row: u8) -> Option<Square> {
        if file >= 8 || row >= 8 || !(file + row).is_multiple_of(2) {
            None
        } else {
            Some(Square(row * 4 + file / 2))
        }
    }

    /// The square after turning the board by 180°.
    pub const fn rotate(self) -> Square {
        Square(31 - self.0)
    }

    /// The lidraughts/FMJD number 1..=32 (1 = b8, 4 = h8, 29 = a1, 32 = g1).
    pub const fn numeric(self) -> u8 {
        4 * (7 - self.row()) + self.0 % 4 + 1
    }

    /// The square with lidraughts/FMJD number `n` (1..=32).
    pub const fn from_numeric(n: u8) -> Option<Square> {
        if n == 0 || n > 32 {
            None
        } else {
            let n = n - 1;
            Some(Square(4 * (7 - n / 4) + n % 4))
        }
    }

    /// Parse an algebraic name such as `c3` (lower or upper case).
    pub fn from_algebraic(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = b[1].wrapping_sub(b'1');
        Square::from_coords(file, row)
    }

    /// Parse either an algebraic name (`c3`) or a lidraughts number (`22`).
    pub fn parse(s: &str) -> Option<Square> {
        if s.bytes().all(|c| c.is_ascii_digit()) && !s.is_empty() && s.len() <= 2 {
            s.parse::<u8>().ok().and_then(Square::from_numeric)
        } else {
            Square::from_algebraic(s)
        }
    }

    /// The algebraic name, e.g. `c3`.
    pub fn algebraic(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.row() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers() {
        assert_eq!(Square::new(0).unwrap().to_string(), "a1");
        assert_eq!(Square::new(1).unwrap().to_string(), "c1");
        assert_eq!(Square::new(4).unwrap().to_string(), "b2");
        assert_eq!(Square::new(31).unwrap().to_string(), "h8");
        assert_eq!(Square::from_numeric(1).unwrap().to_string(), "b8");
        assert_eq!(Square::from_numeric(4).unwrap().to_string(), "h8");
        assert_eq!(Square::from_numeric(29).unwrap().to_string(), "a1");
        assert_eq!(Square::from_numeric(32).unwrap().to_string(), "g1");
        assert_eq!(Square::from_numeric(22).unwrap().to_string(), "c3");
        assert_eq!(Square::from_numeric(18).unwrap().to_string(), "d4");
        for s in Square::ALL {
            assert_eq!(Square::from_numeric(s.numeric()), Some(s));
            assert_eq!(Square::from_algebraic(&s.to_string()), Some(s));
            assert_eq!(Square::from_coords(s.file(), s.row()), Some(s));
            assert_eq!(s.rotate().rotate(), s);
            assert_eq!(
                1u32 << s.rotate().index(),
                (1u32 << s.index()).reverse_bits()
            );
        }
        assert_eq!(Square::from_algebraic("a2"), None);
        assert_eq!(Square::parse("33"), None);
        assert_eq!(Square::parse("0"), None);
        assert_eq!(Square::parse("i1"), None);
    }
}
