//! Scores as the page shows them: from White's side in men (positive: White is
//! better), or, for a proven result, the verdict in the words the terminal's
//! analysis board uses ([`damas_engine::verdict`]), claiming no more than is proven.

use serde_json::{json, Value};

use damas_egdb::oracle::Oracle;
use damas_engine::score::Score;
use damas_engine::verdict::{verdict, Verdict};
use damas_rules::moves::Move;
use damas_rules::position::{Color, Position};
use damas_rules::variant::Variant;

/// `{"men": 0.42}` from White's side, or `{"verdict": "White wins in 4 moves (7
/// plies)"}` for a proven result; `mover` is the side the verdict's score is of.
pub fn score_json(v: Verdict, mover: Color) -> Value {
    if v.proof.is_some() {
        return json!({ "verdict": v.words(mover) });
    }
    let men = v.score.as_men();
    let white = if mover == Color::White { men } else { -men };
    // Two decimals, as the terminal shows them; never `-0`.
    json!({ "men": (white * 100.0).round() / 100.0 + 0.0 })
}

/// The score of a search of `root` (the side to move's `score` with its line `pv`)
/// as [`score_json`] gives it, proven results checked against `oracle`.
pub fn search_score(
    variant: Variant,
    oracle: Option<&dyn Oracle>,
    root: &Position,
    score: Score,
    pv: &[Move],
) -> Value {
    score_json(
        verdict(variant, oracle, root, score, pv),
        root.side_to_move(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_from_whites_side_and_proven_ones_in_words() {
        let level = Verdict {
            score: Score::centi(42),
            proof: None,
        };
        assert_eq!(score_json(level, Color::White), json!({"men": 0.42}));
        assert_eq!(score_json(level, Color::Black), json!({"men": -0.42}));
        let won = Verdict {
            score: Score::win_in(7),
            proof: Some(damas_engine::verdict::Proof::Plies(7)),
        };
        assert_eq!(
            score_json(won, Color::Black),
            json!({"verdict": "Black wins in 4 moves (7 plies)"})
        );
    }
}
