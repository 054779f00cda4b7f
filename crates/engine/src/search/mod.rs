//! Game-tree search. The public contract: [`Techniques`] (every technique switchable),
//! [`Limits`], [`Searcher::search`] reporting [`Info`] per completed iteration (and,
//! asked through [`Searcher::search_with_progress`], [`Progress`] between them) and
//! returning a [`SearchResult`] with [`Stats`].
//!
//! Layout: this file holds the [`Searcher`] (options and tables kept across moves) and
//! the start of one search.
//! - The contract: `techniques` the switches, `tuning` the tunable constants, `options` the
//!   [`SearchOptions`] builder, `limits` time, nodes and the stop flag, `report` what a
//!   search returns.
//! - The tree: `engine` the state of one search, `pvs` the node search (α-β / PVS,
//!   TT, killers, history, selective deepening, repetition), `leaf` the horizon
//!   nodes, `qsearch` quiescence, `order` move ordering and selection, `pv` the
//!   principal variation.
//! - `selective/`: the techniques that cut, reduce or extend a node's search (ETC,
//!   reverse futility, ProbCut, futility, late move reductions, internal iterative
//!   reduction, singular extensions, threat replies).
//! - `egdb/`: the endgame databases in the tree and at the root.
//! - `root/`: iterative deepening with the thesis' aspiration procedure, MTD(f),
//!   several best lines, the game history marked in the thesis' table.
//! - `parallel/`: lazy SMP over the shared table.
//!
//! The tables themselves, and the interface through which the search uses them, are
//! in [`crate::tt`].

use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use crate::eval::{Accumulators, Evaluation, Evaluator, Material};
use crate::tt::alloc::TableAllocError;
use crate::tt::{shared::SharedTable, thesis::Table, TableAccess};
use damas_rules::moves::MoveList;
use damas_rules::position::Position;
use damas_rules::variant::Rules;
pub use limits::{Limits, MAX_DEPTH};
pub use options::{
    DrawPolicy, SearchOptions, TableKind, WinPolicy, DEFAULT_HASH_MB, ENGINE_ASPIRATION_DELTA,
    THESIS_ASPIRATION_DELTA,
};
pub use parallel::smp::{parse_threads, MAX_THREADS};
pub use report::{Info, Progress, ProgressSink, PvLine, SearchResult, Stats, CONVERSION_UNPROVEN};
pub use techniques::{TechniqueError, Techniques};
pub(crate) use tuning::TimeTuning;
pub use tuning::{Param, ParamGroup, ParamId, Tuning, TuningError, PARAMS, PARAM_COUNT};

/// A search engine instance: options and tables, reused across moves of a game.
pub struct Searcher {
    options: SearchOptions,
    /// The thesis' table, allocated on first use by a search with `tt` (it also
    /// stands in, small and unused, when `tt` is off).
    tt: Option<Table>,
    /// Whether the thesis' table holds entries since its last clearing.
    tt_dirty: bool,
    /// The replacing table, shared with the helper threads.
    shared: Option<Arc<SharedTable>>,
    main: ThreadState,
    /// Killers, history and buffers of the helper threads, kept between searches.
    helpers: Vec<ThreadState>,
    /// Nodes (quiescence included) each thread searched in the last search, the
    /// main thread's first.
    thread_nodes: Vec<u64>,
}

/// What each search thread owns: ordering heuristics, the principal variation,
/// the move lists and the evaluation's accumulators.
struct ThreadState {
    heur: Heuristics,
    pv: PvTable,
    lists: Vec<MoveList>,
    acc: Accumulators,
}

impl ThreadState {
    fn new() -> ThreadState {
        ThreadState {
            heur: Heuristics::new(),
            pv: PvTable::new(),
            lists: vec![MoveList::new(); MAX_PLY + 64],
            acc: Accumulators::new(),
        }
    }

    /// Lend this thread's tables to one search started at `start`.
    fn lend<'s>(
        &'s mut self,
        start: Instant,
        opts: &'s SearchOptions,
        smp: Option<smp::Role<'s>>,
    ) -> Shared<'s> {
        self.heur.new_search();
        self.acc.clear();
        Shared {
            start,
            t: opts.techniques,
            opts,
            heur: &mut self.heur,
            pv: &mut self.pv,
            lists: &mut self.lists,
            acc: &mut self.acc,
            smp,
        }
    }
}

