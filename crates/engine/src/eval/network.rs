//! A small network added to the linear evaluation: one hidden layer of clipped
//! linear units read from both sides' views of the pieces.
//!
//! Each side's [`View`] (its own men moving up the board) is 128 inputs: own men,
//! own kings, opponent's men, opponent's kings, one per square. The same first
//! layer reads both views; the output layer weighs the side to move's units and
//! the opponent's separately, so the score is the side to move's and a position
//! and its colour-flipped mirror score alike. Integer inference: activations run
//! from 0 to [`ACT_ONE`], the output is in hundredths of a man.
//!
//! [`NetTables`] scores a position from scratch; in a search its first layer is
//! kept per ply and updated by the pieces that changed ([`super::accumulator`]).

use super::features::View;
use damas_rules::position::Position;

/// Inputs per view: 4 piece kinds × 32 squares.
pub const INPUTS: usize = 128;
/// The activation 1.0 in fixed point; first-layer weights and biases share it.
pub const ACT_ONE: i32 = 256;
/// Output weights are in 1/OUT_SCALE hundredths of a man per unit of activation.
pub const OUT_SCALE: i32 = 16;
/// Largest hidden layer a file may announce.
pub const MAX_HIDDEN: usize = 512;

/// The network's weights in fixed point.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Network {
    /// Hidden units per view.
    pub hidden: usize,
    /// `INPUTS × hidden`: the first layer's column of each input, in 1/ACT_ONE.
    pub w1: Vec<i16>,
    /// `hidden` biases, in 1/ACT_ONE.
    pub b1: Vec<i16>,
    /// `2 × hidden`: the side to move's units, then the opponent's, in
    /// 1/OUT_SCALE hundredths of a man.
    pub w2: Vec<i16>,
    /// The output bias in 1/(ACT_ONE·OUT_SCALE) hundredths of a man.
    pub b2: i32,
}

/// The inputs of a view that are 1, in ascending order.
#[inline(always)]
pub fn active(v: &View, mut f: impl FnMut(usize)) {
    for (k, mut b) in [v.men, v.kings, v.opp_men, v.opp_kings]
        .into_iter()
        .enumerate()
    {
        while b != 0 {
            f(32 * k + b.trailing_zeros() as usize);
            b &= b - 1;
        }
    }
}

impl Network {
    /// A network of `hidden` units with every weight zero (it scores 0).
    pub fn zero(hidden: usize) -> Network {
        Network {
            hidden,
            w1: vec![0; INPUTS * hidden],
            b1: vec![0; hidden],
            w2: vec![0; 2 * hidden],
            b2: 0,
        }
    }

    /// The clipped hidden units of one view.
    #[inline(always)]
    fn units(&self, v: &View, out: &mut [i32]) {
        let h = self.hidden;
        for (o, &b) in out.iter_mut().zip(&self.b1) {
            *o = b as i32;
        }
        active(v, |i| {
            for (o, &w) in out.iter_mut().zip(&self.w1[i * h..(i + 1) * h]) {
                *o += w as i32;
            }
        });
        for o in out.iter_mut() {
            *o = (*o).clamp(0, ACT_ONE);
        }
    }

    /// The score of `pos` for the side to move, in hundredths of a man.
    pub fn score(&self, pos: &Position) -> i32 {
        let me = pos.side_to_move();
        let mut buf = [0i32; 2 * MAX_HIDDEN];
        let (a, b) = buf.split_at_mut(MAX_HIDDEN);
        let (a, b) = (&mut a[..self.hidden], &mut b[..self.hidden]);
        self.units(&View::of(pos, me), a);
        self.units(&View::of(pos, me.opponent()), b);
        let (w_me, w_opp) = self.w2.split_at(self.hidden);
        let mut s = self.b2;
        for (x, &w) in a.iter().zip(w_me) {
            s += x * w as i32;
        }
        for (x, &w) in b.iter().zip(w_opp) {
            s += x * w as i32;
        }
        s / (ACT_ONE * OUT_SCALE)
    }

    /// Bytes of the network's block in a weight file.
    pub fn byte_len(hidden: usize) -> usize {
        4 + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
    }

