//! FEN reading and writing, in the algebraic form (`W:Wa1,c3,Kd4:Bb6`) and the
//! numeric lidraughts form (`W:W21,22,K18:B1-12:H0:F1`).

use thiserror::Error;

use crate::bitboard::Bitboard;
use crate::position::{Color, Position, PositionError};
use crate::square::Square;

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenErrorKind {
    /// Nothing but white space.
    #[error("empty FEN")]
    Empty,
    /// The first field is not `W` or `B`.
    #[error("side to move must be W or B, found {0:?}")]
    BadSide(String),
    /// A field that is not `W…`, `B…`, `H…` or `F…`.
    #[error("unknown field {0:?} (expected W…, B…, H… or F…)")]
    BadField(String),
    /// The same colour's piece list given twice.
    #[error("piece list for {0:?} given twice")]
    DuplicateField(Color),
    /// A token that is not a dark square, a range or a king marker.
    #[error("unknown square {0:?}")]
    UnknownSquare(String),
    /// A range `a-b` that is malformed or runs backwards.
    #[error("bad range {0:?}")]
    BadRange(String),
    /// A square listed twice for the same side.
    #[error("square {0} listed twice")]
    DuplicateSquare(Square),
    /// A counter field (`H…`, `F…`) that is not a number.
    #[error("bad counter {0:?}")]
    BadCounter(String),
    /// The placement itself is impossible.
    #[error("{0}")]
    Position(PositionError),
}

/// A FEN error with the byte offset where it was found.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad FEN at column {}: {kind}", .column + 1)]
pub struct FenError {
    /// What is wrong.
    pub kind: FenErrorKind,
    /// 0-based byte offset into the FEN text.
    pub column: usize,
}

fn err(kind: FenErrorKind, column: usize) -> FenError {
    FenError { kind, column }
}

/// Parse a FEN in the algebraic or numeric form (ranges and `K` markers allowed,
/// pieces in any order, optional `:H…:F…` counters, optional trailing `.`).
pub fn parse_fen(text: &str) -> Result<Position, FenError> {
    let lead = text.len() - text.trim_start().len();
    let body = text.trim();
    let body = body.strip_suffix('.').unwrap_or(body);
    if body.is_empty() {
        return Err(err(FenErrorKind::Empty, 0));
    }
    let mut fields = Vec::new();
    let mut start = 0;
    for (i, c) in body.char_indices() {
        if c == ':' {
            fields.push((lead + start, &body[start..i]));
            start = i + 1;
        }
    }
    fields.push((lead + start, &body[start..]));

    let (side_at, side_text) = fields[0];
    let side = match side_text.trim() {
        "W" | "w" => Color::White,
        "B" | "b" => Color::Black,
        other => return Err(err(FenErrorKind::BadSide(other.to_string()), side_at)),
    };
    let mut sides: [Option<(Bitboard, Bitboard)>; 2] = [None, None];
    for &(at, field) in &fields[1..] {
        let trimmed = field.trim_start();
        let at = at + field.len() - trimmed.len();
        let field = trimmed.trim_end();
        let Some(tag) = field.chars().next() else {
            return Err(err(FenErrorKind::BadField(String::new()), at));
        };
        let color = match tag {
            'W' | 'w' => Color::White,
            'B' | 'b' => Color::Black,
            'H' | 'h' | 'F' | 'f' => {
                let n = field[1..].trim();
                if n.parse::<u32>().is_err() {
                    return Err(err(FenErrorKind::BadCounter(field.to_string()), at));
                }
                continue;
            }
            _ => return Err(err(FenErrorKind::BadField(field.to_string()), at)),
        };
        if sides[color as usize].is_some() {
            return Err(err(FenErrorKind::DuplicateField(color), at));
        }
        sides[color as usize] = Some(parse_list(&field[1..], at + 1)?);
    }
    let (white, wk) = sides[0].unwrap_or_default();
    let (black, bk) = sides[1].unwrap_or_default();
    if let Some(s) = (white & black).first() {
        let column = body.find(&s.to_string()).map_or(0, |c| c + lead);
        return Err(err(
            FenErrorKind::Position(PositionError::BothSides(s)),
            column,
        ));
    }
    Position::from_parts(white, black, wk | bk, side)
        .map_err(|e| err(FenErrorKind::Position(e), lead))
}

