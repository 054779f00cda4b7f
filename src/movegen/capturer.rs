//! The full capture generator: every maximal capture sequence of every piece,
//! merged when two routes take the same pieces to the same square (the majority
//! rule and the Turkish strike, see the module above).

use crate::bitboard::Dir;
use crate::moves::MoveList;
use crate::padded::{MoveSink, Padded, PaddedPosition};
use crate::position::Position;

/// State of the capture search for one moving piece.
struct Capturer<'a, S> {
    from: Padded,
    /// Opponent pieces (jumped ones included: they stay until the move ends).
    opp: Padded,
    /// Empty squares, the mover's start square included.
    empty: Padded,
    /// Longest capture found so far (over all pieces).
    best: u32,
    list: &'a mut S,
}

impl<S: MoveSink> Capturer<'_, S> {
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
    fn man_dir(&mut self, d: Dir, sq: Padded, captured: Padded) -> bool {
        let over = sq.step(d) & self.opp & !captured;
        let land = over.step(d) & self.empty;
        if land.any() {
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

    /// Continue a king's capture from `sq` in direction `D`; whether it could.
    #[inline(always)]
    fn king_dir(&mut self, d: Dir, sq: Padded, captured: Padded) -> bool {
        let mut over = sq.step(d);
        while (over & self.empty).any() {
            over = over.step(d);
        }
        if (over & self.opp & !captured).is_empty() {
            return false;
        }
        let mut land = over.step(d) & self.empty;
        let extended = land.any();
        while land.any() {
            self.king(land, captured | over);
            land = land.step(d) & self.empty;
        }
        extended
    }

    fn king(&mut self, sq: Padded, captured: Padded) {
        let extended = self.king_dir(Dir::NE, sq, captured)
            | self.king_dir(Dir::NW, sq, captured)
            | self.king_dir(Dir::SE, sq, captured)
            | self.king_dir(Dir::SW, sq, captured);
        if !extended && captured.any() {
            self.record(sq, captured);
        }
    }
}

/// Fill `list` with the legal captures (cleared first): only sequences of maximal
/// length, one entry per (from, to, captured set). Leaves `list` empty when there is
/// no capture.
pub fn generate_captures(pos: &Position, list: &mut MoveList) {
    padded_generate_captures(&PaddedPosition::new(pos), list);
}

/// [`generate_captures`] in the padded layout.
pub(crate) fn padded_generate_captures<S: MoveSink>(p: &PaddedPosition, list: &mut S) {
    list.clear();
    let opp = p.opp;
    let empty = p.empty();
    let own_kings = p.own_kings();
    // Only men with a first jump start a search; kings are few and all tried.
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
