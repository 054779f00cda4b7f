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
use super::{run, Info, Limits, SearchOptions, SearchResult, Shared, ThreadState};

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

impl Job<'_> {
    fn shared<'s>(&'s self, state: &'s mut ThreadState, depth_skip: u32) -> Shared<'s> {
        state.heur.new_search();
        Shared {
            start: self.start,
            t: self.opts.techniques,
            opts: self.opts,
            heur: &mut state.heur,
            pv: &mut state.pv,
            lists: &mut state.lists,
            depth_skip,
        }
    }
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
    let main_search = |main: &mut ThreadState, on_info: &mut dyn FnMut(&Info)| {
        let mut tt = SharedHandle::new(job.table);
        let shared = job.shared(main, 0);
        run(
            eval,
            shared,
            &mut tt,
            job.pos,
            job.history,
            job.limits,
            stop,
            on_info,
        )
    };
    if helpers.is_empty() {
        return main_search(main, on_info);
    }
    let done = AtomicBool::new(false);
    // Helpers obey the depth limit only: nodes and time are the main thread's.
    let helper_limits = Limits {
        depth: job.limits.depth,
        ..Limits::default()
    };
    std::thread::scope(|s| {
        for (i, state) in helpers.iter_mut().enumerate() {
            let (done, helper_limits) = (&done, &helper_limits);
            s.spawn(move || {
                let mut tt = SharedHandle::new(job.table);
                let shared = job.shared(state, (i as u32 + 1) % 2);
                run(
                    eval,
                    shared,
                    &mut tt,
                    job.pos,
                    job.history,
                    helper_limits,
                    done,
                    &mut |_| {},
                );
            });
        }
        let result = main_search(main, on_info);
        done.store(true, Ordering::Relaxed);
        result
    })
}
