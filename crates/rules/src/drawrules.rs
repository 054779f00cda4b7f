//! The draw rules a game's path decides (docs/rules.md, the Russian rules lidraughts
//! applies to Brazilian): repetition, and the rules that count moves — 15 moves each
//! of kings only without capture; against a lone king, three or more kings for 15
//! moves, two pieces for 5 moves, three pieces with the lone king on the long
//! diagonal for 5 moves; equal material with kings for 30 or 60 moves.
//!
//! [`crate::game::Game`] ends games by these rules, and the search scores a line that
//! reaches one as a draw, so it knows a winning ending must be won in time. Both read
//! the positions newest first; the search walks its path once per node ([`trail`])
//! for both repetition and the king-move count.

use crate::bitboard::Bitboard;
use crate::outcome::EndReason;
use crate::position::{Color, Position};

/// The long diagonal a1–h8.
pub const LONG_DIAGONAL: Bitboard = Bitboard(0x8844_2211);

/// Plies of king moves without capture (15 moves each) that draw the game.
pub const KING_MOVE_PLIES: usize = 30;

/// Men and kings per side: the rules' "material".
fn signature(p: &Position) -> [u32; 4] {
    [
        p.men(Color::White).count(),
        p.kings_of(Color::White).count(),
        p.men(Color::Black).count(),
        p.kings_of(Color::Black).count(),
    ]
}

/// Whether `before` → `after` can be undone: no capture and no man moved, so a king
/// moved. Only positions joined by such steps can repeat (men never move back and
/// pieces never come back), and the king-move count runs over them.
#[inline(always)]
pub fn reversible(before: &Position, after: &Position) -> bool {
    let men = |p: &Position| (p.white() & !p.kings(), p.black() & !p.kings());
    before.occupied().count() == after.occupied().count() && men(before) == men(after)
}

/// What walking back from a position over reversible steps finds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Trail {
    /// The position stood on the path before.
    pub repeated: bool,
    /// Reversible steps (king moves without capture) in a row up to the position.
    pub reversible_plies: usize,
}

/// Walk back from `pos` over the earlier positions, newest first, as far as the
/// steps are reversible.
#[inline]
pub fn trail<'a>(pos: &Position, earlier: impl Iterator<Item = &'a Position>) -> Trail {
    let mut t = Trail {
        repeated: false,
        reversible_plies: 0,
    };
    let mut after = pos;
    for p in earlier {
        if !reversible(p, after) {
            break;
        }
        t.reversible_plies += 1;
        t.repeated |= p == pos;
        after = p;
    }
    t
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

/// Plies a counting rule of the material of `pos` allows before the game is drawn
/// (10 for two pieces against a lone king, 30 for three kings against one, …);
/// `None` when no material rule applies.
pub fn material_count(pos: &Position) -> Option<usize> {
    material_rule(pos).map(|(_, plies)| plies)
}

/// Plies left before the material counting rule of `pos` draws the game, given the
/// earlier positions newest first: the next conversion (capture or promotion) must
/// come within them. `None` when no material rule applies.
pub fn material_plies_left<'a>(
    pos: &Position,
    earlier: impl Iterator<Item = &'a Position>,
) -> Option<usize> {
    let (_, needed) = material_rule(pos)?;
    Some(needed - stable_plies(pos, needed, earlier))
}

/// [`material_plies_left`], counting also three pieces against a lone king off the
/// long diagonal: the defender may step onto it, and the count runs over every ply
/// of the material. The search's test of whether a win can come in time.
pub fn material_plies_left_reachable<'a>(
    pos: &Position,
    earlier: impl Iterator<Item = &'a Position>,
) -> Option<usize> {
    let needed = match material_rule(pos) {
        Some((_, needed)) => needed,
        None if three_against_a_lone_king(pos) => 10,
        None => return None,
    };
    Some(needed - stable_plies(pos, needed, earlier))
}

/// Whether a material counting rule covers `pos`: one applies now, or one will once
/// the lone king steps onto the long diagonal (three pieces against it).
pub fn counted_material(pos: &Position) -> bool {
    material_rule(pos).is_some() || three_against_a_lone_king(pos)
}

/// Whether one side has three pieces, a king among them, against a lone king.
fn three_against_a_lone_king(pos: &Position) -> bool {
    [Color::White, Color::Black].into_iter().any(|strong| {
        let weak = strong.opponent();
        pos.pieces(weak).count() == 1
            && pos.kings_of(weak).count() == 1
            && pos.pieces(strong).count() == 3
            && pos.kings_of(strong).count() >= 1
    })
}

/// The counting draw rule that has ended the game at `pos`, given the earlier
/// positions newest first (`earlier.next()` is the position just before `pos`).
pub fn count_draw<'a>(
    pos: &Position,
    earlier: impl Iterator<Item = &'a Position> + Clone,
) -> Option<EndReason> {
    let plies = trail(pos, earlier.clone()).reversible_plies;
    count_draw_after(pos, plies, earlier)
}

