//! Lazy SMP (the thesis' future work, §7.2): helper threads search the same root
//! over the shared replacing table and leave what they learn there for the others.
//!
//! The threads spread over depths: a helper starting an iteration goes one ply past
//! any depth another thread is already searching, and every thread starts above the
//! deepest iteration any thread has completed, so no depth is searched twice at
//! once. The search ends as soon as any thread completes the depth limit (or when the
//! main thread stops for time, nodes or the stop flag), and its answer is that of
//! the thread with the deepest completed iteration (the main thread on a tie). An
//! iteration that another thread has already completed at its depth or deeper is
//! abandoned at once (it could only be thrown away), and a thread starting an
//! iteration puts first the best move of the deepest completed one. The
//! main thread alone reports progress (completed iterations and, when asked, how far
//! it has got between them). With one thread the search is exactly the
//! single-threaded one.
//!
//! A caller's soft stop (its `on_info` setting the stop flag after an iteration, so
//! that no new iteration starts) would throw away a helper's deeper iteration that
//! is already under way. So when a helper is deeper at that moment and the search
//! has a soft deadline (`Limits::soft`), the main thread goes on one more iteration,
//! joining the helper's, ignoring the stop flag until that iteration is done or the
//! soft deadline comes
//! ([`crate::search::limits::Budget::begin_grace`], counted in `Stats::grace`).

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::eval::Evaluator;
use crate::score::Score;
use crate::tt::{shared::SharedTable, SharedHandle};
use damas_rules::moves::Move;
use damas_rules::position::Position;
use damas_rules::variant::Rules;

use super::busy::Busy;
use crate::search::limits::Limits;
use crate::search::options::SearchOptions;
use crate::search::report::{Info, ProgressSink, SearchResult};
use crate::search::{run, ThreadState};

/// Most search threads accepted.
pub const MAX_THREADS: usize = 64;

/// A thread count as given on command lines and in parameters: 1 to [`MAX_THREADS`].
pub fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a thread count from 1 to {MAX_THREADS}, got {s:?}"
        )),
    }
}

/// What every thread of one search shares.
pub(crate) struct Job<'a> {
    pub start: Instant,
    pub opts: &'a SearchOptions,
    pub table: &'a SharedTable,
    pub pos: &'a Position,
    pub history: &'a [Position],
    pub limits: &'a Limits,
}

/// The deepest iteration completed by any thread, with what to report for it.
struct Deepest {
    depth: u32,
    thread: usize,
    /// Best move and score of that iteration (whichever thread completed it).
    best: Option<(Move, Score)>,
    result: Option<(SearchResult, Info)>,
}

/// Coordination of the threads of one parallel search: who searches which depth,
/// the deepest completed iteration, and the flag that stops them all. Touched once
/// per iteration, never inside the tree.
pub(crate) struct Coord {
    /// Depth each thread is searching now (0: none).
    searching: Vec<AtomicU32>,
    deepest: Mutex<Deepest>,
    /// `deepest.depth`, readable from inside the tree without the lock: an
    /// iteration no deeper than this is superseded and abandoned.
    pub completed: AtomicU32,
    /// Set when the search is over: every thread returns.
    pub done: AtomicBool,
    /// The children some thread is searching now, which the others put last.
    pub busy: Busy,
}

impl Coord {
    fn new(threads: usize) -> Coord {
        Coord {
            searching: (0..threads).map(|_| AtomicU32::new(0)).collect(),
            deepest: Mutex::new(Deepest {
                depth: 0,
                thread: 0,
                best: None,
                result: None,
            }),
            completed: AtomicU32::new(0),
            done: AtomicBool::new(false),
            busy: Busy::default(),
        }
    }

    fn deepest(&self) -> std::sync::MutexGuard<'_, Deepest> {
        // A thread that panicked leaves consistent data: the guard is only held
        // for plain assignments.
        self.deepest.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One thread's place in a parallel search.
#[derive(Clone, Copy)]
pub(crate) struct Role<'a> {
    pub coord: &'a Coord,
    pub thread: usize,
}

