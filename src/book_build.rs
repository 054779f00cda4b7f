//! Building the book: expand the opening tree from the start position, scoring every
//! move of each position with a node-limited search (the default engine, the trained
//! evaluation, a cleared table per search, so that the result does not depend on the
//! machine's load or the order of the work), keeping the moves within a margin of the
//! best. The best move of a position is followed `depth` plies deep, the others
//! `alt_penalty` plies less, so the tree goes deepest along the best lines.
//!
//! Positions are searched in parallel (rayon) in small chunks; after each chunk the
//! analyses so far are written atomically to a state file, and a restarted build
//! reads it and skips the positions already searched.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use damas_egdb::progress::Bar;
use damas_engine::engine::{search_options, Sources};
use damas_engine::eval::Evaluation;
use damas_engine::score::Score;
use damas_engine::search::Searcher;
use damas_engine::settings::EngineSettings;
use damas_engine::think::{no_draws, think, Think};
use damas_engine::time::{Clock, MoveBudget, TimeControl};
use damas_rules::bitboard::Bitboard;
use damas_rules::movegen::legal_moves;
use damas_rules::moves::Move;
use damas_rules::position::{Color, Position};
use damas_rules::square::Square;
use damas_rules::variant::Variant;

use damas_engine::book::{move_by_squares, Book, BookError, BookMove, Weight};

/// First line of a state file.
const STATE_MAGIC: &str = "damas-book-state 1";
/// Positions searched between two saves of the state.
const CHUNK: usize = 8;

/// Where the shipped book of `variant` lives, relative to the repository (the file
/// the engine embeds and `damas book build` writes by default).
pub fn shipped_book_path(variant: Variant) -> PathBuf {
    PathBuf::from(match variant {
        Variant::Brazilian => "data/book/opening.book",
        Variant::Russian => "data/book/opening-russian.book",
    })
}

/// The state file kept beside `book` by default: the book's name with `.state`.
pub fn state_path_for(book: &Path) -> PathBuf {
    book.with_extension("state")
}

/// How to build a book.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// The rules the book is for.
    pub variant: Variant,
    /// The evaluation of the searches (default: the variant's trained weights).
    pub evaluation: Option<Evaluation>,
    /// Plies along the best line (the book's depth).
    pub depth: u32,
    /// Plies fewer for a move other than the best of its position.
    pub alt_penalty: u32,
    /// Keep the moves scoring at most this much below the best.
    pub margin: Score,
    /// Keep at most this many moves per position.
    pub max_moves: usize,
    /// Nodes per search (one search per legal move).
    pub nodes: u64,
    /// Table size of each searcher in megabytes.
    pub hash_mb: usize,
    /// Draw a progress bar on stderr.
    pub progress: bool,
}

impl Default for BuildConfig {
    fn default() -> Self {
        BuildConfig {
            variant: Variant::Brazilian,
            evaluation: None,
            depth: 20,
            alt_penalty: 2,
            margin: Score::centi(25),
            max_moves: 3,
            nodes: 200_000,
            hash_mb: 16,
            progress: false,
        }
    }
}

/// Why a build failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The state file is not one this build wrote.
    #[error("state file {path}, line {line}: {why}")]
    State {
        /// The file.
        path: PathBuf,
        /// Line number (1-based).
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// The state was searched with another node count: resuming would mix them.
    #[error("state file {path} was searched with nodes={found}, not {expected}; delete it or pass --nodes {found}")]
    StateNodes {
        /// The file.
        path: PathBuf,
        /// Its node count.
        found: u64,
        /// The requested one.
        expected: u64,
    },
    /// The state was searched under other rules.
    #[error("state file {path} holds {found} analyses, not {expected}; delete it or pass another --state")]
    StateVariant {
        /// The file.
        path: PathBuf,
        /// Its rules.
        found: Variant,
        /// The rules of this build.
        expected: Variant,
    },
    /// Writing the book failed.
    #[error(transparent)]
    Book(#[from] BookError),
}

/// What a build did.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildReport {
    /// Positions in the book.
    pub positions: usize,
    /// The longest book line from the start, in plies.
    pub depth: u32,
    /// Positions searched by this run.
    pub searched: usize,
    /// Positions taken from the state file.
    pub resumed: usize,
    /// Size of the book file in bytes.
    pub bytes: usize,
    /// Wall-clock time of this run.
    pub time: Duration,
}

