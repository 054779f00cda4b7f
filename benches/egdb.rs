//! Probe speed on the memory-mapped database in `data/egdb` (or `$DAMAS_EGDB`): warm
//! cache, one thread, 65,536 uniform random positions of the largest complete piece
//! count ([`PositionSampler`]: every position of every slice equally likely, either
//! side to move). About half of them have a capture for the side to move, which a
//! slice probe resolves by a search over the captures; `quiet` and `captures` time
//! the two kinds apart. Skipped when no database is built (`damas-egdb build`).
//! Instruction counts: `examples/egdb_probe.rs` under callgrind.
// criterion_group! makes a public function without documentation.
#![allow(missing_docs)]
use damas_rules::variant::Variant;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damas_egdb::slices::slice::PositionSampler;
use damas_egdb::Egdb;
use damas_rules::movegen::has_capture;
use damas_rules::position::Position;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn positions(pieces: usize, count: usize, keep: impl Fn(&Position) -> bool) -> Vec<Position> {
    let sampler = PositionSampler::new(pieces);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    std::iter::from_fn(|| sampler.sample(&mut rng))
        .filter(keep)
        .take(count)
        .collect()
}

fn bench(c: &mut Criterion) {
    let dir = std::env::var("DAMAS_EGDB").unwrap_or_else(|_| damas_egdb::DEFAULT_DIR.to_string());
    let db = match Egdb::open(Variant::Brazilian, &dir) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("egdb bench skipped: {e}");
            return;
        }
    };
    let n = db.max_pieces();
    let all = positions(n, 1 << 16, |_| true);
    let quiet = positions(n, 1 << 16, |p| !has_capture(p));
    let captures = positions(n, 1 << 16, has_capture);
    // Warm the page cache and the mapping (and verify the checksums once).
    for p in all.iter().chain(&quiet).chain(&captures) {
        black_box(db.probe_value(p));
    }
    let mut g = c.benchmark_group(format!("egdb_{n}_pieces"));
    g.throughput(Throughput::Elements(all.len() as u64));
    for (name, batch) in [("all", &all), ("quiet", &quiet), ("captures", &captures)] {
        g.bench_function(format!("probe_wdl_{name}"), |b| {
            b.iter(|| batch.iter().filter(|p| db.probe_wdl(p).is_some()).count())
        });
    }
    g.bench_function("probe_value_all", |b| {
        b.iter(|| all.iter().filter(|p| db.probe_value(p).is_some()).count())
    });
    g.bench_function("probe_with_best_move_all", |b| {
        b.iter(|| all.iter().filter(|p| db.probe(p).is_some()).count())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
