//! The game controller: everything the terminal UI knows and decides, without a
//! terminal. Actions come in ([`Controller::handle`]), engine reports come in
//! ([`Controller::on_engine_info`], [`Controller::on_engine_done`]), and requests for
//! the outside world go out as [`Effect`]s (start or stop a search, save a file, …).

mod analysis;
mod ballot;
mod clock_hold;
mod confirm;
mod moves;
mod queries;
mod record;
mod search;
mod types;
mod view;

pub use analysis::AnalysisBoard;
pub use types::{
    Choice, Effect, GameList, MessageKind, Pending, Prompt, PromptKind, Purpose, ReviewPanel,
    SearchRequest,
};

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use damas_engine::time::TimeControl;

use damas_engine::level::Strength;
use damas_engine::search::{Info, SearchResult};
use damas_rules::bitboard::Bitboard;
use damas_rules::fen::{parse_fen, to_fen};
use damas_rules::game::Game;
use damas_rules::movegen::legal_moves;
use damas_rules::moves::Move;
use damas_rules::notation::{capture_paths, move_to_string, parse_move, MoveError, Notation};
use damas_rules::outcome::{EndReason, GameResult};
use damas_rules::pdn::{read_games, write_game, PdnError, PdnGame};
use damas_rules::position::{Color, Position};
use damas_rules::square::Square;
use damas_rules::variant::Variant;

use crate::ui::input::{Action, InputMode};
use crate::ui::oracle::{verdict, Verdict};
use crate::ui::setup::{Player, Players};
use crate::ui::thinking::Thinking;
use damas_egdb::oracle::Oracle;

/// Lines the analysis board shows unless told otherwise.
pub const DEFAULT_ANALYSIS_LINES: usize = 3;

