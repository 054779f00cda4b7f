//! The engine's thinking as shown on screen: depth, score (labelled with the side it
//! favours, in men, or a proven win in moves), nodes, speed and the best line in
//! algebraic notation.

use damas_egdb::oracle::Oracle;
use damas_engine::level::Strength;
use damas_engine::score::Score;
use damas_engine::search::{Info, SearchResult, CONVERSION_UNPROVEN};
use damas_engine::think::Source;
use damas_engine::verdict::verdict;
use damas_rules::moves::Move;
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::position::Position;
use damas_rules::variant::Variant;

/// One progress report, ready to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// Depth completed.
    pub depth: u32,
    /// The score: `+0.50 for White` (in men), `White wins in 4 moves (7 plies)`,
    /// `White wins (database position in 3 plies)`.
    pub score: String,
    /// Nodes searched (quiescence included).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// The best line, algebraic.
    pub pv: Vec<String>,
    /// What the move is when it was not searched at full strength (`book move`,
    /// `forced move`, `level 3 (casual) choice`): shown instead of a depth and score
    /// that no search earned; or a database win whose conversion is not proven.
    pub note: Option<String>,
    /// With several lines asked for: each one's score (labelled for the side it
    /// favours) and moves, best first.
    pub lines: Vec<(String, String)>,
}

impl Thinking {
    /// Format a search report for the position searched, moves written by the rules
    /// of `variant`; `oracle` is the database the search consulted, if any (proven
    /// scores are worded by what their lines prove).
    pub fn from_info(
        variant: Variant,
        oracle: Option<&dyn Oracle>,
        pos: &Position,
        info: &Info,
    ) -> Thinking {
        let text = |line: &[damas_rules::moves::Move]| {
            let mut out = Vec::new();
            let mut p = *pos;
            for &m in line {
                out.push(move_to_string(variant, &p, m, Notation::Algebraic));
                p = p.play(m);
            }
            out
        };
        let pv = text(&info.pv);
        let lines = info
            .lines
            .iter()
            .map(|l| {
                (
                    Thinking::score_text(variant, oracle, pos, l.score, &l.pv),
                    text(&l.pv).join(" "),
                )
            })
            .collect();
        Thinking {
            lines,
            depth: info.depth,
            score: Thinking::score_text(variant, oracle, pos, info.score, &info.pv),
            nodes: info.stats.nodes + info.stats.qs_nodes,
            nps: info.stats.nps(),
            pv,
            note: info
                .conversion_unproven
                .then(|| CONVERSION_UNPROVEN.to_string()),
        }
    }

    /// Format the final result of a choice of a move in `pos` at `strength`: a search
    /// at full strength as [`Thinking::from_result`] does, anything else labelled.
    pub fn from_thought(
        variant: Variant,
        oracle: Option<&dyn Oracle>,
        pos: &Position,
        result: &SearchResult,
        source: Source,
        strength: Strength,
    ) -> Thinking {
        let mut t = Thinking::from_result(variant, oracle, pos, result);
        t.note = match source {
            Source::Book => Some("book move".to_string()),
            Source::Forced => Some("forced move (the only legal one)".to_string()),
            Source::Search if strength != Strength::FULL => {
                Some(format!("level {strength} choice"))
            }
            Source::Search => t.note,
        };
        t
    }

    /// Format the final result of a search of `pos`.
    pub fn from_result(
        variant: Variant,
        oracle: Option<&dyn Oracle>,
        pos: &Position,
        result: &SearchResult,
    ) -> Thinking {
        Thinking::from_info(
            variant,
            oracle,
            pos,
            &Info {
                depth: result.depth,
                score: result.score,
                stats: result.stats,
                pv: result.pv.clone(),
                lines: Vec::new(),
                conversion_unproven: result.conversion_unproven,
            },
        )
    }

    /// A score of a search of `pos` (its side to move's) whose line is `pv`,
    /// labelled with the side it favours: `+0.35 for White` (men), `level (0.00)`, or
    /// a proven result as far as the line proves it: `Black wins in 4 moves (7
    /// plies)`, `White wins (database position in 3 plies)`
    /// ([`damas_engine::verdict`]).
    pub fn score_text(
        variant: Variant,
        oracle: Option<&dyn Oracle>,
        pos: &Position,
        score: Score,
        pv: &[Move],
    ) -> String {
        verdict(variant, oracle, pos, score, pv).words(pos.side_to_move())
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
        let white = Position::start();
        let black = damas_rules::fen::parse_fen("B:Wc3:Bf6,h8").unwrap();
        let text =
            |pos: &Position, score| Thinking::score_text(Variant::Brazilian, None, pos, score, &[]);
        assert_eq!(text(&white, Score::centi(35)), "+0.35 for White");
        assert_eq!(text(&black, Score::centi(150)), "+1.50 for Black");
        assert_eq!(text(&white, Score::centi(0)), "level (0.00)");
        assert_eq!(
            text(&black, Score::win_in(7)),
            "Black wins in 4 moves (7 plies)"
        );
        assert_eq!(
            text(&white, Score::win_in(1)),
            "White wins in 1 move (1 ply)"
        );
        // A database win without a stored distance has no count.
        let far = Score::win_in(Score::UNKNOWN_DISTANCE + 66);
        assert_eq!(text(&white, far), "White wins (database)");
        assert_eq!(text(&white, -far), "Black wins (database)");
        assert_eq!(short_count(123_456), "123.5k");
    }

    #[test]
    fn a_database_win_reached_by_the_line_claims_no_length() {
        // Four pieces: the built-in databases hold the position as won for White,
        // distances (solved at a root) counting to the next conversion only.
        let pos = damas_rules::fen::parse_fen("W:Wa1,e1,e3:BKg1").unwrap();
        let db = damas_egdb::oracle::built_in(Variant::Brazilian).unwrap();
        let best = damas_rules::notation::parse_move(Variant::Brazilian, &pos, "e3-f4").unwrap();
        let t = Thinking::score_text(
            Variant::Brazilian,
            Some(&*db),
            &pos,
            Score::win_in(19),
            &[best],
        );
        assert_eq!(t, "White wins (database position)");
    }

    #[test]
    fn moves_not_searched_at_full_strength_are_labelled() {
        let pos = Position::start();
        let m = damas_rules::movegen::legal_moves(Variant::Brazilian, &pos)[0];
        let result = SearchResult::unsearched(m);
        let t = |source, strength| {
            Thinking::from_thought(Variant::Brazilian, None, &pos, &result, source, strength).note
        };
        assert_eq!(
            t(Source::Book, Strength::FULL).as_deref(),
            Some("book move")
        );
        assert!(t(Source::Forced, Strength::FULL)
            .unwrap()
            .starts_with("forced"));
        let level: Strength = "2".parse().unwrap();
        assert_eq!(
            t(Source::Search, level).as_deref(),
            Some("level 2 (novice) choice")
        );
        assert_eq!(t(Source::Search, Strength::FULL), None);
        let unproven = SearchResult {
            conversion_unproven: true,
            ..result.clone()
        };
        assert_eq!(
            Thinking::from_thought(
                Variant::Brazilian,
                None,
                &pos,
                &unproven,
                Source::Search,
                Strength::FULL
            )
            .note
            .as_deref(),
            Some("database win; conversion within the counting rules not proven")
        );
    }
}