impl Role<'_> {
    /// The depth of this thread's next iteration, `next` being one past its last:
    /// above every completed iteration, and for a helper also past every depth
    /// another thread is searching.
    pub fn start_iteration(&self, next: u32, max_depth: u32) -> u32 {
        let c = self.coord;
        let mut d = next.max(c.deepest().depth + 1);
        if self.thread != 0 {
            let busy = |d: u32| {
                c.searching
                    .iter()
                    .enumerate()
                    .any(|(i, s)| i != self.thread && s.load(Ordering::Relaxed) == d)
            };
            while d < max_depth && busy(d) {
                d += 1;
            }
        }
        let d = d.min(max_depth);
        c.searching[self.thread].store(d, Ordering::Relaxed);
        d
    }

    /// The best move and score of the deepest iteration any thread completed, when
    /// it is deeper than `own` (this thread's deepest): searched first next, so a
    /// thread that skipped depths does not start from a stale best move.
    pub fn adopt(&self, own: u32) -> Option<(Move, Score)> {
        let deepest = self.coord.deepest();
        if deepest.depth > own {
            deepest.best
        } else {
            None
        }
    }

    /// Whether another thread is searching an iteration deeper than both `depth`
    /// and every completed one (so one that may still improve the answer).
    pub fn helper_beyond(&self, depth: u32) -> bool {
        let c = self.coord;
        let floor = depth.max(c.completed.load(Ordering::Relaxed));
        c.searching
            .iter()
            .enumerate()
            .any(|(i, s)| i != self.thread && s.load(Ordering::Relaxed) > floor)
    }

    /// Whether the search is over or another thread completed `max_depth`.
    pub fn finished(&self, max_depth: u32) -> bool {
        self.coord.done.load(Ordering::Relaxed)
            || self.coord.completed.load(Ordering::Relaxed) >= max_depth
    }

    /// Record a completed iteration; completing `max_depth` ends the search.
    pub fn completed(&self, result: &SearchResult, info: &Info, max_depth: u32) {
        let c = self.coord;
        {
            let mut deepest = c.deepest();
            if result.depth > deepest.depth {
                deepest.depth = result.depth;
                deepest.thread = self.thread;
                deepest.best = result.best.map(|m| (m, result.score));
                c.completed.store(result.depth, Ordering::Relaxed);
                if self.thread != 0 {
                    deepest.result = Some((result.clone(), info.clone()));
                }
            }
        }
        if result.depth >= max_depth {
            c.done.store(true, Ordering::Relaxed);
        }
    }
}

/// Search `job` with the main thread's `main` state and one helper thread per
/// element of `helpers`, the main thread reporting to `on_info` and `progress`.
/// Returns the result and every thread's node count (quiescence included), the main
/// thread's first.
pub(crate) fn search<E: Evaluator + ?Sized, R: Rules>(
    eval: &E,
    job: &Job<'_>,
    main: &mut ThreadState,
    helpers: &mut [ThreadState],
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
    progress: Option<ProgressSink<'_>>,
) -> (SearchResult, Vec<u64>) {
    let all_nodes = |r: &SearchResult| r.stats.nodes + r.stats.qs_nodes;
    // One thread's search: its own tables, the shared one, its role.
    let thread = |state: &mut ThreadState,
                  role: Option<Role<'_>>,
                  limits: &Limits,
                  stop: &AtomicBool,
                  on_info: &mut dyn FnMut(&Info),
                  progress: Option<ProgressSink<'_>>| {
        let mut tt = SharedHandle::new(job.table);
        let shared = state.lend(job.start, job.opts, role);
        run::<_, _, R>(
            eval,
            shared,
            &mut tt,
            job.pos,
            job.history,
            limits,
            stop,
            on_info,
            progress,
        )
    };
    if helpers.is_empty() {
        let r = thread(main, None, job.limits, stop, on_info, progress);
        let n = all_nodes(&r);
        return (r, vec![n]);
    }
    let coord = Coord::new(helpers.len() + 1);
    // Helpers obey the depth limit only: nodes and time are the main thread's.
    let helper_limits = Limits {
        depth: job.limits.depth,
        ..Limits::default()
    };
    let (mut result, helper_results) = std::thread::scope(|s| {
        let handles: Vec<_> = helpers
            .iter_mut()
            .enumerate()
            .map(|(i, state)| {
                let (coord, helper_limits, thread) = (&coord, &helper_limits, &thread);
                s.spawn(move || {
                    let role = Role {
                        coord,
                        thread: i + 1,
                    };
                    thread(
                        state,
                        Some(role),
                        helper_limits,
                        &coord.done,
                        &mut |_| {},
                        None,
                    )
                })
            })
            .collect();
        let role = Role {
            coord: &coord,
            thread: 0,
        };
        let result = thread(main, Some(role), job.limits, stop, on_info, progress);
        coord.done.store(true, Ordering::Relaxed);
        let helper_results: Vec<SearchResult> =
            handles.into_iter().filter_map(|h| h.join().ok()).collect();
        (result, helper_results)
    });
    let mut nodes = vec![all_nodes(&result)];
    nodes.extend(helper_results.iter().map(all_nodes));
    let mut total = result.stats;
    for r in &helper_results {
        total.absorb(&r.stats);
    }
    let deepest = coord
        .deepest
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((r, mut info)) = deepest.result {
        if r.depth > result.depth {
            // A helper got deeper: its answer, reported as the main thread's would be.
            info.stats = total;
            info.stats.time = job.start.elapsed();
            on_info(&info);
            result = r;
        }
    }
    total.time = job.start.elapsed();
    result.stats = total;
    (result, nodes)
}
