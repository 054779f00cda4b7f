//! [`SearchOptions`] and its one construction path: [`SearchOptions::default`] (the
//! playing engine) or [`SearchOptions::thesis`] (the thesis' configuration the
//! node-count study measures), then chained `with_*` methods; the fields are read
//! through getters. [`SearchOptions::with_thesis_table`] is the one way to select the
//! thesis' table.

use std::fmt;
use std::sync::Arc;

use super::techniques::Techniques;
use super::tuning::{ParamId, Tuning};
use crate::eval::Evaluation;
use damas_egdb::oracle::Oracle;
use damas_rules::variant::Variant;

/// What the search does with a position the oracle knows to be drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawPolicy {
    /// Search on with the remaining depth reduced by this many plies (the thesis:
    /// returning 0 outright is too blunt, the opponent may still go wrong).
    Reduce(u32),
    /// Score the position as a draw at once.
    Score,
}

/// What the search does inside a won or lost database ending (the root decided).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum WinPolicy {
    /// Score decided positions as wins and losses with their distance, and answer a
    /// decided root with the database's move: the exact verdict analysis wants.
    #[default]
    Verdict,
    /// Play the ending on the evaluation: below a decided root, decided positions
    /// are searched like any other (a position whose distance outlasts its counting
    /// rule is a draw), so the winner keeps its material instead of trading it for
    /// the fastest conversion into an ending the count draws; a root is answered by
    /// the database only where a counting rule covers its material.
    Play,
}

impl WinPolicy {
    /// The name settings use: `verdict` or `play`.
    pub fn name(self) -> &'static str {
        match self {
            WinPolicy::Verdict => "verdict",
            WinPolicy::Play => "play",
        }
    }

    /// The policy named `name` ([`WinPolicy::name`]).
    pub fn from_name(name: &str) -> Option<WinPolicy> {
        [WinPolicy::Verdict, WinPolicy::Play]
            .into_iter()
            .find(|p| p.name() == name)
    }
}

/// Which transposition table a search with [`Techniques::tt`] uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum TableKind {
    /// The thesis' table of `2^tt_bits` never-replaced entries (the node-count
    /// study and the thesis configurations use it).
    Thesis,
    /// The replacing table of `hash_mb` megabytes, kept between the searches of a
    /// game and shared by the search threads.
    #[default]
    Replacing,
}

/// Default size of the replacing table in megabytes.
pub const DEFAULT_HASH_MB: usize = 64;

/// The aspiration window's half-width the thesis' measurements used (hundredths of a
/// man); the node-count study keeps it.
pub const THESIS_ASPIRATION_DELTA: i32 = 50;

/// The engine's aspiration half-width (hundredths of a man): narrower than the
/// thesis', since the trained evaluation moves in small steps between iterations;
/// its value is the SPSA-tuned one (docs/tuning.md).
pub const ENGINE_ASPIRATION_DELTA: i32 = 39;

