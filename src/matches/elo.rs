//! Elo difference from a match score, with a Wilson score interval (widened for the
//! draws' share of the variance), and the likelihood of superiority. A Wilson bound
//! stays meaningful for one-sided scores: after 10–0 the difference is at least
//! about +166 at 95 %, where the normal interval would be a point.

use std::fmt;

/// An Elo estimate: the difference and its confidence interval.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct EloEstimate {
    /// Score fraction of the first player, 0…1.
    pub score: f64,
    /// Elo difference (first minus second); clamped to ±1200 for 0 % or 100 %,
    /// where it has no finite estimate (only the interval's bound means something).
    pub elo: f64,
    /// Lower end of the interval, in Elo.
    pub low: f64,
    /// Upper end of the interval, in Elo.
    pub high: f64,
}

impl fmt::Display for EloEstimate {
    /// `+190.8 (95%: +90.3 to +314.5)`; for an all-won score only its lower bound,
    /// `≥ +166.3 (95%)`, and for an all-lost score its upper bound.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.score >= 1.0 {
            write!(f, "≥ {:+.1} (95%)", self.low + 0.0)
        } else if self.score <= 0.0 {
            write!(f, "≤ {:+.1} (95%)", self.high + 0.0)
        } else {
            write!(
                f,
                "{:+.1} (95%: {:+.1} to {:+.1})",
                self.elo + 0.0,
                self.low + 0.0,
                self.high + 0.0
            )
        }
    }
}

/// Largest difference reported; a perfect score has no finite estimate.
const CLAMP: f64 = 1200.0;

/// The Elo difference that gives expected score `s`.
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        -CLAMP
    } else if s >= 1.0 {
        CLAMP
    } else {
        (-400.0 * (1.0 / s - 1.0).log10()).clamp(-CLAMP, CLAMP)
    }
}

/// Estimate from wins, draws and losses of the first player; `z` is the normal
/// quantile of the interval (1.96 for 95 %). `None` without games.
///
/// The interval holds the expected scores `p` with `(s − p)² ≤ z² σ²(p) / n`, where
/// `σ²(p) = p(1 − p) − d/4` is the variance of one game's score at expected score `p`
/// with draw rate `d` (the Wilson interval when there are no draws). The draw rate is
/// taken as `draws / (n + 2)`, as if one more win and one more loss had been seen, so
/// that an all-drawn match still has an interval of some width.
pub fn estimate(wins: u32, draws: u32, losses: u32, z: f64) -> Option<EloEstimate> {
    let games = wins + draws + losses;
    if games == 0 {
        return None;
    }
    let n = f64::from(games);
    let s = (f64::from(wins) + f64::from(draws) / 2.0) / n;
    let d = f64::from(draws) / (n + 2.0);
    let k = z * z / n;
    // (1 + k) p² − (2s + k) p + (s² + k d / 4) = 0.
    let (a, b, c) = (1.0 + k, 2.0 * s + k, s * s + k * d / 4.0);
    let root = (b * b - 4.0 * a * c).max(0.0).sqrt();
    let (lo, hi) = ((b - root) / (2.0 * a), (b + root) / (2.0 * a));
    Some(EloEstimate {
        score: s,
        elo: elo_of_score(s),
        low: elo_of_score(lo),
        high: elo_of_score(hi),
    })
}

