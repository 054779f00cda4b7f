//! Time management, one for every player (the Hub engine, match players, the terminal
//! UI, analysis): turning a [`TimeControl`] into search limits and two deadlines, and
//! the one rule ([`another_iteration`]) for starting another iteration. The soft
//! deadline decides whether to start another iteration; the hard deadline stops the
//! search wherever it is. Managed budgets keep a safety margin so that the engine never
//! loses on time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::search::Limits;

/// How long to think: the one time-control type that Hub levels, match specs, UI
/// clocks and command-line flags are read into.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum TimeControl {
    /// To a fixed depth.
    Depth(u32),
    /// A fixed number of nodes.
    Nodes(u64),
    /// A fixed time per move.
    MoveTime(Duration),
    /// A clock: time left (before the increment is added), increment, and the moves
    /// left to the next time control if any.
    Clock {
        /// Moves to the next time control.
        moves: Option<u32>,
        /// Time left.
        time: Duration,
        /// Increment per move.
        inc: Duration,
    },
    /// Until `stop`.
    Infinite,
}

/// Moves assumed left in the game when the clock gives no `moves=`.
const MOVES_TO_GO: u32 = 25;
/// Fixed part of the safety margin (process and pipe latency).
const MARGIN: Duration = Duration::from_millis(50);

/// What a search may spend.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct MoveBudget {
    /// Depth and node limits for the searcher (time is enforced by the deadlines).
    pub limits: Limits,
    /// Do not start a new iteration after this much time.
    pub soft: Option<Duration>,
    /// Stop the search after this much time.
    pub hard: Option<Duration>,
}

/// How a fixed time per move is spent.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Spend {
    /// As a game player: a safety margin is kept and the soft deadline is set (Hub
    /// levels, match players, game clocks).
    Managed,
    /// All of it, as the searcher's own time limit, with no margin and no soft
    /// deadline, and depths and node counts as given (analysis and the terminal UI's levels). A game
    /// clock is always managed.
    Exact,
}

impl MoveBudget {
    /// The budget for one move under `level`, spent as `spend` says.
    pub fn new(level: &TimeControl, spend: Spend) -> MoveBudget {
        match (spend, *level) {
            (Spend::Exact, TimeControl::Depth(d)) => MoveBudget {
                limits: Limits::depth(d),
                ..MoveBudget::default()
            },
            (Spend::Exact, TimeControl::Nodes(n)) => MoveBudget {
                limits: Limits::nodes(n),
                ..MoveBudget::default()
            },
            (Spend::Exact, TimeControl::MoveTime(t)) => MoveBudget {
                hard: Some(t),
                ..MoveBudget::default()
            },
            _ => MoveBudget::for_level(level),
        }
    }

    /// The managed budget for one move under `level` ([`Spend::Managed`]).
    pub fn for_level(level: &TimeControl) -> MoveBudget {
        match *level {
            TimeControl::Depth(d) => MoveBudget {
                limits: Limits::depth(d.max(1)),
                ..MoveBudget::default()
            },
            TimeControl::Nodes(n) => MoveBudget {
                limits: Limits::nodes(n.max(1)),
                ..MoveBudget::default()
            },
            TimeControl::Infinite => MoveBudget::default(),
            TimeControl::MoveTime(t) => {
                let hard = t.saturating_sub(margin(t)).max(Duration::from_millis(1));
                MoveBudget {
                    soft: Some(hard),
                    hard: Some(hard),
                    ..MoveBudget::default()
                }
            }
            TimeControl::Clock { moves, time, inc } => {
                // Hub clients send the time left before the increment is added, and
                // the increment is credited only after the move: only `time` may be
                // spent on this move, less a safety margin. The increment counts
                // towards the share of later moves.
                let usable = time.saturating_sub(margin(time));
                // `moves=0` is sudden death like no `moves` at all.
                let to_go = moves.filter(|&m| m > 0).unwrap_or(MOVES_TO_GO);
                let share = time / to_go + inc.mul_f64(0.8);
                // Never more than half of what is left (most of it on the last move
                // before a time control).
                let cap = usable.mul_f64(if to_go == 1 { 0.8 } else { 0.5 });
                let hard = (share * 3).min(cap).max(Duration::from_millis(1));
                let soft = share.min(hard);
                MoveBudget {
                    soft: Some(soft),
                    hard: Some(hard),
                    ..MoveBudget::default()
                }
            }
        }
    }

