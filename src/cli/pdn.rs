//! `damas pdn`: game-record tools.

use std::path::PathBuf;

use crate::cli::CliError;
use damas_rules::pdn::{check_result, read_games, NO_GAME};

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
    /// Replay every game of a PDN file; report the first unreadable or illegal move,
    /// a result the final position contradicts, or a file without any game.
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
    let fail = |message: String| CliError { message, status: 1 };
    let games = read_games(&text).map_err(|e| {
        let place = match e.mv {
            Some(m) => format!("game {} move {m}", e.game),
            None => format!("game {}", e.game),
        };
        let at = if e.line > 0 {
            format!(" (line {}, column {})", e.line, e.column)
        } else {
            String::new()
        };
        fail(format!("{place}: {}{at}", e.kind))
    })?;
    if games.is_empty() {
        return Err(fail(format!("{}: {NO_GAME}", file.display())));
    }
    for (i, g) in games.iter().enumerate() {
        if let Err(e) = check_result(g) {
            return Err(fail(format!("game {}: {e}", i + 1)));
        }
    }
    let moves: usize = games.iter().map(|g| g.moves.len()).sum();
    outln!(
        "ok {} {}",
        crate::plural::games(games.len()),
        crate::plural::count(moves as u64, "move", "moves")
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_text(text: &str) -> Result<(), CliError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.pdn");
        std::fs::write(&path, text).unwrap();
        check(&path)
    }

    #[test]
    fn empty_files_wrong_results_and_bad_moves_fail_with_their_place() {
        let e = check_text("").unwrap_err();
        assert_eq!(e.status, 1);
        assert!(e.message.contains(NO_GAME), "{}", e.message);
        let e = check_text("[FEN \"W:Wc3:Bd4\"]\n1. c3xe5 0-2\n").unwrap_err();
        assert!(
            e.message.contains("game 1: result 0-2 contradicts"),
            "{}",
            e.message
        );
        let e = check_text("1. c3-d4 *\n\n1. c3-d4 f6-e5 2. d4-c5 *\n").unwrap_err();
        assert!(
            e.message.contains("game 2 move 2: illegal move \"d4-c5\"")
                && e.message.contains("(line 3, column 19)"),
            "{}",
            e.message
        );
        assert!(check_text("1. c3-d4 *\n").is_ok());
    }
}