// Protocol and UI threads own searchers.
const _: () = {
    const fn send<T: Send>() {}
    send::<Searcher>();
};

impl Searcher {
    /// A searcher with the given options; panics where its table cannot be allocated
    /// (see [`Searcher::try_new`]).
    pub fn new(options: SearchOptions) -> Searcher {
        Self::try_new(options).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A searcher with the given options, or the error when the memory of its table
    /// cannot be had (a `hash` too large for the machine).
    pub fn try_new(options: SearchOptions) -> Result<Searcher, TableAllocError> {
        // The table is allocated here rather than in the first search.
        let uses = |k| options.techniques.tt && options.table == k;
        let tt = match uses(TableKind::Thesis) {
            true => Some(Table::try_new(options.tt_bits)?),
            false => None,
        };
        let shared = match uses(TableKind::Replacing) {
            true => Some(Arc::new(SharedTable::try_new(options.hash_mb)?)),
            false => None,
        };
        Ok(Searcher {
            options,
            tt,
            tt_dirty: false,
            shared,
            main: ThreadState::new(),
            helpers: Vec::new(),
            thread_nodes: Vec::new(),
        })
    }

    /// The options in force.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Find the best `lines` root moves from the next search on (1: the ordinary
    /// search); the tables are kept.
    pub fn set_lines(&mut self, lines: usize) {
        self.options.lines = lines.max(1);
    }

    /// Forget everything learnt (new game).
    pub fn clear(&mut self) {
        if let Some(t) = self.tt.as_mut() {
            if self.tt_dirty {
                t.clear();
            }
        }
        self.tt_dirty = false;
        if let Some(t) = &self.shared {
            t.clear();
        }
        self.main.heur.clear();
        for h in &mut self.helpers {
            h.heur.clear();
        }
    }

    /// Nodes (quiescence included) each thread searched in the last search, the
    /// main thread's first: with several threads, the busiest one's count measures
    /// the time to a depth whatever the machine's load.
    pub fn thread_nodes(&self) -> &[u64] {
        &self.thread_nodes
    }

    /// Used entries per thousand of the table in use (0 without one).
    pub fn table_permille(&self) -> u32 {
        match (&self.shared, &self.tt) {
            (Some(t), _) if self.options.table == TableKind::Replacing => t.fill_permille(),
            (_, Some(t)) if self.tt_dirty => t.fill_permille(),
            _ => 0,
        }
    }

    /// Search `pos`. `history` holds the game's earlier positions (oldest first, not
    /// including `pos`) for repetition detection. `on_info` is called after each
    /// completed iteration with cumulative statistics (of the main thread; a deeper
    /// iteration completed by a helper thread is reported last). Stops at the limits
    /// or when `stop` becomes true, returning the best move found so far, with the
    /// statistics of all threads together.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[Position],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.search_with_progress(pos, history, limits, stop, on_info, None)
    }

    /// [`Searcher::search`], reporting to `progress` (when given) how far it has got
    /// between completed iterations: the main thread, at its periodic check of the
    /// limits. The search is the same, node for node.
    pub fn search_with_progress(
        &mut self,
        pos: &Position,
        history: &[Position],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
        progress: Option<ProgressSink<'_>>,
    ) -> SearchResult {
        let start = Instant::now();
        let t = self.options.techniques;
        if t.tt && self.options.table == TableKind::Replacing {
            return self.search_shared(start, pos, history, limits, stop, on_info, progress);
        }
        // A small table stands in when `tt` is off, so the engine needs no Option.
        let bits = if t.tt { self.options.tt_bits } else { 10 };
        if self
            .tt
            .as_ref()
            .is_none_or(|tt| tt.bits() != bits.clamp(10, 30))
        {
            self.tt = Some(Table::new(bits));
            self.tt_dirty = false;
        }
        let tt = self.tt.as_mut().expect("table allocated above");
        if t.tt && self.options.clear_tt && self.tt_dirty {
            tt.clear();
        }
        self.tt_dirty |= t.tt;
        tt.reset_counters();
        let shared = self.main.lend(start, &self.options, None);
        let evaluation = self.options.evaluation.clone();
        let r = damas_rules::with_rules!(self.options.variant, R => dispatch!(evaluation, |eval| run::<_, _, R>(
            eval, shared, tt, pos, history, limits, stop, on_info, progress
        )));
        self.thread_nodes = vec![r.stats.nodes + r.stats.qs_nodes];
        r
    }

