//! `damas-nodes run`: search every sampled position with every configuration to every
//! depth and append one CSV row per (position, configuration, depth).
//!
//! Each (position, configuration) gets a fresh [`Searcher`] (fresh transposition table,
//! as in the thesis). One search to the deepest missing depth yields a row for every
//! depth an iterative configuration reports through `on_info` (its counts are
//! cumulative over the iterations, the thesis' convention for iterative deepening);
//! depths it does not report (a configuration without iterative deepening) get one
//! fresh search each. Rows are appended and flushed as each (position, configuration)
//! completes, and rows already in the file are skipped, so an interrupted run resumes.

use damas_rules::variant::Variant;
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use damas_egdb::progress::Bar;
use rayon::prelude::*;
use thiserror::Error;

use super::config::Config;
use super::csv::{read_rows, CsvError, Row, RowWriter, HEADER};
use super::positions::{read_positions, sample_even, PositionsError, TestPosition};

/// Transposition-table settings of the thesis' table: its size and the two ways the
/// node-count study probes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSetup {
    /// `2^bits` entries.
    pub bits: u32,
    /// Probe and store at horizon nodes too, as the thesis does (found leaves then
    /// count as TT cutoffs).
    pub leaves: bool,
    /// Use a stored value only at exactly the depth required (not a deeper one).
    pub exact_draft: bool,
}
use damas_egdb::oracle::Oracle;
use damas_engine::engine::{search_options, Databases, Sources, TableUse};
use damas_engine::search::{Info, SearchOptions, Searcher, Stats};
use damas_engine::settings::EngineSettings;
use damas_engine::think::{no_draws, think, Think};
use damas_engine::time::{Clock, MoveBudget, TimeControl};
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::position::Position;
use std::sync::Arc;

/// An inclusive range of search depths, written `A-B` or `A`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Depths(pub RangeInclusive<u32>);

/// A bad depth range.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad depth range {0:?}: expected A-B or A with 1 <= A <= B <= 60")]
pub struct DepthsError(pub String);

impl FromStr for Depths {
    type Err = DepthsError;
    fn from_str(s: &str) -> Result<Depths, DepthsError> {
        let bad = || DepthsError(s.to_string());
        let (a, b) = s.split_once('-').unwrap_or((s, s));
        let a: u32 = a.trim().parse().map_err(|_| bad())?;
        let b: u32 = b.trim().parse().map_err(|_| bad())?;
        if a == 0 || a > b || b > 60 {
            return Err(bad());
        }
        Ok(Depths(a..=b))
    }
}

impl fmt::Display for Depths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.0.start(), self.0.end())
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// Positions file (`FEN k` per line).
    pub positions: PathBuf,
    /// Depths to search.
    pub depths: Depths,
    /// Configurations.
    pub configs: Vec<Config>,
    /// Even sample over k of this many positions (all when `None`).
    pub sample: Option<usize>,
    /// Worker threads (rayon's default when `None`).
    pub threads: Option<usize>,
    /// Transposition table size and horizon probing.
    pub table: TableSetup,
    /// Endgame database directory for configurations with `egdb`.
    pub egdb: Option<PathBuf>,
    /// Results file (appended to).
    pub out: PathBuf,
    /// Show a progress bar.
    pub progress: bool,
}

/// What a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// Rows written now.
    pub written: usize,
    /// Rows already present and skipped.
    pub skipped: usize,
    /// Configurations not run, with the reason (the endgame database missing).
    pub not_run: Vec<(String, String)>,
    /// Wall time.
    pub elapsed: Duration,
}

/// Why a run failed.
#[derive(Debug, Error)]
pub enum RunError {
    /// The positions file is bad.
    #[error(transparent)]
    Positions(#[from] PositionsError),
    /// The existing results file is bad.
    #[error("{path}: {source}")]
    Results {
        /// The file.
        path: String,
        /// Why.
        source: CsvError,
    },
    /// Writing the results failed.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The endgame database could not be opened.
    #[error(transparent)]
    Egdb(#[from] damas_egdb::EgdbError),
    /// The thread pool could not start.
    #[error("cannot start {0} threads")]
    Threads(usize),
}

/// One (position, configuration) with the depths still missing.
struct Unit {
    position: usize,
    config: usize,
    depths: Vec<u32>,
}

/// Search options for a configuration.
fn options(config: &Config, table: TableSetup, oracle: &Option<Arc<dyn Oracle>>) -> SearchOptions {
    let settings = EngineSettings {
        techniques: config.techniques,
        tt_bits: table.bits,
        ..EngineSettings::thesis()
    };
    // The databases are consulted only by configurations with the `egdb` technique.
    let sources = Sources {
        databases: oracle.clone().map_or(Databases::None, Databases::AtHand),
        table: TableUse {
            keep: false,
            leaves: table.leaves,
            exact_draft: table.exact_draft,
        },
        ..Sources::default()
    };
    search_options(&settings, &sources)
}

fn row(
    index: usize,
    tp: &TestPosition,
    config: &Config,
    depth: u32,
    stats: Stats,
    score: String,
    best: Option<damas_rules::moves::Move>,
) -> Row {
    let best = best.map_or_else(
        || "-".to_string(),
        |m| move_to_string(Variant::Brazilian, &tp.position, m, Notation::Algebraic),
    );
    Row {
        position: index,
        k: tp.k.0,
        config: config.label.clone(),
        depth,
        stats,
        score,
        best,
    }
}

/// A search to depth `d`.
fn depth(d: u32) -> MoveBudget {
    MoveBudget::exact(&TimeControl::Depth(d))
}

/// Search one position with one configuration at the given depths.
fn search_unit(
    index: usize,
    tp: &TestPosition,
    config: &Config,
    depths: &[u32],
    table: TableSetup,
    oracle: &Option<Arc<dyn Oracle>>,
) -> Vec<Row> {
    let top = *depths.iter().max().expect("a unit has a depth");
    let pos: Position = tp.position;
    let mut got: BTreeMap<u32, Row> = BTreeMap::new();
    let mut searcher = Searcher::new(options(config, table, oracle));
    let job = Think::search(&pos, &[]);
    let on_info = &mut |info: &Info| {
        if info.depth < top && depths.contains(&info.depth) {
            got.insert(
                info.depth,
                row(
                    index,
                    tp,
                    config,
                    info.depth,
                    info.stats,
                    info.score.to_string(),
                    info.pv.first().copied(),
                ),
            );
        }
    };
    let result = think(
        &mut searcher,
        &job,
        &mut no_draws(),
        &Clock::new(depth(top)),
        on_info,
    )
    .result;
    got.insert(
        top,
        row(
            index,
            tp,
            config,
            top,
            result.stats,
            result.score.to_string(),
            result.best,
        ),
    );
    for &d in depths {
        if let std::collections::btree_map::Entry::Vacant(e) = got.entry(d) {
            let mut searcher = Searcher::new(options(config, table, oracle));
            let job = Think::search(&pos, &[]);
            let r = think(
                &mut searcher,
                &job,
                &mut no_draws(),
                &Clock::new(depth(d)),
                &mut |_| {},
            )
            .result;
            e.insert(row(
                index,
                tp,
                config,
                d,
                r.stats,
                r.score.to_string(),
                r.best,
            ));
        }
    }
    got.into_values().collect()
}

/// Open the results file for appending: write the header to a new file, drop a torn
/// last line of an interrupted run.
fn open_results(path: &Path) -> std::io::Result<File> {
    let existing = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e),
    };
    let mut f = OpenOptions::new().create(true).append(true).open(path)?;
    if existing.is_empty() {
        writeln!(f, "{HEADER}")?;
    } else if existing.last() != Some(&b'\n') {
        let keep = existing
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        f.set_len(keep as u64)?;
        if keep == 0 {
            writeln!(f, "{HEADER}")?;
        }
    }
    Ok(f)
}

