//! The rule for stopping between iterations on a clock: stop once the time spent
//! passes a share of the move's optimum (`pace-start`, half by default: the next
//! iteration takes about as long again as all before it, so that the move ends near
//! the optimum), scaled up when the best move keeps changing (`pace-change`) or the
//! score drops (`pace-drop`, per man, counted up to one), and down when the best move
//! has stood for four iterations (`pace-stable`). The constants are the tuning's
//! (docs/tuning.md); each change's weight fades by half an iteration.

use std::time::Duration;

use damas_rules::moves::Move;

use super::MoveBudget;
use crate::score::Score;
use crate::search::TimeTuning;

/// Iterations with the same best move after which it counts as stable.
const STABLE_ITERATIONS: u32 = 4;

/// One search's stopping rule: fed each completed iteration's best move and score,
/// it says whether to stop ([`Pace::after_iteration`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Pace {
    /// The optimum (none: never stop between iterations).
    optimum: Option<Duration>,
    /// The hard cap, which the scaled optimum never exceeds.
    hard: Option<Duration>,
    /// The constants of the rule.
    k: TimeTuning,
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
            k: *budget.pace(),
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
        self.k = *budget.pace();
    }

    /// The time after which no iteration starts, as the iterations so far scale it.
    pub fn limit(&self) -> Option<Duration> {
        let optimum = self.optimum?;
        let k = &self.k;
        let stability = if self.same >= STABLE_ITERATIONS {
            k.pace_stable
        } else {
            1.0
        };
        let scale =
            stability * (1.0 + k.pace_change * self.changes) * (1.0 + k.pace_drop * self.drop);
        let scaled = optimum.mul_f64(scale * k.pace_start);
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
        budget_with(optimum, hard, TimeTuning::default())
    }

    fn budget_with(optimum: u64, hard: u64, pace: TimeTuning) -> MoveBudget {
        MoveBudget {
            limits: crate::search::Limits {
                time: Some(ms(hard)),
                soft: Some(ms(optimum)),
                ..Default::default()
            },
            pace,
        }
    }

    #[test]
    fn the_tuning_sets_the_share_and_the_weights() {
        use crate::search::{ParamId, Tuning};
        let moves = legal_moves(Variant::Brazilian, &Position::start());
        let (a, b) = (moves[0], moves[1]);
        let tuning = Tuning::default()
            .with(ParamId::PACE_START, 30)
            .with(ParamId::PACE_STABLE, 50)
            .with(ParamId::PACE_CHANGE, 200)
            .with(ParamId::PACE_DROP, 100);
        let mut p = Pace::new(&budget_with(1000, 5000, tuning.time()));
        assert!(!p.after_iteration(Some(a), Score::DRAW, ms(299)));
        assert!(p.after_iteration(Some(a), Score::DRAW, ms(300)));
        // A change: 1 + 2 × 1.
        p.after_iteration(Some(b), Score::DRAW, ms(1));
        assert_eq!(p.limit(), Some(ms(900)));
        // A drop of half a man while the change fades to a half: (1 + 2 × 0.5) × 1.5.
        p.after_iteration(Some(b), Score::centi(-50), ms(1));
        assert_eq!(p.limit(), Some(ms(900)));
        // Stable for four iterations: 0.5 of the share, changes all but faded.
        let mut stable = Pace::new(&budget_with(1000, 5000, tuning.time()));
        for _ in 0..STABLE_ITERATIONS {
            stable.after_iteration(Some(a), Score::DRAW, ms(1));
        }
        assert_eq!(stable.limit(), Some(ms(150)));
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