/// Every legal move of a position with its score for the side to move, best first.
type Analysis = Vec<(Move, Score)>;

/// The analyses of a build, by position; what the state file holds.
#[derive(Default)]
struct State {
    analyses: HashMap<Position, Analysis>,
}

fn move_text(m: Move) -> String {
    format!(
        "{}.{}.{:x}",
        m.from().index(),
        m.to().index(),
        m.captured().0
    )
}

/// The squares of a move written by [`move_text`].
fn parse_move(text: &str) -> Option<(Square, Square, Bitboard)> {
    let mut parts = text.split('.');
    let from = Square::new(parts.next()?.parse().ok()?)?;
    let to = Square::new(parts.next()?.parse().ok()?)?;
    let captured = u32::from_str_radix(parts.next()?, 16).ok()?;
    parts
        .next()
        .is_none()
        .then_some((from, to, Bitboard(captured)))
}

/// The state file's first line: the magic, the node count and, for rules other than
/// Brazilian (files written before the field have none), the variant.
fn state_header(nodes: u64, variant: Variant) -> String {
    match variant {
        Variant::Brazilian => format!("{STATE_MAGIC} nodes={nodes}"),
        v => format!("{STATE_MAGIC} nodes={nodes} variant={v}"),
    }
}

impl State {
    fn to_text(&self, nodes: u64, variant: Variant) -> String {
        let mut out = state_header(nodes, variant);
        out.push('\n');
        let mut keys: Vec<&Position> = self.analyses.keys().collect();
        keys.sort_by_key(|p| {
            (
                p.white().0,
                p.black().0,
                p.kings().0,
                p.side_to_move() as u8,
            )
        });
        for pos in keys {
            let side = if pos.side_to_move() == Color::White {
                'w'
            } else {
                'b'
            };
            let _ = write!(
                out,
                "{:x} {:x} {:x} {side}",
                pos.white().0,
                pos.black().0,
                pos.kings().0
            );
            for &(m, s) in &self.analyses[pos] {
                let _ = write!(out, " {}:{}", move_text(m), s.0);
            }
            out.push('\n');
        }
        out
    }