/// Run the study; see the module documentation.
pub fn run(spec: &RunSpec) -> Result<RunSummary, RunError> {
    let start = Instant::now();
    let mut configs: Vec<&Config> = Vec::new();
    let mut not_run = Vec::new();
    let needs_egdb = spec.configs.iter().any(|c| c.techniques.egdb);
    let oracle: Option<Arc<dyn Oracle>> = match (&spec.egdb, needs_egdb) {
        (Some(dir), true) => Some(Arc::new(damas_egdb::Egdb::open(Variant::Brazilian, dir)?)),
        _ => None,
    };
    for c in &spec.configs {
        if c.techniques.egdb && oracle.is_none() {
            not_run.push((c.label.clone(), "needs --egdb DIR".to_string()));
        } else {
            configs.push(c);
        }
    }
    let positions = read_positions(&spec.positions)?;
    let chosen = sample_even(&positions, spec.sample);
    let done: HashSet<(usize, String, u32)> = read_rows(&spec.out)
        .map_err(|source| RunError::Results {
            path: spec.out.display().to_string(),
            source,
        })?
        .iter()
        .map(Row::key)
        .collect();
    let mut units = Vec::new();
    let mut skipped = 0;
    for &p in &chosen {
        for (ci, c) in configs.iter().enumerate() {
            let depths: Vec<u32> = spec
                .depths
                .0
                .clone()
                .filter(|&d| !done.contains(&(p, c.label.clone(), d)))
                .collect();
            skipped += spec.depths.0.clone().count() - depths.len();
            if !depths.is_empty() {
                units.push(Unit {
                    position: p,
                    config: ci,
                    depths,
                });
            }
        }
    }
    let write_err = |source| RunError::Write {
        path: spec.out.display().to_string(),
        source,
    };
    let file = open_results(&spec.out).map_err(write_err)?;
    let writer = Mutex::new((RowWriter::new(file), 0usize));
    let bar = Bar::new(
        spec.progress,
        Some(units.len() as u64),
        "{elapsed_precise} [{wide_bar}] {pos}/{len} searches, {eta} left ({msg})",
    );
    let work = || {
        units.par_iter().try_for_each(|u| {
            let rows = search_unit(
                u.position,
                &positions[u.position],
                configs[u.config],
                &u.depths,
                spec.table,
                &oracle,
            );
            let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
            for r in &rows {
                w.0.write(r)?;
            }
            w.0.flush()?;
            w.1 += rows.len();
            bar.set_message(format!("{} rows", w.1));
            bar.inc(1);
            Ok::<(), std::io::Error>(())
        })
    };
    let result = match spec.threads {
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map_err(|_| RunError::Threads(t))?
            .install(work),
        None => work(),
    };
    bar.finish_and_clear();
    result.map_err(write_err)?;
    let written = writer.into_inner().unwrap_or_else(|e| e.into_inner()).1;
    Ok(RunSummary {
        written,
        skipped,
        not_run,
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_ranges() {
        assert_eq!("3-7".parse::<Depths>().unwrap().0, 3..=7);
        assert_eq!("5".parse::<Depths>().unwrap().0, 5..=5);
        assert!("7-3".parse::<Depths>().is_err());
        assert!("0-3".parse::<Depths>().is_err());
        assert!("a-b".parse::<Depths>().is_err());
    }

    #[test]
    fn torn_results_line_is_dropped_before_appending() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        std::fs::write(&path, format!("{HEADER}\n1,2,3")).unwrap();
        let mut f = open_results(&path).unwrap();
        writeln!(f, "x").unwrap();
        drop(f);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{HEADER}\nx\n")
        );
    }
}
