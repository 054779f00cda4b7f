//! The Hub engine loop: reads commands line by line, keeps the position and the
//! settings, and runs each search on a background thread so that `stop`, `ping` and
//! `ponder-hit` are answered while it thinks.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::book::{self, Book};
use crate::egdb::Egdb;
use crate::movegen::legal_moves;
use crate::notation::MoveError;
use crate::position::Position;
use crate::search::Searcher;

use super::protocol::{parse_command, quote, GoMode, HubCommand, HubLevel};
use super::settings::Settings;
use super::worker::{self, Control, Job, Output};
use crate::clock::MoveBudget;

struct Running {
    control: Arc<Control>,
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
    level: HubLevel,
    /// The opening book (the embedded one).
    book: Book,
    /// Chooses among book moves.
    rng: ChaCha8Rng,
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
            level: HubLevel::MoveTime(Duration::from_secs(1)),
            book: Book::embedded(),
            rng: ChaCha8Rng::from_entropy(),
        }
    }

    /// Seed the choice among book moves (tests use it to repeat a game).
    pub fn seed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// Use the databases in `dir` (as `set-param name=egdb-dir` does, but silently:
    /// a directory that does not open is left unused).
    pub fn use_egdb(&mut self, dir: &std::path::Path) {
        if let Ok(db) = Egdb::open(dir) {
            self.settings.egdb_dir = dir.to_path_buf();
            self.settings.egdb = Some(Arc::new(db));
            self.stale = true;
        }
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
        match self.settings.set(name, value) {
            Ok(needs_searcher) => self.stale |= needs_searcher,
            Err(message) => self.error(message),
        }
    }

    /// Describe a rejected move in Hub numeric notation (in the current
    /// `move-numbering`), never in board letters.
    fn hub_move_error(&self, pos: &Position, text: &str, e: &MoveError) -> String {
        let numbering = self.settings.numbering;
        let legal: Vec<String> = legal_moves(pos)
            .iter()
            .map(|&m| numbering.format(pos, m))
            .collect();
        let list = if legal.is_empty() {
            "none".to_string()
        } else {
            legal.join(" ")
        };
        match e {
            MoveError::Syntax { .. } => format!("cannot read move {text:?}; legal moves: {list}"),
            MoveError::Illegal { .. } => format!("illegal move {text:?}; legal moves: {list}"),
            MoveError::Ambiguous { .. } => {
                format!("ambiguous move {text:?}; give every square of the capture: {list}")
            }
        }
    }

    fn set_position(&mut self, start: Position, moves: &[String]) {
        let mut pos = start;
        let mut history = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            match self.settings.numbering.parse(&pos, text) {
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

    /// Drop a searcher built with outdated settings.
    fn refresh_searcher(&mut self) {
        if self.stale && self.running.is_none() {
            self.searcher = None;
            self.stale = false;
        }
    }

    fn go(&mut self, mode: GoMode) {
        let legal = legal_moves(&self.pos);
        let numbering = self.settings.numbering;
        if mode == GoMode::Think && legal.len() <= 1 {
            // Nothing to think about: answer at once.
            match legal.first() {
                Some(&m) => self
                    .out
                    .line(&format!("done move={}", numbering.format(&self.pos, m))),
                None => self.out.line("done"),
            }
            return;
        }
        if mode == GoMode::Think && self.settings.book {
            if let Some(m) = book::choose(&self.book, &self.pos, &mut self.rng) {
                self.out
                    .line(&format!("done move={}", numbering.format(&self.pos, m)));
                return;
            }
        }
        let budget = match mode {
            GoMode::Think => {
                let mut b = MoveBudget::for_level(&self.level);
                // The searcher's own clock backs up the deadline watcher.
                b.limits = b.search_limits();
                b
            }
            // Depth and node levels still bound a ponder search; time starts at ponder-hit.
            GoMode::Ponder => MoveBudget {
                limits: MoveBudget::for_level(&self.level).limits,
                ..MoveBudget::default()
            },
            GoMode::Analyze => MoveBudget::default(),
        };
        let control = Arc::new(Control::new(mode != GoMode::Think, budget));
        self.refresh_searcher();
        let searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(self.settings.search_options()));
        let job = Job {
            pos: self.pos,
            history: self.history.clone(),
            budget,
            numbering,
            strength: self.settings.strength,
        };
        let handle = worker::spawn(searcher, job, control.clone(), self.out.clone());
        self.running = Some(Running {
            control,
            handle,
            mode,
        });
    }

    fn ponder_hit(&mut self) {
        let budget = MoveBudget::for_level(&self.level);
        if let Some(r) = self.running.as_mut().filter(|r| r.mode == GoMode::Ponder) {
            r.mode = GoMode::Think;
            r.control.start_clock(budget);
        }
    }

    /// Handle one line from the GUI.
    pub fn handle_line(&mut self, line: &str) -> Flow {
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
                self.refresh_searcher();
                if self.running.is_none() && self.searcher.is_none() {
                    self.searcher = Some(Searcher::new(self.settings.search_options()));
                }
                self.out.line("ready");
            }
            HubCommand::SetParam { name, value } => self.set_param(&name, &value),
            HubCommand::Pos { pos, moves } => {
                self.finish_search();
                self.set_position(pos, &moves);
            }
            HubCommand::HubLevel(l) => self.level = l,
            HubCommand::Go(mode) => {
                self.finish_search();
                self.go(mode);
            }
            HubCommand::PonderHit => self.ponder_hit(),
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
mod tests {
    use super::*;
    use crate::eval::EvalName;
    use crate::hub::MoveNumbering;
    use crate::level::Strength;
    use crate::search::TableKind;

    /// An output buffer the test can read while the engine owns a writer to it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session(lines: &[&str]) -> (HubEngine, Vec<String>) {
        let buf = Shared::default();
        let mut engine = HubEngine::new(Box::new(buf.clone()));
        engine.run(lines.join("\n").as_bytes());
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        (engine, text.lines().map(str::to_string).collect())
    }

    /// Input that, like a GUI, waits for the engine's `done` before it ends: at end
    /// of input the engine stops a running search, so a test that wants the search's
    /// own output must not end the input first.
    struct UntilDone {
        input: std::io::Cursor<Vec<u8>>,
        out: Shared,
    }

    impl std::io::Read for UntilDone {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.input.read(buf)?;
            if n == 0 {
                let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
                while !String::from_utf8_lossy(&self.out.0.lock().unwrap()).contains("done")
                    && std::time::Instant::now() < deadline
                {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            }
            Ok(n)
        }
    }

    /// [`session`] whose input ends only after the engine answered `done`.
    fn session_until_done(lines: &[&str]) -> (HubEngine, Vec<String>) {
        let buf = Shared::default();
        let mut engine = HubEngine::new(Box::new(buf.clone()));
        let input = UntilDone {
            input: std::io::Cursor::new(format!("{}\n", lines.join("\n")).into_bytes()),
            out: buf.clone(),
        };
        engine.run(std::io::BufReader::new(input));
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        (engine, text.lines().map(str::to_string).collect())
    }

    #[test]
    fn hash_and_threads_parameters_choose_the_table_and_threads() {
        let start = super::super::protocol::position_string(&Position::start());
        let (engine, out) = session(&[
            "hub",
            "set-param name=tt-bits value=12",
            "set-param name=hash value=8",
            "set-param name=hash value=0",
            "set-param name=threads value=2",
            "set-param name=threads value=many",
            // The start position is in the book: search it.
            "set-param name=book value=false",
            &format!("pos pos={start}"),
            "level depth=4",
            "go think",
            "stop",
        ]);
        assert!(
            out.iter()
                .any(|l| l.starts_with("param name=hash value=64 ")),
            "{out:?}"
        );
        assert!(
            out.iter()
                .any(|l| l.starts_with("param name=threads value=1 ")),
            "{out:?}"
        );
        let errors: Vec<&String> = out.iter().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 2, "{out:?}");
        assert!(
            errors[0].contains("hash") && errors[1].contains("threads"),
            "{out:?}"
        );
        let s = engine.searcher.as_ref().expect("searcher reclaimed");
        // `hash` after `tt-bits` switches back to the replacing table.
        assert_eq!(s.options().table, TableKind::Replacing);
        assert_eq!((s.options().hash_mb, s.options().threads), (8, 2));
        let done = out
            .iter()
            .find(|l| l.starts_with("done move="))
            .expect("a move");
        let mv = done["done move=".len()..]
            .split_whitespace()
            .next()
            .unwrap();
        let legal: Vec<String> = legal_moves(&Position::start())
            .iter()
            .map(|&m| MoveNumbering::Standard.format(&Position::start(), m))
            .collect();
        assert!(legal.iter().any(|l| l == mv), "{mv} not in {legal:?}");
        let (engine, _) = session(&["set-param name=tt-bits value=12"]);
        assert_eq!(engine.settings().search_options().table, TableKind::Thesis);
    }

    #[test]
    fn parameters_are_checked_and_stored() {
        let db = tempfile::tempdir().unwrap();
        crate::egdb::build(db.path(), 2, &Default::default(), |_| {}).unwrap();
        let empty = tempfile::tempdir().unwrap();
        let (engine, out) = session(&[
            "set-param name=tt-bits value=12",
            "set-param name=tt-bits value=99",
            "set-param name=techniques value=pvs+tt",
            "set-param name=techniques value=warp",
            "set-param name=variant value=brazilian",
            "set-param name=variant value=russian",
            &format!("set-param name=egdb-dir value=\"{}\"", db.path().display()),
            "set-param name=egdb-dir value=/no/such/dir",
            &format!("set-param name=egdb-dir value={}", empty.path().display()),
            "set-param name=move-numbering value=rows-reversed",
            "set-param name=colour value=green",
        ]);
        let s = engine.settings();
        assert_eq!(s.tt_bits, 12);
        assert_eq!(s.techniques, "pvs+tt".parse().unwrap());
        assert_eq!(s.egdb_dir, db.path());
        assert_eq!(s.egdb.as_ref().map(|d| d.max_pieces()), Some(2));
        assert_eq!(s.numbering, MoveNumbering::RowsReversed);
        let errors: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("error message="))
            .collect();
        assert_eq!(errors.len(), 5, "{out:?}");
        assert!(
            errors[0].contains("tt-bits")
                && errors[2].contains("russian")
                && errors[3].contains("/no/such/dir"),
            "{errors:?}"
        );
    }

    #[test]
    fn eval_parameter_is_advertised_checked_and_used() {
        let (engine, out) = session(&[
            "hub",
            "set-param name=eval value=material",
            "set-param name=eval value=neural",
        ]);
        assert!(
            out.iter()
                .any(|l| l == "param name=eval value=trained type=enum values=\"trained material\""),
            "{out:?}"
        );
        assert_eq!(engine.settings().eval, EvalName::Material);
        assert_eq!(
            engine.settings().search_options().evaluation.name(),
            "material"
        );
        let errors: Vec<&String> = out.iter().filter(|l| l.starts_with("error")).collect();
        assert!(errors.len() == 1 && errors[0].contains("neural"), "{out:?}");
        let (engine, _) = session(&[]);
        assert_eq!(
            engine.settings().search_options().evaluation.name(),
            "trained"
        );
    }

    #[test]
    fn strength_parameter_is_advertised_checked_and_plays() {
        let (engine, out) = session(&[
            "hub",
            "set-param name=strength value=beginner",
            "set-param name=strength value=11",
            "set-param name=book value=false",
            "level depth=3",
            "go think",
        ]);
        assert!(
            out.iter()
                .any(|l| l == "param name=strength value=10 type=int min=1 max=10"),
            "{out:?}"
        );
        assert_eq!(engine.settings().strength, Strength::MIN);
        let errors: Vec<&String> = out.iter().filter(|l| l.starts_with("error")).collect();
        assert!(
            errors.len() == 1 && errors[0].contains("1 to 10"),
            "{errors:?}"
        );
        // `run` waits for the search at end of input: a move was played.
        assert!(out.iter().any(|l| l.starts_with("done move=")), "{out:?}");
    }

    #[test]
    fn book_parameter_switches_the_opening_book() {
        let start = super::super::protocol::position_string(&Position::start());
        let think = [
            &format!("pos pos={start}") as &str,
            "level depth=3",
            "go think",
        ];
        let (engine, on) = session(&[&["hub"][..], &think[..]].concat());
        assert!(engine.settings().book);
        assert!(
            on.iter()
                .any(|l| l == "param name=book value=true type=bool"),
            "{on:?}"
        );
        // From the book: no search, a move the book holds for the start position.
        assert!(!on.iter().any(|l| l.starts_with("info ")), "{on:?}");
        let done = on.last().unwrap();
        let book = Book::embedded();
        let numbering = MoveNumbering::default();
        let in_book: Vec<String> = book
            .moves(&Position::start())
            .unwrap()
            .iter()
            .map(|m| format!("done move={}", numbering.format(&Position::start(), m.mv)))
            .collect();
        assert!(in_book.contains(done), "{done} not in {in_book:?}");

        let (engine, off) =
            session_until_done(&[&["set-param name=book value=false"][..], &think[..]].concat());
        assert!(!engine.settings().book);
        assert!(
            off.iter().any(|l| l.starts_with("info depth=3 ")),
            "{off:?}"
        );
        assert!(off.last().unwrap().starts_with("done move="), "{off:?}");

        let (_, bad) = session(&["set-param name=book value=maybe"]);
        assert!(
            bad[0].starts_with("error message=\"book must be"),
            "{bad:?}"
        );
    }

    #[test]
    fn invalid_utf8_is_ignored_and_crlf_accepted() {
        let buf = Shared::default();
        let mut engine = HubEngine::new(Box::new(buf.clone()));
        engine.run(&b"\xff\xfe garbage\r\nping\r\n"[..]);
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text, "pong\n");
    }

    #[test]
    fn illegal_move_keeps_the_previous_position() {
        let start = super::super::protocol::position_string(&Position::start());
        let (engine, out) = session(&[
            &format!("pos pos={start} moves=\"22-18\""),
            &format!("pos pos={start} moves=\"22-18 18-14\""),
        ]);
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(
            out[0].starts_with("error message=\"move 2 of pos: illegal move"),
            "{out:?}"
        );
        assert_eq!(engine.pos.side_to_move(), crate::position::Color::Black);
        assert_eq!(engine.history, vec![Position::start()]);
    }

    #[test]
    fn parameters_sent_after_init_or_during_a_search_reach_the_next_search() {
        let db = tempfile::tempdir().unwrap();
        crate::egdb::build(db.path(), 2, &Default::default(), |_| {}).unwrap();
        let start = super::super::protocol::position_string(&Position::start());
        // pydraughts' configure(): init first, then set-param.
        let (engine, _) = session(&[
            "init",
            &format!("set-param name=egdb-dir value=\"{}\"", db.path().display()),
            "set-param name=tt-bits value=12",
            "set-param name=book value=false",
            &format!("pos pos={start}"),
            "level depth=1",
            "go think",
            "stop",
        ]);
        let s = engine.searcher.as_ref().expect("searcher reclaimed");
        assert!(s.options().oracle.is_some(), "egdb-dir ignored after init");
        assert!(s.options().techniques.egdb);
        assert_eq!(s.options().tt_bits, 12);

        // A change sent while a search runs is kept for the next one.
        let (engine, _) = session(&[
            &format!("pos pos={start}"),
            "go analyze",
            "set-param name=tt-bits value=11",
            "stop",
            "set-param name=book value=false",
            "level depth=1",
            "go think",
            "stop",
        ]);
        let s = engine.searcher.as_ref().expect("searcher reclaimed");
        assert_eq!(s.options().tt_bits, 11, "change during a search lost");
    }

    #[test]
    fn illegal_move_is_reported_in_hub_numbering() {
        let start = super::super::protocol::position_string(&Position::start());
        let (_, out) = session(&[
            "set-param name=move-numbering value=rows-reversed",
            &format!("pos pos={start} moves=\"22-17\""),
        ]);
        assert_eq!(out.len(), 1, "{out:?}");
        let e = &out[0];
        assert!(e.contains("illegal move"), "{e}");
        // Legal moves listed as numbers in the requested numbering, no board letters.
        let legal = e.split("legal moves:").nth(1).unwrap();
        assert!(
            !legal.chars().any(|c| c.is_ascii_lowercase() && c != 'x'),
            "{e}"
        );
        let first = legal
            .trim()
            .trim_end_matches('"')
            .split(' ')
            .next()
            .unwrap();
        let m = MoveNumbering::RowsReversed.parse(&Position::start(), first);
        assert!(m.is_ok(), "{e}");
    }
}