    fn parse(text: &str, nodes: u64, variant: Variant, path: &Path) -> Result<State, BuildError> {
        let bad = |line: usize, why: &str| BuildError::State {
            path: path.to_path_buf(),
            line,
            why: why.to_string(),
        };
        let mut lines = text.lines();
        let header = lines.next().unwrap_or_default();
        let not_state = || bad(1, "not a damas book state file");
        let mut fields = header
            .strip_prefix(STATE_MAGIC)
            .ok_or_else(not_state)?
            .split_whitespace();
        let found = fields
            .next()
            .and_then(|f| f.strip_prefix("nodes="))
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or_else(not_state)?;
        let found_variant = match fields.next() {
            None => Variant::Brazilian,
            Some(f) => f
                .strip_prefix("variant=")
                .and_then(|v| v.parse::<Variant>().ok())
                .ok_or_else(|| {
                    bad(
                        1,
                        "the variant must be variant=brazilian or variant=russian",
                    )
                })?,
        };
        if found_variant != variant {
            return Err(BuildError::StateVariant {
                path: path.to_path_buf(),
                found: found_variant,
                expected: variant,
            });
        }
        if found != nodes {
            return Err(BuildError::StateNodes {
                path: path.to_path_buf(),
                found,
                expected: nodes,
            });
        }
        let mut state = State::default();
        for (i, line) in lines.enumerate() {
            let n = i + 2;
            let words: Vec<&str> = line.split_whitespace().collect();
            let [w, b, k, side, moves @ ..] = words.as_slice() else {
                return Err(bad(n, "expected masks, side and moves"));
            };
            let mask = |t: &str| u32::from_str_radix(t, 16).map(Bitboard);
            let side = match *side {
                "w" => Color::White,
                "b" => Color::Black,
                _ => return Err(bad(n, "side must be w or b")),
            };
            let (Ok(w), Ok(b), Ok(k)) = (mask(w), mask(b), mask(k)) else {
                return Err(bad(n, "masks must be hexadecimal"));
            };
            let pos = Position::from_parts(w, b, k, side).map_err(|e| bad(n, &e.to_string()))?;
            let legal = legal_moves(variant, &pos);
            let mut analysis = Vec::new();
            for word in moves {
                let ((from, to, captured), s) = word
                    .split_once(':')
                    .and_then(|(m, s)| Some((parse_move(m)?, s.parse::<i32>().ok()?)))
                    .ok_or_else(|| bad(n, &format!("cannot read move {word:?}")))?;
                let m = move_by_squares(&legal, from, to, captured)
                    .ok_or_else(|| bad(n, &format!("illegal move {word:?}")))?;
                analysis.push((m, Score(s)));
            }
            state.analyses.insert(pos, analysis);
        }
        Ok(state)
    }

