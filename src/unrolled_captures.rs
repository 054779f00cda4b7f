//! The capture generator of [`crate::movegen`] with its four directions unrolled at
//! compile time: the same moves in the same order, for the endgame database's
//! capture resolution ([`crate::egdb::slicedb`]), where flying-king captures are
//! most of a probe's cost. Looping over [`Dir`] values makes every step a
//! run-time branch on the direction; here each direction is a constant shift.

use crate::bitboard::Dir;
use crate::padded::{MoveSink, Padded, PaddedMoves, PaddedPosition};

/// Direction numbers, in [`Dir::ALL`]'s order.
const NE: u8 = 0;
const NW: u8 = 1;
const SE: u8 = 2;
const SW: u8 = 3;

/// One diagonal step in direction `D` (see [`Padded::step`]).
#[inline(always)]
const fn step<const D: u8>(x: Padded) -> Padded {
    Padded(match D {
        NE => x.0 << 5,
        NW => x.0 << 4,
        SE => x.0 >> 4,
        _ => x.0 >> 5,
    })
}

/// State of the capture search for one moving piece (as in the generator).
struct Capturer<'a> {
    from: Padded,
    /// Opponent pieces (jumped ones included: they stay until the move ends).
    opp: Padded,
    /// Empty squares, the mover's start square included.
    empty: Padded,
    /// Longest capture found so far (over all pieces).
    best: u32,
    list: &'a mut PaddedMoves,
}

impl Capturer<'_> {
    #[inline]
    fn record(&mut self, to: Padded, captured: Padded) {
        let n = captured.count();
        if n < self.best {
            return;
        }
        if n > self.best {
            self.best = n;
            self.list.clear();
        }
        if !self.list.contains(self.from, to, captured) {
            self.list.push(self.from, to, captured);
        }
    }

    /// Continue a man's capture from `sq` in direction `D`; whether it could.
    #[inline(always)]
    fn man_dir<const D: u8>(&mut self, sq: Padded, captured: Padded) -> bool {
        let over = step::<D>(sq) & self.opp & !captured;
        let land = step::<D>(over) & self.empty;
        if land.any() {
            self.man(land, captured | over);
        }
        land.any()
    }

    fn man(&mut self, sq: Padded, captured: Padded) {
        // `|` not `||`: every direction is tried, in order.
        let extended = self.man_dir::<NE>(sq, captured)
            | self.man_dir::<NW>(sq, captured)
            | self.man_dir::<SE>(sq, captured)
            | self.man_dir::<SW>(sq, captured);
        if !extended && captured.any() {
            self.record(sq, captured);
        }
    }

    /// Continue a king's capture from `sq` in direction `D`; whether it could.
    #[inline(always)]
    fn king_dir<const D: u8>(&mut self, sq: Padded, captured: Padded) -> bool {
        let mut over = step::<D>(sq);
        while (over & self.empty).any() {
            over = step::<D>(over);
        }
        if (over & self.opp & !captured).is_empty() {
            return false;
        }
        let mut land = step::<D>(over) & self.empty;
        let extended = land.any();
        while land.any() {
            self.king(land, captured | over);
            land = step::<D>(land) & self.empty;
        }
        extended
    }

    fn king(&mut self, sq: Padded, captured: Padded) {
        let extended = self.king_dir::<NE>(sq, captured)
            | self.king_dir::<NW>(sq, captured)
            | self.king_dir::<SE>(sq, captured)
            | self.king_dir::<SW>(sq, captured);
        if !extended && captured.any() {
            self.record(sq, captured);
        }
    }
}

/// Fill `list` with the legal captures of `p` (cleared first): exactly the list of
/// [`crate::movegen::generate_captures`], in its order.
pub(crate) fn generate_captures(p: &PaddedPosition, list: &mut PaddedMoves) {
    list.clear();
    let opp = p.opp;
    let empty = p.empty();
    let own_kings = p.own_kings();
    let men = p.own_men();
    let first_jump = |e: Dir| (empty.step(e.opposite()) & opp).step(e.opposite());
    let jumpers = men
        & (first_jump(Dir::NE) | first_jump(Dir::NW) | first_jump(Dir::SE) | first_jump(Dir::SW));
    let mut best = 0;
    for from in (jumpers | own_kings).singles() {
        let mut c = Capturer {
            from,
            opp,
            empty: empty | from,
            best,
            list,
        };
        if (own_kings & from).any() {
            c.king(from, Padded::EMPTY);
        } else {
            c.man(from, Padded::EMPTY);
        }
        best = c.best;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egdb::slice::PositionSampler;
    use crate::movegen::padded_generate_captures;
    use rand::SeedableRng;

    #[test]
    fn same_captures_in_the_same_order_as_the_generator() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut with_captures = 0;
        for pieces in 2..=7 {
            let sampler = PositionSampler::new(pieces);
            for _ in 0..8000 {
                let pos = sampler.sample(&mut rng).unwrap();
                let p = PaddedPosition::new(&pos);
                let (mut want, mut got) = (PaddedMoves::new(), PaddedMoves::new());
                padded_generate_captures(&p, &mut want);
                generate_captures(&p, &mut got);
                assert_eq!(got.as_slice(), want.as_slice(), "{pos:?}");
                with_captures += usize::from(!want.as_slice().is_empty());
            }
        }
        assert!(
            with_captures > 10_000,
            "{with_captures} positions with captures"
        );
    }
}
