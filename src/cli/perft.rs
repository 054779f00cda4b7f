//! `damas perft`: leaf counts of the move tree, optionally per root move and threaded.

use std::time::Instant;

use crate::cli::{position_arg, CliError};
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::perft::{divide, divide_parallel, perft};

/// Arguments of `damas perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Depth in plies.
    #[arg(long)]
    pub depth: u32,
    /// Position (algebraic or numeric FEN); the start position by default.
    #[arg(long)]
    pub fen: Option<String>,
    /// One line per root move with its count.
    #[arg(long)]
    pub divide: bool,
    /// Threads; root moves are split over a rayon pool.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Count and print `nodes <leaves> time <seconds> nps <leaves per second>`.
pub fn run(args: &Args) -> Result<(), CliError> {
    let pos = position_arg(args.fen.as_deref())?;
    let start = Instant::now();
    let (total, per_move) = if args.depth == 0 {
        // The position itself is the one leaf, however many threads.
        (perft(&pos, 0), None)
    } else if args.divide || args.threads > 1 {
        let rows = if args.threads > 1 {
            divide_parallel(&pos, args.depth, args.threads).map_err(CliError::input)?
        } else {
            divide(&pos, args.depth)
        };
        (rows.iter().map(|r| r.1).sum(), Some(rows))
    } else {
        (perft(&pos, args.depth), None)
    };
    let secs = start.elapsed().as_secs_f64();
    if args.divide && args.depth > 0 {
        for (m, n) in per_move.unwrap_or_default() {
            println!("{} {n}", move_to_string(&pos, m, Notation::Algebraic));
        }
    }
    let nps = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    println!("nodes {total} time {secs:.3} nps {nps:.0}");
    Ok(())
}