    /// The searcher's limits: depth and nodes, and the hard deadline as its own clock
    /// (a backup for whoever watches the deadlines).
    pub fn search_limits(&self) -> Limits {
        Limits {
            time: self.hard,
            soft: self.soft,
            ..self.limits
        }
    }
}

/// What the next iteration is assumed to cost, for [`another_iteration`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NextIteration {
    /// Unknown, so at least as much as the search so far: start it only before half
    /// of the deadline (the caller's soft deadline, checked after each iteration).
    AsMuchAsSoFar,
    /// This long, as [`predict_next`] expects (the searcher's own check against its
    /// hard time limit).
    Predicted(Duration),
}

/// The rule for starting another iteration `elapsed` into a search with this
/// `deadline` (none: always), the next one costing as `next` says.
pub fn another_iteration(
    deadline: Option<Duration>,
    elapsed: Duration,
    next: NextIteration,
) -> bool {
    match (deadline, next) {
        (None, _) => true,
        (Some(s), NextIteration::AsMuchAsSoFar) => elapsed < s / 2,
        (Some(t), NextIteration::Predicted(n)) => elapsed + n < t,
    }
}

/// Time the next iteration will take: the last one's time times its growth over the
/// one before (in nodes, which are less noisy than short times), at least ×1.5 and at
/// most ×8.
pub fn predict_next(last_time: Duration, last_nodes: u64, prev_nodes: u64) -> Duration {
    let growth = if prev_nodes > 0 {
        last_nodes as f64 / prev_nodes as f64
    } else {
        4.0
    };
    last_time.mul_f64(growth.clamp(1.5, 8.0))
}

/// The soft-deadline stop, called from a searcher's `on_info` after each iteration: set
/// `stop` when another iteration should not start `elapsed` into the search.
pub fn stop_at_soft_deadline(soft: Option<Duration>, elapsed: Duration, stop: &AtomicBool) {
    if !another_iteration(soft, elapsed, NextIteration::AsMuchAsSoFar) {
        stop.store(true, Ordering::Relaxed);
    }
}

