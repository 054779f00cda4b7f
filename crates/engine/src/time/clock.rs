//! A move's running clock, shared by [`crate::think::think`] and its caller: the stop
//! flag the searcher polls, the budget and when its time started, the rule for
//! stopping between iterations, and the hard deadline's watch. The caller may stop
//! the search, restart the clock under a new budget (the Hub's ponder-hit), or hold
//! its answer until released (pondering, analysis).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use damas_rules::moves::Move;

use super::{MoveBudget, Pace};
use crate::score::Score;

/// One move's clock: see the module documentation.
pub struct Clock {
    /// Ends the search (set by [`Clock::stop`], the hard deadline or the pace between
    /// iterations); the searcher polls it. Shared where the caller stops searches
    /// it has not started yet.
    stop: Arc<AtomicBool>,
    /// Everything the waiting threads wait on, changed only with `changed` notified.
    state: Mutex<State>,
    /// Signalled on every change of `state` and on stop.
    changed: Condvar,
    /// The time started before the search ([`Clock::started_at`]): the searcher's
    /// own time limit, counted from its own start, would come late.
    started_before: bool,
}

struct State {
    /// Pondering or analysing: the pace stops nothing and the deadline does not run
    /// until released ([`Clock::start`] or [`Clock::stop`]).
    hold: bool,
    /// When the time started.
    start: Instant,
    /// What may be spent.
    budget: MoveBudget,
    /// When to stop between iterations.
    pace: Pace,
    /// The search is over: the deadline's watch ends.
    finished: bool,
}

impl Clock {
    /// The clock of a search under `budget`, its time starting now.
    pub fn new(budget: MoveBudget) -> Clock {
        Clock {
            started_before: false,
            ..Clock::started_at(budget, Instant::now(), false)
        }
    }

    /// The clock of a search under `budget`, its time starting now, that `stop` ends.
    pub fn with_stop(budget: MoveBudget, stop: Arc<AtomicBool>) -> Clock {
        Clock {
            stop,
            ..Clock::new(budget)
        }
    }

    /// The clock of a search under `budget` whose time started at `start` (when the
    /// command that asked for it arrived); `hold` for pondering and analysis, whose
    /// answer waits until [`Clock::start`] or [`Clock::stop`].
    pub fn started_at(budget: MoveBudget, start: Instant, hold: bool) -> Clock {
        Clock {
            stop: Arc::new(AtomicBool::new(false)),
            state: Mutex::new(State {
                hold,
                start,
                budget,
                pace: Pace::new(&budget),
                finished: false,
            }),
            changed: Condvar::new(),
            started_before: true,
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Change the state and wake the waiting threads.
    fn update(&self, f: impl FnOnce(&mut State)) {
        f(&mut self.state());
        self.changed.notify_all();
    }

    /// The flag the searcher polls.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// Whether the search was asked to end.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// What may be spent now.
    pub fn budget(&self) -> MoveBudget {
        self.state().budget
    }

    /// Whether the answer is held (pondering, analysis).
    pub fn held(&self) -> bool {
        self.state().hold
    }

    /// Restart the time at `start` under `budget` and release the answer (the Hub's
    /// ponder-hit). A search that has already searched as long as the pace allows
    /// the move stops at once.
    pub fn start(&self, budget: MoveBudget, start: Instant) {
        self.update(|s| {
            let pondered = start.saturating_duration_since(s.start);
            s.start = start;
            s.budget = budget;
            s.pace.set_budget(&budget);
            if s.pace.spent(pondered) {
                self.stop.store(true, Ordering::SeqCst);
            }
            s.hold = false;
        });
    }

    /// Ask the search to end, and release the answer.
    pub fn stop(&self) {
        self.update(|s| {
            s.hold = false;
            self.stop.store(true, Ordering::SeqCst);
        });
    }

    /// After an iteration whose best move is `best` with `score`: stop when the pace
    /// says so, unless held (a ponder search's iterations count towards the pace
    /// after ponder-hit).
    pub(crate) fn after_iteration(&self, best: Option<Move>, score: Score) {
        let mut s = self.state();
        let elapsed = s.start.elapsed();
        let stop = s.pace.after_iteration(best, score, elapsed);
        if stop && !s.hold {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Wait until the answer may be given (not held, or stopped).
    pub fn wait_release(&self) {
        let s = self.state();
        let _released = self
            .changed
            .wait_while(s, |s| s.hold && !self.stop.load(Ordering::SeqCst))
            .unwrap_or_else(|e| e.into_inner());
    }

    /// Whether the deadline needs a watch beside the searcher's own time limit: the
    /// answer is held (the time starts later), or the time started before the search
    /// and has a hard deadline. A clock started with its search ([`Clock::new`])
    /// leaves the deadline to the searcher's own limit.
    pub(crate) fn needs_watch(&self) -> bool {
        let s = self.state();
        s.hold || (self.started_before && s.budget.hard().is_some())
    }

    /// The search is over: the watch ends.
    pub(crate) fn finish(&self) {
        self.update(|s| s.finished = true);
    }

    /// Set the stop flag when the hard deadline passes; returns once the search has
    /// finished ([`Clock::finish`]).
    pub(crate) fn watch_deadline(&self) {
        let mut s = self.state();
        while !s.finished {
            let left = match s.budget.hard() {
                Some(h) if !s.hold => h.checked_sub(s.start.elapsed()),
                // No deadline running: wait for a change (ponder-hit, the end).
                _ => {
                    s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
                    continue;
                }
            };
            match left {
                Some(left) if !left.is_zero() => {
                    s = self
                        .changed
                        .wait_timeout(s, left)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
                _ => {
                    self.stop.store(true, Ordering::SeqCst);
                    s = self
                        .changed
                        .wait_while(s, |s| !s.finished)
                        .unwrap_or_else(|e| e.into_inner());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;
    use std::time::Duration;

    #[test]
    fn the_watch_stops_at_the_hard_deadline_and_ends_with_the_search() {
        let five_ms = Limits::time(Duration::from_millis(5)).into();
        let clock = Clock::started_at(five_ms, Instant::now(), false);
        assert!(clock.needs_watch());
        // Started with its search, the searcher's own limit enforces the deadline.
        assert!(!Clock::new(five_ms).needs_watch());
        std::thread::scope(|s| {
            let watch = s.spawn(|| clock.watch_deadline());
            while !clock.stopped() {
                std::thread::yield_now();
            }
            clock.finish();
            watch.join().unwrap();
        });
    }

    #[test]
    fn a_held_clock_releases_at_start_or_stop() {
        let clock = Clock::started_at(MoveBudget::default(), Instant::now(), true);
        assert!(clock.held() && clock.needs_watch());
        clock.start(MoveBudget::default(), Instant::now());
        assert!(!clock.held() && !clock.stopped());
        clock.wait_release();
        let held = Clock::started_at(MoveBudget::default(), Instant::now(), true);
        held.stop();
        held.wait_release();
        assert!(held.stopped());
        // Depth and node limits alone need no watch.
        assert!(!Clock::new(Limits::depth(3).into()).needs_watch());
    }
}
