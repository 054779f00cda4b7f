//! The trained weights folded into a few tables so the evaluator does few lookups.
//!
//! [`super::features::visit`] gives each side's men about twenty features (count,
//! squares, seven overlapping two-row patterns). All of them depend only on the men
//! inside one window, so for each window one table indexed by White's men and
//! Black's men there holds White's pattern weight minus Black's (read on the turned
//! board), plus the count and square weights of the men on the window's own row
//! (row `w` for window `w`, rows 6 and 7 for the last). The 4×4 blocks fold the
//! same way, one table per block. Kings' count and square weights fold into one
//! table per colour. Integer sums are associative, so the
//! folded score is exactly the feature-by-feature one; a test checks it.

use super::features::{
    block_indices, window_index, BLOCKS, BLOCK_COUNT, CONE, CONE_BLACK, KING_SQUARES, MATERIAL,
    MEN_SQUARES, MOBILITY, MOBILITY_MAX, PATTERNS, RUNAWAYS, RUNAWAY_ROWS, TEMPO, WINDOWS,
    WINDOW_SIZE,
};
use damas_rules::bitboard::{Bitboard, Dir};
use damas_rules::position::{Color, Position};

/// An opening and an endgame weight.
pub type Pair = [i32; 2];

/// The folded tables of one set of weights.
#[derive(Clone, Debug)]
pub struct Folded {
    /// `WINDOWS` tables of `WINDOW_SIZE` entries, indexed by
    /// `window_index(white men, black men, w)`.
    men: Box<[Pair]>,
    /// `BLOCK_COUNT` tables of `WINDOW_SIZE` entries, indexed by
    /// `block_indices(white men, black men)[b]`: White's block weight minus Black's.
    blocks: Box<[Pair]>,
    /// A white king on each square (count and square weight).
    white_kings: [Pair; 32],
    /// A black king on each square, negated.
    black_kings: [Pair; 32],
}

#[inline(always)]
fn add(a: Pair, b: Pair) -> Pair {
    [a[0] + b[0], a[1] + b[1]]
}

#[inline(always)]
fn sub(a: Pair, b: Pair) -> Pair {
    [a[0] - b[0], a[1] - b[1]]
}

/// The 8 bits of a window read back from its base-3 index: (own, opponent).
fn decode(mut idx: usize) -> (u32, u32) {
    let (mut own, mut opp) = (0u32, 0u32);
    for k in 0..8 {
        match idx % 3 {
            1 => own |= 1 << k,
            2 => opp |= 1 << k,
            _ => {}
        }
        idx /= 3;
    }
    (own, opp)
}

/// The index, in Black's view, of 8 squares holding White's men `white` and Black's
/// men `black` (bit k: square k): the board turned reverses the digits and swaps
/// own and opponent.
fn turned(white: u32, black: u32) -> usize {
    window_index(black.reverse_bits() >> 24, white.reverse_bits() >> 24, 0)
}

impl Folded {
    /// Fold the per-feature weights `w` (`features::COUNT` pairs).
    pub fn new(w: &[Pair]) -> Folded {
        // Each index's squares and its index in Black's view, decoded once for every
        // window and block.
        let squares: Vec<(u32, u32)> = (0..WINDOW_SIZE).map(decode).collect();
        let black_view: Vec<usize> = squares.iter().map(|&(wh, bl)| turned(wh, bl)).collect();
        let mut men = vec![[0, 0]; WINDOWS * WINDOW_SIZE].into_boxed_slice();
        for win in 0..WINDOWS {
            // Rows whose men's count and squares this window carries.
            let rows: u32 = if win + 1 == WINDOWS { 0xFF } else { 0x0F };
            for idx in 0..WINDOW_SIZE {
                let (white, black) = squares[idx];
                let mut v = sub(
                    w[PATTERNS + win * WINDOW_SIZE + idx],
                    w[PATTERNS + (WINDOWS - 1 - win) * WINDOW_SIZE + black_view[idx]],
                );
                for k in 0..8 {
                    if rows & (1 << k) == 0 {
                        continue;
                    }
                    let s = 4 * win + k;
                    if white & (1 << k) != 0 {
                        v = add(v, add(w[MATERIAL], w[MEN_SQUARES + s]));
                    }
                    if black & (1 << k) != 0 {
                        v = sub(v, add(w[MATERIAL], w[MEN_SQUARES + 31 - s]));
                    }
                }
                men[win * WINDOW_SIZE + idx] = v;
            }
        }
        let mut blocks = vec![[0, 0]; BLOCK_COUNT * WINDOW_SIZE].into_boxed_slice();
        for b in 0..BLOCK_COUNT {
            for idx in 0..WINDOW_SIZE {
                // Black's view turns the board: block `8 - b`, digits reversed.
                blocks[b * WINDOW_SIZE + idx] = sub(
                    w[BLOCKS + b * WINDOW_SIZE + idx],
                    w[BLOCKS + (BLOCK_COUNT - 1 - b) * WINDOW_SIZE + black_view[idx]],
                );
            }
        }
        let mut white_kings = [[0, 0]; 32];
        let mut black_kings = [[0, 0]; 32];
        for s in 0..32 {
            white_kings[s] = add(w[MATERIAL + 1], w[KING_SQUARES + s]);
            black_kings[s] = sub([0, 0], add(w[MATERIAL + 1], w[KING_SQUARES + 31 - s]));
        }
        Folded {
            men,
            blocks,
            white_kings,
            black_kings,
        }
    }

