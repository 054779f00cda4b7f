//! Search speed on fixed middle-game positions (data/positions/middlegame.fen):
//! each position searched with the default techniques to a fixed depth with a fresh
//! table. Criterion reports the time; nodes per second (quiescence included) are
//! printed once per configuration.
// criterion_group! makes a public function without documentation.
#![allow(missing_docs)]

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use damas::matches::openings::parse_fen_openings;
use damas_engine::eval::Evaluation;
use damas_engine::search::{Limits, SearchOptions, Searcher, Techniques};
use damas_rules::position::Position;

fn positions() -> Vec<Position> {
    parse_fen_openings(include_str!("../data/positions/middlegame.fen"))
        .expect("data/positions/middlegame.fen")
        .iter()
        .map(|o| o.position())
        .collect()
}

fn search_all(searcher: &mut Searcher, positions: &[Position], depth: u32) -> u64 {
    let stop = AtomicBool::new(false);
    positions
        .iter()
        .map(|p| {
            // Every search from an empty table (the replacing one is otherwise kept).
            searcher.clear();
            let r = searcher.search(p, &[], &Limits::depth(depth), &stop, &mut |_| {});
            r.stats.nodes + r.stats.qs_nodes
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    // The thesis' table, comparable with the reference build; and the default engine
    // (replacing table, killers, LMR, draw rules) with the material count, whose
    // node rate is the hot path of ordering, quiescence and the table probes.
    let thesis = |techniques| {
        SearchOptions::default()
            .with_techniques(techniques)
            .with_thesis_table(21)
    };
    for (name, options, depth) in [
        ("strongest-d14", thesis(Techniques::strongest()), 14),
        (
            "pvs+id+qs-d10",
            thesis("pvs,id,qs".parse().expect("techniques")),
            10,
        ),
        (
            "engine-material-d14",
            SearchOptions::default()
                .with_eval(Evaluation::Material)
                // Small, so that clearing it costs little beside the search.
                .with_hash_mb(4),
            14,
        ),
    ] {
        let mut searcher = Searcher::new(options);
        let start = Instant::now();
        let nodes = search_all(&mut searcher, &positions, depth);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name}: {} positions, {nodes} nodes (quiescence included), {:.0} nodes/s",
            positions.len(),
            nodes as f64 / secs
        );
        group.bench_function(name, |b| {
            b.iter(|| search_all(&mut searcher, &positions, depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
