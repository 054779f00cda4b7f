//! Playing strength levels 1–10, from a beginner that makes human mistakes to the full
//! engine. Levels below 10 search every root move separately (a multi-PV style loop,
//! [`crate::think`]) to a small depth and node budget, sometimes look
//! at a move only superficially (missing the tactics behind it), and pick a move at
//! random with probabilities weighted by the scores (a softmax). Level 10 is the plain
//! search. Used by `damas play`, the Hub engine (`strength` parameter) and `damas match`
//! (`level=` key).

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use thiserror::Error;

use crate::score::Score;

/// A playing strength from 1 (beginner) to 10 (full strength).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Strength(u8);

/// The names of levels 1 to 10.
const NAMES: [&str; 10] = [
    "beginner",
    "novice",
    "casual",
    "club",
    "intermediate",
    "advanced",
    "strong",
    "expert",
    "master",
    "full",
];

/// How a level below full strength searches and errs.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Profile {
    /// Depth of the search after each root move, in plies.
    pub depth: u32,
    /// Node budget of the search after each root move.
    pub nodes: u64,
    /// Softmax temperature in hundredths of a man: a move `T` worse than the best is
    /// `e` times less likely to be played.
    pub temperature: f64,
    /// Chance that a root move is only glanced at (searched to `glance_depth`), so
    /// that a tactic behind it goes unseen.
    pub oversight: f64,
    /// Depth of such a glance (0: the static evaluation alone).
    pub glance_depth: u32,
}

/// The profiles of levels 1 to 9.
const PROFILES: [Profile; 9] = [
    profile(1, 300, 150.0, 0.35, 0),
    profile(1, 600, 90.0, 0.25, 0),
    profile(2, 1_500, 60.0, 0.20, 0),
    // Level 4's glances still miss captures, so it glances at few moves; level 5's
    // glances resolve captures. Wider glances at level 4 made the step from 3 to 4
    // small and the step from 4 to 5 huge (docs/evaluation.md, "Playing levels").
    profile(3, 4_000, 40.0, 0.04, 0),
    profile(4, 10_000, 25.0, 0.09, 1),
    profile(5, 25_000, 15.0, 0.10, 2),
    profile(6, 60_000, 10.0, 0.07, 2),
    profile(8, 150_000, 5.0, 0.04, 3),
    profile(10, 400_000, 2.0, 0.02, 4),
];

const fn profile(
    depth: u32,
    nodes: u64,
    temperature: f64,
    oversight: f64,
    glance_depth: u32,
) -> Profile {
    Profile {
        depth,
        nodes,
        temperature,
        oversight,
        glance_depth,
    }
}

/// A level that is neither a number from 1 to 10 nor a level name.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown level {0:?}: expected 1 to 10 or one of beginner, novice, casual, club, intermediate, advanced, strong, expert, master, full")]
pub struct StrengthError(pub String);

impl Strength {
    /// The weakest level.
    pub const MIN: Strength = Strength(1);
    /// Full strength: the plain search.
    pub const FULL: Strength = Strength(10);

    /// Level `n`, if it is from 1 to 10.
    pub fn new(n: u8) -> Option<Strength> {
        (1..=10).contains(&n).then_some(Strength(n))
    }

    /// The level number, 1 to 10.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The level's name (`beginner` … `full`).
    pub fn name(self) -> &'static str {
        NAMES[usize::from(self.0 - 1)]
    }

    /// Whether this is full strength.
    pub fn is_full(self) -> bool {
        self == Strength::FULL
    }

    /// How the level searches, or `None` at full strength.
    pub fn profile(self) -> Option<Profile> {
        PROFILES.get(usize::from(self.0 - 1)).copied()
    }

    /// One level up (stays at 10).
    pub fn stronger(self) -> Strength {
        Strength((self.0 + 1).min(10))
    }

    /// One level down (stays at 1).
    pub fn weaker(self) -> Strength {
        Strength(self.0.saturating_sub(1).max(1))
    }
}

impl Default for Strength {
    fn default() -> Self {
        Strength::FULL
    }
}

impl fmt::Display for Strength {
    /// `3 (casual)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.0, self.name())
    }
}

impl FromStr for Strength {
    type Err = StrengthError;
    fn from_str(s: &str) -> Result<Strength, StrengthError> {
        // The first word, so that the displayed form `3 (casual)` reads back.
        let t = s
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if let Ok(n) = t.parse::<u8>() {
            return Strength::new(n).ok_or_else(|| StrengthError(s.to_string()));
        }
        NAMES
            .iter()
            .position(|&n| n == t)
            .map(|i| Strength(i as u8 + 1))
            .ok_or_else(|| StrengthError(s.to_string()))
    }
}

/// The unnormalised softmax weight of a move scoring `score` when the best scores
/// `best`; proven results count as ±50 men so that they dominate but stay finite.
pub(crate) fn softmax_weight(score: Score, best: Score, temperature: f64) -> f64 {
    let v = |s: Score| f64::from(s.value().clamp(-5_000, 5_000));
    ((v(score) - v(best)) / temperature.max(0.01)).exp()
}

/// Index drawn with probability proportional to `weights` (the first when all are 0).
pub(crate) fn draw(weights: &[f64], rng: &mut impl Rng) -> usize {
    let total: f64 = weights.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return 0;
    }
    let mut x = rng.gen_range(0.0..total);
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    weights.len() - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn levels_parse_by_number_and_name_and_step() {
        assert_eq!("3".parse::<Strength>().unwrap().name(), "casual");
        assert_eq!("Beginner".parse::<Strength>().unwrap(), Strength::MIN);
        assert_eq!("full".parse::<Strength>().unwrap(), Strength::FULL);
        assert_eq!(
            Strength::FULL.to_string().parse::<Strength>().unwrap(),
            Strength::FULL
        );
        for bad in ["0", "11", "grandmaster", "", "-1"] {
            let e = bad.parse::<Strength>().unwrap_err().to_string();
            assert!(e.contains("1 to 10"), "{e}");
        }
        assert_eq!(Strength::FULL.stronger(), Strength::FULL);
        assert_eq!(Strength::MIN.weaker(), Strength::MIN);
        assert_eq!(
            Strength::new(4).unwrap().stronger().to_string(),
            "5 (intermediate)"
        );
        assert!(Strength::FULL.profile().is_none());
        // Every step up searches at least as deep and errs no more: its glances are
        // deeper, or as deep and rarer.
        for w in PROFILES.windows(2) {
            assert!(w[1].depth >= w[0].depth && w[1].nodes > w[0].nodes);
            assert!(w[1].temperature < w[0].temperature);
            assert!(
                w[1].glance_depth > w[0].glance_depth
                    || (w[1].glance_depth == w[0].glance_depth && w[1].oversight < w[0].oversight),
                "{w:?}"
            );
        }
    }

    #[test]
    fn softmax_prefers_better_moves_and_proven_wins() {
        let best = Score::centi(50);
        assert_eq!(softmax_weight(best, best, 20.0), 1.0);
        assert!(softmax_weight(Score::centi(30), best, 20.0) > 0.3);
        assert!(softmax_weight(Score::centi(-500), best, 20.0) < 1e-9);
        assert_eq!(
            softmax_weight(Score::loss_in(3), Score::win_in(5), 2.0),
            0.0
        );
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(draw(&[0.0, 0.0], &mut rng), 0);
        assert_eq!(draw(&[0.0, 1.0, 0.0], &mut rng), 1);
    }
}
