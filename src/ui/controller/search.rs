//! Engine scheduling: starting the engine on its turn, stopping it, and taking in its
//! reports and results (the last report stays visible after the search).

use super::*;

impl Controller {
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

    pub(super) fn start_search(&mut self, purpose: Purpose) {
        let id = self.next_id;
        self.next_id += 1;
        self.searching = Some((id, purpose));
        // The last report stays on screen until this search sends its first one.
        self.thinking_live = false;
        self.search_started = Instant::now();
        self.effects.push(Effect::Search(SearchRequest {
            id,
            purpose,
            position: self.position(),
            history: self.game.history().to_vec(),
            limits: self.level.limits(),
        }));
    }

    pub(super) fn cancel_search(&mut self) {
        if self.searching.take().is_some() {
            self.effects.push(Effect::Stop);
        }
    }

    /// A progress report of search `id`.
    pub fn on_engine_info(&mut self, id: u64, info: &Info) {
        if self.searching.is_some_and(|(s, _)| s == id) {
            self.thinking = Some(Thinking::from_info(&self.position(), info));
            self.thinking_live = true;
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
        let pos = self.position();
        // The final report stays visible after the search.
        self.thinking = Some(Thinking::from_result(&pos, result));
        self.thinking_live = false;
        let Some(best) = result.best else { return };
        let text = move_to_string(&pos, best, Notation::Algebraic);
        match purpose {
            Purpose::Hint => {
                self.hint = Some(best);
                self.info(format!(
                    "Hint: {text} ({})",
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
}
