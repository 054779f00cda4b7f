//! Games from an FMJD ballot: the board starts at the ballot's position and the
//! record names it.

use super::*;
use crate::matches::Opening;

impl Controller {
    /// A new game from `ballot` (same players and level), named in the record.
    pub fn start_ballot(&mut self, ballot: &Opening) {
        self.new_game(ballot.position());
        self.opening = Some(ballot.clone());
        self.info(format!("New game from ballot {}.", ballot.name));
    }

    /// The name of the ballot the game started from.
    pub fn opening(&self) -> Option<&str> {
        self.opening.as_ref().map(|o| o.name.as_str())
    }

    /// The ballot's moves, each with the position it is played from, that lead to the
    /// game's start (none for a game not started from a ballot). A ballot given as a
    /// position has its moves in its name (`1-I cd4 ba5 dc5`: a man of file c to d4,
    /// …), replayed from the initial position.
    pub(super) fn ballot_moves(&self) -> Vec<(Position, Move)> {
        let Some(ballot) = &self.opening else {
            return Vec::new();
        };
        if !ballot.moves.is_empty() {
            let mut pos = ballot.start;
            return ballot
                .moves
                .iter()
                .map(|&m| {
                    let from = pos;
                    pos = pos.play(m);
                    (from, m)
                })
                .collect();
        }
        let mut pos = Position::start();
        let mut out = Vec::new();
        for token in ballot.name.split_whitespace().skip(1) {
            let (Some(file), Some(to)) = (token.get(..1), token.get(1..)) else {
                return Vec::new();
            };
            let found = legal_moves(self.variant(), &pos)
                .iter()
                .copied()
                .find(|&m| {
                    let text = move_to_string(self.variant(), &pos, m, Notation::Algebraic);
                    text.starts_with(file)
                        && (text.ends_with(&format!("-{to}")) || text.ends_with(&format!("x{to}")))
                });
            let Some(m) = found else {
                return Vec::new();
            };
            out.push((pos, m));
            pos = pos.play(m);
        }
        // Only moves that lead to the game's start are shown.
        if pos == ballot.start {
            out
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::ballot::BallotChoice;

    #[test]
    fn a_ballot_game_starts_there_and_its_record_names_it() {
        let ballot = BallotChoice::Number(1).pick(&mut rand::thread_rng());
        let mut c = Controller::new(
            Variant::Brazilian,
            Position::start(),
            Players {
                white: Player::Human,
                black: Player::Human,
            },
            TimeControl::Depth(1),
        );
        c.start_ballot(&ballot);
        assert_eq!(c.position(), ballot.position());
        assert_eq!(c.opening(), Some("1-I cd4 ba5 dc5"));
        // The move list shows the ballot's moves before the game's.
        assert_eq!(c.move_rows(), ["1. c3-d4 b6-a5", "2. d4-c5"]);
        let pdn = c.pdn_text();
        assert!(pdn.contains("[Opening \"1-I cd4 ba5 dc5\"]"), "{pdn}");
        assert!(pdn.contains("[SetUp \"1\"]"), "{pdn}");
        let game = &read_games(&pdn).unwrap()[0];
        assert_eq!(game.start, ballot.position());
        // A plain new game forgets the ballot.
        c.new_game(Position::start());
        assert_eq!(c.opening(), None);
        assert!(!c.pdn_text().contains("Opening"));
    }
}