    /// White's sum minus Black's: (opening, endgame), in the weights' fixed point.
    #[inline(always)]
    pub fn sums(&self, w: &[Pair], pos: &Position) -> Pair {
        let (wm, bm) = (pos.men(Color::White).0, pos.men(Color::Black).0);
        let mut acc = [0i32, 0i32];
        for win in 0..WINDOWS {
            acc = add(acc, self.men[win * WINDOW_SIZE + window_index(wm, bm, win)]);
        }
        for (b, idx) in block_indices(wm, bm).into_iter().enumerate() {
            acc = add(acc, self.blocks[b * WINDOW_SIZE + idx]);
        }
        let mut b = pos.kings_of(Color::White).0;
        while b != 0 {
            acc = add(acc, self.white_kings[b.trailing_zeros() as usize]);
            b &= b - 1;
        }
        let mut b = pos.kings_of(Color::Black).0;
        while b != 0 {
            acc = add(acc, self.black_kings[b.trailing_zeros() as usize]);
            b &= b - 1;
        }
        // Tempo, mobility and runaways as `visit_rest` counts them on each side's
        // view, computed on the board as it stands (no bit reversal).
        let (wk, bk) = (pos.kings_of(Color::White).0, pos.kings_of(Color::Black).0);
        let empty = !(wm | bm | wk | bk);
        let tempo = w[TEMPO];
        acc = match pos.side_to_move() {
            Color::White => add(acc, tempo),
            Color::Black => sub(acc, tempo),
        };
        let steps = |men: u32, a: Dir, b: Dir| {
            let m = Bitboard(men);
            ((m.step(a).0 & empty).count_ones() + (m.step(b).0 & empty).count_ones()) as usize
        };
        acc = add(
            acc,
            w[MOBILITY + steps(wm, Dir::NE, Dir::NW).min(MOBILITY_MAX)],
        );
        acc = sub(
            acc,
            w[MOBILITY + steps(bm, Dir::SE, Dir::SW).min(MOBILITY_MAX)],
        );
        let (white_all, black_all) = (wm | wk, bm | bk);
        let offset = if bk == 0 { 0 } else { 4 };
        let mut b = wm & RUNAWAY_ROWS;
        while b != 0 {
            let s = b.trailing_zeros() as usize;
            if CONE[s] & black_all == 0 {
                acc = add(acc, w[RUNAWAYS + offset + s / 4 - 3]);
            }
            b &= b - 1;
        }
        let offset = if wk == 0 { 0 } else { 4 };
        let mut b = bm & RUNAWAY_ROWS.reverse_bits();
        while b != 0 {
            let s = b.trailing_zeros() as usize;
            if CONE_BLACK[s] & white_all == 0 {
                acc = sub(acc, w[RUNAWAYS + offset + (31 - s) / 4 - 3]);
            }
            b &= b - 1;
        }
        if wk != 0 && bk == 0 {
            acc = add(acc, w[RUNAWAYS + 8]);
        }
        if bk != 0 && wk == 0 {
            acc = sub(acc, w[RUNAWAYS + 8]);
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_inverts_window_index() {
        for idx in 0..WINDOW_SIZE {
            let (own, opp) = decode(idx);
            assert_eq!(own & opp, 0);
            assert_eq!(window_index(own, opp, 0), idx);
        }
    }

    #[test]
    fn blocks_are_four_by_four_and_turn_into_each_other() {
        use damas_rules::square::Square;
        // Block 4 (rows 2–5, files c–f) sees a man on d4 and one on e5, not one on b4.
        let sq = |f: u8, r: u8| 1u32 << Square::from_coords(f, r).unwrap().index();
        let (d4, e5, b4) = (sq(3, 3), sq(4, 4), sq(1, 3));
        assert_ne!(block_indices(d4 | e5, 0)[4], 0);
        assert_eq!(block_indices(b4, 0)[4], 0);
        assert_eq!(block_indices(0, b4)[3], 2 * block_indices(b4, 0)[3]);
        // Every block holds 8 squares, and turning the board reverses its digits.
        for b in 0..BLOCK_COUNT {
            let mut seen = 0;
            for s in 0..32 {
                let one = block_indices(1 << s, 0)[b];
                if one != 0 {
                    seen += 1;
                    let turned = block_indices(1 << (31 - s), 0)[BLOCK_COUNT - 1 - b];
                    let (bits, _) = decode(one);
                    assert_eq!(super::turned(0, bits), turned);
                }
            }
            assert_eq!(seen, 8, "block {b}");
        }
    }
}
