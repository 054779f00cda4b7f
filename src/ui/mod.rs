//! The terminal UI: play Brazilian or Russian draughts against the engine (or watch it, or play
//! both sides). [`controller`] holds the logic and is tested without a terminal;
//! [`render`] and [`board`] draw with ratatui, [`overlay`] the help and game list;
//! [`input`] maps keys and mouse, after [`keys`] repairs split escape sequences;
//! [`engine`] runs the search in a background thread; [`terminal`] sets up and always
//! restores the terminal. [`run`] ties them together.

pub mod analysis;
pub mod ballot;
pub mod board;
pub mod chart;
pub mod controller;
pub mod engine;
pub mod input;
pub mod keys;
pub mod oracle;
pub mod overlay;
pub mod render;
pub mod review_job;
pub mod setup;
pub mod terminal;
pub mod thinking;

use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossterm::event;

use damas_egdb::oracle::Oracle;
use damas_engine::search::{SearchOptions, Searcher};
use damas_rules::position::Position;
use damas_rules::variant::Variant;

use controller::{Controller, Effect};
use engine::{EngineEvent, EngineThread};
pub use oracle::{verdict, Verdict};
pub use setup::{default_level, Player, Players};

/// How a UI session starts.
pub struct Config {
    /// Start position.
    pub start: Position,
    /// Who plays which side.
    pub players: Players,
    /// Engine thinking time or depth per move (without a clock).
    pub level: damas_engine::time::TimeControl,
    /// Engine playing strength.
    pub strength: damas_engine::level::Strength,
    /// Game clock for both sides, if any: a [`damas_engine::time::TimeControl::Clock`]
    /// for the whole game (`play --clock`).
    pub clock: Option<damas_engine::time::TimeControl>,
    /// The rules the game starts under (a loaded PDN's `GameType` may change them).
    pub variant: Variant,
    /// The engine's search options under the rules of a variant: those of
    /// [`Config::variant`] at first, another's when a game of other rules is loaded.
    pub search: Box<dyn Fn(Variant) -> SearchOptions>,
    /// The engine for [`Config::variant`], built by the caller so that a table too
    /// large is its error, before the game's screen.
    pub searcher: Searcher,
    /// Endgame-database verdicts, when available.
    pub oracle: Option<Arc<dyn Oracle>>,
    /// A message to show first (e.g. about ignored options).
    pub greeting: Option<String>,
    /// Draw with colours (`false` when `NO_COLOR` is set).
    pub colour: bool,
    /// The engine plays its opening moves from the embedded book.
    pub book: bool,
    /// Start from this FMJD ballot instead of `start`.
    pub ballot: Option<crate::matches::Opening>,
    /// Open on the analysis board showing this many lines.
    pub analyze: Option<usize>,
}

/// How a UI session ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Exit {
    /// The user quit (`q`).
    Quit,
    /// Ctrl-C: the program should exit with status 130.
    Interrupted,
}

/// Run the game in the terminal until the user quits.
pub fn run(config: Config) -> io::Result<Exit> {
    let mut controller =
        Controller::new(config.variant, config.start, config.players, config.level);
    controller.set_strength(config.strength);
    controller.set_clock(config.clock);
    if let Some(b) = &config.ballot {
        controller.start_ballot(b);
    }
    if let Some(lines) = config.analyze {
        controller.toggle_analysis(lines);
    }
    if let Some(o) = config.oracle {
        controller.set_oracle(o);
    }
    if let Some(g) = config.greeting {
        controller.notify(g);
    }
    let mut engine = Engine::start(config.search, config.searcher, config.book);
    let outcome = terminal::setup()
        .and_then(|mut guard| event_loop(&mut guard, &mut controller, &mut engine, config.colour));
    // The guard is dropped (terminal restored) before waiting for the engine.
    engine.thread.shutdown(Duration::from_secs(2));
    outcome
}

/// The engine thread and the options it was started with, for the game's rules.
struct Engine {
    options_for: Box<dyn Fn(Variant) -> SearchOptions>,
    book: bool,
    options: SearchOptions,
    thread: EngineThread,
}

impl Engine {
    fn start(
        options_for: Box<dyn Fn(Variant) -> SearchOptions>,
        searcher: Searcher,
        book: bool,
    ) -> Engine {
        let options = searcher.options().clone();
        let thread = Engine::spawn(searcher, book);
        Engine {
            options_for,
            book,
            options,
            thread,
        }
    }

