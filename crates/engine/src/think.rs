//! Choosing a move to play: a forced move, a book move, or a search at the chosen
//! strength within a time budget. The one path that the Hub engine, match players and
//! the terminal UI take.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::Rng;

use damas_rules::movegen::legal_moves_for;
use damas_rules::moves::Move;
use damas_rules::position::Position;
use damas_rules::variant::Variant;

use crate::book::{self, Book};
use crate::level::{Chooser, Strength};
use crate::search::{Info, SearchResult, Searcher};
use crate::time::{MoveBudget, Pace};

/// Who enforces a budget's deadlines.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Deadlines {
    /// [`think`]: the searcher gets the hard deadline as its own time limit
    /// ([`MoveBudget::search_limits`]) and `think` stops between iterations as
    /// [`Pace`] says, timed from the start of the search.
    Own,
    /// The caller (the Hub engine, whose clock restarts at ponder-hit): the searcher
    /// gets the budget's `limits` as they are.
    Caller,
}

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
    /// What may be spent: from a [`crate::time::TimeControl`] ([`MoveBudget::new`]).
    pub budget: MoveBudget,
    /// Who enforces the budget's deadlines.
    pub deadlines: Deadlines,
    /// Play a single legal move at once, without searching (and without reports).
    /// Without it, a single legal move is searched like any position, within the
    /// budget: its score is that of the line after it, for callers that show one.
    pub forced_without_search: bool,
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
        let legal = legal_moves_for(variant, pos);
        if legal.len() == 1 {
            return Some((legal[0], Source::Forced));
        }
    }
    book_for(variant, book)
        .and_then(|b| book::choose(b, pos, rng))
        .map(|m| (m, Source::Book))
}

/// Choose a move for `job`: forced and book moves first, then a search by `searcher`
/// at the job's strength (drawing from `rng`), which `stop` ends early; `on_info` sees
/// each iteration's report.
pub fn think<R: Rng>(
    searcher: &mut Searcher,
    job: &Think,
    rng: &mut R,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
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
    let budget = job.budget;
    let start = Instant::now();
    let (limits, mut pace) = match job.deadlines {
        Deadlines::Own => (budget.search_limits(), Pace::new(&budget)),
        Deadlines::Caller => (budget.limits, Pace::new(&MoveBudget::default())),
    };
    let mut on_iteration = |info: &Info| {
        on_info(info);
        if pace.after_iteration(info.pv.first().copied(), info.score, start.elapsed()) {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let mut chooser = Chooser {
        strength: job.strength,
        rng,
    };
    let result = chooser.search(
        searcher,
        job.pos,
        job.history,
        &limits,
        stop,
        &mut on_iteration,
    );
    Thought {
        result,
        source: Source::Search,
    }
}

#[cfg(test)]
mod tests;