/// Parse a comma list of squares; returns (pieces, kings).
fn parse_list(list: &str, offset: usize) -> Result<(Bitboard, Bitboard), FenError> {
    let mut pieces = Bitboard::EMPTY;
    let mut kings = Bitboard::EMPTY;
    let mut pos = 0;
    for raw in list.split(',') {
        let at = offset + pos + (raw.len() - raw.trim_start().len());
        pos += raw.len() + 1;
        let mut tok = raw.trim();
        if tok.is_empty() {
            continue;
        }
        let king = tok.starts_with(['K', 'k']);
        if king {
            tok = &tok[1..];
        }
        let squares: Vec<Square> = if let Some((a, b)) = tok.split_once('-') {
            let (Ok(a), Ok(b)) = (a.trim().parse::<u8>(), b.trim().parse::<u8>()) else {
                return Err(err(FenErrorKind::BadRange(raw.trim().to_string()), at));
            };
            if a == 0 || b > 32 || a > b {
                return Err(err(FenErrorKind::BadRange(raw.trim().to_string()), at));
            }
            (a..=b).filter_map(Square::from_numeric).collect()
        } else {
            match Square::parse(tok) {
                Some(s) => vec![s],
                None => return Err(err(FenErrorKind::UnknownSquare(raw.trim().to_string()), at)),
            }
        };
        for s in squares {
            if pieces.contains(s) {
                return Err(err(FenErrorKind::DuplicateSquare(s), at));
            }
            pieces |= Bitboard::square(s);
            if king {
                kings |= Bitboard::square(s);
            }
        }
    }
    Ok((pieces, kings))
}

fn write_fen(pos: &Position, numeric: bool) -> String {
    let mut out = String::new();
    out.push(pos.side_to_move().letter());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let mut squares: Vec<Square> = pos.pieces(color).iter().collect();
        if numeric {
            squares.sort_by_key(|s| s.numeric());
        }
        let items: Vec<String> = squares
            .iter()
            .map(|&s| {
                let k = if pos.kings().contains(s) { "K" } else { "" };
                if numeric {
                    format!("{k}{}", s.numeric())
                } else {
                    format!("{k}{s}")
                }
            })
            .collect();
        out.push_str(&items.join(","));
    }
    out
}

/// The algebraic FEN, e.g. `W:Wa1,c1,…:Bb6,…` (squares in index order).
pub fn to_fen(pos: &Position) -> String {
    write_fen(pos, false)
}

/// The numeric lidraughts FEN, e.g. `W:W21,…,32:B1,…,12:H0:F1`.
pub fn to_fen_numeric(pos: &Position) -> String {
    write_fen(pos, true) + ":H0:F1"
}

impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        parse_fen(s)
    }
}

/// The start position in the algebraic form.
pub const START_FEN: &str =
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";

/// A position debugs as its FEN, which names it exactly in one line.
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&to_fen(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_both_forms() {
        let a = parse_fen(START_FEN).unwrap();
        assert_eq!(a, Position::start());
        let n =
            parse_fen("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12:H0:F1")
                .unwrap();
        assert_eq!(n, a);
        let r = parse_fen("W:W21-32:B1-12").unwrap();
        assert_eq!(r, a);
        assert_eq!(to_fen(&a), START_FEN);
        assert_eq!(
            to_fen_numeric(&a),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12:H0:F1"
        );
    }

    #[test]
    fn kings_and_order() {
        let p = parse_fen("B:WKd4,a1:Bh8,Kb6.").unwrap();
        assert_eq!(to_fen(&p), "B:Wa1,Kd4:BKb6,h8");
        assert_eq!(p.side_to_move(), Color::Black);
    }

    #[test]
    fn errors_say_what_and_where() {
        type Check = fn(&FenErrorKind) -> bool;
        let cases: [(&str, Check, usize); 10] = [
            ("", |k| matches!(k, FenErrorKind::Empty), 0),
            ("X:Wa1:Bh8", |k| matches!(k, FenErrorKind::BadSide(_)), 0),
            (
                "W:Wa2:Bh8",
                |k| matches!(k, FenErrorKind::UnknownSquare(_)),
                3,
            ),
            (
                "W:Wa1,a1:Bh8",
                |k| matches!(k, FenErrorKind::DuplicateSquare(_)),
                6,
            ),
            (
                "W:Wa1:Ba1",
                |k| matches!(k, FenErrorKind::Position(PositionError::BothSides(_))),
                3,
            ),
            (
                "W:Wb8:Bh6",
                |k| {
                    matches!(
                        k,
                        FenErrorKind::Position(PositionError::ManOnPromotionRow { .. })
                    )
                },
                0,
            ),
            (
                "W:W13-25:B5",
                |k| {
                    matches!(
                        k,
                        FenErrorKind::Position(PositionError::TooManyPieces { .. })
                    )
                },
                0,
            ),
            ("W:W5-2:B30", |k| matches!(k, FenErrorKind::BadRange(_)), 3),
            ("W:Q1:B30", |k| matches!(k, FenErrorKind::BadField(_)), 2),
            (
                "W:W1:W2",
                |k| matches!(k, FenErrorKind::DuplicateField(Color::White)),
                5,
            ),
        ];
        for (fen, check, col) in cases {
            let e = parse_fen(fen).unwrap_err();
            assert!(check(&e.kind), "{fen}: {e}");
            assert_eq!(e.column, col, "{fen}: {e}");
        }
        assert!(parse_fen("W:W33:B1").is_err());
        assert!(parse_fen("W:WKK:B1").is_err());
        assert!(parse_fen("W:W1:B1:Hx").is_err());
    }
}
