//! Probe speed on the memory-mapped database in `data/egdb` (or `$DAMAS_EGDB`):
//! random positions of the largest part, warm cache, one thread. Skipped when no
//! database is built (`damas-egdb build`). Positions are answered by whichever
//! generation the directory holds; `slices_wdl` probes the second-generation
//! slices directly when present.
// criterion_group! makes a public function without documentation.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damas::egdb::index::{is_valid_slot, part_size, unrank};
use damas::egdb::Egdb;
use damas::Position;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn positions(pieces: usize, count: usize) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let i = rng.gen_range(0..part_size(pieces));
        if is_valid_slot(pieces, i) {
            let p = unrank(pieces, i).unwrap();
            out.push(if rng.gen() { p.flip() } else { p });
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let dir = std::env::var("DAMAS_EGDB").unwrap_or_else(|_| damas::egdb::DEFAULT_DIR.to_string());
    let db = match Egdb::open(&dir) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("egdb bench skipped: {e}");
            return;
        }
    };
    let n = db.max_pieces();
    let batch = positions(n, 1 << 16);
    // Warm the page cache and the mapping.
    for p in &batch {
        black_box(db.probe_value(p));
    }
    let mut g = c.benchmark_group(format!("egdb_{n}_pieces"));
    g.throughput(Throughput::Elements(batch.len() as u64));
    g.bench_function("probe_wdl", |b| {
        b.iter(|| batch.iter().filter(|p| db.probe_wdl(p).is_some()).count())
    });
    g.bench_function("probe_value", |b| {
        b.iter(|| batch.iter().filter(|p| db.probe_value(p).is_some()).count())
    });
    g.bench_function("probe_with_best_move", |b| {
        b.iter(|| batch.iter().filter(|p| db.probe(p).is_some()).count())
    });
    if let Some(slices) = db.slices() {
        g.bench_function("slices_wdl", |b| {
            b.iter(|| batch.iter().filter(|p| slices.wdl(p).is_some()).count())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
