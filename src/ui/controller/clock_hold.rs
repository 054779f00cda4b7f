//! The game clock stops while the player reviews the game or asks for a hint: that
//! time is not spent on the move.

use super::*;

impl Controller {
    /// Whether the clock of the side to move stands still: a review being made or
    /// shown, or a hint being searched.
    fn clock_stopped(&self) -> bool {
        self.review.is_some()
            || self.reviewing.is_some()
            || matches!(self.searching, Some((_, Purpose::Hint)))
    }

    /// Stop or restart the clock as reviews and hints come and go; called after
    /// every event.
    pub fn sync_clock_hold(&mut self) {
        match (self.clock_stopped(), self.clock_held) {
            (true, None) => self.clock_held = Some(Instant::now()),
            (false, Some(since)) => {
                // Only the part of the hold inside this turn is given back.
                let from = since.max(self.turn_start);
                self.turn_start += from.elapsed();
                self.clock_held = None;
            }
            _ => {}
        }
    }

    /// Time the side to move has used on this turn, the hold left out.
    pub(super) fn turn_elapsed(&self) -> Duration {
        match self.clock_held {
            Some(since) => since.saturating_duration_since(self.turn_start),
            None => self.turn_start.elapsed(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_stops_the_clock_of_the_side_to_move() {
        let mut c = Controller::new(
            Variant::Brazilian,
            Position::start(),
            Players {
                white: Player::Human,
                black: Player::Human,
            },
            TimeControl::Depth(1),
        );
        c.searching = Some((0, Purpose::Hint));
        c.sync_clock_hold();
        let held = c.clocks()[0];
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(c.clocks()[0], held, "the clock ran during the hint");
        c.searching = None;
        c.sync_clock_hold();
        assert!(c.clock_held.is_none());
        std::thread::sleep(Duration::from_millis(5));
        assert!(c.clocks()[0] > held, "the clock did not restart");
    }
}
