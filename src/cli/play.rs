//! `damas play` (also `damas` alone): the terminal game.

use std::path::PathBuf;
use std::sync::Arc;

use crate::cli::limits::LimitArgs;
use crate::cli::{position_arg, CliError};
use crate::ui::{self, Player, Players};
use damas_engine::engine::Sources;
use damas_engine::eval::{EvalName, Evaluation};
use damas_engine::level::Strength;
use damas_engine::time::TimeControl;
use damas_rules::variant::Variant;

/// Arguments of `damas play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Who plays White.
    #[arg(long, value_enum, default_value_t = Player::Human)]
    pub white: Player,
    /// Who plays Black.
    #[arg(long, value_enum, default_value_t = Player::Engine)]
    pub black: Player,
    /// How long the engine thinks: 1 s a move by default, or on a game clock.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Engine playing strength: 1 to 10 or a name (beginner, novice, casual, club,
    /// intermediate, advanced, strong, expert, master, full); `+`/`-` change it.
    /// `--level` is the same flag.
    #[arg(long, alias = "level", default_value_t = Strength::FULL)]
    pub strength: Strength,
    /// The rules: `brazilian` (the default) or `russian`. A game loaded from a PDN
    /// file is played by the rules its `GameType` names.
    #[arg(long, value_parser = crate::cli::variant_parser())]
    pub variant: Option<Variant>,
    /// Start position (algebraic or numeric FEN).
    #[arg(long, conflicts_with = "ballot")]
    pub fen: Option<String>,
    /// Start from an FMJD three-move ballot: its number 1 to 150 or `random`.
    #[arg(long, value_name = "N|random")]
    pub ballot: Option<crate::ui::ballot::BallotChoice>,
    /// Directory of the endgame databases.
    #[arg(long)]
    pub egdb: Option<PathBuf>,
    /// The engine's evaluation: `trained` (the default) or `material`.
    #[arg(long, default_value_t = EvalName::Trained)]
    pub eval: EvalName,
    /// Weight file for the trained evaluation (default: the embedded weights).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Variety: each game, positions get a fixed random bonus of up to this many
    /// hundredths of a man, so the engine varies its choice among nearly equal
    /// moves (0: always the same moves).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=50))]
    pub variety: u32,
    /// Size of the engine's transposition table in megabytes.
    #[arg(long, value_name = "MB", default_value_t = damas_engine::search::DEFAULT_HASH_MB, value_parser = damas_engine::tt::shared::parse_hash)]
    pub hash: usize,
    /// Engine search threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = damas_engine::search::parse_threads)]
    pub threads: usize,
    /// Let the engine search its opening moves too, instead of playing them from
    /// the opening book.
    #[arg(long)]
    pub no_book: bool,
    /// Open on the analysis board: nobody plays, you move both sides and the engine
    /// shows its best lines without end (`z` in the game).
    #[arg(long)]
    pub analyze: bool,
    /// Lines (best moves) the analysis board shows.
    #[arg(long, value_name = "N", default_value_t = crate::ui::controller::DEFAULT_ANALYSIS_LINES as u64, value_parser = clap::value_parser!(u64).range(1..=damas_engine::settings::MAX_LINES as u64))]
    pub lines: u64,
}

impl Args {
    /// The defaults: human White against the engine at about a second per move.
    pub fn default_game() -> Args {
        Args {
            white: Player::Human,
            black: Player::Engine,
            limits: LimitArgs::default(),
            strength: Strength::FULL,
            variant: None,
            fen: None,
            ballot: None,
            egdb: None,
            eval: EvalName::Trained,
            weights: None,
            variety: 3,
            hash: damas_engine::search::DEFAULT_HASH_MB,
            threads: 1,
            no_book: false,
            analyze: false,
            lines: crate::ui::controller::DEFAULT_ANALYSIS_LINES as u64,
        }
    }
}

