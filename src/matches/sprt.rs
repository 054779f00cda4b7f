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

/// The root `x` of the secular equation `Σ p_i a_i / (1 + x a_i) = 0` with every
/// `1 + x a_i > 0`, found by bisection (the sum decreases in `x`); `None` unless the
/// `a_i` take both signs (no root then).
fn secular<const N: usize>(a: &[f64; N], p: &[f64; N]) -> Option<f64> {
    let f = |x: f64| -> f64 { a.iter().zip(p).map(|(ai, q)| q * ai / (1.0 + x * ai)).sum() };
    let (max, min) = a
        .iter()
        .fold((f64::MIN, f64::MAX), |(hi, lo), &v| (hi.max(v), lo.min(v)));
    if !(max > 0.0 && min < 0.0) {
        return None;
    }
    // x in (−1/max a, −1/min a).
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    for _ in 0..BISECTIONS {
        let mid = (lo + hi) / 2.0;
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((lo + hi) / 2.0)
}

/// Bisection steps of [`secular`]: the interval then lies within rounding.
const BISECTIONS: usize = 200;

/// The maximum-likelihood distribution with expected score `s` given the observed
/// distribution `p` over `values`: `p_i / (1 + x (a_i − s))` where `x` solves the
/// secular equation (fishtest's `MLE_expected`).
fn mle_with_score<const N: usize>(values: &[f64; N], p: &[f64; N], s: f64) -> [f64; N] {
    let a = values.map(|v| v - s);
    // s lies strictly between the smallest and the largest value.
    let x = secular(&a, p).unwrap_or(0.0);
    std::array::from_fn(|i| p[i] / (1.0 + x * a[i]))
}

/// Most fixed-point steps of [`mle_with_t`].
const T_STEPS: usize = 100;

/// The maximum-likelihood distribution with t-value `(μ − reference) / σ` equal to
/// `t` given the observed distribution `p` over `values` (fishtest's `MLE_t_value`,
/// Van den Bergh's "Normalized Elo: practical", §4.1): from the uniform distribution,
/// repeatedly `q_i = p_i / (1 + x a_i)` with `a_i = v_i − reference − t σ (1 + ((μ −
/// v_i) / σ)²) / 2` at the previous `q`'s `μ` and `σ`, until it settles. `None`
/// where a step's secular equation has no root (a `t` beyond what the values allow).
fn mle_with_t<const N: usize>(
    values: &[f64; N],
    p: &[f64; N],
    reference: f64,
    t: f64,
) -> Option<[f64; N]> {
    let mut q = [1.0 / N as f64; N];
    for _ in 0..T_STEPS {
        let (mu, var) = stats(values, &q);
        let sigma = var.sqrt();
        let a: [f64; N] = std::array::from_fn(|i| {
            values[i] - reference - t * sigma * (1.0 + ((mu - values[i]) / sigma).powi(2)) / 2.0
        });
        let x = secular(&a, p)?;
        let next: [f64; N] = std::array::from_fn(|i| p[i] / (1.0 + x * a[i]));
        let change = next
            .iter()
            .zip(&q)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        q = next;
        if change < 1e-12 {
            break;
        }
    }
    Some(q)
}

/// The normal approximation of the LLR in normalized Elo (fishtest's
/// `LLR_normalized_alt`): `(games / 2) ln((1 + (t̂ − t0)²) / (1 + (t̂ − t1)²))` with
/// `t̂ = (ŝ − ½) / σ̂` per game. Zero without results.
fn normalized_alt<const N: usize>(
    nelo0: f64,
    nelo1: f64,
    values: &[f64; N],
    counts: &[u32; N],
    games_per_count: f64,
) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let (n, p) = distribution(counts);
    let (s, var) = stats(values, &p);
    let sigma_per_game = (games_per_count * var).sqrt();
    let (t0, t1) = (nelo0 / NELO_PER_T, nelo1 / NELO_PER_T);
    let t = (s - 0.5) / sigma_per_game;
    games_per_count * n / 2.0 * ((1.0 + (t - t0).powi(2)) / (1.0 + (t - t1).powi(2))).ln()
}

