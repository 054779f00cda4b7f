//! The Hub engine loop: reads commands line by line, keeps the position and the
//! settings, and runs each search on a background thread so that `stop`, `ping` and
//! `ponder-hit` are answered while it thinks.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use damas_engine::book;
use damas_engine::search::Searcher;
use damas_engine::think;
use damas_rules::game::Game;
use damas_rules::movegen::legal_moves;
use damas_rules::notation::MoveError;
use damas_rules::position::Position;

use super::protocol::{parse_command, quote, GoMode, HubCommand};
use super::settings::Settings;
use super::worker::{self, Job, Output};
use damas_engine::time::TimeControl;
use damas_engine::time::{Clock, MoveBudget};

struct Running {
    control: Arc<Clock>,
    handle: JoinHandle<Searcher>,
    mode: GoMode,
}

/// The Hub engine state.
pub struct HubEngine {
    out: Output,
    settings: Settings,
    /// `None` while a search owns it or before the first search.
    searcher: Option<Searcher>,
    /// A parameter changed since the searcher was built: the next search (or `init`)
    /// builds a fresh one. A flag rather than dropping the searcher, because a
    /// running search hands its searcher back after the change.
    stale: bool,
    running: Option<Running>,
    pos: Position,
    history: Vec<Position>,
    level: TimeControl,
    /// Chooses among book moves.
    rng: ChaCha8Rng,
    /// What the databases found at start need said (damaged files left out): told
    /// as an `error` line at `init`, when the GUI listens.
    startup_note: Option<String>,
}

/// What the loop should do after a line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was received.
    Quit,
}

impl HubEngine {
    /// An engine writing to `out`, at the start position, thinking one second a move
    /// until told otherwise.
    pub fn new(out: Box<dyn Write + Send>) -> HubEngine {
        HubEngine {
            out: Output(Arc::new(Mutex::new(out))),
            settings: Settings::default(),
            searcher: None,
            stale: false,
            running: None,
            pos: Position::start(),
            history: Vec::new(),
            level: TimeControl::MoveTime(Duration::from_secs(1)),
            rng: ChaCha8Rng::from_entropy(),
            startup_note: None,
        }
    }

    /// Seed the choice among book moves (tests use it to repeat a game).
    pub fn seed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// Use the databases in `dir` (as `set-param name=egdb-dir` does, but quietly:
    /// without databases of the rules played, none are used until `variant` names
    /// rules it holds; damaged files are named at `init`).
    pub fn use_egdb(&mut self, dir: &std::path::Path) {
        let db = super::settings::open_egdb(self.settings.engine.variant, dir).ok();
        self.startup_note = db.as_ref().and_then(super::settings::damaged_note);
        self.settings.egdb_dir = dir.to_path_buf();
        self.settings.egdb = db.map(Arc::new);
        self.stale = true;
    }

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    fn error(&self, message: impl std::fmt::Display) {
        self.out
            .line(&format!("error message={}", quote(&message.to_string())));
    }

