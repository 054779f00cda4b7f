//! `damas analyze`: search a position and print one line per completed iteration,
//! then the best move.

use crate::cli::analysis_lines::AnalysisLines;
use crate::cli::limits::LimitArgs;
use crate::cli::{position_arg, CliError};
use damas_engine::engine::{Databases, Sources};
use damas_engine::eval::EvalName;
use damas_engine::search::parse_threads;
use damas_engine::search::{Info, Searcher, DEFAULT_HASH_MB, ENGINE_ASPIRATION_DELTA};
use damas_engine::think::{no_draws, think, Think};
use damas_engine::time::{Clock, MoveBudget};
use damas_engine::tt::shared::parse_hash;
use damas_engine::verdict::consulted;
use damas_rules::game::Game;
use damas_rules::moves::Move;
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::position::Position;
use damas_rules::variant::Variant;

/// Arguments of `damas analyze`.
#[derive(clap::Args, Debug)]
#[command(mut_group("limits", |g| g.required(true)))]
pub struct Args {
    /// Position (algebraic or numeric FEN); the start position by default.
    #[arg(long, conflicts_with = "pdn")]
    pub fen: Option<String>,
    /// Analyse the position at the end of the first game of this PDN file (its
    /// `GameType` picks the variant; its moves count for the draw rules).
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<std::path::PathBuf>,
    /// Rules: brazilian (the default) or russian; overrides a PDN's `GameType`.
    /// Russian searches use no book, and the Russian endgame databases.
    #[arg(long, value_parser = crate::cli::variant_parser())]
    pub variant: Option<Variant>,
    /// How long to search (one of them is needed).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Techniques, comma- or plus-separated: the thesis' ab, pvs, id, asp, tt, qs,
    /// killers, history, etc, mtdf, egdb, sel<1-99>, and lmr, rules, ext, probcut,
    /// probcut-tt, rfp, threat, singular, futility, iir (default: the default engine's,
    /// pvs+id+asp+tt+qs+killers+history+etc+lmr+rules+probcut+rfp+singular+futility+iir,
    /// which `default` also names: `default+threat`).
    #[arg(long)]
    pub techniques: Option<String>,
    /// Use the thesis' never-replacing transposition table of 2^P entries, cleared
    /// before the search, instead of the replacing one of `--hash` megabytes.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(10..=30))]
    pub tt_bits: Option<u32>,
    /// Size of the (replacing, shared) transposition table in megabytes.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB, value_parser = parse_hash)]
    pub hash: usize,
    /// Search threads (lazy SMP over the shared table; 1 is deterministic).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,
    /// Aspiration window half-width, hundredths of a man (`--delta` is an older
    /// spelling).
    #[arg(long, alias = "delta", value_name = "HUNDREDTHS", default_value_t = ENGINE_ASPIRATION_DELTA)]
    pub aspiration: i32,
    /// Whether frontier nodes probe and store in the replacing table (`true` by default).
    #[arg(long, value_name = "BOOL", value_parser = crate::cli::parse_bool)]
    pub tt_frontier: Option<bool>,
    /// Endgame database directory: its positions are scored at once (and the
    /// technique `egdb` is switched on). Without it, the databases at the standard
    /// place (`DAMAS_EGDB`, `~/.local/share/damas/egdb`, `data/egdb`; Russian ones in
    /// its `russian/` subfolder) are used when built, unless `--techniques` is given
    /// without `egdb`. A directory of the other rules is an error.
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<std::path::PathBuf>,
    /// Static evaluation: `trained` (the default) or `material` (the thesis' count).
    #[arg(long, default_value_t = EvalName::Trained)]
    pub eval: EvalName,
    /// Weight file for the trained evaluation (default: the embedded weights).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
    /// Also print a last `stats` line: node kinds, quiescence nodes, TT accesses and
    /// key comparisons per access (all threads together), and each thread's nodes
    /// (quiescence included).
    #[arg(long)]
    pub stats: bool,
    /// Find the best N moves, each with its score and line (multi-PV, one thread);
    /// each iteration prints one `line` row per move after its `info` row.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=damas_engine::settings::MAX_LINES as i64))]
    pub lines: u32,
}

/// `c3-d4 f6-e5 …`: each move of `variant` written against the position it is
/// played in.
pub fn line_to_string(variant: Variant, pos: &Position, line: &[Move]) -> String {
    let mut p = *pos;
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        out.push(move_to_string(variant, &p, m, Notation::Algebraic));
        p = p.play(m);
    }
    out.join(" ")
}

