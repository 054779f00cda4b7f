//! The trainer: logistic regression of the game result (blended with the search's
//! own score) on the features of [`damas_engine::eval::features`], by mini-batch AdaGrad.
//!
//! The model is the evaluation itself: `z = Σ count·(w_open·(1−t) + w_end·t)` in
//! hundredths of a man for White, `t` the phase, and the predicted score for White
//! is `σ(K·z)`. `K` is fitted first on the material-only model (man 100, king
//! 300), so that the weights come out in hundredths of a man. Runs are
//! deterministic for a seed: one thread, a seeded shuffle per epoch. Games, not
//! positions, are held out, so that the validation loss is honest.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::data::GameRecord;
use damas_engine::eval::features::{self, phase, visit, Group, View, PHASE_MAX};
use damas_engine::eval::Weights;
use damas_rules::position::Color;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per gradient step.
    pub batch: usize,
    /// AdaGrad's step size at the first epoch (hundredths of a man); it decays
    /// linearly to a tenth of that at the last.
    pub lr: f32,
    /// Weight of the game result in the target; the rest is the search's score.
    pub lambda: f32,
    /// L2 penalty on every trained weight.
    pub l2: f32,
    /// Seed of the shuffles.
    pub seed: u64,
    /// Percentage of games held out for validation.
    pub holdout: u32,
    /// Feature groups trained; the others keep their initial weights.
    pub groups: Vec<Group>,
    /// Positions before this ply of their game are left out.
    pub skip_plies: u8,
    /// Fixed-point shift of the exported weights.
    pub shift: u32,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            epochs: 6,
            batch: 4096,
            lr: 20.0,
            lambda: 0.7,
            l2: 0.0,
            seed: 1,
            holdout: 10,
            groups: Group::ALL.to_vec(),
            skip_plies: 0,
            shift: 4,
        }
    }
}

/// Losses after one epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// Epoch number (0 = before training).
    pub epoch: u32,
    /// Mean cross-entropy on the training positions.
    pub train: f64,
    /// Mean cross-entropy on the held-out positions.
    pub valid: f64,
}

/// The positions of a data set as sparse feature rows.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    offsets: Vec<u32>,
    index: Vec<u32>,
    count: Vec<i8>,
    /// Endgame share of the blend: phase / PHASE_MAX.
    t: Vec<f32>,
    /// White's game points.
    result: Vec<f32>,
    /// The search's score for White (hundredths).
    score: Vec<f32>,
}

impl Dataset {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.t.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    fn push_game(&mut self, g: &GameRecord, skip_plies: u8) {
        let points = g.outcome.white_points();
        for s in g.samples.iter().filter(|s| s.ply >= skip_plies) {
            if self.offsets.is_empty() {
                self.offsets.push(0);
            }
            let start = self.index.len();
            visit(&View::of(&s.pos, Color::White), |i, c| {
                self.index.push(i as u32);
                self.count.push(c as i8);
            });
            visit(&View::of(&s.pos, Color::Black), |i, c| {
                self.index.push(i as u32);
                self.count.push(-c as i8);
            });
            debug_assert!(self.index.len() > start);
            self.offsets.push(self.index.len() as u32);
            self.t.push(phase(&s.pos) as f32 / PHASE_MAX as f32);
            self.result.push(points);
            self.score.push(s.score as f32);
        }
    }

    fn row(&self, i: usize) -> (&[u32], &[i8]) {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        (&self.index[a..b], &self.count[a..b])
    }

    /// White's evaluation of position `i` under `w` (hundredths).
    fn z(&self, w: &[[f32; 2]], i: usize) -> f32 {
        let (idx, cnt) = self.row(i);
        let t = self.t[i];
        let (mut o, mut e) = (0f32, 0f32);
        for (&f, &c) in idx.iter().zip(cnt) {
            let ww = w[f as usize];
            o += ww[0] * c as f32;
            e += ww[1] * c as f32;
        }
        o * (1.0 - t) + e * t
    }
}

/// Split games into training and held-out sets (by game index, so a run's split
/// does not depend on the order games were read in).
pub fn split(games: &[GameRecord], cfg: &FitConfig) -> (Dataset, Dataset) {
    let mut train = Dataset::default();
    let mut valid = Dataset::default();
    for g in games {
        if held_out(g.index, cfg.holdout) {
            valid.push_game(g, cfg.skip_plies);
        } else {
            train.push_game(g, cfg.skip_plies);
        }
    }
    (train, valid)
}

pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of prediction `p` for target `y`.
pub(crate) fn xent(y: f32, p: f32) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6) as f64;
    let y = y as f64;
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

fn target(d: &Dataset, i: usize, k: f32, lambda: f32) -> f32 {
    blend(d.result[i], d.score[i], k, lambda)
}

