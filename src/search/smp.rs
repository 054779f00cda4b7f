//! Lazy SMP (the thesis' future work, §7.2): helper threads search the same root
//! over the shared replacing table, odd helpers one ply deeper at each iteration,
//! and leave what they learn in the table for the main thread, which alone reports
//! and decides. With one thread the search is exactly the single-threaded one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::eval::Evaluator;
use crate::position::Position;
use crate::shared_tt::SharedTable;

use super::table::SharedHandle;
use super::{run, Info, Limits, SearchOptions, SearchResult, ThreadState};

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
pub(super) struct Job<'a> {
    pub start: Instant,
    pub opts: &'a SearchOptions,
    pub table: &'a SharedTable,
    pub pos: &'a Position,
    pub history: &'a [Position],
    pub limits: &'a Limits,
}

/// Search `job` with the main thread's `main` state and one helper thread per
/// element of `helpers`. The helpers stop when the main search returns.
pub(super) fn search<E: Evaluator + ?Sized>(
    eval: &E,
    job: &Job<'_>,
    main: &mut ThreadState,
    helpers: &mut [ThreadState],
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    // One thread's search: its own tables, the shared one, its depth offset.
    let thread = |state: &mut ThreadState,
                  depth_skip: u32,
                  limits: &Limits,
                  stop: &AtomicBool,
                  on_info: &mut dyn FnMut(&Info)| {
        let mut tt = SharedHandle::new(job.table);
        let shared = state.lend(job.start, job.opts, depth_skip);
        run(
            eval,
            shared,
            &mut tt,
            job.pos,
            job.history,
            limits,
            stop,
            on_info,
        )
    };
    if helpers.is_empty() {
        return thread(main, 0, job.limits, stop, on_info);
    }
    let done = AtomicBool::new(false);
    // Helpers obey the depth limit only: nodes and time are the main thread's.
    let helper_limits = Limits {
        depth: job.limits.depth,
        ..Limits::default()
    };
    std::thread::scope(|s| {
        for (i, state) in helpers.iter_mut().enumerate() {
            let (done, helper_limits, thread) = (&done, &helper_limits, &thread);
            s.spawn(move || {
                thread(state, (i as u32 + 1) % 2, helper_limits, done, &mut |_| {});
            });
        }
        let result = thread(main, 0, job.limits, stop, on_info);
        done.store(true, Ordering::Relaxed);
        result
    })
}
