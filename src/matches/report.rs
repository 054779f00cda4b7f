//! The end-of-match report: score, draw ratio, Elo with its 95 % interval (by games
//! and by game pairs, the pairs counted as fishtest labels them: LL, LD, DD+WL, WD,
//! WW), likelihood of superiority, normalized Elo, and the SPRT state when a test
//! was run.

use std::fmt;

use super::elo::los;
use super::sprt::{Decision, Sprt};
use super::Tally;

/// What `damas match` prints at the end, one fact a line.
#[derive(Clone, Debug)]
pub struct Report {
    /// Name of the first player.
    pub first: String,
    /// Name of the second player.
    pub second: String,
    /// The first player's results.
    pub tally: Tally,
    /// The SPRT, if one was run.
    pub sprt: Option<Sprt>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.tally;
        let n = t.games();
        let pct = |x: f64| 100.0 * x / f64::from(n.max(1));
        writeln!(
            f,
            "{} vs {}: {}, +{} ={} -{}, score {}/{n} ({:.1}%)",
            self.first,
            self.second,
            crate::plural::games(n as usize),
            t.wins,
            t.draws,
            t.losses,
            t.points(),
            pct(t.points())
        )?;
        writeln!(f, "draw ratio: {:.1}%", pct(f64::from(t.draws)))?;
        if let Some(e) = t.elo() {
            write!(f, "Elo difference: {e}")?;
            match los(t.wins, t.losses) {
                Some(l) => writeln!(f, ", LOS {:.1}%", 100.0 * l)?,
                None => writeln!(f, ", LOS n/a (no decisive game)")?,
            }
        }
        if let Some(e) = t.elo_pairs() {
            let p = t.pairs;
            writeln!(
                f,
                "game pairs: {} (LL {}, LD {}, DD+WL {}, WD {}, WW {}); Elo {e}",
                t.pair_count(),
                p[0],
                p[1],
                p[2],
                p[3],
                p[4]
            )?;
        }
        if let (Some(pairs), Some(games)) = (t.nelo_pairs(), t.nelo_games()) {
            writeln!(f, "normalized Elo: {pairs} by pairs, {games} by games")?;
        }
        if let Some(sprt) = &self.sprt {
            let state = t.sprt(sprt);
            write!(
                f,
                "{sprt}: LLR {:.2} (bounds {:.2}, {:.2}): ",
                state.llr + 0.0,
                state.lower,
                state.upper
            )?;
            match state.decision {
                Some(Decision::AcceptH1) => writeln!(
                    f,
                    "H1 accepted ({} {} rather than {})",
                    sprt.unit(),
                    sprt.elo1,
                    sprt.elo0
                )?,
                Some(Decision::AcceptH0) => writeln!(
                    f,
                    "H0 accepted ({} {} rather than {})",
                    sprt.unit(),
                    sprt.elo0,
                    sprt.elo1
                )?,
                None => writeln!(f, "no decision after {}", crate::plural::games(n as usize))?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_lines() {
        let report = Report {
            first: "a".into(),
            second: "b".into(),
            tally: Tally {
                wins: 15,
                draws: 0,
                losses: 5,
                pairs: [0, 0, 5, 0, 5],
                pending: None,
            },
            sprt: Some("0,50".parse().unwrap()),
        };
        let text = report.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "a vs b: 20 games, +15 =0 -5, score 15/20 (75.0%)");
        assert_eq!(lines[1], "draw ratio: 0.0%");
        assert!(
            lines[2].starts_with("Elo difference: +190.8 (95%: +"),
            "{}",
            lines[2]
        );
        assert!(lines[2].ends_with(", LOS 98.7%"), "{}", lines[2]);
        assert!(
            lines[3].starts_with(
                "game pairs: 10 (LL 0, LD 0, DD+WL 5, WD 0, WW 5); Elo +190.8 (95%: +"
            ),
            "{}",
            lines[3]
        );
        assert!(
            lines[4].starts_with("normalized Elo: +") && lines[4].contains(" by pairs, +"),
            "{}",
            lines[4]
        );
        assert!(
            lines[5].starts_with("SPRT elo0=0 elo1=50 alpha=0.05 beta=0.05: LLR "),
            "{}",
            lines[5]
        );
        assert_eq!(lines.len(), 6);
        let nelo = Report {
            sprt: Some("nelo:0,50".parse().unwrap()),
            ..report.clone()
        };
        let text = nelo.to_string();
        assert!(
            text.contains("SPRT nelo0=0 nelo1=50 alpha=0.05 beta=0.05: LLR "),
            "{text}"
        );
        let plain = Report {
            sprt: None,
            tally: Tally {
                wins: 0,
                draws: 3,
                losses: 0,
                pairs: [0, 0, 1, 0, 0],
                pending: Some(1),
            },
            ..report
        };
        let text = plain.to_string();
        assert!(text.contains("score 1.5/3 (50.0%)"), "{text}");
        assert!(text.contains("draw ratio: 100.0%"), "{text}");
        assert!(text.contains("LOS n/a"), "{text}");
        assert!(!text.contains("SPRT"), "{text}");
        assert!(
            text.contains("game pairs: 1 (LL 0, LD 0, DD+WL 1, WD 0, WW 0)"),
            "{text}"
        );
    }
}