/// The training target: White's game points blended with the search's score.
pub(crate) fn blend(result: f32, score: f32, k: f32, lambda: f32) -> f32 {
    lambda * result + (1.0 - lambda) * sigmoid(k * score)
}

/// The step size of epoch `epoch` (from 1) of `epochs`: `base` at the first, falling
/// linearly to a tenth of it at the last.
pub(crate) fn step_size(base: f32, epoch: u32, epochs: u32) -> f32 {
    let frac = if epochs > 1 {
        (epoch - 1) as f32 / (epochs - 1) as f32
    } else {
        0.0
    };
    base * (1.0 - 0.9 * frac)
}

/// Whether the game of index `index` is held out (`holdout` percent of them).
pub(crate) fn held_out(index: u32, holdout: u32) -> bool {
    let h = (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    (h % 100) < holdout as u64
}

/// Mean loss of weights `w` on `d`.
pub fn loss(d: &Dataset, w: &[[f32; 2]], k: f32, lambda: f32) -> f64 {
    if d.is_empty() {
        return f64::NAN;
    }
    let sum: f64 = (0..d.len())
        .map(|i| xent(target(d, i, k, lambda), sigmoid(k * d.z(w, i))))
        .sum();
    sum / d.len() as f64
}

/// The initial weights: man 100, king 300, everything else 0, or `init`'s.
pub fn initial(init: Option<&Weights>) -> Vec<[f32; 2]> {
    match init {
        Some(w) => {
            let s = (1u32 << w.shift) as f32;
            w.values
                .iter()
                .map(|&[o, e]| [o as f32 / s, e as f32 / s])
                .collect()
        }
        None => {
            let mut w = vec![[0f32; 2]; features::COUNT];
            w[features::MATERIAL] = [100.0, 100.0];
            w[features::MATERIAL + 1] = [300.0, 300.0];
            w
        }
    }
}

/// The logistic scale `K` that best fits game results with the material count.
pub fn fit_scale(d: &Dataset) -> f32 {
    let w = initial(None);
    // Golden-section search of the loss over log K.
    let f = |lk: f32| loss(d, &w, lk.exp(), 1.0);
    let (mut a, mut b) = ((1e-4f32).ln(), (0.1f32).ln());
    let g = 0.618_034_f32;
    let mut c = b - g * (b - a);
    let mut e = a + g * (b - a);
    let (mut fc, mut fe) = (f(c), f(e));
    for _ in 0..40 {
        if fc < fe {
            b = e;
            e = c;
            fe = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = e;
            fc = fe;
            e = a + g * (b - a);
            fe = f(e);
        }
    }
    ((a + b) / 2.0).exp()
}

/// Convert float weights to the file's fixed point.
pub fn export(w: &[[f32; 2]], shift: u32) -> Weights {
    let s = (1u32 << shift) as f32;
    let q = |x: f32| (x * s).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
    Weights {
        shift,
        values: w.iter().map(|&[o, e]| [q(o), q(e)]).collect(),
        net: None,
    }
}

/// Train on `train`, reporting the losses after each epoch through `on_epoch`
/// (epoch 0 is the starting point). Returns the trained weights.
pub fn fit(
    train: &Dataset,
    valid: &Dataset,
    init: Vec<[f32; 2]>,
    k: f32,
    cfg: &FitConfig,
    on_epoch: &mut dyn FnMut(&EpochReport),
) -> Vec<[f32; 2]> {
    let mut w = init;
    let mut trained = vec![false; features::COUNT];
    for g in &cfg.groups {
        for f in g.range() {
            trained[f] = true;
        }
    }
    let n = features::COUNT;
    let mut v = vec![[0f32; 2]; n];
    let mut grad = vec![[0f32; 2]; n];
    let mut touched: Vec<u32> = Vec::new();
    let mut seen = vec![false; n];
    let eps = 1e-8f32;
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    on_epoch(&EpochReport {
        epoch: 0,
        train: loss(train, &w, k, cfg.lambda),
        valid: loss(valid, &w, k, cfg.lambda),
    });
    for epoch in 1..=cfg.epochs {
        order.shuffle(&mut rng);
        let lr = step_size(cfg.lr, epoch, cfg.epochs);
        for chunk in order.chunks(cfg.batch.max(1)) {
            for &i in chunk {
                let i = i as usize;
                let p = sigmoid(k * train.z(&w, i));
                let err = (p - target(train, i, k, cfg.lambda)) * k / chunk.len() as f32;
                let t = train.t[i];
                let (idx, cnt) = train.row(i);
                for (&f, &c) in idx.iter().zip(cnt) {
                    let f = f as usize;
                    if !trained[f] {
                        continue;
                    }
                    if !seen[f] {
                        seen[f] = true;
                        touched.push(f as u32);
                    }
                    let gc = err * c as f32;
                    grad[f][0] += gc * (1.0 - t);
                    grad[f][1] += gc * t;
                }
            }
            // AdaGrad: only the weights of this batch's features move, each by a step
            // that shrinks with its accumulated squared gradients, which suits sparse
            // features (a rare pattern is not pushed as far as a common one).
            for &f in &touched {
                let f = f as usize;
                for ph in 0..2 {
                    let g = grad[f][ph] + cfg.l2 * w[f][ph];
                    v[f][ph] += g * g;
                    w[f][ph] -= lr * g / (v[f][ph].sqrt() + eps);
                    grad[f][ph] = 0.0;
                }
                seen[f] = false;
            }
            touched.clear();
        }
        on_epoch(&EpochReport {
            epoch,
            train: loss(train, &w, k, cfg.lambda),
            valid: loss(valid, &w, k, cfg.lambda),
        });
    }
    w
}

/// `count` games of one position each (ply 30, score 0), cycling through `fens`
/// and their outcomes: the trainers' test data.
#[cfg(test)]
pub(crate) fn one_sample_games(
    fens: &[(&str, super::data::Outcome)],
    count: u32,
) -> Vec<GameRecord> {
    (0..count)
        .map(|i| {
            let (fen, outcome) = fens[i as usize % fens.len()];
            GameRecord {
                index: i,
                outcome,
                samples: vec![super::data::Sample {
                    pos: damas_rules::fen::parse_fen(fen).unwrap(),
                    ply: 30,
                    score: 0,
                }],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::data::Outcome;

    /// Games where White wins exactly when it has more men, and where a man on
    /// a5 (a square otherwise rare) means a White win too.
    fn synthetic() -> Vec<GameRecord> {
        let fens = [
            ("W:Wa1,c1,e1:Bb8,d8", Outcome::WhiteWin),
            ("W:Wa1,c1:Bb8,d8,f8", Outcome::BlackWin),
            ("W:Wa1,c1:Bb8,d8", Outcome::Draw),
            ("B:Wa1,c1,g1:Bb8,h8", Outcome::WhiteWin),
            ("B:Wa1:Bb8,d8", Outcome::BlackWin),
            ("W:Wa5,c1:Bb8,d8", Outcome::WhiteWin),
            ("B:Wa5,e1:Bf8,d8", Outcome::WhiteWin),
        ];
        one_sample_games(&fens, 200)
    }

    #[test]
    fn loss_decreases_and_runs_are_deterministic() {
        let games = synthetic();
        let cfg = FitConfig {
            epochs: 15,
            batch: 16,
            lr: 5.0,
            lambda: 1.0,
            holdout: 20,
            ..FitConfig::default()
        };
        let (train, valid) = split(&games, &cfg);
        assert!(!train.is_empty() && !valid.is_empty());
        let k = fit_scale(&train);
        assert!(k > 1e-4 && k < 0.1, "{k}");
        let run = || {
            let mut curve = Vec::new();
            let w = fit(&train, &valid, initial(None), k, &cfg, &mut |r| {
                curve.push(*r)
            });
            (w, curve)
        };
        let (w1, c1) = run();
        let (w2, c2) = run();
        assert_eq!(w1, w2);
        assert_eq!(c1, c2);
        assert_eq!(c1.len(), 16);
        assert!(c1.last().unwrap().train < c1[0].train * 0.9, "{c1:?}");
        assert!(c1.last().unwrap().valid < c1[0].valid, "{c1:?}");
        // The a5 man learnt a positive weight.
        let a5 = damas_rules::square::Square::from_coords(0, 4)
            .unwrap()
            .index();
        assert!(w1[features::MEN_SQUARES + a5][1] > 0.0);
    }

    #[test]
    fn untrained_groups_keep_their_weights() {
        let games = synthetic();
        let cfg = FitConfig {
            epochs: 3,
            batch: 16,
            groups: vec![Group::MenSquares],
            ..FitConfig::default()
        };
        let (train, valid) = split(&games, &cfg);
        let w = fit(&train, &valid, initial(None), 0.01, &cfg, &mut |_| {});
        assert_eq!(w[features::MATERIAL], [100.0, 100.0]);
        assert!(w[features::PATTERNS..].iter().all(|x| *x == [0.0, 0.0]));
    }

    #[test]
    fn export_rounds_to_fixed_point() {
        let mut w = initial(None);
        w[5] = [1.26, -0.5];
        w[6] = [1e9, -1e9];
        let e = export(&w, 4);
        assert_eq!(e.values[0], [1600, 1600]);
        assert_eq!(e.values[5], [20, -8]);
        assert_eq!(e.values[6], [i16::MAX, i16::MIN]);
        assert_eq!(initial(Some(&e))[0], [100.0, 100.0]);
    }
}