    /// Append the block: hidden (u32), w1, b1, w2 (i16 each), b2 (i32).
    pub fn write(&self, b: &mut Vec<u8>) {
        b.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&self.b2.to_le_bytes());
    }

    /// Read a block written by [`Network::write`] that fills `b` exactly; `None`
    /// when its size does not match its hidden count.
    pub fn read(b: &[u8]) -> Option<Network> {
        if b.len() < 4 {
            return None;
        }
        let hidden = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
        if hidden == 0 || hidden > MAX_HIDDEN || b.len() != Network::byte_len(hidden) {
            return None;
        }
        let mut vals = b[4..b.len() - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| (&mut vals).take(n).collect::<Vec<i16>>();
        let w1 = take(INPUTS * hidden);
        let b1 = take(hidden);
        let w2 = take(2 * hidden);
        let t = &b[b.len() - 4..];
        Some(Network {
            hidden,
            w1,
            b1,
            w2,
            b2: i32::from_le_bytes([t[0], t[1], t[2], t[3]]),
        })
    }
}

/// `TRIT4[b]`: the 4 bits of `b` read as base-3 digits.
const TRIT4: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut b = 0;
    while b < 16 {
        t[b] = ((b & 1) + 3 * ((b >> 1) & 1) + 9 * ((b >> 2) & 1) + 27 * ((b >> 3) & 1)) as u8;
        b += 1;
    }
    t
};

/// Entries of a row table: each of a row's 4 squares empty, own man or opponent's man.
const ROW_STATES: usize = 81;

/// Hidden units are computed in lanes of this many (one AVX2 register of `i16`).
pub(super) const LANES: usize = 16;

/// Sixteen hidden units, aligned for one AVX2 load or store.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(32))]
pub(super) struct Lanes(pub(super) [i16; LANES]);

/// A [`Network`] folded for inference: the first layer summed per row of men, so
/// that a view costs eight row lookups and one per king instead of one per piece.
/// Sums saturate at the bounds of an `i16` (far beyond the clip at [`ACT_ONE`]).
/// The hidden layer is padded with idle units to a multiple of 16 (the lanes).
#[derive(Clone, Debug)]
pub struct NetTables {
    /// Hidden units, padded.
    hidden: usize,
    /// `8 × ROW_STATES × hidden`: the men of a row of the view, by their base-3
    /// index (own 1, opponent 2); row 0 carries the biases.
    rows: Box<[i16]>,
    /// `64 × hidden`: an own king on each square, then an opponent's king.
    kings: Box<[i16]>,
    /// `2 × hidden`: the side to move's units, then the opponent's.
    w2: Box<[i16]>,
    b2: i32,
    /// `INPUTS × hidden` units: the first layer's column of each input (the
    /// [`super::accumulator`]'s updates).
    columns: Box<[Lanes]>,
    /// `hidden` first-layer biases.
    b1: Box<[Lanes]>,
    /// Whether no hidden sum of any position can leave the range of an `i16`, so
    /// that sums updated with wrapping adds are exact.
    exact: bool,
    /// Whether this processor runs AVX2 (the kernel is compiled for it too).
    avx2: bool,
}

impl NetTables {
    /// Fold `n`.
    pub fn new(n: &Network) -> NetTables {
        let (nh, h) = (n.hidden, n.hidden.div_ceil(LANES) * LANES);
        let col = |i: usize| &n.w1[i * nh..][..nh];
        let mut rows = vec![0i16; 8 * ROW_STATES * h].into_boxed_slice();
        for r in 0..8 {
            for (own, &own_trits) in TRIT4.iter().enumerate() {
                for (opp, &opp_trits) in TRIT4.iter().enumerate() {
                    if own & opp != 0 {
                        continue;
                    }
                    let idx = own_trits as usize + 2 * opp_trits as usize;
                    let out = &mut rows[(r * ROW_STATES + idx) * h..][..nh];
                    if r == 0 {
                        out.copy_from_slice(&n.b1);
                    }
                    for k in 0..4 {
                        for (bits, base) in [(own, 0), (opp, 64)] {
                            if bits & (1 << k) != 0 {
                                for (o, &w) in out.iter_mut().zip(col(base + 4 * r + k)) {
                                    *o = o.saturating_add(w);
                                }
                            }
                        }
                    }
                }
            }
        }
        let mut kings = vec![0i16; 64 * h].into_boxed_slice();
        for s in 0..32 {
            kings[s * h..][..nh].copy_from_slice(col(32 + s));
            kings[(32 + s) * h..][..nh].copy_from_slice(col(96 + s));
        }
        let mut w2 = vec![0i16; 2 * h].into_boxed_slice();
        w2[..nh].copy_from_slice(&n.w2[..nh]);
        w2[h..h + nh].copy_from_slice(&n.w2[nh..]);
        let lanes = |units: &mut dyn Iterator<Item = i16>| -> Box<[Lanes]> {
            let mut out = vec![Lanes::default(); h / LANES];
            for (o, u) in out.iter_mut().flat_map(|l| &mut l.0).zip(units) {
                *o = u;
            }
            out.into_boxed_slice()
        };
        let columns: Box<[Lanes]> = (0..INPUTS)
            .flat_map(|i| lanes(&mut col(i).iter().copied()).into_vec())
            .collect();
        let b1 = lanes(&mut n.b1.iter().copied());
        // The largest sum a unit can reach: its bias and its 32 largest weights
        // (a position has at most 32 pieces), whatever their signs.
        let exact = (0..nh).all(|u| {
            let mut w: Vec<i32> = (0..INPUTS)
                .map(|i| (n.w1[i * nh + u] as i32).abs())
                .collect();
            w.sort_unstable_by(|a, b| b.cmp(a));
            (n.b1[u] as i32).abs() + w[..32].iter().sum::<i32>() <= i16::MAX as i32
        });
        NetTables {
            hidden: h,
            rows,
            kings,
            w2,
            b2: n.b2,
            columns,
            b1,
            exact,
            #[cfg(target_arch = "x86_64")]
            avx2: std::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            avx2: false,
        }
    }

