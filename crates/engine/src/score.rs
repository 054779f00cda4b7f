//! Search scores: hundredths of a man from the side to move's point of view, or a
//! proven result with its distance in plies, or a proven result whose distance is
//! unknown (an endgame database that stores win/draw/loss only).

use std::fmt;
use std::ops::Neg;

/// A score for the side to move. Evaluations are in hundredths of a man; proven
/// results are `±(WIN - plies)`, so a faster win and a slower loss score higher.
/// Proven results [`Score::UNKNOWN_DISTANCE`] plies or more away form the band of
/// wins and losses whose distance is not known: they order below every counted win
/// (by an estimate of progress), and are never reported with a count.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Score(pub i32);

impl Score {
    /// A draw (or an even evaluation).
    pub const DRAW: Score = Score(0);
    /// Larger than every real score.
    pub const INFINITE: Score = Score(32_000);
    /// A win at the root itself (zero plies); wins in `n` plies score `WIN - n`.
    pub const WIN: i32 = 30_000;
    /// Scores at or beyond `WIN - MAX_MATE_PLY` in magnitude are proven results.
    pub const MAX_MATE_PLY: i32 = 1_000;
    /// Proven results this many plies away or more carry no distance: a database
    /// win or loss without a stored distance (searched wins and stored distances
    /// stay below it).
    pub const UNKNOWN_DISTANCE: u32 = 400;

    /// An evaluation in hundredths of a man.
    pub const fn centi(c: i32) -> Score {
        Score(c)
    }

    /// A win `plies` plies from here.
    pub const fn win_in(plies: u32) -> Score {
        Score(Self::WIN - plies as i32)
    }

    /// A loss `plies` plies from here.
    pub const fn loss_in(plies: u32) -> Score {
        Score(-(Self::WIN - plies as i32))
    }

    /// Whether this is a proven win or loss.
    pub const fn is_proven(self) -> bool {
        self.0.abs() >= Self::WIN - Self::MAX_MATE_PLY && self.0.abs() <= Self::WIN
    }

    /// A proven win.
    pub const fn is_win(self) -> bool {
        self.is_proven() && self.0 > 0
    }

    /// A proven loss.
    pub const fn is_loss(self) -> bool {
        self.is_proven() && self.0 < 0
    }

    /// A proven win or loss without a known distance (see [`Score::UNKNOWN_DISTANCE`]).
    pub const fn is_uncounted(self) -> bool {
        self.is_proven() && Self::WIN - self.0.abs() >= Self::UNKNOWN_DISTANCE as i32
    }

    /// Plies to the end for a proven result whose distance is known.
    pub const fn plies(self) -> Option<u32> {
        if self.is_proven() && !self.is_uncounted() {
            Some((Self::WIN - self.0.abs()) as u32)
        } else {
            None
        }
    }

    /// The value in hundredths of a man (proven results give their raw value).
    pub const fn value(self) -> i32 {
        self.0
    }

    /// The Hub protocol's score: men, as a decimal (proven results as ±WIN/100).
    pub fn as_men(self) -> f64 {
        self.0 as f64 / 100.0
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    /// `win 7`, `loss 4`, `win` or `loss` (distance unknown), or the evaluation in
    /// hundredths of a man (`-150`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies() {
            Some(p) if self.0 > 0 => write!(f, "win {p}"),
            Some(p) => write!(f, "loss {p}"),
            None if self.is_win() => f.write_str("win"),
            None if self.is_loss() => f.write_str("loss"),
            None => write!(f, "{}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_scores_order_by_distance() {
        assert!(Score::win_in(3) > Score::win_in(5));
        assert!(Score::loss_in(5) > Score::loss_in(3));
        assert!(Score::loss_in(5) < Score::centi(-3_600));
        assert_eq!(Score::win_in(7).to_string(), "win 7");
        assert_eq!((-Score::win_in(7)).to_string(), "loss 7");
        assert_eq!(Score::centi(-150).to_string(), "-150");
        assert_eq!(Score::win_in(9).plies(), Some(9));
        assert_eq!(Score::centi(100).plies(), None);
    }

    #[test]
    fn wins_of_unknown_distance_carry_no_count() {
        let far = Score::win_in(Score::UNKNOWN_DISTANCE + 65);
        assert!(far.is_win() && far.is_uncounted());
        assert_eq!(far.plies(), None);
        assert_eq!(far.to_string(), "win");
        assert_eq!((-far).to_string(), "loss");
        assert!((-far).is_loss() && (-far).is_uncounted());
        // Below every counted win, above every evaluation.
        assert!(far < Score::win_in(Score::UNKNOWN_DISTANCE - 1));
        assert!(far > Score::centi(5_000));
        let near = Score::win_in(Score::UNKNOWN_DISTANCE - 1);
        assert!(!near.is_uncounted());
        assert_eq!(near.plies(), Some(Score::UNKNOWN_DISTANCE - 1));
        assert!(!Score::centi(300).is_uncounted());
    }
}
