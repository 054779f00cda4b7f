//! The review as text: one line per move, then a summary per player. Used by
//! `damas review` and, line by line, by the terminal UI's review panel.

use std::fmt::Write as _;

use super::judge::{BLUNDER, INACCURACY, MISTAKE};
use super::{MoveReview, PlayerSummary, Review};
use damas_rules::position::Color;
use damas_rules::variant::Variant;

/// The rules a review judged by, as its header and panel name them: `Brazilian rules`.
pub fn rules(variant: Variant) -> &'static str {
    match variant {
        Variant::Brazilian => "Brazilian rules",
        Variant::Russian => "Russian rules",
    }
}

/// One move: `5... h6-g5??  +2.40 for White  blunder, loses 2.35; best e7-f6 (level (0.00))`;
/// a forced or book move unmarked, with `(forced)` or `(book)`.
pub fn move_line(m: &MoveReview) -> String {
    let mark = m.judgement.mark.map_or("", |k| k.symbol());
    let mv = format!("{}{mark}", m.played_text);
    let number = if m.number.black {
        format!("{}...", m.number.number)
    } else {
        format!("{}.", m.number.number)
    };
    let mut line = format!("{number:<6} {mv:<12} {}", m.after_label());
    if let Some(k) = m.judgement.mark {
        let _ = write!(line, "  {k}, loses {:.2}", m.judgement.loss.men());
    } else if m.forced {
        line.push_str("  (forced)");
    } else if m.book {
        line.push_str("  (book)");
    }
    if let Some(best) = &m.best_text {
        let sep = if m.judgement.mark.is_some() { ";" } else { " " };
        let _ = write!(line, "{sep} best {best} ({})", m.best_label());
    }
    line
}

/// One player's totals: `White (Ana): 20 moves, 1 inaccuracy, 0 mistakes, 1 blunder,
/// average loss 0.12 men per move`.
pub fn summary_line(side: Color, name: Option<&str>, s: &PlayerSummary) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let who = match side {
        Color::White => "White",
        Color::Black => "Black",
    };
    let who = match name {
        Some(n) if !n.is_empty() && n != "?" => format!("{who} ({n})"),
        _ => who.to_string(),
    };
    format!(
        "{who}: {}, {}, {}, {}, average loss {:.2} men per move",
        plural(s.moves, "move", "moves"),
        plural(s.inaccuracies, "inaccuracy", "inaccuracies"),
        plural(s.mistakes, "mistake", "mistakes"),
        plural(s.blunders, "blunder", "blunders"),
        s.average_loss()
    )
}

/// The legend printed under the summary.
pub fn legend() -> String {
    format!(
        "Scores in men from White's side. Marks by the mover's loss: ?! inaccuracy ≥ {:.2}, ? mistake ≥ {:.2}, ?? blunder ≥ {:.2} (evaluations capped at ±5 men; giving up a proven win or walking into a proven loss is a blunder).",
        INACCURACY.men(),
        MISTAKE.men(),
        BLUNDER.men()
    )
}

/// The whole review: a move per line, then the summary of each player (named from
/// `names`, White's then Black's, when known) and the legend.
pub fn report(review: &Review, names: [Option<&str>; 2]) -> String {
    let mut out = String::new();
    for m in &review.moves {
        out.push_str(&move_line(m));
        out.push('\n');
    }
    if review.stopped {
        out.push_str("(review stopped before the end of the game)\n");
    }
    out.push('\n');
    for (side, name) in [(Color::White, names[0]), (Color::Black, names[1])] {
        out.push_str(&summary_line(side, name, &review.summary(side)));
        out.push('\n');
    }
    out.push_str(&legend());
    out.push('\n');
    out
}