/// Estimate from game pairs, `pairs[k]` the pairs (two games of one opening, colours
/// swapped) in which the first player scored `k` half-points; `z` is the normal
/// quantile of the interval. `None` without pairs.
///
/// A pair is one observation scoring the mean of its two games, so the interval is
/// the mean pair score within `z` standard errors, `s ± z √(σ² / n)`. Its variance
/// `σ²` is taken as if one more pair had scored ½ and one more 1½, so that a match of
/// identical pairs (all drawn, say) still has an interval of some width. Where the
/// openings favour one side, the two games of a pair tend to cancel (each player
/// wins with the better side), and this interval is narrower than [`estimate`]'s,
/// which takes the games as independent.
pub fn estimate_pairs(pairs: &[u32; 5], z: f64) -> Option<EloEstimate> {
    let n = f64::from(pairs.iter().sum::<u32>());
    if n == 0.0 {
        return None;
    }
    let values = super::sprt::PAIR_VALUES;
    let s = pairs
        .iter()
        .zip(values)
        .map(|(&c, v)| f64::from(c) * v)
        .sum::<f64>()
        / n;
    let mut padded = pairs.map(f64::from);
    padded[1] += 1.0;
    padded[3] += 1.0;
    let var = padded
        .iter()
        .zip(values)
        .map(|(c, v)| c * (v - s).powi(2))
        .sum::<f64>()
        / (n + 2.0);
    let half = z * (var / n).sqrt();
    Some(EloEstimate {
        score: s,
        elo: elo_of_score(s),
        low: elo_of_score((s - half).max(0.0)),
        high: elo_of_score((s + half).min(1.0)),
    })
}

/// A normalized Elo estimate and its confidence interval.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct NormalizedElo {
    /// Normalized Elo: the score's distance from ½ over its standard deviation per
    /// game, times `800 / ln 10`.
    pub nelo: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

impl fmt::Display for NormalizedElo {
    /// `+12.3 (95%: +1.2 to +23.4)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:+.1} (95%: {:+.1} to {:+.1})",
            self.nelo + 0.0,
            self.low + 0.0,
            self.high + 0.0
        )
    }
}

/// Normalized Elo of `counts` over `values` (each observation `games` games) with a
/// `z` interval, as fishtest's statistics page computes it: with the counts'
/// zeros replaced by 0.001, their mean `μ`, variance `σ²`, skewness `γ` and excess
/// kurtosis `κ`, the t-value `t = (μ − ½) / σ` has the asymptotic variance
/// `1 − tγ + t²(κ + 2)/4` per observation; the per-game t-value is `t / √games`.
fn normalized<const N: usize>(
    values: &[f64; N],
    counts: &[u32; N],
    games: f64,
    z: f64,
) -> Option<NormalizedElo> {
    if counts.iter().all(|&c| c == 0) {
        return None;
    }
    let regular = counts.map(|c| if c == 0 { 1e-3 } else { f64::from(c) });
    let n: f64 = regular.iter().sum();
    let p = regular.map(|c| c / n);
    let moment = |k: i32, mu: f64| -> f64 {
        values
            .iter()
            .zip(&p)
            .map(|(v, q)| q * (v - mu).powi(k))
            .sum()
    };
    let mu = moment(1, 0.0);
    let var = moment(2, mu);
    let skew = moment(3, mu) / var.powf(1.5);
    let exkurt = moment(4, mu) / (var * var) - 3.0;
    let t = (mu - 0.5) / var.sqrt();
    let var_t = (1.0 - t * skew + 0.25 * t * t * (exkurt + 2.0)).max(0.0);
    let half = z * (var_t / n).sqrt();
    let scale = super::sprt::NELO_PER_T / games.sqrt();
    Some(NormalizedElo {
        nelo: t * scale,
        low: (t - half) * scale,
        high: (t + half) * scale,
    })
}

/// Normalized Elo from game pairs, `pairs[k]` the pairs in which the first player
/// scored `k` half-points, with a `z` interval. `None` without pairs.
pub fn normalized_pairs(pairs: &[u32; 5], z: f64) -> Option<NormalizedElo> {
    normalized(&super::sprt::PAIR_VALUES, pairs, 2.0, z)
}

/// Normalized Elo from single games (the trinomial model), with a `z` interval.
/// `None` without games.
pub fn normalized_games(wins: u32, draws: u32, losses: u32, z: f64) -> Option<NormalizedElo> {
    normalized(&[0.0, 0.5, 1.0], &[losses, draws, wins], 1.0, z)
}

