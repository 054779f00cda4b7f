//! `damas openings build`: an unbalanced opening set from the FMJD ballots
//! ([`crate::matches::unbalanced`]), written as it goes and continued when run again.

use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::CliError;
use crate::matches::fmjd_ballots;
use crate::matches::unbalanced::{build_ballot, done_line, engine_scorer, BuildConfig, Progress};
use damas_engine::score::Score;
use damas_rules::variant::Variant;

/// Arguments of `damas openings`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub command: OpeningsCommand,
}

/// The `damas openings` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum OpeningsCommand {
    /// Build an unbalanced set: positions a few plies after the FMJD ballots where
    /// the engine gives one side a small edge, one FEN line each. The file is
    /// rewritten after each ballot; run again with the same settings, it goes on
    /// from the first ballot not finished.
    Build(BuildArgs),
}

/// Arguments of `damas openings build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// The rules searched by.
    #[arg(long, value_parser = crate::cli::variant_parser(), default_value = "brazilian")]
    pub variant: Variant,
    /// Plies played after the ballot.
    #[arg(long, default_value_t = 2)]
    pub plies: usize,
    /// Depth of the first search, which filters.
    #[arg(long, default_value_t = 12)]
    pub filter_depth: u32,
    /// Depth of the confirming search, whose score must be within the band.
    #[arg(long, default_value_t = 20)]
    pub depth: u32,
    /// Smallest edge kept, hundredths of a man.
    #[arg(long, default_value_t = 25)]
    pub min: i32,
    /// Largest edge kept, hundredths of a man.
    #[arg(long, default_value_t = 70)]
    pub max: i32,
    /// Most positions kept from one ballot.
    #[arg(long, default_value_t = 1)]
    pub per_ballot: usize,
    /// Seed of the order in which a ballot's positions are tried.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The set's file (continued when it exists).
    #[arg(long)]
    pub out: PathBuf,
    /// Do not show the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Run a `damas openings` subcommand.
pub fn run(args: &Args) -> Result<(), CliError> {
    match &args.command {
        OpeningsCommand::Build(b) => build(b),
    }
}

fn build(args: &BuildArgs) -> Result<(), CliError> {
    let config = BuildConfig {
        variant: args.variant,
        plies: args.plies,
        filter_depth: args.filter_depth,
        depth: args.depth,
        min: Score(args.min),
        max: Score(args.max),
        per_ballot: args.per_ballot,
        seed: args.seed,
    };
    config.validate().map_err(CliError::input)?;
    let path = &args.out;
    let shown = path.display();
    // The path is checked before any search: a directory, an unreadable file, a
    // file of other settings or a missing folder stop here.
    if path.is_dir() {
        return Err(CliError::input(format!("{shown} is a directory")));
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        if !parent.is_dir() {
            return Err(CliError::input(format!(
                "{}: no such folder",
                parent.display()
            )));
        }
    }
    let mut progress = if path.exists() {
        let text =
            std::fs::read_to_string(path).map_err(|e| CliError::input(format!("{shown}: {e}")))?;
        Progress::read(&text, &config).map_err(|e| CliError::input(format!("{shown}: {e}")))?
    } else {
        Progress::new(&config)
    };
    let write = |p: &Progress| {
        damas_rules::atomic_file::write_atomic(path, p.text().as_bytes())
            .map_err(|e| CliError::input(format!("cannot write {shown}: {e}")))
    };
    write(&progress)?;
    let ballots = fmjd_ballots().map_err(|e| CliError::input(format!("embedded ballots: {e}")))?;
    let todo = ballots
        .iter()
        .filter(|b| !progress.done.contains(&b.name))
        .count();
    if todo < ballots.len() {
        outln!(
            "continuing {shown}: {} of {} ballots done, {} positions",
            ballots.len() - todo,
            ballots.len(),
            progress.kept()
        );
    }
    let mut scorer = engine_scorer(config.variant).map_err(CliError::input)?;
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(todo as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} ballots {msg} [{elapsed}<{eta}]")
            .expect("valid template"),
    );
    let started = Instant::now();
    let (mut searched, mut confirmed) = (0, 0);
    for (index, ballot) in ballots.iter().enumerate() {
        if progress.done.contains(&ballot.name) {
            continue;
        }
        let already = progress
            .kept_by_ballot
            .get(&ballot.name)
            .copied()
            .unwrap_or(0);
        let outcome = build_ballot(
            &config,
            index,
            ballot,
            already,
            &progress.positions,
            &mut scorer,
        );
        searched += outcome.filtered;
        confirmed += outcome.confirmed;
        for k in &outcome.kept {
            progress.positions.insert(k.position);
            progress.lines.push(k.to_string());
        }
        progress.lines.push(done_line(&ballot.name, &outcome));
        progress.done.insert(ballot.name.clone());
        write(&progress)?;
        bar.set_message(format!("{} positions", progress.kept()));
        bar.inc(1);
    }
    bar.finish_and_clear();
    outln!(
        "{shown}: {} positions from {} ballots ({searched} searched at depth {}, {confirmed} at depth {}, {:.0} s)",
        progress.kept(),
        ballots.len(),
        config.filter_depth,
        config.depth,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
