//! Move-generator benchmarks: perft from the start position and from a king-heavy
//! middle game, and legal-move generation over the fixture positions in `data/`.
// criterion_group! makes a public function without documentation.
#![allow(missing_docs)]

use damas_rules::variant::Brazilian;
use damas_rules::variant::Variant;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damas_rules::movegen::{count_moves_with, legal_moves};
use damas_rules::perft::perft;
use damas_rules::{parse_fen, Position};

/// A middle game with two and three kings (17 legal moves).
const KINGS_FEN: &str = "W:Wa1,c1,e1,b2,h2,a3,Kc3,Kg3:Bb6,h6,a7,e7,g7,Kd8,Kf8,Kh8";

fn fixture_positions() -> Vec<Position> {
    include_str!("../data/fixtures/movegen.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| parse_fen(l.split('|').next().unwrap()).unwrap())
        .collect()
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    let start = Position::start();
    g.throughput(Throughput::Elements(perft(Variant::Brazilian, &start, 8)));
    g.bench_function("start_d8", |b| {
        b.iter(|| perft(Variant::Brazilian, black_box(&start), 8))
    });
    let kings = parse_fen(KINGS_FEN).unwrap();
    g.throughput(Throughput::Elements(perft(Variant::Brazilian, &kings, 6)));
    g.bench_function("kings_middlegame_d6", |b| {
        b.iter(|| perft(Variant::Brazilian, black_box(&kings), 6))
    });
    g.finish();

    let positions = fixture_positions();
    let mut g = c.benchmark_group("movegen");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("legal_moves_fixture", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| legal_moves(Variant::Brazilian, black_box(p)).len())
                .sum::<usize>()
        })
    });
    g.bench_function("count_moves_fixture", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| count_moves_with::<Brazilian>(black_box(p)))
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
