//! The thesis' combinatorial position index (its §6.5.5; docs/egdb.md).
//!
//! A part holds every placement of `i` pieces with White to move. A placement `S` with
//! occupied squares `a_1 < … < a_i` gets the number
//! `Nr(S) = 4^i·P(S) + 2^i·K(S) + W(S)`, where `P(S) = Σ C(a_x, x)` (combinatorial
//! number system), `K` is the i-bit mask of occupied squares holding kings and `W` the
//! mask of those holding white pieces (bit `x − 1` for `a_x`). Positions with Black to
//! move are flipped ([`Position::flip`]) before they are numbered.
//!
//! The numbering has holes: men standing on their own promotion row get a slot too.
//! [`is_valid_slot`] tells them apart; the builder marks them and probes never read
//! them.

use crate::binomial::BINOM;
use damas_rules::bitboard::Bitboard;
use damas_rules::position::{Color, Position};

/// The largest part this index (and the files) describe.
pub const MAX_PIECES: usize = 5;

/// Number of ways to choose the occupied squares of a part: `C(32, pieces)`.
pub const fn combinations(pieces: usize) -> u64 {
    BINOM[32][pieces]
}

/// Number of king/colour assignments per set of occupied squares: `4^pieces`.
pub const fn assignments(pieces: usize) -> u64 {
    1 << (2 * pieces)
}

/// Number of slots of part `pieces`: `4^i · C(32, i)` (128, 7,936, 317,440,
/// 9,205,760, 206,209,024 for 1–5 pieces).
pub const fn part_size(pieces: usize) -> u64 {
    assignments(pieces) * combinations(pieces)
}

/// The occupied squares of combination number `p` of a `pieces`-piece part, in
/// ascending order (only the first `pieces` entries are meaningful).
///
/// `p` must be below [`combinations`]`(pieces)`.
#[inline]
pub fn unrank_squares(pieces: usize, p: u64) -> [u8; MAX_PIECES] {
    let mut squares = [0u8; MAX_PIECES];
    let mut rest = p;
    let mut top = 32usize;
    // Greedy decoding of the combinatorial number system, largest square first.
    for x in (1..=pieces).rev() {
        let mut a = top - 1;
        while BINOM[a][x] > rest {
            a -= 1;
        }
        rest -= BINOM[a][x];
        squares[x - 1] = a as u8;
        top = a;
    }
    squares
}

/// The white, black and king masks of the placement that gives king bits `k` and
/// white bits `w` (bit `x` for the `x`-th lowest square) to `squares`.
#[inline(always)]
pub fn placement(squares: &[u8; MAX_PIECES], pieces: usize, k: u32, w: u32) -> (u32, u32, u32) {
    let (mut white, mut black, mut kings) = (0u32, 0u32, 0u32);
    for (x, &sq) in squares.iter().enumerate().take(pieces) {
        let bit = 1u32 << sq;
        if w >> x & 1 != 0 {
            white |= bit;
        } else {
            black |= bit;
        }
        if k >> x & 1 != 0 {
            kings |= bit;
        }
    }
    (white, black, kings)
}

/// Bits `x` of the squares of `squares` that lie in `mask`.
#[inline(always)]
pub fn squares_in(squares: &[u8; MAX_PIECES], pieces: usize, mask: u32) -> u32 {
    let mut out = 0;
    for (x, &sq) in squares.iter().enumerate().take(pieces) {
        out |= ((mask >> sq) & 1) << x;
    }
    out
}

/// Whether king bits `k` and white bits `w` describe a real position, given which
/// of the occupied squares lie on rank 8 (`on_rank8`) and rank 1 (`on_rank1`): a white
/// man on rank 8 or a black man on rank 1 would already have been promoted.
#[inline(always)]
pub const fn is_valid_assignment(k: u32, w: u32, on_rank8: u32, on_rank1: u32) -> bool {
    (on_rank8 & !k & w) | (on_rank1 & !k & !w) == 0
}

/// The `assignments(n)` consecutive slots of one combination `p` of occupied
/// squares, decoded once: builder, verifier and statistics walk a part block by
/// block through this.
#[derive(Clone, Copy, Debug)]
pub struct SlotBlock {
    pieces: usize,
    squares: [u8; MAX_PIECES],
    on_rank8: u32,
    on_rank1: u32,
}

impl SlotBlock {
    /// The block of combination `p` of part `pieces`.
    #[inline]
    pub fn new(pieces: usize, p: u64) -> SlotBlock {
        let squares = unrank_squares(pieces, p);
        SlotBlock {
            pieces,
            squares,
            on_rank8: squares_in(&squares, pieces, Bitboard::RANK_8.0),
            on_rank1: squares_in(&squares, pieces, Bitboard::RANK_1.0),
        }
    }

    /// King bits and white bits of assignment `kw` (`kw = 2^n·k + w`).
    #[inline(always)]
    pub fn split(&self, kw: usize) -> (u32, u32) {
        let n = self.pieces;
        ((kw >> n) as u32, (kw & ((1 << n) - 1)) as u32)
    }

    /// Whether assignment `kw` is a real position (no man on its promotion row).
    #[inline(always)]
    pub fn is_valid(&self, kw: usize) -> bool {
        let (k, w) = self.split(kw);
        is_valid_assignment(k, w, self.on_rank8, self.on_rank1)
    }

