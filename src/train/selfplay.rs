//! Self-play games for training: the engine against itself at a fixed node budget
//! per move, from the FMJD ballots followed by a few random plies, so that games
//! vary. Every quiet position (no capture for the side to move) is recorded with the
//! search's score; the game's result labels them all.
//!
//! With endgame databases, a game that reaches a position they hold ends there with
//! their result: the label of every position before it is then the exact value, not
//! what the engine made of the ending under the counting rules.
//!
//! Game `i` depends only on the seed, `i` and the settings, so a run is
//! reproducible, and an interrupted run resumes at the first game not in its file.

use std::path::Path;
use std::sync::Arc;

use damas_egdb::progress::Bar;
use damas_egdb::{Egdb, Wdl};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::data::{DataError, GameRecord, Outcome, Sample, Writer, PROVEN};
use damas_egdb::oracle::Oracle as _;
use damas_engine::engine::{Engine, Sources, TableUse};
use damas_engine::eval::Evaluation;
use damas_engine::search::TableKind;
use damas_engine::settings::EngineSettings;
use damas_engine::think::{no_draws, think, Think};
use damas_engine::time::{Clock, MoveBudget, TimeControl};
use damas_rules::fen::parse_fen;
use damas_rules::game::Game;
use damas_rules::movegen::{has_capture, legal_moves};
use damas_rules::position::{Color, Position};
use damas_rules::variant::Variant;

/// The 150 FMJD ballots shipped in `data/openings/fmjd-150.fen`.
const BALLOTS: &str = include_str!("../../data/openings/fmjd-150.fen");

/// The positions of the embedded FMJD ballots.
pub fn ballots() -> Vec<Position> {
    BALLOTS
        .lines()
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| parse_fen(l).expect("the embedded ballots are checked by the test suite"))
        .collect()
}

/// Settings of a self-play run.
#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// The rules the games are played under.
    pub variant: Variant,
    /// Games to have in the file when done.
    pub games: u32,
    /// Search nodes per move.
    pub nodes: u64,
    /// After the ballot, 0 to this many random plies.
    pub random_plies: u32,
    /// Each move's node budget drawn from `nodes` ± this percentage (at most 99).
    pub node_jitter: u32,
    /// Seed of the random plies and node budgets.
    pub seed: u64,
    /// Games reaching this many plies are drawn.
    pub max_plies: u32,
    /// The evaluation both sides play with.
    pub evaluation: Evaluation,
    /// Transposition table of 2^bits entries per game.
    pub tt_bits: u32,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// Endgame databases that end a game at the first position they hold, with
    /// their result (of `variant`'s rules); `None` plays every game out.
    pub egdb: Option<Arc<Egdb>>,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            variant: Variant::Brazilian,
            games: 1000,
            nodes: 20_000,
            random_plies: 6,
            node_jitter: 0,
            seed: 1,
            max_plies: 300,
            evaluation: Evaluation::trained(Variant::Brazilian),
            tt_bits: 18,
            progress: false,
            egdb: None,
        }
    }
}

/// White's score in hundredths, proven results as ±[`PROVEN`].
fn white_score(pos: &Position, s: damas_engine::score::Score) -> i16 {
    let v = if s.is_proven() {
        if s.value() > 0 {
            PROVEN as i32
        } else {
            -(PROVEN as i32)
        }
    } else {
        s.value().clamp(-(PROVEN as i32) + 1, PROVEN as i32 - 1)
    };
    (match pos.side_to_move() {
        Color::White => v,
        Color::Black => -v,
    }) as i16
}

/// How a self-play game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules: no move left, or a draw rule.
    Rules,
    /// At `max_plies`, drawn.
    Length,
    /// At a position the endgame databases hold, with their result.
    Databases,
}

/// The result of `pos` by the databases, for White, when they hold it.
fn adjudicate(db: &Egdb, pos: &Position) -> Option<Outcome> {
    if !db.covers(pos) {
        return None;
    }
    let winner = match db.probe_wdl(pos)? {
        Wdl::Draw => None,
        Wdl::Win => Some(pos.side_to_move()),
        Wdl::Loss => Some(pos.side_to_move().opponent()),
    };
    Some(Outcome::won_by(winner))
}