/// Options of a [`Searcher`](super::Searcher).
#[derive(Clone)]
pub struct SearchOptions {
    /// Techniques switched on.
    pub(crate) techniques: Techniques,
    /// Which table: the thesis' or the replacing one (the default).
    pub(crate) table: TableKind,
    /// The thesis' table size: `2^tt_bits` entries.
    pub(crate) tt_bits: u32,
    /// The replacing table's size in megabytes.
    pub(crate) hash_mb: usize,
    /// Search threads (lazy SMP over the replacing table; the thesis' table
    /// always searches with one).
    pub(crate) threads: usize,
    /// The tunable constants the search reads (margins, depths, the aspiration
    /// window's half-width).
    pub(crate) tuning: Tuning,
    /// What a draw by the rules (repetition, the counting rules) is worth to the
    /// side to move at the root, less than an even position: a draw scores
    /// `-contempt` for it and `+contempt` for its opponent, in hundredths of a man.
    pub(crate) contempt: i32,
    /// Endgame database used when [`Techniques::egdb`] is on.
    pub(crate) oracle: Option<Arc<dyn Oracle>>,
    /// Static evaluation: the trained one by default; the thesis' configurations
    /// and the node-count study use [`Evaluation::Material`].
    pub(crate) evaluation: Evaluation,
    /// Treatment of positions the oracle knows to be drawn.
    pub(crate) egdb_draws: DrawPolicy,
    /// Treatment of won and lost database endings.
    pub(crate) egdb_wins: WinPolicy,
    /// Clear the thesis' table at the start of every search (the thesis does:
    /// entries are never replaced by other keys, so a table kept across moves fills
    /// up). The replacing table is kept until [`Searcher::clear`](super::Searcher::clear).
    pub(crate) clear_tt: bool,
    /// Use a stored value only when its depth equals the depth required (not when it
    /// is deeper). With it, a search with `tt` returns exactly the fixed-depth minimax
    /// value, which the tests check; normal play wants the deeper values.
    pub(crate) tt_exact_draft: bool,
    /// Probe the table at horizon nodes too, as the thesis does (its leaves then
    /// count as TT cutoffs when found). Off, the horizon costs no memory access.
    pub(crate) tt_leaves: bool,
    /// Probe and store the replacing table at frontier nodes (one ply above the
    /// horizon), as every other interior node does. On by default. Off, the most
    /// numerous and least valuable entries cost no memory access and the search
    /// runs faster, but it has not been shown to play better (the measurements:
    /// docs/performance.md, "Tried and not adopted"). The thesis' table is
    /// always probed there, as the thesis does.
    pub(crate) tt_frontier: bool,
    /// How many best root moves each iteration finds, each with its score and line
    /// (multi-PV, `search/root/multipv.rs`); 1, the default, is the ordinary search.
    pub(crate) lines: usize,
    /// The rules searched: the search dispatches on it once and is compiled for
    /// each variant's move generator.
    pub(crate) variant: Variant,
}

impl fmt::Debug for SearchOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchOptions")
            .field("techniques", &self.techniques)
            .field("table", &self.table)
            .field("tt_bits", &self.tt_bits)
            .field("hash_mb", &self.hash_mb)
            .field("threads", &self.threads)
            .field("tuning", &self.tuning)
            .field("contempt", &self.contempt)
            .field("oracle", &self.oracle.as_ref().map(|o| o.max_pieces()))
            .field("evaluation", &self.evaluation.name())
            .field("egdb_draws", &self.egdb_draws)
            .field("egdb_wins", &self.egdb_wins)
            .field("clear_tt", &self.clear_tt)
            .field("tt_exact_draft", &self.tt_exact_draft)
            .field("tt_leaves", &self.tt_leaves)
            .field("tt_frontier", &self.tt_frontier)
            .field("lines", &self.lines)
            .field("variant", &self.variant)
            .finish()
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            techniques: Techniques::engine(),
            table: TableKind::Replacing,
            tt_bits: 21,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            tuning: Tuning::default(),
            contempt: 0,
            oracle: None,
            evaluation: Evaluation::trained(Variant::Brazilian),
            egdb_draws: DrawPolicy::Reduce(4),
            egdb_wins: WinPolicy::Verdict,
            clear_tt: true,
            tt_exact_draft: false,
            tt_leaves: false,
            tt_frontier: true,
            lines: 1,
            variant: Variant::Brazilian,
        }
    }
}

impl SearchOptions {
    /// The thesis' configuration, which the node-count study measures: its strongest
    /// techniques, its never-replacing table probed at the horizon too, the material
    /// count and its aspiration half-width of [`THESIS_ASPIRATION_DELTA`].
    pub fn thesis() -> SearchOptions {
        SearchOptions {
            techniques: Techniques::strongest(),
            table: TableKind::Thesis,
            tuning: Tuning::default().with(ParamId::ASPIRATION, THESIS_ASPIRATION_DELTA),
            evaluation: Evaluation::Material,
            tt_leaves: true,
            ..SearchOptions::default()
        }
    }

    /// Techniques switched on.
    pub fn techniques(&self) -> Techniques {
        self.techniques
    }

    /// Which table: the thesis' or the replacing one.
    pub fn table(&self) -> TableKind {
        self.table
    }

    /// The thesis' table size: `2^tt_bits` entries.
    pub fn tt_bits(&self) -> u32 {
        self.tt_bits
    }

    /// The replacing table's size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Aspiration window half-width in hundredths of a man.
    pub fn aspiration_delta(&self) -> i32 {
        self.tuning.aspiration()
    }

    /// The tunable constants the search reads.
    pub fn tuning(&self) -> &Tuning {
        &self.tuning
    }

