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

/// The inputs (in White's view) whose columns take the sums of one position to
/// those of another. A position has at most 32 pieces, so at most 32 of each.
struct Changes {
    subs: [u8; 32],
    adds: [u8; 32],
    nsub: usize,
    nadd: usize,
}

impl Changes {
    /// The inputs that differ between `was` and `is`.
    #[inline(always)]
    fn between(was: &Pieces, is: &Pieces) -> Changes {
        let mut c = Changes {
            subs: [0; 32],
            adds: [0; 32],
            nsub: 0,
            nadd: 0,
        };
        for k in 0..4 {
            let mut gone = was[k] & !is[k];
            while gone != 0 {
                c.subs[c.nsub] = (32 * k as u32 + gone.trailing_zeros()) as u8;
                c.nsub += 1;
                gone &= gone - 1;
            }
            let mut came = is[k] & !was[k];
            while came != 0 {
                c.adds[c.nadd] = (32 * k as u32 + came.trailing_zeros()) as u8;
                c.nadd += 1;
                came &= came - 1;
            }
        }
        c
    }
}

impl NetTables {
    /// [`NetTables::score`] of `pos` at `ply` of a search, kept in and computed
    /// from `acc`'s entries; the same score.
    #[inline]
    pub fn score_at(&self, pos: &Position, ply: usize, acc: &mut Accumulators) -> i32 {
        if !self.wraps_exactly() || ply >= PLIES {
            return self.score(pos);
        }
        let h = self.hidden();
        acc.fit(h);
        let now: Pieces = [
            pos.men(Color::White).0,
            pos.kings_of(Color::White).0,
            pos.men(Color::Black).0,
            pos.kings_of(Color::Black).0,
        ];
        let differ =
            |p: &Pieces| -> u32 { p.iter().zip(&now).map(|(a, b)| (a ^ b).count_ones()).sum() };
        // From the biases (`None`): one column per piece.
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
        let changes = Changes::between(&from.map_or([0; 4], |p| acc.pieces[p]), &now);
        acc.pieces[ply] = now;
        // Each view's output weights: the side to move's half, or the opponent's.
        let (w_me, w_opp) = self.output().split_at(h);
        let w2 = match pos.side_to_move() {
            Color::White => [w_me, w_opp],
            Color::Black => [w_opp, w_me],
        };
        // Entries and views in blocks of lanes.
        let (hb, entry) = (h / LANES, ply * 2 * h / LANES);
        let (subs, adds) = (&changes.subs[..changes.nsub], &changes.adds[..changes.nadd]);
        let mut total = self.output_bias();
        #[cfg(target_arch = "x86_64")]
        if self.avx2() {
            assert!(acc.sums.len() == PLIES * 2 * hb);
            let base = acc.sums.as_mut_ptr();
            for (view, turn) in [0, TURN].into_iter().enumerate() {
                let src = match from {
                    // SAFETY: `p < PLIES`, so the entry's view lies in `sums`.
                    Some(p) => unsafe { base.add((2 * p + view) * hb) as *const Lanes },
                    None => self.biases().as_ptr(),
                };
                // SAFETY: as `src`; `ply < PLIES` was checked on entry.
                let dst = unsafe { base.add(entry + view * hb) };
                // SAFETY: `avx2` is set only where the processor reports AVX2; `src`
                // and `dst` hold `h` units each.
                total += unsafe { self.update_avx2(src, dst, subs, adds, turn, w2[view]) };
            }
            return total / (ACT_ONE * OUT_SCALE);
        }
        match from {
            Some(p) if p != ply => acc.sums.copy_within(2 * p * hb..2 * (p + 1) * hb, entry),
            Some(_) => {}
            None => {
                for view in 0..2 {
                    acc.sums[entry + view * hb..][..hb].copy_from_slice(self.biases());
                }
            }
        }
        let cols = self.columns();
        for (view, turn) in [0, TURN].into_iter().enumerate() {
            let sums = &mut acc.sums[entry + view * hb..][..hb];
            for (c, x) in sums.iter_mut().flat_map(|l| &mut l.0).enumerate() {
                let unit = |i: u8| {
                    let u = (i ^ turn) as usize * h + c;
                    cols[u / LANES].0[u % LANES]
                };
                for &i in subs {
                    *x = x.wrapping_sub(unit(i));
                }
                for &i in adds {
                    *x = x.wrapping_add(unit(i));
                }
                total += (*x).clamp(0, ACT_ONE as i16) as i32 * w2[view][c] as i32;
            }
        }
        total / (ACT_ONE * OUT_SCALE)
    }

    /// One view's update in AVX2 registers: the sums at `src` less the columns of
    /// the inputs `subs`, plus those of `adds` (each turned by `turn`), stored at
    /// `dst` (which may be `src`); returns the clipped sums weighed by `w2`.
    /// Blocks of up to 128 units stay in registers while every column is added.
    ///
    /// # Safety
    /// The processor runs AVX2; `src` and `dst` point to `hidden` units each.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn update_avx2(
        &self,
        src: *const Lanes,
        dst: *mut Lanes,
        subs: &[u8],
        adds: &[u8],
        turn: u8,
        w2: &[i16],
    ) -> i32 {
        let (h, cols) = (self.hidden(), self.columns());
        // Every input is below `INPUTS` (7 bits, and `turn` keeps them there), so
        // each column's `h` units lie inside `cols`.
        assert!(w2.len() >= h && cols.len() == INPUTS * h / LANES && INPUTS == 128);
        let mut total = 0;
        let mut c = 0;
        while c < h / LANES {
            let n = (h / LANES - c).min(8);
            // SAFETY: blocks `c..c + n` lie inside `src`, `dst`, `w2` and every
            // column; the processor runs AVX2 (the caller's promise).
            total += unsafe {
                let b = Block {
                    src: src.add(c),
                    dst: dst.add(c),
                    cols: cols.as_ptr().add(c),
                    w2: w2.as_ptr().add(c * LANES),
                    stride: h / LANES,
                    turn,
                };
                match n {
                    1 => b.run::<1>(subs, adds),
                    2 => b.run::<2>(subs, adds),
                    3 => b.run::<3>(subs, adds),
                    4 => b.run::<4>(subs, adds),
                    5 => b.run::<5>(subs, adds),
                    6 => b.run::<6>(subs, adds),
                    7 => b.run::<7>(subs, adds),
                    _ => b.run::<8>(subs, adds),
                }
            };
            c += n;
        }
        total
    }
}

