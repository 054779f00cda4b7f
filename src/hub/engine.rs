//! The Hub engine loop: reads commands line by line, keeps the position and the
//! settings, and runs each search on a background thread so that `stop`, `ping` and
//! `ponder-hit` are answered while it thinks.

use std::io::{BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::movegen::legal_moves;
use crate::position::Position;
use crate::score::Score;
use crate::search::{Info, SearchOptions, SearchResult, Searcher, Techniques};

use super::numbering::MoveNumbering;
use super::protocol::{parse_command, quote, Command, GoMode, Level};
use super::time::Budget;

/// Engine settings, each a Hub `param`.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Transposition table size as `2^tt_bits` entries.
    pub tt_bits: u32,
    /// Search techniques.
    pub techniques: Techniques,
    /// Endgame database directory (empty: none).
    pub egdb_dir: PathBuf,
    /// Numbering of squares in moves.
    pub numbering: MoveNumbering,
}

impl Default for Settings {
    fn default() -> Self {
        let o = SearchOptions::default();
        Settings {
            tt_bits: o.tt_bits,
            techniques: o.techniques,
            egdb_dir: PathBuf::new(),
            numbering: MoveNumbering::default(),
        }
    }
}

impl Settings {
    fn search_options(&self) -> SearchOptions {
        SearchOptions {
            techniques: self.techniques,
            tt_bits: self.tt_bits,
            ..SearchOptions::default()
        }
    }
}

/// The engine's output: whole lines, flushed at once, shared with the search thread.
#[derive(Clone)]
struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed output cannot be reported anywhere; the engine ends when stdin does.
        let _ = writeln!(w, "{text}").and_then(|_| w.flush());
    }
}

/// Shared between the command loop and a running search.
struct Control {
    /// Ends the search (set by `stop`, the deadline or the soft time check).
    stop: AtomicBool,
    /// Ponder and analyze: hold `done` back until `stop` or `ponder-hit`.
    hold: AtomicBool,
    /// When the clock started and what may be spent.
    timing: Mutex<(Instant, Budget)>,
    /// The search thread is done.
    finished: AtomicBool,
}

impl Control {
    fn timing(&self) -> (Instant, Budget) {
        *self.timing.lock().unwrap_or_else(|e| e.into_inner())
    }
}

struct Running {
    control: Arc<Control>,
    handle: JoinHandle<Searcher>,
    mode: GoMode,
}

/// The score in men as Hub clients read it: proven results as ±(100 − plies/100), the
/// convention of Scan that pydraughts decodes into "win in N moves".
fn hub_score(score: Score) -> String {
    match score.plies() {
        Some(p) => {
            let v = (10_000 - p.min(9_000) as i32) as f64 / 100.0;
            format!("{:.2}", if score.is_win() { v } else { -v })
        }
        None => format!("{:.2}", score.as_men()),
    }
}

fn pv_string(pos: &Position, pv: &[crate::moves::Move], numbering: MoveNumbering) -> String {
    let mut p = *pos;
    let mut words = Vec::new();
    for &m in pv {
        if !legal_moves(&p).contains(&m) {
            break;
        }
        words.push(numbering.format(&p, m));
        p = p.play(m);
    }
    words.join(" ")
}

fn info_line(pos: &Position, info: &Info, numbering: MoveNumbering) -> String {
    let nodes = info.stats.nodes + info.stats.qs_nodes;
    format!(
        "info depth={} score={} nodes={} time={:.3} nps={} pv=\"{}\"",
        info.depth,
        hub_score(info.score),
        nodes,
        info.stats.time.as_secs_f64(),
        info.stats.nps(),
        pv_string(pos, &info.pv, numbering)
    )
}

fn done_line(pos: &Position, result: &SearchResult, numbering: MoveNumbering) -> String {
    let Some(best) = result.best else {
        return "done".to_string();
    };
    let mut line = format!("done move={}", numbering.format(pos, best));
    if result.pv.first() == Some(&best) {
        if let Some(&reply) = result.pv.get(1) {
            let next = pos.play(best);
            if legal_moves(&next).contains(&reply) {
                line.push_str(&format!(" ponder={}", numbering.format(&next, reply)));
            }
        }
    }
    line
}

