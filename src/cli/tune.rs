//! `damas tune`: parameter tuning by SPSA over node-limited or clocked game pairs, resumable
//! from its state file; the work is in [`crate::tune`].

use std::path::PathBuf;

use damas_egdb::progress::Bar;
use damas_engine::time::TimeControl;
use damas_rules::variant::Variant;

use super::CliError;
use crate::matches::{load_openings, shuffled};
use crate::tune::{self, GameSetup, Games, Spsa, TuneState};

/// Arguments of `damas tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The state file: created by a new run, resumed when it exists (the games'
    /// setup and the schedule are then the file's).
    #[arg(long, default_value = "tune-state.txt")]
    pub state: PathBuf,
    /// Iterations in all (one or more game pairs each); a resumed run goes on to
    /// this many. A new run plans its schedule for them (default 1000).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Nodes per move of both engines (new run).
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// A game clock for both engines instead of the node limit, `BASE+INC` in
    /// seconds (new run): games that the time constants shape (timed: run them on a
    /// quiet machine).
    #[arg(long, value_parser = tune::clock_control, conflicts_with = "nodes")]
    pub clock: Option<TimeControl>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Game pairs per iteration (new run; default: enough for --concurrency).
    #[arg(long)]
    pub pairs: Option<usize>,
    /// Rules played (new run).
    #[arg(long, value_parser = super::variant_parser(), default_value = "brazilian")]
    pub variant: Variant,
    /// Opening file (new run); default: the variant's unbalanced set.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Parameters tuned, by name, comma-separated (new run); default: all of them.
    #[arg(long, value_delimiter = ',')]
    pub params: Vec<String>,
    /// Settings both engines share, as a match engine spec (new run).
    #[arg(long, default_value = "hash=8")]
    pub engine: String,
    /// Seed of the perturbations and the opening order (new run).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Factor on every parameter's perturbation `c` (new run): above 1 for a coarse run.
    #[arg(long, default_value_t = 1.0)]
    pub c_scale: f64,
    /// Factor on every parameter's learning rate `r` (new run): above 1 for a coarse run.
    #[arg(long, default_value_t = 1.0)]
    pub r_scale: f64,
    /// Plies after which a game is adjudicated a draw (new run).
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// Print the summary of the state file and stop.
    #[arg(long)]
    pub summary: bool,
    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
}

/// Run `damas tune`.
pub fn run(args: &Args) -> Result<(), CliError> {
    if !(1..=64).contains(&args.concurrency) {
        return Err(CliError::input("--concurrency must be 1 to 64"));
    }
    if args.nodes == 0 {
        return Err(CliError::input("--nodes must be at least 1"));
    }
    if args.pairs == Some(0) {
        return Err(CliError::input("--pairs must be at least 1"));
    }
    if args.iterations == Some(0) {
        return Err(CliError::input("--iterations must be at least 1"));
    }
    let found = TuneState::load(&args.state).map_err(CliError::input)?;
    if args.summary {
        let state = found.ok_or_else(|| {
            CliError::input(format!("{}: no such state file", args.state.display()))
        })?;
        out!("{}", tune::summary(&state.spsa));
        return Ok(());
    }
    tune::check_writable(&args.state).map_err(|e| CliError::input(format!("--state: {e}")))?;
    let mut state = match found {
        Some(state) => {
            outln!(
                "resuming {} after iteration {}",
                args.state.display(),
                state.spsa.k
            );
            state
        }
        None => {
            let params = tune::engine_params(
                &args.params,
                tune::Scale {
                    c: args.c_scale,
                    r: args.r_scale,
                },
                args.clock.is_some(),
            )
            .map_err(CliError::input)?;
            let setup = GameSetup {
                variant: args.variant,
                control: args.clock.unwrap_or(TimeControl::Nodes(args.nodes)),
                pairs: args.pairs.unwrap_or(args.concurrency.div_ceil(2)),
                max_plies: args.max_plies,
                openings: args.openings.clone(),
                engine: args.engine.clone(),
            };
            let planned = args.iterations.unwrap_or(1000);
            TuneState {
                games: setup,
                spsa: Spsa::new(params, planned, args.seed),
            }
        }
    };
    let until = args.iterations.unwrap_or(state.spsa.schedule.planned);
    let setup = state.games.clone();
    let openings = match &setup.openings {
        Some(path) => load_openings(path)
            .map_err(|e| CliError::input(format!("openings {}: {e}", path.display())))?,
        None => tune::default_openings(setup.variant)
            .map_err(|e| CliError::input(format!("shipped openings: {e}")))?,
    };
    let openings = shuffled(openings, state.spsa.seed);
    let names = state.spsa.params.iter().map(|p| p.name.clone()).collect();
    let mut games =
        Games::new(setup.clone(), names, openings, args.concurrency).map_err(CliError::input)?;
    outln!(
        "tuning {} parameters, {}, {} game pair(s) an iteration, {}",
        state.spsa.params.len(),
        setup.control,
        setup.pairs,
        setup.variant
    );
    let bar = Bar::new(
        !args.quiet,
        Some(until),
        "{bar:30} {pos}/{len} iterations {msg} [{elapsed_precise} left {eta_precise}]",
    );
    bar.set_position(state.spsa.k);
    let result = tune::run(&mut state, &args.state, until, &mut games, |s| {
        bar.set_position(s.spsa.k);
        bar.set_message(format!("results {:+}", s.spsa.total));
    });
    bar.finish_and_clear();
    result.map_err(|e| CliError {
        message: e.to_string(),
        status: 1,
    })?;
    out!("{}", tune::summary(&state.spsa));
    outln!("state: {}", args.state.display());
    Ok(())
}
