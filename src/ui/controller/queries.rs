//! What the view reads of the controller: the game, the cursor and selection,
//! prompts and messages, the engine's state, clocks, and the squares to highlight.

use super::*;

impl Controller {
    /// The engine's playing strength.
    pub fn strength(&self) -> Strength {
        self.strength
    }

    /// The game clock, if the game is played on one.
    pub fn clock_setting(&self) -> Option<TimeControl> {
        self.clock
    }

    /// Time left on `color`'s game clock (the running clock counted down), or `None`
    /// without a clock.
    pub fn time_left(&self, color: Color) -> Option<Duration> {
        let (base, _) = self.clock?.game_clock()?;
        let i = color as usize;
        Some((base + self.bonus[i]).saturating_sub(self.clocks()[i]))
    }

    /// Use an endgame-database oracle for the verdict line.
    pub fn set_oracle(&mut self, oracle: Arc<dyn Oracle>) {
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
    pub fn level(&self) -> TimeControl {
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
        if self.confirm.is_some() {
            return Some((self.question.as_str(), MessageKind::Error));
        }
        self.message.as_ref().map(|(s, k)| (s.as_str(), *k))
    }
    /// The engine's latest report: of the running search, else of the last search.
    pub fn thinking(&self) -> Option<&Thinking> {
        self.thinking.as_ref()
    }
    /// Whether [`Controller::thinking`] is a report of the search running now.
    pub fn thinking_is_live(&self) -> bool {
        self.thinking_live && self.searching.is_some()
    }
    /// How long the running search has been going, if one is.
    pub fn search_elapsed(&self) -> Option<Duration> {
        self.searching.map(|_| self.search_started.elapsed())
    }
    /// What the running search is for, if one is.
    pub fn search_purpose(&self) -> Option<Purpose> {
        self.searching.map(|(_, p)| p)
    }
    /// The question waiting for y/n.
    pub fn pending(&self) -> Option<&Pending> {
        self.confirm.as_ref()
    }
    /// The games of a loaded file while one is being chosen.
    pub fn game_list(&self) -> Option<&GameList> {
        self.game_list.as_ref()
    }
    /// The hinted move.
    pub fn hint(&self) -> Option<Move> {
        self.hint
    }
    /// Whether the engine is searching.
    pub fn is_searching(&self) -> bool {
        self.searching.is_some()
    }
    /// The game result, if the game is over (on the board or on the clock).
    pub fn result(&self) -> Option<GameResult> {
        if let Some(side) = self.flag {
            return Some(GameResult {
                winner: Some(side.opponent()),
                reason: EndReason::Time,
            });
        }
        self.game.result()
    }
    /// The endgame database verdict for the current position, when an oracle of the
    /// game's rules knows it (a loaded game of other rules gets none).
    pub fn verdict(&self) -> Option<Verdict> {
        self.oracle
            .as_ref()
            .filter(|o| o.variant() == self.variant())
            .and_then(|o| verdict(o.as_ref(), &self.position()))
    }
    /// Time used by each side (White, Black), the side to move's running clock included.
    pub fn clocks(&self) -> [Duration; 2] {
        let mut c = self.clocks;
        if self.game.result().is_none() && self.flag.is_none() {
            c[self.position().side_to_move() as usize] += self.turn_elapsed();
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
        if self.confirm.is_some() {
            InputMode::Confirm
        } else if self.game_list.is_some() {
            InputMode::List
        } else if self.review.is_some() {
            InputMode::Review
        } else if self.prompt.is_some() {
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
            Some(s) => legal_moves(self.variant(), &self.position())
                .iter()
                .filter(|m| m.from() == s)
                .map(|m| m.to())
                .collect(),
        }
    }

    /// The pieces that must capture, while a human is to move, a capture is forced and
    /// no piece is picked yet (they are highlighted).
    pub fn must_capture(&self) -> Bitboard {
        let pos = self.position();
        let human = self.players.of(pos.side_to_move()) == Player::Human;
        let legal = legal_moves(self.variant(), &pos);
        if human
            && self.selected.is_none()
            && self.result().is_none()
            && legal.first().is_some_and(|m| m.is_capture())
        {
            self.movable()
        } else {
            Bitboard::default()
        }
    }

    /// Pieces that may be picked (those with a legal move; only capturers when a capture is forced).
    pub fn movable(&self) -> Bitboard {
        legal_moves(self.variant(), &self.position())
            .iter()
            .map(|m| m.from())
            .collect()
    }

    /// The move list, one row per move number, PDN style: `1. c3-d4 f6-e5`; a game
    /// from a ballot starts with the ballot's moves.
    pub fn move_rows(&self) -> Vec<String> {
        let positions = self.game.positions();
        let played = self
            .game
            .moves()
            .iter()
            .enumerate()
            .map(|(i, &m)| (positions[i], m));
        let mut rows: Vec<String> = Vec::new();
        for (i, (pos, mv)) in self.ballot_moves().into_iter().chain(played).enumerate() {
            let text = move_to_string(self.variant(), &pos, mv, Notation::Algebraic);
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
}