/// A block of units of [`NetTables::update_avx2`]: its sums, first column and
/// output weights start at these pointers; columns lie `stride` lanes apart.
#[cfg(target_arch = "x86_64")]
struct Block {
    src: *const Lanes,
    dst: *mut Lanes,
    cols: *const Lanes,
    w2: *const i16,
    stride: usize,
    turn: u8,
}

#[cfg(target_arch = "x86_64")]
impl Block {
    /// `N` registers of 16 units: loaded, updated by every column, stored, clipped
    /// and weighed.
    ///
    /// # Safety
    /// The processor runs AVX2; `N` lanes lie at `src`, `dst`, at `cols` plus
    /// each input's column, and `N · LANES` weights at `w2`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn run<const N: usize>(&self, subs: &[u8], adds: &[u8]) -> i32 {
        use std::arch::x86_64::*;
        // SAFETY: every pointer below is one of the block's `N` lanes; `Lanes` are
        // aligned for the aligned loads and stores.
        unsafe {
            let load = |p: *const Lanes| _mm256_load_si256(p as *const __m256i);
            let col = |i: u8| self.cols.add((i ^ self.turn) as usize * self.stride);
            let mut acc = [_mm256_setzero_si256(); N];
            for (j, a) in acc.iter_mut().enumerate() {
                *a = load(self.src.add(j));
            }
            for &i in subs {
                let p = col(i);
                for (j, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_sub_epi16(*a, load(p.add(j)));
                }
            }
            for &i in adds {
                let p = col(i);
                for (j, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_add_epi16(*a, load(p.add(j)));
                }
            }
            let (zero, one) = (_mm256_setzero_si256(), _mm256_set1_epi16(ACT_ONE as i16));
            let mut sum = _mm256_setzero_si256();
            for (j, a) in acc.iter().enumerate() {
                _mm256_store_si256(self.dst.add(j) as *mut __m256i, *a);
                let x = _mm256_min_epi16(_mm256_max_epi16(*a, zero), one);
                let w = _mm256_loadu_si256(self.w2.add(j * LANES) as *const __m256i);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(x, w));
            }
            let mut out = [0i32; 8];
            _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, sum);
            out.iter().sum()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::random;
    use crate::eval::{Evaluation, Evaluator, Trained, Weights};
    use crate::score::Score;
    use crate::search::{Limits, SearchOptions, Searcher};
    use damas_rules::fen::parse_fen;
    use damas_rules::movegen::legal_moves;
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
                let moves = legal_moves(&pos);
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
                for &m in legal_moves(pos).iter().take(3) {
                    let child = pos.play(m);
                    assert_eq!(t.score_at(&child, ply + 1, &mut acc), t.score(&child));
                    for &r in legal_moves(&child).iter().take(2) {
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
        for (hidden, seed) in [(24, 1), (64, 2), (5, 3)] {
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
        let mut w = Weights::from_bytes(include_bytes!("../../../../data/eval/weights.bin"))
            .expect("embedded weights");
        w.net = Some(random(32, 7, 12));
        let t = Trained::new(&w);
        let stop = AtomicBool::new(false);
        let search = |e: Evaluation, threads: usize| {
            let opts = SearchOptions::default()
                .with_eval(e)
                .with_hash_mb(4)
                .with_threads(threads);
            let pos = parse_fen("W:W18,21,22,23,25,26,27,29,30,31:B2,3,6,8,9,10,12,14,15").unwrap();
            Searcher::new(opts).search(&pos, &[], &Limits::depth(9), &stop, &mut |_| {})
        };
        let incremental = search(Evaluation::Trained(Arc::new(t.clone())), 1);
        let scratch = search(Evaluation::Custom(Arc::new(FromScratch(t.clone()))), 1);
        assert_eq!(incremental.stats.nodes, scratch.stats.nodes);
        assert_eq!(incremental.stats.qs_nodes, scratch.stats.qs_nodes);
        assert_eq!(
            (incremental.score, &incremental.pv),
            (scratch.score, &scratch.pv)
        );
        // Each helper thread keeps its own accumulators.
        let two = search(Evaluation::Trained(Arc::new(t)), 2);
        assert!(two.best.is_some() && two.stats.nodes > 0);
    }

    #[test]
    fn deep_plies_and_new_weights() {
        let a = NetTables::new(&random(16, 5, 20));
        let b = NetTables::new(&random(16, 6, 20));
        let mut acc = Accumulators::new();
        let pos = Position::start().play(legal_moves(&Position::start())[0]);
        assert_eq!(a.score_at(&pos, PLIES + 3, &mut acc), a.score(&pos));
        assert_eq!(a.score_at(&pos, 7, &mut acc), a.score(&pos));
        // Other weights of the same size after a clear (as each search does).
        acc.clear();
        assert_eq!(b.score_at(&pos, 7, &mut acc), b.score(&pos));
        assert_ne!(a.score(&pos), b.score(&pos));
    }
}
