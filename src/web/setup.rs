//! `GET /api/setup`: what the page offers (rules, strengths, clocks, ballots,
//! notations) and the board's geometry, all from the engine's own types.

use serde_json::{json, Value};

use damas_engine::level::Strength;
use damas_rules::movegen::legal_moves;
use damas_rules::moves::Move;
use damas_rules::notation::Notation;
use damas_rules::position::Position;
use damas_rules::square::Square;
use damas_rules::variant::Variant;

use crate::matches::{fmjd_ballots, Opening};

use super::line::line_ids;

/// The time controls the page offers for a game against the engine: times per move
/// as the terminal game steps through them, and game clocks.
pub const CLOCKS: [&str; 10] = [
    "move-time=0.5",
    "move-time=1",
    "move-time=2",
    "move-time=5",
    "move-time=10",
    "clock=1m+1",
    "clock=3m+2",
    "clock=5m+3",
    "clock=10m+5",
    "clock=15m+10",
];

/// The notations the page may ask for.
pub const NOTATIONS: [Notation; 2] = [Notation::Algebraic, Notation::Numeric];

/// The answer of `GET /api/setup`.
pub fn setup() -> Value {
    let strengths: Vec<Value> = (Strength::MIN.number()..=Strength::FULL.number())
        .filter_map(Strength::new)
        .map(|s| json!({"number": s.number(), "name": s.name()}))
        .collect();
    let ballots: serde_json::Map<String, Value> = Variant::ALL
        .iter()
        .map(|&v| (v.name().to_string(), Value::Array(ballots(v))))
        .collect();
    let numbered = || (1..=32u8).filter_map(Square::from_numeric);
    json!({
        "variants": Variant::ALL.iter().map(|v| v.name()).collect::<Vec<_>>(),
        "strengths": strengths,
        "default_strength": Strength::FULL.number(),
        "clocks": CLOCKS,
        "ballots": ballots,
        "notations": NOTATIONS.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
        "square_names": numbered().map(|s| s.algebraic()).collect::<Vec<_>>(),
        "dark_squares": numbered().map(|s| [s.file(), s.row()]).collect::<Vec<_>>(),
    })
}

/// The FMJD ballots under the rules of `variant`: each its name, and the moves of
/// its name from the initial position as ids (or, where they cannot be replayed
/// under these rules, its position as the start with no moves).
fn ballots(variant: Variant) -> Vec<Value> {
    fmjd_ballots()
        .unwrap_or_default()
        .into_iter()
        .map(|b| match named_moves(variant, &b) {
            Some(moves) => json!({
                "name": b.name,
                "start": Value::Null,
                "moves": line_ids(variant, &Position::start(), &moves),
            }),
            None => json!({
                "name": b.name,
                "start": damas_rules::fen::to_fen(&b.start),
                "moves": Vec::<String>::new(),
            }),
        })
        .collect()
}

/// The moves a ballot's name spells from the initial position (`1-I cd4 ba5 dc5`:
/// the man on file c to d4, …), when each names exactly one legal move and they
/// reach the ballot's position.
fn named_moves(variant: Variant, ballot: &Opening) -> Option<Vec<Move>> {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    // `Free`: no move for that side's turn in the ballot's name.
    for token in ballot
        .name
        .split_whitespace()
        .skip(1)
        .filter(|t| *t != "Free")
    {
        let file = token.chars().next()?;
        let to = Square::from_algebraic(token.get(1..)?)?;
        let matching: Vec<Move> = legal_moves(variant, &pos)
            .iter()
            .copied()
            .filter(|m| m.to() == to && m.from().algebraic().starts_with(file))
            .collect();
        let [mv] = matching[..] else { return None };
        moves.push(mv);
        pos = pos.play(mv);
    }
    (pos == ballot.start).then_some(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_engine::time::TimeControl;

    #[test]
    fn every_ballot_is_replayed_from_its_name_and_every_clock_reads() {
        assert!(CLOCKS.iter().all(|c| c.parse::<TimeControl>().is_ok()));
        for v in Variant::ALL {
            let list = ballots(v);
            assert_eq!(list.len(), crate::matches::BALLOT_COUNT);
            assert!(list.iter().all(|b| b["start"].is_null()), "{v}");
        }
        let s = setup();
        assert_eq!(s["square_names"][0], "b8");
        assert_eq!(s["dark_squares"][28], json!([0, 0]));
        assert_eq!(s["strengths"].as_array().unwrap().len(), 10);
    }
}
