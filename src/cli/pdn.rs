//! `damas pdn`: game-record tools.

use std::path::PathBuf;

use crate::cli::CliError;
use crate::pdn::read_games;

/// Arguments of `damas pdn`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub command: PdnCommand,
}

/// The `damas pdn` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum PdnCommand {
    /// Replay every game of a PDN file; report the first unreadable or illegal move.
    Check {
        /// The PDN file.
        file: PathBuf,
    },
}

/// Run a `damas pdn` subcommand.
pub fn run(args: &Args) -> Result<(), CliError> {
    match &args.command {
        PdnCommand::Check { file } => check(file),
    }
}

fn check(file: &PathBuf) -> Result<(), CliError> {
    let bytes =
        std::fs::read(file).map_err(|e| CliError::input(format!("{}: {e}", file.display())))?;
    // PDN files are often Latin-1; only the tags can hold such bytes.
    let text = String::from_utf8_lossy(&bytes);
    match read_games(&text) {
        Ok(games) => {
            let moves: usize = games.iter().map(|g| g.moves.len()).sum();
            println!("ok {} games {} moves", games.len(), moves);
            Ok(())
        }
        Err(e) => {
            let place = match e.mv {
                Some(m) => format!("game {} move {m}", e.game),
                None => format!("game {} line {} column {}", e.game, e.line, e.column),
            };
            Err(CliError {
                message: format!("{place}: {}", e.kind),
                status: 1,
            })
        }
    }
}
