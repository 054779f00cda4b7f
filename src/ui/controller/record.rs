//! The game record: new game, undo/redo, hint, move now, PDN save and load.

use super::*;

impl Controller {
    pub(super) fn reset_turn(&mut self) {
        self.selected = None;
        self.choice = None;
        self.hint = None;
        self.view = None;
        self.turn_start = Instant::now();
    }

    /// A new game from `start`, same players and level.
    pub fn new_game(&mut self, start: Position) {
        self.cancel_search();
        self.keep_previous();
        self.game = Game::new(self.variant(), start);
        self.saved = None;
        self.reset_turn();
        self.reset_clocks();
        self.paused = false;
        self.thinking = None;
        self.opening = None;
        self.info("New game.");
    }

    /// Remember the game about to be replaced, when it has moves (`u` brings it back).
    fn keep_previous(&mut self) {
        if !self.game.moves().is_empty() {
            self.previous = Some(self.game.clone());
        }
    }

    pub(super) fn undo(&mut self) {
        self.cancel_search();
        if self.game.undo().is_none() {
            match self.previous.take() {
                Some(game) => {
                    let n = game.moves().len();
                    self.game = game;
                    self.saved = None;
                    self.after_navigation(&format!(
                        "Previous game back ({}).",
                        crate::plural::plies(n)
                    ));
                }
                None => self.error("Nothing to undo."),
            }
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
        // Both clocks as they were before the first move taken back.
        if let Some(&(clocks, bonus)) = self.clock_log.get(self.game.moves().len()) {
            (self.clocks, self.bonus) = (clocks, bonus);
            self.flag = None;
        }
        self.after_navigation("Move taken back.");
    }

    pub(super) fn redo(&mut self) {
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

    pub(super) fn after_navigation(&mut self, what: &str) {
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

    pub(super) fn ask_hint(&mut self) {
        if self.searching.is_some() {
            self.error("The engine is busy thinking.");
        } else if self.result().is_some() {
            self.error("The game is over.");
        } else {
            self.info("Thinking about a hint…");
            self.start_search(Purpose::Hint);
        }
    }

    pub(super) fn move_now(&mut self) {
        match self.searching {
            Some((_, Purpose::Move)) => {
                self.effects.push(Effect::Stop);
                self.info("Engine: move now.");
            }
            Some((_, Purpose::Hint | Purpose::Analysis)) => self.effects.push(Effect::Stop),
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

    /// The game as PDN text with Event, Date, White, Black and Result tags (the players
    /// named `human` or `damas`).
    pub fn pdn_text(&self) -> String {
        let mut record = PdnGame::from_game(&self.game);
        record.set_tag("Event", "damas terminal game");
        record.set_tag("Date", damas_rules::pdn::today());
        let name = |p: Player| match p {
            Player::Human => "human",
            Player::Engine => "damas",
        };
        record.set_tag("White", name(self.players.white));
        record.set_tag("Black", name(self.players.black));
        if let Some(ballot) = self.opening() {
            record.set_tag("SetUp", "1");
            record.set_tag("Opening", ballot);
            record.set_tag("Event", format!("damas terminal game, ballot {ballot}"));
        }
        write_game(&record)
    }

    /// Replace the game by the game of a PDN text; when the text holds several games,
    /// list them to choose from (see [`Controller::game_list`]).
    pub fn load_pdn(&mut self, text: &str) -> Result<(), String> {
        let mut games = read_games(text).map_err(|e| e.to_string())?;
        match games.len() {
            0 => Err(damas_rules::pdn::NO_GAME.to_string()),
            1 => {
                let game = games.remove(0);
                self.load_game(&game, "Game loaded")
                    .map_err(|e| e.to_string())
            }
            n => {
                self.prompt = None;
                self.game_list = Some(GameList { games, index: 0 });
                self.info(format!(
                    "The file holds {n} games: arrows choose, Enter loads, Esc cancels."
                ));
                Ok(())
            }
        }
    }

    /// Replace the game by `record`; `what` starts the message.
    pub(super) fn load_game(&mut self, record: &PdnGame, what: &str) -> Result<(), PdnError> {
        let game = record.to_game()?;
        self.cancel_search();
        self.keep_previous();
        let n = game.moves().len();
        self.saved = Some(game.moves().to_vec());
        self.game = game;
        self.reset_clocks();
        self.thinking = None;
        self.after_navigation(&format!("{what} ({}).", crate::plural::plies(n)));
        Ok(())
    }
}
