//! `damas match`: play two engines against each other and estimate the Elo difference.

use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::CliError;
use crate::matches::{
    fmjd_ballots, load_openings, make_player, match_variant, random_opening_list, run_match,
    shuffled, EngineSpec, Flow, MatchConfig, Opening, PlayerPair, Report, Sprt, Tally,
};
use damas_rules::pdn::{read_games, write_games, PdnGame};
use damas_rules::variant::Variant;

/// Arguments of `damas match`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// First engine: `key=value,…` with name, depth, nodes, time (s/move), clock, weights
    /// (FILE), egdb (DIR), numbering, the engine settings hash, threads, tt-bits,
    /// techniques (pvs+tt…), eval (trained|material), egdb-wins (play|verdict),
    /// builtin-egdb (true|false), strength (or level: 1-10 or a name), book (true|false),
    /// move-overhead (ms), contempt (hundredths of a man), aspiration, tt-frontier, lines,
    /// tune (NAME:VALUE;…), and last `cmd=COMMAND ARGS` for a Hub engine.
    #[arg(long, default_value = "depth=6")]
    pub engine1: EngineSpec,
    /// Second engine, same form.
    #[arg(long, default_value = "depth=4")]
    pub engine2: EngineSpec,
    /// Number of games (each opening is played twice, colours swapped); the most
    /// games with --sprt.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Openings: a file of FEN lines (`FEN ; name`, `#` comments) or of PDN games
    /// whose moves are opening prefixes (told apart by content), `random` for random
    /// openings of --opening-plies moves, or `fmjd`: the 150 FMJD ballots (the
    /// default, unless --opening-plies is given).
    #[arg(long)]
    pub openings: Option<String>,
    /// Random plies from the start position (4 by default); implies `--openings
    /// random`.
    #[arg(long)]
    pub opening_plies: Option<usize>,
    /// Seed of the opening order (file and ballot openings are shuffled with it) and
    /// of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play file and ballot openings in file order instead of shuffling them.
    #[arg(long)]
    pub file_order: bool,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// Games played at once, each worker with its own pair of engines.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Sequential probability ratio test on the game pairs, `elo0,elo1[,alpha,beta]`
    /// in logistic Elo or `nelo:elo0,elo1[,alpha,beta]` in normalized Elo (alpha and
    /// beta 0.05 by default): stop as soon as H0 (Elo = elo0) or H1 (Elo = elo1) is
    /// accepted.
    #[arg(long, value_name = "[nelo:]ELO0,ELO1[,ALPHA,BETA]")]
    pub sprt: Option<Sprt>,
    /// Write every game to this PDN file (rewritten after each game).
    #[arg(long, alias = "pgn")]
    pub pdn: Option<PathBuf>,
    /// Continue the match recorded in the --pdn file (same engines, openings, seed
    /// and options): its games are counted and the match goes on from the next one.
    #[arg(long, requires = "pdn")]
    pub resume: bool,
    /// Do not show the progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Rules of the games (brazilian, russian) for both engines and the referee;
    /// the PDN's GameType says which. Without it, the engines' `variant=` (which
    /// must agree), else brazilian.
    #[arg(long, value_parser = crate::cli::variant_parser())]
    pub variant: Option<Variant>,
}

/// The openings in playing order and a description of them.
fn openings(args: &Args, variant: Variant) -> Result<(Vec<Opening>, String), CliError> {
    let which = match (args.openings.as_deref(), args.opening_plies) {
        (None, Some(_)) => "random",
        (Some(w), Some(_)) if w != "random" => {
            return Err(CliError::input(
                "--opening-plies goes with random openings only",
            ))
        }
        (w, _) => w.unwrap_or("fmjd"),
    };
    let (list, what) = match which {
        "random" => {
            let plies = args.opening_plies.unwrap_or(4);
            let list = random_opening_list(variant, args.games.div_ceil(2), plies, args.seed);
            let what = format!("random, {plies} plies, seed {}", args.seed);
            return Ok((list, what));
        }
        "fmjd" => (
            fmjd_ballots().map_err(|e| CliError::input(format!("embedded ballots: {e}")))?,
            "the FMJD ballots".to_string(),
        ),
        file => (
            load_openings(Path::new(file))
                .map_err(|e| CliError::input(format!("openings {file}: {e}")))?,
            file.to_string(),
        ),
    };
    let n = list.len();
    if args.file_order {
        Ok((list, format!("{n} from {what}, in file order")))
    } else {
        let what = format!("{n} from {what}, shuffled with seed {}", args.seed);
        Ok((shuffled(list, args.seed), what))
    }
}

