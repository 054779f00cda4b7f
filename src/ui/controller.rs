//! The game controller: everything the terminal UI knows and decides, without a
//! terminal. Actions come in ([`Controller::handle`]), engine reports come in
//! ([`Controller::on_engine_info`], [`Controller::on_engine_done`]), and requests for
//! the outside world go out as [`Effect`]s (start or stop a search, save a file, …).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::bitboard::Bitboard;
use crate::fen::{parse_fen, to_fen};
use crate::game::{Game, GameResult};
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::notation::{capture_paths, move_to_string, parse_move, MoveError, Notation};
use crate::pdn::{read_games, write_game, PdnGame};
use crate::position::{Color, Position};
use crate::search::{Info, Limits, SearchResult};
use crate::square::Square;

use super::input::{Action, InputMode};
use super::oracle::{Oracle, Verdict};
use super::setup::{Level, Player, Players};
use super::thinking::Thinking;

/// Why a search was asked for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Purpose {
    /// The engine plays the result.
    Move,
    /// The result is shown as a hint.
    Hint,
}

/// A search for the engine thread.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchRequest {
    /// Identifies the reports of this search.
    pub id: u64,
    /// What the result is for.
    pub purpose: Purpose,
    /// The position to search.
    pub position: Position,
    /// Earlier positions of the game, oldest first.
    pub history: Vec<Position>,
    /// How long to search.
    pub limits: Limits,
}

/// Something the controller needs done outside.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Start this search (no other search is running).
    Search(SearchRequest),
    /// Stop the running search; its result still arrives.
    Stop,
    /// Put this text on the clipboard.
    Copy(String),
    /// Write `text` to `path`.
    Save {
        /// Where.
        path: PathBuf,
        /// The PDN text.
        text: String,
    },
    /// Read `path` and hand it to [`Controller::load_pdn`].
    Load(PathBuf),
    /// Leave the program.
    Quit,
}

/// What the open prompt is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PromptKind {
    /// A move in any notation.
    Move,
    /// A FEN to set up.
    Fen,
    /// A file name to save the game to.
    Save,
    /// A file name to load a game from.
    Load,
}

impl PromptKind {
    /// The label shown before the text.
    pub fn label(self) -> &'static str {
        match self {
            PromptKind::Move => "move",
            PromptKind::Fen => "FEN",
            PromptKind::Save => "save PDN to",
            PromptKind::Load => "load PDN from",
        }
    }
}

/// An open text prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// What it is for.
    pub kind: PromptKind,
    /// What was typed.
    pub text: String,
}

/// Choosing between moves with the same start and end but different captured pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The candidates.
    pub candidates: Vec<Move>,
    /// The one shown.
    pub index: usize,
}

/// Whether a message is news or a complaint.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MessageKind {
    /// Information.
    Info,
    /// Something was refused.
    Error,
}

