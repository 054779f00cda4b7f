//! The engine in a background thread. The UI sends [`SearchRequest`]s and reads
//! [`EngineEvent`]s without blocking; each search has its own stop flag so that
//! "move now" and cancelling never touch a later search, and shutting down waits only
//! a bounded time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use damas_engine::book::Book;
use damas_engine::search::{Info, SearchOptions, SearchResult, Searcher};
use damas_engine::think::{think, Source, Think};
use damas_engine::time::Clock;

use super::controller::{Purpose, SearchRequest};

/// A report from the engine thread.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineEvent {
    /// An iteration of search `id` completed.
    Info {
        /// The search.
        id: u64,
        /// Its report.
        info: Info,
    },
    /// Search `id` finished.
    Done {
        /// The search.
        id: u64,
        /// Its result.
        result: SearchResult,
        /// Where the move came from (book, forced, search).
        source: Source,
    },
}

enum Job {
    Search(SearchRequest, Arc<AtomicBool>),
    NewGame,
}

/// Handle of the engine thread.
pub struct EngineThread {
    commands: Option<Sender<Job>>,
    events: Receiver<EngineEvent>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    finished: Receiver<()>,
}

impl EngineThread {
    /// Start the engine thread with these search options, without an opening book.
    pub fn spawn(options: SearchOptions) -> EngineThread {
        EngineThread::with_book(Searcher::new(options), None)
    }

    /// Start the engine thread with `searcher`; with a `book`, the engine's own moves
    /// (not hints) come from it while the position is in it.
    pub fn with_book(searcher: Searcher, book: Option<Book>) -> EngineThread {
        let (cmd_tx, cmd_rx) = mpsc::channel::<Job>();
        let (ev_tx, ev_rx) = mpsc::channel();
        let (fin_tx, fin_rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("damas-engine".into())
            .spawn(move || {
                let mut searcher = searcher;
                let mut rng = ChaCha8Rng::from_entropy();
                for cmd in cmd_rx {
                    match cmd {
                        Job::NewGame => searcher.clear(),
                        Job::Search(req, stop) => {
                            let id = req.id;
                            let tx = ev_tx.clone();
                            let mut on_info = |info: &Info| {
                                let _ = tx.send(EngineEvent::Info {
                                    id,
                                    info: info.clone(),
                                });
                            };
                            let job = Think {
                                pos: &req.position,
                                history: &req.history,
                                book: book.as_ref().filter(|_| req.purpose == Purpose::Move),
                                strength: req.strength,
                                lines: Some(req.lines),
                                // A move to play that is forced is played at once; a
                                // hint is a score and searches the line after it.
                                forced_without_search: req.purpose == Purpose::Move,
                            };
                            // The time starts when the search does.
                            let clock = Clock::with_stop(req.budget, stop);
                            let thought =
                                think(&mut searcher, &job, &mut rng, &clock, &mut on_info);
                            let (result, source) = (thought.result, thought.source);
                            if ev_tx
                                .send(EngineEvent::Done { id, result, source })
                                .is_err()
                            {
                                break;
                            }
                        }
                    }
                }
                let _ = fin_tx.send(());
            })
            .ok();
        EngineThread {
            commands: Some(cmd_tx),
            events: ev_rx,
            stop: Arc::new(AtomicBool::new(false)),
            thread,
            finished: fin_rx,
        }
    }

    /// Start a search (stop the previous one first).
    pub fn search(&mut self, request: SearchRequest) {
        self.stop = Arc::new(AtomicBool::new(false));
        if let Some(tx) = &self.commands {
            let _ = tx.send(Job::Search(request, Arc::clone(&self.stop)));
        }
    }

    /// Ask the running search to stop; its result still arrives.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Forget learnt tables (new game).
    pub fn new_game(&self) {
        if let Some(tx) = &self.commands {
            let _ = tx.send(Job::NewGame);
        }
    }

    /// The next report, if any, without waiting.
    pub fn try_event(&self) -> Option<EngineEvent> {
        self.events.try_recv().ok()
    }

    /// The next report, waiting at most `timeout`.
    pub fn wait_event(&self, timeout: Duration) -> Option<EngineEvent> {
        self.events.recv_timeout(timeout).ok()
    }

    /// Stop and end the thread, waiting at most `timeout`; returns whether it ended
    /// (otherwise it is left to die with the process).
    pub fn shutdown(mut self, timeout: Duration) -> bool {
        self.stop();
        self.commands = None;
        match self.finished.recv_timeout(timeout) {
            Ok(()) | Err(RecvTimeoutError::Disconnected) => {
                if let Some(t) = self.thread.take() {
                    let _ = t.join();
                }
                true
            }
            Err(RecvTimeoutError::Timeout) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::controller::Purpose;
    use damas_engine::level::Strength;
    use damas_engine::search::Limits;
    use damas_rules::position::Position;
    use damas_rules::variant::Variant;

    fn request(id: u64, limits: Limits) -> SearchRequest {
        SearchRequest {
            id,
            purpose: Purpose::Move,
            position: Position::start(),
            history: Vec::new(),
            budget: limits.into(),
            strength: Strength::FULL,
            lines: 1,
        }
    }

    fn wait_done(e: &EngineThread) -> (u64, SearchResult) {
        loop {
            match e
                .wait_event(Duration::from_secs(30))
                .expect("engine answers")
            {
                EngineEvent::Done { id, result, .. } => return (id, result),
                EngineEvent::Info { .. } => {}
            }
        }
    }

    #[test]
    fn the_book_answers_engine_moves_but_not_hints() {
        let book = Book::embedded(Variant::Brazilian);
        let in_book: Vec<_> = book
            .moves(&Position::start())
            .unwrap()
            .iter()
            .map(|m| m.mv)
            .collect();
        let mut e = EngineThread::with_book(Searcher::new(SearchOptions::default()), Some(book));
        e.search(request(1, Limits::depth(3)));
        let first = e
            .wait_event(Duration::from_secs(30))
            .expect("engine answers");
        let EngineEvent::Done {
            id: 1,
            result,
            source: Source::Book,
        } = first
        else {
            panic!("a book move needs no search: {first:?}");
        };
        assert!(in_book.contains(&result.best.unwrap()));
        e.search(SearchRequest {
            purpose: Purpose::Hint,
            ..request(2, Limits::depth(3))
        });
        let (_, hint) = wait_done(&e);
        assert_eq!(hint.depth, 3, "hints are searched");
        e.shutdown(Duration::from_secs(2));
    }

    #[test]
    fn searches_in_the_background_and_stops_on_request() {
        let mut e = EngineThread::spawn(SearchOptions::default());
        e.search(request(1, Limits::depth(3)));
        let (id, r) = wait_done(&e);
        assert_eq!(id, 1);
        assert!(r.best.is_some());
        // An unlimited search ends when told to, with a move.
        e.search(request(2, Limits::default()));
        std::thread::sleep(Duration::from_millis(50));
        e.stop();
        let (id, r) = wait_done(&e);
        assert_eq!(id, 2);
        assert!(r.best.is_some());
        assert!(e.shutdown(Duration::from_secs(5)));
    }

    #[test]
    fn shutdown_during_a_search_does_not_hang() {
        let mut e = EngineThread::spawn(SearchOptions::default());
        e.search(request(1, Limits::default()));
        std::thread::sleep(Duration::from_millis(20));
        assert!(e.shutdown(Duration::from_secs(5)));
    }
}
