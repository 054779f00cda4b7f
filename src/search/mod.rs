//! Game-tree search. The public contract: [`Techniques`] (every technique switchable),
//! [`Limits`], [`Searcher::search`] reporting [`Info`] per completed iteration and
//! returning a [`SearchResult`] with [`Stats`].
//!
//! Layout: `pvs` the node search (α-β / PVS, TT, killers, history, ETC, selective
//! deepening, endgame database, repetition), `qsearch` quiescence, `order` move
//! ordering and selection, `root` iterative deepening with the thesis' aspiration
//! procedure, `mtdf` MTD(f), `limits` time, nodes and the stop flag, `table` the
//! search's view of the two tables: the thesis' [`crate::tt`] and the default
//! engine's [`crate::shared_tt`], which helper threads share (lazy SMP, `smp`).

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::eval::{Evaluation, Evaluator, Material};
use crate::moves::{Move, MoveList};
pub use crate::oracle::{Oracle, OracleAnswer, OracleValue};
use crate::position::Position;
use crate::score::Score;
use crate::shared_tt::SharedTable;
use crate::tt::{key, Table};
pub use options::{
    DrawPolicy, SearchOptions, TableKind, TableSetup, DEFAULT_HASH_MB, ENGINE_ASPIRATION_DELTA,
    THESIS_ASPIRATION_DELTA,
};
pub use smp::{parse_threads, MAX_THREADS};

/// Which search techniques are switched on. Parse from `pvs+asp+tt` or `pvs,asp,tt`;
/// `ab` alone means plain α-β.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Techniques {
    /// Principal variation search (null windows after the first move).
    pub pvs: bool,
    /// Iterative deepening.
    pub id: bool,
    /// Aspiration windows at the root (implies iterative deepening).
    pub asp: bool,
    /// Transposition table.
    pub tt: bool,
    /// Quiescence search of captures at the horizon.
    pub qs: bool,
    /// Two killer moves per ply.
    pub killers: bool,
    /// History heuristic.
    pub history: bool,
    /// Enhanced transposition cutoffs near the root (nodes with 6 or more plies to
    /// go; needs `tt`).
    pub etc: bool,
    /// MTD(f) driver over the TT, in place of the root procedure (each iteration
    /// starts from the previous score; without `id` one iteration from the static
    /// evaluation).
    pub mtdf: bool,
    /// Endgame database cutoffs (needs [`SearchOptions::oracle`]).
    pub egdb: bool,
    /// Late move reductions: at null-window nodes with 3 or more plies to go, quiet
    /// moves after the first three that give the opponent no capture are searched
    /// one ply shallower first (two when late and deep), and again at full depth
    /// only if they beat alpha. Not one of the thesis' techniques.
    pub lmr: bool,
    /// The counting draw rules ([`crate::drawrules`]): a line reaching one scores a
    /// draw, so a won ending is pursued before the count runs out. Not one of the
    /// thesis' techniques.
    pub rules: bool,
    /// Single-reply extensions: a node where the side to move has one legal move
    /// searches it one ply deeper (forced captures are common in draughts, and a
    /// forced move costs the opponent nothing to answer). Not one of the thesis'
    /// techniques.
    pub ext: bool,
    /// Selective deepening: at every non-capture, non-root node keep only this
    /// percentage of the moves (best by a cheap move score, in their original order).
    /// `sel35` / `sel50` on the command line; `None` searches every move.
    pub sel: Option<u8>,
}

/// Error for an unknown technique name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown search technique {0:?} (known: ab, pvs, id, asp, tt, qs, killers, history, etc, mtdf, egdb, lmr, rules, ext, sel35, sel50, sel<1-99>)")]
pub struct TechniqueError(pub String);

impl FromStr for Techniques {
    type Err = TechniqueError;
    fn from_str(s: &str) -> Result<Techniques, TechniqueError> {
        let mut t = Techniques::default();
        for name in s.split(['+', ',']).map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "ab" => {}
                "pvs" => t.pvs = true,
                "id" => t.id = true,
                "asp" => t.asp = true,
                "tt" => t.tt = true,
                "qs" => t.qs = true,
                "killers" => t.killers = true,
                "history" => t.history = true,
                "etc" => t.etc = true,
                "mtdf" => t.mtdf = true,
                "egdb" => t.egdb = true,
                "lmr" => t.lmr = true,
                "rules" => t.rules = true,
                "ext" => t.ext = true,
                other => match other.strip_prefix("sel").and_then(|p| p.parse::<u8>().ok()) {
                    Some(p) if (1..=99).contains(&p) => t.sel = Some(p),
                    _ => return Err(TechniqueError(other.to_string())),
                },
            }
        }
        Ok(t)
    }
}