    /// White, black and king masks of assignment `kw`, valid or not.
    #[inline(always)]
    pub fn placement(&self, kw: usize) -> (u32, u32, u32) {
        let (k, w) = self.split(kw);
        placement(&self.squares, self.pieces, k, w)
    }

    /// The White-to-move position of assignment `kw`, valid or not.
    #[inline(always)]
    pub fn position_unchecked(&self, kw: usize) -> Position {
        let (white, black, kings) = self.placement(kw);
        Position::from_parts_unchecked(
            Bitboard(white),
            Bitboard(black),
            Bitboard(kings),
            Color::White,
        )
    }

    /// The White-to-move position of assignment `kw`, `None` if impossible.
    #[inline(always)]
    pub fn position(&self, kw: usize) -> Option<Position> {
        self.is_valid(kw).then(|| self.position_unchecked(kw))
    }
}

/// The number of a placement with White to move. Squares must be disjoint, `kings`
/// a subset of `white | black`, and at most [`MAX_PIECES`] pieces (the result is
/// meaningless otherwise); the piece count decides the part.
#[inline]
pub fn rank(white: u32, black: u32, kings: u32) -> u64 {
    let occupied = white | black;
    let pieces = occupied.count_ones() as usize;
    let mut p = 0u64;
    let mut k = 0u64;
    let mut w = 0u64;
    let mut rest = occupied;
    let mut x = 0;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        p += BINOM[sq as usize][x + 1];
        k |= u64::from(kings >> sq & 1) << x;
        w |= u64::from(white >> sq & 1) << x;
        x += 1;
    }
    p.wrapping_shl(2 * pieces as u32) | k.wrapping_shl(pieces as u32) | w
}

/// The number of `pos` in its part, after flipping it when Black is to move.
/// Returns the piece count (the part), the number and whether it was flipped;
/// `None` for an empty board or more than [`MAX_PIECES`] pieces.
///
/// This is the probing hot path: the flip is not materialised (bit reversal is
/// slow without a hardware instruction); the squares of the flipped board are
/// visited directly, highest original square first, since `s` becomes `31 − s`.
#[inline]
pub fn rank_position(pos: &Position) -> Option<(usize, u64, bool)> {
    let (white, black, kings) = (pos.white().0, pos.black().0, pos.kings().0);
    let flipped = pos.side_to_move() == Color::Black;
    // White-to-move colour of each square: after the flip Black's pieces are White's.
    let own = if flipped { black } else { white };
    let mut rest = white | black;
    let (mut p, mut k, mut w) = (0u64, 0u64, 0u64);
    let mut x = 0usize;
    while rest != 0 {
        if x == MAX_PIECES {
            return None;
        }
        let (sq, numbered) = if flipped {
            let numbered = rest.leading_zeros();
            (31 - numbered, numbered)
        } else {
            let sq = rest.trailing_zeros();
            (sq, sq)
        };
        rest ^= 1 << sq;
        p += BINOM[numbered as usize][x + 1];
        k |= u64::from(kings >> sq & 1) << x;
        w |= u64::from(own >> sq & 1) << x;
        x += 1;
    }
    if x == 0 {
        return None;
    }
    Some((x, (p << (2 * x)) | (k << x) | w, flipped))
}

/// The placement numbered `index` in part `pieces`, White to move. Slots of men on
/// their promotion row decode too (see [`is_valid_slot`]). `None` when `pieces` is
/// not in `1..=MAX_PIECES` or `index` is past the end of the part.
pub fn unrank(pieces: usize, index: u64) -> Option<Position> {
    if !(1..=MAX_PIECES).contains(&pieces) || index >= part_size(pieces) {
        return None;
    }
    let mask = (1u64 << pieces) - 1;
    let w = (index & mask) as u32;
    let k = (index >> pieces & mask) as u32;
    let squares = unrank_squares(pieces, index >> (2 * pieces));
    let (white, black, kings) = placement(&squares, pieces, k, w);
    Some(Position::from_parts_unchecked(
        Bitboard(white),
        Bitboard(black),
        Bitboard(kings),
        Color::White,
    ))
}

/// Whether slot `index` of part `pieces` holds a real position (no man on its
/// promotion row).
pub fn is_valid_slot(pieces: usize, index: u64) -> bool {
    unrank(pieces, index).is_some_and(|p| {
        (p.men(Color::White) & Color::White.promotion_row()).is_empty()
            && (p.men(Color::Black) & Color::Black.promotion_row()).is_empty()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_the_thesis() {
        let sizes: Vec<u64> = (1..=5).map(part_size).collect();
        assert_eq!(sizes, [128, 7_936, 317_440, 9_205_760, 206_209_024]);
    }

    #[test]
    fn squares_round_trip() {
        for pieces in 1..=3 {
            for p in 0..combinations(pieces) {
                let sq = unrank_squares(pieces, p);
                assert!(sq[..pieces].windows(2).all(|w| w[0] < w[1]));
                let occ = sq[..pieces].iter().fold(0u32, |m, &s| m | 1 << s);
                assert_eq!(rank(occ, 0, 0) >> (2 * pieces), p);
            }
        }
    }
}
