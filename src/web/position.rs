//! The position at the end of a line as the page draws it (`POST /api/position`),
//! the book's moves there (`POST /api/book`) and FEN normalised (`POST /api/fen`).

use serde::Deserialize;
use serde_json::{json, Value};

use damas_rules::fen::{parse_fen, to_fen};
use damas_rules::movegen::legal_moves;
use damas_rules::moves::Move;
use damas_rules::notation::{capture_paths, move_to_string, Notation};
use damas_rules::pdn::MoveNumber;
use damas_rules::position::{Color, Kind, Position};
use damas_rules::square::Square;
use damas_rules::variant::Variant;

use super::error::ApiError;
use super::line::{move_id, notation, Line};

/// A line with the notation its texts are wanted in.
#[derive(Clone, Debug, Deserialize)]
pub struct LineRequest {
    /// The line.
    #[serde(flatten)]
    pub line: Line,
    /// The notation of the answer's texts (algebraic when absent).
    #[serde(default, deserialize_with = "notation")]
    pub notation: Notation,
}

/// The body of `POST /api/fen`.
#[derive(Clone, Debug, Deserialize)]
pub struct FenRequest {
    /// The FEN.
    pub fen: String,
    /// The rules (not needed to read a FEN; accepted for the page's convenience).
    #[serde(default)]
    pub variant: Option<String>,
}

/// The answer of `POST /api/position`.
pub fn position(req: &LineRequest) -> Result<Value, ApiError> {
    let variant = req.line.variant;
    let game = req.line.replay()?;
    let pos = game.position();
    let legal: Vec<Move> = if game.result().is_some() {
        Vec::new()
    } else {
        legal_moves(variant, &pos).to_vec()
    };
    let mut must_capture: Vec<u8> = legal
        .iter()
        .filter(|m| m.is_capture())
        .map(|m| m.from().numeric())
        .collect();
    must_capture.sort_unstable();
    must_capture.dedup();
    let mut p = game.start();
    let first = p.side_to_move();
    let mut moves = Vec::with_capacity(game.moves().len());
    for (ply, &m) in game.moves().iter().enumerate() {
        moves.push(json!({
            "text": move_to_string(variant, &p, m, req.notation),
            "number": number_text(MoveNumber::of_ply(first, ply)),
        }));
        p = p.play(m);
    }
    Ok(json!({
        "fen": to_fen(&pos),
        "board": board(&pos),
        "side": side_name(pos.side_to_move()),
        "legal": legal.iter().map(|&m| legal_move(variant, &pos, m, req.notation)).collect::<Vec<_>>(),
        "must_capture": must_capture,
        "moves": moves,
        "outcome": game.result().map(|r| json!({"result": r.pdn(), "reason": r.reason.describe()})),
    }))
}

/// `12.` for White's move, `12...` for Black's.
pub fn number_text(n: MoveNumber) -> String {
    if n.black {
        n.to_string()
    } else {
        format!("{n}.")
    }
}

/// `white` or `black`.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The 32 squares in numeric order: `null`, `w`/`b` (men), `W`/`B` (kings).
fn board(pos: &Position) -> Vec<Option<&'static str>> {
    (1..=32u8)
        .filter_map(Square::from_numeric)
        .map(|s| {
            pos.piece_at(s).map(|p| match (p.color, p.kind) {
                (Color::White, Kind::Man) => "w",
                (Color::Black, Kind::Man) => "b",
                (Color::White, Kind::King) => "W",
                (Color::Black, Kind::King) => "B",
            })
        })
        .collect()
}

/// One legal move as the page uses it: its id, text, squares visited and taken.
fn legal_move(variant: Variant, pos: &Position, m: Move, notation: Notation) -> Value {
    let path: Vec<u8> = if m.is_capture() {
        capture_paths(variant, pos, m, 1)
            .pop()
            .unwrap_or_else(|| vec![m.from(), m.to()])
            .iter()
            .map(|s| s.numeric())
            .collect()
    } else {
        vec![m.from().numeric(), m.to().numeric()]
    };
    let mut captured: Vec<u8> = m.captured().iter().map(|s| s.numeric()).collect();
    captured.sort_unstable();
    json!({
        "id": move_id(variant, pos, m),
        "text": move_to_string(variant, pos, m, notation),
        "from": m.from().numeric(),
        "to": m.to().numeric(),
        "path": path,
        "captured": captured,
    })
}

/// The answer of `POST /api/book`: the shipped book's legal moves at the end of
/// the line, with their weights (none once out of book).
pub fn book(req: &LineRequest) -> Result<Value, ApiError> {
    let variant = req.line.variant;
    let game = req.line.replay()?;
    let pos = game.position();
    let legal = legal_moves(variant, &pos);
    let moves: Vec<Value> = damas_engine::book::embedded_book(variant)
        .moves(&pos)
        .unwrap_or_default()
        .iter()
        .filter(|b| legal.contains(&b.mv))
        .map(|b| {
            json!({
                "id": move_id(variant, &pos, b.mv),
                "text": move_to_string(variant, &pos, b.mv, req.notation),
                "weight": b.weight.0,
            })
        })
        .collect();
    Ok(json!({ "moves": moves }))
}

/// The answer of `POST /api/fen`: the FEN as the rules crate writes it.
pub fn fen(req: &FenRequest) -> Result<Value, ApiError> {
    if let Some(v) = &req.variant {
        v.parse::<Variant>()
            .map_err(|e| ApiError::bad(format!("variant: {e}")))?;
    }
    let pos = parse_fen(&req.fen).map_err(|e| ApiError::bad(format!("fen: {e}")))?;
    Ok(json!({ "fen": to_fen(&pos) }))
}
