//! `damas match`: play two engines against each other and estimate the Elo difference.

use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::CliError;
use crate::matches::{make_player, run_match, EngineSpec, MatchConfig, Tally};
use crate::pdn::{read_games, write_games, PdnGame};

/// Arguments of `damas match`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// First engine: `key=value,…` with name, techniques (pvs+tt…), tt-bits, depth,
    /// nodes, time (s/move), numbering, and last `cmd=COMMAND ARGS` for a Hub engine.
    #[arg(long, default_value = "depth=6")]
    pub engine1: EngineSpec,
    /// Second engine, same form.
    #[arg(long, default_value = "depth=4")]
    pub engine2: EngineSpec,
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Random plies from the start position before the engines play.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// Write every game to this PDN file (rewritten after each game).
    #[arg(long, alias = "pgn")]
    pub pdn: Option<PathBuf>,
    /// Continue the match recorded in the --pdn file (same engines, seed and
    /// options): its games are counted and the match goes on from the next one.
    #[arg(long, requires = "pdn")]
    pub resume: bool,
    /// Do not show the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Write `text` to `path` through a temporary file in the same directory.
fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("pdn.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// Play the match, print one line per game and the score with its Elo estimate.
pub fn run(args: &Args) -> Result<(), CliError> {
    if args.games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    let mut first =
        make_player(&args.engine1).map_err(|e| CliError::input(format!("engine1: {e}")))?;
    let mut second =
        make_player(&args.engine2).map_err(|e| CliError::input(format!("engine2: {e}")))?;
    let mut tally = Tally::default();
    let mut records: Vec<PdnGame> = Vec::new();
    if let (true, Some(path)) = (args.resume, &args.pdn) {
        if path.exists() {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            records = read_games(&text)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            tally = Tally::from_records(&records, &first.name())
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            println!(
                "resuming after {} games: +{} ={} -{}",
                records.len(),
                tally.wins,
                tally.draws,
                tally.losses
            );
        }
    }
    let config = MatchConfig {
        games: args.games,
        opening_plies: args.opening_plies,
        seed: args.seed,
        max_plies: args.max_plies,
        event: format!("damas match: {} vs {}", first.name(), second.name()),
        first_game: records.len().min(args.games),
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}<{eta}]")
            .expect("valid template"),
    );
    bar.set_position(config.first_game as u64);
    let mut write_error = None;
    run_match(first.as_mut(), second.as_mut(), &config, |o| {
        tally.add(o);
        records.push(o.pdn.clone());
        let (w, b) = (
            o.pdn.tag("White").unwrap_or("?"),
            o.pdn.tag("Black").unwrap_or("?"),
        );
        let line = format!(
            "game {:>3}: {w} - {b} {} ({}, {} plies)",
            records.len(),
            o.pdn.result.as_deref().unwrap_or("*"),
            o.termination,
            o.pdn.moves.len()
        );
        // Printed above the bar (also when the bar is hidden).
        bar.suspend(|| println!("{line}"));
        bar.set_message(format!(
            "+{} ={} -{}",
            tally.wins, tally.draws, tally.losses
        ));
        bar.inc(1);
        if let Some(path) = &args.pdn {
            if let Err(e) = write_atomic(path, &write_games(&records)) {
                write_error.get_or_insert(format!("{}: {e}", path.display()));
            }
        }
    });
    bar.finish_and_clear();
    println!(
        "{} vs {}: {} games, +{} ={} -{}, score {:.1}/{} ({:.1}%)",
        first.name(),
        second.name(),
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points(),
        tally.games(),
        100.0 * tally.points() / f64::from(tally.games().max(1))
    );
    if let Some(e) = tally.elo() {
        println!(
            "Elo difference: {:+.0} ± {:.0} (95%)",
            e.elo + 0.0,
            e.margin
        );
    }
    if let Some(path) = &args.pdn {
        println!("games written to {}", path.display());
    }
    match write_error {
        Some(e) => Err(CliError::input(format!("cannot write the games: {e}"))),
        None => Ok(()),
    }
}
