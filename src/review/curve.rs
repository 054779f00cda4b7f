//! The evaluation across a reviewed game, from White's side, for the charts (the
//! review panel's and `damas review --svg`): one point per move, in men, clamped to
//! ±[`CURVE_LIMIT`] (proven results at the limit), with each move's mark.

use std::fmt::Write;

use damas_rules::position::Color;

use super::{Mark, Review};

/// The chart's range in men, either side of level.
pub const CURVE_LIMIT: f64 = 3.0;

/// One move's point on the curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    /// The ply after which this is the evaluation (1 for the first move).
    pub ply: usize,
    /// The evaluation after the move, White's side, in men within ±[`CURVE_LIMIT`].
    pub white: f64,
    /// The move's mark, if it was judged an inaccuracy, mistake or blunder.
    pub mark: Option<Mark>,
}

/// The curve of `review`, one point per move.
pub fn eval_curve(review: &Review) -> Vec<CurvePoint> {
    review
        .moves
        .iter()
        .map(|m| {
            let s = m.played_score;
            let men = if s.is_win() {
                CURVE_LIMIT
            } else if s.is_loss() {
                -CURVE_LIMIT
            } else {
                s.as_men().clamp(-CURVE_LIMIT, CURVE_LIMIT)
            };
            CurvePoint {
                ply: m.ply + 1,
                white: if m.mover == Color::White { men } else { -men },
                mark: m.judgement.mark,
            }
        })
        .collect()
}

/// The curve as an SVG picture: the evaluation line over the plies, level marked,
/// the marked moves as red dots with their symbol.
pub fn curve_svg(points: &[CurvePoint]) -> String {
    let (w, h, pad) = (720.0, 240.0, 30.0);
    let plies = points.last().map_or(1, |p| p.ply).max(1) as f64;
    let x = |ply: usize| pad + (w - 2.0 * pad) * ply as f64 / plies;
    let y = |men: f64| h / 2.0 - (h / 2.0 - pad) * men / CURVE_LIMIT;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{pad}" y="18" font-family="sans-serif" font-size="13">Evaluation (men, White up), ±{CURVE_LIMIT} at the edges</text>"#
    );
    let _ = writeln!(
        s,
        r##"<line x1="{pad}" y1="{0}" x2="{1}" y2="{0}" stroke="#999" stroke-dasharray="4 3"/>"##,
        y(0.0),
        w - pad
    );
    let path: Vec<String> = std::iter::once(format!("{:.1},{:.1}", x(0), y(0.0)))
        .chain(
            points
                .iter()
                .map(|p| format!("{:.1},{:.1}", x(p.ply), y(p.white))),
        )
        .collect();
    let _ = writeln!(
        s,
        r##"<polyline class="eval" fill="none" stroke="#1f4e9a" stroke-width="2" points="{}"/>"##,
        path.join(" ")
    );
    for p in points {
        if let Some(m) = p.mark {
            let (cx, cy) = (x(p.ply), y(p.white));
            let _ = writeln!(
                s,
                r##"<circle class="mark" cx="{cx:.1}" cy="{cy:.1}" r="4" fill="#c0392b"><title>ply {} {}</title></circle><text x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="11" fill="#c0392b">{}</text>"##,
                p.ply,
                m,
                cx + 5.0,
                cy - 5.0,
                m.symbol()
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::{Judgement, MoveReview};
    use damas_engine::score::Score;
    use damas_rules::movegen::legal_moves;
    use damas_rules::pdn::MoveNumber;
    use damas_rules::position::Position;
    use damas_rules::variant::Variant;

    fn mv(ply: usize, mover: Color, score: Score, mark: Option<Mark>) -> MoveReview {
        MoveReview {
            ply,
            number: MoveNumber {
                number: ply as u32 / 2 + 1,
                black: mover == Color::Black,
            },
            mover,
            played: legal_moves(Variant::Brazilian, &Position::start())[0],
            played_text: "c3-d4".into(),
            best_text: None,
            best_score: score,
            best_proof: None,
            played_score: score,
            played_proof: None,
            forced: false,
            book: false,
            judgement: Judgement {
                loss: Default::default(),
                mark,
            },
        }
    }

    #[test]
    fn the_curve_is_whites_side_clamped_with_the_marks() {
        let review = Review {
            variant: Default::default(),
            moves: vec![
                mv(0, Color::White, Score::centi(50), None),
                mv(1, Color::Black, Score::centi(120), Some(Mark::Mistake)),
                mv(2, Color::White, Score::win_in(5), None),
                mv(3, Color::Black, Score::centi(-900), Some(Mark::Blunder)),
            ],
            stopped: false,
        };
        let c = eval_curve(&review);
        let whites: Vec<f64> = c.iter().map(|p| p.white).collect();
        assert_eq!(whites, [0.5, -1.2, 3.0, 3.0]);
        assert_eq!(c[1].ply, 2);
        assert_eq!(c[3].mark, Some(Mark::Blunder));
        let svg = curve_svg(&c);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("class=\"mark\"").count(), 2);
        assert!(svg.contains(">??</text>"));
    }
}