fn margin(total: Duration) -> Duration {
    (MARGIN + total / 20).min(total / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn clock_budget_stays_within_the_time_left() {
        for (time, inc, moves) in [
            (0.0, 0.0, None),
            (0.5, 3.0, None),
            (1.0, 0.05, None),
            (0.2, 10.0, Some(1)),
            (2.0, 0.0, Some(0)),
            (0.05, 0.0, None),
            (1.0, 0.0, Some(1)),
            (60.0, 1.0, None),
            (300.0, 0.0, Some(40)),
            (2.0, 2.0, None),
        ] {
            let b = MoveBudget::for_level(&TimeControl::Clock {
                moves,
                time: secs(time),
                inc: secs(inc),
            });
            let hard = b.hard.unwrap();
            let soft = b.soft.unwrap();
            assert!(soft <= hard, "{time} {inc}");
            // The increment is not on the clock yet: only `time` may be spent, with
            // a margin.
            assert!(
                hard <= secs(time) * 4 / 5 || hard == Duration::from_millis(1),
                "{time} {inc}: {hard:?}"
            );
        }
        let long = MoveBudget::for_level(&TimeControl::Clock {
            moves: None,
            time: secs(300.0),
            inc: secs(0.0),
        });
        assert!(long.soft.unwrap() >= secs(5.0), "{long:?}");
    }

    #[test]
    fn increment_is_not_spent_before_it_is_credited() {
        // time=0.5 inc=3 used to allow more than a second.
        let b = MoveBudget::for_level(&TimeControl::Clock {
            moves: None,
            time: secs(0.5),
            inc: secs(3.0),
        });
        let hard = b.hard.unwrap();
        assert!(hard + margin(secs(0.5)) <= secs(0.5), "{b:?}");
        assert!(hard <= secs(0.25), "{b:?}");
    }

    #[test]
    fn moves_zero_is_sudden_death() {
        let level = |moves| TimeControl::Clock {
            moves,
            time: secs(2.0),
            inc: secs(0.0),
        };
        let zero = MoveBudget::for_level(&level(Some(0)));
        assert_eq!(zero, MoveBudget::for_level(&level(None)));
        // Not 80% of the clock on one move.
        assert!(zero.hard.unwrap() <= secs(0.5), "{zero:?}");
    }

    #[test]
    fn soft_deadline_stops_after_half_of_it() {
        let stop = AtomicBool::new(false);
        stop_at_soft_deadline(None, secs(1e6), &stop);
        stop_at_soft_deadline(Some(secs(1.0)), secs(0.49), &stop);
        assert!(!stop.load(Ordering::Relaxed));
        stop_at_soft_deadline(Some(secs(1.0)), secs(0.5), &stop);
        assert!(stop.load(Ordering::Relaxed));
    }

    #[test]
    fn search_limits_carry_the_hard_deadline() {
        let b = MoveBudget::for_level(&TimeControl::MoveTime(secs(1.0)));
        assert_eq!(b.search_limits().time, b.hard);
        // The soft deadline too, which bounds a parallel search's grace period.
        let c = MoveBudget::for_level(&TimeControl::Clock {
            moves: None,
            time: secs(60.0),
            inc: secs(1.0),
        });
        assert_eq!(
            (c.search_limits().time, c.search_limits().soft),
            (c.hard, c.soft)
        );
        assert!(c.soft < c.hard);
        let d = MoveBudget::for_level(&TimeControl::Depth(4)).search_limits();
        assert_eq!((d.depth, d.time, d.soft), (Some(4), None, None));
    }

    #[test]
    fn exact_budgets_spend_all_of_a_move_time() {
        let t = secs(0.25);
        assert_eq!(
            MoveBudget::new(&TimeControl::MoveTime(t), Spend::Exact).search_limits(),
            Limits::time(t)
        );
        assert_eq!(
            MoveBudget::new(&TimeControl::Depth(0), Spend::Exact).search_limits(),
            Limits::depth(0)
        );
        let clock = TimeControl::Clock {
            moves: None,
            time: secs(60.0),
            inc: secs(1.0),
        };
        assert_eq!(
            MoveBudget::new(&clock, Spend::Exact),
            MoveBudget::for_level(&clock)
        );
    }

    #[test]
    fn predicted_iterations_must_end_before_the_deadline() {
        let next = NextIteration::Predicted(secs(0.5));
        assert!(another_iteration(None, secs(9.0), next));
        assert!(another_iteration(Some(secs(1.0)), secs(0.49), next));
        assert!(!another_iteration(Some(secs(1.0)), secs(0.5), next));
        assert_eq!(predict_next(secs(1.0), 100, 0), secs(4.0));
        assert_eq!(predict_next(secs(1.0), 100, 100), secs(1.5));
    }

    #[test]
    fn fixed_levels() {
        assert_eq!(
            MoveBudget::for_level(&TimeControl::Depth(5)).limits.depth,
            Some(5)
        );
        assert_eq!(
            MoveBudget::for_level(&TimeControl::Nodes(1000))
                .limits
                .nodes,
            Some(1000)
        );
        assert!(
            MoveBudget::for_level(&TimeControl::MoveTime(secs(1.0)))
                .hard
                .unwrap()
                < secs(1.0)
        );
        assert_eq!(
            MoveBudget::for_level(&TimeControl::Infinite),
            MoveBudget::default()
        );
    }
}
