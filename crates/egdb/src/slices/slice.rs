//! The second-generation index: one hole-free numbering per material slice.
//!
//! A [`Slice`] fixes the white men, white kings, black men and black kings of a
//! White-to-move position (Black to move is numbered after [`Position::flip`]). Its
//! positions are numbered densely — every number is a real position — by placing,
//! in order:
//! 1. the white men: `r` of them on rank 1 (squares 0–3) and the rest on squares
//!    4–27 (never on rank 8, where they would have promoted); the slice is split
//!    into sub-ranges by `r`;
//! 2. the black men on squares 4–31 not taken by white men (never on rank 1): there
//!    are `28 − (white men − r)` such squares, which is why `r` splits the slice;
//! 3. the white kings on the remaining empty squares;
//! 4. the black kings on the squares still empty.
//!
//! Each step numbers its choice with the combinatorial number system over the free
//! squares of that step, so the number of a slice position is a mixed-radix number
//! and the slice size is exactly the count of its positions. Counts are 64-bit:
//! the largest 7-piece slice has 1.42 G positions.

use std::fmt;

use crate::binomial::BINOM;
use damas_rules::bitboard::Bitboard;
use damas_rules::movegen::Padded;
use damas_rules::position::{Color, Position};

/// The most pieces a slice may hold (the design covers seven-piece databases).
pub const MAX_SLICE_PIECES: usize = 7;

/// Squares where a white man may stand: all but rank 8.
const WHITE_MAN_SQUARES: u32 = !Bitboard::RANK_8.0;
/// Squares where a black man may stand: all but rank 1.
const BLACK_MAN_SQUARES: u32 = !Bitboard::RANK_1.0;

/// A material balance with White to move.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Slice {
    /// Men of the side to move.
    pub white_men: u8,
    /// Kings of the side to move.
    pub white_kings: u8,
    /// Men of the opponent.
    pub black_men: u8,
    /// Kings of the opponent.
    pub black_kings: u8,
}

impl Slice {
    /// The slice with these piece counts.
    pub const fn new(white_men: u8, white_kings: u8, black_men: u8, black_kings: u8) -> Slice {
        Slice {
            white_men,
            white_kings,
            black_men,
            black_kings,
        }
    }

    /// The slice of a White-to-move placement.
    #[inline(always)]
    pub fn of(white: u32, black: u32, kings: u32) -> Slice {
        Slice::of_sets(white.into(), black.into(), kings.into())
    }

    /// [`Slice::of`] for square sets of any layout (only their sizes count).
    #[inline(always)]
    pub(crate) fn of_sets(white: u64, black: u64, kings: u64) -> Slice {
        Slice {
            white_men: (white & !kings).count_ones() as u8,
            white_kings: (white & kings).count_ones() as u8,
            black_men: (black & !kings).count_ones() as u8,
            black_kings: (black & kings).count_ones() as u8,
        }
    }

    /// Total pieces.
    pub const fn pieces(&self) -> usize {
        (self.white_men + self.white_kings + self.black_men + self.black_kings) as usize
    }

    /// Total men (promotions lead to slices with fewer).
    pub const fn men(&self) -> usize {
        (self.white_men + self.black_men) as usize
    }

    /// The same material with the colours exchanged: where quiet moves of this
    /// slice lead (after the flip that puts the opponent to move as White).
    pub const fn mirror(&self) -> Slice {
        Slice::new(
            self.black_men,
            self.black_kings,
            self.white_men,
            self.white_kings,
        )
    }

    /// Whether the slice can be numbered (each side has a piece, at most
    /// [`MAX_SLICE_PIECES`], and the men fit on their squares).
    pub const fn is_valid(&self) -> bool {
        let wp = self.white_men + self.white_kings;
        let bp = self.black_men + self.black_kings;
        wp > 0 && bp > 0 && self.pieces() <= MAX_SLICE_PIECES
    }

    /// A small dense key (each count is at most 7): `wm + 8·wk + 64·bm + 512·bk`.
    pub const fn key(&self) -> usize {
        self.white_men as usize
            + 8 * self.white_kings as usize
            + 64 * self.black_men as usize
            + 512 * self.black_kings as usize
    }