/// The game controller state.
pub struct Controller {
    game: Game,
    players: Players,
    level: Level,
    cursor: (u8, u8),
    selected: Option<Square>,
    choice: Option<Choice>,
    prompt: Option<Prompt>,
    help: bool,
    flipped: bool,
    paused: bool,
    message: Option<(String, MessageKind)>,
    thinking: Option<Thinking>,
    hint: Option<Move>,
    searching: Option<(u64, Purpose)>,
    next_id: u64,
    effects: Vec<Effect>,
    clocks: [Duration; 2],
    turn_start: Instant,
    oracle: Option<Box<dyn Oracle>>,
    save_path: String,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl Controller {
    /// A controller for a game from `start` with these players and level.
    pub fn new(start: Position, players: Players, level: Level) -> Controller {
        let mut c = Controller {
            game: Game::new(start),
            players,
            level,
            cursor: (2, 2),
            selected: None,
            choice: None,
            prompt: None,
            help: false,
            flipped: players.white == Player::Engine && players.black == Player::Human,
            paused: false,
            message: None,
            thinking: None,
            hint: None,
            searching: None,
            next_id: 1,
            effects: Vec::new(),
            clocks: [Duration::ZERO; 2],
            turn_start: Instant::now(),
            oracle: None,
            save_path: "game.pdn".to_string(),
        };
        c.info("Your move: arrows + Enter, a click, or type it (c3-d4). ? for help.");
        c
    }

    /// Use an endgame-database oracle for the verdict line.
    pub fn set_oracle(&mut self, oracle: Box<dyn Oracle>) {
        self.oracle = Some(oracle);
    }

    // ----- read access for rendering -----

    /// The game record.
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// The current position.
    pub fn position(&self) -> Position {
        self.game.position()
    }
    /// Who plays which side.
    pub fn players(&self) -> Players {
        self.players
    }
    /// The engine level.
    pub fn level(&self) -> Level {
        self.level
    }
    /// The cursor (file, row), board coordinates.
    pub fn cursor(&self) -> (u8, u8) {
        self.cursor
    }
    /// The picked piece.
    pub fn selected(&self) -> Option<Square> {
        self.selected
    }
    /// The capture choice in progress.
    pub fn choice(&self) -> Option<&Choice> {
        self.choice.as_ref()
    }
    /// The open prompt.
    pub fn prompt(&self) -> Option<&Prompt> {
        self.prompt.as_ref()
    }
    /// Whether the help is shown.
    pub fn help_shown(&self) -> bool {
        self.help
    }
    /// Whether Black is at the bottom.
    pub fn flipped(&self) -> bool {
        self.flipped
    }
    /// Whether the engine waits for `m` before moving.
    pub fn paused(&self) -> bool {
        self.paused
    }
    /// The message line.
    pub fn message(&self) -> Option<(&str, MessageKind)> {
        self.message.as_ref().map(|(s, k)| (s.as_str(), *k))
    }
    /// The engine's latest report.
    pub fn thinking(&self) -> Option<&Thinking> {
        self.thinking.as_ref()
    }
    /// The hinted move.
    pub fn hint(&self) -> Option<Move> {
        self.hint
    }
    /// Whether the engine is searching.
    pub fn is_searching(&self) -> bool {
        self.searching.is_some()
    }
    /// The game result, if the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.game.result()
    }
    /// The endgame database verdict for the current position, when an oracle knows it.
    pub fn verdict(&self) -> Option<Verdict> {
        self.oracle.as_ref().and_then(|o| o.probe(&self.position()))
    }
    /// Time used by each side (White, Black), the side to move's running clock included.
    pub fn clocks(&self) -> [Duration; 2] {
        let mut c = self.clocks;
        if self.result().is_none() {
            c[self.position().side_to_move() as usize] += self.turn_start.elapsed();
        }
        c
    }
    /// The last move played, with the position it was played from.
    pub fn last_move(&self) -> Option<(Position, Move)> {
        let n = self.game.moves().len();
        (n > 0).then(|| (self.game.positions()[n - 1], self.game.moves()[n - 1]))
    }
    /// How keys are read now.
    pub fn input_mode(&self) -> InputMode {
        if self.prompt.is_some() {
            InputMode::Prompt
        } else if self.help {
            InputMode::Help
        } else if self.choice.is_some() {
            InputMode::Choice
        } else {
            InputMode::Normal
        }
    }

    /// Squares the picked piece can move to.
    pub fn destinations(&self) -> Bitboard {
        match self.selected {
            None => Bitboard::default(),
            Some(s) => legal_moves(&self.position())
                .iter()
                .filter(|m| m.from() == s)
                .map(|m| m.to())
                .collect(),
        }
    }

    /// Pieces that may be picked (those with a legal move; only capturers when a capture is forced).
    pub fn movable(&self) -> Bitboard {
        legal_moves(&self.position())
            .iter()
            .map(|m| m.from())
            .collect()
    }

