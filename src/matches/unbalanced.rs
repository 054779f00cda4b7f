//! Unbalanced opening sets: positions a few plies after the FMJD ballots where a
//! search gives one side a small, clear edge, so that a match between close engines
//! decides more games than from the balanced ballots. Each position is played from
//! both colours in a pair, so the edge itself cancels out of the score.
//!
//! A set is built ballot by ballot: the distinct positions `plies` moves after the
//! ballot, in an order drawn from a seed, are searched at a shallow depth; those
//! within the band (widened by [`FILTER_MARGIN`]) are searched again at the deep
//! depth and kept when that score is in the band and not a proven result, up to
//! `per_ballot` per ballot. The file is a FEN-lines openings file (read by
//! [`super::openings::parse_openings`]) with a header naming the settings and a
//! `# done:` line after each finished ballot, so that a build stopped midway
//! continues where it stopped.

use std::collections::HashSet;
use std::fmt;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use damas_engine::engine::{search_options, Databases, Sources};
use damas_engine::score::Score;
use damas_engine::search::Searcher;
use damas_engine::settings::EngineSettings;
use damas_engine::think::{no_draws, think, Think};
use damas_engine::time::{Clock, MoveBudget, TimeControl};
use damas_rules::fen::{parse_fen, to_fen};
use damas_rules::movegen::legal_moves;
use damas_rules::moves::Move;
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::position::{Color, Position};
use damas_rules::variant::Variant;

use super::openings::Opening;

/// Hundredths of a man by which the shallow search's band is wider than the deep
/// one's on each side: the two depths disagree by about that much.
pub const FILTER_MARGIN: i32 = 20;

/// The line that starts a ballot's end marker.
const DONE: &str = "# done: ";

/// How a set is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildConfig {
    /// The rules searched by.
    pub variant: Variant,
    /// Plies played after the ballot.
    pub plies: usize,
    /// Depth of the first, filtering search.
    pub filter_depth: u32,
    /// Depth of the confirming search, whose score is kept.
    pub depth: u32,
    /// The smallest edge kept, hundredths of a man for the side ahead.
    pub min: Score,
    /// The largest edge kept.
    pub max: Score,
    /// Most positions kept from one ballot.
    pub per_ballot: usize,
    /// Seed of the order in which a ballot's positions are tried.
    pub seed: u64,
}

impl BuildConfig {
    /// The header line of a set made with these settings.
    pub fn header(&self) -> String {
        format!(
            "# unbalanced openings, {}: FMJD ballot + {} plies, filter depth {}, depth {}, \
             edge {} to {} hundredths, at most {} a ballot, seed {}",
            self.variant.name(),
            self.plies,
            self.filter_depth,
            self.depth,
            self.min.0,
            self.max.0,
            self.per_ballot,
            self.seed
        )
    }

    /// Whether `score` (for the side to move) is an edge within `[min, max]` for
    /// either side, widened by `margin` on each end, and not a proven result.
    fn within(&self, score: Score, margin: i32) -> bool {
        let edge = score.0.abs();
        !score.is_proven() && edge >= self.min.0 - margin && edge <= self.max.0 + margin
    }

    /// Check the settings: depths from 1, the filter no deeper than the depth, a
    /// band within `0..=500` hundredths.
    pub fn validate(&self) -> Result<(), BuildError> {
        if self.filter_depth == 0 || self.filter_depth > self.depth || self.depth > 60 {
            return Err(BuildError::Settings(
                "the depths must satisfy 1 <= filter depth <= depth <= 60",
            ));
        }
        if self.min.0 < 0 || self.min.0 > self.max.0 || self.max.0 > 500 {
            return Err(BuildError::Settings(
                "the edge must satisfy 0 <= min <= max <= 500 hundredths",
            ));
        }
        if self.plies > 20 || self.per_ballot == 0 {
            return Err(BuildError::Settings(
                "plies must be at most 20 and per-ballot at least 1",
            ));
        }
        Ok(())
    }
}

/// Why a set cannot be built or continued.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BuildError {
    /// Settings out of range.
    #[error("{0}")]
    Settings(&'static str),
    /// The existing file was made with other settings (its header differs).
    #[error("the file was made with other settings: {found:?}, not {wanted:?}")]
    OtherSettings {
        /// The file's header.
        found: String,
        /// The header these settings write.
        wanted: String,
    },
    /// A line of the existing file that is not a comment nor a FEN line.
    #[error("line {line}: {what}")]
    BadLine {
        /// Line number, from 1.
        line: usize,
        /// What is wrong.
        what: String,
    },
}

