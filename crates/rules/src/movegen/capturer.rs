//! The full capture generator: every complete capture sequence of every piece,
//! merged when two routes take the same pieces to the same square (the Turkish
//! strike), and under the majority rule ([`Rules::MAJORITY`]) only the longest. Under
//! [`Rules::CROWNS_MID_CAPTURE`] a man landing on its far row goes on as a king.

use std::marker::PhantomData;

use super::{Black, Board, MoveSink, Padded, Side, White, RAYS};
use crate::bitboard::Dir;
use crate::moves::MoveList;
use crate::position::{Color, Position};
use crate::variant::Rules;

/// State of the capture search for one moving piece, under the rules `R`.
struct Capturer<'a, S, R> {
    from: Padded,
    /// Opponent pieces (jumped ones included: they stay until the move ends).
    opp: Padded,
    /// Empty squares, the mover's start square included.
    empty: Padded,
    /// Longest capture found so far (over all pieces).
    best: u32,
    /// The mover's far row, where a man is crowned during a capture (only read
    /// under [`Rules::CROWNS_MID_CAPTURE`]).
    promotion: Padded,
    /// Whether the man being followed was crowned on the way.
    crowned: bool,
    list: &'a mut S,
    rules: PhantomData<R>,
}

impl<S: MoveSink, R: Rules> Capturer<'_, S, R> {
    /// Keep the finished capture `from`→`to` taking `captured`: the variant's
    /// capture selection.
    #[inline]
    fn record(&mut self, to: Padded, captured: Padded) {
        let crowned = R::CROWNS_MID_CAPTURE && self.crowned;
        if R::MAJORITY {
            let n = captured.count();
            if n < self.best {
                return;
            }
            if n > self.best {
                self.best = n;
                self.list.clear();
            }
        }
        if !self.list.contains(self.from, to, captured, crowned) {
            self.list.push(self.from, to, captured, crowned);
        }
    }

    /// Continue a man's capture from `sq` in direction `D`; whether it could.
    #[inline(always)]
    fn man_dir(&mut self, d: Dir, sq: Padded, captured: Padded) -> bool {
        let over = sq.step(d) & self.opp & !captured;
        let land = over.step(d) & self.empty;
        if R::CROWNS_MID_CAPTURE && (land & self.promotion).any() {
            // Crowned on the far row: the rest of the capture is a king's, in any
            // direction (back over the piece just taken finds it already taken).
            self.crowned = true;
            self.king::<Start>(land, captured | over);
            self.crowned = false;
        } else if land.any() {
            self.man(land, captured | over);
        }
        land.any()
    }

    fn man(&mut self, sq: Padded, captured: Padded) {
        // `|` not `||`: every direction is tried, in order. Each call is inlined
        // with a constant direction, so every step is one constant shift.
        let extended = self.man_dir(Dir::NE, sq, captured)
            | self.man_dir(Dir::NW, sq, captured)
            | self.man_dir(Dir::SE, sq, captured)
            | self.man_dir(Dir::SW, sq, captured);
        if !extended && captured.any() {
            self.record(sq, captured);
        }
    }

    /// Continue a king's capture from `sq` in direction `T::DIR`; whether it could.
    /// The first piece on the ray and the empty squares behind it come from the
    /// ray table with one bit scan each ([`RAYS`]), not a step per square.
    #[inline(always)]
    fn king_dir<T: Towards>(&mut self, sq: Padded, captured: Padded) -> bool {
        let d = T::DIR;
        // NE and NW go up the bit order, so the nearest square is the lowest bit.
        let up = matches!(d, Dir::NE | Dir::NW);
        let rays = &RAYS[d as usize];
        let blockers = rays[sq.0.trailing_zeros() as usize] & !self.empty.0;
        // The nearest piece on the ray, none when the ray is empty: one test below
        // then rejects both an empty ray and a first piece that cannot be taken.
        let over = Padded(nearest(blockers, up));
        if (over & self.opp & !captured).is_empty() {
            return false;
        }
        let first = over.0.trailing_zeros();
        let beyond = rays[first as usize];
        let next = beyond & !self.empty.0;
        // The empty squares between the piece taken and the next piece (or the edge).
        let land = if up {
            beyond & nearest(next, up).wrapping_sub(1)
        } else if next == 0 {
            beyond
        } else {
            beyond & (!0u64 << (64 - next.leading_zeros()))
        };
        if land == 0 {
            return false;
        }
        // Without the majority rule a king must land where it can go on capturing
        // when there is such a square (with it, going on takes more and wins anyway).
        let land = if R::MAJORITY {
            land
        } else {
            self.continuing(land, captured | over)
        };
        // Landing squares nearest first, as a step-by-step walk would find them.
        let mut rest = land;
        while rest != 0 {
            let bit = nearest(rest, up);
            rest ^= bit;
            self.king::<T::Back>(Padded(bit), captured | over);
        }
        true
    }

    /// The squares of `land` from which a king that has taken `captured` can take
    /// another piece; all of `land` when there are none.
    fn continuing(&self, land: u64, captured: Padded) -> u64 {
        let mut goes_on = 0;
        let mut rest = land;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            let sq = bit.trailing_zeros() as usize;
            let takes = Dir::ALL.into_iter().any(|d| {
                let up = matches!(d, Dir::NE | Dir::NW);
                let over = Padded(nearest(RAYS[d as usize][sq] & !self.empty.0, up));
                (over & self.opp & !captured).any() && (over.step(d) & self.empty).any()
            });
            if takes {
                goes_on |= bit;
            }
        }
        if goes_on == 0 {
            land
        } else {
            goes_on
        }
    }

    /// Continue a king's capture from `sq`, in every direction but `B` (where the
    /// king came from: the piece it just took is the first on that ray, and a piece
    /// is not taken twice, so that direction never extends the capture).
    fn king<B: Back>(&mut self, sq: Padded, captured: Padded) {
        // In direction order; `B::DIR` is a constant, so the skipped call is gone.
        let ne = B::DIR != Some(Dir::NE) && self.king_dir::<Ne>(sq, captured);
        let nw = B::DIR != Some(Dir::NW) && self.king_dir::<Nw>(sq, captured);
        let se = B::DIR != Some(Dir::SE) && self.king_dir::<Se>(sq, captured);
        let sw = B::DIR != Some(Dir::SW) && self.king_dir::<Sw>(sq, captured);
        if !(ne | nw | se | sw) && captured.any() {
            self.record(sq, captured);
        }
    }
}

