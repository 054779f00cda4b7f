//! The one search entry: choosing a move to play (a forced move, a book move, or a
//! search at the chosen strength within a budget) or searching a position for
//! analysis. The Hub engine, match players, the terminal UI, analysis, review,
//! self-play, playouts, book building, the study and the weaker strengths' own
//! searches all go through [`think`]; what differs between them is a field of the
//! request ([`Think`]).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::rngs::mock::StepRng;
use rand::Rng;

use damas_rules::movegen::legal_moves;
use damas_rules::moves::Move;
use damas_rules::position::Position;
use damas_rules::variant::Variant;

use crate::book::{self, Book};
use crate::level::{draw, softmax_weight, Strength};
use crate::score::Score;
use crate::search::{Info, Limits, ProgressSink, SearchResult, Searcher, Stats};
use crate::time::Clock;

/// What to think about and how.
#[derive(Clone, Copy, Debug)]
pub struct Think<'a> {
    /// The position.
    pub pos: &'a Position,
    /// Earlier positions of the game, oldest first, for the draw rules.
    pub history: &'a [Position],
    /// The opening book to play from while the position is in it, if any (a book
    /// for other rules than the search's gives way to the shipped book of those rules).
    pub book: Option<&'a Book>,
    /// Playing strength.
    pub strength: Strength,
    /// The number of best lines to report (several for analysis), or `None` for
    /// the searcher's setting.
    pub lines: Option<usize>,
    /// Play a single legal move at once, without searching (and without reports).
    /// Without it, a single legal move is searched like any position, within the
    /// budget: its score is that of the line after it, for callers that show one.
    pub forced_without_search: bool,
}

impl<'a> Think<'a> {
    /// A search of `pos` and nothing else: no book, full strength, a single legal
    /// move searched like any other, the searcher's number of lines. What analysis,
    /// review, training, book building and the study ask for.
    pub fn search(pos: &'a Position, history: &'a [Position]) -> Think<'a> {
        Think {
            pos,
            history,
            book: None,
            strength: Strength::FULL,
            lines: None,
            forced_without_search: false,
        }
    }
}

/// The random source of a request that draws nothing (no book, full strength, a
/// single legal move searched): [`Think::search`]'s.
pub fn no_draws() -> impl Rng {
    StepRng::new(0, 0)
}

/// Where a move came from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Source {
    /// The only legal move.
    Forced,
    /// The opening book.
    Book,
    /// A search.
    Search,
}

/// The move chosen and its report.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    /// The search result (a bare one for a forced or book move).
    pub result: SearchResult,
    /// Where the move came from.
    pub source: Source,
}

/// The book to play from under the rules of `variant`: `book` when it is for those
/// rules, else the shipped book of `variant` (a book is never played under other rules).
pub fn book_for(variant: Variant, book: Option<&Book>) -> Option<&Book> {
    book.map(|b| {
        if b.variant() == variant {
            b
        } else {
            book::embedded_book(variant)
        }
    })
}

/// The move played without a search under the rules of `variant`, if any: the only
/// legal move (when `forced`), else a move drawn from the book of `variant`
/// ([`book_for`], which consumes `rng`).
pub fn without_search(
    variant: Variant,
    pos: &Position,
    book: Option<&Book>,
    forced: bool,
    rng: &mut impl Rng,
) -> Option<(Move, Source)> {
    if forced {
        let legal = legal_moves(variant, pos);
        if legal.len() == 1 {
            return Some((legal[0], Source::Forced));
        }
    }
    book_for(variant, book)
        .and_then(|b| book::choose(b, pos, rng))
        .map(|m| (m, Source::Book))
}

/// Choose a move for `job`: forced and book moves first, then a search by `searcher`
/// at the job's strength (drawing from `rng`) within what `clock` allows: its
/// budget's limits and hard deadline, its pace between iterations, and its stop.
/// `on_info` sees each iteration's report.
pub fn think<R: Rng>(
    searcher: &mut Searcher,
    job: &Think,
    rng: &mut R,
    clock: &Clock,
    on_info: &mut dyn FnMut(&Info),
) -> Thought {
    think_with_progress(searcher, job, rng, clock, on_info, None)
}

