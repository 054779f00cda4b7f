//! The one-byte entry of a part's value file, and the rule that derives a
//! position's value from its successors (shared by the builder and the verifier so
//! that both apply exactly the same definition).

use crate::value::Wdl;
use damas_rules::moves::MoveList;

/// Value code of an impossible slot (a man on its promotion row).
pub const CODE_NONE: u8 = 0;
const CODE_WIN: u8 = 1;
const CODE_DRAW: u8 = 2;
const CODE_LOSS: u8 = 3;

/// The largest best-move index an entry can hold (6 bits).
pub const MAX_MOVE_INDEX: usize = 63;

/// The byte of one value-file entry: bits 0–1 the value (0 = impossible slot,
/// 1 win, 2 draw, 3 loss), bits 2–7 the index of the best move in
/// [`damas_rules::movegen::legal_moves`] order (0 when there is no move).
pub const fn encode(wdl: Wdl, best: u8) -> u8 {
    let code = match wdl {
        Wdl::Win => CODE_WIN,
        Wdl::Draw => CODE_DRAW,
        Wdl::Loss => CODE_LOSS,
    };
    code | best << 2
}

/// The value of an entry byte (`None` for an impossible slot).
#[inline(always)]
pub const fn decode_wdl(byte: u8) -> Option<Wdl> {
    match byte & 3 {
        CODE_WIN => Some(Wdl::Win),
        CODE_DRAW => Some(Wdl::Draw),
        CODE_LOSS => Some(Wdl::Loss),
        _ => None,
    }
}

/// The best-move index of an entry byte.
#[inline(always)]
pub const fn decode_best(byte: u8) -> usize {
    (byte >> 2) as usize
}

/// A position's value derived from its successors.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// Value for the side to move.
    pub wdl: Wdl,
    /// Plies to the end of the game with best play (fastest win, slowest loss);
    /// 0 for draws and for a side that has no move.
    pub distance: u16,
    /// Index of the best move in the move list; `None` only when there is no move.
    pub best: Option<usize>,
}

/// Apply the minimax rule to `moves` (the legal moves, in generation order):
/// a win if some successor is lost for the opponent (fastest such win, first move on
/// ties), else a draw if some successor is drawn (first such move), else a loss
/// (slowest, first move on ties; distance 0 without moves). `successor(i)` gives the
/// value and distance of the position after move `i`, for the opponent; `None` aborts
/// the evaluation (unknown successor) and is returned as is.
#[inline]
pub fn evaluate(
    moves: &MoveList,
    mut successor: impl FnMut(usize) -> Option<(Wdl, u16)>,
) -> Option<Outcome> {
    let mut win: Option<(u16, usize)> = None;
    let mut draw: Option<usize> = None;
    let mut loss: Option<(u16, usize)> = None;
    for i in 0..moves.len() {
        let (wdl, d) = successor(i)?;
        match wdl {
            Wdl::Loss => {
                if win.is_none_or(|(best, _)| d < best) {
                    win = Some((d, i));
                }
            }
            Wdl::Draw => {
                if draw.is_none() {
                    draw = Some(i);
                }
            }
            Wdl::Win => {
                if loss.is_none_or(|(best, _)| d > best) {
                    loss = Some((d, i));
                }
            }
        }
    }
    Some(if let Some((d, i)) = win {
        Outcome {
            wdl: Wdl::Win,
            distance: d + 1,
            best: Some(i),
        }
    } else if let Some(i) = draw {
        Outcome {
            wdl: Wdl::Draw,
            distance: 0,
            best: Some(i),
        }
    } else if let Some((d, i)) = loss {
        Outcome {
            wdl: Wdl::Loss,
            distance: d + 1,
            best: Some(i),
        }
    } else {
        Outcome {
            wdl: Wdl::Loss,
            distance: 0,
            best: None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        for wdl in [Wdl::Win, Wdl::Draw, Wdl::Loss] {
            for best in 0..=MAX_MOVE_INDEX as u8 {
                let b = encode(wdl, best);
                assert_eq!(decode_wdl(b), Some(wdl));
                assert_eq!(decode_best(b), best as usize);
            }
        }
        assert_eq!(decode_wdl(CODE_NONE), None);
    }
}
