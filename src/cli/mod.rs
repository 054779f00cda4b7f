//! The `damas` command line: argument definitions (`clap`) and the code behind each
//! subcommand. The binary only parses and calls [`run`].

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::fen::parse_fen;
use crate::position::Position;

pub mod analyze;
mod moves;
mod perft;

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
    /// Search a position: one line per iteration, then the best move.
    Analyze(analyze::Args),
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
        None => {
            println!("{}", Position::start());
            println!();
            println!("Usage: damas <moves|perft> [options]; see `damas --help`.");
            Ok(())
        }
        Some(Command::Moves(a)) => moves::run(&a),
        Some(Command::Perft(a)) => perft::run(&a),
        Some(Command::Analyze(a)) => analyze::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("damas: {}", e.message);
            ExitCode::from(e.status)
        }
    }
}
