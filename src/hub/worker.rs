//! The search thread of the Hub engine: runs one search through the one search
//! entry (`think`, whose [`Clock`] the command loop shares to stop it or start its
//! time at `ponder-hit`), prints `info` lines as iterations complete, holds `done`
//! back while pondering or analysing, and hands the searcher back when it ends.

use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use damas_egdb::oracle::Oracle;
use damas_engine::level::Strength;
use damas_engine::score::Score;
use damas_engine::search::{Info, SearchResult, Searcher, CONVERSION_UNPROVEN};
use damas_engine::think::{think, Think};
use damas_engine::verdict::{consulted, verdict, Verdict};
use damas_rules::movegen::legal_moves;
use damas_rules::position::Position;
use damas_rules::variant::Variant;

use super::numbering::MoveNumbering;
use damas_engine::time::Clock;

/// The engine's output: whole lines, flushed at once, shared with the search thread.
#[derive(Clone)]
pub(super) struct Output(pub(super) Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub(super) fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed output cannot be reported anywhere; the engine ends when stdin does.
        let _ = writeln!(w, "{text}").and_then(|_| w.flush());
    }
}

/// The score in men as Hub clients read it: proven results as ±(100 − plies/100), the
/// convention of Scan that pydraughts decodes into "win in N moves", where the plies
/// to the end are proven; a proven result of unknown length (a database win reached
/// without a distance to the end) as ±[`UNCOUNTED_WIN`].
pub(super) fn hub_score(verdict: &Verdict) -> String {
    let score = verdict.score;
    match verdict.plies() {
        Some(p) => {
            let v = (10_000 - p.min(9_000) as i32) as f64 / 100.0;
            format!("{:.2}", if score.is_win() { v } else { -v })
        }
        None if score.is_proven() => {
            let v = UNCOUNTED_WIN;
            format!("{:.2}", if score.is_win() { v } else { -v })
        }
        None => format!("{:.2}", score.as_men()),
    }
}

/// The Hub score of a proven win whose distance is unknown: below every counted win
/// (those are above 96.00) and above every evaluation (docs/egdb.md).
pub(super) const UNCOUNTED_WIN: f64 = 90.0;

fn pv_string(pos: &Position, pv: &[damas_rules::moves::Move], out: Moves) -> String {
    let mut p = *pos;
    let mut words = Vec::new();
    for &m in pv {
        if !legal_moves(out.variant, &p).contains(&m) {
            break;
        }
        words.push(out.numbering.format(out.variant, &p, m));
        p = p.play(m);
    }
    words.join(" ")
}

/// The `info` lines of one report: one line, or with several lines asked for
/// (`lines`), one per line, best first, each carrying `multipv=K`; `oracle` is the
/// database the search consulted.
fn info_lines(
    pos: &Position,
    info: &Info,
    numbering: Moves,
    oracle: Option<&dyn Oracle>,
) -> Vec<String> {
    if info.lines.is_empty() {
        return vec![info_line(pos, info, numbering, oracle)];
    }
    info.lines
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let one = Info {
                score: line.score,
                pv: line.pv.clone(),
                lines: Vec::new(),
                ..info.clone()
            };
            format!(
                "{} multipv={}",
                info_line(pos, &one, numbering, oracle),
                k + 1
            )
        })
        .collect()
}

fn info_line(pos: &Position, info: &Info, numbering: Moves, oracle: Option<&dyn Oracle>) -> String {
    let nodes = info.stats.nodes + info.stats.qs_nodes;
    let note = if info.conversion_unproven {
        format!(" note={}", super::protocol::quote(CONVERSION_UNPROVEN))
    } else {
        String::new()
    };
    format!(
        "info depth={} score={} nodes={} time={:.3} nps={} hashfull={} pv=\"{}\"{note}",
        info.depth,
        hub_score(&verdict(
            numbering.variant,
            oracle,
            pos,
            info.score,
            &info.pv
        )),
        nodes,
        info.stats.time.as_secs_f64(),
        info.stats.nps(),
        info.stats.tt_permille,
        pv_string(pos, &info.pv, numbering)
    )
}

fn done_line(pos: &Position, result: &SearchResult, out: Moves) -> String {
    let Some(best) = result.best else {
        return "done".to_string();
    };
    let mut line = format!("done move={}", out.numbering.format(out.variant, pos, best));
    if result.pv.first() == Some(&best) {
        if let Some(&reply) = result.pv.get(1) {
            let next = pos.play(best);
            if legal_moves(out.variant, &next).contains(&reply) {
                line.push_str(&format!(
                    " ponder={}",
                    out.numbering.format(out.variant, &next, reply)
                ));
            }
        }
    }
    line
}

/// How a search's moves are written: the Hub numbering, under the game's rules.
#[derive(Clone, Copy, Debug)]
pub(super) struct Moves {
    /// The rules of the game.
    pub variant: Variant,
    /// The square numbering.
    pub numbering: MoveNumbering,
}

/// What one search works on.
pub(super) struct Job {
    /// The position.
    pub pos: Position,
    /// Earlier positions of the game, for repetitions.
    pub history: Vec<Position>,
    /// How moves are written in the output.
    pub moves: Moves,
    /// Playing strength.
    pub strength: Strength,
}