/// The square of `bits` nearest a ray's start: the lowest bit on a ray going up the
/// bit order (`up`), the highest on one going down; empty when `bits` is.
#[inline(always)]
fn nearest(bits: u64, up: bool) -> u64 {
    if up {
        bits & bits.wrapping_neg()
    } else {
        bits & (1 << (63 - (bits | 1).leading_zeros()))
    }
}

/// A direction known at compile time, for the king-capture recursion.
trait Towards {
    const DIR: Dir;
    /// The way back, excluded after a capture in this direction.
    type Back: Back;
}

/// The direction a king's capture continuation skips (`None`: the first capture).
trait Back {
    const DIR: Option<Dir>;
}

/// The four directions and the start of a capture, as types.
struct Ne;
struct Nw;
struct Se;
struct Sw;
struct Start;

macro_rules! towards {
    ($t:ident, $d:ident, $back:ident) => {
        impl Towards for $t {
            const DIR: Dir = Dir::$d;
            type Back = $back;
        }
        impl Back for $t {
            const DIR: Option<Dir> = Some(Dir::$d);
        }
    };
}
towards!(Ne, NE, Sw);
towards!(Nw, NW, Se);
towards!(Se, SE, Nw);
towards!(Sw, SW, Ne);

impl Back for Start {
    const DIR: Option<Dir> = None;
}

/// Fill `list` with the legal captures under the rules `R` (cleared first): one entry
/// per (from, to, captured set), only sequences of maximal length where `R` has the
/// majority rule. Leaves `list` empty when there is no capture.
pub fn generate_captures_with<R: Rules>(pos: &Position, list: &mut MoveList) {
    padded_generate_captures::<R, _>(&Board::from(pos), list);
}