/// [`think`], the search also telling `progress` (when given) how far it has got
/// between its iterations, for a live display (full strength only: the lower
/// strengths' small searches report nothing between). The move is the same.
pub fn think_with_progress<R: Rng>(
    searcher: &mut Searcher,
    job: &Think,
    rng: &mut R,
    clock: &Clock,
    on_info: &mut dyn FnMut(&Info),
    progress: Option<ProgressSink<'_>>,
) -> Thought {
    let variant = searcher.options().variant();
    if let Some((m, source)) =
        without_search(variant, job.pos, job.book, job.forced_without_search, rng)
    {
        return Thought {
            result: SearchResult::unsearched(m),
            source,
        };
    }
    if let Some(lines) = job.lines {
        searcher.set_lines(lines);
    }
    let limits = clock.budget().search_limits();
    let stop = clock.stop_flag();
    let mut on_iteration = |info: &Info| {
        on_info(info);
        clock.after_iteration(info.pv.first().copied(), info.score);
    };
    let search = || {
        at_strength(
            searcher,
            job,
            &limits,
            rng,
            stop,
            &mut on_iteration,
            progress,
        )
    };
    let result = if clock.needs_watch() {
        std::thread::scope(|s| {
            let watch = s.spawn(|| clock.watch_deadline());
            let result = search();
            clock.finish();
            let _ = watch.join();
            result
        })
    } else {
        search()
    };
    Thought {
        result,
        source: Source::Search,
    }
}

/// The search of `job` within `limits` at its strength. Full strength is the plain
/// search; lower levels score each root move with a small search (each within
/// `limits` shared out between the moves), then draw one by softmax over the scores
/// from `rng`. `on_info` is called once per iteration (full strength) or once at
/// the end; `progress` hears from the full strength's search.
fn at_strength<R: Rng>(
    searcher: &mut Searcher,
    job: &Think,
    limits: &Limits,
    rng: &mut R,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
    progress: Option<ProgressSink<'_>>,
) -> SearchResult {
    let (pos, history) = (job.pos, job.history);
    let Some(profile) = job.strength.profile() else {
        return searcher.search_with_progress(pos, history, limits, stop, on_info, progress);
    };
    let start = Instant::now();
    let legal = legal_moves(searcher.options().variant(), pos);
    let n = legal.len().max(1) as u32;
    let mut line: Vec<Position> = history.to_vec();
    line.push(*pos);
    let mut stats = Stats::default();
    let mut scored = Vec::with_capacity(legal.len());
    for &mv in legal.iter() {
        let child = pos.play(mv);
        let glance = rng.gen_bool(profile.oversight);
        let depth = if glance {
            profile.glance_depth
        } else {
            profile.depth
        };
        let (score, pv) = if depth == 0 {
            (-searcher.options().evaluation.eval(&child), Vec::new())
        } else {
            let child_limits = Limits {
                depth: Some(limits.depth.map_or(depth, |d| d.min(depth)).max(1)),
                nodes: Some(limits.nodes.map_or(profile.nodes, |c| {
                    (c / u64::from(n)).clamp(1, profile.nodes)
                })),
                time: limits.time.map(|t| t / n),
                soft: None,
            };
            let r = searcher.search(&child, &line, &child_limits, stop, &mut |_| {});
            stats.absorb(&r.stats);
            (-r.score, r.pv)
        };
        scored.push((mv, score, pv));
    }
    stats.time = start.elapsed();
    let Some(best_score) = scored.iter().map(|s| s.1).max() else {
        return SearchResult {
            best: None,
            score: Score::loss_in(0),
            depth: 0,
            pv: Vec::new(),
            stats,
            conversion_unproven: false,
        };
    };
    let weights: Vec<f64> = scored
        .iter()
        .map(|s| softmax_weight(s.1, best_score, profile.temperature))
        .collect();
    let pick = draw(&weights, rng);
    let (mv, score, rest) = scored.swap_remove(pick);
    let mut pv = vec![mv];
    pv.extend(rest);
    let result = SearchResult {
        best: Some(mv),
        score,
        depth: profile.depth + 1,
        pv,
        stats,
        conversion_unproven: false,
    };
    on_info(&Info {
        depth: result.depth,
        score: result.score,
        stats,
        pv: result.pv.clone(),
        lines: Vec::new(),
        conversion_unproven: false,
    });
    result
}

#[cfg(test)]
mod tests;
