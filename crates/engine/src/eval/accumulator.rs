//! The network's first layer kept per search ply and updated by the pieces that
//! changed, instead of recomputed from every piece at each evaluation.
//!
//! An entry holds a position's pieces and the pre-clip sums of both views' hidden
//! units (White's view, then Black's). A position at ply `p` starts from the entry
//! at `p − 1` (usually its parent) or at `p` (usually a sibling), whichever differs
//! from it by fewer pieces, or from the biases when every entry differs by more
//! pieces than it has. Each changed piece adds or subtracts one column per view.
//! Any starting entry gives the same sums, so the choice only decides the cost.
//!
//! The sums wrap at the bounds of an `i16`, so they equal the network's exact sums
//! only where no sum can leave that range; [`NetTables`] checks this bound when it
//! is built and otherwise scores every position from scratch.

use super::network::{Lanes, NetTables, ACT_ONE, INPUTS, LANES, OUT_SCALE};
use damas_rules::position::{Color, Position};

/// Plies an [`Accumulators`] holds (a search's plies, quiescence included); a
/// deeper position is scored from scratch.
pub const PLIES: usize = 256;

/// Pieces of a position: White's men and kings, Black's men and kings.
type Pieces = [u32; 4];
/// The pieces of an empty entry: more squares than any position differs by.
const EMPTY: Pieces = [!0; 4];

/// A piece's input in Black's view from its input in White's: the colours swap
/// (kind `k` becomes `k ± 2`) and the square turns (`s` becomes `31 − s`).
const TURN: u8 = 0b101_1111;

/// One search thread's accumulators, one entry per ply.
#[derive(Clone, Debug, Default)]
pub struct Accumulators {
    /// Hidden units (padded) of the tables the sums were computed for.
    hidden: usize,
    pieces: Vec<Pieces>,
    /// `PLIES × 2 × hidden` units.
    sums: Vec<Lanes>,
}

impl Accumulators {
    /// No entries yet (they are allocated by the first network that uses them).
    pub fn new() -> Accumulators {
        Accumulators::default()
    }

    /// Forget every entry: a new search may use other weights.
    pub fn clear(&mut self) {
        self.pieces.fill(EMPTY);
    }

    /// Entries sized for `hidden` units.
    #[inline]
    fn fit(&mut self, hidden: usize) {
        if self.hidden != hidden {
            self.hidden = hidden;
            self.pieces = vec![EMPTY; PLIES];
            self.sums = vec![Lanes::default(); PLIES * 2 * hidden / LANES];
        }
    }
}

/// Each input set in `bits` (White's men and kings, Black's men and kings), in
/// White's view: kind `k`'s square `s` is input `32 k + s`.
#[inline(always)]
fn each_input(bits: Pieces, mut f: impl FnMut(u8)) {
    for (k, mut b) in bits.into_iter().enumerate() {
        while b != 0 {
            f((32 * k as u32 + b.trailing_zeros()) as u8);
            b &= b - 1;
        }
    }
}

/// Where a position's sums start: an entry of the accumulators, or the biases.
struct Start {
    /// The entry, or `None` for the biases.
    from: Option<usize>,
    /// The pieces whose columns leave the sums.
    gone: Pieces,
    /// The pieces whose columns join them.
    came: Pieces,
}

impl NetTables {
    /// [`NetTables::score`] of `pos` at `ply` of a search, kept in and computed
    /// from `acc`'s entries; the same score.
    #[inline]
    pub fn score_at(&self, pos: &Position, ply: usize, acc: &mut Accumulators) -> i32 {
        if !self.wraps_exactly() || ply >= PLIES {
            return self.score(pos);
        }
        acc.fit(self.hidden());
        #[cfg(target_arch = "x86_64")]
        if self.avx2() {
            // SAFETY: `avx2` is set only where the processor reports AVX2; `acc`
            // fits these tables and `ply < PLIES`.
            return unsafe { self.score_at_avx2(pos, ply, acc) };
        }
        self.score_at_portable(pos, ply, acc)
    }

