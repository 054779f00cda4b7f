//! Engine scheduling: starting the engine on its turn, stopping it, and taking in its
//! reports and results (the last report stays visible after the search).

use super::*;
use damas_engine::search::Tuning;
use damas_engine::think::Source;
use damas_engine::time::{MoveBudget, MoveOverhead};

impl Controller {
    /// Start the engine when it is its turn. Call after every event.
    pub fn tick(&mut self) {
        if self.analysis.is_some() {
            self.tick_analysis();
            return;
        }
        if let Some(side) = self.flag_fall() {
            self.cancel_search();
            // The clock stops at zero.
            self.clocks[side as usize] += self.turn_start.elapsed();
            self.turn_start = Instant::now();
            self.flag = Some(side);
            self.selected = None;
            self.choice = None;
            self.announce_end();
        }
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
        let side = self.position().side_to_move();
        // On a clock the engine manages its time as the Hub engine does.
        let clock = self.clock.and_then(|c| c.game_clock());
        let budget = match (purpose, clock, self.time_left(side)) {
            // No pipes between the board and the engine: the default overhead; the
            // default engine's time constants.
            (Purpose::Move, Some((_, inc)), Some(left)) => MoveBudget::for_level(
                &TimeControl::Clock {
                    moves: None,
                    time: left,
                    inc,
                },
                MoveOverhead::default(),
                &Tuning::default(),
            ),
            // The analysis board thinks until stopped.
            (Purpose::Analysis, _, _) => MoveBudget::default(),
            _ => crate::ui::setup::level_budget(&self.level),
        };
        self.effects.push(Effect::Search(SearchRequest {
            id,
            purpose,
            position: self.position(),
            history: self.game.history().to_vec(),
            budget,
            strength: match purpose {
                Purpose::Move => self.strength,
                Purpose::Hint | Purpose::Analysis => Strength::FULL,
            },
            lines: match (purpose, &self.analysis) {
                (Purpose::Analysis, Some(a)) => a.lines,
                _ => 1,
            },
        }));
    }

    /// The side to move when its clock has just run out.
    fn flag_fall(&self) -> Option<Color> {
        if self.flag.is_some() || self.game.result().is_some() {
            return None;
        }
        let side = self.position().side_to_move();
        self.time_left(side)
            .is_some_and(|t| t.is_zero())
            .then_some(side)
    }

    pub(super) fn cancel_search(&mut self) {
        if self.searching.take().is_some() {
            self.effects.push(Effect::Stop);
        }
    }

    /// A progress report of search `id`.
    pub fn on_engine_info(&mut self, id: u64, info: &Info) {
        if self.searching.is_some_and(|(s, _)| s == id) {
            self.thinking = Some(Thinking::from_info(
                self.variant(),
                self.oracle.as_deref(),
                &self.position(),
                info,
            ));
            self.thinking_live = true;
        }
    }

    /// Search `id` finished with a searched move.
    pub fn on_engine_done(&mut self, id: u64, result: &SearchResult) {
        self.on_engine_thought(id, result, Source::Search);
    }

    /// Search `id` finished: its result and where its move came from (a book or
    /// forced move, or one chosen at a strength level, is labelled as such).
    pub fn on_engine_thought(&mut self, id: u64, result: &SearchResult, source: Source) {
        let Some((s, purpose)) = self.searching else {
            return;
        };
        if s != id {
            return;
        }
        self.searching = None;
        if purpose == Purpose::Analysis {
            // Its last report (with every line) stays on screen.
            self.thinking_live = false;
            self.analysis_finished();
            return;
        }
        let pos = self.position();
        // The final report stays visible after the search.
        let strength = match purpose {
            Purpose::Move => self.strength,
            Purpose::Hint | Purpose::Analysis => Strength::FULL,
        };
        self.thinking = Some(Thinking::from_thought(
            self.variant(),
            self.oracle.as_deref(),
            &pos,
            result,
            source,
            strength,
        ));
        self.thinking_live = false;
        let Some(best) = result.best else { return };
        let text = move_to_string(self.variant(), &pos, best, Notation::Algebraic);
        match purpose {
            Purpose::Hint => {
                self.hint = Some(best);
                self.info(format!(
                    "Hint: {text} ({})",
                    Thinking::score_text(
                        self.variant(),
                        self.oracle.as_deref(),
                        &pos,
                        result.score,
                        &result.pv
                    )
                ));
            }
            Purpose::Analysis => {}
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
