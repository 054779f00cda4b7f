//! The game review in a background thread with its own searcher, so the UI stays
//! responsive; it reports its progress and is stopped when dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;

use crate::review::{review_game, Review, DEFAULT_NODES};
use damas_engine::search::{Limits, SearchOptions, Searcher};
use damas_rules::game::Game;
use damas_rules::moves::Move;
use damas_rules::position::Position;

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
    /// Review the game of `moves` from `start` with a searcher of these options, under
    /// their variant's rules.
    pub fn spawn(options: SearchOptions, start: Position, moves: Vec<Move>) -> ReviewJob {
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let _ = std::thread::Builder::new()
            .name("damas-review".into())
            .spawn(move || {
                let mut game = Game::new_for(options.variant(), start);
                for m in moves {
                    game.play(m);
                }
                // As `damas review` by default (one thread, the same nodes per
                // position), so that both mark a move the same way.
                let mut searcher = Searcher::new(options.with_threads(1));
                let review = review_game(
                    &mut searcher,
                    &game,
                    &Limits::nodes(DEFAULT_NODES).into(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::fen::parse_fen;
    use damas_rules::notation::parse_move;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn the_in_game_review_judges_as_damas_review_does() {
        let start = parse_fen("W:Wa1,c1,e1,g1,e3:Bb8,d8,f8,h8,g5").unwrap();
        let mut game = Game::new(start);
        for text in ["e3-f4", "g5xe3", "a1-b2"] {
            let m = parse_move(&game.position(), text).unwrap();
            game.play(m);
        }
        let job = ReviewJob::spawn(SearchOptions::default(), start, game.moves().to_vec());
        let in_game = loop {
            match job.events.recv().expect("the review finishes") {
                ReviewEvent::Done(r) => break r,
                ReviewEvent::Progress(..) => {}
            }
        };
        // `damas review`'s default budget, one thread.
        let cli = review_game(
            &mut Searcher::new(SearchOptions::default().with_threads(1)),
            &game,
            &Limits::nodes(DEFAULT_NODES).into(),
            &AtomicBool::new(false),
            &mut |_, _| {},
        );
        assert_eq!(in_game, cli);
    }
}
