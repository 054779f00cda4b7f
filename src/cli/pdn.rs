//! `damas pdn`: game-record tools.

use std::path::PathBuf;

use crate::cli::CliError;
use crate::matches::{Report, Sprt, Tally};
use damas_rules::pdn::{check_result, read_games, PdnGame, NO_GAME};

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
    /// Score the games of a match (as `damas match --pdn` writes them, in match
    /// order) for one player: the report `damas match` ends with, game pairs included.
    Score {
        /// The PDN file.
        file: PathBuf,
        /// The player whose results are counted (a `White` or `Black` tag of every
        /// game); the first game's White by default.
        #[arg(long)]
        player: Option<String>,
        /// The state of a sequential probability ratio test on these games:
        /// `[nelo:]elo0,elo1[,alpha,beta]`, as `damas match --sprt` takes it.
        #[arg(long)]
        sprt: Option<Sprt>,
    },
    /// Time use per engine in a match's games (the move times and clocks `damas
    /// match --pdn` writes for engines on time): the moves of 5 ms or more (book and
    /// forced moves left out) with their mean, median and largest time, and on a
    /// clock the mean, smallest and median clock left after each game's last move.
    Times {
        /// The PDN file.
        file: PathBuf,
    },
    /// For both players of a match, the games in which each reached a position the
    /// endgame databases hold as won for it, and how they ended: won, drawn with the
    /// win held (a counting rule drew it), drawn after a move gave it away (each such
    /// move listed), or lost.
    Endings {
        /// The PDN file.
        file: PathBuf,
        /// The databases to judge by (of the games' rules); without it those at the
        /// standard place, else the 1-4-piece ones built into the program.
        #[arg(long)]
        egdb: Option<PathBuf>,
    },
}

/// Run a `damas pdn` subcommand.
pub fn run(args: &Args) -> Result<(), CliError> {
    match &args.command {
        PdnCommand::Check { file } => check(file),
        PdnCommand::Score { file, player, sprt } => {
            let games = games_of(file)?;
            out!("{}", score(&games, player.as_deref(), *sprt)?);
            Ok(())
        }
        PdnCommand::Endings { file, egdb } => endings(file, egdb.as_deref()),
        PdnCommand::Times { file } => {
            let players = crate::matches::times::times(&games_of(file)?);
            if players.is_empty() {
                return Err(fail(format!(
                    "{}: no move times (only engines on time= or clock= have them)",
                    file.display()
                )));
            }
            for p in players {
                outln!("{p}");
            }
            Ok(())
        }
    }
}

/// `damas pdn endings`: the won endings of both players of `file`'s first game.
fn endings(file: &PathBuf, egdb: Option<&std::path::Path>) -> Result<(), CliError> {
    let games = games_of(file)?;
    let variant = games
        .first()
        .ok_or_else(|| fail(format!("{}: {NO_GAME}", file.display())))?
        .variant();
    if let Some(i) = games.iter().position(|g| g.variant() != variant) {
        return Err(fail(format!(
            "game {}: {} rules, game 1: {}",
            i + 1,
            games[i].variant().name(),
            variant.name()
        )));
    }
    let oracle = damas_engine::engine::with_built_in(
        crate::cli::open_databases(variant, egdb)?,
        variant,
        true,
    )
    .ok_or_else(|| fail("no endgame databases".to_string()))?;
    outln!(
        "{} pieces or fewer, {} rules",
        oracle.max_pieces(),
        variant.name()
    );
    for player in crate::matches::endings::endings(&games, oracle.as_ref()) {
        out!("{player}");
    }
    Ok(())
}

/// A file that fails its check or cannot be scored: exit status 1.
fn fail(message: String) -> CliError {
    CliError { message, status: 1 }
}

/// The games of `file`; an unreadable file or a bad move is an error (status 1) that
/// names its place.
fn games_of(file: &PathBuf) -> Result<Vec<PdnGame>, CliError> {
    let bytes =
        std::fs::read(file).map_err(|e| CliError::input(format!("{}: {e}", file.display())))?;
    // PDN files are often Latin-1; only the tags can hold such bytes.
    let text = String::from_utf8_lossy(&bytes);
    read_games(&text).map_err(|e| {
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
    })
}

/// The match report of `games` for `player` (the first game's White by default)
/// against the other player of the first game.
fn score(games: &[PdnGame], player: Option<&str>, sprt: Option<Sprt>) -> Result<Report, CliError> {
    let first_game = games.first().ok_or_else(|| fail(NO_GAME.to_string()))?;
    let (white, black) = (
        first_game.tag("White").unwrap_or("?"),
        first_game.tag("Black").unwrap_or("?"),
    );
    let first = player.unwrap_or(white);
    // The tally checks that every game, the first included, was played by `first`.
    let tally = Tally::from_records(games, first).map_err(fail)?;
    let second = if first == white { black } else { white };
    Ok(Report {
        first: first.to_string(),
        second: second.to_string(),
        tally,
        sprt,
    })
}

fn check(file: &PathBuf) -> Result<(), CliError> {
    let games = games_of(file)?;
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

    #[test]
    fn a_match_is_scored_by_games_and_by_pairs() {
        // Two pairs between a and b: a wins with White, then loses with Black (one
        // point of two); a draws, then wins with Black (one and a half).
        let game = |white: &str, black: &str, result: &str| {
            format!("[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. c3-d4 {result}\n\n")
        };
        let text = [
            game("a", "b", "2-0"),
            game("b", "a", "2-0"),
            game("a", "b", "1-1"),
            game("b", "a", "0-2"),
        ]
        .concat();
        let games = read_games(&text).unwrap();
        let report = score(&games, None, Some("0,50".parse().unwrap())).unwrap();
        let text = report.to_string();
        assert!(
            text.starts_with("a vs b: 4 games, +2 =1 -1, score 2.5/4"),
            "{text}"
        );
        assert!(
            text.contains("game pairs: 2 (LL 0, LD 0, DD+WL 1, WD 1, WW 0);"),
            "{text}"
        );
        assert!(text.contains("SPRT elo0=0 elo1=50"), "{text}");
        // From b's side the pairs mirror.
        let b = score(&games, Some("b"), None).unwrap();
        assert_eq!(b.tally.pairs, [0, 1, 1, 0, 0]);
        assert_eq!((b.first.as_str(), b.second.as_str()), ("b", "a"));
        let e = score(&games, Some("c"), None).unwrap_err();
        assert!(e.message.contains("not played by \"c\""), "{}", e.message);
        assert!(score(&[], None, None).is_err());
    }
}
