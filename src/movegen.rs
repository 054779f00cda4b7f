//! Legal move generation for the Brazilian rules: men step forward and capture both
//! ways, kings fly, captures are compulsory with the majority rule, jumped pieces stay
//! on the board until the move ends (Turkish strike), promotion only at the end.

use crate::bitboard::{Bitboard, Dir, NEIGHBOR, NO_SQUARE};
use crate::moves::{Move, MoveList};
use crate::position::{Color, Position};
use crate::square::Square;

/// The forward directions of `color`'s men.
#[inline(always)]
const fn forward(color: Color) -> [Dir; 2] {
    match color {
        Color::White => [Dir::NE, Dir::NW],
        Color::Black => [Dir::SE, Dir::SW],
    }
}

/// Squares from which a king in `kings` reaches, sliding over `empty`, the first
/// piece in direction `dir`: returns the set of those first pieces.
#[inline(always)]
fn ray_blockers(kings: Bitboard, empty: Bitboard, dir: Dir) -> Bitboard {
    let mut reach = kings;
    let mut frontier = kings.step(dir) & empty;
    while frontier.any() {
        reach |= frontier;
        frontier = frontier.step(dir) & empty;
    }
    reach.step(dir) & !empty
}

/// Whether one of `kings` can capture a piece of `opp`.
#[inline(always)]
fn king_can_capture(kings: Bitboard, opp: Bitboard, empty: Bitboard) -> bool {
    let hit = |d: Dir| (ray_blockers(kings, empty, d) & opp).step(d) & empty;
    (hit(Dir::NE) | hit(Dir::NW) | hit(Dir::SE) | hit(Dir::SW)).any()
}

/// Whether the side to move has a capture.
#[inline]
pub fn has_capture(pos: &Position) -> bool {
    let side = pos.side_to_move();
    let opp = pos.opp();
    let empty = pos.empty();
    let men = pos.men(side);
    let kings = pos.kings_of(side);
    for dir in Dir::ALL {
        if (((men.step(dir) & opp).step(dir)) & empty).any() {
            return true;
        }
    }
    kings.any() && king_can_capture(kings, opp, empty)
}

/// What the capture test found: nothing, only single man jumps (counted), or
/// something that needs the full generator.
enum Captures {
    None,
    Single(u32),
    Complex,
}

/// Classify the captures of `pos` with bitboard operations only. When every capture
/// is a single man jump, all are legal (majority rule) and distinct, so they can be
/// counted without generating them.
#[inline(always)]
fn classify_captures(pos: &Position) -> Captures {
    let side = pos.side_to_move();
    let opp = pos.opp();
    let empty = pos.empty();
    let men = pos.men(side);
    let jump = |d: Dir| (men.step(d) & opp).step(d) & empty;
    let land = [jump(Dir::NE), jump(Dir::NW), jump(Dir::SE), jump(Dir::SW)];
    let kings = pos.kings_of(side);
    if kings.any() && king_can_capture(kings, opp, empty) {
        return Captures::Complex;
    }
    if (land[0] | land[1] | land[2] | land[3]).is_empty() {
        return Captures::None;
    }
    // jumpable[e]: squares from which a man can jump in direction e.
    let from = |e: Dir| (empty.step(e.opposite()) & opp).step(e.opposite());
    let [ne, nw, se, sw] = [from(Dir::NE), from(Dir::NW), from(Dir::SE), from(Dir::SW)];
    // A landing square may go on in any direction but back over the taken piece
    // (where the start square, now empty, lies two steps away).
    let goes_on = (land[0] & (ne | nw | se))
        | (land[1] & (ne | nw | sw))
        | (land[2] & (ne | se | sw))
        | (land[3] & (nw | se | sw));
    if goes_on.any() {
        return Captures::Complex;
    }
    Captures::Single(land[0].count() + land[1].count() + land[2].count() + land[3].count())
}

/// Number of legal moves, without building the quiet ones (bulk counting).
#[inline]
pub fn count_moves(pos: &Position) -> usize {
    match classify_captures(pos) {
        Captures::Single(n) => return n as usize,
        Captures::Complex => {
            let mut list = MoveList::new();
            generate_captures(pos, &mut list);
            return list.len();
        }
        Captures::None => {}
    }
    let side = pos.side_to_move();
    let empty = pos.empty();
    let men = pos.men(side);
    let mut n = 0;
    for dir in forward(side) {
        n += (men.step(dir) & empty).count();
    }
    let kings = pos.kings_of(side);
    if kings.any() {
        for dir in Dir::ALL {
            // Each king's moves in `dir` are the empty squares up to the first piece;
            // count them ring by ring so kings never need to be visited one by one.
            let mut frontier = kings.step(dir) & empty;
            while frontier.any() {
                n += frontier.count();
                frontier = frontier.step(dir) & empty;
            }
        }
    }
    n as usize
}

/// All legal moves of the side to move (empty when it has lost).
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, &mut list);
    list
}

/// Fill `list` with the legal moves (cleared first).
#[inline]
pub fn generate(pos: &Position, list: &mut MoveList) {
    match classify_captures(pos) {
        Captures::None => generate_quiet(pos, list),
        Captures::Single(_) => generate_single_jumps(pos, list),
        Captures::Complex => generate_captures(pos, list),
    }
}

