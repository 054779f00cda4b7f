//! `damas-nodes report`: aggregate the CSV rows into the thesis' tables (mean nodes per
//! configuration and depth beside table 6.2; node kinds per depth and per game phase,
//! fig. 6.10 and 6.11; nodes per game phase, fig. 6.9) and the study's checks.
//!
//! Means at a depth are taken over the positions that every configuration present at
//! that depth has searched, so a partly finished run still compares like with like.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;

use super::config::{Config, THESIS_DEPTHS};
use super::csv::Row;
use damas_engine::search::Stats;

mod checks;

/// Summed counts over a set of searches.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Agg {
    /// Searches summed.
    pub n: u64,
    /// Their node counts summed ([`Stats::absorb`]; the table fill and time unused).
    pub counts: Stats,
    /// Milliseconds.
    pub time_ms: f64,
}

impl Agg {
    fn add(&mut self, r: &Row) {
        self.n += 1;
        self.counts.absorb(&r.stats);
        self.time_ms += r.stats.time.as_secs_f64() * 1000.0;
    }

    /// Mean nodes per search.
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.counts.nodes as f64 / self.n as f64
        }
    }

    /// Shares of the node kinds in percent: interior, leaves, TT cutoffs, terminal,
    /// EGDB cutoffs, and whatever the five do not account for.
    pub fn kind_shares(&self) -> [f64; 6] {
        let c = &self.counts;
        let total = c.nodes.max(1) as f64;
        let parts = [
            c.interior,
            c.leaves,
            c.tt_cutoffs,
            c.terminal,
            c.egdb_cutoffs,
        ];
        let known: u64 = parts.iter().sum();
        let mut out = [0.0; 6];
        for (o, p) in out.iter_mut().zip(parts) {
            *o = 100.0 * p as f64 / total;
        }
        out[5] = 100.0 * c.nodes.saturating_sub(known) as f64 / total;
        out
    }
}

/// Agreement of a selective configuration with its full-width base at one depth.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Positions compared.
    pub n: u64,
    /// Same best move.
    pub same_move: u64,
    /// Same root score.
    pub same_score: u64,
    /// Summed nodes of the selective search.
    pub nodes: u64,
    /// Summed nodes of the full-width search.
    pub base_nodes: u64,
}

/// Everything the report prints, aggregated from the rows.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Configuration labels in order of first appearance.
    pub configs: Vec<String>,
    /// Depths present.
    pub depths: Vec<u32>,
    /// Positions compared at each depth.
    pub common: BTreeMap<u32, usize>,
    /// Per (config, depth), over the common positions.
    pub cells: BTreeMap<(usize, u32), Agg>,
    /// Per (config, depth, k), over the common positions.
    pub by_k: BTreeMap<(usize, u32, u32), Agg>,
    /// Selective configuration → (base label, per depth agreement).
    pub selective: Vec<(String, String, BTreeMap<u32, Agreement>)>,
}

/// The label of a selective configuration's full-width base: the `selNN` technique
/// removed (`pvs+asp+tt+sel35` → `pvs+asp+tt`); `None` if it is not selective.
pub fn selective_base(label: &str) -> Option<String> {
    let parts: Vec<&str> = label.split('+').collect();
    let rest: Vec<&str> = parts
        .iter()
        .copied()
        .filter(|p| !p.starts_with("sel"))
        .collect();
    (rest.len() < parts.len() && !rest.is_empty()).then(|| rest.join("+"))
}

/// Aggregate the rows.
pub fn summarize(rows: &[Row]) -> Summary {
    let mut s = Summary::default();
    for r in rows {
        if !s.configs.contains(&r.config) {
            s.configs.push(r.config.clone());
        }
    }
    let idx: HashMap<&str, usize> = s
        .configs
        .iter()
        .enumerate()
        .map(|(i, c)| (c.as_str(), i))
        .collect();
    // Positions done per (depth, config); the last row wins on duplicates.
    let mut done: BTreeMap<u32, BTreeMap<usize, BTreeSet<usize>>> = BTreeMap::new();
    let mut latest: HashMap<(usize, usize, u32), &Row> = HashMap::new();
    for r in rows {
        let c = idx[r.config.as_str()];
        done.entry(r.depth)
            .or_default()
            .entry(c)
            .or_default()
            .insert(r.position);
        latest.insert((c, r.position, r.depth), r);
    }
    s.depths = done.keys().copied().collect();
    for (&d, per_config) in &done {
        let mut sets = per_config.values();
        let first = sets.next().cloned().unwrap_or_default();
        let common: BTreeSet<usize> =
            sets.fold(first, |acc, set| acc.intersection(set).copied().collect());
        s.common.insert(d, common.len());
        for &c in per_config.keys() {
            for &p in &common {
                if let Some(r) = latest.get(&(c, p, d)) {
                    s.cells.entry((c, d)).or_default().add(r);
                    s.by_k.entry((c, d, r.k)).or_default().add(r);
                }
            }
        }
    }
    for (c, label) in s.configs.iter().enumerate() {
        let Some(base) = selective_base(label) else {
            continue;
        };
        let Some(&b) = idx.get(base.as_str()) else {
            continue;
        };
        let mut per_depth: BTreeMap<u32, Agreement> = BTreeMap::new();
        for (&(ci, p, d), r) in &latest {
            if ci != c {
                continue;
            }
            if let Some(full) = latest.get(&(b, p, d)) {
                let a = per_depth.entry(d).or_default();
                a.n += 1;
                a.same_move += u64::from(r.best == full.best);
                a.same_score += u64::from(r.score == full.score);
                a.nodes += r.stats.nodes;
                a.base_nodes += full.stats.nodes;
            }
        }
        s.selective.push((label.clone(), base, per_depth));
    }
    s
}