/// [`count_draw`] when the reversible plies up to `pos` are known (from [`trail`]).
/// Reads back only as far as a material rule needs (at most 120 positions).
#[inline(always)]
pub fn count_draw_after<'a>(
    pos: &Position,
    reversible_plies: usize,
    earlier: impl Iterator<Item = &'a Position>,
) -> Option<EndReason> {
    // Every counting rule needs a king on the board: most positions stop here, in
    // the caller, without a call (the search asks at every node).
    if pos.kings().is_empty() {
        return None;
    }
    counted_draw(pos, reversible_plies, earlier)
}

/// [`count_draw_after`] for a position with a king.
#[inline(never)]
fn counted_draw<'a>(
    pos: &Position,
    reversible_plies: usize,
    earlier: impl Iterator<Item = &'a Position>,
) -> Option<EndReason> {
    if reversible_plies >= KING_MOVE_PLIES {
        return Some(EndReason::KingMoves);
    }
    let (reason, needed) = material_rule(pos)?;
    (stable_plies(pos, needed, earlier) >= needed).then_some(reason)
}

/// The earlier positions (newest first, at most `needed`) in a row with the
/// material of `pos`: the plies its counting rule has run.
#[inline(always)]
fn stable_plies<'a>(
    pos: &Position,
    needed: usize,
    earlier: impl Iterator<Item = &'a Position>,
) -> usize {
    let now = signature(pos);
    earlier
        .take(needed)
        .take_while(|p| signature(p) == now)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;
    use crate::movegen::legal_moves;
    use crate::Variant;

    /// `plies` positions of a king shuffle ending in `pos` (oldest first): each side
    /// moves a king without capture and without allowing one.
    fn shuffle(fen: &str, plies: usize) -> Vec<Position> {
        let mut pos = parse_fen(fen).unwrap();
        let mut out = vec![pos];
        for i in 0..plies {
            let safe: Vec<Position> = legal_moves(Variant::Brazilian, &pos)
                .iter()
                .filter(|m| !m.is_capture() && pos.kings().contains(m.from()))
                .map(|&m| pos.play(m))
                .filter(|next| {
                    !legal_moves(Variant::Brazilian, next)
                        .iter()
                        .any(|m| m.is_capture())
                })
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
        let man = legal_moves(Variant::Brazilian, &last)
            .iter()
            .find(|m| !last.kings().contains(m.from()))
            .copied()
            .unwrap();
        seq.push(last.play(man));
        assert_eq!(at_end(&seq), None);
        assert!(!reversible(&last, seq.last().unwrap()));
    }

    #[test]
    fn the_trail_finds_repetitions_and_stops_at_a_man_move() {
        let seq = shuffle("W:WKa1,Kc1,e1,h2,g3:BKf8,Kh8,a7,b8", 8);
        let (pos, earlier) = seq.split_last().unwrap();
        let t = trail(pos, earlier.iter().rev());
        assert_eq!(t.reversible_plies, 8);
        assert_eq!(t.repeated, earlier.contains(pos));
        // Back to the position of ply 1 (every step between is a king's move).
        let back = trail(&seq[1], seq[..5].iter().rev());
        assert_eq!(
            back,
            Trail {
                repeated: true,
                reversible_plies: 5
            }
        );
        let fresh = trail(&seq[2], seq[..2].iter().rev());
        assert_eq!(
            fresh,
            Trail {
                repeated: false,
                reversible_plies: 2
            }
        );
        let last = *pos;
        let man = legal_moves(Variant::Brazilian, &last)
            .iter()
            .find(|m| !last.kings().contains(m.from()))
            .copied()
            .unwrap();
        let after = last.play(man);
        assert_eq!(trail(&after, seq.iter().rev()).reversible_plies, 0);
    }

    /// `plies` moves from `fen` (oldest first) that never capture, never allow a
    /// capture and never promote, so the material stays; every `man_every`-th ply
    /// moves a man when one can, which resets the king-move count.
    fn walk(fen: &str, plies: usize, man_every: usize) -> Vec<Position> {
        let mut pos = parse_fen(fen).unwrap();
        let mut out = vec![pos];
        for i in 0..plies {
            let safe: Vec<(bool, Position)> = legal_moves(Variant::Brazilian, &pos)
                .iter()
                .filter(|m| !m.is_capture())
                .map(|&m| (pos.kings().contains(m.from()), pos.play(m)))
                .filter(|(_, next)| next.kings().count() == pos.kings().count())
                .filter(|(_, next)| {
                    !legal_moves(Variant::Brazilian, next)
                        .iter()
                        .any(|m| m.is_capture())
                })
                .collect();
            // Prefer the kind of move asked for, then a position not seen yet.
            let want_man = (i + 1) % man_every == 0;
            let pick = safe
                .iter()
                .min_by_key(|(king, next)| (*king == want_man, out.contains(next)))
                .unwrap_or_else(|| panic!("no safe move in {}", crate::fen::to_fen(&pos)));
            pos = pick.1;
            out.push(pos);
        }
        out
    }

    /// The rule ends the game after exactly `needed` plies of stable material, not one
    /// ply earlier.
    fn ends_after(seq: &[Position], needed: usize, rule: EndReason) {
        let n = seq.len();
        assert_eq!(at_end(&seq[n - needed..]), None, "{rule:?} one ply early");
        assert_eq!(at_end(&seq[n - needed - 1..]), Some(rule));
    }

    #[test]
    fn three_kings_against_a_lone_king_after_fifteen_moves() {
        let seq = walk("W:WKa1,Kc1,Ke1:BKh6", 30, usize::MAX);
        assert_eq!(
            material_rule(seq.last().unwrap()),
            Some((EndReason::ThreeKingsVsKing, 30))
        );
        // With kings only, stable material and king moves count the same plies, and
        // the king-move rule is named first.
        ends_after(&seq, 30, EndReason::KingMoves);
    }

    #[test]
    fn three_pieces_against_a_king_on_the_long_diagonal_after_five_moves() {
        let seq = walk("W:WKc1,a3,e3:BKg7", 24, usize::MAX);
        let on_diagonal = |p: &Position| (p.kings_of(Color::Black) & LONG_DIAGONAL).any();
        let end = (10..seq.len())
            .find(|&i| on_diagonal(&seq[i]))
            .expect("the lone king comes back to the long diagonal");
        ends_after(&seq[..=end], 10, EndReason::ThreeVsKingOnDiagonal);
        // Off the diagonal the rule does not apply.
        let off = (10..seq.len()).find(|&i| !on_diagonal(&seq[i])).unwrap();
        assert_eq!(at_end(&seq[..=off]), None);
    }

    #[test]
    fn four_or_five_pieces_each_with_kings_after_thirty_moves() {
        let seq = walk("W:WKh2,a1,c1,e1:BKa7,b8,d8,f8", 60, 28);
        ends_after(&seq, 60, EndReason::EqualMaterial30);
    }

    #[test]
    fn six_or_seven_pieces_each_with_kings_after_sixty_moves() {
        let seq = walk("W:WKh2,a1,c1,e1,g1,d2:BKa7,b8,d8,f8,h8,e7", 120, 28);
        ends_after(&seq, 120, EndReason::EqualMaterial60);
    }

    #[test]
    fn unequal_material_or_no_kings_has_no_counting_rule() {
        for fen in ["W:WKa1,c1,e1,g1:BKh8,b8,d8", "W:Wa1,c1,e1,g1:Bh8,b8,d8,f8"] {
            assert!(material_rule(&parse_fen(fen).unwrap()).is_none(), "{fen}");
        }
    }

    #[test]
    fn plies_left_count_down_with_the_material_and_reach_off_the_diagonal() {
        let seq = walk("W:WKc1,a3,e3:BKg7", 24, usize::MAX);
        let on_diagonal = |p: &Position| (p.kings_of(Color::Black) & LONG_DIAGONAL).any();
        for i in 0..10 {
            let (pos, earlier) = seq[..=i].split_last().unwrap();
            let left = material_plies_left(pos, earlier.iter().rev());
            let reach = material_plies_left_reachable(pos, earlier.iter().rev());
            // Every ply of the material counts, on the diagonal or off it.
            assert_eq!(reach, Some(10 - i), "ply {i}");
            assert_eq!(left, on_diagonal(pos).then_some(10 - i), "ply {i}");
        }
        // Two kings against one: the rule applies wherever the king stands.
        let two = shuffle("W:WKa1,Kc1:BKh6", 10);
        let (pos, earlier) = two[..5].split_last().unwrap();
        assert_eq!(material_plies_left(pos, earlier.iter().rev()), Some(6));
        // No material rule: nothing to count.
        let pos = parse_fen("W:WKa1,c1,e1,g1:BKh8,b8,d8").unwrap();
        assert_eq!(
            material_plies_left_reachable(&pos, std::iter::empty()),
            None
        );
    }

    #[test]
    fn counted_material_covers_the_lone_king_endings_only() {
        let counted = |fen: &str| counted_material(&parse_fen(fen).unwrap());
        // Two against a lone king; three, the king off the long diagonal; three kings.
        assert!(counted("W:WKa1,c3:BKh4"));
        assert!(counted("W:WKc1,e3,g3:BKb8"));
        assert!(counted("W:WKc1,Ke1,Kg1:BKb8"));
        // Four against a lone king, three men against it, and a lone man: none.
        assert!(!counted("W:WKc1,a3,e3,g3:BKb8"));
        assert!(!counted("W:Wa3,e3,g3:BKb8"));
        assert!(!counted("W:WKc1,e3,g3:Bb8"));
    }
}