/// Play the match, print one line per game and the report.
pub fn run(args: &Args) -> Result<(), CliError> {
    if args.games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    if !(1..=64).contains(&args.concurrency) {
        return Err(CliError::input("--concurrency must be 1 to 64"));
    }
    let (mut engine1, mut engine2) = (args.engine1.clone(), args.engine2.clone());
    let variant =
        match_variant(args.variant, [&mut engine1, &mut engine2]).map_err(CliError::input)?;
    if let Some(path) = &args.pdn {
        crate::cli::output::check_file(path).map_err(|e| CliError::input(format!("--pdn: {e}")))?;
    }
    let (openings, described) = openings(args, variant)?;
    let mut pairs: Vec<PlayerPair> = Vec::with_capacity(args.concurrency);
    for _ in 0..args.concurrency {
        let first = make_player(&engine1).map_err(|e| CliError::input(format!("engine1: {e}")))?;
        let second = make_player(&engine2).map_err(|e| CliError::input(format!("engine2: {e}")))?;
        pairs.push((first, second));
    }
    let (first_name, second_name) = (pairs[0].0.name(), pairs[0].1.name());
    let mut tally = Tally::default();
    let mut records: Vec<PdnGame> = Vec::new();
    if let (true, Some(path)) = (args.resume, &args.pdn) {
        if path.exists() {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            records = read_games(&text)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            tally = Tally::from_records(&records, &first_name)
                .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
            outln!(
                "resuming after {}: +{} ={} -{}",
                crate::plural::games(records.len()),
                tally.wins,
                tally.draws,
                tally.losses
            );
        }
    }
    outln!("openings: {described}");
    if variant != Variant::Brazilian {
        outln!("variant: {variant}");
    }
    let decided = |t: &Tally| args.sprt.is_some_and(|s| t.sprt(&s).decision.is_some());
    let config = MatchConfig {
        games: if decided(&tally) {
            records.len()
        } else {
            args.games.max(records.len())
        },
        openings,
        max_plies: args.max_plies,
        event: format!("damas match: {first_name} vs {second_name}"),
        first_game: records.len(),
        variant,
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(config.games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}<{eta}]")
            .expect("valid template"),
    );
    bar.set_position(config.first_game as u64);
    let mut write_error = None;
    run_match(pairs, &config, |o| {
        tally.add(o);
        records.push(o.pdn.clone());
        let (w, b) = (
            o.pdn.tag("White").unwrap_or("?"),
            o.pdn.tag("Black").unwrap_or("?"),
        );
        let score = format!("+{} ={} -{}", tally.wins, tally.draws, tally.losses);
        let state = args.sprt.map(|s| tally.sprt(&s));
        let status = match state {
            Some(s) => format!("{score}, {s}"),
            None => score,
        };
        let line = format!(
            "game {:>3}: {w} - {b} {} ({}, {} plies) {status}",
            o.index + 1,
            o.pdn.result.as_deref().unwrap_or("*"),
            o.termination,
            o.pdn.moves.len()
        );
        // Printed above the bar (also when the bar is hidden).
        bar.suspend(|| outln!("{line}"));
        bar.set_message(status);
        bar.inc(1);
        if let Some(path) = &args.pdn {
            if let Err(e) = crate::cli::output::write_file(path, write_games(&records).as_bytes()) {
                write_error.get_or_insert(e);
            }
        }
        match state.and_then(|s| s.decision) {
            Some(_) => Flow::Stop,
            None => Flow::Continue,
        }
    });
    bar.finish_and_clear();
    if decided(&tally) && tally.games() < args.games as u32 {
        outln!(
            "SPRT decided after {} of at most {} games",
            tally.games(),
            args.games
        );
    }
    let report = Report {
        first: first_name,
        second: second_name,
        tally,
        sprt: args.sprt,
    };
    out!("{report}");
    match (write_error, &args.pdn) {
        (Some(e), _) => Err(CliError::input(format!("--pdn: {e}"))),
        (None, Some(path)) => {
            outln!("games written to {}", path.display());
            Ok(())
        }
        (None, None) => Ok(()),
    }
}
