//! The search's hot paths one at a time, over positions of real games: the two
//! evaluations, the position key, the capture test, full move generation, and the
//! shared table's probe and store (in a table that fits the processor's cache and in
//! the default 64 MB one, where each access waits on memory).
//!
//! The positions come from `data/positions/middlegame.fen` followed out by random
//! legal moves (seeded), so that openings, middle games and endings with kings all
//! occur. `cargo bench --features tools --bench hotpaths`; each figure is per position
//! or per access.
// criterion_group! makes a public function without documentation.
#![allow(missing_docs)]
use damas_rules::variant::{Brazilian, Variant};

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damas::matches::openings::parse_fen_openings;
use damas_engine::eval::Evaluation;
use damas_engine::tt::shared::SharedTable;
use damas_engine::tt::Bound;
use damas_rules::movegen::{generate_with, has_capture};
use damas_rules::{Key, MoveList, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Positions along random games from each middle-game position of the data set, every
/// ply kept, until the game ends or 60 plies have been played.
fn positions() -> Vec<Position> {
    let starts = parse_fen_openings(include_str!("../data/positions/middlegame.fen"))
        .expect("data/positions/middlegame.fen");
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut out = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..40 {
        for start in &starts {
            let mut pos = start.position();
            for _ in 0..60 {
                generate_with::<Brazilian>(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                out.push(pos);
                pos = pos.play(list[rng.gen_range(0..list.len())]);
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let positions = positions();
    let n = positions.len() as u64;

    let mut g = c.benchmark_group("hotpaths");
    g.throughput(Throughput::Elements(n));
    let trained = Evaluation::trained(Variant::Brazilian);
    for (name, eval) in [
        ("eval_material", &Evaluation::Material),
        ("eval_trained", &trained),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| eval.eval(black_box(p)).0)
                    .sum::<i32>()
            })
        });
    }
    g.bench_function("key", |b| {
        b.iter(|| positions.iter().fold(0u64, |a, p| a ^ black_box(p).key().0))
    });
    g.bench_function("has_capture", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter(|p| has_capture(black_box(p)))
                .count()
        })
    });
    let mut list = MoveList::new();
    g.bench_function("generate", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| {
                    generate_with::<Brazilian>(black_box(p), &mut list);
                    list.len()
                })
                .sum::<usize>()
        })
    });

    // The table: every position stored once, then each probed; keys in the order of
    // the games, so the accesses are scattered over the table as in a search.
    let keys: Vec<Key> = positions.iter().map(Position::key).collect();
    for mb in [1, 64] {
        let table = SharedTable::new(mb);
        g.bench_function(format!("table_store_{mb}mb"), |b| {
            b.iter(|| {
                for (i, &k) in keys.iter().enumerate() {
                    table.store(black_box(k), i as i16, 4, Bound::Exact, None);
                }
            })
        });
        g.bench_function(format!("table_probe_{mb}mb"), |b| {
            b.iter(|| {
                keys.iter()
                    .filter(|&&k| table.probe(black_box(k)).is_some())
                    .count()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