/// The game controller state.
pub struct Controller {
    game: Game,
    players: Players,
    level: TimeControl,
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
    /// Since when the clock has stood still for a review or a hint.
    clock_held: Option<Instant>,
    /// Playing strength of the engine's moves (hints are always at full strength).
    strength: Strength,
    /// The game clock, when the game is played on one: a [`TimeControl::Clock`].
    clock: Option<TimeControl>,
    /// Increments earned by each side (White, Black) on the game clock.
    bonus: [Duration; 2],
    /// Both sides' (time used, increments) before each move of the game, so that a
    /// move taken back gives both sides their time back.
    clock_log: Vec<([Duration; 2], [Duration; 2])>,
    /// The side whose time ran out.
    flag: Option<Color>,
    oracle: Option<Arc<dyn Oracle>>,
    save_path: String,
    load_path: String,
    /// The question waiting for y/n, and what a yes does.
    confirm: Option<Pending>,
    /// The text of that question (it stays up while the engine reports).
    question: String,
    /// The games of a loaded file, while one is being chosen.
    game_list: Option<GameList>,
    /// The moves of the game when it was last saved or loaded.
    saved: Option<Vec<Move>>,
    /// The file this session last wrote (saving there again needs no question).
    written: Option<PathBuf>,
    /// The game replaced by a new game, set-up or load (`u` brings it back).
    previous: Option<Game>,
    /// Whether [`Controller::thinking`] belongs to the search running now.
    thinking_live: bool,
    /// When the running search started.
    search_started: Instant,
    /// The ply looked at while navigating the move list (`None`: the game's position).
    view: Option<usize>,
    /// The review panel, when open.
    review: Option<ReviewPanel>,
    /// Progress of the review being made: (positions done, in all).
    reviewing: Option<(usize, usize)>,
    /// The FMJD ballot the game started from (its moves lead to the game's start).
    opening: Option<crate::matches::Opening>,
    /// The analysis board, when open.
    analysis: Option<AnalysisBoard>,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl Controller {
    /// A controller for a game of `variant` from `start` with these players and level.
    pub fn new(
        variant: Variant,
        start: Position,
        players: Players,
        level: TimeControl,
    ) -> Controller {
        let mut c = Controller {
            game: Game::new(variant, start),
            players,
            level,
            // Start on a piece of the side at the bottom of the board.
            cursor: if players.white == Player::Engine && players.black == Player::Human {
                (5, 5)
            } else {
                (2, 2)
            },
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
            clock_held: None,
            strength: Strength::FULL,
            clock: None,
            bonus: [Duration::ZERO; 2],
            clock_log: Vec::new(),
            flag: None,
            oracle: None,
            save_path: "game.pdn".to_string(),
            load_path: "game.pdn".to_string(),
            confirm: None,
            question: String::new(),
            game_list: None,
            saved: None,
            written: None,
            previous: None,
            thinking_live: false,
            search_started: Instant::now(),
            view: None,
            review: None,
            reviewing: None,
            opening: None,
            analysis: None,
        };
        c.info("Your move: arrows + Enter, a click, or type it (c3-d4). ? for help.");
        c.announce_end();
        c
    }

    /// The rules the game is played by.
    pub fn variant(&self) -> Variant {
        self.game.variant()
    }

    /// Play the engine's moves at `strength`.
    pub fn set_strength(&mut self, strength: Strength) {
        self.strength = strength;
    }

    /// Play on a game clock (both sides), starting now; a time control that is not a
    /// clock plays without one.
    pub fn set_clock(&mut self, clock: Option<TimeControl>) {
        self.clock = clock.filter(|c| c.game_clock().is_some());
        self.reset_clocks();
    }

    pub(super) fn reset_clocks(&mut self) {
        self.clocks = [Duration::ZERO; 2];
        self.bonus = [Duration::ZERO; 2];
        self.clock_log.clear();
        self.flag = None;
        self.turn_start = Instant::now();
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

    // ----- actions -----

    /// Apply a user action.
    pub fn handle(&mut self, action: Action) {
        if self.confirm.is_some() {
            self.answer(action);
            return;
        }
        if self.game_list.is_some() {
            self.choose_game(action);
            return;
        }
        if self.review.is_some() {
            self.review_key(action);
            return;
        }
        if self.analysis.is_some() && self.analysis_key(action) {
            return;
        }
        // Looking back: the board is not the game's, so no moves are made on it.
        if self.view.is_some()
            && matches!(
                action,
                Action::Select | Action::Click(..) | Action::OpenPrompt(_) | Action::Hint
            )
        {
            self.error("You are looking at an earlier position: End returns to the game, x continues from here.");
            return;
        }
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
            Action::ClearPrompt => {
                if let Some(p) = self.prompt.as_mut() {
                    p.text.clear();
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
            Action::NewGame => self.ask_or_do(Pending::NewGame),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::Hint => self.ask_hint(),
            Action::Flip => self.flipped = !self.flipped,
            Action::Save => {
                let path = self.save_path.clone();
                self.open_prompt(PromptKind::Save, path);
            }
            Action::Load => self.ask_or_do(Pending::Load),
            Action::SetFen => self.ask_or_do(Pending::SetFen),
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
                self.strength = if action == Action::Stronger {
                    self.strength.stronger()
                } else {
                    self.strength.weaker()
                };
                self.info(format!("Engine level: {}", self.strength));
            }
            Action::Quit => self.ask_or_do(Pending::Quit),
            Action::Interrupt => {
                self.cancel_search();
                self.effects.push(Effect::Interrupt);
            }
            Action::ViewStart | Action::ViewEnd | Action::ViewBack | Action::ViewForward => {
                self.navigate(action)
            }
            Action::ContinueHere => self.ask_continue_here(),
            Action::Review => self.ask_review(),
            Action::Ballot => self.ask_or_do(Pending::Ballot),
            Action::Analyze => self.toggle_analysis(DEFAULT_ANALYSIS_LINES),
            Action::Yes | Action::No | Action::Redraw => {}
        }
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod view_tests;