    /// Wait for a running search to end (after asking it to stop) and take the
    /// searcher back. Its `done` line is printed by the search thread.
    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop();
            self.reclaim(r);
        }
    }

    fn reclaim(&mut self, r: Running) {
        match r.handle.join() {
            Ok(s) => self.searcher = Some(s),
            // A panicking search lost its tables; a fresh searcher is built on demand.
            Err(_) => self.searcher = None,
        }
    }

    /// Take back the searcher of a search that ended by itself.
    fn reap(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
        {
            if let Some(r) = self.running.take() {
                self.reclaim(r);
            }
        }
    }

    fn announce(&self) {
        for l in self.settings.announcement() {
            self.out.line(&l);
        }
    }

    fn set_param(&mut self, name: &str, value: &str) {
        let before = self.settings.clone();
        match self.settings.apply(name, value) {
            // A new table size is allocated at once, so that one the machine cannot
            // give is refused with the old table kept.
            Ok(applied) if applied.searcher && matches!(name, "hash" | "tt-bits") => {
                match Searcher::try_new(self.settings.search_options()) {
                    Ok(s) if self.running.is_none() => {
                        self.searcher = Some(s);
                        self.stale = false;
                    }
                    Ok(_) => self.stale = true,
                    Err(e) => {
                        self.settings = before;
                        self.error(format!("{name} {value}: {e}; the table is unchanged"));
                    }
                }
            }
            Ok(applied) => {
                self.stale |= applied.searcher;
                if let Some(note) = applied.note {
                    self.error(note);
                }
            }
            Err(message) => self.error(message),
        }
    }

    /// Describe a rejected move in Hub numeric notation (in the current
    /// `move-numbering`), never in board letters.
    fn hub_move_error(&self, pos: &Position, text: &str, e: &MoveError) -> String {
        let (numbering, variant) = (self.settings.numbering, self.settings.engine.variant);
        let legal: Vec<String> = legal_moves(variant, pos)
            .iter()
            .map(|&m| numbering.format(variant, pos, m))
            .collect();
        let list = if legal.is_empty() {
            "none".to_string()
        } else {
            legal.join(" ")
        };
        let hint = numbering
            .other_reading(variant, pos, text)
            .map(|h| format!("; {h}"))
            .unwrap_or_default();
        match e {
            MoveError::Syntax { .. } => format!("cannot read move {text:?}; legal moves: {list}"),
            MoveError::Illegal { .. } => {
                format!(
                    "illegal move {text:?} in the {numbering} numbering{hint}; legal moves: {list}"
                )
            }
            MoveError::Ambiguous { .. } => {
                format!("ambiguous move {text:?}; give every square of the capture: {list}")
            }
        }
    }

    fn set_position(&mut self, start: Position, moves: &[String]) {
        let mut pos = start;
        let mut history = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            match self
                .settings
                .numbering
                .parse(self.settings.engine.variant, &pos, text)
            {
                Ok(m) => {
                    history.push(pos);
                    pos = pos.play(m);
                }
                Err(e) => {
                    let why = self.hub_move_error(&pos, text, &e);
                    self.error(format!("move {} of pos: {why}", i + 1));
                    return;
                }
            }
        }
        self.pos = pos;
        self.history = history;
    }

    /// A searcher for the current settings, or `None` after an `error` line when its
    /// table cannot be allocated.
    fn new_searcher(&self) -> Option<Searcher> {
        Searcher::try_new(self.settings.search_options())
            .map_err(|e| self.error(e))
            .ok()
    }

    /// Drop a searcher built with outdated settings.
    fn refresh_searcher(&mut self) {
        if self.stale && self.running.is_none() {
            self.searcher = None;
            self.stale = false;
        }
    }

    /// Start a search; its clock starts at `arrived`, when the `go` line came.
    fn go(&mut self, mode: GoMode, arrived: Instant) {
        let (numbering, variant) = (self.settings.numbering, self.settings.engine.variant);
        // A finished game: an error line says how it ended, and a bare `done` ends
        // the `go` (in every mode).
        if let Some(result) = Game::new(variant, self.pos).result() {
            self.error(format!("game over: {result}"));
            self.out.line("done");
            return;
        }
        if mode == GoMode::Think {
            // A forced or book move: answer at once, its `info` saying where it came
            // from (no score: no search earned one).
            // The shipped book of the rules played (read once per process).
            let book = (self.settings.engine.book).then(|| book::embedded_book(variant));
            if let Some((m, source)) =
                think::without_search(variant, &self.pos, book, true, &mut self.rng)
            {
                let mv = numbering.format(variant, &self.pos, m);
                let source = match source {
                    think::Source::Book => "book",
                    think::Source::Forced => "forced",
                    think::Source::Search => "search",
                };
                self.out.line(&format!(
                    "info depth=0 nodes=0 pv={} source={source}",
                    quote(&mv)
                ));
                self.out.line(&format!("done move={mv}"));
                return;
            }
        }
        let budget = match mode {
            // The searcher's own clock (the budget's hard deadline) backs up the
            // clock's watch.
            GoMode::Think => self.budget(),
            // Depth and node levels still bound a ponder search; time starts at ponder-hit.
            GoMode::Ponder => self.budget().without_time(),
            GoMode::Analyze => MoveBudget::default(),
        };
        let control = Arc::new(Clock::started_at(budget, arrived, mode != GoMode::Think));
        self.refresh_searcher();
        let Some(searcher) = self.searcher.take().or_else(|| self.new_searcher()) else {
            self.out.line("done");
            return;
        };
        let job = Job {
            pos: self.pos,
            history: self.history.clone(),
            moves: worker::Moves { variant, numbering },
            strength: self.settings.engine.strength,
        };
        let handle = worker::spawn(searcher, job, control.clone(), self.out.clone());
        self.running = Some(Running {
            control,
            handle,
            mode,
        });
    }

    /// One move's budget under the level, the overhead and the time constants of the
    /// settings.
    fn budget(&self) -> MoveBudget {
        let engine = &self.settings.engine;
        MoveBudget::for_level(&self.level, engine.move_overhead, &engine.tuning)
    }

    /// The opponent played the move pondered on: the clock starts at `arrived`.
    fn ponder_hit(&mut self, arrived: Instant) {
        let budget = self.budget();
        if let Some(r) = self.running.as_mut().filter(|r| r.mode == GoMode::Ponder) {
            r.mode = GoMode::Think;
            r.control.start(budget, arrived);
        }
    }

    /// Handle one line from the GUI.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        // Clocks start when the command arrives, not when its search starts.
        let arrived = Instant::now();
        self.reap();
        let cmd = match parse_command(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.error(e);
                return Flow::Continue;
            }
        };
        match cmd {
            HubCommand::Hub => self.announce(),
            HubCommand::Init => {
                if let Some(note) = self.startup_note.take() {
                    self.error(note);
                }
                self.refresh_searcher();
                if self.running.is_none() && self.searcher.is_none() {
                    self.searcher = self.new_searcher();
                }
                self.out.line("ready");
            }
            HubCommand::SetParam { name, value } => self.set_param(&name, &value),
            HubCommand::Pos { pos, moves } => {
                self.finish_search();
                self.set_position(pos, &moves);
            }
            HubCommand::TimeControl(l) => self.level = l,
            HubCommand::Go(mode) => {
                self.finish_search();
                self.go(mode, arrived);
            }
            HubCommand::PonderHit => self.ponder_hit(arrived),
            HubCommand::Stop => self.finish_search(),
            HubCommand::NewGame => {
                self.finish_search();
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.pos = Position::start();
                self.history.clear();
            }
            HubCommand::Ping => self.out.line("pong"),
            HubCommand::Quit => {
                self.finish_search();
                return Flow::Quit;
            }
            HubCommand::Unknown(_) => {}
        }
        Flow::Continue
    }

    /// Read commands until `quit` or the end of the input; a search still running is
    /// stopped (its `done` is printed).
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            // Bytes, not `lines()`: a line that is not UTF-8 is garbage to ignore,
            // not the end of the session.
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&bytes);
            if self.handle_line(line.trim_end_matches(['\n', '\r'])) == Flow::Quit {
                break;
            }
        }
        self.finish_search();
    }
}

/// Run the Hub protocol on stdin/stdout, with the databases of `egdb` (when given
/// and they open) until the GUI sets `egdb-dir`.
pub fn run_stdio(egdb: Option<&std::path::Path>) {
    let stdin = std::io::stdin();
    let mut engine = HubEngine::new(Box::new(std::io::stdout()));
    if let Some(dir) = egdb {
        engine.use_egdb(dir);
    }
    engine.run(stdin.lock());
}

#[cfg(test)]
mod tests;