/// One kept position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The ballot's name.
    pub ballot: String,
    /// The moves after the ballot, as written (algebraic).
    pub moves: Vec<String>,
    /// The position.
    pub position: Position,
    /// The deep search's score, for the side to move.
    pub score: Score,
    /// The depth of that search.
    pub depth: u32,
}

impl Kept {
    /// The side the score favours.
    pub fn ahead(&self) -> Color {
        let mover = self.position.side_to_move();
        if self.score.0 >= 0 {
            mover
        } else {
            mover.opponent()
        }
    }
}

impl fmt::Display for Kept {
    /// `FEN ; ballot, moves (White +0.43, depth 20)`: an openings-file line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.ahead() {
            Color::White => "White",
            Color::Black => "Black",
        };
        write!(
            f,
            "{} ; {}, {} ({side} +{:.2}, depth {})",
            to_fen(&self.position),
            self.ballot,
            self.moves.join(" "),
            f64::from(self.score.0.abs()) / 100.0,
            self.depth
        )
    }
}

/// What an existing file already holds: its positions and the ballots finished.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The file's lines, in order (header first).
    pub lines: Vec<String>,
    /// Every position of its FEN lines.
    pub positions: HashSet<Position>,
    /// Positions kept per ballot name (a ballot finished or not).
    pub kept_by_ballot: std::collections::HashMap<String, usize>,
    /// The ballots whose search is finished.
    pub done: HashSet<String>,
}

impl Progress {
    /// A new file's progress: its header only.
    pub fn new(config: &BuildConfig) -> Progress {
        Progress {
            lines: vec![config.header()],
            ..Progress::default()
        }
    }

    /// Read an existing file made with `config` (its first line must be the header
    /// `config` writes).
    pub fn read(text: &str, config: &BuildConfig) -> Result<Progress, BuildError> {
        let wanted = config.header();
        let found = text.lines().next().unwrap_or("").trim_end().to_string();
        if found != wanted {
            return Err(BuildError::OtherSettings { found, wanted });
        }
        let mut progress = Progress::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim_end();
            progress.lines.push(line.to_string());
            if let Some(ballot) = line.strip_prefix(DONE) {
                let name = ballot.split(" (").next().unwrap_or(ballot);
                progress.done.insert(name.to_string());
                continue;
            }
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |what: String| BuildError::BadLine { line: i + 1, what };
            let (fen, rest) = line
                .split_once(';')
                .ok_or_else(|| bad("no ';' after the FEN".to_string()))?;
            let pos = parse_fen(fen).map_err(|e| bad(e.to_string()))?;
            let ballot = rest
                .trim()
                .split(',')
                .next()
                .filter(|b| !b.is_empty())
                .ok_or_else(|| bad("no ballot name".to_string()))?;
            progress.positions.insert(pos);
            *progress
                .kept_by_ballot
                .entry(ballot.to_string())
                .or_default() += 1;
        }
        Ok(progress)
    }

    /// The file's text.
    pub fn text(&self) -> String {
        let mut text = self.lines.join("\n");
        text.push('\n');
        text
    }

    /// Positions kept so far.
    pub fn kept(&self) -> usize {
        self.positions.len()
    }
}

/// The distinct positions `plies` moves after `ballot` under `variant`'s rules
/// where the side to move has a move, each with its moves, in an order drawn from
/// `seed` (the same for the same arguments).
pub fn candidates(
    variant: Variant,
    ballot: &Opening,
    plies: usize,
    seed: u64,
) -> Vec<(Vec<Move>, Position)> {
    let mut lines: Vec<(Vec<Move>, Position)> = vec![(Vec::new(), ballot.position())];
    for _ in 0..plies {
        let mut next = Vec::new();
        let mut seen = HashSet::new();
        for (moves, pos) in &lines {
            for &m in legal_moves(variant, pos).iter() {
                let after = pos.play(m);
                if seen.insert(after) {
                    let mut line = moves.clone();
                    line.push(m);
                    next.push((line, after));
                }
            }
        }
        lines = next;
    }
    lines.retain(|(_, p)| !legal_moves(variant, p).is_empty());
    lines.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    lines
}

