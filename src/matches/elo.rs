//! Elo difference from a match score, with a confidence margin from the score's
//! standard error (per-game variance of win/draw/loss outcomes).

/// An Elo estimate: the difference and the half-width of its confidence interval.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct EloEstimate {
    /// Score fraction of the first player, 0…1.
    pub score: f64,
    /// Elo difference (first minus second); clamped to ±1200 for 0 % or 100 %.
    pub elo: f64,
    /// Half-width of the interval at the requested confidence.
    pub margin: f64,
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
    })
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
    }
}
