//! Printing and parsing moves: algebraic (`c3-d4`, `c3xe5`, full path `a1xd4xg7` when
//! needed), numeric lidraughts (`22-18`, `22x13`) and Hub (`22x13x18`: from, to, then
//! every captured square).

use std::fmt;

use thiserror::Error;

use crate::bitboard::{Bitboard, NEIGHBOR, NO_SQUARE};
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
use crate::variant::{Rules, Variant};

/// A move notation.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Notation {
    /// `c3-d4`, `c3xe5`, `a1xd4xg7` when two captures share start and end.
    #[default]
    Algebraic,
    /// lidraughts/FMJD numbers: `22-18`, `22x13`, `22x13x4` when needed.
    Numeric,
    /// Hub protocol: `22-18`, `22x13x18` (from, to, captured squares).
    Hub,
}

impl Notation {
    /// Every notation, with the name [`Notation::from_str`](std::str::FromStr) reads.
    pub const ALL: [(Notation, &'static str); 3] = [
        (Notation::Algebraic, "algebraic"),
        (Notation::Numeric, "numeric"),
        (Notation::Hub, "hub"),
    ];
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = Notation::ALL
            .iter()
            .find(|(n, _)| n == self)
            .map_or("algebraic", |(_, name)| name);
        f.write_str(name)
    }
}

/// A notation name that is none of [`Notation::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown notation {0:?} (algebraic, numeric or hub)")]
pub struct NotationNameError(pub String);

impl std::str::FromStr for Notation {
    type Err = NotationNameError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Notation::ALL
            .iter()
            .find(|(_, name)| name.eq_ignore_ascii_case(s))
            .map(|&(n, _)| n)
            .ok_or_else(|| NotationNameError(s.to_string()))
    }
}

/// Why a move text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move in any notation.
    #[error("cannot read move {text:?} at column {}: {reason}", .column + 1)]
    Syntax {
        /// The input.
        text: String,
        /// 0-based byte offset of the problem.
        column: usize,
        /// What is wrong.
        reason: String,
    },
    /// No legal move matches.
    #[error("illegal move {text:?}; legal moves: {}", list_or_none(.legal))]
    Illegal {
        /// The input.
        text: String,
        /// The legal moves, in algebraic notation.
        legal: Vec<String>,
    },
    /// More than one legal move matches.
    #[error("ambiguous move {text:?}: could be {}", .candidates.join(", "))]
    Ambiguous {
        /// The input.
        text: String,
        /// The matching moves with their full paths.
        candidates: Vec<String>,
    },
}

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(" ")
    }
}

/// Every landing sequence (start, landings…, end) that plays `mv` in `pos`, at most
/// `limit` of them. A quiet move has the single path `[from, to]`.
/// Under the rules of `variant`, where men are crowned during a capture, a man's path
/// goes on as a king's once it lands on its far row (and only a [`Move::crowned`] move
/// has such paths).
pub fn capture_paths(variant: Variant, pos: &Position, mv: Move, limit: usize) -> Vec<Vec<Square>> {
    if !mv.is_capture() {
        return vec![vec![mv.from(), mv.to()]];
    }
    let king = pos.kings().contains(mv.from());
    let crowns = crate::with_rules!(variant, R => R::CROWNS_MID_CAPTURE);
    let walk = Walk {
        empty: (pos.empty() | Bitboard::square(mv.from())).0,
        far_row: if crowns {
            pos.side_to_move().promotion_row().0
        } else {
            0
        },
        mv,
        limit,
    };
    let mut out = Vec::new();
    let mut path = vec![mv.from()];
    walk.paths_from(king, mv.from().index(), 0, &mut path, &mut out);
    out
}

/// What a capture-path search keeps fixed.
struct Walk {
    /// Empty squares, the mover's start included.
    empty: u32,
    /// The row where a man is crowned mid-capture (none where the rules do not).
    far_row: u32,
    /// The move whose paths are sought.
    mv: Move,
    /// The most paths wanted.
    limit: usize,
}

