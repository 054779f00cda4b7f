//! Tests of `src/movegen/padded.rs`.

use super::*;
use crate::bitboard::{NEIGHBOR, NO_SQUARE};

#[test]
fn layout_round_trips_and_keeps_order() {
    let mut last = None;
    for s in Square::ALL {
        let p = Padded::from_bitboard(Bitboard::square(s));
        assert_eq!(p, Padded::from_square(s));
        assert_eq!(p.count(), 1);
        assert_eq!(p.square(), s);
        assert_eq!(p.to_bitboard(), Bitboard::square(s));
        assert!(last < Some(p.0), "order kept at {s}");
        last = Some(p.0);
    }
    assert_eq!(Padded::ALL.count(), 32);
    assert_eq!(Padded::ALL.0 & (1 << 4 | 1 << 13 | 1 << 22 | 1 << 31), 0);
    for x in [0u32, u32::MAX, 0x1234_5678, 0xDEAD_BEEF, 0x0F0F_F0F0] {
        assert_eq!(
            Padded::from_bitboard(Bitboard(x)).to_bitboard(),
            Bitboard(x)
        );
    }
}

#[test]
fn rotation_agrees_with_the_public_layout() {
    for x in [
        0u32,
        1,
        u32::MAX,
        0x1234_5678,
        0xDEAD_BEEF,
        0x0F0F_F0F0,
        1 << 31,
    ] {
        let b = Bitboard(x);
        assert_eq!(
            Padded::from_bitboard(b).rotate(),
            Padded::from_bitboard(b.rotate())
        );
    }
}

#[test]
fn stepped_square_is_the_square_of_the_step() {
    for d in Dir::ALL {
        for s in Square::ALL {
            let p = Padded::from_square(s);
            let got = p.step(d) & Padded::ALL;
            if got.any() {
                assert_eq!(p.stepped_square(d), got.square(), "{d:?} from {s}");
            }
        }
    }
}

#[test]
fn steps_agree_with_neighbour_table() {
    for d in Dir::ALL {
        for s in Square::ALL {
            let n = NEIGHBOR[d as usize][s.index()];
            let got = Padded::from_square(s).step(d) & Padded::ALL;
            if n == NO_SQUARE {
                assert!(got.is_empty(), "{d:?} from {s} leaves the board");
            } else {
                assert_eq!(got.square().index(), n as usize, "{d:?} from {s}");
            }
        }
    }
}