    /// Number of possible keys.
    pub const KEYS: usize = 4096;

    /// Every slice of `pieces` pieces with both sides present, men-poor first (the
    /// order in which they can be built: promotions lead to fewer men), then by
    /// counts.
    pub fn all(pieces: usize) -> Vec<Slice> {
        let mut out = Vec::new();
        if !(2..=MAX_SLICE_PIECES).contains(&pieces) {
            return out;
        }
        let n = pieces as u8;
        for wm in 0..=n {
            for wk in 0..=n - wm {
                for bm in 0..=n - wm - wk {
                    let s = Slice::new(wm, wk, bm, n - wm - wk - bm);
                    if s.is_valid() {
                        out.push(s);
                    }
                }
            }
        }
        out.sort_by_key(|s| (s.men(), *s));
        out
    }

    /// The file stem of the slice: `w21b10` for 2 white men, 1 white king, 1 black
    /// man and no black king.
    pub fn stem(&self) -> String {
        format!(
            "w{}{}b{}{}",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }

    /// The slice of a file stem ([`Slice::stem`]); `None` unless it is one of a
    /// valid slice.
    pub fn from_stem(stem: &str) -> Option<Slice> {
        let b = stem.as_bytes();
        let digit = |i: usize| b.get(i).filter(|c| c.is_ascii_digit()).map(|c| c - b'0');
        if b.len() != 6 || b[0] != b'w' || b[3] != b'b' {
            return None;
        }
        let s = Slice::new(digit(1)?, digit(2)?, digit(4)?, digit(5)?);
        s.is_valid().then_some(s)
    }
}

impl fmt::Display for Slice {
    /// `2M+1K v 1M`, side to move first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |f: &mut fmt::Formatter<'_>, men: u8, kings: u8| match (men, kings) {
            (0, 0) => write!(f, "0"),
            (m, 0) => write!(f, "{m}M"),
            (0, k) => write!(f, "{k}K"),
            (m, k) => write!(f, "{m}M+{k}K"),
        };
        side(f, self.white_men, self.white_kings)?;
        write!(f, " v ")?;
        side(f, self.black_men, self.black_kings)
    }
}

/// A White-to-move placement as three masks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Placement {
    /// White pieces.
    pub white: u32,
    /// Black pieces.
    pub black: u32,
    /// Kings of both colours.
    pub kings: u32,
}

impl Placement {
    /// The position with White to move.
    pub fn position(&self) -> Position {
        Position::from_parts_unchecked(
            Bitboard(self.white),
            Bitboard(self.black),
            Bitboard(self.kings),
            Color::White,
        )
    }
}

/// The number of the `x`-th lowest set bit of `free` below `sq` (the position of
/// `sq` among the free squares).
#[inline(always)]
fn compressed(free: u64, sq: u32) -> u32 {
    (free & ((1u64 << sq) - 1)).count_ones()
}

/// Combinatorial rank of the squares of `pieces` among the squares of `free`. Only
/// the order of the squares matters, so any layout that keeps it (the public one,
/// the padded one with its ghost bits never in `free`) gives the same rank.
#[inline(always)]
fn rank_among(free: u64, mut pieces: u64) -> u64 {
    let mut r = 0;
    let mut x = 1;
    while pieces != 0 {
        let sq = pieces.trailing_zeros();
        pieces &= pieces - 1;
        r += BINOM[compressed(free, sq) as usize][x];
        x += 1;
    }
    r
}

/// The masks of one board layout, for [`SliceIndex::rank`] in either layout.
trait Layout {
    /// Every square.
    const ALL: u64;
    /// Rank 1 (White's back row).
    const RANK_1: u64;
    /// Rank 8 (Black's back row).
    const RANK_8: u64;
}

/// The public [`Bitboard`] layout.
struct PublicLayout;

