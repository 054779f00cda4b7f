//! `damas-nodes tt-probes`: mean key comparisons per transposition-table access on the
//! thesis' protocol (§6.5.4): random positions searched by the thesis' engine (PVS,
//! iterative deepening, aspiration window, TT; quiescence) to depths 3, 5,
//! …, 15, the table cleared between positions but not between depths,
//! at 2^20, 2^21 and 2^22 slots (thesis: 1.67, 1.28, 1.07 with 35,000 positions).

use std::fmt::Write;

use damas_egdb::progress::Bar;
use rayon::prelude::*;

use super::positions::{generate, sample_even, GenerateSpec};
use damas_engine::engine::{Engine, Sources, TableUse};
use damas_engine::search::Techniques;
use damas_engine::settings::EngineSettings;
use damas_engine::think::{no_draws, think, Think};
use damas_engine::time::{Clock, MoveBudget, TimeControl};

/// The thesis' table sizes and its measured mean comparisons per access.
pub const THESIS: [(u32, f64); 3] = [(20, 1.67), (21, 1.28), (22, 1.07)];

/// What to measure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeSpec {
    /// Random positions (generated as the test set, even over k = 6…40).
    pub positions: usize,
    /// Seed of the positions.
    pub seed: u64,
    /// Deepest search (depths 3, 5, … up to this).
    pub top_depth: u32,
    /// Table sizes as powers of two.
    pub bits: Vec<u32>,
    /// The searching techniques (quiescence is added).
    pub techniques: Techniques,
}

/// The result for one table size.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProbeResult {
    /// `log2` of the slots.
    pub bits: u32,
    /// Table accesses.
    pub accesses: u64,
    /// Key comparisons.
    pub compares: u64,
    /// Search nodes.
    pub nodes: u64,
}

impl ProbeResult {
    /// Mean key comparisons per access.
    pub fn mean(&self) -> f64 {
        self.compares as f64 / self.accesses.max(1) as f64
    }
}

/// The depths searched: 3, 5, … up to `top`.
pub fn depths(top: u32) -> Vec<u32> {
    (3..=top.max(3)).step_by(2).collect()
}

/// Run the protocol for every table size (sizes in parallel, positions in order).
pub fn measure(spec: &ProbeSpec, progress: bool) -> Vec<ProbeResult> {
    let per_k = spec.positions.div_ceil(35).max(1);
    let set = generate(&GenerateSpec {
        seed: spec.seed,
        moves: 6..=40,
        per_k,
    });
    let chosen: Vec<_> = sample_even(&set, Some(spec.positions))
        .into_iter()
        .map(|i| set[i].position)
        .collect();
    let ds = depths(spec.top_depth);
    let bar = Bar::new(
        progress,
        Some((chosen.len() * spec.bits.len()) as u64),
        "{elapsed_precise} [{wide_bar}] {pos}/{len} positions, {eta} left",
    );
    let techniques = Techniques {
        qs: true,
        ..spec.techniques
    };
    let out = spec
        .bits
        .par_iter()
        .map(|&bits| {
            let settings = EngineSettings {
                techniques,
                tt_bits: bits,
                ..EngineSettings::thesis()
            };
            // The protocol keeps the table across the depths of a position.
            let sources = Sources {
                table: TableUse {
                    keep: true,
                    leaves: true,
                    exact_draft: false,
                },
                ..Sources::default()
            };
            let mut searcher = Engine::new(&settings, &sources).searcher;
            let mut r = ProbeResult {
                bits,
                ..ProbeResult::default()
            };
            for pos in &chosen {
                // A fresh table per position, kept across its depths: entries are
                // never replaced by other keys, so a table kept across thousands of
                // positions would fill up and every access would make 33 comparisons.
                searcher.clear();
                for &d in &ds {
                    let budget = MoveBudget::exact(&TimeControl::Depth(d));
                    let job = Think::search(pos, &[]);
                    let s = think(
                        &mut searcher,
                        &job,
                        &mut no_draws(),
                        &Clock::new(budget),
                        &mut |_| {},
                    )
                    .result
                    .stats;
                    r.accesses += s.tt_accesses;
                    r.compares += s.tt_compares;
                    r.nodes += s.nodes;
                }
                bar.inc(1);
            }
            r
        })
        .collect();
    bar.finish_and_clear();
    out
}

/// The Markdown table.
pub fn markdown(spec: &ProbeSpec, results: &[ProbeResult]) -> String {
    let mut m = String::new();
    let _ = writeln!(m, "{} random positions (seed {}), `{}` searched to depths {:?}, the table cleared between positions, not between depths.\n", spec.positions, spec.seed, spec.techniques, depths(spec.top_depth));
    let _ = writeln!(
        m,
        "| slots | accesses | key comparisons | per access | thesis |\n|---|---:|---:|---:|---:|"
    );
    for r in results {
        let thesis = THESIS
            .iter()
            .find(|t| t.0 == r.bits)
            .map_or("–".to_string(), |t| format!("{:.2}", t.1));
        let _ = writeln!(
            m,
            "| 2^{} | {} | {} | {:.3} | {} |",
            r.bits,
            r.accesses,
            r.compares,
            r.mean(),
            thesis
        );
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_depths_from_three() {
        assert_eq!(depths(15), vec![3, 5, 7, 9, 11, 13, 15]);
        assert_eq!(depths(4), vec![3]);
    }
}