/// The node budget of one move: `nodes`, or with `node_jitter` a draw from
/// `nodes` ± that percentage, so that games from one opening go their own ways.
fn move_nodes(cfg: &SelfPlayConfig, rng: &mut ChaCha8Rng) -> u64 {
    if cfg.node_jitter == 0 {
        return cfg.nodes;
    }
    let j = cfg.node_jitter.min(99) as u64;
    let pct = rng.gen_range(100 - j..=100 + j);
    let nodes = cfg.nodes as u128 * pct as u128 / 100;
    (nodes.min(u64::MAX as u128) as u64).max(1)
}

/// Play game `index` of a run: its record, and how it ended.
pub fn play_game(cfg: &SelfPlayConfig, openings: &[Position], index: u32) -> (GameRecord, Ending) {
    let mut rng =
        ChaCha8Rng::seed_from_u64(cfg.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let start = openings[index as usize % openings.len()];
    let mut game = Game::new(cfg.variant, start);
    let random = rng.gen_range(0..=cfg.random_plies);
    for _ in 0..random {
        let moves = legal_moves(cfg.variant, &game.position());
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.gen_range(0..moves.len())]);
    }
    // The thesis' table, kept across the game's moves.
    let settings = EngineSettings {
        variant: cfg.variant,
        table: TableKind::Thesis,
        tt_bits: cfg.tt_bits,
        ..EngineSettings::default()
    };
    let sources = Sources {
        evaluation: Some(cfg.evaluation.clone()),
        table: TableUse {
            keep: true,
            ..TableUse::default()
        },
        ..Sources::default()
    };
    let mut searcher = Engine::new(&settings, &sources).searcher;
    let mut samples = Vec::new();
    let (outcome, ending) = loop {
        if let Some(r) = game.result() {
            break (Outcome::won_by(r.winner), Ending::Rules);
        }
        if game.moves().len() >= cfg.max_plies as usize {
            break (Outcome::Draw, Ending::Length);
        }
        let pos = game.position();
        // Quiet positions are stored, with White's score.
        let ply = game.moves().len().min(255) as u8;
        let mut record = |score| {
            if !has_capture(&pos) {
                samples.push(Sample { pos, ply, score });
            }
        };
        if let Some(outcome) = cfg.egdb.as_deref().and_then(|db| adjudicate(db, &pos)) {
            // The position itself is a sample with its exact value.
            record(outcome.proven_score());
            break (outcome, Ending::Databases);
        }
        let budget = MoveBudget::exact(&TimeControl::Nodes(move_nodes(cfg, &mut rng)));
        let job = Think::search(&pos, game.history());
        let r = think(
            &mut searcher,
            &job,
            &mut no_draws(),
            &Clock::new(budget),
            &mut |_| {},
        )
        .result;
        let Some(best) = r.best else {
            let winner = pos.side_to_move().opponent();
            break (Outcome::won_by(Some(winner)), Ending::Rules);
        };
        record(white_score(&pos, r.score));
        game.play(best);
    };
    let record = GameRecord {
        index,
        outcome,
        samples,
    };
    (record, ending)
}

/// What a run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games in the file.
    pub games: u32,
    /// Of which played by this run (the others were there already).
    pub played: u32,
    /// Positions in the file.
    pub samples: u64,
    /// White wins, draws, Black wins.
    pub results: [u32; 3],
    /// Of the games played by this run, those ended by the endgame databases.
    pub adjudicated: u32,
}

impl Summary {
    fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        self.samples += g.samples.len() as u64;
        self.results[match g.outcome {
            Outcome::WhiteWin => 0,
            Outcome::Draw => 1,
            Outcome::BlackWin => 2,
        }] += 1;
    }
}

