//! The analysis board: nobody plays; the engine thinks without end on the position
//! on the board and reports its best lines, the user makes the moves of both sides
//! and steps back and forth (`,` `.` Home End), and the analysis follows the board.
//! `m` stops and resumes it, `z` leaves. The search is restarted from [`Controller::tick`]
//! whenever the board differs from the position searched, so every way of changing
//! the board (a move, a step, a load) is followed without blocking on the engine.

use super::*;

/// The analysis board's state.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisBoard {
    /// How many best moves to show.
    pub lines: usize,
    /// Stopped by the user (`m` resumes).
    pub stopped: bool,
    /// The players before the board was opened (restored on leaving).
    players: Players,
    /// The position of the search running or last started.
    searched: Option<Position>,
    /// A position whose search ended by itself (a proven result, one legal move):
    /// it is not searched again.
    finished: Option<Position>,
}

impl Controller {
    /// Open the analysis board with `lines` best moves shown (or leave it when open).
    pub fn toggle_analysis(&mut self, lines: usize) {
        match self.analysis.take() {
            Some(a) => {
                self.cancel_search();
                self.players = a.players;
                self.paused = true;
                self.info("Analysis board closed: m lets the engine play on.");
            }
            None => {
                self.cancel_search();
                self.view = None;
                self.analysis = Some(AnalysisBoard {
                    lines: lines.max(1),
                    stopped: false,
                    players: self.players,
                    searched: None,
                    finished: None,
                });
                self.players = Players {
                    white: Player::Human,
                    black: Player::Human,
                };
                self.thinking = None;
                self.info("Analysis board: move for both sides; , . step back/forward; m stops/resumes; z leaves.");
            }
        }
    }

    /// The analysis board, when open.
    pub fn analysis(&self) -> Option<&AnalysisBoard> {
        self.analysis.as_ref()
    }

    /// Keep the analysis on the board's position: stop a search of another
    /// position, start one of this position. Called from [`Controller::tick`].
    pub(super) fn tick_analysis(&mut self) {
        let pos = self.position();
        let Some(a) = self.analysis.as_ref() else {
            return;
        };
        if self.searching.is_some() && a.searched != Some(pos) {
            self.cancel_search();
            self.thinking = None;
        }
        let a = self.analysis.as_ref().expect("checked above");
        if self.searching.is_some()
            || a.stopped
            || a.finished == Some(pos)
            || self.result().is_some()
        {
            return;
        }
        if let Some(a) = self.analysis.as_mut() {
            a.searched = Some(pos);
        }
        self.start_search(Purpose::Analysis);
    }

    /// The analysis search of the board's position ended by itself.
    pub(super) fn analysis_finished(&mut self) {
        let pos = self.position();
        if let Some(a) = self.analysis.as_mut() {
            a.finished = Some(pos);
        }
    }

    /// Keys that mean something else on the analysis board; `true` when handled.
    pub(super) fn analysis_key(&mut self, action: Action) -> bool {
        match action {
            Action::MoveNow => {
                let Some(a) = self.analysis.as_mut() else {
                    return false;
                };
                a.stopped = !a.stopped;
                if a.stopped {
                    self.cancel_search();
                    self.info("Analysis stopped: m resumes.");
                } else {
                    self.info("Analysis resumed.");
                }
            }
            Action::ViewBack | Action::Undo => self.step_back(1),
            Action::ViewStart => self.step_back(usize::MAX),
            Action::ViewForward | Action::Redo => self.step_forward(1),
            Action::ViewEnd => self.step_forward(usize::MAX),
            Action::Hint | Action::Players | Action::ContinueHere => {
                self.error("On the analysis board the engine only analyses: z leaves it.")
            }
            _ => return false,
        }
        true
    }

    fn step_back(&mut self, plies: usize) {
        let mut n = 0;
        while n < plies && self.game.undo().is_some() {
            n += 1;
        }
        self.selected = None;
        self.choice = None;
        if n == 0 {
            self.error("At the start of the game.");
        } else {
            self.info(format!(
                "Back {n} ply (ply {} of the game).",
                self.game.moves().len()
            ));
        }
    }

    fn step_forward(&mut self, plies: usize) {
        let mut n = 0;
        while n < plies && self.game.redo().is_some() {
            n += 1;
        }
        self.selected = None;
        self.choice = None;
        if n == 0 {
            self.error("At the end of the moves played.");
        } else {
            self.info(format!(
                "Forward {n} ply (ply {}).",
                self.game.moves().len()
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::movegen::legal_moves;

    fn searches(c: &mut Controller) -> Vec<SearchRequest> {
        c.take_effects()
            .into_iter()
            .filter_map(|e| match e {
                Effect::Search(r) => Some(r),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_analysis_follows_the_board_and_never_plays() {
        let mut c = Controller::new(
            Variant::Brazilian,
            Position::start(),
            Players::default(),
            TimeControl::Depth(1),
        );
        c.toggle_analysis(3);
        c.tick();
        let first = searches(&mut c);
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].purpose, Purpose::Analysis);
        assert_eq!(first[0].lines, 3);
        assert_eq!(first[0].budget, damas_engine::time::MoveBudget::default());
        // The engine's result is never played, and the search is not started again.
        let pos = c.position();
        let result = SearchResult {
            best: legal_moves(Variant::Brazilian, &pos).first().copied(),
            score: damas_engine::score::Score::centi(0),
            depth: 5,
            pv: Vec::new(),
            stats: Default::default(),
            conversion_unproven: false,
        };
        c.on_engine_done(first[0].id, &result);
        c.tick();
        assert_eq!(c.game().moves().len(), 0);
        assert!(searches(&mut c).is_empty());
        // A move of either side restarts the analysis on the new position.
        for text in ["c3-d4", "f6-g5"] {
            c.handle(Action::OpenPrompt(text.chars().next().unwrap()));
            for ch in text.chars().skip(1) {
                c.handle(Action::Type(ch));
            }
            c.handle(Action::Submit);
            c.tick();
            let s = searches(&mut c);
            assert_eq!(s.len(), 1, "{text}");
            assert_eq!(s[0].position, c.position());
        }
        // Stepping back stops the search of the old position and starts the new one.
        c.handle(Action::ViewBack);
        c.tick();
        let effects = c.take_effects();
        assert!(effects.contains(&Effect::Stop));
        assert!(effects
            .iter()
            .any(|e| matches!(e, Effect::Search(r) if r.position == c.position())));
        assert_eq!(c.game().moves().len(), 1);
        // m stops and resumes; z leaves with the players restored.
        c.handle(Action::MoveNow);
        c.tick();
        assert!(c.take_effects().contains(&Effect::Stop));
        c.handle(Action::MoveNow);
        c.tick();
        assert_eq!(searches(&mut c).len(), 1);
        c.handle(Action::Analyze);
        assert_eq!(c.players(), Players::default());
        assert!(c.analysis().is_none());
    }
}
