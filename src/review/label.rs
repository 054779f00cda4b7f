//! Scores in words, always from White's side and in men: `+0.35 for White`,
//! `level (0.00)`, `Black wins in 4 moves (7 plies)`. Used by the review and the
//! terminal UI's engine panel.

use damas_engine::score::Score;
use damas_rules::position::Color;

/// A score of the side `mover`, labelled with the side it favours: `+0.35 for
/// White` (men), `level (0.00)`, or a proven result in the winner's moves with the
/// plies (both sides' moves) after it: `Black wins in 4 moves (7 plies)`.
pub fn score_label(mover: Color, score: Score) -> String {
    let white = if mover == Color::White { score } else { -score };
    let leader = if white.value() > 0 { "White" } else { "Black" };
    match white.plies() {
        Some(p) => {
            let moves = p.div_ceil(2);
            let unit =
                |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
            format!(
                "{leader} wins in {} ({})",
                unit(moves, "move", "moves"),
                unit(p, "ply", "plies")
            )
        }
        None if white.is_uncounted() => format!("{leader} wins (database)"),
        None if white.value() == 0 => "level (0.00)".to_string(),
        None => format!("+{:.2} for {leader}", white.as_men().abs()),
    }
}
