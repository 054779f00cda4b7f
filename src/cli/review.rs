//! `damas review GAME.pdn`: the engine's verdict on every move of a game.

use std::path::PathBuf;
use std::sync::Arc;

use damas_egdb::progress::Bar;

use crate::cli::limits::LimitArgs;
use crate::cli::CliError;
use crate::review::report::{report, rules};
use crate::review::{review_engine, review_game, review_variant, DEFAULT_NODES};
use damas_engine::search::DEFAULT_HASH_MB;
use damas_engine::time::{MoveBudget, TimeControl};
use damas_engine::tt::shared::parse_hash;
use damas_rules::pdn::{game_type_tag, read_games, NO_GAME};
use damas_rules::variant::Variant;

/// Arguments of `damas review`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The PDN file.
    pub file: PathBuf,
    /// Which game of the file (from 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,
    /// How long to search each position: 200,000 nodes by default, which is
    /// reproducible (a time varies from run to run).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Size of the transposition table in megabytes.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB, value_parser = parse_hash)]
    pub hash: usize,
    /// Endgame database directory (default: the standard place, when built).
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,
    /// The rules to judge the game by, for a game without a `GameType` tag
    /// (Brazilian without either); one that contradicts the tag is an error.
    #[arg(long, value_parser = crate::cli::variant_parser())]
    pub variant: Option<Variant>,
    /// Also write the evaluation across the game, with the marked moves, as an SVG
    /// chart to this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// Read the game, review it with a progress bar on stderr, print the review.
pub fn run(args: &Args) -> Result<(), CliError> {
    if let Some(path) = &args.svg {
        crate::cli::output::check_file(path).map_err(|e| CliError::input(format!("--svg: {e}")))?;
    }
    let bytes = std::fs::read(&args.file)
        .map_err(|e| CliError::input(format!("{}: {e}", args.file.display())))?;
    let text = String::from_utf8_lossy(&bytes);
    let mut games =
        read_games(&text).map_err(|e| CliError::input(format!("{}: {e}", args.file.display())))?;
    if games.is_empty() {
        return Err(CliError::input(format!(
            "{}: {NO_GAME}",
            args.file.display()
        )));
    }
    let n = games.len();
    let index = args.game as usize - 1;
    if index >= n {
        return Err(CliError::input(format!(
            "{}: no game {} (the file holds {n})",
            args.file.display(),
            args.game
        )));
    }
    let mut record = games.swap_remove(index);
    // The game's rules; a --variant that names others is refused.
    let variant = review_variant(&record, args.variant).map_err(CliError::input)?;
    record.set_tag("GameType", game_type_tag(variant));
    let game = record.to_game().map_err(CliError::input)?;
    let control = args
        .limits
        .time_control()
        .unwrap_or(TimeControl::Nodes(DEFAULT_NODES));
    // Each position gets all of it, as in analysis; the game's `v` reviews with
    // the same default budget and engine.
    let budget = MoveBudget::exact(&control);
    let oracle = crate::cli::open_databases(game.variant(), args.egdb.as_deref())?;
    let mut searcher = review_engine(game.variant(), oracle, args.hash).map_err(CliError::input)?;
    let bar = Bar::new(
        true,
        Some(game.positions().len() as u64),
        "reviewing {bar:30} {pos}/{len} positions, ETA {eta}",
    );
    let review = review_game(
        &mut searcher,
        &game,
        &budget,
        &Arc::default(),
        &mut |done, _| bar.set_position(done as u64),
    );
    bar.finish_and_clear();
    let names = [record.tag("White"), record.tag("Black")];
    let result = record
        .result
        .clone()
        .or_else(|| record.tag("Result").map(str::to_string))
        .unwrap_or_else(|| "*".to_string());
    let limit = match control {
        TimeControl::Depth(d) => format!("depth {d}"),
        TimeControl::MoveTime(t) => format!("{} s", t.as_secs_f64()),
        TimeControl::Nodes(n) => format!("{n} nodes"),
        other => other.to_string(),
    };
    outln!(
        "Review of game {} of {}: White {}, Black {}, result {result}, {}; {}; {limit} per position",
        args.game,
        args.file.display(),
        names[0].unwrap_or("?"),
        names[1].unwrap_or("?"),
        crate::plural::plies(game.moves().len()),
        rules(review.variant)
    );
    out!("{}", report(&review, names));
    if let Some(path) = &args.svg {
        let svg = crate::review::curve::curve_svg(&crate::review::curve::eval_curve(&review));
        crate::cli::output::write_file(path, svg.as_bytes())
            .map_err(|e| CliError::input(format!("--svg: {e}")))?;
        outln!("Evaluation chart written to {}", path.display());
    }
    Ok(())
}
