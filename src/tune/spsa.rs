//! The SPSA update as fishtest runs it: each iteration perturbs every parameter by
//! `±c_k` at once, measures the perturbed pair against each other through an
//! [`Objective`], and moves every parameter along its sign by `a_k / c_k` times the
//! result, with `a_k` and `c_k` decaying over the run.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Fishtest's decay exponent of the learning rate `a_k`.
pub const ALPHA: f64 = 0.602;
/// Fishtest's decay exponent of the perturbation `c_k`.
pub const GAMMA: f64 = 0.101;

/// What SPSA maximises: the result of the engine at `plus` against the engine at
/// `minus`, positive where `plus` did better (for games, the plus engine's wins less
/// its losses).
pub trait Objective {
    /// The result of iteration `k` (from 1) between the parameter vectors `plus` and
    /// `minus`; an error stops the run before the iteration is counted.
    fn compare(&mut self, k: u64, plus: &[f64], minus: &[f64]) -> Result<f64, String>;
}

impl<F: FnMut(u64, &[f64], &[f64]) -> f64> Objective for F {
    fn compare(&mut self, k: u64, plus: &[f64], minus: &[f64]) -> Result<f64, String> {
        Ok(self(k, plus, minus))
    }
}

/// One tuned parameter: its name, range, and the perturbation and rate it ends the
/// run with (fishtest's `c_end` and `r_end`).
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// Its name.
    pub name: String,
    /// Its value at the start of the run.
    pub start: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration (`a_end / c_end²`).
    pub r_end: f64,
}

/// The run's schedule: how many iterations it plans and the stability constant `A`
/// (a tenth of them, as fishtest sets it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Iterations planned: `c_k` and `a_k` reach `c_end` and `r_end·c_end²` there.
    pub planned: u64,
    /// The stability constant `A` of `a_k = a / (A + k)^α`.
    pub big_a: f64,
}

impl Schedule {
    /// The schedule of a run of `planned` iterations.
    pub fn new(planned: u64) -> Schedule {
        Schedule {
            planned: planned.max(1),
            big_a: planned as f64 / 10.0,
        }
    }

    /// `c_k` of `p` at iteration `k` (from 1).
    pub fn c_k(&self, p: &Tuned, k: u64) -> f64 {
        let c = p.c_end * (self.planned as f64).powf(GAMMA);
        c / (k as f64).powf(GAMMA)
    }

    /// `a_k` of `p` at iteration `k` (from 1).
    pub fn a_k(&self, p: &Tuned, k: u64) -> f64 {
        let a = p.r_end * p.c_end * p.c_end * (self.big_a + self.planned as f64).powf(ALPHA);
        a / (self.big_a + k as f64).powf(ALPHA)
    }
}

/// A run's state: the parameters, their values θ, the iterations done and the path
/// of θ, everything a resumed run needs to go on exactly as an uninterrupted one.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The parameters tuned.
    pub params: Vec<Tuned>,
    /// The schedule.
    pub schedule: Schedule,
    /// The seed of every iteration's perturbation signs.
    pub seed: u64,
    /// Iterations done.
    pub k: u64,
    /// θ after each iteration, θ at the start first (`history[k]` after `k`).
    pub history: Vec<Vec<f64>>,
    /// The sum of every iteration's result.
    pub total: f64,
}

impl Spsa {
    /// A run of `planned` iterations over `params` from their starts.
    pub fn new(params: Vec<Tuned>, planned: u64, seed: u64) -> Spsa {
        let start = params.iter().map(|p| p.start).collect();
        Spsa {
            params,
            schedule: Schedule::new(planned),
            seed,
            k: 0,
            history: vec![start],
            total: 0.0,
        }
    }

    /// θ now.
    pub fn theta(&self) -> &[f64] {
        self.history.last().map(Vec::as_slice).unwrap_or(&[])
    }

    /// The signs Δ of iteration `k`: drawn from the seed and `k` alone, so that a
    /// resumed run draws what the uninterrupted one would.
    pub fn signs(&self, k: u64) -> Vec<f64> {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(k);
        self.params
            .iter()
            .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
            .collect()
    }

    /// Play iteration `k + 1`: perturb θ by `±c_k·Δ`, compare, update and clamp.
    pub fn step(&mut self, objective: &mut dyn Objective) -> Result<f64, String> {
        let k = self.k + 1;
        let delta = self.signs(k);
        let theta = self.theta().to_vec();
        let c: Vec<f64> = self
            .params
            .iter()
            .map(|p| self.schedule.c_k(p, k))
            .collect();
        let clamp = |p: &Tuned, v: f64| v.clamp(p.min, p.max);
        let perturbed = |sign: f64| -> Vec<f64> {
            (0..theta.len())
                .map(|i| clamp(&self.params[i], theta[i] + sign * c[i] * delta[i]))
                .collect()
        };
        let (plus, minus) = (perturbed(1.0), perturbed(-1.0));
        let result = objective.compare(k, &plus, &minus)?;
        let next = (0..theta.len())
            .map(|i| {
                let p = &self.params[i];
                let step = self.schedule.a_k(p, k) / c[i] * result * delta[i];
                clamp(p, theta[i] + step)
            })
            .collect();
        self.history.push(next);
        self.k = k;
        self.total += result;
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quadratic() -> Vec<Tuned> {
        vec![Tuned {
            name: "x".into(),
            start: 0.0,
            min: -20.0,
            max: 20.0,
            c_end: 0.5,
            r_end: 0.05,
        }]
    }

    /// A noisy comparison of `-(x - 7)²` at the two points.
    fn noisy(seed: u64) -> impl FnMut(u64, &[f64], &[f64]) -> f64 {
        move |k, plus, minus| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ k);
            let f = |x: f64| -(x - 7.0).powi(2);
            f(plus[0]) - f(minus[0]) + rng.gen_range(-2.0..2.0)
        }
    }

    #[test]
    fn a_noisy_quadratic_converges_to_its_maximum() {
        let mut spsa = Spsa::new(quadratic(), 2000, 1);
        let mut f = noisy(9);
        for _ in 0..2000 {
            spsa.step(&mut f).unwrap();
        }
        let x = spsa.theta()[0];
        assert!((x - 7.0).abs() < 0.5, "θ ended at {x}");
        assert_eq!(spsa.history.len(), 2001);
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let p = &quadratic()[0];
        let s = Schedule::new(100);
        assert!((s.c_k(p, 100) - p.c_end).abs() < 1e-12);
        let r = s.a_k(p, 100) / (s.c_k(p, 100) * s.c_k(p, 100));
        assert!((r - p.r_end).abs() < 1e-12);
        assert!(s.c_k(p, 1) > s.c_k(p, 50) && s.a_k(p, 1) > s.a_k(p, 50));
    }

    #[test]
    fn values_stay_within_their_range() {
        let mut spsa = Spsa::new(quadratic(), 10, 3);
        // A result far too large pushes θ past the bound: it is clamped.
        let mut f = |_: u64, _: &[f64], _: &[f64]| 1e9;
        spsa.step(&mut f).unwrap();
        let x = spsa.theta()[0];
        assert!(x == 20.0 || x == -20.0, "{x}");
    }
}
