//! Training the evaluation's network ([`damas_engine::eval::network`]) on top of
//! fixed linear weights: the network learns what the linear model leaves over.
//!
//! The prediction for a position is `σ(K·(linear + network))`, White's score, with
//! the linear part computed once by the engine's own evaluator, so the network is
//! fitted to exactly what it will be added to. Adam, mini-batches, one thread and a
//! seeded shuffle: a run is deterministic for its seed. The same games are held out
//! as by [`super::fit`].

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::data::GameRecord;
use super::fit::{blend, held_out, sigmoid, step_size, xent, EpochReport};
use damas_engine::eval::features::View;
use damas_engine::eval::network::{active, Network, ACT_ONE, INPUTS, OUT_SCALE};
use damas_engine::eval::{consults_network, Trained};
use damas_rules::position::Color;

/// Settings of a network training run.
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// Hidden units per view.
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size at the first epoch; it decays linearly to a tenth at the last.
    pub lr: f32,
    /// Weight of the game result in the target.
    pub lambda: f32,
    /// L2 penalty on the weights.
    pub l2: f32,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// Percentage of games held out.
    pub holdout: u32,
    /// Positions before this ply of their game are left out.
    pub skip_plies: u8,
    /// The network training starts from (of `hidden` units); `None`: seeded
    /// random first-layer weights and a zero output layer.
    pub start: Option<Network>,
}

/// The positions of a data set as the network reads them.
#[derive(Clone, Debug, Default)]
pub struct NetData {
    /// The linear evaluation for White (hundredths).
    base: Vec<f32>,
    /// Whether the engine consults the network there ([`consults_network`]).
    consulted: Vec<bool>,
    /// +1 when White is to move, −1 otherwise.
    sign: Vec<f32>,
    /// The side to move's view and the opponent's.
    views: Vec<[View; 2]>,
    result: Vec<f32>,
    score: Vec<f32>,
}

impl NetData {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.base.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.base.is_empty()
    }

    /// Whether the engine consults the network at position `i` (the engine's rule).
    fn consulted(&self, i: usize) -> bool {
        self.consulted[i]
    }

    fn push_game(&mut self, g: &GameRecord, linear: &Trained, skip_plies: u8) {
        let points = g.outcome.white_points();
        for s in g.samples.iter().filter(|s| s.ply >= skip_plies) {
            let me = s.pos.side_to_move();
            let v = |c: Color| View::of(&s.pos, c);
            let base = linear.white_score(&s.pos);
            self.base.push(base as f32);
            self.consulted.push(consults_network(&s.pos, base));
            self.sign.push(if me == Color::White { 1.0 } else { -1.0 });
            self.views.push([v(me), v(me.opponent())]);
            self.result.push(points);
            self.score.push(s.score as f32);
        }
    }
}

/// Split games into training and held-out positions, as [`super::fit::split`] does.
pub fn split(
    games: &[GameRecord],
    linear: &Trained,
    holdout: u32,
    skip_plies: u8,
) -> (NetData, NetData) {
    let (mut train, mut valid) = (NetData::default(), NetData::default());
    for g in games {
        let d = if held_out(g.index, holdout) {
            &mut valid
        } else {
            &mut train
        };
        d.push_game(g, linear, skip_plies);
    }
    (train, valid)
}

/// Fixed-point units of the first layer (weights and biases) per float unit.
const FIRST_SCALE: f32 = ACT_ONE as f32;
/// Fixed-point units of the output weights per float unit (men).
const OUT_UNITS: f32 = 100.0 * OUT_SCALE as f32;

/// The network in floating point: weights as [`Network`] lays them out, with
/// activations from 0 to 1 and the output in men.
#[derive(Clone, Debug)]
pub struct FloatNet {
    hidden: usize,
    /// All parameters: w1 (`INPUTS × hidden`), b1, w2 (`2 × hidden`), b2.
    p: Vec<f32>,
}

impl FloatNet {
    fn new(hidden: usize, seed: u64) -> FloatNet {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut p = vec![0f32; INPUTS * hidden + 3 * hidden + 1];
        for w in &mut p[..INPUTS * hidden] {
            *w = rng.gen_range(-0.1..0.1);
        }
        for b in &mut p[INPUTS * hidden..(INPUTS + 1) * hidden] {
            *b = rng.gen_range(0.2..0.8);
        }
        // The output layer starts at zero: training starts from the linear model.
        FloatNet { hidden, p }
    }