/// What one ballot gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BallotOutcome {
    /// Positions searched at the filter depth.
    pub filtered: usize,
    /// Positions searched again at the full depth.
    pub confirmed: usize,
    /// Positions kept.
    pub kept: Vec<Kept>,
}

/// Search `ballot`'s candidates with `score` (the side to move's score of a
/// position searched to a depth) until `config.per_ballot - already` positions are
/// kept, skipping those in `skip` (kept before, from this or another ballot).
pub fn build_ballot(
    config: &BuildConfig,
    index: usize,
    ballot: &Opening,
    already: usize,
    skip: &HashSet<Position>,
    score: &mut dyn FnMut(&Position, u32) -> Score,
) -> BallotOutcome {
    let mut outcome = BallotOutcome::default();
    let wanted = config.per_ballot.saturating_sub(already);
    let seed = config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64;
    for (moves, pos) in candidates(config.variant, ballot, config.plies, seed) {
        if outcome.kept.len() >= wanted {
            break;
        }
        if skip.contains(&pos) {
            continue;
        }
        outcome.filtered += 1;
        if !config.within(score(&pos, config.filter_depth), FILTER_MARGIN) {
            continue;
        }
        outcome.confirmed += 1;
        let deep = score(&pos, config.depth);
        if !config.within(deep, 0) {
            continue;
        }
        let mut at = ballot.position();
        let moves = moves
            .iter()
            .map(|&m| {
                let text = move_to_string(config.variant, &at, m, Notation::Algebraic);
                at = at.play(m);
                text
            })
            .collect();
        outcome.kept.push(Kept {
            ballot: ballot.name.clone(),
            moves,
            position: pos,
            score: deep,
            depth: config.depth,
        });
    }
    outcome
}

/// The `# done:` line of a finished ballot.
pub fn done_line(ballot: &str, outcome: &BallotOutcome) -> String {
    format!(
        "{DONE}{ballot} ({} kept, {} confirmed of {} searched)",
        outcome.kept.len(),
        outcome.confirmed,
        outcome.filtered
    )
}

