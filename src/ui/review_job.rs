//! The game review in a background thread with its own searcher, so the UI stays
//! responsive; it reports its progress and is stopped when dropped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;

use crate::review::{default_budget, review_engine, review_game, Review};
use damas_engine::search::{SearchOptions, DEFAULT_HASH_MB};
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
    /// Review the game of `moves` from `start` under the rules of the game's engine
    /// `options`, with its database: the review `damas review` runs (the same engine
    /// settings and budget; the game engine's own evaluation, variety and table are
    /// not used).
    pub fn spawn(options: SearchOptions, start: Position, moves: Vec<Move>) -> ReviewJob {
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let _ = std::thread::Builder::new()
            .name("damas-review".into())
            .spawn(move || {
                let mut game = Game::new(options.variant(), start);
                for m in moves {
                    game.play(m);
                }
                // As `damas review` by default, so that both mark a move the same way.
                // The default table always fits: a failure leaves the job silent.
                let Ok(mut searcher) =
                    review_engine(game.variant(), options.oracle().cloned(), DEFAULT_HASH_MB)
                else {
                    return;
                };
                let review = review_game(
                    &mut searcher,
                    &game,
                    &default_budget(),
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
    use damas_engine::eval::{Evaluation, Trained};
    use damas_rules::fen::parse_fen;
    use damas_rules::notation::parse_move;
    use damas_rules::variant::Variant;

    #[test]
    fn the_in_game_review_judges_as_damas_review_does() {
        let start = parse_fen("W:Wa1,c1,e1,g1,e3:Bb8,d8,f8,h8,g5").unwrap();
        let mut game = Game::new(Variant::Brazilian, start);
        for text in ["e3-f4", "g5xe3", "a1-b2"] {
            let m = parse_move(Variant::Brazilian, &game.position(), text).unwrap();
            game.play(m);
        }
        // The game's engine: its variety, threads and table are its own.
        let noisy = Evaluation::Trained(Arc::new(
            Trained::embedded(Variant::Brazilian).with_noise(7, 50),
        ));
        let options = SearchOptions::default()
            .with_eval(noisy)
            .with_threads(2)
            .with_hash_mb(8);
        let job = ReviewJob::spawn(options, start, game.moves().to_vec());
        let in_game = loop {
            match job.events.recv().expect("the review finishes") {
                ReviewEvent::Done(r) => break r,
                ReviewEvent::Progress(..) => {}
            }
        };
        // `damas review` with its defaults.
        let mut searcher = review_engine(game.variant(), None, DEFAULT_HASH_MB).unwrap();
        let cli = review_game(
            &mut searcher,
            &game,
            &default_budget(),
            &Arc::default(),
            &mut |_, _| {},
        );
        assert_eq!(in_game, cli);
    }
}
