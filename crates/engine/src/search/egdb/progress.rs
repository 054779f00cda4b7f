//! How far a won database position seems from its end, when the database stores
//! win/draw/loss only: every win would otherwise score alike, and an engine that
//! sees only "won" can shuffle until a counting rule draws the game. The search
//! scores such a win as a win in (ply + [`UNKNOWN_DISTANCE`] + this estimate), so it
//! prefers captures, promotions and squeezing the defender, and searches on inside
//! the database to find them.

use damas_rules::bitboard::Bitboard;
use damas_rules::drawrules::LONG_DIAGONAL;
use damas_rules::position::{Color, Position};

/// Distance given to an oracle win or loss whose length is unknown (the estimate
/// is added to it, so that every such score stays below a known distance, in the
/// score's band of uncounted results).
pub(crate) const UNKNOWN_DISTANCE: u32 = crate::score::Score::UNKNOWN_DISTANCE;
/// The estimate never exceeds this (with the ply, the score stays proven).
pub(crate) const MAX_ESTIMATE: u32 = 400;

/// Rows from a square to `color`'s promotion row.
fn rows_to_go(row: u8, color: Color) -> u32 {
    u32::from(match color {
        Color::White => 7 - row,
        Color::Black => row,
    })
}

/// Chebyshev distance between two dark squares.
fn distance(a: damas_rules::square::Square, b: damas_rules::square::Square) -> u32 {
    u32::from(a.row().abs_diff(b.row()).max(a.file().abs_diff(b.file())))
}

/// An estimate, in plies, of how far `winner` is from winning `pos`: the
/// defender's pieces (each must be captured), the winner's men still to promote
/// (by rows to go), a lone defending king holding the long diagonal, and how far
/// the winner's kings stand from the defender's pieces. Smaller is closer.
pub(crate) fn estimate(pos: &Position, winner: Color) -> u32 {
    let loser = winner.opponent();
    let mut e = 40 * pos.pieces(loser).count();
    for sq in pos.men(winner).iter() {
        e += 6 + 3 * rows_to_go(sq.row(), winner);
    }
    let targets: Bitboard = pos.pieces(loser);
    for k in pos.kings_of(winner).iter() {
        e += targets.iter().map(|t| distance(k, t)).min().unwrap_or(0);
    }
    if pos.pieces(loser).count() == 1 && (pos.kings_of(loser) & LONG_DIAGONAL).any() {
        e += 20;
    }
    // Defending men far from promotion are less of a nuisance.
    for sq in pos.men(loser).iter() {
        e += 4u32.saturating_sub(rows_to_go(sq.row(), loser) / 2);
    }
    e.min(MAX_ESTIMATE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::fen::parse_fen;

    fn est(fen: &str, winner: Color) -> u32 {
        estimate(&parse_fen(fen).expect("fen"), winner)
    }

    #[test]
    fn captures_promotions_and_approach_lower_the_estimate() {
        // One defender fewer.
        assert!(
            est("W:WKa1,Kc1,Ke1:Bh6", Color::White) < est("W:WKa1,Kc1,Ke1:Bh6,h8", Color::White)
        );
        // A man closer to promotion; a king instead of the man.
        assert!(est("W:WKa1,g7:Bb6", Color::White) < est("W:WKa1,g3:Bb6", Color::White));
        assert!(est("W:WKa1,Kh8:Bb6", Color::White) < est("W:WKa1,g7:Bb6", Color::White));
        // Kings nearer the defender.
        assert!(est("W:WKe3,Kf4:Bb6", Color::White) < est("W:WKh2,Kg1:Bb6", Color::White));
        // Black winning: the same measure from Black's side.
        assert!(est("B:WKb6:BKe3,Kf4", Color::Black) < est("B:WKb6:BKh2,Kg1", Color::Black));
    }
}
