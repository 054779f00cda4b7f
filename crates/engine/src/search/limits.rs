//! Search limits ([`Limits`], what the caller asks) and the budget that enforces them
//! inside the tree: node and time limits and the external stop flag (the rule for
//! stopping between iterations is the [`crate::time::Clock`]'s), and the
//! depth no search goes past ([`MAX_DEPTH`], and the per-ply tables' size). The
//! same periodic check reports the search's progress to a caller that asked for it.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use super::report::{ProgressDue, ProgressSink, Stats};

/// Deepest iteration searched (plies); also bounds the recursion.
pub const MAX_DEPTH: u32 = 120;
/// Size of the per-ply tables (killers, principal variation).
pub(crate) const MAX_PLY: usize = 128;

/// When to stop searching. Unset fields do not limit; all unset means "until stopped".
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub time: Option<Duration>,
    /// The caller's soft deadline, when it stops the search itself after an
    /// iteration (from `on_info`) once this is near: a parallel search's main
    /// thread may then help a helper's deeper iteration finish, until this much
    /// time has passed (`search/limits.rs`, `Budget::begin_grace`). `None`: no
    /// such help.
    pub soft: Option<Duration>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
    /// Search for a fixed time.
    pub fn time(t: Duration) -> Limits {
        Limits {
            time: Some(t),
            ..Limits::default()
        }
    }
    /// Search a fixed number of nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
}

/// How often (in nodes, a power of two minus one) the clock and stop flag are read.
const POLL_MASK: u64 = 1023;

/// The limits of one search, checked from inside the tree.
pub(crate) struct Budget<'a> {
    pub start: Instant,
    deadline: Option<Instant>,
    /// End of a grace period ([`Limits::soft`]).
    soft_deadline: Option<Instant>,
    max_nodes: Option<u64>,
    stop: &'a AtomicBool,
    /// The parallel search's own stop flag, read along with `stop`.
    halt: Option<&'a AtomicBool>,
    /// The parallel search's deepest completed iteration: the current iteration
    /// is abandoned once it reaches `iteration`.
    completed: Option<&'a AtomicU32>,
    /// Depth of the iteration under way.
    pub iteration: u32,
    /// Set (with `aborted`) when the iteration was abandoned because another
    /// thread completed its depth; the search goes on with a deeper one.
    pub superseded: bool,
    /// Set once any limit is hit; every node then returns at once.
    pub aborted: bool,
    /// While set, the external stop flag is not obeyed (the deadline, the parallel
    /// search's own stop and supersession still are): a parallel search's main
    /// thread helps finish a deeper iteration under way past a soft stop
    /// ([`Budget::begin_grace`]).
    grace: bool,
    /// The node count at which [`Budget::exhausted`] next reads the limits: the next
    /// poll or the node limit, whichever comes first (node counts only grow).
    next_check: u64,
    /// Where progress is reported between iterations, if anywhere.
    progress: Option<ProgressDue<'a>>,
}