/// The Hub engine state.
pub struct HubEngine {
    out: Output,
    settings: Settings,
    /// `None` while a search owns it or when settings changed.
    searcher: Option<Searcher>,
    running: Option<Running>,
    pos: Position,
    history: Vec<Position>,
    level: Level,
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
            running: None,
            pos: Position::start(),
            history: Vec::new(),
            level: Level::MoveTime(Duration::from_secs(1)),
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
            r.control.hold.store(false, Ordering::SeqCst);
            r.control.stop.store(true, Ordering::SeqCst);
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
        let s = &self.settings;
        let lines = [
            format!(
                "id name=damas version={} author=\"damas authors\" country=Brazil",
                env!("CARGO_PKG_VERSION")
            ),
            "param name=variant value=brazilian type=enum values=\"brazilian\"".to_string(),
            format!(
                "param name=tt-bits value={} type=int min=10 max=30",
                s.tt_bits
            ),
            format!(
                "param name=techniques value={} type=string",
                quote(&s.techniques.to_string())
            ),
            format!(
                "param name=egdb-dir value={} type=string",
                quote(&s.egdb_dir.display().to_string())
            ),
            format!(
                "param name=move-numbering value={} type=enum values=\"standard rows-reversed\"",
                s.numbering
            ),
            "wait".to_string(),
        ];
        for l in lines {
            self.out.line(&l);
        }
    }

    fn set_param(&mut self, name: &str, value: &str) {
        match name {
            "variant" if value != "brazilian" => {
                self.error(format!("unsupported variant {value:?} (only brazilian)"))
            }
            "tt-bits" => match value.parse::<u32>() {
                Ok(b) if (10..=30).contains(&b) => {
                    self.settings.tt_bits = b;
                    self.searcher = None;
                }
                _ => self.error(format!(
                    "tt-bits must be a whole number from 10 to 30, not {value:?}"
                )),
            },
            "techniques" => match value.parse::<Techniques>() {
                Ok(t) => {
                    self.settings.techniques = t;
                    self.searcher = None;
                }
                Err(e) => self.error(e),
            },
            // The directory is kept for the endgame-database search technique; an
            // empty value means none.
            "egdb-dir" if !value.is_empty() && !std::path::Path::new(value).is_dir() => {
                self.error(format!("egdb-dir {value:?} is not a directory"))
            }
            "egdb-dir" => self.settings.egdb_dir = PathBuf::from(value),
            "move-numbering" => match value.parse() {
                Ok(n) => self.settings.numbering = n,
                Err(e) => self.error(e),
            },
            _ => {}
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
                    self.error(format!("move {} of pos: {e}", i + 1));
                    return;
                }
            }
        }
        self.pos = pos;
        self.history = history;
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
        let budget = match mode {
            GoMode::Think => {
                let mut b = Budget::for_level(&self.level);
                // The searcher's own clock backs up the deadline watcher.
                b.limits.time = b.hard;
                b
            }
            // Depth and node levels still bound a ponder search; time starts at ponder-hit.
            GoMode::Ponder => Budget {
                limits: Budget::for_level(&self.level).limits,
                ..Budget::default()
            },
            GoMode::Analyze => Budget::default(),
        };
        let control = Arc::new(Control {
            stop: AtomicBool::new(false),
            hold: AtomicBool::new(mode != GoMode::Think),
            timing: Mutex::new((Instant::now(), budget)),
            finished: AtomicBool::new(false),
        });
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(self.settings.search_options()));
        let (pos, history, out, ctl) = (
            self.pos,
            self.history.clone(),
            self.out.clone(),
            control.clone(),
        );
        let handle = thread::spawn(move || {
            let timer = {
                let ctl = ctl.clone();
                thread::spawn(move || watch_deadline(&ctl))
            };
            let mut on_info = |info: &Info| {
                out.line(&info_line(&pos, info, numbering));
                let (start, budget) = ctl.timing();
                if !ctl.hold.load(Ordering::SeqCst) && !budget.another_iteration(start.elapsed()) {
                    ctl.stop.store(true, Ordering::SeqCst);
                }
            };
            let searched = panic::catch_unwind(AssertUnwindSafe(|| {
                searcher.search(&pos, &history, &budget.limits, &ctl.stop, &mut on_info)
            }));
            let result = match searched {
                Ok(r) => r,
                Err(_) => {
                    // The GUI still needs a move: report, play the first legal one,
                    // and start over with fresh tables.
                    out.line(
                        "error message=\"internal search error; playing the first legal move\"",
                    );
                    searcher = Searcher::new(searcher.options().clone());
                    let best = legal_moves(&pos).first().copied();
                    SearchResult {
                        best,
                        score: Score::DRAW,
                        depth: 0,
                        pv: best.into_iter().collect(),
                        stats: Default::default(),
                    }
                }
            };
            while ctl.hold.load(Ordering::SeqCst) && !ctl.stop.load(Ordering::SeqCst) {
                thread::sleep(Duration::from_millis(2));
            }
            ctl.finished.store(true, Ordering::SeqCst);
            let _ = timer.join();
            out.line(&done_line(&pos, &result, numbering));
            searcher
        });
        self.running = Some(Running {
            control,
            handle,
            mode,
        });
    }

    fn ponder_hit(&mut self) {
        let budget = Budget::for_level(&self.level);
        if let Some(r) = self.running.as_mut().filter(|r| r.mode == GoMode::Ponder) {
            *r.control.timing.lock().unwrap_or_else(|e| e.into_inner()) = (Instant::now(), budget);
            r.mode = GoMode::Think;
            r.control.hold.store(false, Ordering::SeqCst);
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
            Command::Hub => self.announce(),
            Command::Init => {
                if self.running.is_none() && self.searcher.is_none() {
                    self.searcher = Some(Searcher::new(self.settings.search_options()));
                }
                self.out.line("ready");
            }
            Command::SetParam { name, value } => self.set_param(&name, &value),
            Command::Pos { pos, moves } => {
                self.finish_search();
                self.set_position(pos, &moves);
            }
            Command::Level(l) => self.level = l,
            Command::Go(mode) => {
                self.finish_search();
                self.go(mode);
            }
            Command::PonderHit => self.ponder_hit(),
            Command::Stop => self.finish_search(),
            Command::NewGame => {
                self.finish_search();
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.pos = Position::start();
                self.history.clear();
            }
            Command::Ping => self.out.line("pong"),
            Command::Quit => {
                self.finish_search();
                return Flow::Quit;
            }
            Command::Unknown(_) => {}
        }
        Flow::Continue
    }

    /// Read commands until `quit` or the end of the input; a search still running is
    /// stopped (its `done` is printed).
    pub fn run(&mut self, input: impl BufRead) {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if self.handle_line(&line) == Flow::Quit {
                break;
            }
        }
        self.finish_search();
    }
}