    /// The float form of a fixed-point network: the same scores up to rounding.
    fn from_network(n: &Network) -> FloatNet {
        let (one, out) = (FIRST_SCALE, OUT_UNITS);
        let mut p: Vec<f32> = n.w1.iter().chain(&n.b1).map(|&x| x as f32 / one).collect();
        p.extend(n.w2.iter().map(|&x| x as f32 / out));
        p.push(n.b2 as f32 / (out * one));
        FloatNet {
            hidden: n.hidden,
            p,
        }
    }

    fn b1(&self) -> usize {
        INPUTS * self.hidden
    }

    fn w2(&self) -> usize {
        (INPUTS + 1) * self.hidden
    }

    fn b2(&self) -> usize {
        (INPUTS + 3) * self.hidden
    }

    /// The pre-activations of one view.
    fn pre(&self, v: &View, out: &mut [f32]) {
        let h = self.hidden;
        out.copy_from_slice(&self.p[self.b1()..self.b1() + h]);
        active(v, |i| {
            for (o, w) in out.iter_mut().zip(&self.p[i * h..(i + 1) * h]) {
                *o += w;
            }
        });
    }

    /// The output in men from the two views' pre-activations.
    fn out(&self, a: &[f32], b: &[f32]) -> f32 {
        let h = self.hidden;
        let w2 = &self.p[self.w2()..self.w2() + 2 * h];
        let mut s = self.p[self.b2()];
        for (x, w) in a.iter().zip(&w2[..h]) {
            s += x.clamp(0.0, 1.0) * w;
        }
        for (x, w) in b.iter().zip(&w2[h..]) {
            s += x.clamp(0.0, 1.0) * w;
        }
        s
    }

    /// White's evaluation (hundredths) of position `i` of `d`: the linear score alone where
    /// the engine does not consult the network
    /// ([`NET_RANGE`](damas_engine::eval::NET_RANGE)).
    fn z(&self, d: &NetData, i: usize, a: &mut [f32], b: &mut [f32]) -> f32 {
        if !d.consulted(i) {
            return d.base[i];
        }
        self.pre(&d.views[i][0], a);
        self.pre(&d.views[i][1], b);
        d.base[i] + d.sign[i] * 100.0 * self.out(a, b)
    }

    /// The network in the engine's fixed point.
    pub fn export(&self) -> Network {
        let h = self.hidden;
        let q = |x: f32, s: f32| (x * s).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let (one, out) = (FIRST_SCALE, OUT_UNITS);
        Network {
            hidden: h,
            w1: self.p[..self.b1()].iter().map(|&x| q(x, one)).collect(),
            b1: self.p[self.b1()..self.w2()]
                .iter()
                .map(|&x| q(x, one))
                .collect(),
            w2: self.p[self.w2()..self.b2()]
                .iter()
                .map(|&x| q(x, out))
                .collect(),
            b2: (self.p[self.b2()] * out * one).round() as i32,
        }
    }
}

/// Mean loss of `net` on `d`.
pub fn loss(d: &NetData, net: &FloatNet, k: f32, lambda: f32) -> f64 {
    if d.is_empty() {
        return f64::NAN;
    }
    let (mut a, mut b) = (vec![0f32; net.hidden], vec![0f32; net.hidden]);
    let sum: f64 = (0..d.len())
        .map(|i| {
            let y = blend(d.result[i], d.score[i], k, lambda);
            xent(y, sigmoid(k * net.z(d, i, &mut a, &mut b)))
        })
        .sum();
    sum / d.len() as f64
}