impl Summary {
    /// Mean nodes of `config` at `depth` over the common positions.
    pub fn mean(&self, config: &str, depth: u32) -> Option<f64> {
        let c = self.configs.iter().position(|l| l == config)?;
        self.cells
            .get(&(c, depth))
            .filter(|a| a.n > 0)
            .map(Agg::mean)
    }

    /// The configuration label that runs the same search as `label`.
    pub fn find_same(&self, label: &str) -> Option<&str> {
        let want = Config::parse(label).ok()?;
        self.configs
            .iter()
            .find(|l| Config::parse(l).is_ok_and(|c| c.same_search(&want)))
            .map(String::as_str)
    }

    /// The deepest depth at which every configuration has results.
    pub fn deepest_common(&self) -> Option<u32> {
        self.depths.iter().rev().copied().find(|&d| {
            (0..self.configs.len()).all(|c| self.cells.get(&(c, d)).is_some_and(|a| a.n > 0))
        })
    }

    /// The depth for the per-phase tables and plot: the deepest at which every
    /// configuration has results on the largest number of positions (per-phase means
    /// need many positions per k).
    pub fn phase_depth(&self) -> Option<u32> {
        let full: Vec<u32> = self
            .depths
            .iter()
            .copied()
            .filter(|&d| {
                (0..self.configs.len()).all(|c| self.cells.get(&(c, d)).is_some_and(|a| a.n > 0))
            })
            .collect();
        let most = full.iter().map(|d| self.common[d]).max()?;
        full.into_iter().rev().find(|d| self.common[d] == most)
    }

    /// The configuration whose node kinds the thesis plots (fig. 6.10/6.11), or the
    /// closest one present.
    pub fn kinds_config(&self) -> Option<&str> {
        ["pvs+asp+tt+egdb", "pvs+asp+tt"]
            .iter()
            .find_map(|l| self.find_same(l))
            .or(self.configs.last().map(String::as_str))
    }
}

