//! The command lines: `damas` (argument definitions with `clap` and the code behind
//! each subcommand; the binary only parses and calls [`run`]), and those of the
//! `damas-egdb` ([`egdb`]), `damas-nodes` ([`study`]) and `damas-train` ([`train`]) tools.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use damas_rules::fen::parse_fen;
use damas_rules::position::Position;

#[macro_use]
mod output;
mod analysis_lines;
pub mod analyze;
mod book;
pub mod egdb;
mod egdb_playout;
mod hub;
pub mod limits;
mod matches;
mod moves;
mod openings;
mod pdn;
mod perft;
mod play;
mod review;
pub mod study;
pub mod train;
mod tune;
mod web;

/// Brazilian checkers: play, analyse, count.
#[derive(Parser, Debug)]
#[command(name = "damas", version, about = "Brazilian-checkers engine", long_about = None)]
pub struct Cli {
    /// What to do; without one, a game starts.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the legal moves of a position.
    Moves(moves::Args),
    /// Count the leaves of the move tree (bulk counting).
    Perft(perft::Args),
    /// Search a position: one line per iteration, then the best move. One of
    /// `--depth`, `--time`, `--nodes` or `--clock` says how long.
    Analyze(analyze::Args),
    /// Run as a Hub protocol engine on stdin/stdout.
    Hub(hub::Args),
    /// Game records (PDN): `damas pdn check FILE`.
    Pdn(pdn::Args),
    /// Play a match between two engines and estimate the Elo difference.
    Match(Box<matches::Args>),
    /// Play in the terminal (the default). The engine thinks 1 s a move unless
    /// `--time`, `--depth`, `--nodes` or `--clock` says otherwise.
    Play(play::Args),
    /// Review a game: the engine's evaluation of every move, its preferred move, and
    /// inaccuracies, mistakes and blunders marked, with a summary per player.
    Review(review::Args),
    /// Opening book: `damas book build`, `damas book show [FILE]`.
    Book(book::Args),
    /// Match openings: `damas openings build` (an unbalanced set).
    Openings(openings::Args),
    /// Tune the engine's constants by SPSA over node-limited (search) or clocked
    /// (time management) game pairs, resumable from its state file (docs/tuning.md).
    Tune(tune::Args),
    /// The board in a browser: serve a local page to play, analyse and review, and
    /// print its address.
    Web(web::Args),
}

/// A failure to report on one line of stderr, with the process exit status.
#[derive(Debug)]
pub struct CliError {
    /// The message.
    pub message: String,
    /// Exit status (2 for bad input).
    pub status: u8,
}

impl CliError {
    /// Bad input (arguments, FEN, files): exit status 2.
    pub fn input(message: impl std::fmt::Display) -> CliError {
        CliError {
            message: message.to_string(),
            status: 2,
        }
    }
}

/// The engine settings the command-line flags ask for: each flag is named as its
/// key in the settings table ([`damas_engine::settings::SETTINGS`]) and its value, when
/// given, is set through that table in the order listed (so `tt-bits` after `hash`
/// selects the thesis' table).
pub fn engine_settings(
    flags: &[(&str, Option<String>)],
) -> Result<damas_engine::settings::EngineSettings, CliError> {
    let mut settings = damas_engine::settings::EngineSettings::default();
    for (key, value) in flags {
        if let Some(value) = value {
            settings.set(key, value).map_err(CliError::input)?;
        }
    }
    Ok(settings)
}

/// A clap value parser for a yes/no flag value (`true`/`on`/`1`, `false`/`off`/`0`),
/// as the settings table reads them.
pub fn parse_bool(text: &str) -> Result<bool, String> {
    damas_engine::settings::parse_flag(text).ok_or_else(|| format!("{text:?} is not true or false"))
}

/// The parser of a `--variant` flag: the variants' names, any case, listed in the help.
pub fn variant_parser() -> impl clap::builder::TypedValueParser<Value = damas_rules::Variant> {
    use clap::builder::TypedValueParser as _;
    let names: Vec<&'static str> = damas_rules::Variant::ALL.iter().map(|v| v.name()).collect();
    clap::builder::PossibleValuesParser::new(names).try_map(|s| s.parse::<damas_rules::Variant>())
}

/// Endgame databases opened for a command, if any were found.
pub type Opened = Option<std::sync::Arc<dyn damas_egdb::oracle::Oracle>>;

/// The endgame databases of `variant` for `play`, `analyze` and `review`: those of
/// `--egdb DIR` (itself or its variant subfolder; an error names a file of other
/// rules), else those of the first standard place holding them, else none.
pub fn open_databases(
    variant: damas_rules::Variant,
    egdb: Option<&std::path::Path>,
) -> Result<Opened, CliError> {
    let (opened, warnings) = open_databases_noting(variant, egdb)?;
    for w in warnings {
        eprintln!("damas: warning: {w}");
    }
    Ok(opened)
}

/// [`open_databases`], with the warnings returned rather than printed (for the
/// terminal game, whose screen would hide stderr): a `DAMAS_EGDB` naming nothing,
/// and each damaged file, left out (positions that need it are searched without).
pub fn open_databases_noting(
    variant: damas_rules::Variant,
    egdb: Option<&std::path::Path>,
) -> Result<(Opened, Vec<String>), CliError> {
    let env = damas_egdb::location::Env::from_process();
    let mut warnings = Vec::new();
    if let (None, Some(w)) = (egdb, damas_egdb::location::env_warning(&env)) {
        warnings.push(w.to_string());
    }
    let opened = damas_egdb::location::open(variant, egdb, &env).map_err(|e| match egdb {
        Some(dir) => CliError::input(format!("--egdb {}: {e}", dir.display())),
        None => CliError::input(e),
    })?;
    warnings.extend(
        opened
            .iter()
            .flat_map(|db| db.damaged_files())
            .map(|f| f.to_string()),
    );
    let opened =
        opened.map(|db| std::sync::Arc::new(db) as std::sync::Arc<dyn damas_egdb::oracle::Oracle>);
    Ok((opened, warnings))
}

/// Parse `--fen` (or the start position when absent).
pub fn position_arg(fen: Option<&str>) -> Result<Position, CliError> {
    match fen {
        None => Ok(Position::start()),
        Some(f) => parse_fen(f).map_err(CliError::input),
    }
}

/// Run a parsed command line; errors are printed as one line on stderr.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        None => play::run(&play::Args::default_game()),
        Some(Command::Moves(a)) => moves::run(&a),
        Some(Command::Perft(a)) => perft::run(&a),
        Some(Command::Analyze(a)) => analyze::run(&a),
        Some(Command::Hub(a)) => hub::run(&a),
        Some(Command::Pdn(a)) => pdn::run(&a),
        Some(Command::Match(a)) => matches::run(&a),
        Some(Command::Play(a)) => play::run(&a),
        Some(Command::Review(a)) => review::run(&a),
        Some(Command::Book(a)) => book::run(&a),
        Some(Command::Openings(a)) => openings::run(&a),
        Some(Command::Tune(a)) => tune::run(&a),
        Some(Command::Web(a)) => web::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("damas: {}", e.message);
            ExitCode::from(e.status)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analyze_rejects_absurd_times_without_panicking() {
        for bad in ["1e20", "-1", "NaN", "inf", "0", "abc"] {
            let r = Cli::try_parse_from(["damas", "analyze", "--time", bad]);
            assert!(r.is_err(), "--time {bad} accepted");
        }
        assert!(Cli::try_parse_from(["damas", "analyze", "--time", "0.5"]).is_ok());
    }
}