    fn load(path: &Path, nodes: u64, variant: Variant) -> Result<State, BuildError> {
        match std::fs::read_to_string(path) {
            Ok(text) => State::parse(&text, nodes, variant, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(State::default()),
            Err(source) => Err(BuildError::Io {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    fn save(&self, path: &Path, nodes: u64, variant: Variant) -> Result<(), BuildError> {
        damas_rules::atomic_file::write_atomic(path, self.to_text(nodes, variant).as_bytes())
            .map_err(|source| BuildError::Io {
                path: path.to_path_buf(),
                source,
            })
    }
}

/// Score every legal move of `pos` with a search of `nodes` nodes from a cleared
/// table, best first (ties in move order, so the result is reproducible).
fn analyse(searcher: &mut Searcher, pos: &Position, nodes: u64) -> Analysis {
    let variant = searcher.options().variant();
    let mut scored: Analysis = legal_moves(variant, pos)
        .iter()
        .map(|&m| {
            let child = pos.play(m);
            let score = if legal_moves(variant, &child).is_empty() {
                Score::win_in(1)
            } else {
                searcher.clear();
                let budget = MoveBudget::exact(&TimeControl::Nodes(nodes));
                let job = Think::search(&child, std::slice::from_ref(pos));
                let r = think(
                    searcher,
                    &job,
                    &mut no_draws(),
                    &Clock::new(budget),
                    &mut |_| {},
                )
                .result;
                -r.score
            };
            (m, score)
        })
        .collect();
    scored.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    scored
}

/// The moves kept from an analysis, best first, with their weights: the best weighs
/// 1000, a move at the margin 500, linearly between.
fn keep(analysis: &Analysis, config: &BuildConfig) -> Vec<BookMove> {
    let Some(&(_, best)) = analysis.first() else {
        return Vec::new();
    };
    let margin = config.margin.0.max(0);
    analysis
        .iter()
        .filter(|(_, s)| best.0 - s.0 <= margin)
        .take(config.max_moves.max(1))
        .map(|&(mv, s)| {
            let below = i64::from(best.0 - s.0);
            let w = if margin == 0 {
                1000
            } else {
                1000 - below * 500 / i64::from(margin)
            };
            BookMove {
                mv,
                weight: Weight(w.clamp(1, 1000) as u16),
            }
        })
        .collect()
}

fn progress_bar(show: bool) -> Bar {
    Bar::new(
        show,
        Some(0),
        "{msg:16} [{bar:40}] {pos}/{len} positions {elapsed_precise} left {eta_precise}",
    )
}

/// Build the book described by `config` into `out`, keeping the analyses in
/// `state_path` (read first when it exists, so an interrupted build resumes).
pub fn build(
    config: &BuildConfig,
    out: &Path,
    state_path: &Path,
) -> Result<BuildReport, BuildError> {
    let started = Instant::now();
    let variant = config.variant;
    let legal = |p: &Position| legal_moves(variant, p);
    let mut state = State::load(state_path, config.nodes, variant)?;
    let settings = EngineSettings {
        variant,
        hash_mb: config.hash_mb,
        ..EngineSettings::default()
    };
    let sources = Sources {
        evaluation: config.evaluation.clone(),
        ..Sources::default()
    };
    let options = search_options(&settings, &sources);
    // One searcher per worker at a time, reused: tables are large to allocate.
    let searchers: Mutex<Vec<Searcher>> = Mutex::new(Vec::new());
    let pb = progress_bar(config.progress);
    let (mut searched, mut resumed) = (0, 0);
    let mut book = Book::new(variant);
    let mut frontier: Vec<(Position, u32)> = vec![(Position::start(), config.depth)];
    let mut seen: HashSet<Position> = HashSet::new();
    let mut ply = 0;
    while !frontier.is_empty() {
        pb.set_message(format!("ply {ply}"));
        // Positions with a single legal move need no search.
        let missing: Vec<Position> = frontier
            .iter()
            .map(|&(p, _)| p)
            .filter(|p| legal(p).len() > 1 && !state.analyses.contains_key(p))
            .collect();
        resumed += frontier.len() - missing.len();
        pb.inc_length(missing.len() as u64);
        for chunk in missing.chunks(CHUNK) {
            let done: Vec<(Position, Analysis)> = chunk
                .par_iter()
                .map(|pos| {
                    let taken = searchers.lock().unwrap_or_else(|e| e.into_inner()).pop();
                    let mut s = taken.unwrap_or_else(|| Searcher::new(options.clone()));
                    let a = analyse(&mut s, pos, config.nodes);
                    searchers.lock().unwrap_or_else(|e| e.into_inner()).push(s);
                    pb.inc(1);
                    (*pos, a)
                })
                .collect();
            searched += done.len();
            state.analyses.extend(done);
            state.save(state_path, config.nodes, variant)?;
        }
        let mut next: HashMap<Position, u32> = HashMap::new();
        for &(pos, left) in &frontier {
            let kept = match state.analyses.get(&pos) {
                Some(a) => keep(a, config),
                None => legal(&pos)
                    .iter()
                    .map(|&mv| BookMove {
                        mv,
                        weight: Weight(1000),
                    })
                    .collect(),
            };
            for (i, m) in kept.iter().enumerate() {
                let cost = 1 + if i == 0 { 0 } else { config.alt_penalty };
                let child = pos.play(m.mv);
                if left > cost && !legal(&child).is_empty() && !seen.contains(&child) {
                    let e = next.entry(child).or_insert(0);
                    *e = (*e).max(left - cost);
                }
            }
            // Forced moves are played without the book; they are not stored.
            if kept.len() > 1 || state.analyses.contains_key(&pos) {
                book.insert(pos, kept);
            }
        }
        seen.extend(next.keys().copied());
        frontier = next.into_iter().collect();
        // A fixed order, so that chunks (and saves) repeat from run to run.
        frontier.sort_by_key(|(p, _)| (p.white().0, p.black().0, p.kings().0));
        ply += 1;
    }
    pb.finish_and_clear();
    book.save(out)?;
    Ok(BuildReport {
        positions: book.len(),
        depth: book.depth(),
        searched,
        resumed,
        bytes: book.to_bytes().len(),
        time: started.elapsed(),
    })
}

#[cfg(test)]
mod tests;
