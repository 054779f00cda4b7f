//! Game review: the engine searches every position of a game (node-limited by default,
//! so the review is reproducible), and each move gets the evaluation after it, the
//! engine's preferred move where it differs, and a mark when it lowered the mover's
//! evaluation enough ([`mod@judge`]), with a summary per player — as online boards do
//! after a game. `damas review` prints it ([`report`]); the terminal UI shows it in a
//! panel.

pub mod curve;
pub mod judge;
pub mod report;
pub mod setup;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub use judge::{judge, Centi, Judgement, Mark};
pub use setup::{default_budget, review_engine, review_variant, VariantConflict};

use damas_engine::book::embedded_book;
use damas_engine::score::Score;
use damas_engine::search::Searcher;
use damas_engine::think::{no_draws, think, Think};
use damas_engine::time::{Clock, MoveBudget};
use damas_engine::verdict::{consulted, verdict, Proof, Verdict};
use damas_rules::game::Game;
use damas_rules::movegen::legal_moves;
use damas_rules::moves::Move;
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::pdn::MoveNumber;
use damas_rules::position::{Color, Position};
use damas_rules::variant::Variant;

/// Nodes per position searched by default: enough to see the usual tactics, and a
/// game of 80 plies takes seconds.
pub const DEFAULT_NODES: u64 = 200_000;

/// The review of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Index of the move in the game (0 for the first).
    pub ply: usize,
    /// Its number as PDN writes it (`12`, `12...`).
    pub number: MoveNumber,
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The move played, algebraic.
    pub played_text: String,
    /// The engine's move where it differs from the one played, algebraic.
    pub best_text: Option<String>,
    /// What the engine expected for the mover with its own move.
    pub best_score: Score,
    /// What its search proved of the length of `best_score`, when proven.
    pub best_proof: Option<Proof>,
    /// What the engine expects for the mover after the move played.
    pub played_score: Score,
    /// What its search proved of the length of `played_score`, when proven.
    pub played_proof: Option<Proof>,
    /// Whether it was the only legal move.
    pub forced: bool,
    /// Whether it is a move of the opening book (the engine's own, never marked).
    pub book: bool,
    /// Its loss and mark.
    pub judgement: Judgement,
}

impl MoveReview {
    /// The evaluation after the move, from White's side (`+0.35 for White`,
    /// `White wins (database position in 3 plies)`).
    pub fn after_label(&self) -> String {
        Verdict {
            score: self.played_score,
            proof: self.played_proof,
        }
        .words(self.mover)
    }
    /// The evaluation with the engine's move, from White's side.
    pub fn best_label(&self) -> String {
        Verdict {
            score: self.best_score,
            proof: self.best_proof,
        }
        .words(self.mover)
    }
}

/// One player's totals.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PlayerSummary {
    /// Moves reviewed.
    pub moves: usize,
    /// Moves marked as inaccuracies.
    pub inaccuracies: usize,
    /// Moves marked as mistakes.
    pub mistakes: usize,
    /// Moves marked as blunders.
    pub blunders: usize,
    /// Sum of the losses.
    pub total_loss: Centi,
}

impl PlayerSummary {
    /// Average loss per move, in men.
    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_loss.men() / self.moves as f64
        }
    }

    fn add(&mut self, j: &Judgement) {
        self.moves += 1;
        self.total_loss.0 += j.loss.0;
        match j.mark {
            Some(Mark::Inaccuracy) => self.inaccuracies += 1,
            Some(Mark::Mistake) => self.mistakes += 1,
            Some(Mark::Blunder) => self.blunders += 1,
            None => {}
        }
    }
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The rules the game was judged by.
    pub variant: Variant,
    /// The moves reviewed, in order (all of them unless the review was stopped).
    pub moves: Vec<MoveReview>,
    /// Whether the review was stopped before the end of the game.
    pub stopped: bool,
}