/// Train a network on `train`, reporting the losses after each epoch (epoch 0: the
/// linear model alone).
pub fn fit_net(
    train: &NetData,
    valid: &NetData,
    k: f32,
    cfg: &NetConfig,
    on_epoch: &mut dyn FnMut(&EpochReport),
) -> FloatNet {
    let mut net = match &cfg.start {
        Some(n) => FloatNet::from_network(n),
        None => FloatNet::new(cfg.hidden, cfg.seed),
    };
    let h = net.hidden;
    let n = net.p.len();
    let (mut m, mut v, mut g) = (vec![0f32; n], vec![0f32; n], vec![0f32; n]);
    let (b1, w2, b2) = (net.b1(), net.w2(), net.b2());
    let (mut a, mut b) = (vec![0f32; h], vec![0f32; h]);
    let (mut da, mut db) = (vec![0f32; h], vec![0f32; h]);
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed ^ 0x5EED);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    on_epoch(&EpochReport {
        epoch: 0,
        train: loss(train, &net, k, cfg.lambda),
        valid: loss(valid, &net, k, cfg.lambda),
    });
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    for epoch in 1..=cfg.epochs {
        order.shuffle(&mut rng);
        let lr = step_size(cfg.lr, epoch, cfg.epochs);
        for chunk in order.chunks(cfg.batch.max(1)) {
            g.iter_mut().for_each(|x| *x = 0.0);
            for &i in chunk {
                let i = i as usize;
                if !train.consulted(i) {
                    continue;
                }
                let p = sigmoid(k * net.z(train, i, &mut a, &mut b));
                let y = blend(train.result[i], train.score[i], k, cfg.lambda);
                // d loss / d output (men).
                let e = (p - y) * k * train.sign[i] * 100.0 / chunk.len() as f32;
                g[b2] += e;
                for j in 0..h {
                    let (ha, hb) = (a[j].clamp(0.0, 1.0), b[j].clamp(0.0, 1.0));
                    g[w2 + j] += e * ha;
                    g[w2 + h + j] += e * hb;
                    da[j] = if a[j] > 0.0 && a[j] < 1.0 {
                        e * net.p[w2 + j]
                    } else {
                        0.0
                    };
                    db[j] = if b[j] > 0.0 && b[j] < 1.0 {
                        e * net.p[w2 + h + j]
                    } else {
                        0.0
                    };
                    g[b1 + j] += da[j] + db[j];
                }
                for (view, d) in [(&train.views[i][0], &da), (&train.views[i][1], &db)] {
                    active(view, |f| {
                        for (gw, dj) in g[f * h..(f + 1) * h].iter_mut().zip(d.iter()) {
                            *gw += dj;
                        }
                    });
                }
            }
            step += 1;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for q in 0..n {
                let gq = g[q] + if q < b1 { cfg.l2 * net.p[q] } else { 0.0 };
                m[q] = beta1 * m[q] + (1.0 - beta1) * gq;
                v[q] = beta2 * v[q] + (1.0 - beta2) * gq * gq;
                net.p[q] -= lr * (m[q] / c1) / ((v[q] / c2).sqrt() + eps);
            }
        }
        on_epoch(&EpochReport {
            epoch,
            train: loss(train, &net, k, cfg.lambda),
            valid: loss(valid, &net, k, cfg.lambda),
        });
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::data::Outcome;
    use crate::train::fit::one_sample_games;
    use damas_engine::eval::{Weights, NET_RANGE};
    use damas_rules::variant::Variant;

    /// Games the linear model cannot tell apart but a network can: White wins when
    /// it has a man on both a3 and c3 (an interaction), otherwise loses.
    fn games() -> Vec<GameRecord> {
        let fens = [
            ("W:Wa3,c3,e3:Bb6,d6,f6", Outcome::WhiteWin),
            ("W:Wa3,g3,e3:Bb6,d6,f6", Outcome::BlackWin),
            ("W:Wc3,g3,e3:Bb6,d6,f6", Outcome::BlackWin),
            ("W:Wg3,h2,e3:Bb6,d6,f6", Outcome::WhiteWin),
        ];
        one_sample_games(&fens, 400)
    }

    /// A small network trained for 30 epochs on the results alone.
    fn config() -> NetConfig {
        NetConfig {
            hidden: 8,
            epochs: 30,
            batch: 16,
            lr: 0.01,
            lambda: 1.0,
            l2: 0.0,
            seed: 3,
            holdout: 10,
            skip_plies: 0,
            start: None,
        }
    }

    /// Fits a network on `skipped`, a position the engine does not consult the network
    /// at, beside an even position won by White that it does. Returns the linear score
    /// and the fitted prediction of each: `[skipped, learnt]`.
    fn fit_beside_a_learnt_position(skipped: (&str, Outcome)) -> [(f32, f32); 2] {
        let games = one_sample_games(
            &[skipped, ("W:Wa3,c3,e3:Bb6,d6,f6", Outcome::WhiteWin)],
            200,
        );
        let linear = Trained::embedded_linear(Variant::Brazilian);
        let (train, valid) = split(&games, &linear, 10, 0);
        let net = fit_net(&train, &valid, 0.01, &config(), &mut |_| {});
        let (mut a, mut b) = (vec![0f32; 8], vec![0f32; 8]);
        let far = (0..train.len()).find(|&i| !train.consulted(i)).unwrap();
        let near = (0..train.len()).find(|&i| train.consulted(i)).unwrap();
        [far, near].map(|i| (train.base[i], net.z(&train, i, &mut a, &mut b)))
    }

    #[test]
    fn positions_beyond_the_range_keep_the_linear_score() {
        // White seven men up, yet lost: were it trained on, the network would learn
        // to lower it. An even position won by White is within the range.
        let [(far, far_z), (near, near_z)] =
            fit_beside_a_learnt_position(("W:W21-28:B1", Outcome::BlackWin));
        assert!(far > NET_RANGE as f32);
        assert_eq!(far_z, far);
        assert!(near_z > near + 10.0);
    }

    #[test]
    fn positions_where_a_side_has_no_men_keep_the_linear_score() {
        // A king against two men, won by White: within the range, yet the engine does
        // not consult the network where a side has only kings, so it is not trained.
        let [(kings, kings_z), (men, men_z)] =
            fit_beside_a_learnt_position(("W:WKc3:Bb8,h8", Outcome::WhiteWin));
        assert!(kings.abs() <= NET_RANGE as f32, "{kings}");
        assert_eq!(kings_z, kings);
        assert!(men_z > men + 10.0);
    }

    #[test]
    fn a_run_started_from_a_network_starts_where_it_ended() {
        let linear = Trained::new(&Weights::zero(4));
        let (train, valid) = split(&games(), &linear, 10, 0);
        let (k, cfg) = (0.01, config());
        let mut trained_loss = 0.0;
        let first = fit_net(&train, &valid, k, &cfg, &mut |r| trained_loss = r.train);
        let q = first.export();
        let mut start_loss = 0.0;
        let warm = NetConfig {
            epochs: 0,
            start: Some(q.clone()),
            ..config()
        };
        let same = fit_net(&train, &valid, k, &warm, &mut |r| start_loss = r.train);
        // The fixed-point network comes back unchanged, and scores as it did.
        assert_eq!(same.export(), q);
        assert!(trained_loss < 0.3, "{trained_loss}");
        assert!(
            (start_loss - trained_loss).abs() < 1e-3,
            "{start_loss} vs {trained_loss}"
        );
        // Training on from it improves on a fresh start given the same few epochs.
        let (mut warm_loss, mut cold_loss) = (0.0, 0.0);
        let short = |start| NetConfig {
            epochs: 2,
            start,
            ..config()
        };
        fit_net(&train, &valid, k, &short(Some(q)), &mut |r| {
            warm_loss = r.train
        });
        fit_net(&train, &valid, k, &short(None), &mut |r| {
            cold_loss = r.train
        });
        assert!(warm_loss < cold_loss, "{warm_loss} vs {cold_loss}");
    }

    #[test]
    fn the_network_learns_an_interaction_and_exports_faithfully() {
        let linear = Trained::new(&Weights::zero(4));
        let (train, valid) = split(&games(), &linear, 10, 0);
        let cfg = config();
        let k = 0.01;
        let mut first = None;
        let mut last = 0.0;
        let net = fit_net(&train, &valid, k, &cfg, &mut |r| {
            if r.epoch == 0 {
                first = Some(r.train);
            }
            last = r.train;
        });
        let first = first.unwrap();
        assert!((first - std::f64::consts::LN_2).abs() < 1e-3, "{first}");
        assert!(last < 0.3, "{first} -> {last}");
        // The engine's integer network agrees with the float one to a hundredth or two.
        let q = net.export();
        let (mut a, mut b) = (vec![0f32; 8], vec![0f32; 8]);
        for g in games().iter().take(4) {
            let mut d = NetData::default();
            d.push_game(g, &linear, 0);
            let float = net.z(&d, 0, &mut a, &mut b);
            let pos = &g.samples[0].pos;
            let int = q.score(pos);
            assert!((float - int as f32).abs() <= 2.0, "{float} vs {int}");
            assert_eq!(q.score(&pos.flip()), int);
        }
        // Deterministic for a seed.
        let again = fit_net(&train, &valid, k, &cfg, &mut |_| {});
        assert_eq!(again.p, net.p);
    }
}