impl Walk {
    fn paths_from(
        &self,
        king: bool,
        sq: usize,
        taken: u32,
        path: &mut Vec<Square>,
        out: &mut Vec<Vec<Square>>,
    ) {
        let (empty, mv, limit) = (self.empty, self.mv, self.limit);
        if out.len() >= limit {
            return;
        }
        let target = mv.captured().0;
        if taken == target {
            if sq == mv.to().index() {
                out.push(path.clone());
            }
            return;
        }
        for nb in &NEIGHBOR {
            let mut over = nb[sq];
            if king {
                while over != NO_SQUARE && empty & (1 << over) != 0 {
                    over = nb[over as usize];
                }
            }
            if over == NO_SQUARE || (target & !taken) & (1 << over) == 0 {
                continue;
            }
            let mut land = nb[over as usize];
            while land != NO_SQUARE && empty & (1 << land) != 0 {
                // A man landing on its far row where men crown mid-capture goes on
                // as a king, which only a crowned move does.
                let crowned = !king && self.far_row & (1 << land) != 0;
                if !crowned || mv.crowned() {
                    path.push(Square::from_index(land as u32));
                    self.paths_from(king || crowned, land as usize, taken | 1 << over, path, out);
                    path.pop();
                }
                if !king {
                    break;
                }
                land = nb[land as usize];
            }
        }
    }
}

fn square_text(s: Square, numeric: bool) -> String {
    if numeric {
        s.numeric().to_string()
    } else {
        s.to_string()
    }
}

/// The move as text in `notation`. Captures print the full path only when another
/// legal move has the same start and end.
pub fn move_to_string(variant: Variant, pos: &Position, mv: Move, notation: Notation) -> String {
    let numeric = notation != Notation::Algebraic;
    if !mv.is_capture() {
        return format!(
            "{}-{}",
            square_text(mv.from(), numeric),
            square_text(mv.to(), numeric)
        );
    }
    if notation == Notation::Hub {
        let mut caps: Vec<u8> = mv.captured().iter().map(|s| s.numeric()).collect();
        caps.sort_unstable();
        let mut s = format!("{}x{}", mv.from().numeric(), mv.to().numeric());
        for c in caps {
            s.push_str(&format!("x{c}"));
        }
        return s;
    }
    let twin = legal_moves(variant, pos)
        .iter()
        .any(|&m| m != mv && m.from() == mv.from() && m.to() == mv.to());
    if twin {
        full_path(variant, pos, mv, numeric)
    } else {
        format!(
            "{}x{}",
            square_text(mv.from(), numeric),
            square_text(mv.to(), numeric)
        )
    }
}

fn full_path(variant: Variant, pos: &Position, mv: Move, numeric: bool) -> String {
    let path = capture_paths(variant, pos, mv, 1)
        .pop()
        .unwrap_or_else(|| vec![mv.from(), mv.to()]);
    path.iter()
        .map(|&s| square_text(s, numeric))
        .collect::<Vec<_>>()
        .join("x")
}

/// A move that prints itself in a notation (for `format!`).
pub struct Display<'a> {
    variant: Variant,
    pos: &'a Position,
    mv: Move,
    notation: Notation,
}

impl fmt::Display for Display<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&move_to_string(
            self.variant,
            self.pos,
            self.mv,
            self.notation,
        ))
    }
}

/// Wrap `mv` for printing in `notation`.
pub fn display(variant: Variant, pos: &Position, mv: Move, notation: Notation) -> Display<'_> {
    Display {
        variant,
        pos,
        mv,
        notation,
    }
}

/// The legal moves of `pos` as text, in generation order.
pub fn legal_move_strings(variant: Variant, pos: &Position, notation: Notation) -> Vec<String> {
    legal_moves(variant, pos)
        .iter()
        .map(|&m| move_to_string(variant, pos, m, notation))
        .collect()
}