    /// Hidden units, padded to whole lanes.
    #[inline(always)]
    pub(super) fn hidden(&self) -> usize {
        self.hidden
    }

    /// The first layer's columns, `hidden` units (padded) per input.
    #[inline(always)]
    pub(super) fn columns(&self) -> &[Lanes] {
        &self.columns
    }

    /// The first layer's biases (padded).
    #[inline(always)]
    pub(super) fn biases(&self) -> &[Lanes] {
        &self.b1
    }

    /// The output weights: the side to move's units, then the opponent's (padded).
    #[inline(always)]
    pub(super) fn output(&self) -> &[i16] {
        &self.w2
    }

    /// The output bias.
    #[inline(always)]
    pub(super) fn output_bias(&self) -> i32 {
        self.b2
    }

    /// Whether hidden sums kept in wrapping `i16` are exact for every position.
    #[inline(always)]
    pub(super) fn wraps_exactly(&self) -> bool {
        self.exact
    }

    /// Whether the AVX2 kernels run.
    #[inline(always)]
    pub(super) fn avx2(&self) -> bool {
        self.avx2
    }

    /// The same tables on the portable path (the tests' reference).
    #[cfg(test)]
    pub(super) fn without_avx2(&self) -> NetTables {
        NetTables {
            avx2: false,
            ..self.clone()
        }
    }

    /// One view's clipped units weighed by `w2` (its half of the output layer).
    #[inline(always)]
    fn view_sum(&self, v: &View, w2: &[i16]) -> i32 {
        let h = self.hidden;
        let mut rows = [0usize; 8];
        for (r, o) in rows.iter_mut().enumerate() {
            let idx = TRIT4[((v.men >> (4 * r)) & 15) as usize] as usize
                + 2 * TRIT4[((v.opp_men >> (4 * r)) & 15) as usize] as usize;
            *o = (r * ROW_STATES + idx) * h;
        }
        let mut kings = [0usize; 32];
        let mut nk = 0;
        for (mut b, base) in [(v.kings, 0), (v.opp_kings, 32)] {
            while b != 0 {
                kings[nk] = (base + b.trailing_zeros() as usize) * h;
                nk += 1;
                b &= b - 1;
            }
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only where the processor reports AVX2, and every
            // offset in `rows` and `kings` starts a whole hidden layer in its table.
            return unsafe { self.sum_avx2(&rows, &kings[..nk], w2) };
        }
        let mut total = 0i32;
        for (c, &w) in w2[..h].iter().enumerate() {
            let mut acc = self.rows[rows[0] + c];
            for &o in &rows[1..] {
                acc = acc.saturating_add(self.rows[o + c]);
            }
            for &o in &kings[..nk] {
                acc = acc.saturating_add(self.kings[o + c]);
            }
            total += acc.clamp(0, ACT_ONE as i16) as i32 * w as i32;
        }
        total
    }

