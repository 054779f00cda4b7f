//! The `damas-nodes` command line: argument definitions and dispatch.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use thiserror::Error;

use crate::study::config::{parse_configs, ConfigError};
use crate::study::positions::{format_positions, generate, GenerateSpec, THESIS_SEED};
use crate::study::run::{Depths, RunError, RunSpec};
use crate::study::{branching, plot, report, ttprobe};

/// Node-count study of the search techniques (thesis §6.6).
#[derive(Parser, Debug)]
#[command(
    name = "damas-nodes",
    version,
    about = "Node-count study of damas' search techniques (thesis §6.6)"
)]
pub struct NodesCli {
    /// What to do.
    #[command(subcommand)]
    pub command: NodesCommand,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum NodesCommand {
    /// Generate the random test set (250 positions per k = 6…40 by default).
    Positions(PositionsArgs),
    /// Search the test set with each configuration to each depth, appending CSV rows.
    Run(RunArgs),
    /// Markdown tables and SVG plots from a results CSV.
    Report(ReportArgs),
    /// Branching factor over uniformly random games.
    Branching(BranchingArgs),
    /// Mean key comparisons per transposition-table access.
    TtProbes(TtProbesArgs),
}

/// `positions` arguments.
#[derive(clap::Args, Debug)]
pub struct PositionsArgs {
    /// Seed of the ChaCha8 generator.
    #[arg(long, default_value_t = THESIS_SEED)]
    pub seed: u64,
    /// Positions per number of random moves.
    #[arg(long, default_value_t = 250)]
    pub per_k: usize,
    /// Fewest random moves.
    #[arg(long, default_value_t = 6)]
    pub min_k: u32,
    /// Most random moves.
    #[arg(long, default_value_t = 40)]
    pub max_k: u32,
    /// Output file (`FEN k` per line).
    #[arg(long)]
    pub out: PathBuf,
}

/// `run` arguments.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Positions file.
    #[arg(long)]
    pub positions: PathBuf,
    /// Depths, `A-B` or `A`.
    #[arg(long)]
    pub depths: Depths,
    /// Configurations: `+`-joined techniques separated by commas, or the presets
    /// `thesis` (table 6.2), `extra`, `selective`, and `default` (the engine's default).
    #[arg(long, default_value = "thesis")]
    pub configs: String,
    /// Even sample over k of this many positions.
    #[arg(long)]
    pub sample: Option<usize>,
    /// Worker threads.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table of 2^P entries.
    #[arg(long, default_value_t = 21)]
    pub tt_bits: u32,
    /// Do not probe the transposition table at horizon nodes (the thesis does; the
    /// engine's default does not).
    #[arg(long)]
    pub no_tt_leaves: bool,
    /// Use a stored TT value only at exactly the depth required (write such runs to
    /// their own CSV: the labels do not record it).
    #[arg(long)]
    pub tt_exact_draft: bool,
    /// Endgame database directory (for configurations with `egdb`).
    #[arg(long)]
    pub egdb: Option<PathBuf>,
    /// Results CSV (appended to; rows already there are skipped).
    #[arg(long)]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `report` arguments.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Results CSV.
    pub results: PathBuf,
    /// Directory for the SVG plots.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Write the Markdown here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// `branching` arguments.
#[derive(clap::Args, Debug)]
pub struct BranchingArgs {
    /// Number of random games.
    #[arg(long, default_value_t = 100_000)]
    pub games: u64,
    /// Seed.
    #[arg(long, default_value_t = THESIS_SEED)]
    pub seed: u64,
    /// Safety cap on a game's length (the draw rules end every game well before).
    #[arg(long, default_value_t = 3_000)]
    pub max_plies: u32,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `tt-probes` arguments.
#[derive(clap::Args, Debug)]
pub struct TtProbesArgs {
    /// Random positions (the thesis used 35,000).
    #[arg(long, default_value_t = 350)]
    pub positions: usize,
    /// Seed of the positions.
    #[arg(long, default_value_t = THESIS_SEED)]
    pub seed: u64,
    /// Deepest search (odd depths from 3).
    #[arg(long, default_value_t = 15)]
    pub top_depth: u32,
    /// Techniques of the searches (`+`-joined; quiescence is added).
    #[arg(long, default_value = "pvs+id+asp+tt")]
    pub techniques: String,
    /// Table sizes as powers of two, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "20,21,22")]
    pub bits: Vec<u32>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// A failure of a subcommand.
#[derive(Debug, Error)]
pub enum NodesError {
    /// Bad configuration list.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The run failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A file could not be written.
    #[error("cannot write {0}: {1}")]
    Write(String, std::io::Error),
    /// The results file is bad.
    #[error("{0}: {1}")]
    Results(String, crate::study::csv::CsvError),
    /// A plot failed.
    #[error(transparent)]
    Plot(#[from] plot::PlotError),
    /// Bad arguments.
    #[error("{0}")]
    Args(String),
}

/// How the Markdown refers to a plot: relative to the Markdown file's directory when
/// the plot is below it, else the path as given.
fn link(svg: &std::path::Path, md: Option<&std::path::Path>) -> String {
    let base = md
        .and_then(|m| m.parent())
        .unwrap_or(std::path::Path::new(""));
    svg.strip_prefix(base).unwrap_or(svg).display().to_string()
}

fn write(path: &std::path::Path, text: &str) -> Result<(), NodesError> {
    super::output::write_file(path, text.as_bytes()).map_err(destination)
}

/// A destination that cannot be written, as the study's write error naming it.
fn destination(e: super::output::DestinationError) -> NodesError {
    NodesError::Write(e.path, std::io::Error::other(e.reason))
}

/// Run a subcommand.
pub fn execute(cli: NodesCli) -> Result<(), NodesError> {
    match cli.command {
        NodesCommand::Positions(a) => {
            if a.min_k > a.max_k || a.per_k == 0 {
                return Err(NodesError::Args(
                    "need --min-k <= --max-k and --per-k >= 1".into(),
                ));
            }
            let spec = GenerateSpec {
                seed: a.seed,
                moves: a.min_k..=a.max_k,
                per_k: a.per_k,
            };
            super::output::check_file(&a.out).map_err(destination)?;
            let set = generate(&spec);
            let header = format!(
                "damas-nodes positions --seed {} --per-k {} --min-k {} --max-k {}\n{} positions: for each k, {} games of k uniformly random legal moves from the start\n(ChaCha8Rng::seed_from_u64(seed), one stream in order of k); games that end early are replayed.\nFormat: FEN k",
                a.seed,
                a.per_k,
                a.min_k,
                a.max_k,
                set.len(),
                a.per_k
            );
            write(&a.out, &format_positions(&set, &header))?;
            eprintln!("wrote {} positions to {}", set.len(), a.out.display());
        }
        NodesCommand::Run(a) => {
            super::output::check_file(&a.out).map_err(destination)?;
            let spec = RunSpec {
                positions: a.positions,
                depths: a.depths,
                configs: parse_configs(&a.configs)?,
                sample: a.sample,
                threads: a.threads,
                table: crate::study::run::TableSetup {
                    bits: a.tt_bits,
                    leaves: !a.no_tt_leaves,
                    exact_draft: a.tt_exact_draft,
                },
                egdb: a.egdb,
                out: a.out,
                progress: !a.quiet,
            };
            let s = crate::study::run::run(&spec)?;
            for (label, why) in &s.not_run {
                eprintln!("not run: {label}: {why}");
            }
            eprintln!(
                "{} rows written, {} already present, {:.1} s",
                s.written,
                s.skipped,
                s.elapsed.as_secs_f64()
            );
        }
        NodesCommand::Report(a) => {
            let rows = crate::study::csv::read_rows(&a.results)
                .map_err(|e| NodesError::Results(a.results.display().to_string(), e))?;
            if let Some(p) = &a.out {
                super::output::check_file(p).map_err(destination)?;
            }
            let summary = report::summarize(&rows);
            let mut md = report::markdown(&summary);
            if let Some(dir) = &a.svg {
                super::output::check_dir(dir).map_err(destination)?;
                let depth_svg = dir.join("nodes-by-depth.svg");
                plot::nodes_by_depth(&summary, &depth_svg)?;
                md.push_str(&format!(
                    "\n![nodes against depth]({})\n",
                    link(&depth_svg, a.out.as_deref())
                ));
                if let Some(deep) = summary.phase_depth() {
                    let phase_svg = dir.join("nodes-by-phase.svg");
                    plot::nodes_by_phase(&summary, deep, &phase_svg)?;
                    md.push_str(&format!(
                        "\n![nodes against moves played]({})\n",
                        link(&phase_svg, a.out.as_deref())
                    ));
                }
            }
            match &a.out {
                Some(p) => write(p, &md)?,
                None => out!("{md}"),
            }
        }
        NodesCommand::Branching(a) => {
            let spec = branching::BranchingSpec {
                games: a.games,
                seed: a.seed,
                max_plies: a.max_plies,
            };
            let s = branching::measure(&spec, !a.quiet);
            out!("{}", branching::markdown(&spec, &s));
        }
        NodesCommand::TtProbes(a) => {
            if a.bits.iter().any(|&b| !(8..=30).contains(&b)) {
                return Err(NodesError::Args("--bits must be between 8 and 30".into()));
            }
            let spec = ttprobe::ProbeSpec {
                positions: a.positions,
                seed: a.seed,
                top_depth: a.top_depth,
                bits: a.bits,
                techniques: a.techniques.parse().map_err(
                    |e: damas_engine::search::TechniqueError| NodesError::Args(e.to_string()),
                )?,
            };
            let r = ttprobe::measure(&spec, !a.quiet);
            out!("{}", ttprobe::markdown(&spec, &r));
        }
    }
    Ok(())
}

/// Parse the process arguments, run, and turn errors into one line on stderr.
pub fn main() -> ExitCode {
    match execute(NodesCli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("damas-nodes: {e}");
            ExitCode::from(2)
        }
    }
}