/// Squares named one after the other without separators (`a3b4`), if `tok` is that.
fn compact_squares(tok: &str) -> Option<Vec<Square>> {
    if tok.len() < 4 || !tok.len().is_multiple_of(2) || !tok.is_ascii() {
        return None;
    }
    (0..tok.len())
        .step_by(2)
        .map(|i| {
            let name = &tok[i..i + 2];
            name.as_bytes()[0]
                .is_ascii_alphabetic()
                .then(|| Square::from_algebraic(name))
                .flatten()
        })
        .collect()
}

/// Why `tok` is not a square: a light square, or no square name at all.
fn square_problem(tok: &str) -> String {
    let b = tok.as_bytes();
    let named = b.len() == 2
        && (b'a'..=b'h').contains(&b[0].to_ascii_lowercase())
        && (b'1'..=b'8').contains(&b[1]);
    if named {
        format!("{tok:?} is a light square (pieces stand on the dark squares)")
    } else if !tok.is_empty() && tok.bytes().all(|c| c.is_ascii_digit()) {
        format!("{tok:?} is not a square number (1 to 32)")
    } else {
        format!("{tok:?} is not a square (write c3-d4, c3xe5 or 22-18)")
    }
}

fn tokens(text: &str) -> Result<Vec<Square>, MoveError> {
    let syntax = |column: usize, reason: &str| MoveError::Syntax {
        text: text.to_string(),
        column,
        reason: reason.to_string(),
    };
    let t = text.trim();
    let lead = text.len() - text.trim_start().len();
    if t.is_empty() {
        return Err(syntax(0, "empty move"));
    }
    let mut squares = Vec::new();
    let mut start = 0;
    let bytes = t.as_bytes();
    for i in 0..=bytes.len() {
        let sep = i == bytes.len() || matches!(bytes[i], b'-' | b'x' | b'X' | b':');
        if sep {
            let tok = &t[start..i];
            if tok.is_empty() {
                return Err(syntax(lead + start, "expected a square"));
            }
            // One square, or squares written together without a separator (`a3b4`).
            let parsed = Square::parse(tok)
                .map(|s| vec![s])
                .or_else(|| compact_squares(tok));
            match parsed {
                Some(v) => squares.extend(v),
                None => return Err(syntax(lead + start, &square_problem(tok))),
            }
            start = i + 1;
        }
    }
    if squares.len() < 2 {
        return Err(syntax(
            lead + t.len(),
            "a move needs at least a start and an end square",
        ));
    }
    Ok(squares)
}

fn resolve(
    variant: Variant,
    pos: &Position,
    text: &str,
    matches: impl Fn(Move) -> bool,
) -> Result<Move, MoveError> {
    let legal = legal_moves(variant, pos);
    let found: Vec<Move> = legal.iter().copied().filter(|&m| matches(m)).collect();
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(MoveError::Illegal {
            text: text.trim().to_string(),
            legal: legal
                .iter()
                .map(|&m| move_to_string(variant, pos, m, Notation::Algebraic))
                .collect(),
        }),
        _ => Err(MoveError::Ambiguous {
            text: text.trim().to_string(),
            candidates: found
                .iter()
                .map(|&m| full_path(variant, pos, m, false))
                .collect(),
        }),
    }
}

/// Parse a move in any notation against `pos`: `c3-d4`, `c3xe5`, `c3:e5`, a full path
/// (`a1xd4xg7`, `22x13x6`), a Hub move (`22x13x18`), from–to only when unambiguous.
pub fn parse_move(variant: Variant, pos: &Position, text: &str) -> Result<Move, MoveError> {
    let sq = tokens(text)?;
    let (from, to) = (sq[0], sq[sq.len() - 1]);
    resolve(variant, pos, text, |m| {
        if m.from() != from {
            return false;
        }
        if sq.len() == 2 {
            return m.to() == to;
        }
        let hub = m.to() == sq[1]
            && m.captured() == sq[2..].iter().copied().collect::<Bitboard>()
            && m.captured().count() as usize == sq.len() - 2;
        hub || (m.to() == to && capture_paths(variant, pos, m, 4096).contains(&sq))
    })
}