/// Play games into `path` until it holds `cfg.games` games, resuming after the
/// games already there. Games are played in parallel on rayon's pool, in batches
/// appended to the file in index order.
pub fn run(cfg: &SelfPlayConfig, path: &Path) -> Result<Summary, DataError> {
    let openings = ballots();
    let (mut writer, old) = Writer::open(path, cfg.variant)?;
    let mut summary = Summary::default();
    for g in &old {
        summary.add(g);
    }
    let mut next = old.last().map_or(0, |g| g.index + 1);
    let bar = Bar::new(
        cfg.progress,
        Some(cfg.games as u64),
        "{elapsed_precise} [{bar:30}] {pos}/{len} games, ETA {eta} {msg}",
    );
    bar.set_position(summary.games as u64);
    let batch = (rayon::current_num_threads() * 4) as u32;
    while next < cfg.games {
        let end = (next + batch).min(cfg.games);
        let (games, endings): (Vec<GameRecord>, Vec<Ending>) = (next..end)
            .into_par_iter()
            .map(|i| play_game(cfg, &openings, i))
            .unzip();
        writer.append(&games)?;
        for (g, e) in games.iter().zip(&endings) {
            summary.add(g);
            summary.played += 1;
            summary.adjudicated += u32::from(*e == Ending::Databases);
        }
        bar.set_position(summary.games as u64);
        bar.set_message(format!(
            "{} positions, +{} ={} -{}",
            summary.samples, summary.results[0], summary.results[1], summary.results[2]
        ));
        next = end;
    }
    bar.finish_and_clear();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ballots_are_150_legal_positions() {
        let b = ballots();
        assert_eq!(b.len(), 150);
        for p in &b {
            assert!(!damas_rules::movegen::legal_moves(Variant::Brazilian, p).is_empty());
            assert_eq!(p.white().count(), 12, "{p:?}");
        }
    }

    #[test]
    fn games_are_reproducible_and_resume() {
        let cfg = SelfPlayConfig {
            games: 3,
            nodes: 300,
            max_plies: 40,
            evaluation: Evaluation::Material,
            tt_bits: 12,
            ..SelfPlayConfig::default()
        };
        let openings = ballots();
        let (a, _) = play_game(&cfg, &openings, 1);
        assert_eq!(a, play_game(&cfg, &openings, 1).0);
        assert!(!a.samples.is_empty());
        assert!(a.samples.iter().all(|s| !has_capture(&s.pos)));

        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sp.bin");
        let s = run(
            &SelfPlayConfig {
                games: 2,
                ..cfg.clone()
            },
            &p,
        )
        .unwrap();
        assert_eq!((s.games, s.played), (2, 2));
        let s = run(&cfg, &p).unwrap();
        assert_eq!((s.games, s.played), (3, 1));
        let games = super::super::data::read_games(&p).unwrap().games;
        assert_eq!(
            games.iter().map(|g| g.index).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        assert_eq!(games[1], a);
    }

    #[test]
    fn node_jitter_sends_games_from_one_ballot_their_own_ways() {
        let cfg = SelfPlayConfig {
            nodes: 2_000,
            random_plies: 0,
            max_plies: 40,
            tt_bits: 14,
            ..SelfPlayConfig::default()
        };
        let openings = ballots();
        let n = openings.len() as u32;
        // Without jitter, games 3 and 3 + 150 start from the same ballot and agree.
        let (a, b) = (
            play_game(&cfg, &openings, 3).0,
            play_game(&cfg, &openings, 3 + n).0,
        );
        assert_eq!(a.samples, b.samples);
        let jitter = SelfPlayConfig {
            node_jitter: 50,
            ..cfg
        };
        let (c, d) = (
            play_game(&jitter, &openings, 3).0,
            play_game(&jitter, &openings, 3 + n).0,
        );
        assert_ne!(c.samples, d.samples);
        assert_eq!(c, play_game(&jitter, &openings, 3).0);
        let budgets: Vec<u64> = {
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            (0..200).map(|_| move_nodes(&jitter, &mut rng)).collect()
        };
        assert!(budgets.iter().all(|&b| (1_000..=3_000).contains(&b)));
        assert!(budgets.iter().any(|&b| b < 1_500) && budgets.iter().any(|&b| b > 2_500));
        // A budget near the top of the range stays there instead of wrapping.
        let huge = SelfPlayConfig {
            nodes: u64::MAX,
            ..jitter
        };
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        assert!((0..50).all(|_| move_nodes(&huge, &mut rng) >= u64::MAX / 100 * 49));
    }

    #[test]
    fn the_databases_end_a_game_with_their_result() {
        let dir = tempfile::tempdir().unwrap();
        damas_egdb::slices::build::build_slices(
            Variant::Brazilian,
            dir.path(),
            4,
            &damas_egdb::BuildOptions::default(),
            |_| {},
        )
        .unwrap();
        let db = Arc::new(Egdb::open(Variant::Brazilian, dir.path()).unwrap());
        let cfg = SelfPlayConfig {
            nodes: 2_000,
            random_plies: 0,
            evaluation: Evaluation::Material,
            tt_bits: 12,
            ..SelfPlayConfig::default()
        };
        let with_db = SelfPlayConfig {
            egdb: Some(db.clone()),
            ..cfg.clone()
        };
        // Three kings against one off the long diagonal: won for White. The game
        // ends at once, its one sample carrying the proven value.
        let won = parse_fen("W:WKg5,Ka3,Kh8:BKf2").unwrap();
        assert_eq!(db.probe_wdl(&won), Some(Wdl::Win));
        let (g, ending) = play_game(&with_db, &[won], 0);
        assert_eq!(ending, Ending::Databases);
        assert_eq!(g.outcome, Outcome::WhiteWin);
        assert_eq!(g.samples.len(), 1);
        assert_eq!((g.samples[0].pos, g.samples[0].score), (won, PROVEN));
        // Played out instead, the same game runs on (the material count alone finds
        // no win in time, so the counting rule or the length ends it).
        let (g, ending) = play_game(&cfg, &[won], 0);
        assert_ne!(ending, Ending::Databases);
        assert!(g.samples.len() > 1);
        // Black to move and lost, and a drawn ending: the result for White follows.
        let lost = parse_fen("B:WKg5,Ka3,Kh8:BKf2").unwrap();
        let expected = match db.probe_wdl(&lost).unwrap() {
            Wdl::Win => Outcome::BlackWin,
            Wdl::Loss => Outcome::WhiteWin,
            Wdl::Draw => Outcome::Draw,
        };
        assert_eq!(play_game(&with_db, &[lost], 0).0.outcome, expected);
        let drawn = parse_fen("W:WKa1:BKh2").unwrap();
        assert_eq!(db.probe_wdl(&drawn), Some(Wdl::Draw));
        let (g, ending) = play_game(&with_db, &[drawn], 0);
        assert_eq!((g.outcome, ending), (Outcome::Draw, Ending::Databases));
        assert_eq!(g.samples[0].score, 0);
        // Above the databases' piece count the game is played until it enters them:
        // White's forced capture c3xe5 leaves four pieces, the first sample.
        let start = parse_fen("W:WKa1,Kh8,c3:BKa7,d4").unwrap();
        assert!(start.piece_count() as usize > db.max_pieces());
        let (g, ending) = play_game(&with_db, &[start], 0);
        assert_eq!(ending, Ending::Databases);
        assert_eq!(g.samples.len(), 1);
        let entered = g.samples[0].pos;
        assert_eq!(entered, parse_fen("B:WKa1,Kh8,e5:BKa7").unwrap());
        let expected = match db.probe_wdl(&entered).unwrap() {
            Wdl::Win => Outcome::BlackWin,
            Wdl::Loss => Outcome::WhiteWin,
            Wdl::Draw => Outcome::Draw,
        };
        assert_eq!(g.outcome, expected);
    }

    #[test]
    fn russian_games_are_recorded_as_russian() {
        let cfg = SelfPlayConfig {
            variant: Variant::Russian,
            games: 2,
            nodes: 300,
            max_plies: 40,
            evaluation: Evaluation::Material,
            tt_bits: 12,
            ..SelfPlayConfig::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ru.bin");
        let s = run(&cfg, &p).unwrap();
        assert_eq!(s.games, 2);
        let f = super::super::data::read_games(&p).unwrap();
        assert_eq!(f.variant, Variant::Russian);
        assert!(f.games.iter().all(|g| !g.samples.is_empty()));
        // A Brazilian run does not continue a Russian file.
        let brazilian = SelfPlayConfig {
            variant: Variant::Brazilian,
            games: 3,
            ..cfg
        };
        assert!(matches!(
            run(&brazilian, &p),
            Err(DataError::Variant { .. })
        ));
    }
}
