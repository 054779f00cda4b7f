//! The game review in a background thread with its own searcher, so the UI stays
//! responsive; it reports its progress and is stopped when dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;

use crate::review::{review_game, Review};
use damas_engine::search::{Limits, SearchOptions, Searcher};
use damas_rules::game::Game;
use damas_rules::moves::Move;
use damas_rules::position::Position;

/// Nodes per position of a review started from the UI (fewer than `damas review`'s
/// default, so that a game is reviewed in seconds while the engine may be thinking).
pub const UI_REVIEW_NODES: u64 = 100_000;

/// A report of the review thread.
#[derive(Debug)]
pub enum ReviewEvent {
    /// Positions searched so far, and in all.
    Progress(usize, usize),
    /// The review.
    Done(Review),
}

/// A review running in the background.
pub struct ReviewJob {
    events: Receiver<ReviewEvent>,
    stop: Arc<AtomicBool>,
}

impl ReviewJob {
    /// Review the game of `moves` from `start` with a searcher of these options.
    pub fn spawn(options: SearchOptions, start: Position, moves: Vec<Move>) -> ReviewJob {
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let _ = std::thread::Builder::new()
            .name("damas-review".into())
            .spawn(move || {
                let mut game = Game::new(start);
                for m in moves {
                    game.play(m);
                }
                let mut searcher = Searcher::new(options.with_threads(1));
                let review = review_game(
                    &mut searcher,
                    &game,
                    &Limits::nodes(UI_REVIEW_NODES),
                    &flag,
                    &mut |done, total| {
                        let _ = tx.send(ReviewEvent::Progress(done, total));
                    },
                );
                let _ = tx.send(ReviewEvent::Done(review));
            });
        ReviewJob { events: rx, stop }
    }

    /// The next report, if any, without waiting.
    pub fn try_event(&self) -> Option<ReviewEvent> {
        self.events.try_recv().ok()
    }
}

impl Drop for ReviewJob {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
