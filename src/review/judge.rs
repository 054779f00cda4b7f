//! Judging one move by how much it lowered the mover's evaluation: the loss in
//! hundredths of a man and the mark it earns (inaccuracy, mistake, blunder).
//!
//! Thresholds: a loss of at least 0.30 men is an inaccuracy, 0.70 a mistake, 1.50 a
//! blunder. Evaluations are capped at ±[`CAP`] (5 men) before subtracting: beyond that
//! the game is decided either way, and a slower win is no error. Proven results are
//! judged by what they prove: turning a proven win into less than the cap is a
//! blunder; walking into a proven loss loses down to the cap (a blunder from a game
//! still open, less from one already nearly lost); keeping a win (even a slower one)
//! and moving in a position already lost are never marked. A move that was forced
//! (the only legal one) is never marked.

use std::fmt;

use damas_engine::score::Score;

/// Evaluations are capped at this many hundredths of a man before losses are taken.
pub const CAP: i32 = 500;
/// The smallest loss (hundredths of a man) that is an inaccuracy.
pub const INACCURACY: Centi = Centi(30);
/// The smallest loss that is a mistake.
pub const MISTAKE: Centi = Centi(70);
/// The smallest loss that is a blunder.
pub const BLUNDER: Centi = Centi(150);

/// An amount in hundredths of a man.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub struct Centi(pub i32);

impl Centi {
    /// In men.
    pub fn men(self) -> f64 {
        f64::from(self.0) / 100.0
    }
}

/// How bad a move was.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum Mark {
    /// Lost at least [`INACCURACY`].
    Inaccuracy,
    /// Lost at least [`MISTAKE`].
    Mistake,
    /// Lost at least [`BLUNDER`], gave up a proven win, or walked into a proven loss.
    Blunder,
}

impl Mark {
    /// The annotation symbol: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        })
    }
}

/// The verdict on one move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Judgement {
    /// What the move cost the mover (never negative).
    pub loss: Centi,
    /// The mark, if the loss earns one.
    pub mark: Option<Mark>,
}

/// A score capped to ±[`CAP`] (proven results to the cap).
fn capped(s: Score) -> i32 {
    s.value().clamp(-CAP, CAP)
}

/// Judge a move from the mover's side: `best` is what the engine expects with its own
/// move, `played` what it expects after the move played (both for the mover).
/// `forced` moves and the engine's own choice (`same`) are never marked.
pub fn judge(best: Score, played: Score, forced: bool, same: bool) -> Judgement {
    if forced || same || best.is_loss() {
        return Judgement::default();
    }
    let loss = Centi((capped(best) - capped(played)).max(0));
    if best.is_win() {
        // A slower win is still a win.
        return if played.is_win() || capped(played) >= CAP {
            Judgement::default()
        } else {
            Judgement {
                loss,
                mark: Some(Mark::Blunder),
            }
        };
    }
    let mark = if loss >= BLUNDER {
        Some(Mark::Blunder)
    } else if loss >= MISTAKE {
        Some(Mark::Mistake)
    } else if loss >= INACCURACY {
        Some(Mark::Inaccuracy)
    } else {
        None
    };
    Judgement { loss, mark }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(best: Score, played: Score) -> Option<Mark> {
        judge(best, played, false, false).mark
    }

    #[test]
    fn losses_are_marked_by_threshold() {
        let c = Score::centi;
        assert_eq!(mark(c(20), c(0)), None);
        assert_eq!(mark(c(20), c(-10)), Some(Mark::Inaccuracy));
        assert_eq!(mark(c(20), c(-50)), Some(Mark::Mistake));
        assert_eq!(mark(c(20), c(-130)), Some(Mark::Blunder));
        // A move the search likes better than its own choice costs nothing.
        assert_eq!(judge(c(20), c(60), false, false).loss, Centi(0));
        // Beyond the cap the game is decided: +9 to +6 is no error.
        assert_eq!(mark(c(900), c(600)), None);
        assert_eq!(judge(c(900), c(400), false, false).loss, Centi(100));
        // Forced moves and the engine's own move are never marked.
        assert_eq!(judge(c(20), c(-300), true, false).mark, None);
        assert_eq!(judge(c(20), c(-300), false, true).mark, None);
    }

    #[test]
    fn proven_results_are_judged_by_what_they_prove() {
        let c = Score::centi;
        // Giving up a win, or walking into a loss, is a blunder.
        assert_eq!(mark(Score::win_in(9), c(300)), Some(Mark::Blunder));
        assert_eq!(mark(c(0), Score::loss_in(12)), Some(Mark::Blunder));
        // A slower win is fine; nothing is marked once the game is lost.
        assert_eq!(mark(Score::win_in(5), Score::win_in(21)), None);
        assert_eq!(mark(Score::loss_in(20), Score::loss_in(2)), None);
        // Not when the game was already as good as decided.
        assert_eq!(mark(c(-700), Score::loss_in(8)), None);
        // From a position nearly lost, walking into the loss costs what is left.
        assert_eq!(mark(c(-392), Score::loss_in(14)), Some(Mark::Mistake));
        assert_eq!(mark(Score::win_in(9), c(800)), None);
        assert_eq!(Mark::Blunder.symbol(), "??");
    }
}