    /// The start of `pos` at `ply`: the entry at `ply − 1` or `ply`, whichever
    /// differs from it by fewer pieces, or the biases (one column per piece) when
    /// that is cheaper. Records `pos`'s pieces at `ply`.
    #[inline(always)]
    fn start(pos: &Position, ply: usize, acc: &mut Accumulators) -> Start {
        let now: Pieces = [
            pos.men(Color::White).0,
            pos.kings_of(Color::White).0,
            pos.men(Color::Black).0,
            pos.kings_of(Color::Black).0,
        ];
        let differ =
            |p: &Pieces| -> u32 { p.iter().zip(&now).map(|(a, b)| (a ^ b).count_ones()).sum() };
        let mut from: Option<usize> = None;
        let mut cost: u32 = now.iter().map(|b| b.count_ones()).sum();
        for p in [ply, ply.wrapping_sub(1)] {
            if p < PLIES {
                let c = differ(&acc.pieces[p]);
                if c < cost {
                    (from, cost) = (Some(p), c);
                }
            }
        }
        let was = from.map_or([0; 4], |p| acc.pieces[p]);
        acc.pieces[ply] = now;
        let mut start = Start {
            from,
            gone: [0; 4],
            came: [0; 4],
        };
        for k in 0..4 {
            start.gone[k] = was[k] & !now[k];
            start.came[k] = now[k] & !was[k];
        }
        start
    }

    /// Each view's output weights (White's view, then Black's): the side to
    /// move's half of the output layer, or the opponent's.
    #[inline(always)]
    fn view_weights(&self, pos: &Position) -> [&[i16]; 2] {
        let (w_me, w_opp) = self.output().split_at(self.hidden());
        match pos.side_to_move() {
            Color::White => [w_me, w_opp],
            Color::Black => [w_opp, w_me],
        }
    }

    /// [`NetTables::score_at`] in scalar code.
    fn score_at_portable(&self, pos: &Position, ply: usize, acc: &mut Accumulators) -> i32 {
        let start = Self::start(pos, ply, acc);
        let (h, cols) = (self.hidden(), self.columns());
        let (hb, entry) = (h / LANES, ply * 2 * h / LANES);
        match start.from {
            Some(p) if p != ply => acc.sums.copy_within(2 * p * hb..2 * (p + 1) * hb, entry),
            Some(_) => {}
            None => {
                for view in 0..2 {
                    acc.sums[entry + view * hb..][..hb].copy_from_slice(self.biases());
                }
            }
        }
        let sums = &mut acc.sums[entry..][..2 * hb];
        for (bits, sign) in [(start.gone, -1i16), (start.came, 1)] {
            each_input(bits, |i| {
                for (view, turn) in [0, TURN].into_iter().enumerate() {
                    let col = &cols[(i ^ turn) as usize * hb..][..hb];
                    let view_sums = &mut sums[view * hb..][..hb];
                    for (s, c) in view_sums.iter_mut().zip(col) {
                        for (x, w) in s.0.iter_mut().zip(&c.0) {
                            *x = x.wrapping_add(sign.wrapping_mul(*w));
                        }
                    }
                }
            });
        }
        let w2 = self.view_weights(pos);
        let mut total = self.output_bias();
        for (view, lanes) in sums.chunks(hb).enumerate() {
            let units = lanes.iter().flat_map(|l| l.0);
            for (x, &w) in units.zip(w2[view]) {
                total += x.clamp(0, ACT_ONE as i16) as i32 * w as i32;
            }
        }
        total / (ACT_ONE * OUT_SCALE)
    }

    /// [`NetTables::score_at`] in AVX2 registers.
    ///
    /// # Safety
    /// The processor runs AVX2; `acc` fits these tables and `ply < PLIES`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn score_at_avx2(&self, pos: &Position, ply: usize, acc: &mut Accumulators) -> i32 {
        use std::arch::x86_64::*;
        let start = Self::start(pos, ply, acc);
        let w2 = self.view_weights(pos);
        let (h, cols) = (self.hidden(), self.columns());
        let hb = h / LANES;
        // Every input is below `INPUTS` (7 bits, and `TURN` keeps them there), so
        // each column's `h` units lie inside `cols`.
        assert!(w2[0].len() >= h && w2[1].len() >= h);
        assert!(cols.len() == INPUTS * hb && INPUTS == 128);
        assert!(acc.sums.len() == PLIES * 2 * hb && ply < PLIES);
        let base = acc.sums.as_mut_ptr();
        let src = match start.from {
            // SAFETY: `p < PLIES`, so the entry's two views lie in `sums`.
            Some(p) => unsafe {
                [
                    base.add(2 * p * hb) as *const Lanes,
                    base.add((2 * p + 1) * hb) as *const Lanes,
                ]
            },
            None => [self.biases().as_ptr(); 2],
        };
        // SAFETY: as `src`, for the entry at `ply`.
        let dst = unsafe { base.add(ply * 2 * hb) };
        let mut sum = _mm256_setzero_si256();
        let mut c = 0;
        while c < hb {
            let n = (hb - c).min(4);
            // SAFETY: blocks `c..c + n` of each view lie inside `src`, `dst`, `w2`
            // and every column; the processor runs AVX2 (the caller's promise).
            sum = unsafe {
                let b = Block {
                    src: [src[0].add(c), src[1].add(c)],
                    dst: [dst.add(c), dst.add(hb + c)],
                    cols: cols.as_ptr().add(c),
                    w2: [w2[0].as_ptr().add(c * LANES), w2[1].as_ptr().add(c * LANES)],
                    stride: hb,
                };
                match n {
                    1 => b.run::<1>(&start, sum),
                    2 => b.run::<2>(&start, sum),
                    3 => b.run::<3>(&start, sum),
                    _ => b.run::<4>(&start, sum),
                }
            };
            c += n;
        }
        // The eight 32-bit sums added across the register.
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        (self.output_bias() + _mm_cvtsi128_si32(s)) / (ACT_ONE * OUT_SCALE)
    }
}