impl Review {
    /// The totals of `side`.
    pub fn summary(&self, side: Color) -> PlayerSummary {
        let mut s = PlayerSummary::default();
        for m in self.moves.iter().filter(|m| m.mover == side) {
            s.add(&m.judgement);
        }
        s
    }
}

/// Review `game` under its rules (the searcher's options should be of the same
/// variant): search each of its positions within `budget` (one search per
/// position, the table kept from one to the next; a second one after the engine's move
/// where the move played was found lost) and judge each move. `progress` is
/// told (positions searched, positions in all) after each search; when `stop` is set
/// the review ends early with the moves judged so far.
pub fn review_game(
    searcher: &mut Searcher,
    game: &Game,
    budget: &MoveBudget,
    stop: &Arc<AtomicBool>,
    progress: &mut dyn FnMut(usize, usize),
) -> Review {
    let positions = game.positions();
    let total = positions.len();
    let variant = game.variant();
    let oracle = consulted(searcher.options());
    let proof = |pos: &Position, r: &damas_engine::search::SearchResult| {
        verdict(variant, oracle.as_deref(), pos, r.score, &r.pv).proof
    };
    // Each position's score for its side to move, what its line proves, and the
    // engine's move there.
    let mut searched: Vec<(Score, Option<Proof>, Option<Move>)> = Vec::with_capacity(total);
    for (i, pos) in positions.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let job = Think::search(pos, &positions[..i]);
        let clock = Clock::with_stop(*budget, Arc::clone(stop));
        let r = think(searcher, &job, &mut no_draws(), &clock, &mut |_| {}).result;
        searched.push((r.score, proof(pos, &r), r.best));
        progress(i + 1, total);
    }
    let first = game.start().side_to_move();
    let mut moves = Vec::new();
    for (i, &played) in game.moves().iter().enumerate() {
        let (Some(&(before, before_proof, best)), Some(&(after, after_proof, _))) =
            (searched.get(i), searched.get(i + 1))
        else {
            break;
        };
        let pos = positions[i];
        let forced = legal_moves(variant, &pos).len() == 1;
        let book = in_book(variant, &pos, played);
        let same = best == Some(played);
        let played_score = -after;
        let (mut best_score, mut best_proof) = (before, before_proof);
        if let Some(b) =
            best.filter(|_| played_score.is_loss() && !before.is_proven() && !forced && !same)
        {
            // The move played was found lost by a search of its own position; the
            // engine's move gets the same second look before the one is called a
            // blunder against the other (it may be lost as well).
            let after_best = pos.play(b);
            let job = Think::search(&after_best, &positions[..=i]);
            let clock = Clock::with_stop(*budget, Arc::clone(stop));
            let r = think(searcher, &job, &mut no_draws(), &clock, &mut |_| {}).result;
            if !stop.load(Ordering::Relaxed) && (-r.score).is_loss() {
                best_score = -r.score;
                best_proof = proof(&after_best, &r);
            }
        }
        moves.push(MoveReview {
            ply: i,
            number: MoveNumber::of_ply(first, i),
            mover: pos.side_to_move(),
            played,
            played_text: move_to_string(variant, &pos, played, Notation::Algebraic),
            best_text: best
                .filter(|&b| b != played)
                .map(|b| move_to_string(variant, &pos, b, Notation::Algebraic)),
            best_score,
            best_proof,
            played_score,
            played_proof: after_proof,
            forced,
            book,
            // The engine's own book is not judged by a search of a few nodes.
            judgement: judge(best_score, played_score, forced, same || book),
        });
    }
    Review {
        variant,
        stopped: moves.len() < game.moves().len(),
        moves,
    }
}

/// Whether `mv` is one of the moves the opening book of `variant` plays in `pos`.
fn in_book(variant: Variant, pos: &Position, mv: Move) -> bool {
    embedded_book(variant)
        .moves(pos)
        .is_some_and(|moves| moves.iter().any(|b| b.mv == mv && b.weight.0 > 0))
}

#[cfg(test)]
mod tests;
