//! Perft against the published counts in `data/perft/brazilian.txt` and
//! `data/perft/russian.txt`. Counts up to 5 M leaves run by default; the deeper ones
//! are `#[ignore]`d (`cargo test --release -- --ignored perft_deep`).

use damas_rules::perft::{divide, divide_parallel, perft};
use damas_rules::{parse_fen, Position, Variant};

const DATA: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/perft/brazilian.txt"
));
const RUSSIAN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/perft/russian.txt"
));

fn cases() -> Vec<(Position, u32, u64)> {
    cases_of(DATA)
}

fn cases_of(data: &str) -> Vec<(Position, u32, u64)> {
    let mut out = Vec::new();
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut fields = line.split(';');
        let pos = parse_fen(fields.next().unwrap()).unwrap();
        for f in fields {
            let (d, n) = f.trim().trim_start_matches('D').split_once(' ').unwrap();
            out.push((pos, d.parse().unwrap(), n.parse().unwrap()));
        }
    }
    out
}

#[test]
fn perft_published_counts() {
    let cases: Vec<_> = cases().into_iter().filter(|c| c.2 <= 5_000_000).collect();
    assert!(
        cases.len() >= 9,
        "start position depths 1-9 must be in the default suite"
    );
    for (pos, depth, expect) in cases {
        assert_eq!(
            perft(Variant::Brazilian, &pos, depth),
            expect,
            "perft(Variant::Brazilian, {depth}) of {pos:?}"
        );
    }
}

#[test]
fn perft_russian_counts() {
    let cases: Vec<_> = cases_of(RUSSIAN)
        .into_iter()
        .filter(|c| c.2 <= 5_000_000)
        .collect();
    assert!(
        cases.len() >= 9 + 10 * 6,
        "start depths 1-9 and the position set"
    );
    for (pos, depth, expect) in cases {
        assert_eq!(
            perft(Variant::Russian, &pos, depth),
            expect,
            "perft(Variant::Brazilian, {depth}) of {pos:?}"
        );
    }
    // The same tree through the threaded split (the command line: `damas perft`'s
    // tests).
    let rows = divide_parallel(Variant::Russian, &Position::start(), 7, 2).unwrap();
    assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 190_146);
}

#[test]
#[ignore = "deep Russian perft (depth 10-12, about ten seconds in release mode)"]
fn perft_deep_russian() {
    for (pos, depth, expect) in cases_of(RUSSIAN)
        .into_iter()
        .filter(|c| c.2 > 5_000_000 && c.1 <= 12)
    {
        let got: u64 = divide_parallel(Variant::Russian, &pos, depth, 2)
            .unwrap()
            .iter()
            .map(|r| r.1)
            .sum();
        assert_eq!(got, expect, "perft(Variant::Brazilian, {depth}) of {pos:?}");
    }
}

/// The threaded split (three plies deep) gives the same rows as `divide` at every
/// depth, the shallow ones included (depth 0 once underflowed the split).
#[test]
fn threaded_divide_agrees_with_divide_at_every_depth() {
    let pos = Position::start();
    for depth in 0..=5 {
        assert_eq!(
            divide_parallel(Variant::Brazilian, &pos, depth, 2).unwrap(),
            divide(Variant::Brazilian, &pos, depth),
            "depth {depth}"
        );
    }
}

#[test]
fn perft_threads_agree() {
    let pos = Position::start();
    let rows = divide_parallel(Variant::Brazilian, &pos, 7, 2).unwrap();
    assert_eq!(rows.len(), 7);
    assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 187_302);
}

#[test]
#[ignore = "deep perft (depth 10-12, about a minute in release mode)"]
fn perft_deep() {
    for (pos, depth, expect) in cases().into_iter().filter(|c| c.2 > 5_000_000 && c.1 <= 12) {
        let got: u64 = divide_parallel(Variant::Brazilian, &pos, depth, 2)
            .unwrap()
            .iter()
            .map(|r| r.1)
            .sum();
        assert_eq!(got, expect, "perft(Variant::Brazilian, {depth}) of {pos:?}");
    }
}