    /// The lanes of [`NetTables::view_sum`] in AVX2 registers.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn sum_avx2(&self, rows: &[usize; 8], kings: &[usize], w2: &[i16]) -> i32 {
        use std::arch::x86_64::*;
        let h = self.hidden;
        assert!(w2.len() >= h && rows.iter().all(|&o| o + h <= self.rows.len()));
        assert!(kings.iter().all(|&o| o + h <= self.kings.len()));
        // SAFETY: called only with the pointers below, each `LANES` values inside its
        // table (the offsets were checked above and `c + LANES <= h`).
        let load = |p: *const i16| unsafe { _mm256_loadu_si256(p as *const __m256i) };
        let (rp, kp) = (self.rows.as_ptr(), self.kings.as_ptr());
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi16(ACT_ONE as i16);
        let mut sum = _mm256_setzero_si256();
        for c in (0..h).step_by(LANES) {
            // SAFETY: `c < h`, and every table is at least `h` values long.
            let (rp, kp, wp) = unsafe { (rp.add(c), kp.add(c), w2.as_ptr().add(c)) };
            let mut acc = load(rp.wrapping_add(rows[0]));
            for &o in &rows[1..] {
                acc = _mm256_adds_epi16(acc, load(rp.wrapping_add(o)));
            }
            for &o in kings {
                acc = _mm256_adds_epi16(acc, load(kp.wrapping_add(o)));
            }
            acc = _mm256_min_epi16(_mm256_max_epi16(acc, zero), one);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(acc, load(wp)));
        }
        let mut out = [0i32; 8];
        // SAFETY: `out` holds 8 `i32`, one register.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, sum) };
        out.iter().sum()
    }

    /// The score of `pos` for the side to move, in hundredths of a man; equal to
    /// [`Network::score`] unless a sum saturates.
    #[inline]
    pub fn score(&self, pos: &Position) -> i32 {
        let me = pos.side_to_move();
        let (w_me, w_opp) = self.w2.split_at(self.hidden);
        let s = self.b2
            + self.view_sum(&View::of(pos, me), w_me)
            + self.view_sum(&View::of(pos, me.opponent()), w_opp);
        s / (ACT_ONE * OUT_SCALE)
    }
}

/// A network of `hidden` units with seeded random weights, first-layer weights in
/// `-spread..spread`: the tests' networks.
#[cfg(test)]
pub(crate) fn random(hidden: usize, seed: u64, spread: i16) -> Network {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut n = Network::zero(hidden);
    n.w1.iter_mut()
        .for_each(|w| *w = rng.gen_range(-spread..spread));
    n.b1.iter_mut().for_each(|w| *w = rng.gen_range(0..256));
    n.w2.iter_mut().for_each(|w| *w = rng.gen_range(-800..800));
    n.b2 = rng.gen_range(-5000..5000);
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::fen::parse_fen;

    #[test]
    fn round_trip_and_bad_sizes() {
        let n = random(8, 1, 20);
        let mut b = Vec::new();
        n.write(&mut b);
        assert_eq!(b.len(), Network::byte_len(8));
        assert_eq!(Network::read(&b), Some(n));
        assert_eq!(Network::read(&b[..b.len() - 1]), None);
        assert_eq!(Network::read(&[0, 0, 0, 0]), None);
    }

    #[test]
    fn mirrors_score_alike_and_zero_scores_zero() {
        let n = random(16, 2, 20);
        let z = Network::zero(16);
        for fen in [
            "W:Wa1,c3,Kd4,e5:Bb6,h8,Kg1",
            "B:Wa1,c1,e1,g1,b2,d2:Bf6,h6,a7,c7,Kb8",
            "W:W21-32:B1-12",
        ] {
            let pos = parse_fen(fen).unwrap();
            assert_eq!(n.score(&pos), n.score(&pos.flip()), "{fen}");
            assert_eq!(z.score(&pos), 0);
        }
    }

    #[test]
    fn the_tables_score_as_the_network() {
        let n = random(24, 5, 20);
        let t = NetTables::new(&n);
        // The same tables without the AVX2 kernel.
        let portable = t.without_avx2();
        let positions = crate::eval::random_walk_positions(9, 100, 150);
        for pos in &positions {
            assert_eq!(t.score(pos), n.score(pos));
            assert_eq!(portable.score(pos), n.score(pos));
        }
        assert!(positions.len() > 3_000, "{}", positions.len());
    }

    #[test]
    fn one_unit_computes_by_hand() {
        // One unit reading a white man on square 0 (a1): bias 10, weight 30, the
        // unit's activation is 40/256 for White to move; out = 40 · 1024 / (256 · 16).
        let mut n = Network::zero(1);
        n.b1[0] = 10;
        n.w1[0] = 30;
        n.w2[0] = 1024;
        let pos = parse_fen("W:Wa1:Bh8").unwrap();
        // White's view: a white man on its square 0 -> 40; Black's view: a black
        // man on h8 turned to its square 0 -> 40 too, but weighted by w2[1] = 0.
        assert_eq!(n.score(&pos), 10);
        assert_eq!(n.score(&pos.flip()), 10);
    }
}
