//! The engine's thinking as shown on screen: depth, score (from White's side), nodes,
//! speed and the best line in algebraic notation.

use crate::notation::{move_to_string, Notation};
use crate::position::{Color, Position};
use crate::score::Score;
use crate::search::Info;

/// One progress report, ready to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// Depth completed.
    pub depth: u32,
    /// Score from White's point of view: `+0.50`, `White wins in 7`.
    pub score: String,
    /// Nodes searched (quiescence included).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// The best line, algebraic.
    pub pv: Vec<String>,
}

impl Thinking {
    /// Format a search report for the position searched.
    pub fn from_info(pos: &Position, info: &Info) -> Thinking {
        let mut pv = Vec::new();
        let mut p = *pos;
        for &m in &info.pv {
            pv.push(move_to_string(&p, m, Notation::Algebraic));
            p = p.play(m);
        }
        Thinking {
            depth: info.depth,
            score: Thinking::score_text(pos.side_to_move(), info.score),
            nodes: info.stats.nodes + info.stats.qs_nodes,
            nps: info.stats.nps(),
            pv,
        }
    }

    /// A score of the side `mover`, told from White's side.
    pub fn score_text(mover: Color, score: Score) -> String {
        let white = if mover == Color::White { score } else { -score };
        match white.plies() {
            Some(p) if white.value() > 0 => format!("White wins in {p}"),
            Some(p) => format!("Black wins in {p}"),
            None => format!("{:+.2}", white.as_men()),
        }
    }
}

/// `12.3k`, `4.56M`: a count in few characters.
pub fn short_count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.2}M", n as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_told_from_whites_side() {
        assert_eq!(
            Thinking::score_text(Color::White, Score::centi(150)),
            "+1.50"
        );
        assert_eq!(
            Thinking::score_text(Color::Black, Score::centi(150)),
            "-1.50"
        );
        assert_eq!(
            Thinking::score_text(Color::Black, Score::win_in(7)),
            "Black wins in 7"
        );
        assert_eq!(short_count(123_456), "123.5k");
    }
}
