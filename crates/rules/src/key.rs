//! The hash key of a position ([`Position::key`]), by which transposition tables
//! find it: Bob Jenkins' 64-bit mix of the three masks and the side to move.

use crate::position::{Color, Position};

/// A position's 64-bit hash key. Different positions may share a key (tables check
/// what they can); equal positions always have the same one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Key(pub u64);

impl Position {
    /// The position's key: `mix64(white, black, kings)` with the side to move in
    /// bit 32 of the third word (the masks themselves use only the low 32 bits).
    /// Computed afresh each time: there is no incremental update.
    #[inline(always)]
    pub fn key(&self) -> Key {
        let side = u64::from(self.side_to_move() == Color::Black) << 32;
        Key(mix64(
            u64::from(self.white().0),
            u64::from(self.black().0),
            u64::from(self.kings().0) | side,
        ))
    }
}

/// Bob Jenkins' 64-bit mix (thesis listing 6.4); returns the mixed `c`.
#[inline(always)]
pub const fn mix64(mut a: u64, mut b: u64, mut c: u64) -> u64 {
    a = a.wrapping_sub(b);
    a = a.wrapping_sub(c);
    a ^= c >> 43;
    b = b.wrapping_sub(c);
    b = b.wrapping_sub(a);
    b ^= a << 9;
    c = c.wrapping_sub(a);
    c = c.wrapping_sub(b);
    c ^= b >> 8;
    a = a.wrapping_sub(b);
    a = a.wrapping_sub(c);
    a ^= c >> 38;
    b = b.wrapping_sub(c);
    b = b.wrapping_sub(a);
    b ^= a << 23;
    c = c.wrapping_sub(a);
    c = c.wrapping_sub(b);
    c ^= b >> 5;
    a = a.wrapping_sub(b);
    a = a.wrapping_sub(c);
    a ^= c >> 35;
    b = b.wrapping_sub(c);
    b = b.wrapping_sub(a);
    b ^= a << 49;
    c = c.wrapping_sub(a);
    c = c.wrapping_sub(b);
    c ^= b >> 11;
    a = a.wrapping_sub(b);
    a = a.wrapping_sub(c);
    a ^= c >> 12;
    b = b.wrapping_sub(c);
    b = b.wrapping_sub(a);
    b ^= a << 18;
    c = c.wrapping_sub(a);
    c = c.wrapping_sub(b);
    c ^= b >> 22;
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_to_move_changes_the_key() {
        let p = Position::start();
        assert_ne!(p.key(), p.with_side(Color::Black).key());
    }

    #[test]
    fn start_keys_are_pinned() {
        // Tables, studies and their recorded figures depend on these exact values.
        let p = Position::start();
        assert_eq!(p.key(), Key(0xa2db_a008_c038_7428));
        assert_eq!(p.with_side(Color::Black).key(), Key(0x6786_816d_11a1_8436));
    }
}
