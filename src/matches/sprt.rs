//! Sequential probability ratio test (SPRT) in logistic Elo, as fishtest computes it,
//! on game pairs (pentanomial results) or on single games (trinomial results).
//!
//! The hypotheses are H0: Elo = `elo0` and H1: Elo = `elo1`, where an Elo difference
//! `e` means the expected score `L(e) = 1 / (1 + 10^(-e/400))`. After each game the
//! generalized log-likelihood ratio (GSPRT) of the results is compared with the
//! bounds of Wald's test: `ln(β / (1 − α))` (accept H0) and `ln((1 − β) / α)` (accept
//! H1).
//!
//! A match plays each opening twice, colours swapped, and the two games of a pair
//! are not independent: an opening that favours one side tends to give each player
//! one win, and the trinomial model, which counts those as two independent decisive
//! games, overstates the variance of the score. The test therefore counts the pairs
//! by the first player's points in them (0, ½, 1, 1½, 2: the pentanomial results) and
//! takes a pair as one observation scoring the mean of its two games, as fishtest
//! does. The trinomial forms stay for single games.
//!
//! Two forms of the LLR are given, both from fishtest's
//! `server/fishtest/stats/LLRcalc.py` (M. Van den Bergh, "GSPRT approximation" and
//! "support_MLE_multinomial" notes), with its regularization: a count of zero is
//! replaced by 0.001.
//! - [`llr_normal`], the normal (Brownian) approximation `LLR_alt2`:
//!   `LLR = N · (s1 − s0) · (2ŝ − s0 − s1) / (2σ̂²)`, with `ŝ` the observed score per
//!   observation and `σ̂²` its variance;
//! - [`llr_exact`], the generalized LLR itself (`LLR_logistic`): the log-likelihood of
//!   the results under the maximum-likelihood multinomial with score `s1`, minus the
//!   same with `s0`.
//!
//! They agree closely once wins and losses both occur (e.g. 1.4316 against 1.4310
//! for +1000 =2000 −950 with [−3, 1]); with few decisive games the approximation
//! overshoots badly (seven draws and nothing else give −10.1 instead of −0.2, which
//! would accept H0 after eight draws). The match therefore stops on
//! [`llr_exact_pairs`], and the tests check every form against values computed
//! independently by `tools/sprt/sprt_reference.py`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Count that replaces a zero (fishtest's `regularize`).
const EPSILON: f64 = 1e-3;

/// The expected score of an Elo difference `elo` (logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The scores of a win, a draw and a loss.
const GAME_VALUES: [f64; 3] = [1.0, 0.5, 0.0];

/// The score of a game pair by the first player's points in it (0, ½, 1, 1½, 2),
/// as the mean of its two games.
pub(crate) const PAIR_VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The regularized counts as a distribution over their values: the total and the
/// probability of each.
fn distribution<const N: usize>(counts: &[u32; N]) -> (f64, [f64; N]) {
    let regular = counts.map(|c| if c == 0 { EPSILON } else { f64::from(c) });
    let n: f64 = regular.iter().sum();
    (n, regular.map(|c| c / n))
}

/// Mean and variance of the score under `p` over `values`.
fn stats<const N: usize>(values: &[f64; N], p: &[f64; N]) -> (f64, f64) {
    let s: f64 = values.iter().zip(p).map(|(a, q)| a * q).sum();
    let var = values.iter().zip(p).map(|(a, q)| q * (a - s).powi(2)).sum();
    (s, var)
}

/// The normal approximation of the LLR (fishtest's `LLR_alt2` times N) of `counts`
/// over `values`. Zero without results.
fn normal<const N: usize>(elo0: f64, elo1: f64, values: &[f64; N], counts: &[u32; N]) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let (n, p) = distribution(counts);
    let (s, var) = stats(values, &p);
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}

/// The maximum-likelihood distribution with expected score `s` given the observed
/// distribution `p` over `values`: `p_i / (1 + x (a_i − s))` where `x` solves the
/// secular equation `Σ p_i (a_i − s) / (1 + x (a_i − s)) = 0` (fishtest's
/// `MLE_expected`), found by bisection (the sum decreases in `x`).
fn mle_with_score<const N: usize>(values: &[f64; N], p: &[f64; N], s: f64) -> [f64; N] {
    let a = values.map(|v| v - s);
    let f = |x: f64| -> f64 { a.iter().zip(p).map(|(ai, q)| q * ai / (1.0 + x * ai)).sum() };
    // 1 + x·a_i > 0 for every i: x in (−1/max a, −1/min a), max a > 0 > min a.
    let (max, min) = a
        .iter()
        .fold((f64::MIN, f64::MAX), |(hi, lo), &v| (hi.max(v), lo.min(v)));
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = (lo + hi) / 2.0;
    std::array::from_fn(|i| p[i] / (1.0 + x * a[i]))
}

