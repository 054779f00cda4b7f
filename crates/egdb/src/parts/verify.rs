//! Checking a database against the rules: every entry must agree with its
//! successors' entries (checksums are checked when the parts are opened).

use damas_rules::variant::Brazilian;
use std::sync::Mutex;

use rayon::prelude::*;

use crate::parts::entry::{decode_best, decode_wdl, evaluate};
use crate::parts::index::{assignments, combinations, SlotBlock};
use crate::probe::Egdb;
use crate::value::Wdl;
use crate::verify::VerifyReport;
use damas_rules::movegen::generate_with;
use damas_rules::moves::MoveList;
use damas_rules::position::Position;

/// Check every entry of every part of `db`, keeping the descriptions of the first
/// `keep` violations (in no particular order when several threads find them).
///
/// Rules: an impossible slot holds no value and a possible one does; a win has a
/// successor lost for the opponent, a loss has only successors won for the opponent
/// (or no move), a draw has a drawn successor and no lost one; where distances are
/// stored, a win is one ply longer than its fastest winning line and a loss one ply
/// longer than its slowest line; the stored best move is one of the optimal moves.
pub fn verify(db: &Egdb, keep: usize) -> VerifyReport {
    let mut report = VerifyReport::default();
    let first = Mutex::new(Vec::new());
    for n in (1..=crate::MAX_PIECES).filter(|&n| db.has_legacy_part(n)) {
        report.parts.push(n);
        let a = assignments(n) as usize;
        let bad: u64 = (0..combinations(n))
            .into_par_iter()
            .map_init(MoveList::new, |list, p| {
                let block = SlotBlock::new(n, p);
                let mut bad = 0;
                for kw in 0..a {
                    let pos = block.position_unchecked(kw);
                    let valid = block.is_valid(kw);
                    if let Some(problem) = check(db, n, p as usize * a + kw, &pos, valid, list) {
                        bad += 1;
                        let mut f = first.lock().unwrap_or_else(|e| e.into_inner());
                        if f.len() < keep {
                            f.push(format!(
                                "part {n} slot {}: {pos:?}: {problem}",
                                p as usize * a + kw
                            ));
                        }
                    }
                }
                bad
            })
            .sum();
        report.entries += crate::parts::index::part_size(n);
        report.violations += bad;
    }
    report.first = first.into_inner().unwrap_or_else(|e| e.into_inner());
    report
}

/// The problem with one entry, if any.
fn check(
    db: &Egdb,
    n: usize,
    index: usize,
    pos: &Position,
    valid: bool,
    list: &mut MoveList,
) -> Option<String> {
    let part = db.part(n)?;
    let (byte, distance) = part.entry(index);
    let stored = decode_wdl(byte);
    if !valid {
        return stored.map(|w| format!("impossible slot holds {}", w.name()));
    }
    let Some(wdl) = stored else {
        return Some("possible position has no value".into());
    };
    generate_with::<Brazilian>(pos, list);
    let mut all_distances = distance.is_some();
    let mut missing = false;
    let succ = |i: usize, all_distances: &mut bool, missing: &mut bool| {
        let q = pos.play(list[i]).flip();
        match db.entry_of(q.white().0, q.black().0, q.kings().0) {
            Some((b, d)) => {
                *all_distances &= d.is_some();
                decode_wdl(b).map(|w| (w, d.unwrap_or(0)))
            }
            None => {
                *missing = true;
                None
            }
        }
    };
    let Some(o) = evaluate(list, |i| succ(i, &mut all_distances, &mut missing)) else {
        return Some(if missing {
            "a successor's part is missing".into()
        } else {
            "a successor has no value".into()
        });
    };
    if o.wdl != wdl {
        return Some(format!(
            "stored {} but successors give {}",
            wdl.name(),
            o.wdl.name()
        ));
    }
    if all_distances && wdl != Wdl::Draw && distance != Some(o.distance) {
        return Some(format!(
            "stored distance {} but successors give {}",
            distance.unwrap_or(0),
            o.distance
        ));
    }
    if list.is_empty() {
        return None;
    }
    let best = decode_best(byte);
    if best >= list.len() {
        return Some(format!(
            "best move index {best} but only {} moves",
            list.len()
        ));
    }
    let (bw, bd) = succ(best, &mut all_distances, &mut missing)?;
    let ok = bw == wdl.negate() && (wdl == Wdl::Draw || !all_distances || bd + 1 == o.distance);
    (!ok).then(|| format!("best move {:?} is not optimal", list[best]))
}
