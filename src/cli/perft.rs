//! `damas perft`: leaf counts of the move tree, optionally per root move and threaded.

use std::time::Instant;

use crate::cli::{position_arg, variant_parser, CliError};
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::perft::{divide, divide_parallel, perft};
use damas_rules::Variant;

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
    /// The rules: brazilian or russian.
    #[arg(long, default_value_t = Variant::Brazilian, value_parser = variant_parser())]
    pub variant: Variant,
}

/// Count and print `nodes <leaves> time <seconds> nps <leaves per second>`.
pub fn run(args: &Args) -> Result<(), CliError> {
    let pos = position_arg(args.fen.as_deref())?;
    let v = args.variant;
    let start = Instant::now();
    let (total, per_move) = if args.depth == 0 {
        // The position itself is the one leaf, however many threads.
        (perft(v, &pos, 0), None)
    } else if args.divide || args.threads > 1 {
        let rows = if args.threads > 1 {
            divide_parallel(v, &pos, args.depth, args.threads).map_err(CliError::input)?
        } else {
            divide(v, &pos, args.depth)
        };
        (rows.iter().map(|r| r.1).sum(), Some(rows))
    } else {
        (perft(v, &pos, args.depth), None)
    };
    let secs = start.elapsed().as_secs_f64();
    if args.divide && args.depth > 0 {
        for (m, n) in per_move.unwrap_or_default() {
            outln!("{} {n}", move_to_string(v, &pos, m, Notation::Algebraic));
        }
    }
    let nps = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    outln!("nodes {total} time {secs:.3} nps {nps:.0}");
    Ok(())
}