/// The generalized LLR in normalized Elo (fishtest's `LLR_normalized`): the
/// log-likelihood of the results under the maximum-likelihood multinomial whose
/// t-value is that of `nelo1`, minus the same for `nelo0`. A pair's t-value is
/// `√2` times the per-game one. Where that multinomial does not exist (bounds far
/// beyond the results), [`normalized_alt`] stands in. Zero without results.
fn normalized_exact<const N: usize>(
    nelo0: f64,
    nelo1: f64,
    values: &[f64; N],
    counts: &[u32; N],
    games_per_count: f64,
) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let (n, p) = distribution(counts);
    let scale = games_per_count.sqrt() / NELO_PER_T;
    let fitted = (
        mle_with_t(values, &p, 0.5, nelo0 * scale),
        mle_with_t(values, &p, 0.5, nelo1 * scale),
    );
    match fitted {
        (Some(p0), Some(p1)) => {
            n * (0..N)
                .map(|i| p[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
        }
        _ => normalized_alt(nelo0, nelo1, values, counts, games_per_count),
    }
}

/// Normalized Elo per unit of t-value (per-game score difference over its standard
/// deviation): `800 / ln 10`, so that without draws and for small differences the
/// normalized and the logistic Elo agree.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

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

/// The generalized LLR of game pairs in normalized Elo (fishtest's
/// `LLR_normalized` on pentanomial results). Zero without pairs.
pub fn llr_normalized_pairs(nelo0: f64, nelo1: f64, pairs: &[u32; 5]) -> f64 {
    normalized_exact(nelo0, nelo1, &PAIR_VALUES, pairs, 2.0)
}

/// The normal approximation of [`llr_normalized_pairs`] (fishtest's
/// `LLR_normalized_alt`). Zero without pairs.
pub fn llr_normalized_alt_pairs(nelo0: f64, nelo1: f64, pairs: &[u32; 5]) -> f64 {
    normalized_alt(nelo0, nelo1, &PAIR_VALUES, pairs, 2.0)
}

/// The generalized LLR of single games in normalized Elo (trinomial results). Zero
/// without games.
pub fn llr_normalized(nelo0: f64, nelo1: f64, wins: u32, draws: u32, losses: u32) -> f64 {
    normalized_exact(nelo0, nelo1, &GAME_VALUES, &[wins, draws, losses], 1.0)
}

/// The scale of an SPRT's bounds.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum EloModel {
    /// Logistic Elo: the expected score `1 / (1 + 10^(−e/400))`.
    #[default]
    Logistic,
    /// Normalized Elo: the score's distance from ½ over its standard deviation per
    /// game, times `800 / ln 10` (Van den Bergh; fishtest's `normalized`), which
    /// measures how hard a difference is to detect whatever the draw rate.
    Normalized,
}

