//! The draw rules that count moves (SPEC §1, the Russian rules lidraughts applies to
//! Brazilian): 15 moves each of kings only without capture; against a lone king,
//! three or more kings for 15 moves, two pieces for 5 moves, three pieces with the
//! lone king on the long diagonal for 5 moves; equal material with kings for 30 or 60
//! moves. Repetition is not here: it compares positions, not counts.
//!
//! [`crate::game::Game`] ends games by these rules, and the search scores a line that
//! reaches one as a draw, so it knows a winning ending must be won in time. Both look
//! at the same sequence of positions (newest first) through [`count_draw`].

use crate::bitboard::Bitboard;
use crate::game::EndReason;
use crate::position::{Color, Position};

/// The long diagonal a1–h8.
pub const LONG_DIAGONAL: Bitboard = Bitboard(0x8844_2211);

/// Men and kings per side: the rules' "material".
fn signature(p: &Position) -> [u32; 4] {
    [
        p.men(Color::White).count(),
        p.kings_of(Color::White).count(),
        p.men(Color::Black).count(),
        p.kings_of(Color::Black).count(),
    ]
}

/// Whether going from `before` to `after` was a king's move without capture: no
/// man moved or was promoted and nothing was taken.
#[inline]
fn king_move(before: &Position, after: &Position) -> bool {
    before.occupied().count() == after.occupied().count()
        && (before.occupied() & !before.kings()) == (after.occupied() & !after.kings())
}

/// Which counting rule, if any, needs how many plies of unchanged material (or of
/// king moves) in `pos`. Cheap: no history is read.
#[inline]
fn material_rule(pos: &Position) -> Option<(EndReason, usize)> {
    let now = signature(pos);
    for strong in [Color::White, Color::Black] {
        let weak = strong.opponent();
        if pos.pieces(weak).count() != 1 || pos.kings_of(weak).count() != 1 {
            continue;
        }
        let n = pos.pieces(strong).count();
        let kings = pos.kings_of(strong).count();
        if n >= 3 && kings == n {
            return Some((EndReason::ThreeKingsVsKing, 30));
        }
        if n == 2 && kings >= 1 {
            return Some((EndReason::TwoVsKing, 10));
        }
        if n == 3 && kings >= 1 && (pos.kings_of(weak) & LONG_DIAGONAL).any() {
            return Some((EndReason::ThreeVsKingOnDiagonal, 10));
        }
    }
    let equal = now[0] == now[2] && now[1] == now[3] && now[1] > 0;
    let per_side = now[0] + now[1];
    if equal && (4..=5).contains(&per_side) {
        return Some((EndReason::EqualMaterial30, 60));
    }
    if equal && (6..=7).contains(&per_side) {
        return Some((EndReason::EqualMaterial60, 120));
    }
    None
}

/// The counting draw rule that has ended the game at `pos`, given the earlier
/// positions newest first (`earlier.next()` is the position just before `pos`).
/// Reads back only as far as the rule needs (at most 120 positions).
pub fn count_draw<'a>(
    pos: &Position,
    earlier: impl Iterator<Item = &'a Position> + Clone,
) -> Option<EndReason> {
    // Plies in a row made by kings without capture.
    let mut king_plies = 0;
    let mut after = pos;
    for p in earlier.clone().take(30) {
        if !king_move(p, after) {
            break;
        }
        king_plies += 1;
        after = p;
    }
    if king_plies >= 30 {
        return Some(EndReason::KingMoves);
    }
    let (reason, needed) = material_rule(pos)?;
    let now = signature(pos);
    let stable = earlier
        .take(needed)
        .take_while(|p| signature(p) == now)
        .count();
    (stable >= needed).then_some(reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;
    use crate::movegen::legal_moves;

    /// `plies` positions of a king shuffle ending in `pos` (oldest first): each side
    /// moves a king without capture and without allowing one.
    fn shuffle(fen: &str, plies: usize) -> Vec<Position> {
        let mut pos = parse_fen(fen).unwrap();
        let mut out = vec![pos];
        for i in 0..plies {
            let safe: Vec<Position> = legal_moves(&pos)
                .iter()
                .filter(|m| !m.is_capture() && pos.kings().contains(m.from()))
                .map(|&m| pos.play(m))
                .filter(|next| !legal_moves(next).iter().any(|m| m.is_capture()))
                .collect();
            assert!(
                !safe.is_empty(),
                "no safe king move in {}",
                crate::fen::to_fen(&pos)
            );
            // Go back where the mover's kings stood two plies ago when possible, so
            // the shuffle cycles instead of wandering into a capture.
            let mover = pos.side_to_move();
            let back = i
                .checked_sub(1)
                .map(|k| out[k].kings_of(mover))
                .and_then(|ks| safe.iter().find(|p| p.kings_of(mover) == ks));
            pos = *back.unwrap_or(&safe[0]);
            out.push(pos);
        }
        out
    }

    fn at_end(seq: &[Position]) -> Option<EndReason> {
        let (pos, earlier) = seq.split_last().unwrap();
        count_draw(pos, earlier.iter().rev())
    }

    #[test]
    fn two_against_a_lone_king_after_five_moves() {
        let seq = shuffle("W:WKa1,Kc1:BKh6", 10);
        assert_eq!(at_end(&seq[..10]), None);
        assert_eq!(at_end(&seq), Some(EndReason::TwoVsKing));
    }

    #[test]
    fn kings_only_after_fifteen_moves_each() {
        // Men on the board that never move: the count still runs.
        let seq = shuffle("W:WKa1,Kc1,e1,h2,g3:BKf8,Kh8,a7,b8", 30);
        let (pos, _) = seq.split_last().unwrap();
        assert!(material_rule(pos).is_none());
        assert_eq!(at_end(&seq[..30]), None);
        assert_eq!(at_end(&seq), Some(EndReason::KingMoves));
    }

    #[test]
    fn a_man_move_resets_the_king_count() {
        let mut seq = shuffle("W:WKa1,Kc1,h2:BKf8,Kh8,a7", 28);
        let last = *seq.last().unwrap();
        let man = legal_moves(&last)
            .iter()
            .find(|m| !last.kings().contains(m.from()))
            .copied()
            .unwrap();
        seq.push(last.play(man));
        assert_eq!(at_end(&seq), None);
        assert!(!king_move(&last, seq.last().unwrap()));
    }
}