/// The engine's score for the side to move of a position searched afresh to a
/// depth, with the default settings of `variant` and the built-in databases: the
/// builder's one use of the engine.
pub fn engine_scorer(variant: Variant) -> Result<impl FnMut(&Position, u32) -> Score, String> {
    let mut settings = EngineSettings::default();
    settings
        .set("variant", &variant.to_string())
        .map_err(|e| e.to_string())?;
    let sources = Sources {
        databases: Databases::found_or_built_in(None, variant, true),
        ..Sources::default()
    };
    let mut searcher = Searcher::new(search_options(&settings, &sources));
    Ok(move |pos: &Position, depth: u32| {
        searcher.clear();
        let clock = Clock::new(MoveBudget::exact(&TimeControl::Depth(depth)));
        think(
            &mut searcher,
            &Think::search(pos, &[]),
            &mut no_draws(),
            &clock,
            &mut |_| {},
        )
        .result
        .score
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::openings::{fmjd_ballots, parse_openings};

    fn config() -> BuildConfig {
        BuildConfig {
            variant: Variant::Brazilian,
            plies: 2,
            filter_depth: 4,
            depth: 8,
            min: Score(25),
            max: Score(70),
            per_ballot: 2,
            seed: 1,
        }
    }

    #[test]
    fn candidates_are_distinct_legal_and_seeded() {
        // A ballot with many positions two plies on (some have one: forced captures).
        let ballots = fmjd_ballots().unwrap();
        let ballot = ballots
            .iter()
            .find(|b| candidates(Variant::Brazilian, b, 2, 5).len() > 10)
            .unwrap();
        let a = candidates(Variant::Brazilian, ballot, 2, 5);
        assert_eq!(a, candidates(Variant::Brazilian, ballot, 2, 5));
        assert_ne!(a, candidates(Variant::Brazilian, ballot, 2, 6));
        let distinct: HashSet<Position> = a.iter().map(|(_, p)| *p).collect();
        assert_eq!(distinct.len(), a.len());
        assert!(a.len() > 10);
        for (moves, pos) in &a {
            assert_eq!(moves.len(), 2);
            let end = moves.iter().fold(ballot.position(), |p, &m| {
                assert!(legal_moves(Variant::Brazilian, &p).contains(&m));
                p.play(m)
            });
            assert_eq!(end, *pos);
        }
    }

    /// A scorer that gives each position a score from its hash: the shallow one
    /// off by 10 from the deep one.
    fn fake(pos: &Position, depth: u32) -> Score {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        pos.hash(&mut h);
        let base = (h.finish() % 201) as i32 - 100;
        Score(if depth < 8 { base + 10 } else { base })
    }

    #[test]
    fn kept_positions_are_in_the_band_and_the_file_resumes() {
        let cfg = config();
        let ballots = fmjd_ballots().unwrap();
        let mut progress = Progress::new(&cfg);
        let mut calls = 0;
        let mut scorer = |p: &Position, d: u32| {
            calls += 1;
            fake(p, d)
        };
        for (i, b) in ballots.iter().take(3).enumerate() {
            let out = build_ballot(&cfg, i, b, 0, &progress.positions, &mut scorer);
            assert!(out.kept.len() <= 2 && out.confirmed <= out.filtered);
            for k in &out.kept {
                assert!((25..=70).contains(&k.score.0.abs()), "{k}");
                assert_eq!(k.score, fake(&k.position, 8));
                progress.positions.insert(k.position);
                progress.lines.push(k.to_string());
            }
            progress.lines.push(done_line(&b.name, &out));
        }
        assert!(calls > 0);
        let text = progress.text();
        // An openings file: one opening per kept position.
        let openings = parse_openings(&text).unwrap();
        assert_eq!(openings.len(), progress.kept());
        assert!(
            ballots
                .iter()
                .any(|b| openings[0].name.starts_with(&b.name)),
            "{text}"
        );
        assert!(openings[0].name.contains("depth 8)"), "{text}");
        // Read back: the same positions, ballots done.
        let back = Progress::read(&text, &cfg).unwrap();
        assert_eq!(back.positions, progress.positions);
        assert_eq!(back.done.len(), 3);
        assert!(back.done.contains(&ballots[2].name));
        assert_eq!(back.text(), text);
        // Other settings: refused.
        let other = BuildConfig { depth: 9, ..cfg };
        assert!(matches!(
            Progress::read(&text, &other),
            Err(BuildError::OtherSettings { .. })
        ));
        let broken = format!("{text}W:Wzz9:B1 ; x\n");
        assert!(matches!(
            Progress::read(&broken, &cfg),
            Err(BuildError::BadLine { .. })
        ));
    }

    #[test]
    fn a_ballot_kept_before_is_not_searched_again_for_the_same_positions() {
        let cfg = config();
        let ballot = &fmjd_ballots().unwrap()[4];
        let mut scorer = fake;
        let first = build_ballot(&cfg, 4, ballot, 0, &HashSet::new(), &mut scorer);
        assert!(!first.kept.is_empty());
        let skip: HashSet<Position> = first.kept.iter().map(|k| k.position).collect();
        let again = build_ballot(&cfg, 4, ballot, first.kept.len(), &skip, &mut scorer);
        assert!(again.kept.len() + first.kept.len() <= cfg.per_ballot);
        for k in &again.kept {
            assert!(!skip.contains(&k.position));
        }
    }

    #[test]
    fn proven_scores_and_bad_settings_are_refused() {
        let cfg = config();
        assert!(!cfg.within(Score::win_in(7), 0));
        assert!(cfg.within(Score(-40), 0) && cfg.within(Score(40), 0));
        assert!(!cfg.within(Score(10), 0) && cfg.within(Score(10), FILTER_MARGIN));
        assert!(cfg.validate().is_ok());
        for bad in [
            BuildConfig {
                filter_depth: 9,
                ..cfg.clone()
            },
            BuildConfig {
                min: Score(80),
                ..cfg.clone()
            },
            BuildConfig {
                per_ballot: 0,
                ..cfg.clone()
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_engine_scores_a_position_for_the_side_to_move() {
        let mut score = engine_scorer(Variant::Brazilian).unwrap();
        // White a man up against a lone man: far ahead, not a small edge.
        let pos = parse_fen("W:Wc3,e3:Bh8").unwrap();
        let s = score(&pos, 4);
        assert!(s.0 > 70 || s.is_proven(), "{s:?}");
        let flipped = parse_fen("B:Wc3,e3:Bh8").unwrap();
        assert!(score(&flipped, 4).0 < 0);
    }
}