    /// A search over the replacing table, with helper threads when asked for.
    #[allow(clippy::too_many_arguments)]
    fn search_shared(
        &mut self,
        start: Instant,
        pos: &Position,
        history: &[Position],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
        progress: Option<ProgressSink<'_>>,
    ) -> SearchResult {
        let table = self
            .shared
            .get_or_insert_with(|| Arc::new(SharedTable::new(self.options.hash_mb)))
            .clone();
        table.new_search();
        // Several lines are searched by one thread.
        let helpers = if self.options.lines > 1 {
            0
        } else {
            self.options.threads.clamp(1, smp::MAX_THREADS) - 1
        };
        while self.helpers.len() < helpers {
            self.helpers.push(ThreadState::new());
        }
        let evaluation = self.options.evaluation.clone();
        let job = smp::Job {
            start,
            opts: &self.options,
            table: &table,
            pos,
            history,
            limits,
        };
        let (main, helpers) = (&mut self.main, &mut self.helpers[..helpers]);
        let (r, nodes) = damas_rules::with_rules!(job.opts.variant, R => dispatch!(evaluation, |eval| smp::search::<_, R>(
            eval, &job, main, helpers, stop, on_info, progress
        )));
        self.thread_nodes = nodes;
        r
    }
}

/// Run `$body` with `$e` bound to the evaluator of `$evaluation`, monomorphised for
/// the built-in evaluators.
macro_rules! dispatch {
    ($evaluation:expr, |$e:ident| $body:expr) => {
        match $evaluation {
            Evaluation::Material => {
                let $e = &Material;
                $body
            }
            Evaluation::Trained(x) => {
                let $e = x.as_ref();
                $body
            }
            Evaluation::Custom(x) => {
                let $e = x.as_ref();
                $body
            }
        }
    };
}
use dispatch;

/// The searcher's per-thread tables, lent to one search.
struct Shared<'a> {
    start: Instant,
    t: Techniques,
    opts: &'a SearchOptions,
    heur: &'a mut Heuristics,
    pv: &'a mut PvTable,
    lists: &'a mut Vec<MoveList>,
    acc: &'a mut Accumulators,
    /// This thread's place in a parallel search.
    smp: Option<smp::Role<'a>>,
}

/// One search with evaluator `eval` on table `tt` under the rules `R` (one thread's
/// part of it), reporting its progress to `progress`.
#[allow(clippy::too_many_arguments)]
fn run<E: Evaluator + ?Sized, T: TableAccess, R: Rules>(
    eval: &E,
    shared: Shared<'_>,
    tt: &mut T,
    pos: &Position,
    history: &[Position],
    limits: &Limits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
    progress: Option<ProgressSink<'_>>,
) -> SearchResult {
    let t = shared.t;
    let mut engine = Engine {
        t,
        tune: shared.opts.tuning,
        opts: shared.opts,
        eval,
        tt,
        heur: shared.heur,
        pv: shared.pv,
        stats: Stats::default(),
        budget: Budget::new(
            shared.start,
            limits,
            stop,
            shared.smp.map(|r| &r.coord.done),
            shared.smp.map(|r| &r.coord.completed),
            // Borrowed for this search only.
            progress.map(|p| ProgressSink {
                every: p.every,
                report: p.report,
            }),
        ),
        path: history.to_vec(),
        root_best: None,
        lists: shared.lists,
        acc: shared.acc,
        smp: shared.smp,
        known_key: None,
        rules: PhantomData::<R>,
        root_value: None,
        oracle_pieces: shared
            .opts
            .oracle
            .as_deref()
            .filter(|o| t.egdb && (!o.root_only() || o.covers(pos)))
            .map_or(0, |o| o.max_pieces()),
    };
    let marked = if t.tt && T::TRACKS_PATH {
        game_path::mark_game_path(&mut *engine.tt, pos, history)
    } else {
        Vec::new()
    };
    let result = engine.run(pos, limits, on_info);
    game_path::unmark_path(&mut *engine.tt, marked);
    result
}

mod egdb;
mod engine;
mod leaf;
mod limits;
mod options;
mod order;
mod parallel;
mod pv;
mod pvs;
mod qsearch;
mod report;
mod root;
mod selective;
mod techniques;
mod tuning;

use engine::Engine;
use limits::{Budget, MAX_PLY};
use order::Heuristics;
use parallel::smp;
use pv::PvTable;
use root::game_path;
