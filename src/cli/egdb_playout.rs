//! `damas-egdb playout`: won database positions played out engine against engine
//! ([`crate::egdb_playout`]), one line per position and a summary.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Args as ClapArgs;
use damas_egdb::error::EgdbError;
use damas_egdb::location::{self, Env};
use damas_egdb::oracle::Oracle;
use damas_egdb::probe::Egdb;
use damas_egdb::Wdl;
use damas_engine::search::Limits;
use damas_rules::fen::parse_fen;
use damas_rules::position::Color;
use damas_rules::variant::Variant;

use crate::egdb_playout::play_out;

/// Arguments of `playout`.
#[derive(ClapArgs, Debug)]
pub struct PlayoutArgs {
    /// Database directory (default: as `probe` finds it).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// The rules of the databases and of the games played.
    #[arg(long, default_value_t = Variant::Brazilian, value_parser = crate::cli::variant_parser())]
    pub variant: Variant,
    /// A file of won positions, one FEN a line (blank lines and `#` comments skipped).
    #[arg(long)]
    pub fens: PathBuf,
    /// Seconds a move for both sides.
    #[arg(long, value_name = "SECONDS", default_value = "0.1", value_parser = damas_engine::time::move_time)]
    pub time: Duration,
    /// Plies after which a game counts as not won.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
}

/// Play every position of the file; exit status 1 unless every one is won by the
/// side the database names.
pub fn run(a: &PlayoutArgs) -> Result<ExitCode, EgdbError> {
    let dir = location::read_dir(a.variant, a.dir.as_deref(), &Env::from_process());
    let db = Arc::new(Egdb::open(a.variant, &dir)?);
    let oracle: Arc<dyn Oracle> = db.clone();
    let file = std::fs::File::open(&a.fens).map_err(|e| EgdbError::io(&a.fens, e))?;
    let limits = Limits::time(a.time);
    let (mut played, mut won, mut counted) = (0, 0, 0);
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| EgdbError::io(&a.fens, e))?;
        let fen = line.trim();
        if fen.is_empty() || fen.starts_with('#') {
            continue;
        }
        played += 1;
        let where_ = format!("{}:{}", a.fens.display(), n + 1);
        let Ok(pos) = parse_fen(fen) else {
            outln!("{where_}: {fen}: not a FEN");
            continue;
        };
        let winner = match db.probe_wdl(&pos) {
            Some(Wdl::Win) => pos.side_to_move(),
            Some(Wdl::Loss) => pos.side_to_move().opponent(),
            Some(Wdl::Draw) => {
                outln!("{where_}: {fen}: not a database win (a draw)");
                continue;
            }
            None => {
                outln!(
                    "{where_}: {fen}: not a database win (the database has no {} pieces)",
                    pos.piece_count()
                );
                continue;
            }
        };
        let p = play_out(&oracle, pos, &limits, 16, a.max_plies);
        let name = |c: Color| if c == Color::White { "White" } else { "Black" };
        let how = match p.result {
            Some(r) => match r.winner {
                Some(c) => format!("{} wins ({})", name(c), r.reason.describe()),
                None => format!("draw ({})", r.reason.describe()),
            },
            None => format!("no result after {} plies", a.max_plies),
        };
        won += usize::from(p.won_by(winner));
        counted += usize::from(p.drawn_by_count());
        outln!(
            "{fen}: {} to win; {how} after {} plies",
            name(winner),
            p.plies
        );
    }
    outln!("won {won} of {played}; drawn by a counting rule {counted}");
    Ok(if won == played {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