/// An SPRT: the two Elo hypotheses, their scale and the error rates.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sprt {
    /// Whether `elo0` and `elo1` are logistic or normalized Elo.
    pub model: EloModel,
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
            model: EloModel::Logistic,
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The same test with its bounds in normalized Elo.
    pub fn normalized(self) -> Sprt {
        Sprt {
            model: EloModel::Normalized,
            ..self
        }
    }

    /// The lower (accept H0) and upper (accept H1) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR of game pairs ([`llr_exact_pairs`], or [`llr_normalized_pairs`] for
    /// normalized bounds), `pairs[k]` the pairs in which the first player scored `k`
    /// half-points.
    pub fn llr(&self, pairs: &[u32; 5]) -> f64 {
        match self.model {
            EloModel::Logistic => llr_exact_pairs(self.elo0, self.elo1, pairs),
            EloModel::Normalized => llr_normalized_pairs(self.elo0, self.elo1, pairs),
        }
    }

    /// The name of the bounds' unit in reports: `Elo` or `nElo`.
    pub fn unit(&self) -> &'static str {
        match self.model {
            EloModel::Logistic => "Elo",
            EloModel::Normalized => "nElo",
        }
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
        let prefix = match self.model {
            EloModel::Logistic => "",
            EloModel::Normalized => "n",
        };
        write!(
            f,
            "SPRT {prefix}elo0={} {prefix}elo1={} alpha={} beta={}",
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

/// A malformed `[nelo:]elo0,elo1[,alpha,beta]`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SprtError {
    /// Not two or four comma-separated numbers.
    #[error(
        "expected elo0,elo1 or elo0,elo1,alpha,beta, optionally after nelo: \
         (e.g. 0,10 or 0,10,0.05,0.05 or nelo:0,5)"
    )]
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
    /// `elo0,elo1[,alpha,beta]` in logistic Elo, or after `nelo:` in normalized Elo.
    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let trimmed = text.trim();
        if let Some(rest) = trimmed.strip_prefix("nelo:") {
            return rest.parse::<Sprt>().map(Sprt::normalized);
        }
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

    /// (nelo0, nelo1, pairs, exact GSPRT, normal approximation), from `python3
    /// tools/sprt/sprt_reference.py`.
    const NELO_REFERENCE: [(f64, f64, [u32; 5], f64, f64); 5] = [
        (0.0, 5.0, [7, 177, 1968, 218, 11], 1.760857, 1.759855),
        (0.0, 10.0, [7, 177, 1968, 218, 11], 2.537695, 2.534588),
        (-3.0, 1.0, [40, 300, 900, 330, 45], 0.947115, 0.947167),
        (0.0, 20.0, [0, 0, 5, 0, 0], -0.029411, -0.016554),
        (0.0, 40.0, [1, 12, 30, 25, 8], 3.582547, 3.622855),
    ];

    #[test]
    fn normalized_llr_matches_the_reference_values() {
        for (nelo0, nelo1, pairs, exact, alt) in NELO_REFERENCE {
            let got = llr_normalized_pairs(nelo0, nelo1, &pairs);
            assert!((got - exact).abs() < 2e-6, "exact {pairs:?}: {got}");
            let got_alt = llr_normalized_alt_pairs(nelo0, nelo1, &pairs);
            assert!((got_alt - alt).abs() < 2e-6, "alt {pairs:?}: {got_alt}");
            let sprt = Sprt::new(nelo0, nelo1, 0.05, 0.05).unwrap().normalized();
            assert_eq!(sprt.llr(&pairs), got);
        }
        // Games one by one: +10 =20 -30 and +1000 =2000 -950 against nElo 0 and 20.
        let got = llr_normalized(0.0, 20.0, 10, 20, 30);
        assert!((got + 1.506696).abs() < 2e-6, "{got}");
        let got = llr_normalized(0.0, 20.0, 1000, 2000, 950);
        assert!((got + 2.443371).abs() < 2e-6, "{got}");
        assert_eq!(llr_normalized_pairs(0.0, 5.0, &[0; 5]), 0.0);
        assert!((NELO_PER_T - 347.435_585_522_601_46).abs() < 1e-9);
    }

    /// Pentanomial probabilities with normalized Elo `nelo`: a symmetric base
    /// distribution tilted by `exp(λ v)`, `λ` found by bisection.
    fn tilted(base: [f64; 5], nelo: f64) -> [f64; 5] {
        let at = |lambda: f64| -> ([f64; 5], f64) {
            let w: [f64; 5] = std::array::from_fn(|i| base[i] * (lambda * PAIR_VALUES[i]).exp());
            let total: f64 = w.iter().sum();
            let p = w.map(|x| x / total);
            let (s, var) = stats(&PAIR_VALUES, &p);
            (p, (s - 0.5) / (2.0 * var).sqrt() * NELO_PER_T)
        };
        let (mut lo, mut hi) = (-20.0, 20.0);
        for _ in 0..100 {
            let mid = (lo + hi) / 2.0;
            if at(mid).1 < nelo {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        at((lo + hi) / 2.0).0
    }

    /// Simulated matches with a seeded generator: the test in normalized Elo
    /// accepts H1 about as often as α says when H0 holds, and H0 about as often as
    /// β says when H1 holds. Wald's bounds make the test slightly conservative, so
    /// the band is from well below to a little above the nominal rate.
    #[test]
    fn normalized_sprt_error_rates_by_simulation() {
        use rand::{Rng, SeedableRng};
        let sprt: Sprt = "nelo:0,40".parse().unwrap();
        // 80 % of the pairs drawn both ways or split.
        let base = [0.02, 0.08, 0.80, 0.08, 0.02];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let runs = 300;
        for (true_nelo, wrong) in [(0.0, Decision::AcceptH1), (40.0, Decision::AcceptH0)] {
            let p = tilted(base, true_nelo);
            let mut errors = 0;
            for _ in 0..runs {
                let mut pairs = [0u32; 5];
                let decision = loop {
                    let u: f64 = rng.gen();
                    let mut k = 0;
                    let mut acc = p[0];
                    while u >= acc && k < 4 {
                        k += 1;
                        acc += p[k];
                    }
                    pairs[k] += 1;
                    if let Some(d) = sprt.state(&pairs).decision {
                        break d;
                    }
                };
                errors += usize::from(decision == wrong);
            }
            let rate = errors as f64 / runs as f64;
            assert!(
                (0.005..=0.09).contains(&rate),
                "nElo {true_nelo}: wrong decision in {errors} of {runs}"
            );
        }
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
        let n: Sprt = "nelo:0,5".parse().unwrap();
        assert_eq!(n, Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().normalized());
        assert_eq!(n.to_string(), "SPRT nelo0=0 nelo1=5 alpha=0.05 beta=0.05");
        assert_eq!((n.model, n.unit()), (EloModel::Normalized, "nElo"));
        assert_eq!(s.model, EloModel::Logistic);
        assert_eq!("nelo:5".parse::<Sprt>(), Err(SprtError::Form));
        for bad in [
            "5,0",
            "0,0",
            "0,5,0,0.05",
            "0,5,0.05,0.7",
            "0,inf",
            "0,NaN",
            "nelo:5,0",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }
}