impl Layout for PublicLayout {
    const ALL: u64 = Bitboard::ALL.0 as u64;
    const RANK_1: u64 = Bitboard::RANK_1.0 as u64;
    const RANK_8: u64 = Bitboard::RANK_8.0 as u64;
}

/// The ghost-square layout of [`Padded`] (the move generator's boards).
struct PaddedLayout;

impl Layout for PaddedLayout {
    const ALL: u64 = Padded::ALL.bits();
    const RANK_1: u64 = Padded::from_bitboard(Bitboard::RANK_1).bits();
    const RANK_8: u64 = Padded::from_bitboard(Bitboard::RANK_8).bits();
}

/// The `j`-th (0-based) set bit of `free`.
#[inline(always)]
fn select(mut free: u32, j: u32) -> u32 {
    for _ in 0..j {
        free &= free - 1;
    }
    free.trailing_zeros()
}

/// The mask of the `k`-combination numbered `index` among the squares of `free`.
#[inline]
fn unrank_among(free: u32, k: usize, mut index: u64) -> u32 {
    let mut out = 0;
    let mut top = free.count_ones() as usize;
    for x in (1..=k).rev() {
        let mut a = top - 1;
        while BINOM[a][x] > index {
            a -= 1;
        }
        index -= BINOM[a][x];
        out |= 1 << select(free, a as u32);
        top = a;
    }
    out
}

/// The constants of one slice's numbering, computed once per slice.
#[derive(Clone, Copy, Debug)]
pub struct SliceIndex {
    slice: Slice,
    /// First number of the sub-range with `r` white men on rank 1.
    offset: [u64; 5],
    /// Placements of the white men above rank 1, per `r`.
    high: [u64; 5],
    /// Placements of the black men, per `r`.
    black_men: [u64; 5],
    /// Placements of the white kings.
    white_kings: u64,
    /// Placements of the black kings.
    black_kings: u64,
    size: u64,
}

impl SliceIndex {
    /// The numbering of `slice` (which should satisfy [`Slice::is_valid`]).
    pub fn new(slice: Slice) -> SliceIndex {
        let wm = slice.white_men as usize;
        let bm = slice.black_men as usize;
        let men = wm + bm;
        let white_kings = BINOM[32 - men.min(32)][slice.white_kings as usize];
        let black_kings = BINOM[32usize.saturating_sub(men + slice.white_kings as usize)]
            [slice.black_kings as usize];
        let mut offset = [0; 5];
        let mut high = [0; 5];
        let mut black = [0; 5];
        let mut total = 0u64;
        for r in 0..5 {
            offset[r] = total;
            if r > wm || wm - r > 24 {
                continue;
            }
            high[r] = BINOM[24][wm - r];
            black[r] = BINOM[28 - (wm - r)][bm];
            total += BINOM[4][r] * high[r] * black[r] * white_kings * black_kings;
        }
        SliceIndex {
            slice,
            offset,
            high,
            black_men: black,
            white_kings,
            black_kings,
            size: total,
        }
    }

    /// The slice.
    pub fn slice(&self) -> Slice {
        self.slice
    }

    /// Number of positions.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The number of a White-to-move placement of this slice (men on their
    /// promotion row give meaningless numbers; callers never pass them).
    #[inline(always)]
    pub fn rank(&self, white: u32, black: u32, kings: u32) -> u64 {
        self.rank_in::<PublicLayout>(white.into(), black.into(), kings.into())
    }

    /// [`SliceIndex::rank`] of a placement in the ghost-square layout of
    /// [`Padded`] (the probe's capture search works on boards, so its positions
    /// are numbered without converting back).
    #[inline(always)]
    pub(crate) fn rank_padded(&self, white: u64, black: u64, kings: u64) -> u64 {
        self.rank_in::<PaddedLayout>(white, black, kings)
    }