/// [`generate_captures_with`] in the padded layout.
pub(crate) fn padded_generate_captures<R: Rules, S: MoveSink>(p: &Board, list: &mut S) {
    list.clear();
    let opp = p.opp;
    let empty = p.empty();
    let own_kings = p.own_kings();
    // Only men with a first jump start a search; kings are few and all tried.
    let men = p.own_men();
    let first_jump = |e: Dir| (empty.step(e.opposite()) & opp).step(e.opposite());
    let jumpers = men
        & (first_jump(Dir::NE) | first_jump(Dir::NW) | first_jump(Dir::SE) | first_jump(Dir::SW));
    let promotion = match p.side {
        _ if !R::CROWNS_MID_CAPTURE => Padded::EMPTY,
        Color::White => White::PROMOTION,
        Color::Black => Black::PROMOTION,
    };
    let mut best = 0;
    for from in (jumpers | own_kings).singles() {
        let mut c = Capturer {
            from,
            opp,
            empty: empty | from,
            best,
            promotion,
            crowned: false,
            list,
            rules: PhantomData::<R>,
        };
        if (own_kings & from).any() {
            c.king::<Start>(from, Padded::EMPTY);
        } else {
            c.man(from, Padded::EMPTY);
        }
        best = c.best;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::movegen::BoardMoves;
    use crate::position::Color;
    use crate::variant::Brazilian;
    use rand::{Rng, SeedableRng};

    /// The king's captures found by walking each ray a square at a time (the
    /// generator before the ray table), as (to, captured) in discovery order.
    fn walk(
        sq: Padded,
        opp: Padded,
        empty: Padded,
        captured: Padded,
        out: &mut Vec<(Padded, Padded)>,
    ) {
        let mut extended = false;
        for d in Dir::ALL {
            let mut over = sq.step(d);
            while (over & empty).any() {
                over = over.step(d);
            }
            if (over & opp & !captured).is_empty() {
                continue;
            }
            let mut land = over.step(d) & empty;
            extended |= land.any();
            while land.any() {
                walk(land, opp, empty, captured | over, out);
                land = land.step(d) & empty;
            }
        }
        if !extended && captured.any() {
            out.push((sq, captured));
        }
    }

    /// The legal king captures of `p` by [`walk`]: the longest, first route kept,
    /// kings in square order (what `padded_generate_captures` must list, in order).
    fn walked(p: &Board) -> Vec<(Padded, Padded, Padded)> {
        let empty = p.empty();
        let mut all = vec![];
        for from in p.own_kings().singles() {
            let mut found = vec![];
            walk(from, p.opp, empty | from, Padded::EMPTY, &mut found);
            all.extend(found.into_iter().map(|(to, c)| (from, to, c)));
        }
        let best = all.iter().map(|m| m.2.count()).max().unwrap_or(0);
        let mut legal: Vec<(Padded, Padded, Padded)> = vec![];
        for m in all {
            if m.2.count() == best && !legal.contains(&m) {
                legal.push(m);
            }
        }
        legal
    }

    /// Random positions of kings only (so every capture is a king's), with many
    /// pieces, long rays and chains that revisit squares.
    #[test]
    fn ray_table_king_captures_equal_a_square_by_square_walk() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut with_captures = 0;
        for _ in 0..20_000 {
            let (mut white, mut black) = (0u32, 0u32);
            let (nw, nb) = (rng.gen_range(1..=4), rng.gen_range(1..=9));
            while white.count_ones() < nw {
                white |= 1 << rng.gen_range(0..32);
            }
            while black.count_ones() < nb {
                let b = 1 << rng.gen_range(0..32);
                if white & b == 0 {
                    black |= b;
                }
            }
            let pos = Position::from_parts_unchecked(
                Bitboard(white),
                Bitboard(black),
                Bitboard(white | black),
                Color::White,
            );
            let p = Board::from(&pos);
            let mut list = BoardMoves::new();
            padded_generate_captures::<Brazilian, _>(&p, &mut list);
            let got: Vec<_> = list
                .as_slice()
                .iter()
                .map(|m| (m.from, m.to, m.captured))
                .collect();
            assert_eq!(got, walked(&p), "{pos:?}");
            assert_eq!(p.has_capture(), !got.is_empty(), "{pos:?}");
            with_captures += usize::from(!got.is_empty());
        }
        assert!(with_captures > 5_000, "{with_captures}");
    }
}