/// Run `job` on a new thread; the thread prints `info` and `done` lines to `out` and
/// returns the searcher.
pub(super) fn spawn(
    mut searcher: Searcher,
    job: Job,
    clock: Arc<Clock>,
    out: Output,
) -> JoinHandle<Searcher> {
    let Job {
        pos,
        history,
        moves: numbering,
        strength,
    } = job;
    let oracle = consulted(searcher.options());
    thread::spawn(move || {
        let mut on_info = |info: &Info| {
            for line in info_lines(&pos, info, numbering, oracle.as_deref()) {
                out.line(&line);
            }
        };
        let searched = panic::catch_unwind(AssertUnwindSafe(|| {
            let mut rng = ChaCha8Rng::from_entropy();
            // Forced and book moves were answered before the search began.
            let job = Think {
                pos: &pos,
                history: &history,
                book: None,
                strength,
                lines: None,
                forced_without_search: false,
            };
            think(&mut searcher, &job, &mut rng, &clock, &mut on_info).result
        }));
        let result = match searched {
            Ok(r) => r,
            Err(_) => {
                // The GUI still needs a move: report, play the first legal one,
                // and start over with fresh tables.
                out.line("error message=\"internal search error; playing the first legal move\"");
                searcher = Searcher::new(searcher.options().clone());
                let best = legal_moves(numbering.variant, &pos).first().copied();
                SearchResult {
                    best,
                    score: Score::DRAW,
                    depth: 0,
                    pv: best.into_iter().collect(),
                    stats: Default::default(),
                    conversion_unproven: false,
                }
            }
        };
        clock.wait_release();
        out.line(&done_line(&pos, &result, numbering));
        searcher
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_engine::search::PvLine;
    use damas_rules::movegen::legal_moves;

    const STANDARD: Moves = Moves {
        variant: Variant::Brazilian,
        numbering: MoveNumbering::Standard,
    };

    #[test]
    fn info_lines_report_table_fullness() {
        let pos = Position::start();
        let mut info = Info {
            depth: 3,
            score: Score::centi(12),
            pv: legal_moves(Variant::Brazilian, &pos)
                .iter()
                .take(1)
                .copied()
                .collect(),
            stats: Default::default(),
            lines: Vec::new(),
            conversion_unproven: false,
        };
        info.stats.tt_permille = 417;
        let line = info_line(&pos, &info, STANDARD, None);
        assert!(line.contains(" hashfull=417 "), "{line}");
        assert!(line.starts_with("info depth=3 score=0.12 "), "{line}");
        assert!(!line.contains("note="), "{line}");
        info.conversion_unproven = true;
        let line = info_line(&pos, &info, STANDARD, None);
        assert!(
            line.ends_with(
                "\" note=\"database win; conversion within the counting rules not proven\""
            ),
            "{line}"
        );
    }

    #[test]
    fn several_lines_give_one_info_each_best_first() {
        let pos = Position::start();
        let moves = legal_moves(Variant::Brazilian, &pos);
        let lines: Vec<PvLine> = [(30, moves[0]), (-5, moves[1])]
            .iter()
            .map(|&(c, m)| PvLine {
                score: Score::centi(c),
                pv: vec![m],
            })
            .collect();
        let info = Info {
            depth: 4,
            score: lines[0].score,
            pv: lines[0].pv.clone(),
            stats: Default::default(),
            lines,
            conversion_unproven: false,
        };
        let out = info_lines(&pos, &info, STANDARD, None);
        assert_eq!(out.len(), 2, "{out:?}");
        let first = MoveNumbering::Standard.format(Variant::Brazilian, &pos, moves[0]);
        let second = MoveNumbering::Standard.format(Variant::Brazilian, &pos, moves[1]);
        assert!(out[0].starts_with("info depth=4 score=0.30 "), "{out:?}");
        assert!(
            out[0].ends_with(&format!("pv=\"{first}\" multipv=1")),
            "{out:?}"
        );
        assert!(out[1].starts_with("info depth=4 score=-0.05 "), "{out:?}");
        assert!(
            out[1].ends_with(&format!("pv=\"{second}\" multipv=2")),
            "{out:?}"
        );
        // One line asked for: the one `info` line, unchanged.
        let single = Info {
            lines: Vec::new(),
            ..info
        };
        assert_eq!(
            info_lines(&pos, &single, STANDARD, None),
            vec![info_line(&pos, &single, STANDARD, None)]
        );
    }

    #[test]
    fn scores_follow_the_hub_convention() {
        use damas_engine::verdict::Proof;
        let said = |score, proof| hub_score(&Verdict { score, proof });
        assert_eq!(said(Score::centi(-150), None), "-1.50");
        assert_eq!(said(Score::win_in(5), Some(Proof::Plies(5))), "99.95");
        assert_eq!(said(Score::loss_in(4), Some(Proof::Plies(4))), "-99.96");
        // A database win of unknown distance: the proven band's uncounted value.
        let far = Score::win_in(Score::UNKNOWN_DISTANCE + 50);
        assert_eq!(said(far, Some(Proof::Database(None))), "90.00");
        assert_eq!(said(-far, Some(Proof::Database(None))), "-90.00");
        // A database position reached after a count that runs only to it: no count.
        let reached = Score::win_in(17);
        assert_eq!(said(reached, Some(Proof::Database(Some(1)))), "90.00");
    }
}
