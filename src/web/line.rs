//! A line, as the page sends it with every request: the rules, the start position
//! and the moves played (as move ids), replayed by the rules crate into a
//! [`Game`]; and the move ids themselves.

use serde::{Deserialize, Deserializer};

use damas_rules::fen::parse_fen;
use damas_rules::game::Game;
use damas_rules::moves::Move;
use damas_rules::notation::{move_to_string, parse_move, Notation};
use damas_rules::pdn::MoveNumber;
use damas_rules::position::Position;
use damas_rules::variant::Variant;

use super::error::ApiError;

/// The longest line accepted, in moves: far beyond any game the draw rules allow,
/// so replaying a request stays cheap.
pub const MAX_LINE_MOVES: usize = 2000;

/// A line: `{"variant", "start": FEN|null, "moves": [MOVE_ID, …]}`.
#[derive(Clone, Debug, Deserialize)]
pub struct Line {
    /// The rules.
    #[serde(deserialize_with = "variant")]
    pub variant: Variant,
    /// The start position as FEN; `None`: the initial position.
    #[serde(default)]
    pub start: Option<String>,
    /// The moves played from the start, as move ids.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// A variant read by its name (`brazilian`, `russian`).
pub fn variant<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
    let name = String::deserialize(d)?;
    name.parse().map_err(serde::de::Error::custom)
}

/// An optional notation read by its name (`algebraic`, `numeric`); absent: algebraic.
pub fn notation<'de, D: Deserializer<'de>>(d: D) -> Result<Notation, D::Error> {
    let name = Option::<String>::deserialize(d)?;
    match name.as_deref() {
        None => Ok(Notation::Algebraic),
        Some(n) => n.parse().map_err(serde::de::Error::custom),
    }
}

/// The start position a FEN names (`None`: the initial one), or a 400 naming it.
pub fn start_position(fen: Option<&str>) -> Result<Position, ApiError> {
    match fen {
        None => Ok(Position::start()),
        Some(f) => parse_fen(f).map_err(|e| ApiError::bad(format!("start: {e}"))),
    }
}

impl Line {
    /// The game the line plays: every move legal in turn, none after the end;
    /// otherwise a 400 naming the move (its number and text) and why.
    pub fn replay(&self) -> Result<Game, ApiError> {
        if self.moves.len() > MAX_LINE_MOVES {
            return Err(ApiError::bad(format!(
                "moves: {} moves, at most {MAX_LINE_MOVES}",
                self.moves.len()
            )));
        }
        let start = start_position(self.start.as_deref())?;
        let mut game = Game::new(self.variant, start);
        for (ply, text) in self.moves.iter().enumerate() {
            let number = MoveNumber::of_ply(start.side_to_move(), ply);
            let at = format!("move {number} ({text:?}, moves[{ply}])");
            if let Some(result) = game.result() {
                return Err(ApiError::bad(format!("{at}: the game is over: {result}")));
            }
            let mv = parse_move(self.variant, &game.position(), text)
                .map_err(|e| ApiError::bad(format!("{at}: {e}")))?;
            game.play(mv);
        }
        Ok(game)
    }
}

/// The id of `mv` in `pos`: its algebraic text, with the full capture path when
/// another capture shares its start and end ([`parse_move`] reads it back).
pub fn move_id(variant: Variant, pos: &Position, mv: Move) -> String {
    move_to_string(variant, pos, mv, Notation::Algebraic)
}

/// The ids of `line`'s moves played from `pos` in turn.
pub fn line_ids(variant: Variant, pos: &Position, line: &[Move]) -> Vec<String> {
    texts(variant, pos, line, Notation::Algebraic)
}

/// The texts of `line`'s moves played from `pos` in turn, in `notation`; the line
/// is cut at its first move not legal where it stands.
pub fn texts(variant: Variant, pos: &Position, line: &[Move], notation: Notation) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        if !damas_rules::movegen::legal_moves(variant, &p).contains(&m) {
            break;
        }
        out.push(move_to_string(variant, &p, m, notation));
        p = p.play(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(moves: &[&str]) -> Line {
        Line {
            variant: Variant::Brazilian,
            start: None,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn a_line_replays_and_an_illegal_move_is_named() {
        let game = line(&["c3-d4", "f6-e5"]).replay().unwrap();
        assert_eq!(game.moves().len(), 2);
        let e = line(&["c3-d4", "c3-d4"]).replay().unwrap_err();
        assert!(
            e.message.starts_with("move 1... (\"c3-d4\", moves[1])"),
            "{}",
            e.message
        );
        let e = Line {
            start: Some("W:Wz9".into()),
            ..line(&[])
        }
        .replay()
        .unwrap_err();
        assert!(e.message.starts_with("start: "), "{}", e.message);
    }
}
