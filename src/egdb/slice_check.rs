//! Checking and summarising second-generation slices: every stored value against
//! its successors' values, the checksums, and win/draw/loss counts per slice.

use std::sync::Mutex;

use rayon::prelude::*;

use crate::egdb::slice::{Slice, SliceIndex, MAX_SLICE_PIECES};
use crate::egdb::slice_build::SliceCounts;
use crate::egdb::slicedb::SliceDb;
use crate::egdb::value::Wdl;
use crate::egdb::verify::VerifyReport;
use crate::movegen::{generate, has_capture};
use crate::moves::MoveList;

const CHUNK: u64 = 1 << 14;

/// The slices present in `db`, in build order.
pub fn present_slices(db: &SliceDb) -> Vec<Slice> {
    (2..=MAX_SLICE_PIECES)
        .flat_map(Slice::all)
        .filter(|&s| db.file(s).is_some())
        .collect()
}

/// Check the checksum of every slice file and every stored value: a win must
/// have a successor lost for the opponent, a draw a drawn successor and no lost
/// one, a loss only won successors (or no move). Positions where the side to move
/// must capture are not stored and not checked (their value is derived at probe
/// time). Keeps the first `keep` violations; `parts` lists the piece counts
/// checked.
pub fn verify_slices(db: &SliceDb, keep: usize) -> VerifyReport {
    let mut report = VerifyReport::default();
    let first = Mutex::new(Vec::new());
    let note = |line: String| {
        let mut f = first.lock().unwrap_or_else(|e| e.into_inner());
        if f.len() < keep {
            f.push(line);
        }
    };
    for s in present_slices(db) {
        if !report.parts.contains(&s.pieces()) {
            report.parts.push(s.pieces());
        }
        let Some(file) = db.file(s) else { continue };
        let ix = SliceIndex::new(s);
        report.entries += ix.size();
        if let Err(e) = file.check() {
            report.violations += 1;
            note(e.to_string());
            continue;
        }
        let bad: u64 = (0..ix.size().div_ceil(CHUNK))
            .into_par_iter()
            .map_init(MoveList::new, |list, c| {
                let mut bad = 0;
                for i in c * CHUNK..((c + 1) * CHUNK).min(ix.size()) {
                    let Some(pos) = ix.unrank(i).map(|p| p.position()) else {
                        continue;
                    };
                    if has_capture(&pos) {
                        continue;
                    }
                    let stored = db.stored(&pos);
                    generate(&pos, list);
                    let mut derived = Some(Wdl::Loss);
                    for &m in list.iter() {
                        match db.wdl(&pos.play(m)).map(Wdl::negate) {
                            None => derived = None,
                            Some(Wdl::Win) => {
                                derived = derived.map(|_| Wdl::Win);
                                break;
                            }
                            Some(Wdl::Draw) => {
                                derived = derived.map(|_| Wdl::Draw);
                            }
                            Some(Wdl::Loss) => {}
                        }
                    }
                    if stored.is_none() || derived != stored {
                        bad += 1;
                        note(format!(
                            "{s} #{i}: {pos:?}: stored {:?}, successors give {:?}",
                            stored, derived
                        ));
                    }
                }
                bad
            })
            .sum();
        report.violations += bad;
    }
    report.first = first.into_inner().unwrap_or_else(|e| e.into_inner());
    report
}

/// Wins, draws and losses of every position of `slice` (capture positions
/// resolved by search); `None` when the slice is missing or unreadable.
pub fn slice_counts(db: &SliceDb, slice: Slice) -> Option<SliceCounts> {
    let ix = SliceIndex::new(slice);
    db.file(slice)?.check().ok()?;
    (0..ix.size().div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut k = SliceCounts::default();
            for i in c * CHUNK..((c + 1) * CHUNK).min(ix.size()) {
                let pos = ix.unrank(i)?.position();
                k.captures += u64::from(has_capture(&pos));
                match db.wdl(&pos)? {
                    Wdl::Win => k.wins += 1,
                    Wdl::Draw => k.draws += 1,
                    Wdl::Loss => k.losses += 1,
                }
            }
            Some(k)
        })
        .try_reduce(SliceCounts::default, |a, b| {
            Some(SliceCounts {
                wins: a.wins + b.wins,
                draws: a.draws + b.draws,
                losses: a.losses + b.losses,
                captures: a.captures + b.captures,
            })
        })
}