/// The generalized log-likelihood ratio of H1 (score `L(elo1)`) against H0 (score
/// `L(elo0)`) of `counts` over `values` (fishtest's `LLR_logistic`). Zero without
/// results.
fn exact<const N: usize>(elo0: f64, elo1: f64, values: &[f64; N], counts: &[u32; N]) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let (n, p) = distribution(counts);
    let p0 = mle_with_score(values, &p, expected_score(elo0));
    let p1 = mle_with_score(values, &p, expected_score(elo1));
    n * (0..N)
        .map(|i| p[i] * (p1[i].ln() - p0[i].ln()))
        .sum::<f64>()
}

/// The normal approximation of the LLR of single games:
/// `N (s1 − s0)(2ŝ − s0 − s1) / (2σ̂²)`. Zero without games.
pub fn llr_normal(elo0: f64, elo1: f64, wins: u32, draws: u32, losses: u32) -> f64 {
    normal(elo0, elo1, &GAME_VALUES, &[wins, draws, losses])
}

/// The generalized LLR of single games (trinomial results). Zero without games.
pub fn llr_exact(elo0: f64, elo1: f64, wins: u32, draws: u32, losses: u32) -> f64 {
    exact(elo0, elo1, &GAME_VALUES, &[wins, draws, losses])
}

/// The normal approximation of the LLR of game pairs, `pairs[k]` the pairs in which
/// the first player scored `k` half-points. Zero without pairs.
pub fn llr_normal_pairs(elo0: f64, elo1: f64, pairs: &[u32; 5]) -> f64 {
    normal(elo0, elo1, &PAIR_VALUES, pairs)
}

/// The generalized LLR of game pairs (pentanomial results), `pairs[k]` the pairs in
/// which the first player scored `k` half-points. Zero without pairs.
pub fn llr_exact_pairs(elo0: f64, elo1: f64, pairs: &[u32; 5]) -> f64 {
    exact(elo0, elo1, &PAIR_VALUES, pairs)
}

/// An SPRT: the two Elo hypotheses and the error rates.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sprt {
    /// Elo difference of H0.
    pub elo0: f64,
    /// Elo difference of H1 (greater than `elo0`).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// The outcome of an SPRT.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Decision {
    /// LLR at or below the lower bound: H0 (Elo = elo0) accepted.
    AcceptH0,
    /// LLR at or above the upper bound: H1 (Elo = elo1) accepted.
    AcceptH1,
}

/// The state of an SPRT after some games.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct SprtState {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// Lower bound `ln(β / (1 − α))`.
    pub lower: f64,
    /// Upper bound `ln((1 − β) / α)`.
    pub upper: f64,
    /// The decision, once a bound is reached.
    pub decision: Option<Decision>,
}

impl Sprt {
    /// An SPRT of `elo0` against `elo1` with error rates `alpha` and `beta`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        let finite = [elo0, elo1, alpha, beta].iter().all(|v| v.is_finite());
        if !finite || elo0.abs() > 1000.0 || elo1.abs() > 1000.0 {
            return Err(SprtError::Value("Elo values must be numbers within ±1000"));
        }
        if elo0 >= elo1 {
            return Err(SprtError::Value("elo0 must be less than elo1"));
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err(SprtError::Value("alpha and beta must be between 0 and 0.5"));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower (accept H0) and upper (accept H1) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR of game pairs ([`llr_exact_pairs`]), `pairs[k]` the pairs in which
    /// the first player scored `k` half-points.
    pub fn llr(&self, pairs: &[u32; 5]) -> f64 {
        llr_exact_pairs(self.elo0, self.elo1, pairs)
    }

    /// The LLR, the bounds and the decision for the game pairs.
    pub fn state(&self, pairs: &[u32; 5]) -> SprtState {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            Some(Decision::AcceptH1)
        } else if llr <= lower {
            Some(Decision::AcceptH0)
        } else {
            None
        };
        SprtState {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SPRT elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl fmt::Display for SprtState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LLR {:.2} ({:.2}, {:.2})",
            self.llr + 0.0,
            self.lower,
            self.upper
        )?;
        match self.decision {
            Some(Decision::AcceptH0) => f.write_str(" H0 accepted"),
            Some(Decision::AcceptH1) => f.write_str(" H1 accepted"),
            None => Ok(()),
        }
    }
}

/// A malformed `elo0,elo1[,alpha,beta]`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SprtError {
    /// Not two or four comma-separated numbers.
    #[error("expected elo0,elo1 or elo0,elo1,alpha,beta (e.g. 0,10 or 0,10,0.05,0.05)")]
    Form,
    /// A field that is not a number.
    #[error("{0:?} is not a number")]
    Number(String),
    /// Numbers out of range.
    #[error("{0}")]
    Value(&'static str),
}