impl fmt::Display for Techniques {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (self.pvs, "pvs"),
            (self.id, "id"),
            (self.asp, "asp"),
            (self.tt, "tt"),
            (self.qs, "qs"),
            (self.killers, "killers"),
            (self.history, "history"),
            (self.etc, "etc"),
            (self.mtdf, "mtdf"),
            (self.egdb, "egdb"),
            (self.lmr, "lmr"),
            (self.rules, "rules"),
            (self.ext, "ext"),
        ];
        let mut on: Vec<String> = names
            .iter()
            .filter(|n| n.0)
            .map(|n| n.1.to_string())
            .collect();
        if let Some(p) = self.sel {
            on.push(format!("sel{p}"));
        }
        if on.is_empty() {
            f.write_str("ab")
        } else {
            f.write_str(&on.join("+"))
        }
    }
}

impl Techniques {
    /// The combination used when none is given: the fastest to a given depth on the
    /// middle-game test positions (`pvs+id+asp+tt+qs+history+etc`; killers cost
    /// nodes here, MTD(f) and plain α-β a few per cent more time).
    pub fn strongest() -> Techniques {
        Techniques {
            pvs: true,
            id: true,
            asp: true,
            tt: true,
            qs: true,
            history: true,
            etc: true,
            ..Techniques::default()
        }
    }

    /// The default engine's combination: [`Techniques::strongest`] plus late move
    /// reductions, which gained +27 ± 22 Elo at equal nodes with the trained
    /// evaluation (SPRT 0/30 accepted after 472 games), the counting draw rules, and
    /// killers, which cost nodes with the thesis' material count but gained
    /// +22 ± 17 Elo at 20,000 nodes with the trained one (SPRT 0/15, H1 after 659 games).
    pub fn engine() -> Techniques {
        Techniques {
            lmr: true,
            rules: true,
            killers: true,
            ..Techniques::strongest()
        }
    }
}

/// When to stop searching. Unset fields do not limit; all unset means "until stopped".
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub time: Option<Duration>,
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

/// Node counts and timing of one search.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Stats {
    /// Search nodes in the thesis' convention (quiescence excluded).
    pub nodes: u64,
    /// Interior nodes (searched further).
    pub interior: u64,
    /// Leaves given a static evaluation.
    pub leaves: u64,
    /// Nodes cut off by the transposition table.
    pub tt_cutoffs: u64,
    /// Positions with no legal move (or drawn by repetition).
    pub terminal: u64,
    /// Nodes answered by the endgame database.
    pub egdb_cutoffs: u64,
    /// Quiescence nodes.
    pub qs_nodes: u64,
    /// Transposition table accesses.
    pub tt_accesses: u64,
    /// Key comparisons over all TT accesses (for the replacing table, buckets read).
    pub tt_compares: u64,
    /// Table entries in use per thousand (of the current search, for the replacing
    /// table).
    pub tt_permille: u32,
    /// Elapsed time.
    pub time: Duration,
}

impl Stats {
    /// Add the counts of `other` (another search's) to these. The table's fill and
    /// the time are not counts and stay as they are.
    pub fn absorb(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.interior += other.interior;
        self.leaves += other.leaves;
        self.tt_cutoffs += other.tt_cutoffs;
        self.terminal += other.terminal;
        self.egdb_cutoffs += other.egdb_cutoffs;
        self.qs_nodes += other.qs_nodes;
        self.tt_accesses += other.tt_accesses;
        self.tt_compares += other.tt_compares;
    }

    /// Nodes per second counting every node, quiescence included.
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            ((self.nodes + self.qs_nodes) as f64 / s) as u64
        } else {
            0
        }
    }
}

/// Progress report after each completed iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Depth completed.
    pub depth: u32,
    /// Score of the best move.
    pub score: Score,
    /// Statistics so far.
    pub stats: Stats,
    /// Principal variation from the root.
    pub pv: Vec<Move>,
}

/// Outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// Best move (`None` when the side to move has no legal move).
    pub best: Option<Move>,
    /// Its score.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Statistics.
    pub stats: Stats,
}

/// Deepest iteration searched (plies); also bounds the recursion.
pub const MAX_DEPTH: u32 = 120;
/// Size of the per-ply tables (killers, principal variation).
pub(crate) const MAX_PLY: usize = 128;

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

/// What each search thread owns: ordering heuristics, the principal variation and
/// the move lists.
struct ThreadState {
    heur: Heuristics,
    pv: PvTable,
    lists: Vec<MoveList>,
}

impl ThreadState {
    fn new() -> ThreadState {
        ThreadState {
            heur: Heuristics::new(),
            pv: PvTable::new(),
            lists: vec![MoveList::new(); MAX_PLY + 64],
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
        Shared {
            start,
            t: opts.techniques,
            opts,
            heur: &mut self.heur,
            pv: &mut self.pv,
            lists: &mut self.lists,
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
    /// A searcher with the given options.
    pub fn new(options: SearchOptions) -> Searcher {
        // The table is allocated here rather than in the first search.
        let uses = |k| options.techniques.tt && options.table == k;
        let tt = uses(TableKind::Thesis).then(|| Table::new(options.tt_bits));
        let shared =
            uses(TableKind::Replacing).then(|| Arc::new(SharedTable::new(options.hash_mb)));
        Searcher {
            options,
            tt,
            tt_dirty: false,
            shared,
            main: ThreadState::new(),
            helpers: Vec::new(),
            thread_nodes: Vec::new(),
        }
    }

    /// The options in force.
    pub fn options(&self) -> &SearchOptions {
        &self.options
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
        let start = Instant::now();
        let t = self.options.techniques;
        if t.tt && self.options.table == TableKind::Replacing {
            return self.search_shared(start, pos, history, limits, stop, on_info);
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
        let r = dispatch!(evaluation, |eval| run(
            eval, shared, tt, pos, history, limits, stop, on_info
        ));
        self.thread_nodes = vec![r.stats.nodes + r.stats.qs_nodes];
        r
    }

    /// A search over the replacing table, with helper threads when asked for.
    fn search_shared(
        &mut self,
        start: Instant,
        pos: &Position,
        history: &[Position],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let table = self
            .shared
            .get_or_insert_with(|| Arc::new(SharedTable::new(self.options.hash_mb)))
            .clone();
        table.new_search();
        let helpers = self.options.threads.clamp(1, smp::MAX_THREADS) - 1;
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
        let (r, nodes) = dispatch!(evaluation, |eval| smp::search(
            eval, &job, main, helpers, stop, on_info
        ));
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
    /// This thread's place in a parallel search.
    smp: Option<smp::Role<'a>>,
}

/// One search with evaluator `eval` on table `tt` (one thread's part of it).
#[allow(clippy::too_many_arguments)]
fn run<E: Evaluator + ?Sized, T: TableAccess>(
    eval: &E,
    shared: Shared<'_>,
    tt: &mut T,
    pos: &Position,
    history: &[Position],
    limits: &Limits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let t = shared.t;
    let mut engine = Engine {
        t,
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
        ),
        path: history.to_vec(),
        root_best: None,
        lists: shared.lists,
        smp: shared.smp,
    };
    // The thesis marks the root (and here the reversible part of the game history)
    // as on the path, so that meeting it again scores a draw.
    let mut marked = Vec::new();
    if t.tt && T::TRACKS_PATH {
        let mut next = pos;
        for p in std::iter::once(pos).chain(history.iter().rev()) {
            if !crate::drawrules::reversible(p, next) {
                break;
            }
            if let Some((s, found)) = engine.tt.probe(key(p)) {
                if !found.is_some_and(|f| f.on_path) {
                    engine.tt.set_path(s, true);
                    marked.push(s);
                }
            }
            next = p;
        }
        engine.tt.set_counters((0, 0));
    }
    let result = engine.run(pos, limits, on_info);
    for s in marked {
        engine.tt.set_path(s, false);
    }
    result
}

mod egdb_progress;
mod limits;
mod mtdf;
mod options;
mod order;
mod pvs;
mod qsearch;
mod root;
mod smp;
mod table;

use limits::Budget;
use order::Heuristics;
use pvs::{Engine, PvTable};
use table::TableAccess;