/// Set the stop flag when the hard deadline passes; ends with the search.
fn watch_deadline(ctl: &Control) {
    while !ctl.finished.load(Ordering::SeqCst) {
        let (start, budget) = ctl.timing();
        let held = ctl.hold.load(Ordering::SeqCst);
        if !held && budget.hard.is_some_and(|h| start.elapsed() >= h) {
            ctl.stop.store(true, Ordering::SeqCst);
        }
        thread::sleep(Duration::from_millis(2));
    }
}

/// Run the Hub protocol on stdin/stdout.
pub fn run_stdio() {
    let stdin = std::io::stdin();
    let mut engine = HubEngine::new(Box::new(std::io::stdout()));
    engine.run(stdin.lock());
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn parameters_are_checked_and_stored() {
        let dir = std::env::temp_dir();
        let (engine, out) = session(&[
            "set-param name=tt-bits value=12",
            "set-param name=tt-bits value=99",
            "set-param name=techniques value=pvs+tt",
            "set-param name=techniques value=warp",
            "set-param name=variant value=brazilian",
            "set-param name=variant value=russian",
            &format!("set-param name=egdb-dir value=\"{}\"", dir.display()),
            "set-param name=egdb-dir value=/no/such/dir",
            "set-param name=move-numbering value=rows-reversed",
            "set-param name=colour value=green",
        ]);
        let s = engine.settings();
        assert_eq!(s.tt_bits, 12);
        assert_eq!(s.techniques, "pvs+tt".parse().unwrap());
        assert_eq!(s.egdb_dir, dir);
        assert_eq!(s.numbering, MoveNumbering::RowsReversed);
        let errors: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("error message="))
            .collect();
        assert_eq!(errors.len(), 4, "{out:?}");
        assert!(
            errors[0].contains("tt-bits")
                && errors[2].contains("russian")
                && errors[3].contains("/no/such/dir"),
            "{errors:?}"
        );
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
    fn scores_follow_the_hub_convention() {
        assert_eq!(hub_score(Score::centi(-150)), "-1.50");
        assert_eq!(hub_score(Score::win_in(5)), "99.95");
        assert_eq!(hub_score(Score::loss_in(4)), "-99.96");
    }
}
