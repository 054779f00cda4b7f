//! Elo difference from a match score, with a confidence interval from the score's
//! standard error (per-game variance of win/draw/loss outcomes), and the likelihood
//! of superiority.

/// An Elo estimate: the difference and the half-width of its confidence interval.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct EloEstimate {
    /// Score fraction of the first player, 0…1.
    pub score: f64,
    /// Elo difference (first minus second); clamped to ±1200 for 0 % or 100 %.
    pub elo: f64,
    /// Half-width of the interval at the requested confidence.
    pub margin: f64,
    /// Lower end of the interval (Elo of the score minus `z` standard errors).
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
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
pub fn estimate(wins: u32, draws: u32, losses: u32, z: f64) -> Option<EloEstimate> {
    let n = f64::from(wins + draws + losses);
    if n == 0.0 {
        return None;
    }
    let (w, d, l) = (
        f64::from(wins) / n,
        f64::from(draws) / n,
        f64::from(losses) / n,
    );
    let s = w + d / 2.0;
    let variance = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
    let se = (variance / n).sqrt();
    let (lo, hi) = (elo_of_score(s - z * se), elo_of_score(s + z * se));
    Some(EloEstimate {
        score: s,
        elo: elo_of_score(s),
        margin: (hi - lo) / 2.0,
        low: lo,
        high: hi,
    })
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

    #[test]
    fn even_score_is_zero_and_margin_shrinks_with_games() {
        let e = estimate(10, 0, 10, 1.96).unwrap();
        assert!(e.elo.abs() < 1e-9);
        let more = estimate(100, 0, 100, 1.96).unwrap();
        assert!(more.margin < e.margin && more.margin > 0.0);
        // All draws: no variance.
        assert_eq!(estimate(0, 10, 0, 1.96).unwrap().margin, 0.0);
        assert_eq!(estimate(0, 0, 0, 1.96), None);
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
        assert!((e.high - e.low - 2.0 * e.margin).abs() < 1e-9);
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