/// Open the game.
pub fn run(args: &Args) -> Result<(), CliError> {
    let start = position_arg(args.fen.as_deref())?;
    // A game clock is the game's, and the engine's time per move without one is the
    // game's default.
    let (level, clock) = match args.limits.time_control() {
        Some(TimeControl::Clock { moves: Some(_), .. }) => {
            return Err(CliError::input(
                "--clock: a clock for the whole game, without moves to go",
            ))
        }
        Some(clock @ TimeControl::Clock { .. }) => (ui::default_level(), Some(clock)),
        Some(control) => (control, None),
        None => (ui::default_level(), None),
    };
    // The databases of --egdb, else those at the standard place (egdb::location)
    // when they were built, else the built-in ones of 1-4 pieces.
    let (oracle, warnings) =
        crate::cli::open_databases_noting(args.variant.unwrap_or_default(), args.egdb.as_deref())?;
    let oracle_found = oracle.is_some();
    // Without them, the smallest endings are still known exactly.
    let oracle =
        damas_engine::engine::with_built_in(oracle, args.variant.unwrap_or_default(), true);
    // --weights replaces the embedded weights of whichever rules are played.
    let custom = Sources::weights(args.weights.as_deref()).map_err(CliError::input)?;
    // The engine's settings through its table, under the same keys as Hub
    // `set-param` and match specs.
    let mut settings = crate::cli::engine_settings(&[
        ("hash", Some(args.hash.to_string())),
        ("threads", Some(args.threads.to_string())),
        ("eval", Some(args.eval.to_string())),
        ("strength", Some(args.strength.number().to_string())),
        ("variant", args.variant.map(|v| v.to_string())),
    ])?;
    settings.book = !args.no_book;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let (variant, variety, base) = (settings.variant, args.variety, settings.clone());
    let engine_oracle = oracle.clone();
    // The engine plays with the same databases it shows the verdict from.
    let search = move |v: Variant| {
        let mut s = base.clone();
        s.variant = v;
        let mut evaluation = custom.clone().unwrap_or_else(|| s.eval.evaluation(v));
        if let (Evaluation::Trained(t), true) = (&evaluation, variety > 0) {
            evaluation = Evaluation::Trained(Arc::new(t.with_noise(seed, variety)));
        }
        let sources = Sources {
            databases: damas_engine::engine::Databases::found_or_built_in(
                engine_oracle.clone(),
                v,
                true,
            ),
            evaluation: Some(evaluation),
            ..Sources::default()
        };
        damas_engine::engine::search_options(&s, &sources)
    };
    // A table too large for the machine is an error now, not an abort in the
    // engine's thread under the game screen.
    let searcher =
        damas_engine::search::Searcher::try_new(search(variant)).map_err(CliError::input)?;
    let config = ui::Config {
        start,
        players: Players {
            white: args.white,
            black: args.black,
        },
        level,
        strength: settings.strength,
        clock,
        variant,
        search: Box::new(search),
        searcher,
        oracle,
        // Shown in the game's message line (a line on stderr would be hidden by the
        // game screen and seen only after quitting).
        greeting: greeting(&warnings, no_database_hint(oracle_found, variant)),
        // https://no-color.org: a set, non-empty NO_COLOR turns colours off.
        colour: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        book: settings.book,
        analyze: args.analyze.then_some(args.lines as usize),
        ballot: args.ballot.map(|b| b.pick(&mut rand::thread_rng())),
    };
    match ui::run(config) {
        Ok(ui::Exit::Quit) => Ok(()),
        // Ctrl-C: the conventional status of a program ended by SIGINT.
        Ok(ui::Exit::Interrupted) => Err(CliError {
            message: "interrupted".to_string(),
            status: 130,
        }),
        Err(e) => Err(CliError {
            message: format!("the game needs an interactive terminal: {e}"),
            status: 1,
        }),
    }
}

/// The game's first message: the databases' warnings (damaged files left out), then
/// `hint`.
fn greeting(warnings: &[String], hint: Option<String>) -> Option<String> {
    let all: Vec<String> = warnings.iter().cloned().chain(hint).collect();
    (!all.is_empty()).then(|| all.join(" "))
}

/// The game's first message when it has no endgame databases of `variant`: how to
/// build them.
fn no_database_hint(found: bool, variant: Variant) -> Option<String> {
    (!found).then(|| {
        format!(
            "No endgame databases found: {} builds them in about 1-2 minutes.",
            damas_egdb::location::build_hint(variant, None)
        )
    })
}

#[cfg(test)]
mod tests {
    use damas_rules::variant::Variant;

    #[test]
    fn the_game_says_how_to_build_missing_databases() {
        let hint = super::no_database_hint(false, Variant::Brazilian).unwrap();
        assert!(
            hint.contains(&format!("`{}`", damas_egdb::location::BUILD_HINT)),
            "{hint}"
        );
        assert_eq!(super::no_database_hint(true, Variant::Brazilian), None);
        let damaged = vec!["w20b10.wdl: damaged (checksum)".to_string()];
        assert_eq!(
            super::greeting(&damaged, None).as_deref(),
            Some("w20b10.wdl: damaged (checksum)")
        );
        assert_eq!(super::greeting(&[], None), None);
        let hint = super::no_database_hint(false, Variant::Russian).unwrap();
        assert!(
            hint.contains(&format!(
                "`{} --variant russian`",
                damas_egdb::location::BUILD_HINT
            )),
            "{hint}"
        );
    }
}