/// The single man jumps, when [`classify_captures`] found that they are all there is.
/// Same order as the full generator (start square, then direction), so a stored
/// move index (endgame database, TT) means the same move whichever path made the list.
fn generate_single_jumps(pos: &Position, list: &mut MoveList) {
    list.clear();
    let side = pos.side_to_move();
    let opp = pos.opp().0;
    let empty = pos.empty().0;
    let men = pos.men(side);
    for from in men {
        for nb in &NEIGHBOR {
            let over = nb[from.index()];
            if over == NO_SQUARE || opp & (1 << over) == 0 {
                continue;
            }
            let land = nb[over as usize];
            if land != NO_SQUARE && empty & (1 << land) != 0 {
                list.push(Move::new(
                    from,
                    Square::from_index(land as u32),
                    Bitboard(1 << over),
                ));
            }
        }
    }
}

/// Fill `list` with the non-capturing moves (cleared first); only legal when
/// [`has_capture`] is false.
pub fn generate_quiet(pos: &Position, list: &mut MoveList) {
    list.clear();
    let side = pos.side_to_move();
    let empty = pos.empty();
    let men = pos.men(side);
    for dir in forward(side) {
        let back = dir.opposite() as usize;
        for to in men.step(dir) & empty {
            let from = Square::from_index(NEIGHBOR[back][to.index()] as u32);
            list.push(Move::new(from, to, Bitboard::EMPTY));
        }
    }
    for from in pos.kings_of(side) {
        for dir in Dir::ALL {
            let mut s = NEIGHBOR[dir as usize][from.index()];
            while s != NO_SQUARE && empty.0 & (1 << s) != 0 {
                list.push(Move::new(
                    from,
                    Square::from_index(s as u32),
                    Bitboard::EMPTY,
                ));
                s = NEIGHBOR[dir as usize][s as usize];
            }
        }
    }
}

/// State of the capture search for one moving piece.
struct Capturer<'a> {
    from: Square,
    /// Opponent pieces (jumped ones included: they stay until the move ends).
    opp: u32,
    /// Empty squares, the mover's start square included.
    empty: u32,
    /// Longest capture found so far (over all pieces).
    best: u32,
    list: &'a mut MoveList,
}

impl Capturer<'_> {
    #[inline]
    fn record(&mut self, to: u32, captured: u32) {
        let n = captured.count_ones();
        if n < self.best {
            return;
        }
        if n > self.best {
            self.best = n;
            self.list.clear();
        }
        let mv = Move::new(self.from, Square::from_index(to), Bitboard(captured));
        if !self.list.contains(&mv) {
            self.list.push(mv);
        }
    }

    fn man(&mut self, sq: u32, captured: u32) {
        let mut extended = false;
        for nb in &NEIGHBOR {
            let over = nb[sq as usize];
            if over == NO_SQUARE || (self.opp & !captured) & (1 << over) == 0 {
                continue;
            }
            let land = nb[over as usize];
            if land == NO_SQUARE || self.empty & (1 << land) == 0 {
                continue;
            }
            extended = true;
            self.man(land as u32, captured | 1 << over);
        }
        if !extended && captured != 0 {
            self.record(sq, captured);
        }
    }

    fn king(&mut self, sq: u32, captured: u32) {
        let mut extended = false;
        for nb in &NEIGHBOR {
            let mut over = nb[sq as usize];
            while over != NO_SQUARE && self.empty & (1 << over) != 0 {
                over = nb[over as usize];
            }
            if over == NO_SQUARE || (self.opp & !captured) & (1 << over) == 0 {
                continue;
            }
            let mut land = nb[over as usize];
            while land != NO_SQUARE && self.empty & (1 << land) != 0 {
                extended = true;
                self.king(land as u32, captured | 1 << over);
                land = nb[land as usize];
            }
        }
        if !extended && captured != 0 {
            self.record(sq, captured);
        }
    }
}

/// Fill `list` with the legal captures (cleared first): only sequences of maximal
/// length, one entry per (from, to, captured set). Leaves `list` empty when there is
/// no capture.
pub fn generate_captures(pos: &Position, list: &mut MoveList) {
    list.clear();
    let side = pos.side_to_move();
    let opp = pos.opp();
    let empty = pos.empty();
    let own_kings = pos.kings_of(side);
    // Only men with a first jump start a search; kings are few and all tried.
    let men = pos.men(side);
    let first_jump = |e: Dir| (empty.step(e.opposite()) & opp).step(e.opposite());
    let jumpers = men
        & (first_jump(Dir::NE) | first_jump(Dir::NW) | first_jump(Dir::SE) | first_jump(Dir::SW));
    let mut best = 0;
    for from in jumpers | own_kings {
        let mut c = Capturer {
            from,
            opp: opp.0,
            empty: (empty | from.bit()).0,
            best,
            list,
        };
        if own_kings.contains(from) {
            c.king(from.index() as u32, 0);
        } else {
            c.man(from.index() as u32, 0);
        }
        best = c.best;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;

    fn moves(fen: &str) -> Vec<String> {
        let mut v: Vec<String> = legal_moves(&parse_fen(fen).unwrap())
            .iter()
            .map(|m| format!("{m:?}"))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn start_moves() {
        let p = Position::start();
        assert_eq!(legal_moves(&p).len(), 7);
        assert_eq!(count_moves(&p), 7);
        assert!(!has_capture(&p));
    }

    #[test]
    fn men_capture_backwards() {
        assert_eq!(moves("W:Wd4:Bc3"), ["d4xb2:c3"]);
    }

    #[test]
    fn king_flies() {
        assert_eq!(moves("W:WKa1:Bh8").len(), 6);
        assert_eq!(moves("W:WKa1:Bd4,h8"), ["a1xe5:d4", "a1xf6:d4", "a1xg7:d4"]);
    }
}