    /// The move list, one row per move number, PDN style: `1. c3-d4 f6-e5`.
    pub fn move_rows(&self) -> Vec<String> {
        let positions = self.game.positions();
        let mut rows: Vec<String> = Vec::new();
        for (i, &mv) in self.game.moves().iter().enumerate() {
            let pos = positions[i];
            let text = move_to_string(&pos, mv, Notation::Algebraic);
            let black_moved = pos.side_to_move() == Color::Black;
            if black_moved && i > 0 {
                if let Some(last) = rows.last_mut() {
                    last.push(' ');
                    last.push_str(&text);
                    continue;
                }
            }
            let number = rows.len() + 1;
            if black_moved {
                rows.push(format!("{number}. ... {text}"));
            } else {
                rows.push(format!("{number}. {text}"));
            }
        }
        rows
    }

    /// The requests gathered since the last call.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    // ----- messages -----

    fn info(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), MessageKind::Info));
    }
    fn error(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), MessageKind::Error));
    }
    /// Show news from outside (a file was saved, …).
    pub fn notify(&mut self, text: impl Into<String>) {
        self.info(text);
    }
    /// Show a failure from outside.
    pub fn complain(&mut self, text: impl Into<String>) {
        self.error(text);
    }

    // ----- engine scheduling -----

    /// Start the engine when it is its turn. Call after every event.
    pub fn tick(&mut self) {
        if self.searching.is_some() || self.paused || self.result().is_some() {
            return;
        }
        let side = self.position().side_to_move();
        if self.players.of(side) == Player::Engine {
            self.start_search(Purpose::Move);
        }
    }

    fn start_search(&mut self, purpose: Purpose) {
        let id = self.next_id;
        self.next_id += 1;
        self.searching = Some((id, purpose));
        self.thinking = None;
        self.effects.push(Effect::Search(SearchRequest {
            id,
            purpose,
            position: self.position(),
            history: self.game.history().to_vec(),
            limits: self.level.limits(),
        }));
    }

    fn cancel_search(&mut self) {
        if self.searching.take().is_some() {
            self.effects.push(Effect::Stop);
        }
    }

    /// A progress report of search `id`.
    pub fn on_engine_info(&mut self, id: u64, info: &Info) {
        if self.searching.is_some_and(|(s, _)| s == id) {
            self.thinking = Some(Thinking::from_info(&self.position(), info));
        }
    }

    /// Search `id` finished.
    pub fn on_engine_done(&mut self, id: u64, result: &SearchResult) {
        let Some((s, purpose)) = self.searching else {
            return;
        };
        if s != id {
            return;
        }
        self.searching = None;
        let Some(best) = result.best else { return };
        let pos = self.position();
        let text = move_to_string(&pos, best, Notation::Algebraic);
        match purpose {
            Purpose::Hint => {
                self.hint = Some(best);
                self.info(format!(
                    "Hint: {text} (score {})",
                    Thinking::score_text(pos.side_to_move(), result.score)
                ));
            }
            Purpose::Move => {
                if self.players.of(pos.side_to_move()) == Player::Engine {
                    self.commit(best);
                    if self.result().is_none() {
                        self.info(format!("Engine played {text}."));
                    }
                }
            }
        }
    }

    // ----- actions -----

    /// Apply a user action.
    pub fn handle(&mut self, action: Action) {
        match action {
            Action::Up => self.move_cursor(0, if self.flipped { -1 } else { 1 }),
            Action::Down => self.move_cursor(0, if self.flipped { 1 } else { -1 }),
            Action::Left => self.move_cursor(if self.flipped { 1 } else { -1 }, 0),
            Action::Right => self.move_cursor(if self.flipped { -1 } else { 1 }, 0),
            Action::Select => self.pick(self.cursor.0, self.cursor.1),
            Action::Click(f, r) => {
                self.cursor = (f, r);
                self.pick(f, r);
            }
            Action::OpenPrompt(c) => self.open_prompt(PromptKind::Move, c.to_string()),
            Action::Type(c) => {
                if let Some(p) = self.prompt.as_mut() {
                    p.text.push(c);
                }
            }
            Action::Backspace => {
                if let Some(p) = self.prompt.as_mut() {
                    p.text.pop();
                }
            }
            Action::Submit => self.submit(),
            Action::Cancel => {
                self.prompt = None;
                self.choice = None;
                self.help = false;
                self.selected = None;
                self.message = None;
            }
            Action::NextChoice | Action::PrevChoice | Action::Choose(_) => self.step_choice(action),
            Action::NewGame => self.new_game(Position::start()),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::Hint => self.ask_hint(),
            Action::Flip => self.flipped = !self.flipped,
            Action::Save => {
                let path = self.save_path.clone();
                self.open_prompt(PromptKind::Save, path);
            }
            Action::Load => {
                let path = self.save_path.clone();
                self.open_prompt(PromptKind::Load, path);
            }
            Action::SetFen => self.open_prompt(PromptKind::Fen, String::new()),
            Action::CopyFen => {
                let fen = to_fen(&self.position());
                self.info(format!("FEN (copied): {fen}"));
                self.effects.push(Effect::Copy(fen));
            }
            Action::Help => self.help = !self.help,
            Action::MoveNow => self.move_now(),
            Action::Players => {
                self.players = self.players.cycle();
                if self.searching.is_some_and(|(_, p)| p == Purpose::Move)
                    && self.players.of(self.position().side_to_move()) == Player::Human
                {
                    self.cancel_search();
                }
                self.paused = false;
                self.info(format!(
                    "White: {}, Black: {}",
                    self.players.white, self.players.black
                ));
            }
            Action::Stronger | Action::Weaker => {
                self.level = if action == Action::Stronger {
                    self.level.stronger()
                } else {
                    self.level.weaker()
                };
                self.info(format!("Engine level: {}", self.level));
            }
            Action::Quit => {
                self.cancel_search();
                self.effects.push(Effect::Quit);
            }
            Action::Redraw => {}
        }
    }

    fn move_cursor(&mut self, df: i8, dr: i8) {
        let f = (self.cursor.0 as i8 + df).clamp(0, 7) as u8;
        let r = (self.cursor.1 as i8 + dr).clamp(0, 7) as u8;
        self.cursor = (f, r);
    }

    fn open_prompt(&mut self, kind: PromptKind, text: String) {
        self.choice = None;
        self.help = false;
        self.prompt = Some(Prompt { kind, text });
    }

    /// Whether a human may move now; says why not otherwise.
    fn human_to_move(&mut self) -> bool {
        if let Some(r) = self.result() {
            self.error(format!(
                "The game is over ({}). n: new game.",
                r.reason.describe()
            ));
            return false;
        }
        let side = self.position().side_to_move();
        if self.players.of(side) == Player::Engine {
            self.error(format!(
                "{} is played by the engine; m: move now, p: change players.",
                color_name(side)
            ));
            return false;
        }
        true
    }

    fn pick(&mut self, file: u8, row: u8) {
        let Some(sq) = Square::from_coords(file, row) else {
            self.selected = None;
            return;
        };
        if !self.human_to_move() {
            return;
        }
        let pos = self.position();
        let legal = legal_moves(&pos);
        if let Some(from) = self.selected {
            let to_here: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.from() == from && m.to() == sq)
                .collect();
            if !to_here.is_empty() {
                self.selected = None;
                self.play_candidates(to_here);
                return;
            }
            if from == sq {
                self.selected = None;
                self.message = None;
                return;
            }
        }
        let side = pos.side_to_move();
        if pos.pieces(side).contains(sq) {
            if legal.iter().any(|m| m.from() == sq) {
                self.selected = Some(sq);
                self.info(format!("{sq} picked: choose a highlighted square."));
            } else if legal.first().is_some_and(|m| m.is_capture()) {
                let capturers: Vec<String> = self.movable().iter().map(|s| s.to_string()).collect();
                self.error(format!(
                    "A capture is forced: pick {}.",
                    capturers.join(" or ")
                ));
            } else {
                self.error(format!("The piece on {sq} cannot move."));
            }
        } else if self.selected.is_some() {
            self.error(format!("{sq} is not a legal destination."));
        } else {
            self.error(format!("Pick one of {}'s pieces.", color_name(side)));
        }
    }

    /// Play the only candidate, or ask which capture path was meant.
    fn play_candidates(&mut self, candidates: Vec<Move>) {
        if candidates.len() == 1 {
            self.play_human(candidates[0]);
        } else {
            self.choice = Some(Choice {
                candidates,
                index: 0,
            });
            self.describe_choice();
        }
    }

    fn describe_choice(&mut self) {
        let Some(c) = &self.choice else { return };
        let pos = self.position();
        let mv = c.candidates[c.index];
        let path = capture_paths(&pos, mv, 1).pop().unwrap_or_default();
        let path: Vec<String> = path.iter().map(|s| s.to_string()).collect();
        let taken: Vec<String> = mv.captured().iter().map(|s| s.to_string()).collect();
        let text = format!(
            "Capture {}/{}: {} taking {} (marked). Tab/arrows: other, Enter: play, Esc: cancel.",
            c.index + 1,
            c.candidates.len(),
            path.join("x"),
            taken.join(" ")
        );
        self.info(text);
    }

    fn step_choice(&mut self, action: Action) {
        let Some(c) = self.choice.as_mut() else {
            return;
        };
        let n = c.candidates.len();
        match action {
            Action::NextChoice => c.index = (c.index + 1) % n,
            Action::PrevChoice => c.index = (c.index + n - 1) % n,
            Action::Choose(i) if i < n => {
                c.index = i;
                let mv = c.candidates[i];
                self.choice = None;
                self.play_human(mv);
                return;
            }
            _ => {}
        }
        self.describe_choice();
    }

    fn play_human(&mut self, mv: Move) {
        if !self.human_to_move() {
            return;
        }
        let text = move_to_string(&self.position(), mv, Notation::Algebraic);
        self.commit(mv);
        if self.result().is_none() {
            self.info(format!("You played {text}."));
        }
    }

    /// Play `mv` on the board (it is legal) and announce the end of the game.
    fn commit(&mut self, mv: Move) {
        let side = self.position().side_to_move();
        if !self.game.play(mv) {
            self.error("Internal: refused an illegal move.");
            return;
        }
        self.clocks[side as usize] += self.turn_start.elapsed();
        self.turn_start = Instant::now();
        self.selected = None;
        self.choice = None;
        self.hint = None;
        self.announce_end();
    }

    fn announce_end(&mut self) {
        if let Some(r) = self.result() {
            let who = match r.winner {
                Some(c) => format!("{} wins", color_name(c)),
                None => "Draw".to_string(),
            };
            self.info(format!(
                "Game over: {who} ({}), {}. n: new game, u: undo.",
                r.reason.describe(),
                r.pdn()
            ));
        }
    }

    fn submit(&mut self) {
        if let Some(c) = self.choice.take() {
            let mv = c.candidates[c.index];
            self.play_human(mv);
            return;
        }
        let Some(prompt) = self.prompt.take() else {
            return;
        };
        let text = prompt.text.trim().to_string();
        match prompt.kind {
            PromptKind::Move => self.submit_move(&text),
            PromptKind::Fen => match parse_fen(&text) {
                Ok(pos) => {
                    self.new_game(pos);
                    self.info(format!("Position set: {}", to_fen(&pos)));
                }
                Err(e) => self.error(format!("Bad FEN: {e}")),
            },
            PromptKind::Save | PromptKind::Load if text.is_empty() => {
                self.error("No file name given.")
            }
            PromptKind::Save => {
                self.save_path = text.clone();
                let pdn = self.pdn_text();
                self.effects.push(Effect::Save {
                    path: PathBuf::from(text),
                    text: pdn,
                });
            }
            PromptKind::Load => {
                self.save_path = text.clone();
                self.effects.push(Effect::Load(PathBuf::from(text)));
            }
        }
    }

    fn submit_move(&mut self, text: &str) {
        if !self.human_to_move() {
            return;
        }
        let pos = self.position();
        match parse_move(&pos, text) {
            Ok(mv) => self.play_human(mv),
            Err(MoveError::Ambiguous { candidates, .. }) => {
                let moves: Vec<Move> = legal_moves(&pos)
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let path = capture_paths(&pos, m, 1).pop().unwrap_or_default();
                        let path: Vec<String> = path.iter().map(|s| s.to_string()).collect();
                        candidates.contains(&path.join("x"))
                    })
                    .collect();
                if moves.len() > 1 {
                    self.play_candidates(moves);
                } else {
                    self.error(format!(
                        "Ambiguous move {text:?}: could be {}.",
                        candidates.join(", ")
                    ));
                }
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    fn reset_turn(&mut self) {
        self.selected = None;
        self.choice = None;
        self.hint = None;
        self.turn_start = Instant::now();
    }

    /// A new game from `start`, same players and level.
    pub fn new_game(&mut self, start: Position) {
        self.cancel_search();
        self.game = Game::new(start);
        self.reset_turn();
        self.clocks = [Duration::ZERO; 2];
        self.paused = false;
        self.thinking = None;
        self.info("New game.");
    }

    fn undo(&mut self) {
        self.cancel_search();
        if self.game.undo().is_none() {
            self.error("Nothing to undo.");
            return;
        }
        // Against the engine, take back to the human's turn.
        while self.players.of(self.position().side_to_move()) == Player::Engine
            && self.players.of(self.position().side_to_move().opponent()) == Player::Human
        {
            if self.game.undo().is_none() {
                break;
            }
        }
        self.after_navigation("Move taken back.");
    }

    fn redo(&mut self) {
        self.cancel_search();
        if self.game.redo().is_none() {
            self.error("Nothing to redo.");
            return;
        }
        while self.players.of(self.position().side_to_move()) == Player::Engine
            && self.players.of(self.position().side_to_move().opponent()) == Player::Human
            && self.game.can_redo()
        {
            self.game.redo();
        }
        self.after_navigation("Move replayed.");
    }

    fn after_navigation(&mut self, what: &str) {
        self.reset_turn();
        let engine_turn = self.players.of(self.position().side_to_move()) == Player::Engine;
        self.paused = engine_turn;
        if engine_turn {
            self.info(format!("{what} Engine paused: m to let it move."));
        } else {
            self.info(what);
        }
        self.announce_end();
    }

    fn ask_hint(&mut self) {
        if self.searching.is_some() {
            self.error("The engine is busy thinking.");
        } else if self.result().is_some() {
            self.error("The game is over.");
        } else {
            self.info("Thinking about a hint…");
            self.start_search(Purpose::Hint);
        }
    }

    fn move_now(&mut self) {
        match self.searching {
            Some((_, Purpose::Move)) => {
                self.effects.push(Effect::Stop);
                self.info("Engine: move now.");
            }
            Some((_, Purpose::Hint)) => self.effects.push(Effect::Stop),
            None if self.paused => {
                self.paused = false;
                self.info("Engine resumed.");
            }
            None => {
                let side = self.position().side_to_move();
                if self.result().is_none() && self.players.of(side) == Player::Human {
                    self.error(format!(
                        "{} is yours to move (p changes players).",
                        color_name(side)
                    ));
                }
            }
        }
    }

    /// The game as PDN text, the players named in the `White`/`Black` tags.
    pub fn pdn_text(&self) -> String {
        let mut record = PdnGame::from_game(&self.game);
        record.set_tag("Event", "damas terminal game");
        let name = |p: Player| match p {
            Player::Human => "human",
            Player::Engine => "damas",
        };
        record.set_tag("White", name(self.players.white));
        record.set_tag("Black", name(self.players.black));
        write_game(&record)
    }

    /// Replace the game by the first game of a PDN text.
    pub fn load_pdn(&mut self, text: &str) -> Result<(), String> {
        let games = read_games(text).map_err(|e| e.to_string())?;
        let first = games.first().ok_or("no game in the file")?;
        let game = first.to_game().map_err(|e| e.to_string())?;
        self.cancel_search();
        let n = game.moves().len();
        self.game = game;
        self.clocks = [Duration::ZERO; 2];
        self.thinking = None;
        self.after_navigation(&format!("Game loaded ({n} plies)."));
        Ok(())
    }
}

#[cfg(test)]
#[path = "controller_tests.rs"]
mod tests;
