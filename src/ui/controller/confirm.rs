//! Questions before losing work: discarding a game in progress (new game, load, FEN
//! set-up, quit) and overwriting a file; and choosing a game of a multi-game file.

use super::*;

impl Controller {
    /// Whether the game would be lost: it has moves, is not over, and was changed since
    /// it was last saved or loaded.
    pub fn game_in_progress(&self) -> bool {
        let moves = self.game.moves();
        !moves.is_empty() && self.result().is_none() && self.saved.as_deref() != Some(moves)
    }

    /// Do `what` now, or ask first when it would discard a game in progress.
    pub(super) fn ask_or_do(&mut self, what: Pending) {
        if self.game_in_progress() {
            let n = self.game.moves().len();
            let verb = match what {
                Pending::NewGame | Pending::Ballot => "Start a new game",
                Pending::Load => "Load a game",
                Pending::SetFen => "Set up a position",
                Pending::Quit => "Quit",
                Pending::Overwrite { .. } | Pending::ContinueFrom(_) => "Go on",
            };
            self.prompt = None;
            self.choice = None;
            self.help = false;
            self.confirm = Some(what);
            self.question = format!(
                "{verb} and lose the unsaved game ({})? y: yes, n: no",
                crate::plural::plies(n)
            );
        } else {
            self.carry_out(what);
        }
    }

    /// Ask before replacing an existing file with the game.
    pub(super) fn ask_overwrite(&mut self, path: PathBuf, text: String) {
        self.question = format!("{} exists. Overwrite it? y: yes, n: no", path.display());
        self.confirm = Some(Pending::Overwrite { path, text });
    }

    fn carry_out(&mut self, what: Pending) {
        match what {
            Pending::NewGame => self.new_game(Position::start()),
            Pending::Ballot => self.start_ballot(
                &crate::ui::ballot::BallotChoice::Random.pick(&mut rand::thread_rng()),
            ),
            Pending::Load => {
                let path = self.load_path.clone();
                self.open_prompt(PromptKind::Load, path);
            }
            Pending::SetFen => {
                let fen = to_fen(&self.position());
                self.open_prompt(PromptKind::Fen, fen);
            }
            Pending::Quit => {
                self.cancel_search();
                self.effects.push(Effect::Quit);
            }
            Pending::ContinueFrom(i) => self.continue_from(i),
            Pending::Overwrite { path, text } => {
                self.written = Some(path.clone());
                self.effects.push(Effect::Save { path, text });
            }
        }
    }

    /// An answer to the open question: y carries it out, n or Esc keeps everything.
    pub(super) fn answer(&mut self, action: Action) {
        match action {
            Action::Yes => {
                if let Some(what) = self.confirm.take() {
                    self.message = None;
                    self.carry_out(what);
                }
            }
            Action::No | Action::Cancel => {
                self.confirm = None;
                self.info("Nothing changed.");
            }
            Action::Interrupt => {
                self.confirm = None;
                self.handle(Action::Interrupt);
            }
            _ => {}
        }
    }

    /// The game was written to `path`: it is saved, and saving there again needs no question.
    pub fn on_saved(&mut self, path: &std::path::Path) {
        self.saved = Some(self.game.moves().to_vec());
        self.written = Some(path.to_path_buf());
        self.info(format!("Saved to {}.", path.display()));
    }

    /// Keys while a game of a multi-game file is being chosen.
    pub(super) fn choose_game(&mut self, action: Action) {
        let Some(list) = self.game_list.as_mut() else {
            return;
        };
        let n = list.games.len();
        match action {
            Action::NextChoice => list.index = (list.index + 1) % n,
            Action::PrevChoice => list.index = (list.index + n - 1) % n,
            Action::Choose(i) if i < n => {
                list.index = i;
                self.load_chosen();
            }
            Action::Submit => self.load_chosen(),
            Action::Cancel => {
                self.game_list = None;
                self.info("Nothing loaded.");
            }
            Action::Quit | Action::Interrupt => {
                self.game_list = None;
                self.handle(action);
            }
            _ => {}
        }
    }

    fn load_chosen(&mut self) {
        let Some(list) = self.game_list.take() else {
            return;
        };
        let i = list.index;
        if let Err(e) = self.load_game(
            &list.games[i],
            &format!("Game {} of {} loaded", i + 1, list.games.len()),
        ) {
            self.error(format!("Cannot load game {}: {e}", i + 1));
        }
    }
}