impl FromStr for Sprt {
    type Err = SprtError;
    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let values = text
            .split(',')
            .map(|f| {
                f.trim()
                    .parse::<f64>()
                    .map_err(|_| SprtError::Number(f.trim().to_string()))
            })
            .collect::<Result<Vec<f64>, _>>()?;
        match values[..] {
            [elo0, elo1] => Sprt::new(elo0, elo1, 0.05, 0.05),
            [elo0, elo1, alpha, beta] => Sprt::new(elo0, elo1, alpha, beta),
            _ => Err(SprtError::Form),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (elo0, elo1, wins, draws, losses, normal approximation, exact GSPRT), from
    /// `python3 tools/sprt/sprt_reference.py`.
    const REFERENCE: [(f64, f64, u32, u32, u32, f64, f64); 6] = [
        (0.0, 5.0, 10, 20, 30, -0.5292280304, -0.440255),
        (0.0, 5.0, 30, 20, 10, 0.5068637357, 0.423169),
        (-3.0, 1.0, 1000, 2000, 950, 1.4316175747, 1.431016),
        (0.0, 10.0, 12, 0, 3, 0.3949477210, 0.252845),
        (0.0, 10.0, 0, 7, 0, -10.1483589210, -0.198790),
        (0.0, 2.0, 5123, 10050, 5000, 0.7449785556, 0.744942),
    ];

    /// (elo0, elo1, pairs by the first player's half-points, normal approximation,
    /// exact GSPRT), from `python3 tools/sprt/sprt_reference.py`.
    const PAIR_REFERENCE: [(f64, f64, [u32; 5], f64, f64); 5] = [
        (0.0, 10.0, [7, 177, 1968, 218, 11], -5.7373823302, -5.493624),
        (0.0, 5.0, [7, 177, 1968, 218, 11], 2.1671388022, 2.170532),
        (0.0, 10.0, [0, 0, 5, 0, 0], -4.1464477282, -0.140507),
        (0.0, 200.0, [0, 0, 0, 1, 6], 77.0649082438, 2.928629),
        (-3.0, 1.0, [40, 300, 900, 330, 45], 1.8917627817, 1.886799),
    ];

    #[test]
    fn llr_matches_the_fishtest_reference_values() {
        for (elo0, elo1, w, d, l, normal, exact) in REFERENCE {
            let got = llr_normal(elo0, elo1, w, d, l);
            assert!((got - normal).abs() < 1e-7, "normal {w} {d} {l}: {got}");
            let got = llr_exact(elo0, elo1, w, d, l);
            assert!((got - exact).abs() < 1e-5, "exact {w} {d} {l}: {got}");
        }
        for (elo0, elo1, pairs, normal, exact) in PAIR_REFERENCE {
            let got = llr_normal_pairs(elo0, elo1, &pairs);
            assert!((got - normal).abs() < 1e-7, "normal {pairs:?}: {got}");
            let got = llr_exact_pairs(elo0, elo1, &pairs);
            assert!((got - exact).abs() < 1e-5, "exact {pairs:?}: {got}");
            let sprt = Sprt::new(elo0, elo1, 0.05, 0.05).unwrap();
            assert_eq!(sprt.llr(&pairs), got);
        }
        assert_eq!(llr_exact_pairs(0.0, 5.0, &[0; 5]), 0.0);
        assert_eq!(llr_normal(0.0, 5.0, 0, 0, 0), 0.0);
        assert_eq!(llr_exact(0.0, 5.0, 0, 0, 0), 0.0);
        assert!((expected_score(0.0) - 0.5).abs() < 1e-15);
        assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn bounds_and_decisions() {
        let sprt: Sprt = "0,5".parse().unwrap();
        let (lo, hi) = sprt.bounds();
        assert!((lo + 2.9444389792).abs() < 1e-9 && (hi - 2.9444389792).abs() < 1e-9);
        let asym: Sprt = "0, 5, 0.05, 0.1".parse().unwrap();
        let (lo, hi) = asym.bounds();
        assert!((lo + 2.2512917986).abs() < 1e-9 && (hi - 2.8903717579).abs() < 1e-9);
        assert_eq!(sprt.state(&[5, 10, 20, 10, 5]).decision, None);
        assert_eq!(sprt.state(&[0; 5]).llr, 0.0);
        // A clearly stronger first player: H1; clearly weaker: H0.
        let h1 = sprt.state(&[100, 200, 300, 300, 200]);
        assert_eq!(h1.decision, Some(Decision::AcceptH1), "{h1}");
        assert!(h1.to_string().ends_with("H1 accepted"));
        let h0 = sprt.state(&[200, 300, 300, 200, 100]);
        assert_eq!(h0.decision, Some(Decision::AcceptH0), "{h0}");
        assert_eq!(
            sprt.state(&[40, 300, 900, 330, 45]).to_string(),
            "LLR 0.80 (-2.94, 2.94)"
        );
    }

    #[test]
    fn parses_and_rejects_specs() {
        let s: Sprt = "-1.5,4.5".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.5, 4.5, 0.05, 0.05));
        assert_eq!(
            "0,5,0.1,0.2".parse::<Sprt>().unwrap(),
            Sprt::new(0.0, 5.0, 0.1, 0.2).unwrap()
        );
        assert_eq!("5".parse::<Sprt>(), Err(SprtError::Form));
        assert_eq!("0,5,0.05".parse::<Sprt>(), Err(SprtError::Form));
        assert_eq!("0,x".parse::<Sprt>(), Err(SprtError::Number("x".into())));
        for bad in ["5,0", "0,0", "0,5,0,0.05", "0,5,0.05,0.7", "0,inf", "0,NaN"] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }
}