impl<'a> Budget<'a> {
    /// The budget of a search that began at `start` (table preparation included),
    /// reporting its progress to `progress` at its polls.
    pub fn new(
        start: Instant,
        limits: &Limits,
        stop: &'a AtomicBool,
        halt: Option<&'a AtomicBool>,
        completed: Option<&'a AtomicU32>,
        progress: Option<ProgressSink<'a>>,
    ) -> Budget<'a> {
        Budget {
            start,
            deadline: limits.time.map(|t| start + t),
            soft_deadline: limits.soft.map(|t| start + t),
            max_nodes: limits.nodes,
            stop,
            halt,
            completed,
            // No iteration yet: nothing to supersede.
            iteration: u32::MAX,
            superseded: false,
            aborted: false,
            grace: false,
            next_check: 0,
            progress: progress.map(|p| ProgressDue::new(p, start)),
        }
    }

    /// Whether the search must stop now; `stats.nodes` counts every node visited.
    #[inline(always)]
    pub fn exhausted(&mut self, stats: &Stats) -> bool {
        // One compare on most nodes.
        if stats.nodes < self.next_check && !self.aborted {
            return false;
        }
        self.check(stats)
    }

    /// [`Budget::exhausted`] at a node where a limit may be reached; at a poll,
    /// the progress report when one is due.
    #[cold]
    #[inline(never)]
    fn check(&mut self, stats: &Stats) -> bool {
        if self.aborted {
            return true;
        }
        let nodes = stats.nodes;
        self.next_check = (nodes | POLL_MASK) + 1;
        if let Some(n) = self.max_nodes {
            self.next_check = self.next_check.min(n.saturating_add(1));
            if nodes > n {
                self.aborted = true;
                return true;
            }
        }
        if nodes & POLL_MASK == 0 && !self.poll() && self.iteration != u32::MAX {
            if let Some(p) = &mut self.progress {
                p.tick(self.start, self.iteration, stats);
            }
        }
        self.aborted
    }

    /// Read the clock and the stop flag (between root children, and every few nodes).
    pub fn poll(&mut self) -> bool {
        if !self.aborted {
            self.aborted = self.stop.load(Ordering::Relaxed) && !self.grace
                || self.halt.is_some_and(|h| h.load(Ordering::Relaxed))
                || self.deadline.is_some_and(|d| Instant::now() >= d);
            if !self.aborted
                && self
                    .completed
                    .is_some_and(|c| c.load(Ordering::Relaxed) >= self.iteration)
            {
                self.aborted = true;
                self.superseded = true;
            }
        }
        self.aborted
    }

    /// Resume after an abandoned (superseded) iteration.
    pub fn resume(&mut self) {
        self.aborted = false;
        self.superseded = false;
    }

    /// Whether the external stop flag is set (whatever the grace).
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether a grace period may begin: the caller gave a soft deadline
    /// ([`Limits::soft`]), which bounds it.
    pub fn can_grace(&self) -> bool {
        self.soft_deadline.is_some()
    }

    /// Stop obeying the external stop flag until the soft deadline (or the hard
    /// one, if earlier): the caller asked for no further iteration (a soft stop),
    /// but another thread's deeper iteration is under way and may finish in time
    /// with this thread's help. So a grace period never makes a move take longer
    /// than the caller's own budget for it.
    pub fn begin_grace(&mut self) {
        debug_assert!(self.can_grace(), "a grace period needs a soft deadline");
        if let Some(soft) = self.soft_deadline {
            self.deadline = Some(self.deadline.map_or(soft, |hard| hard.min(soft)));
            self.grace = true;
        }
    }

    /// Whether [`Budget::begin_grace`] was called.
    pub fn in_grace(&self) -> bool {
        self.grace
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_iteration_another_thread_completed_is_superseded_then_resumed() {
        let stop = AtomicBool::new(false);
        let halt = AtomicBool::new(false);
        let completed = AtomicU32::new(7);
        let limits = Limits::default();
        let mut b = Budget::new(
            Instant::now(),
            &limits,
            &stop,
            Some(&halt),
            Some(&completed),
            None,
        );
        // Before any iteration nothing is superseded.
        assert!(!b.poll());
        b.iteration = 8;
        assert!(!b.poll(), "depth 8 is deeper than any completed");
        completed.store(8, Ordering::Relaxed);
        assert!(b.poll());
        assert!(b.superseded && b.aborted);
        b.resume();
        b.iteration = 9;
        assert!(!b.poll() && !b.superseded);
        // A stop is not a supersession: the search ends.
        halt.store(true, Ordering::Relaxed);
        completed.store(9, Ordering::Relaxed);
        assert!(b.poll());
        assert!(!b.superseded);
    }

    #[test]
    fn grace_ignores_the_stop_flag_but_not_the_deadline_or_the_halt() {
        let stop = AtomicBool::new(true);
        let halt = AtomicBool::new(false);
        let hour = Duration::from_secs(3600);
        assert!(
            !Budget::new(Instant::now(), &Limits::time(hour), &stop, None, None, None).can_grace()
        );
        let limits = Limits {
            soft: Some(hour),
            ..Limits::time(hour)
        };
        let mut b = Budget::new(Instant::now(), &limits, &stop, Some(&halt), None, None);
        assert!(b.can_grace());
        assert!(b.poll(), "the stop flag stops a search out of grace");
        b.resume();
        b.begin_grace();
        assert!(b.in_grace() && b.stop_requested());
        assert!(!b.poll(), "in grace the stop flag is not obeyed");
        halt.store(true, Ordering::Relaxed);
        assert!(b.poll(), "the parallel search's own stop still ends it");
        // The soft deadline ends a grace period, even before the hard one.
        let past = Limits {
            soft: Some(Duration::ZERO),
            ..Limits::time(hour)
        };
        let halt = AtomicBool::new(false);
        let mut b = Budget::new(Instant::now(), &past, &stop, Some(&halt), None, None);
        b.begin_grace();
        assert!(b.poll());
    }

    #[test]
    fn one_thread_is_never_superseded() {
        let stop = AtomicBool::new(false);
        let limits = Limits::default();
        let mut b = Budget::new(Instant::now(), &limits, &stop, None, None, None);
        b.iteration = 0;
        assert!(!b.poll() && !b.superseded);
    }
}
