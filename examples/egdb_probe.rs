//! A probe loop for profiling (`valgrind --tool=callgrind --toggle-collect=egdb_probe::probe_all`):
//! `cargo run --release --features tools --example egdb_probe -- DIR PIECES COUNT [all|quiet|captures] [huge] [repeat=R]`
//! (`huge`: probe a copy of the slices in huge pages, `Egdb::copy_slices_to_huge_pages`;
//! `repeat=R`: probe the same COUNT positions R times over, so that with a small COUNT
//! their data stays in the processor's cache and the rate is the probe's own cost,
//! without memory latency).
//! Draws COUNT uniform random positions of PIECES pieces ([`PositionSampler`]),
//! probes each once to warm the mapping (`warm_all`), then probes them all again, R
//! times over, inside `probe_all` (the only calls collected) and prints how many had a
//! capture for the side to move.

use damas_rules::variant::Variant;
use std::hint::black_box;

use damas_egdb::slices::slice::PositionSampler;
use damas_egdb::Egdb;
use damas_rules::movegen::has_capture;
use damas_rules::position::Position;
use rand::SeedableRng;

/// How many of `positions` the database answers, each probed once.
#[inline(always)]
fn count_answered(db: &Egdb, positions: &[Position]) -> usize {
    positions
        .iter()
        .filter(|p| black_box(db.probe_wdl(p)).is_some())
        .count()
}

/// The first pass: maps pages in and verifies each slice's checksum on first use,
/// kept apart from [`probe_all`] so that callgrind counts warm probes only.
#[inline(never)]
fn warm_all(db: &Egdb, positions: &[Position]) -> usize {
    count_answered(db, positions)
}

/// `rounds` passes over `positions`: the answers summed.
#[inline(never)]
fn probe_all(db: &Egdb, positions: &[Position], rounds: usize) -> usize {
    (0..rounds).map(|_| count_answered(db, positions)).sum()
}

/// Nanoseconds this thread has run on a CPU (Linux; `None` elsewhere): the machine
/// is shared, so wall time alone says little.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Anonymous memory in transparent huge pages (Linux), to show whether `huge` got them.
fn anon_huge_kb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/smaps_rollup").ok()?;
    let line = s.lines().find(|l| l.starts_with("AnonHugePages:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let huge = args.iter().skip(4).any(|a| a == "huge");
    let repeat = match args.iter().skip(4).find_map(|a| a.strip_prefix("repeat=")) {
        None => 1,
        Some(r) => r
            .parse::<usize>()
            .ok()
            .filter(|&r| r > 0)
            .unwrap_or_else(|| {
                eprintln!("egdb_probe: repeat=R takes a positive number, not {r:?}");
                std::process::exit(2)
            }),
    };
    let args: Vec<&String> = args
        .iter()
        .filter(|a| *a != "huge" && !a.starts_with("repeat="))
        .collect();
    if !(4..=5).contains(&args.len()) {
        eprintln!("usage: egdb_probe DIR PIECES COUNT [all|quiet|captures] [huge] [repeat=R]");
        std::process::exit(2);
    }
    let mut db = Egdb::open(Variant::Brazilian, args[1]).unwrap_or_else(|e| {
        eprintln!("egdb_probe: {e}");
        std::process::exit(2)
    });
    if huge {
        db.copy_slices_to_huge_pages().unwrap_or_else(|e| {
            eprintln!("egdb_probe: {e}");
            std::process::exit(2)
        });
    }
    let (Ok(pieces), Ok(count)) = (args[2].parse::<usize>(), args[3].parse::<usize>()) else {
        eprintln!("egdb_probe: PIECES and COUNT are numbers");
        std::process::exit(2)
    };
    let sampler = PositionSampler::new(pieces);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    // Which positions to keep: the side to move without a capture (`quiet`), with one
    // (`captures`) or either (`all`, the default).
    let keep = |p: &Position| match args.get(4).map(|a| a.as_str()) {
        Some("quiet") => !has_capture(p),
        Some("captures") => has_capture(p),
        _ => true,
    };
    let positions: Vec<Position> = std::iter::from_fn(|| sampler.sample(&mut rng))
        .filter(keep)
        .take(count)
        .collect();
    let captures = positions.iter().filter(|p| has_capture(p)).count();
    warm_all(&db, &positions);
    let cpu = thread_cpu_ns();
    let start = std::time::Instant::now();
    let answered = probe_all(&db, &positions, repeat);
    let secs = start.elapsed().as_secs_f64();
    let rate = |s: f64| (positions.len() * repeat) as f64 / s / 1e6;
    let cpu_rate = cpu
        .zip(thread_cpu_ns())
        .map(|(a, b)| format!(", {:.2} M/s of CPU time", rate((b - a) as f64 / 1e9)))
        .unwrap_or_default();
    let huge_kb = anon_huge_kb()
        .filter(|_| huge)
        .map(|kb| format!(" ({} MB in huge pages)", kb >> 10))
        .unwrap_or_default();
    println!(
        "{} positions of {pieces} pieces, {captures} with a capture, probed {repeat} time(s); {answered} answered; {:.2} M probes/s wall{cpu_rate}{huge_kb}",
        positions.len(),
        rate(secs)
    );
}
