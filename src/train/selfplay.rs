//! Self-play games for training: the engine against itself at a fixed node budget
//! per move, from the FMJD ballots followed by a few random plies, so that games
//! vary. Every quiet position (no capture for the side to move) is recorded with the
//! search's score; the game's result labels them all.
//!
//! Game `i` depends only on the seed, `i` and the settings, so a run is
//! reproducible, and an interrupted run resumes at the first game not in its file.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use damas_egdb::progress::Bar;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::data::{DataError, GameRecord, Outcome, Sample, Writer, PROVEN};
use damas_engine::eval::Evaluation;
use damas_engine::search::{Limits, SearchOptions, Searcher};
use damas_rules::fen::parse_fen;
use damas_rules::game::Game;
use damas_rules::movegen::{has_capture, legal_moves_for};
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
    /// Seed of the random plies.
    pub seed: u64,
    /// Games reaching this many plies are drawn.
    pub max_plies: u32,
    /// The evaluation both sides play with.
    pub evaluation: Evaluation,
    /// Transposition table of 2^bits entries per game.
    pub tt_bits: u32,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            variant: Variant::Brazilian,
            games: 1000,
            nodes: 20_000,
            random_plies: 6,
            seed: 1,
            max_plies: 300,
            evaluation: Evaluation::default(),
            tt_bits: 18,
            progress: false,
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

/// Play game `index` of a run.
pub fn play_game(cfg: &SelfPlayConfig, openings: &[Position], index: u32) -> GameRecord {
    let mut rng =
        ChaCha8Rng::seed_from_u64(cfg.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let start = openings[index as usize % openings.len()];
    let mut game = Game::new_for(cfg.variant, start);
    let random = rng.gen_range(0..=cfg.random_plies);
    for _ in 0..random {
        let moves = legal_moves_for(cfg.variant, &game.position());
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.gen_range(0..moves.len())]);
    }
    let mut searcher = Searcher::new(
        SearchOptions::default()
            .with_variant(cfg.variant)
            .with_eval(cfg.evaluation.clone())
            .with_thesis_table(cfg.tt_bits)
            .with_clear_tt(false),
    );
    let stop = AtomicBool::new(false);
    let limits = Limits::nodes(cfg.nodes);
    let mut samples = Vec::new();
    let outcome = loop {
        if let Some(r) = game.result() {
            break match r.winner {
                Some(Color::White) => Outcome::WhiteWin,
                Some(Color::Black) => Outcome::BlackWin,
                None => Outcome::Draw,
            };
        }
        if game.moves().len() >= cfg.max_plies as usize {
            break Outcome::Draw;
        }
        let pos = game.position();
        let r = searcher.search(&pos, game.history(), &limits, &stop, &mut |_| {});
        let Some(best) = r.best else {
            break match pos.side_to_move() {
                Color::White => Outcome::BlackWin,
                Color::Black => Outcome::WhiteWin,
            };
        };
        if !has_capture(&pos) {
            samples.push(Sample {
                pos,
                ply: game.moves().len().min(255) as u8,
                score: white_score(&pos, r.score),
            });
        }
        game.play(best);
    };
    GameRecord {
        index,
        outcome,
        samples,
    }
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
        let games: Vec<GameRecord> = (next..end)
            .into_par_iter()
            .map(|i| play_game(cfg, &openings, i))
            .collect();
        writer.append(&games)?;
        for g in &games {
            summary.add(g);
            summary.played += 1;
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
            assert!(!damas_rules::movegen::legal_moves(p).is_empty());
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
        let a = play_game(&cfg, &openings, 1);
        assert_eq!(a, play_game(&cfg, &openings, 1));
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
