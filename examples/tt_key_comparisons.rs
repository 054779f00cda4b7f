//! A measurement for the search report (it asserts nothing, so it is an example,
//! not a test): `cargo run --release --features tools --example tt_key_comparisons`.

use damas_rules::variant::Variant;
use std::sync::atomic::AtomicBool;

use damas_engine::search::{Limits, SearchOptions, Searcher, Techniques};
use damas_rules::movegen::legal_moves;
use damas_rules::position::Position;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The thesis' protocol for key comparisons (§6.5.4), scaled down: random positions
/// (6..=40 random moves from the start), each searched by PVS with the table to
/// depths 3, 5, …, 15 without clearing the table between depths (cleared between
/// positions), probing at every node as the thesis does. `DAMAS_TT_POSITIONS`,
/// `DAMAS_TT_TECHNIQUES` (default `pvs,id,asp,tt,qs`, the thesis' engine) and
/// `DAMAS_TT_LEAVES=0` (no probes at the horizon) vary the protocol.
fn main() {
    let count: usize = std::env::var("DAMAS_TT_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let mut rng = ChaCha8Rng::seed_from_u64(35_000);
    let mut positions = Vec::new();
    while positions.len() < count {
        let k = rng.gen_range(6..=40);
        let mut pos = Position::start();
        for _ in 0..k {
            let moves = legal_moves(Variant::Brazilian, &pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.gen_range(0..moves.len())]);
        }
        if !legal_moves(Variant::Brazilian, &pos).is_empty() {
            positions.push(pos);
        }
    }
    let stop = AtomicBool::new(false);
    for bits in [20, 21, 22] {
        let techniques: Techniques = std::env::var("DAMAS_TT_TECHNIQUES")
            .unwrap_or_else(|_| "pvs,id,asp,tt,qs".into())
            .parse()
            .expect("techniques");
        let tt_leaves = std::env::var("DAMAS_TT_LEAVES").map_or(true, |v| v != "0");
        let opts = SearchOptions::default()
            .with_techniques(techniques)
            .with_thesis_table(bits)
            .with_clear_tt(false)
            .with_tt_leaves(tt_leaves)
            .with_eval(damas_engine::eval::Evaluation::Material);
        let mut searcher = Searcher::new(opts);
        let (mut accesses, mut compares) = (0u64, 0u64);
        for pos in &positions {
            searcher.clear();
            for depth in (3..=15).step_by(2) {
                let r = searcher.search(pos, &[], &Limits::depth(depth), &stop, &mut |_| {});
                accesses += r.stats.tt_accesses;
                compares += r.stats.tt_compares;
            }
        }
        println!(
            "{techniques} horizon probes {tt_leaves} 2^{bits}: {count} positions, {accesses} accesses, {:.3} key comparisons per access",
            compares as f64 / accesses as f64
        );
    }
}