    /// Search with the constants `tuning`.
    pub fn with_tuning(mut self, tuning: Tuning) -> SearchOptions {
        self.tuning = tuning;
        self
    }

    /// How much less than even a draw by the rules is worth to the root's side to
    /// move, in hundredths of a man.
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    /// The endgame database, if any.
    pub fn oracle(&self) -> Option<&Arc<dyn Oracle>> {
        self.oracle.as_ref()
    }

    /// Static evaluation.
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// Treatment of positions the oracle knows to be drawn.
    pub fn egdb_draws(&self) -> DrawPolicy {
        self.egdb_draws
    }

    /// Treatment of won and lost database endings.
    pub fn egdb_wins(&self) -> WinPolicy {
        self.egdb_wins
    }

    /// Whether the thesis' table is cleared at the start of every search.
    pub fn clear_tt(&self) -> bool {
        self.clear_tt
    }

    /// Whether a stored value is used only at exactly the depth required.
    pub fn tt_exact_draft(&self) -> bool {
        self.tt_exact_draft
    }

    /// Whether the table is probed at horizon nodes too.
    pub fn tt_leaves(&self) -> bool {
        self.tt_leaves
    }

    /// Whether the replacing table is probed and stored at frontier nodes.
    pub fn tt_frontier(&self) -> bool {
        self.tt_frontier
    }

    /// The rules searched.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Search under the rules of `variant`. An oracle of other rules is dropped
    /// (and `egdb` switched off): its values would be wrong here.
    pub fn with_variant(mut self, variant: Variant) -> SearchOptions {
        self.variant = variant;
        if self.oracle.as_ref().is_some_and(|o| o.variant() != variant) {
            self.oracle = None;
            self.techniques.egdb = false;
        }
        self
    }

    /// Search with these techniques.
    pub fn with_techniques(mut self, techniques: Techniques) -> SearchOptions {
        self.techniques = techniques;
        self
    }

    /// Use the thesis' table of `2^bits` entries instead of the replacing one: the
    /// one way to select it.
    pub fn with_thesis_table(mut self, bits: u32) -> SearchOptions {
        self.table = TableKind::Thesis;
        self.tt_bits = bits;
        self
    }

    /// Size the replacing table at `mb` megabytes (the table selected stays as it is).
    pub fn with_hash_mb(mut self, mb: usize) -> SearchOptions {
        self.hash_mb = mb;
        self
    }

    /// Search with `threads` threads.
    pub fn with_threads(mut self, threads: usize) -> SearchOptions {
        self.threads = threads;
        self
    }

    /// Use an aspiration half-width of `delta` hundredths of a man.
    pub fn with_aspiration(mut self, delta: i32) -> SearchOptions {
        self.tuning = self.tuning.with(ParamId::ASPIRATION, delta);
        self
    }

    /// Score draws by the rules `contempt` hundredths of a man below even for the
    /// side to move at the root (and as much above for its opponent).
    pub fn with_contempt(mut self, contempt: i32) -> SearchOptions {
        self.contempt = contempt;
        self
    }

    /// Evaluate leaves with `evaluation`.
    pub fn with_eval(mut self, evaluation: Evaluation) -> SearchOptions {
        self.evaluation = evaluation;
        self
    }

    /// Give the search `oracle` without touching the techniques: it is consulted only
    /// when [`Techniques::egdb`] is on (the study's configurations decide that).
    /// An oracle of rules other than the options' variant is not kept.
    pub fn with_oracle(mut self, oracle: Option<Arc<dyn Oracle>>) -> SearchOptions {
        self.oracle = oracle.filter(|o| o.variant() == self.variant);
        self
    }

    /// Treat positions the oracle knows to be drawn by `policy`.
    pub fn with_draw_policy(mut self, policy: DrawPolicy) -> SearchOptions {
        self.egdb_draws = policy;
        self
    }

    /// Treat won and lost database endings by `policy`.
    pub fn with_win_policy(mut self, policy: WinPolicy) -> SearchOptions {
        self.egdb_wins = policy;
        self
    }

    /// Keep the thesis' table across searches (`false`) or clear it at each (`true`).
    pub fn with_clear_tt(mut self, clear: bool) -> SearchOptions {
        self.clear_tt = clear;
        self
    }