    fn spawn(searcher: Searcher, book: bool) -> EngineThread {
        let variant = searcher.options().variant();
        let book = book.then(|| damas_engine::book::Book::embedded(variant));
        EngineThread::with_book(searcher, book)
    }

    /// Play by the rules of `variant`: a new engine (options, book) when they change.
    fn follow(&mut self, variant: Variant) {
        if self.options.variant() != variant {
            self.options = (self.options_for)(variant);
            let searcher = Searcher::new(self.options.clone());
            let old = std::mem::replace(&mut self.thread, Engine::spawn(searcher, self.book));
            old.shutdown(Duration::from_secs(2));
        }
    }
}

fn event_loop(
    guard: &mut terminal::TerminalGuard,
    controller: &mut Controller,
    engine: &mut Engine,
    colour: bool,
) -> io::Result<Exit> {
    let mut geometry = None;
    let mut review: Option<review_job::ReviewJob> = None;
    let mut repair = keys::KeyRepair::new();
    loop {
        controller.sync_clock_hold();
        controller.tick();
        for effect in controller.take_effects() {
            // A loaded game (or one brought back) may be of other rules.
            engine.follow(controller.variant());
            if let Effect::Review { start, moves } = effect {
                review = Some(review_job::ReviewJob::spawn(
                    engine.options.clone(),
                    start,
                    moves,
                ));
                continue;
            }
            if let Some(exit) = apply(effect, controller, &mut engine.thread) {
                return Ok(exit);
            }
        }
        engine.follow(controller.variant());
        guard
            .terminal
            .draw(|frame| geometry = Some(render::draw(frame, controller, colour)))?;
        // Short polls keep the clocks and the engine's reports fresh.
        if event::poll(Duration::from_millis(100))? {
            let ev = event::read()?;
            // Keys go through the repair of split escape sequences first.
            let events: Vec<event::Event> = match ev {
                event::Event::Key(k) => repair
                    .feed(k, Instant::now())
                    .into_iter()
                    .map(event::Event::Key)
                    .collect(),
                other => vec![other],
            };
            for ev in events {
                let mode = controller.input_mode();
                if let Some(action) = input::map_event(&ev, mode, geometry.as_ref()) {
                    controller.handle(action);
                }
            }
        } else if let Some(k) = repair.flush(Instant::now()) {
            let mode = controller.input_mode();
            if let Some(action) = input::map_event(&event::Event::Key(k), mode, None) {
                controller.handle(action);
            }
        }
        while let Some(ev) = engine.thread.try_event() {
            match ev {
                EngineEvent::Info { id, info } => controller.on_engine_info(id, &info),
                EngineEvent::Done { id, result, source } => {
                    controller.on_engine_thought(id, &result, source)
                }
            }
        }
        while let Some(ev) = review.as_ref().and_then(|r| r.try_event()) {
            match ev {
                review_job::ReviewEvent::Progress(done, total) => {
                    controller.on_review_progress(done, total)
                }
                review_job::ReviewEvent::Done(r) => {
                    controller.on_review_done(r);
                    review = None;
                }
            }
        }
    }
}

/// Carry out one effect; `Some` means leave.
fn apply(effect: Effect, controller: &mut Controller, engine: &mut EngineThread) -> Option<Exit> {
    match effect {
        Effect::Search(req) => engine.search(req),
        Effect::Stop => engine.stop(),
        Effect::Quit => return Some(Exit::Quit),
        Effect::Interrupt => return Some(Exit::Interrupted),
        // Started by the event loop, which owns the review thread.
        Effect::Review { .. } => {}
        Effect::Copy(text) => {
            // The FEN is also on the message line, for terminals without OSC 52.
            let _ = terminal::copy_to_clipboard(&text);
        }
        Effect::Save { path, text } => {
            match damas_rules::atomic_file::write_atomic(&path, text.as_bytes()) {
                Ok(()) => controller.on_saved(&path),
                Err(e) => controller.complain(format!("Cannot save {}: {e}", path.display())),
            }
        }
        Effect::Load(path) => match std::fs::read_to_string(&path) {
            Ok(text) => {
                if let Err(e) = controller.load_pdn(&text) {
                    controller.complain(format!("Cannot load {}: {e}", path.display()));
                } else {
                    engine.new_game();
                }
            }
            Err(e) => controller.complain(format!("Cannot read {}: {e}", path.display())),
        },
    }
    None
}
