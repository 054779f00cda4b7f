//! Times the distances solved on demand (`Egdb::solve_distances`):
//! `cargo run --release --features tools --example egdb_solve -- DIR FEN…` solves the
//! slice pair of each won or lost position, in order, on a fresh database handle each,
//! and prints the wall time and the bytes kept.

use damas_rules::variant::Variant;
use std::time::Instant;

use damas_egdb::Egdb;
use damas_rules::fen::parse_fen;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((dir, fens)) = args.split_first() else {
        eprintln!("usage: egdb_solve DIR FEN…");
        return std::process::ExitCode::from(2);
    };
    for fen in fens {
        let result = parse_fen(fen).map_err(|e| e.to_string()).and_then(|pos| {
            let db = Egdb::open(Variant::Brazilian, dir).map_err(|e| e.to_string())?;
            let start = Instant::now();
            let solved = db.solve_distances(&pos).map_err(|e| e.to_string())?;
            let seconds = start.elapsed().as_secs_f64();
            let bytes = db.on_demand_distances().bytes();
            Ok(format!(
                "solved {solved}, {seconds:.2} s, {bytes} bytes kept"
            ))
        });
        match result {
            Ok(line) => println!("{fen}: {line}"),
            Err(e) => {
                eprintln!("{fen}: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    std::process::ExitCode::SUCCESS
}