/// The game to analyse the last position of: `--pdn`'s first game, or `--fen`
/// (the start position by default), under `--variant` when given.
fn game_arg(args: &Args) -> Result<Game, CliError> {
    let Some(path) = &args.pdn else {
        let pos = position_arg(args.fen.as_deref())?;
        return Ok(Game::new(args.variant.unwrap_or_default(), pos));
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let mut games = damas_rules::pdn::read_games(&text)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    if games.is_empty() {
        return Err(CliError::input(format!("{}: no game", path.display())));
    }
    let mut first = games.swap_remove(0);
    if let Some(v) = args.variant {
        first.set_tag("GameType", damas_rules::pdn::game_type_tag(v));
    }
    first
        .to_game()
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

/// Run the search and print its progress.
pub fn run(args: &Args) -> Result<(), CliError> {
    let game = game_arg(args)?;
    let (variant, pos, history) = (game.variant(), game.position(), game.history());
    // A finished game has no move to search: say how it ended.
    if let Some(result) = game.result() {
        outln!("game over: {result}");
        outln!("bestmove none result {}", result.pdn());
        return Ok(());
    }
    let control = args
        .limits
        .time_control()
        .ok_or_else(|| CliError::input("give one of --depth, --time, --nodes or --clock"))?;
    // Analysis spends all of a fixed time, with no margin.
    let budget = MoveBudget::exact(&control);
    // A database named or found switches `egdb` on, unless `--techniques` chose
    // without it (a found one is then only kept at hand).
    // Without a directory, the 1-4-piece databases built into the program.
    let opened = damas_engine::engine::with_built_in(
        crate::cli::open_databases(variant, args.egdb.as_deref())?,
        variant,
        true,
    );
    let databases = match opened {
        Some(db) if args.egdb.is_some() || args.techniques.is_none() => Databases::Search(db),
        Some(db) => Databases::AtHand(db),
        None => Databases::None,
    };
    // The engine's settings through its table, under the same keys as Hub
    // `set-param` and match specs; a thesis table size (after `hash`) selects the
    // thesis' table, without it the replacing one.
    let settings = crate::cli::engine_settings(&[
        ("variant", Some(variant.to_string())),
        ("techniques", args.techniques.clone()),
        ("hash", Some(args.hash.to_string())),
        ("threads", Some(args.threads.to_string())),
        ("aspiration", Some(args.aspiration.to_string())),
        ("tt-frontier", args.tt_frontier.map(|f| f.to_string())),
        ("eval", Some(args.eval.to_string())),
        ("tt-bits", args.tt_bits.map(|b| b.to_string())),
        ("lines", Some(args.lines.to_string())),
        // Analysis reports the databases' verdicts, exact wins and distances.
        ("egdb-wins", Some("verdict".to_string())),
    ])?;
    let sources = Sources {
        databases,
        evaluation: Sources::weights(args.weights.as_deref()).map_err(CliError::input)?,
        ..Sources::default()
    };
    let options = damas_engine::engine::search_options(&settings, &sources);
    let mut searcher = Searcher::try_new(options).map_err(CliError::input)?;
    let mut rows = AnalysisLines::new(variant, pos, consulted(searcher.options()));
    let mut print = |i: &Info| {
        for row in rows.info(i) {
            outln!("{row}");
        }
    };
    let job = Think::search(&pos, history);
    let r = think(
        &mut searcher,
        &job,
        &mut no_draws(),
        &Clock::new(budget),
        &mut print,
    )
    .result;
    for row in rows.finish(&r) {
        outln!("{row}");
    }
    if r.conversion_unproven {
        outln!("note: {}", damas_engine::search::CONVERSION_UNPROVEN);
    }
    if args.stats {
        let s = r.stats;
        let per_access = if s.tt_accesses > 0 {
            s.tt_compares as f64 / s.tt_accesses as f64
        } else {
            0.0
        };
        outln!(
            "stats nodes {} interior {} leaves {} tt_cutoffs {} terminal {} egdb_cutoffs {} qs_nodes {} tt_accesses {} tt_compares {} compares_per_access {per_access:.3} time {:.3} nps {} thread_nodes {} deferred {}",
            s.nodes,
            s.interior,
            s.leaves,
            s.tt_cutoffs,
            s.terminal,
            s.egdb_cutoffs,
            s.qs_nodes,
            s.tt_accesses,
            s.tt_compares,
            s.time.as_secs_f64(),
            s.nps(),
            searcher
                .thread_nodes()
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(","),
            s.deferred
        );
    }
    Ok(())
}