/// A block of units of [`NetTables::score_at_avx2`] in both views: its sums, first
/// column and output weights start at these pointers (White's view, then
/// Black's); columns lie `stride` lanes apart.
#[cfg(target_arch = "x86_64")]
struct Block {
    src: [*const Lanes; 2],
    dst: [*mut Lanes; 2],
    cols: *const Lanes,
    w2: [*const i16; 2],
    stride: usize,
}

#[cfg(target_arch = "x86_64")]
impl Block {
    /// `N` registers of 16 units per view: loaded, updated by every column,
    /// stored, clipped, weighed and added to `sum`'s eight 32-bit lanes.
    ///
    /// # Safety
    /// The processor runs AVX2; `N` lanes lie at each `src` and `dst`, at `cols`
    /// plus each input's column (turned or not), and `N · LANES` weights at each
    /// `w2`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn run<const N: usize>(
        &self,
        start: &Start,
        sum: std::arch::x86_64::__m256i,
    ) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        // SAFETY: every pointer below is one of the block's `N` lanes; `Lanes` are
        // aligned for the aligned loads and stores.
        unsafe {
            let load = |p: *const Lanes| _mm256_load_si256(p as *const __m256i);
            let col = |i: u8| self.cols.add(i as usize * self.stride);
            let mut white = [_mm256_setzero_si256(); N];
            let mut black = [_mm256_setzero_si256(); N];
            for j in 0..N {
                white[j] = load(self.src[0].add(j));
                black[j] = load(self.src[1].add(j));
            }
            each_input(start.gone, |i| {
                let (pw, pb) = (col(i), col(i ^ TURN));
                for j in 0..N {
                    white[j] = _mm256_sub_epi16(white[j], load(pw.add(j)));
                    black[j] = _mm256_sub_epi16(black[j], load(pb.add(j)));
                }
            });
            each_input(start.came, |i| {
                let (pw, pb) = (col(i), col(i ^ TURN));
                for j in 0..N {
                    white[j] = _mm256_add_epi16(white[j], load(pw.add(j)));
                    black[j] = _mm256_add_epi16(black[j], load(pb.add(j)));
                }
            });
            let (zero, one) = (_mm256_setzero_si256(), _mm256_set1_epi16(ACT_ONE as i16));
            let mut sum = sum;
            for (view, acc) in [white, black].iter().enumerate() {
                for (j, a) in acc.iter().enumerate() {
                    _mm256_store_si256(self.dst[view].add(j) as *mut __m256i, *a);
                    let x = _mm256_min_epi16(_mm256_max_epi16(*a, zero), one);
                    let w = _mm256_loadu_si256(self.w2[view].add(j * LANES) as *const __m256i);
                    sum = _mm256_add_epi32(sum, _mm256_madd_epi16(x, w));
                }
            }
            sum
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::random;
    use crate::eval::{Evaluation, Evaluator, Trained};
    use crate::score::Score;
    use crate::search::{Limits, SearchOptions, Searcher};
    use damas_rules::fen::parse_fen;
    use damas_rules::movegen::legal_moves;
    use damas_rules::variant::Variant;
    use rand::{Rng, SeedableRng};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    /// Walk random trees depth first, scoring some nodes at their ply the way a
    /// search does (parents often unscored), and compare with scoring from scratch.
    fn agrees(t: &NetTables, seed: u64) -> usize {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut acc = Accumulators::new();
        let mut checked = 0;
        for _ in 0..40 {
            let mut line = vec![Position::start()];
            for _ in 0..rng.gen_range(0..60) {
                let pos = *line.last().unwrap();
                let moves = legal_moves(Variant::Brazilian, &pos);
                if moves.is_empty() {
                    break;
                }
                line.push(pos.play(moves[rng.gen_range(0..moves.len())]));
            }
            // Below each node of the line, a few children and grandchildren.
            for (ply, pos) in line.iter().enumerate() {
                if rng.gen_bool(0.7) {
                    assert_eq!(t.score_at(pos, ply, &mut acc), t.score(pos));
                    checked += 1;
                }
                for &m in legal_moves(Variant::Brazilian, pos).iter().take(3) {
                    let child = pos.play(m);
                    assert_eq!(t.score_at(&child, ply + 1, &mut acc), t.score(&child));
                    for &r in legal_moves(Variant::Brazilian, &child).iter().take(2) {
                        let g = child.play(r);
                        assert_eq!(t.score_at(&g, ply + 2, &mut acc), t.score(&g));
                        checked += 2;
                    }
                }
            }
            if rng.gen_bool(0.3) {
                acc.clear();
            }
        }
        checked
    }

    #[test]
    fn updated_sums_score_as_from_scratch() {
        for (hidden, seed) in [(24, 1), (64, 2), (5, 3), (40, 4), (150, 5)] {
            let t = NetTables::new(&random(hidden, seed, 20));
            assert!(t.wraps_exactly());
            assert!(agrees(&t, seed) > 5_000);
            // The same without the AVX2 build.
            assert!(agrees(&t.without_avx2(), seed + 10) > 5_000);
        }
    }

    #[test]
    fn sums_that_could_wrap_are_scored_from_scratch() {
        // 24 pieces of weight 2,000 exceed an i16: never updated, still exact.
        let t = NetTables::new(&random(16, 4, 2_000));
        assert!(!t.wraps_exactly());
        assert!(agrees(&t, 4) > 5_000);
    }

    /// The embedded evaluation scored from scratch (no [`Evaluator::eval_at`]).
    struct FromScratch(Trained);

    impl Evaluator for FromScratch {
        fn eval(&self, pos: &Position) -> Score {
            self.0.eval(pos)
        }
    }

    #[test]
    fn a_search_with_the_accumulators_visits_the_same_tree() {
        let mut w = crate::eval::trained::embedded_weights(Variant::Brazilian);
        w.net = Some(random(32, 7, 12));
        let t = Trained::new(&w);
        let stop = AtomicBool::new(false);
        // Both rules, positions within the network's range (an even middle game; from
        // the Russian one b6 is crowned mid-capture, b6xh4).
        for (variant, fen) in [
            (
                Variant::Brazilian,
                "W:Wa1,c1,e1,g1,b2,f2,h2,a3,e3,g3,b4:Bd6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
            ),
            (
                Variant::Russian,
                "W:Wb6,c3,e3,g3,a1,c1:Bc7,f6,a7,h6,g7,h8,d6,b8,f8",
            ),
        ] {
            let search = |e: Evaluation, threads: usize| {
                let opts = SearchOptions::default()
                    .with_variant(variant)
                    .with_eval(e)
                    .with_hash_mb(4)
                    .with_threads(threads);
                let pos = parse_fen(fen).unwrap();
                Searcher::new(opts).search(&pos, &[], &Limits::depth(9), &stop, &mut |_| {})
            };
            let incremental = search(Evaluation::Trained(Arc::new(t.clone())), 1);
            let scratch = search(Evaluation::Custom(Arc::new(FromScratch(t.clone()))), 1);
            assert_eq!(incremental.stats.nodes, scratch.stats.nodes, "{fen}");
            assert_eq!(incremental.stats.qs_nodes, scratch.stats.qs_nodes);
            assert_eq!(
                (incremental.score, &incremental.pv),
                (scratch.score, &scratch.pv)
            );
            // The network is consulted in this tree: without it the tree differs.
            let linear = search(
                Evaluation::Trained(Arc::new(Trained::embedded_linear(Variant::Brazilian))),
                1,
            );
            assert_ne!(linear.stats.nodes, incremental.stats.nodes, "{fen}");
            // Each helper thread keeps its own accumulators.
            let two = search(Evaluation::Trained(Arc::new(t.clone())), 2);
            assert!(two.best.is_some() && two.stats.nodes > 0);
        }
    }

    #[test]
    fn deep_plies_and_new_weights() {
        let a = NetTables::new(&random(16, 5, 20));
        let b = NetTables::new(&random(16, 6, 20));
        let mut acc = Accumulators::new();
        let pos = Position::start().play(legal_moves(Variant::Brazilian, &Position::start())[0]);
        assert_eq!(a.score_at(&pos, PLIES + 3, &mut acc), a.score(&pos));
        assert_eq!(a.score_at(&pos, 7, &mut acc), a.score(&pos));
        // Other weights of the same size after a clear (as each search does).
        acc.clear();
        assert_eq!(b.score_at(&pos, 7, &mut acc), b.score(&pos));
        assert_ne!(a.score(&pos), b.score(&pos));
    }
}
