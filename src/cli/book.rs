//! `damas book`: build the opening book (`build`) or describe a book file (`show`).

use std::path::PathBuf;

use clap::builder::TypedValueParser as _;
use clap::Subcommand;

use crate::book_build::{self, BuildConfig};
use crate::cli::CliError;
use damas_engine::book::{self, Book};
use damas_engine::eval::{Evaluation, Trained};
use damas_engine::score::Score;
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::position::Position;
use damas_rules::variant::Variant;

/// Arguments of `damas book`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
}

/// The `book` actions.
#[derive(Subcommand, Debug)]
pub enum Action {
    /// Expand the opening tree with node-limited searches and write a book file
    /// (resumable: the analyses are kept in the state file).
    Build(BuildArgs),
    /// Print a book's size, depth and the moves of the start position.
    Show {
        /// The book file (default: the embedded book of `--variant`).
        file: Option<PathBuf>,
        /// Rules of the embedded book shown: brazilian or russian.
        #[arg(long, default_value_t = Variant::Brazilian)]
        variant: Variant,
        /// How to write the moves (as `damas moves`).
        #[arg(long, default_value_t = Notation::Algebraic, value_parser = clap::builder::PossibleValuesParser::new(["algebraic", "numeric", "hub"]).try_map(|s| s.parse::<Notation>()))]
        notation: Notation,
    },
}

/// Arguments of `damas book build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Rules the book is for: brazilian or russian.
    #[arg(long, default_value_t = Variant::Brazilian)]
    pub variant: Variant,
    /// Where to write the book (default: data/book/opening.book, Russian
    /// data/book/opening-russian.book).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Weight file of the trained evaluation the searches use (default: the
    /// variant's embedded weights).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Analyses so far (read to resume, written after every few positions); default:
    /// the book's name with `.state`.
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// Plies along the best line.
    #[arg(long, default_value_t = BuildConfig::default().depth)]
    pub depth: u32,
    /// Plies fewer for a move other than the best.
    #[arg(long, default_value_t = BuildConfig::default().alt_penalty)]
    pub alt_penalty: u32,
    /// Keep moves at most this many men below the best.
    #[arg(long, default_value_t = f64::from(BuildConfig::default().margin.0) / 100.0)]
    pub margin: f64,
    /// Keep at most this many moves per position.
    #[arg(long, default_value_t = BuildConfig::default().max_moves)]
    pub max_moves: usize,
    /// Nodes per search (each legal move is searched).
    #[arg(long, default_value_t = BuildConfig::default().nodes)]
    pub nodes: u64,
    /// Table size per searcher, megabytes.
    #[arg(long, default_value_t = BuildConfig::default().hash_mb)]
    pub hash: usize,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Run `damas book`.
pub fn run(args: &Args) -> Result<(), CliError> {
    match &args.action {
        Action::Build(a) => build(a),
        Action::Show {
            file,
            variant,
            notation,
        } => show(file.as_deref(), *variant, *notation),
    }
}

fn build(a: &BuildArgs) -> Result<(), CliError> {
    if !(a.margin.is_finite() && (0.0..=10.0).contains(&a.margin)) {
        return Err(CliError::input("--margin must be from 0 to 10 men"));
    }
    if a.nodes == 0 || a.depth == 0 || !(damas_engine::tt::shared::MIN_MB..=4096).contains(&a.hash)
    {
        return Err(CliError::input(
            "--nodes and --depth must be above 0 and --hash from 1 to 4096",
        ));
    }
    let evaluation = match &a.weights {
        Some(p) => Some(Evaluation::Trained(std::sync::Arc::new(
            Trained::from_file(p).map_err(CliError::input)?,
        ))),
        None => None,
    };
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| book_build::shipped_book_path(a.variant));
    let config = BuildConfig {
        variant: a.variant,
        evaluation,
        depth: a.depth,
        alt_penalty: a.alt_penalty,
        margin: Score::centi((a.margin * 100.0).round() as i32),
        max_moves: a.max_moves.max(1),
        nodes: a.nodes,
        hash_mb: a.hash,
        progress: true,
    };
    let state = a
        .state
        .clone()
        .unwrap_or_else(|| book_build::state_path_for(&out));
    for (flag, path) in [("--out", &out), ("--state", &state)] {
        crate::cli::output::check_file(path)
            .map_err(|e| CliError::input(format!("{flag}: {e}")))?;
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(j) = a.jobs {
        pool = pool.num_threads(j.max(1));
    }
    let pool = pool.build().map_err(CliError::input)?;
    let report = pool
        .install(|| book_build::build(&config, &out, &state))
        .map_err(CliError::input)?;
    outln!(
        "{} book {}: {} positions, depth {} plies, {} bytes; searched {} positions, {} from {}, {:.1} s",
        a.variant,
        out.display(),
        report.positions,
        report.depth,
        report.bytes,
        report.searched,
        report.resumed,
        state.display(),
        report.time.as_secs_f64()
    );
    Ok(())
}

fn show(
    file: Option<&std::path::Path>,
    variant: Variant,
    notation: Notation,
) -> Result<(), CliError> {
    let (name, book) = match file {
        Some(f) => (
            f.display().to_string(),
            Book::load(f).map_err(CliError::input)?,
        ),
        None => (
            "embedded".to_string(),
            Book::from_bytes_for(book::embedded_bytes(variant), variant)
                .map_err(CliError::input)?,
        ),
    };
    outln!(
        "{} book {name}: {} positions, depth {} plies, {} bytes",
        book.variant(),
        book.len(),
        book.depth(),
        book.to_bytes().len()
    );
    let start = Position::start();
    for m in book.moves(&start).unwrap_or_default() {
        outln!(
            "start {} weight {}",
            move_to_string(book.variant(), &start, m.mv, notation),
            m.weight.0
        );
    }
    Ok(())
}