/// Parse a Hub move strictly: `from-to`, or `fromxto` followed by every captured square.
pub fn parse_hub_move(variant: Variant, pos: &Position, text: &str) -> Result<Move, MoveError> {
    let sq = tokens(text)?;
    let caps: Bitboard = sq[2..].iter().copied().collect();
    if caps.count() as usize != sq.len() - 2 {
        return Err(MoveError::Syntax {
            text: text.to_string(),
            column: 0,
            reason: "a captured square is listed twice".into(),
        });
    }
    resolve(variant, pos, text, |m| {
        m.from() == sq[0] && m.to() == sq[1] && m.captured() == caps
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn squares_without_separator_and_light_squares() {
        let pos = Position::start();
        let m = parse_move(Variant::Brazilian, &pos, "a3b4").unwrap();
        assert_eq!(
            move_to_string(Variant::Brazilian, &pos, m, Notation::Algebraic),
            "a3-b4"
        );
        assert_eq!(
            parse_move(Variant::Brazilian, &pos, "C3D4").unwrap(),
            parse_move(Variant::Brazilian, &pos, "c3-d4").unwrap()
        );
        let e = parse_move(Variant::Brazilian, &pos, "a2-b3")
            .unwrap_err()
            .to_string();
        assert!(e.contains("light square"), "{e}");
        let e = parse_move(Variant::Brazilian, &pos, "z9-b3")
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a square"), "{e}");
    }

    use super::*;
    use crate::fen::parse_fen;

    #[test]
    fn print_and_parse_each_notation() {
        let p = Position::start();
        let m = parse_move(Variant::Brazilian, &p, "c3-d4").unwrap();
        assert_eq!(
            move_to_string(Variant::Brazilian, &p, m, Notation::Numeric),
            "22-18"
        );
        assert_eq!(
            move_to_string(Variant::Brazilian, &p, m, Notation::Hub),
            "22-18"
        );
        assert_eq!(parse_move(Variant::Brazilian, &p, "22-18").unwrap(), m);
        assert_eq!(parse_move(Variant::Brazilian, &p, " 22:18 ").unwrap(), m);
        assert!(matches!(
            parse_move(Variant::Brazilian, &p, "c3-c4"),
            Err(MoveError::Syntax { column: 3, .. })
        ));
        assert!(
            matches!(parse_move(Variant::Brazilian, &p, "c3-e5"), Err(MoveError::Illegal { ref legal, .. }) if legal.len() == 7)
        );
        assert!(matches!(
            parse_move(Variant::Brazilian, &p, ""),
            Err(MoveError::Syntax { .. })
        ));
        assert!(matches!(
            parse_move(Variant::Brazilian, &p, "c3--d4"),
            Err(MoveError::Syntax { .. })
        ));
    }

    #[test]
    fn captures_and_paths() {
        // White king a1, black men on b2? no: d4 and f6 and d6 – two routes.
        let p = parse_fen("W:WKa1:Bc3,e5,c5,g7").unwrap();
        let moves = crate::movegen::legal_moves(Variant::Brazilian, &p);
        for &m in moves.iter() {
            let s = move_to_string(Variant::Brazilian, &p, m, Notation::Algebraic);
            assert_eq!(parse_move(Variant::Brazilian, &p, &s).unwrap(), m, "{s}");
            let h = move_to_string(Variant::Brazilian, &p, m, Notation::Hub);
            assert_eq!(
                parse_hub_move(Variant::Brazilian, &p, &h).unwrap(),
                m,
                "{h}"
            );
            assert_eq!(parse_move(Variant::Brazilian, &p, &h).unwrap(), m, "{h}");
            let n = move_to_string(Variant::Brazilian, &p, m, Notation::Numeric);
            assert_eq!(parse_move(Variant::Brazilian, &p, &n).unwrap(), m, "{n}");
        }
    }
}
