//! What a search reports: node counts and timing ([`Stats`]), a completed iteration
//! ([`Info`]), how far it has got between iterations ([`Progress`]) and the outcome
//! ([`SearchResult`]).

use std::time::{Duration, Instant};

use crate::score::Score;
use damas_rules::moves::Move;

/// Node counts and timing of one search.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Stats {
    /// Search nodes in the thesis' convention (quiescence excluded).
    pub nodes: u64,
    /// Interior nodes (searched further).
    pub interior: u64,
    /// Leaves given a static evaluation (horizon nodes, and nodes cut off by reverse
    /// futility pruning).
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
    /// Moves put off to the end of their node because another thread was searching
    /// their subtree (parallel search only, see `search/parallel/busy.rs`).
    pub deferred: u64,
    /// Times the main thread of a parallel search went on past the caller's soft
    /// stop to help a helper's deeper iteration finish (see `search/root/deepening.rs`).
    pub grace: u64,
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
        self.deferred += other.deferred;
        self.grace += other.grace;
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

/// What users are told when [`SearchResult::conversion_unproven`]: the move follows
/// the database, but no line converting the win within the counting rules was found.
pub const CONVERSION_UNPROVEN: &str =
    "database win; conversion within the counting rules not proven";

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
    /// With several lines asked for
    /// ([`SearchOptions::with_lines`](super::SearchOptions::with_lines)), the best root
    /// moves' lines, best first; empty otherwise.
    pub lines: Vec<PvLine>,
    /// A won database position whose conversion within the counting rules (the
    /// 15-move and 5-move rules) was not found: the win may still be drawn by them.
    pub conversion_unproven: bool,
}

/// How far a running search has got, reported between completed iterations to a
/// caller that asked for it ([`ProgressSink`]): live counts for a display.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Progress {
    /// Depth of the iteration under way.
    pub depth: u32,
    /// Search nodes so far ([`Stats::nodes`]), of the reporting (main) thread.
    pub nodes: u64,
    /// Quiescence nodes so far ([`Stats::qs_nodes`]).
    pub qs_nodes: u64,
    /// Time since the search began.
    pub time: Duration,
}

impl Progress {
    /// Nodes per second counting every node, quiescence included ([`Stats::nps`]).
    pub fn nps(&self) -> u64 {
        Stats {
            nodes: self.nodes,
            qs_nodes: self.qs_nodes,
            time: self.time,
            ..Stats::default()
        }
        .nps()
    }
}

/// Where a running search reports its [`Progress`], and how often: at the search's
/// periodic check of its limits, once at least `every` has passed since the last
/// report (or the search's start). The search itself is the same with or without.
pub struct ProgressSink<'a> {
    /// The least time between two reports.
    pub every: Duration,
    /// Called with each report, on the search's main thread.
    pub report: &'a mut dyn FnMut(&Progress),
}

/// A [`ProgressSink`] in a search: when its next report is due.
pub(crate) struct ProgressDue<'a> {
    sink: ProgressSink<'a>,
    next: Instant,
}

impl<'a> ProgressDue<'a> {
    /// Reports to `sink` for a search that began at `start`.
    pub fn new(sink: ProgressSink<'a>, start: Instant) -> ProgressDue<'a> {
        ProgressDue {
            next: start + sink.every,
            sink,
        }
    }

    /// Report `depth` and the counts of `stats` (a search begun at `start`) when due.
    pub fn tick(&mut self, start: Instant, depth: u32, stats: &Stats) {
        let now = Instant::now();
        if now < self.next {
            return;
        }
        self.next = now + self.sink.every;
        (self.sink.report)(&Progress {
            depth,
            nodes: stats.nodes,
            qs_nodes: stats.qs_nodes,
            time: now.saturating_duration_since(start),
        });
    }
}

/// One of several best lines from the root: its score (of the side to move) and moves.
#[derive(Clone, Debug, PartialEq)]
pub struct PvLine {
    /// Score of the line's first move.
    pub score: Score,
    /// The line, its first move the root move.
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
    /// A won database position whose conversion within the counting rules (the
    /// 15-move and 5-move rules) was not found: the win may still be drawn by them.
    pub conversion_unproven: bool,
}

impl SearchResult {
    /// The bare result of a move played without a search (a forced or book move): no
    /// score earned, depth 0, the move its own line.
    pub fn unsearched(m: Move) -> SearchResult {
        SearchResult {
            best: Some(m),
            score: Score::DRAW,
            depth: 0,
            pv: vec![m],
            stats: Stats::default(),
            conversion_unproven: false,
        }
    }
}