    /// [`SliceIndex::rank`] in layout `L`.
    #[inline(always)]
    fn rank_in<L: Layout>(&self, white: u64, black: u64, kings: u64) -> u64 {
        let wmen = white & !kings;
        let bmen = black & !kings;
        let wkings = white & kings;
        let bkings = black & kings;
        let low = wmen & L::RANK_1;
        let r = low.count_ones() as usize;
        let high_men = wmen & !L::RANK_1;
        let low_idx = rank_among(L::RANK_1, low);
        let high_idx = rank_among(L::ALL & !L::RANK_8 & !L::RANK_1, high_men);
        let bm_idx = rank_among(L::ALL & !L::RANK_1 & !high_men, bmen);
        let men = wmen | bmen;
        let wk_idx = rank_among(L::ALL & !men, wkings);
        let bk_idx = rank_among(L::ALL & !(men | wkings), bkings);
        let men_idx = (low_idx * self.high[r] + high_idx) * self.black_men[r] + bm_idx;
        self.offset[r] + (men_idx * self.white_kings + wk_idx) * self.black_kings + bk_idx
    }

    /// The placement numbered `index`, `None` past the end of the slice.
    pub fn unrank(&self, index: u64) -> Option<Placement> {
        if index >= self.size {
            return None;
        }
        let r = (0..5)
            .rev()
            .find(|&r| self.offset[r] <= index && self.high[r] != 0)?;
        let mut rest = index - self.offset[r];
        let bk_idx = rest % self.black_kings;
        rest /= self.black_kings;
        let wk_idx = rest % self.white_kings;
        rest /= self.white_kings;
        let bm_idx = rest % self.black_men[r];
        rest /= self.black_men[r];
        let high_idx = rest % self.high[r];
        let low_idx = rest / self.high[r];
        let s = self.slice;
        let wm = s.white_men as usize;
        let low = unrank_among(Bitboard::RANK_1.0, r, low_idx);
        let high = unrank_among(WHITE_MAN_SQUARES & !Bitboard::RANK_1.0, wm - r, high_idx);
        let bmen = unrank_among(BLACK_MAN_SQUARES & !high, s.black_men as usize, bm_idx);
        let men = low | high | bmen;
        let wkings = unrank_among(!men, s.white_kings as usize, wk_idx);
        let bkings = unrank_among(!(men | wkings), s.black_kings as usize, bk_idx);
        Some(Placement {
            white: low | high | wkings,
            black: bmen | bkings,
            kings: wkings | bkings,
        })
    }
}

/// Uniform random positions of one piece count: every position of every slice
/// equally likely (a slice is drawn with probability proportional to its size), the
/// side to move drawn at random. Used by probe benchmarks and sampled tests.
#[derive(Clone, Debug)]
pub struct PositionSampler {
    slices: Vec<SliceIndex>,
    /// `ends[i]`: positions in slices `0..=i`.
    ends: Vec<u64>,
}

impl PositionSampler {
    /// The sampler of all positions with `pieces` pieces (2 to [`MAX_SLICE_PIECES`]).
    pub fn new(pieces: usize) -> PositionSampler {
        let slices: Vec<SliceIndex> = Slice::all(pieces)
            .into_iter()
            .map(SliceIndex::new)
            .collect();
        let ends = slices
            .iter()
            .scan(0u64, |t, s| {
                *t += s.size();
                Some(*t)
            })
            .collect();
        PositionSampler { slices, ends }
    }

    /// Positions to draw from (White to move; each is also drawn with Black to move).
    pub fn size(&self) -> u64 {
        self.ends.last().copied().unwrap_or(0)
    }

    /// One position (`None` for a piece count without slices).
    pub fn sample(&self, rng: &mut impl rand::Rng) -> Option<Position> {
        if self.size() == 0 {
            return None;
        }
        let i = rng.gen_range(0..self.size());
        let s = self.ends.partition_point(|&e| e <= i);
        let start = if s == 0 { 0 } else { self.ends[s - 1] };
        let pos = self.slices[s].unrank(i - start)?.position();
        Some(if rng.gen() { pos.flip() } else { pos })
    }
}

/// Total positions of all slices with `pieces` pieces.
pub fn positions_with(pieces: usize) -> u64 {
    Slice::all(pieces)
        .into_iter()
        .map(|s| SliceIndex::new(s).size())
        .sum()
}

#[cfg(test)]
mod tests;
