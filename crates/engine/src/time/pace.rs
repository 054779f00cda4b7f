//! The rule for stopping between iterations on a clock: stop once the time spent
//! passes half of the move's optimum, scaled up when the best move keeps changing or
//! the score drops, and down when the best move has been stable for a while.

use std::time::Duration;

use damas_rules::moves::Move;

use super::MoveBudget;
use crate::score::Score;

/// No new iteration after this fraction of the (scaled) optimum: the next one takes
/// about as long again as all before it, so that the move ends near the optimum.
const START_FRACTION: f64 = 0.5;
/// Iterations with the same best move after which it counts as stable.
const STABLE_ITERATIONS: u32 = 4;
/// The scale of a stable best move.
const STABLE_SCALE: f64 = 0.7;
/// Each best-move change adds this much to the scale; earlier changes fade by half
/// with each iteration.
const CHANGE_WEIGHT: f64 = 1.0;
/// A score drop of one man from the previous iteration adds this much to the scale
/// (the drop counted up to one man).
const DROP_WEIGHT: f64 = 0.5;

/// One search's stopping rule: fed each completed iteration's best move and score,
/// it says whether to stop ([`Pace::after_iteration`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Pace {
    /// The optimum (none: never stop between iterations).
    optimum: Option<Duration>,
    /// The hard cap, which the scaled optimum never exceeds.
    hard: Option<Duration>,
    best: Option<Move>,
    /// Iterations in a row with the same best move.
    same: u32,
    /// Best-move changes, each fading by half per iteration.
    changes: f64,
    score: Option<Score>,
    /// The last iteration's score drop, in men (0 to 1).
    drop: f64,
}

impl Pace {
    /// The rule for a search under `budget` (its optimum, `soft`, and hard cap).
    pub fn new(budget: &MoveBudget) -> Pace {
        Pace {
            optimum: budget.soft(),
            hard: budget.hard(),
            best: None,
            same: 0,
            changes: 0.0,
            score: None,
            drop: 0.0,
        }
    }

    /// Go on under a new budget (ponder-hit starts the clock), keeping what was seen.
    pub fn set_budget(&mut self, budget: &MoveBudget) {
        self.optimum = budget.soft();
        self.hard = budget.hard();
    }

    /// The time after which no iteration starts, as the iterations so far scale it.
    pub fn limit(&self) -> Option<Duration> {
        let optimum = self.optimum?;
        let stability = if self.same >= STABLE_ITERATIONS {
            STABLE_SCALE
        } else {
            1.0
        };
        let scale =
            stability * (1.0 + CHANGE_WEIGHT * self.changes) * (1.0 + DROP_WEIGHT * self.drop);
        let scaled = optimum.mul_f64(scale * START_FRACTION);
        Some(self.hard.map_or(scaled, |h| scaled.min(h)))
    }

    /// Whether a search `elapsed` in, with an iteration completed, has had its time:
    /// at ponder-hit, with the time pondered as `elapsed`, it answers at once.
    pub fn spent(&self, elapsed: Duration) -> bool {
        self.best.is_some() && self.limit().is_some_and(|l| elapsed >= l)
    }

    /// After an iteration whose best move is `best` with `score`, `elapsed` into the
    /// move: whether to stop.
    pub fn after_iteration(&mut self, best: Option<Move>, score: Score, elapsed: Duration) -> bool {
        self.changes /= 2.0;
        if self.best.is_some() && best != self.best {
            self.changes += 1.0;
            self.same = 0;
        } else {
            self.same += 1;
        }
        self.best = best;
        self.drop = match self.score {
            Some(before) if !before.is_proven() && !score.is_proven() => {
                ((before.value() - score.value()) as f64 / 100.0).clamp(0.0, 1.0)
            }
            _ => 0.0,
        };
        self.score = Some(score);
        self.limit().is_some_and(|l| elapsed >= l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::movegen::legal_moves;
    use damas_rules::position::Position;
    use damas_rules::variant::Variant;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn budget(optimum: u64, hard: u64) -> MoveBudget {
        MoveBudget {
            limits: crate::search::Limits {
                time: Some(ms(hard)),
                soft: Some(ms(optimum)),
                ..Default::default()
            },
        }
    }

    #[test]
    fn without_an_optimum_it_never_stops() {
        let mut p = Pace::new(&MoveBudget::default());
        assert!(!p.after_iteration(None, Score::DRAW, Duration::from_secs(1000)));
        assert_eq!(p.limit(), None);
    }

    #[test]
    fn stops_after_half_the_optimum_at_first() {
        let mv = legal_moves(Variant::Brazilian, &Position::start())[0];
        let mut p = Pace::new(&budget(1000, 5000));
        assert!(!p.after_iteration(Some(mv), Score::DRAW, ms(499)));
        assert!(p.after_iteration(Some(mv), Score::DRAW, ms(500)));
    }

    #[test]
    fn a_stable_move_stops_earlier_a_changing_one_later() {
        let moves = legal_moves(Variant::Brazilian, &Position::start());
        let (a, b) = (moves[0], moves[1]);
        let mut stable = Pace::new(&budget(1000, 5000));
        for _ in 0..STABLE_ITERATIONS {
            stable.after_iteration(Some(a), Score::DRAW, ms(1));
        }
        assert_eq!(stable.limit(), Some(ms(350)));
        let mut changing = Pace::new(&budget(1000, 5000));
        for i in 0..6 {
            changing.after_iteration(Some(if i % 2 == 0 { a } else { b }), Score::DRAW, ms(1));
        }
        assert!(changing.limit().unwrap() > ms(900), "{changing:?}");
        // Never past the hard cap.
        let mut capped = Pace::new(&budget(1000, 600));
        for i in 0..6 {
            capped.after_iteration(Some(if i % 2 == 0 { a } else { b }), Score::DRAW, ms(1));
        }
        assert_eq!(capped.limit(), Some(ms(600)));
    }

    #[test]
    fn a_falling_score_buys_time() {
        let mv = legal_moves(Variant::Brazilian, &Position::start())[0];
        let mut p = Pace::new(&budget(1000, 5000));
        p.after_iteration(Some(mv), Score::centi(50), ms(1));
        assert!(!p.after_iteration(Some(mv), Score::centi(-50), ms(700)));
        assert_eq!(p.limit(), Some(ms(750)));
        // A proven score is no drop to worry about.
        p.after_iteration(Some(mv), Score::loss_in(9), ms(1));
        assert_eq!(p.limit(), Some(ms(500)));
    }

    #[test]
    fn a_new_budget_keeps_the_history() {
        let moves = legal_moves(Variant::Brazilian, &Position::start());
        let mut p = Pace::new(&MoveBudget::default());
        p.after_iteration(Some(moves[0]), Score::DRAW, ms(1));
        p.after_iteration(Some(moves[1]), Score::DRAW, ms(1));
        p.set_budget(&budget(1000, 5000));
        assert_eq!(p.limit(), Some(ms(1000)));
        assert!(p.spent(ms(1000)) && !p.spent(ms(999)));
        // Before any iteration there is no move to answer with.
        assert!(!Pace::new(&budget(1000, 5000)).spent(ms(9000)));
    }
}