    /// Probe and store at horizon nodes too.
    pub fn with_tt_leaves(mut self, leaves: bool) -> SearchOptions {
        self.tt_leaves = leaves;
        self
    }

    /// Whether the replacing table is probed at frontier nodes ([`SearchOptions::tt_frontier`]).
    pub fn with_tt_frontier(mut self, frontier: bool) -> SearchOptions {
        self.tt_frontier = frontier;
        self
    }

    /// Find the best `lines` root moves, each with score and line (at least 1).
    pub fn with_lines(mut self, lines: usize) -> SearchOptions {
        self.lines = lines.max(1);
        self
    }

    /// How many best root moves a search finds (1: the ordinary search).
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// Use a stored value only at exactly the depth required.
    pub fn with_exact_draft(mut self, exact: bool) -> SearchOptions {
        self.tt_exact_draft = exact;
        self
    }

    /// Search with `database`, if one was opened, and switch the `egdb` technique on
    /// for it: opening a database is how every front end asks for it. `None`, or a
    /// database of other rules than the options' variant, leaves the options as they are.
    pub fn with_database(mut self, database: Option<Arc<dyn Oracle>>) -> SearchOptions {
        if let Some(db) = database.filter(|o| o.variant() == self.variant) {
            self.techniques.egdb = true;
            self.oracle = Some(db);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // `SearchOptions` holds trait objects, so compare through `Debug`, which lists
    // every field (the evaluation by name, the oracle by its piece count).
    fn same(a: &SearchOptions, b: &SearchOptions) {
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }

    #[test]
    fn study_builder_matches_the_old_literal() {
        let techniques: Techniques = "pvs+id+asp+tt+qs+killers+mtdf".parse().unwrap();
        for (bits, leaves, exact_draft) in [(18, true, false), (21, false, true)] {
            let old = SearchOptions {
                techniques,
                table: TableKind::Thesis,
                tt_bits: bits,
                tt_leaves: leaves,
                tt_exact_draft: exact_draft,
                oracle: None,
                evaluation: Evaluation::Material,
                tuning: Tuning::default().with(ParamId::ASPIRATION, THESIS_ASPIRATION_DELTA),
                ..SearchOptions::default()
            };
            let built = SearchOptions::thesis()
                .with_techniques(techniques)
                .with_thesis_table(bits)
                .with_tt_leaves(leaves)
                .with_exact_draft(exact_draft)
                .with_oracle(None);
            same(&built, &old);
            assert_eq!(built.aspiration_delta(), 50);
        }
    }

    #[test]
    fn ttprobe_builder_matches_the_old_literal() {
        let techniques = Techniques::strongest();
        let old = SearchOptions {
            techniques,
            table: TableKind::Thesis,
            tt_bits: 16,
            clear_tt: false,
            tt_leaves: true,
            evaluation: Evaluation::Material,
            tuning: Tuning::default().with(ParamId::ASPIRATION, THESIS_ASPIRATION_DELTA),
            ..SearchOptions::default()
        };
        let built = SearchOptions::thesis()
            .with_techniques(techniques)
            .with_thesis_table(16)
            .with_tt_leaves(true)
            .with_clear_tt(false);
        same(&built, &old);
    }

    #[test]
    fn engine_builder_matches_the_old_literal() {
        // The Hub's settings, each away from its default.
        let techniques: Techniques = "pvs+id+tt+qs".parse().unwrap();
        let old = SearchOptions {
            techniques,
            table: TableKind::Thesis,
            tt_bits: 19,
            hash_mb: 128,
            threads: 2,
            evaluation: Evaluation::Material,
            ..SearchOptions::default()
        };
        let built = SearchOptions::default()
            .with_techniques(techniques)
            .with_thesis_table(19)
            .with_hash_mb(128)
            .with_threads(2)
            .with_eval(Evaluation::Material);
        same(&built, &old);
        // The engine keeps its own aspiration half-width and the replacing table.
        let engine = SearchOptions::default();
        assert_eq!(engine.aspiration_delta(), ENGINE_ASPIRATION_DELTA);
        assert_eq!(engine.table, TableKind::Replacing);
        assert_ne!(
            format!("{:?}", SearchOptions::thesis()),
            format!("{engine:?}")
        );
    }
}