/// The error function, to within 1.2e-7 (the Chebyshev fit of `erfc` in Numerical
/// Recipes, 2nd ed., §6.2).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// Likelihood of superiority: the probability that the first player is the stronger,
/// from wins and losses only (draws carry no information here),
/// `½ (1 + erf((W − L) / √(2 (W + L))))`. `None` without decisive games.
pub fn los(wins: u32, losses: u32) -> Option<f64> {
    let decisive = f64::from(wins) + f64::from(losses);
    if decisive == 0.0 {
        return None;
    }
    let diff = f64::from(wins) - f64::from(losses);
    Some(0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn width(e: &EloEstimate) -> f64 {
        e.high - e.low
    }

    #[test]
    fn even_score_is_zero_and_the_interval_shrinks_with_games() {
        let e = estimate(10, 0, 10, 1.96).unwrap();
        assert!(e.elo.abs() < 1e-9);
        assert!((e.low + e.high).abs() < 1e-9, "symmetric: {e:?}");
        let more = estimate(100, 0, 100, 1.96).unwrap();
        assert!(width(&more) < width(&e) && width(&more) > 0.0);
        // 5–5: the Wilson interval of 50 % over 10 games, 23.7 % to 76.3 %.
        let five = estimate(5, 0, 5, 1.96).unwrap();
        assert!((five.high - elo_of_score(0.7634)).abs() < 1.0, "{five:?}");
        assert_eq!(
            five.to_string(),
            format!("+0.0 (95%: {:+.1} to {:+.1})", five.low, five.high)
        );
        assert_eq!(estimate(0, 0, 0, 1.96), None);
    }

    #[test]
    fn draws_narrow_the_interval_but_never_to_a_point() {
        let draws = estimate(0, 10, 0, 1.96).unwrap();
        assert!(draws.elo.abs() < 1e-9);
        assert!(draws.high > 50.0 && draws.low < -50.0, "{draws:?}");
        assert!(width(&draws) < width(&estimate(5, 0, 5, 1.96).unwrap()));
        assert!(draws.to_string().starts_with("+0.0 (95%: -"), "{draws}");
    }

    #[test]
    fn one_sided_scores_give_a_bound() {
        // 10–0: Wilson's lower bound of the score is 72.2 %, +166 Elo.
        let won = estimate(10, 0, 0, 1.96).unwrap();
        assert!((won.low - elo_of_score(0.7225)).abs() < 1.0, "{won:?}");
        assert!(won.low > 150.0 && won.low < 180.0, "{won:?}");
        assert_eq!(won.to_string(), format!("≥ {:+.1} (95%)", won.low));
        // More games, a higher bound.
        assert!(estimate(40, 0, 0, 1.96).unwrap().low > won.low);
        // 0–10 mirrors it.
        let lost = estimate(0, 0, 10, 1.96).unwrap();
        assert!((lost.high + won.low).abs() < 1e-6, "{lost:?}");
        assert_eq!(lost.to_string(), format!("≤ {:+.1} (95%)", lost.high));
        assert!(!lost.to_string().contains("1200"));
    }

    #[test]
    fn known_points_of_the_curve() {
        // 75 % is +190.8 Elo; 24 %: symmetric.
        assert!((elo_of_score(0.75) - 190.85).abs() < 0.1);
        assert!((elo_of_score(0.25) + 190.85).abs() < 0.1);
        assert_eq!(elo_of_score(1.0), 1200.0);
        let e = estimate(15, 0, 5, 1.96).unwrap();
        assert!((e.elo - 190.85).abs() < 0.1);
        assert!(e.low < e.elo && e.elo < e.high);
    }

    #[test]
    fn pair_intervals_match_the_reference_values() {
        // (pairs, Elo, low, high) from `python3 tools/sprt/sprt_reference.py`.
        let cases: [([u32; 5], f64, f64, f64); 3] = [
            ([7, 177, 1968, 218, 11], 3.575167, 0.482766, 6.668134),
            ([0, 0, 10, 0, 0], 0.0, -44.193478, 44.193478),
            ([2, 5, 20, 8, 1], 4.825805, -43.206904, 53.044874),
        ];
        for (pairs, elo, low, high) in cases {
            let e = estimate_pairs(&pairs, 1.96).unwrap();
            assert!((e.elo - elo).abs() < 1e-5, "{pairs:?}: {e:?}");
            assert!((e.low - low).abs() < 1e-5, "{pairs:?}: {e:?}");
            assert!((e.high - high).abs() < 1e-5, "{pairs:?}: {e:?}");
        }
        assert_eq!(estimate_pairs(&[0; 5], 1.96), None);
    }

    #[test]
    fn normalized_elo_matches_the_reference_values() {
        // (pairs, nElo, low, high) from `python3 tools/sprt/sprt_reference.py`.
        let cases: [([u32; 5], f64, f64, f64); 4] = [
            ([7, 177, 1968, 218, 11], 11.428432, 1.592378, 21.264486),
            ([0, 0, 10, 0, 0], 0.0, -152.239914, 152.239914),
            ([2, 5, 20, 8, 1], 8.193689, -72.542636, 88.930013),
            ([1, 12, 30, 25, 8], 95.553060, 38.371669, 152.734452),
        ];
        for (pairs, nelo, low, high) in cases {
            let e = normalized_pairs(&pairs, 1.96).unwrap();
            assert!((e.nelo - nelo).abs() < 1e-5, "{pairs:?}: {e:?}");
            assert!((e.low - low).abs() < 1e-5, "{pairs:?}: {e:?}");
            assert!((e.high - high).abs() < 1e-5, "{pairs:?}: {e:?}");
        }
        let g = normalized_games(10, 20, 30, 1.96).unwrap();
        assert!((g.nelo + 155.377917).abs() < 1e-5, "{g:?}");
        assert!((g.low + 256.840721).abs() < 1e-5 && (g.high + 53.915114).abs() < 1e-5);
        let g = normalized_games(1000, 2000, 950, 1.96).unwrap();
        assert!((g.nelo - 6.260355).abs() < 1e-5, "{g:?}");
        assert_eq!(normalized_pairs(&[0; 5], 1.96), None);
        assert_eq!(normalized_games(0, 0, 0, 1.96), None);
        assert_eq!(
            normalized_pairs(&[1, 12, 30, 25, 8], 1.96)
                .unwrap()
                .to_string(),
            "+95.6 (95%: +38.4 to +152.7)"
        );
    }

    #[test]
    fn pairs_that_cancel_narrow_the_interval() {
        // 100 pairs each won once by either side: the games alone (+100 =0 −100)
        // look like a coin toss, the pairs say the two are even.
        let games = estimate(100, 0, 100, 1.96).unwrap();
        let pairs = estimate_pairs(&[0, 0, 100, 0, 0], 1.96).unwrap();
        assert!(pairs.elo.abs() < 1e-9 && games.elo.abs() < 1e-9);
        assert!(width(&pairs) < width(&games) / 5.0, "{pairs:?} {games:?}");
        // A pair won twice counts for more than one won and one drawn.
        let two = estimate_pairs(&[0, 0, 8, 0, 2], 1.96).unwrap();
        let one = estimate_pairs(&[0, 0, 8, 2, 0], 1.96).unwrap();
        assert!(two.elo > one.elo && one.elo > 0.0);
    }

    #[test]
    fn erf_and_los_known_values() {
        // erf(0.5) = 0.5204998778, erf(1) = 0.8427007929, erf(2) = 0.9953222650.
        for (x, v) in [
            (0.5, 0.5204998778),
            (1.0, 0.8427007929),
            (2.0, 0.9953222650),
        ] {
            assert!((erf(x) - v).abs() < 2e-7, "{x}");
            assert!((erf(-x) + v).abs() < 2e-7, "{x}");
        }
        assert!(erf(0.0).abs() < 2e-7);
        assert_eq!(los(0, 0), None);
        assert!((los(5, 5).unwrap() - 0.5).abs() < 2e-7);
        // +15 -5: erf(10 / √40) = erf(1.5811) = 0.974653, LOS 0.987327.
        assert!((los(15, 5).unwrap() - 0.987327).abs() < 1e-5);
        assert!((los(5, 15).unwrap() - 0.012673).abs() < 1e-5);
    }
}