/// Thousands separators: 1234567 → `1,234,567`.
pub fn thousands(x: f64) -> String {
    let n = x.round() as u64;
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

const KIND_NAMES: [&str; 6] = [
    "interior",
    "leaves",
    "TT cutoffs",
    "terminal",
    "EGDB cutoffs",
    "other",
];

/// Game-phase buckets for the per-phase tables: k = 6–10, 11–15, …
fn phase(k: u32) -> u32 {
    (k.saturating_sub(1) / 5) * 5 + 1
}

/// The Markdown report.
pub fn markdown(s: &Summary) -> String {
    let mut m = String::new();
    if s.configs.is_empty() {
        m.push_str("No results.\n");
        return m;
    }
    let _ = writeln!(m, "### Mean nodes per search\n");
    let _ = writeln!(
        m,
        "Positions compared per depth: {}.\n",
        s.depths
            .iter()
            .map(|d| format!("d{d}: {}", s.common[d]))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = write!(m, "| configuration |");
    for d in &s.depths {
        let _ = write!(m, " d{d} |");
    }
    let _ = write!(m, "\n|---|");
    for _ in &s.depths {
        m.push_str("---:|");
    }
    m.push('\n');
    for c in &s.configs {
        let _ = write!(m, "| `{c}` |");
        for &d in &s.depths {
            let _ = write!(m, " {} |", s.mean(c, d).map_or("–".to_string(), thousands));
        }
        m.push('\n');
    }

    let _ = writeln!(m, "\n### Beside the thesis (table 6.2)\n");
    let _ = writeln!(m, "Ratio = ours / thesis.\n");
    let _ = write!(m, "| configuration |");
    for d in THESIS_DEPTHS {
        let _ = write!(m, " d{d} ours | d{d} thesis | ratio |");
    }
    let _ = write!(m, "\n|---|");
    for _ in THESIS_DEPTHS {
        m.push_str("---:|---:|---:|");
    }
    m.push('\n');
    for c in &s.configs {
        let Some(thesis) = Config::parse(c).ok().and_then(|cfg| cfg.thesis_row()) else {
            continue;
        };
        let _ = write!(m, "| `{c}` |");
        for (i, d) in THESIS_DEPTHS.iter().enumerate() {
            match s.mean(c, *d) {
                Some(ours) => {
                    let _ = write!(
                        m,
                        " {} | {} | {:.2} |",
                        thousands(ours),
                        thousands(thesis[i] as f64),
                        ours / thesis[i] as f64
                    );
                }
                None => {
                    let _ = write!(m, " – | {} | – |", thousands(thesis[i] as f64));
                }
            }
        }
        m.push('\n');
    }

    checks::checks(s, &mut m);

    if let Some(kc) = s.kinds_config() {
        let c = s
            .configs
            .iter()
            .position(|l| l == kc)
            .expect("a known label");
        let _ = writeln!(m, "\n### Node kinds per depth (`{kc}`, fig. 6.10)\n");
        kinds_header(&mut m, "depth");
        for &d in &s.depths {
            if let Some(a) = s.cells.get(&(c, d)) {
                kinds_row(&mut m, &format!("{d}"), a);
            }
        }
        if let Some(deep) = s.phase_depth() {
            let _ = writeln!(
                m,
                "\n### Node kinds per game phase (`{kc}`, depth {deep}, {} positions, fig. 6.11)\n",
                s.common[&deep]
            );
            kinds_header(&mut m, "moves played");
            for (label, a) in phases(s, c, deep) {
                kinds_row(&mut m, &label, &a);
            }
        }
    }

    if let Some(deep) = s.phase_depth() {
        let _ = writeln!(
            m,
            "\n### Mean nodes per game phase (depth {deep}, {} positions, fig. 6.9)\n",
            s.common[&deep]
        );
        let buckets: Vec<String> = phases(s, 0, deep).into_iter().map(|p| p.0).collect();
        let _ = write!(m, "| configuration |");
        for b in &buckets {
            let _ = write!(m, " k {b} |");
        }
        let _ = write!(m, "\n|---|");
        for _ in &buckets {
            m.push_str("---:|");
        }
        m.push('\n');
        for (c, label) in s.configs.iter().enumerate() {
            let _ = write!(m, "| `{label}` |");
            for (_, a) in phases(s, c, deep) {
                let _ = write!(m, " {} |", thousands(a.mean()));
            }
            m.push('\n');
        }
    }

    if !s.selective.is_empty() {
        let _ = writeln!(
            m,
            "\n### Selective deepening against full width at the same depth\n"
        );
        let _ = writeln!(m, "| configuration | base | depth | positions | nodes / base | same move | same score |\n|---|---|---:|---:|---:|---:|---:|");
        for (label, base, per_depth) in &s.selective {
            for (d, a) in per_depth {
                let pct = |x: u64| 100.0 * x as f64 / a.n.max(1) as f64;
                let _ = writeln!(
                    m,
                    "| `{label}` | `{base}` | {d} | {} | {:.3} | {:.1}% | {:.1}% |",
                    a.n,
                    a.nodes as f64 / a.base_nodes.max(1) as f64,
                    pct(a.same_move),
                    pct(a.same_score)
                );
            }
        }
    }

    if let Some(deep) = s.deepest_common() {
        let _ = writeln!(m, "\n### Time at depth {deep}\n");
        let _ = writeln!(
            m,
            "Wall-clock time of one search on a shared machine (indicative only).\n\n| configuration | mean ms per search | quiescence nodes / nodes |\n|---|---:|---:|"
        );
        for (c, label) in s.configs.iter().enumerate() {
            if let Some(a) = s.cells.get(&(c, deep)) {
                let _ = writeln!(
                    m,
                    "| `{label}` | {:.1} | {:.2} |",
                    a.time_ms / a.n.max(1) as f64,
                    a.counts.qs_nodes as f64 / a.counts.nodes.max(1) as f64
                );
            }
        }
    }
    m
}

fn phases(s: &Summary, c: usize, depth: u32) -> Vec<(String, Agg)> {
    let mut out: BTreeMap<u32, (u32, u32, Agg)> = BTreeMap::new();
    for (&(ci, d, k), a) in &s.by_k {
        if ci == c && d == depth {
            let e = out.entry(phase(k)).or_insert((k, k, Agg::default()));
            e.0 = e.0.min(k);
            e.1 = e.1.max(k);
            let t = &mut e.2;
            t.n += a.n;
            t.counts.absorb(&a.counts);
            t.time_ms += a.time_ms;
        }
    }
    out.into_values()
        .map(|(lo, hi, a)| (format!("{lo}–{hi}"), a))
        .collect()
}

fn kinds_header(m: &mut String, first: &str) {
    let _ = write!(m, "| {first} | mean nodes |");
    for k in KIND_NAMES {
        let _ = write!(m, " {k} |");
    }
    m.push_str("\n|---|---:|");
    for _ in KIND_NAMES {
        m.push_str("---:|");
    }
    m.push('\n');
}

fn kinds_row(m: &mut String, first: &str, a: &Agg) {
    let _ = write!(m, "| {first} | {} |", thousands(a.mean()));
    for share in a.kind_shares() {
        let _ = write!(m, " {share:.1}% |");
    }
    m.push('\n');
}

#[cfg(test)]
mod tests;
