//! Looking at earlier positions without undoing (the move list is navigated, the game
//! stays as it is), continuing play from one of them, and the game review panel.

use super::*;
use crate::review::{report::move_line, Review};

impl Controller {
    /// The ply whose position is shown instead of the game's (0: the start), when the
    /// user is looking back.
    pub fn viewing(&self) -> Option<usize> {
        self.view
    }

    /// The position on the board: the one looked at, else the game's.
    pub fn shown_position(&self) -> Position {
        match self.view {
            Some(i) => self.game.positions()[i],
            None => self.position(),
        }
    }

    /// The move that led to the shown position, with the position it was played from.
    pub fn shown_last_move(&self) -> Option<(Position, Move)> {
        let n = self.view.unwrap_or(self.game.moves().len());
        (n > 0).then(|| (self.game.positions()[n - 1], self.game.moves()[n - 1]))
    }

    /// `Viewing move 3... f6-e5 (ply 6 of 10): , . step, End returns, x continues from here`.
    pub fn view_banner(&self) -> Option<String> {
        let i = self.view?;
        let what = match self.shown_last_move() {
            Some((pos, mv)) => {
                let number =
                    damas_rules::pdn::MoveNumber::of_ply(self.game.start().side_to_move(), i - 1);
                let dots = if number.black { "..." } else { "." };
                format!(
                    "move {}{dots} {}",
                    number.number,
                    move_to_string(self.variant(), &pos, mv, Notation::Algebraic)
                )
            }
            None => "the start".to_string(),
        };
        Some(format!(
            "Viewing {what} (ply {i} of {}): , . step, End returns, x continues from here",
            self.game.moves().len()
        ))
    }

    /// Step the view: `to` is the ply to look at (clamped); the game's own position
    /// ends the view.
    pub(super) fn view_ply(&mut self, to: usize) {
        let n = self.game.moves().len();
        self.selected = None;
        self.choice = None;
        if to >= n {
            if self.view.take().is_some() {
                self.info("Back to the game.");
            }
        } else {
            self.view = Some(to);
            if let Some(b) = self.view_banner() {
                self.info(b);
            }
        }
    }

    pub(super) fn navigate(&mut self, action: Action) {
        let n = self.game.moves().len();
        let at = self.view.unwrap_or(n);
        match action {
            Action::ViewStart => self.view_ply(0),
            Action::ViewEnd => self.view_ply(n),
            Action::ViewBack => self.view_ply(at.saturating_sub(1)),
            Action::ViewForward => self.view_ply(at + 1),
            _ => {}
        }
    }

    /// Ask before continuing play from the viewed position (the later moves are
    /// dropped; `r` replays them).
    pub(super) fn ask_continue_here(&mut self) {
        let Some(i) = self.view else {
            self.error("x continues from an earlier position: step back with , or Home first.");
            return;
        };
        let dropped = self.game.moves().len() - i;
        self.prompt = None;
        let (last, them) = match dropped {
            1 => ("the last ply".to_string(), "it"),
            n => (format!("the last {}", crate::plural::plies(n)), "them"),
        };
        self.question =
            format!("Continue from here, taking back {last} (r replays {them})? y: yes, n: no");
        self.confirm = Some(Pending::ContinueFrom(i));
    }

    /// Take the game back to ply `i` and play on from there.
    pub(super) fn continue_from(&mut self, i: usize) {
        self.cancel_search();
        self.view = None;
        self.flag = None;
        while self.game.moves().len() > i {
            if self.game.undo().is_none() {
                break;
            }
        }
        self.after_navigation("Continuing from the viewed position.");
    }

    /// The review panel: the review, the highlighted move, and the progress of a
    /// review being made.
    pub fn review(&self) -> Option<&ReviewPanel> {
        self.review.as_ref()
    }

    /// Whether a review is being made, and how far it is: (positions done, in all).
    pub fn review_progress(&self) -> Option<(usize, usize)> {
        self.reviewing
    }

    pub(super) fn ask_review(&mut self) {
        if self.reviewing.is_some() {
            self.error("The review is still being made.");
        } else if self.game.moves().is_empty() {
            self.error("No moves to review yet.");
        } else {
            self.reviewing = Some((0, self.game.positions().len()));
            self.info("Reviewing the game…");
            self.effects.push(Effect::Review {
                start: self.game.start(),
                moves: self.game.moves().to_vec(),
            });
        }
    }

    /// The review has searched `done` of `total` positions.
    pub fn on_review_progress(&mut self, done: usize, total: usize) {
        self.reviewing = Some((done, total));
    }

    /// The review is ready: open the panel on its first marked move (else the first).
    pub fn on_review_done(&mut self, review: Review) {
        self.reviewing = None;
        if review.moves.is_empty() {
            self.error("Nothing reviewed.");
            return;
        }
        let index = review
            .moves
            .iter()
            .position(|m| m.judgement.mark.is_some())
            .unwrap_or(0);
        self.prompt = None;
        self.help = false;
        self.review = Some(ReviewPanel { review, index });
        self.show_reviewed_move();
    }

    /// Show the highlighted move of the review on the board and the message line.
    fn show_reviewed_move(&mut self) {
        let Some(panel) = &self.review else { return };
        let m = &panel.review.moves[panel.index];
        let (ply, line) = (m.ply, move_line(m));
        if ply < self.game.moves().len() {
            self.view = (ply + 1 < self.game.moves().len()).then_some(ply + 1);
        }
        self.info(format!(
            "{line}  (arrows: moves, Enter: keep this position, Esc: close)"
        ));
    }

    /// Keys while the review panel is open.
    pub(super) fn review_key(&mut self, action: Action) {
        let Some(panel) = self.review.as_mut() else {
            return;
        };
        let n = panel.review.moves.len();
        match action {
            Action::NextChoice => {
                panel.index = (panel.index + 1).min(n - 1);
                self.show_reviewed_move();
            }
            Action::PrevChoice => {
                panel.index = panel.index.saturating_sub(1);
                self.show_reviewed_move();
            }
            Action::Submit => {
                self.review = None;
                if let Some(b) = self.view_banner() {
                    self.info(b);
                }
            }
            Action::Cancel | Action::Review => {
                self.review = None;
                self.view = None;
                self.info("Review closed.");
            }
            Action::Quit | Action::Interrupt => {
                self.review = None;
                self.handle(action);
            }
            _ => {}
        }
    }
}
