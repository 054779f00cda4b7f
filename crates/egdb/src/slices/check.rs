//! Checking and summarising second-generation slices: every stored value (and
//! distance, when the slice has its distance file) against its successors', the
//! checksums, and win/draw/loss counts per slice.

use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use crate::damage::BrokenFile;
use crate::progress::Bar;
use crate::slices::build::SliceCounts;
use crate::slices::db::SliceDb;
use crate::slices::dtc::{DtcFile, SliceDistances};
use crate::slices::slice::{Slice, SliceIndex, MAX_SLICE_PIECES};
use crate::value::Wdl;
use crate::verify::VerifyReport;
use damas_rules::movegen::{generate_with, has_capture};
use damas_rules::moves::MoveList;
use damas_rules::{with_rules, Rules};

const CHUNK: u64 = 1 << 14;

/// The slices present in `db`, in build order.
pub fn present_slices(db: &SliceDb) -> Vec<Slice> {
    (2..=MAX_SLICE_PIECES)
        .flat_map(Slice::all)
        .filter(|&s| db.file(s).is_some())
        .collect()
}

/// How [`verify_slices`] runs: where to start, what to show.
#[derive(Clone, Debug, Default)]
pub struct VerifyOptions {
    /// Skip the slices before this one in build order (resume an interrupted run:
    /// each checked slice is reported through the callback).
    pub from: Option<Slice>,
    /// A progress bar with ETA on stderr (only drawn on a terminal).
    pub progress: bool,
    /// Violations to describe.
    pub keep: usize,
}

/// What [`verify_slices`] reports after each slice.
#[derive(Clone, Copy, Debug)]
pub struct SliceVerified {
    /// The slice.
    pub slice: Slice,
    /// Positions numbered in it.
    pub positions: u64,
    /// Violations found in it.
    pub violations: u64,
    /// Positions not checked because answering a successor needs a damaged file.
    pub skipped: u64,
    /// Whether its own file (or its distance file) is damaged: nothing in it was
    /// checked.
    pub damaged: bool,
    /// Seconds spent on it.
    pub seconds: f64,
}

/// Check the checksum of every slice file (and distance file) first, then every stored
/// value: a win must have a successor lost for the opponent, a draw a drawn successor and
/// no lost one, a loss only won successors (or no move). Positions where the side to move
/// must capture are not stored and not checked (their value is derived at probe time). With
/// `distances`, each slice's distance file too (checksum, and every won or lost position's
/// plies to conversion against its successors': see [`distance_problem`]). Keeps the first
/// `opts.keep` violations; `parts` lists the piece counts checked; `done` hears of each
/// slice when it is checked. Moves follow the rules of the database's variant. A damaged
/// file is listed in the report, its slice not checked, and a position whose successors
/// need it is counted as skipped, not as a violation.
pub fn verify_slices(
    db: &SliceDb,
    distances: Option<&SliceDistances>,
    opts: &VerifyOptions,
    done: impl FnMut(&SliceVerified),
) -> VerifyReport {
    with_rules!(db.variant(), R => verify_slices_with::<R>(db, distances, opts, done))
}

/// [`verify_slices`] under the rules `R` (the database's own).
fn verify_slices_with<R: Rules>(
    db: &SliceDb,
    distances: Option<&SliceDistances>,
    opts: &VerifyOptions,
    mut done: impl FnMut(&SliceVerified),
) -> VerifyReport {
    let mut report = VerifyReport::default();
    let first = Mutex::new(Vec::new());
    let note = |line: String| {
        let mut f = first.lock().unwrap_or_else(|e| e.into_inner());
        if f.len() < opts.keep {
            f.push(line);
        }
    };
    // Checksums first: a damaged file is the fault of whatever disagrees with it.
    let mut damaged: Vec<Slice> = db.broken().iter().map(|&(s, _)| s).collect();
    report.damaged = db.broken().iter().map(|(_, f)| f.clone()).collect();
    for s in present_slices(db) {
        let file = db.file(s).map(|f| (f.path().to_path_buf(), f.check()));
        let dtc = distances
            .and_then(|d| d.file(s))
            .map(|f| (f.path().to_path_buf(), f.check()));
        for (path, checked) in file.into_iter().chain(dtc) {
            if let Err(e) = checked {
                report.damaged.push(BrokenFile::new(&path, &e));
                damaged.push(s);
            }
        }
    }
    let mut slices: Vec<Slice> = present_slices(db)
        .into_iter()
        .chain(db.broken().iter().map(|&(s, _)| s))
        .collect();
    slices.sort_by_key(|s| build_order(*s));
    slices.dedup();
    if let Some(from) = opts.from {
        if let Some(at) = slices.iter().position(|&s| s == from) {
            slices.drain(..at);
        }
    }
    let total: u64 = slices.iter().map(|&s| SliceIndex::new(s).size()).sum();
    let template = "{msg:12} [{bar:40}] {percent:>3}% {elapsed_precise} left {eta_precise}";
    let bar = Bar::new(opts.progress, Some(total), template);
    for s in slices {
        let start = Instant::now();
        bar.set_message(s.to_string());
        if !report.parts.contains(&s.pieces()) {
            report.parts.push(s.pieces());
        }
        let ix = SliceIndex::new(s);
        let own_damaged = damaged.contains(&s);
        let file = db.file(s).filter(|_| !own_damaged);
        let (bad, skipped) = if file.is_some() {
            report.entries += ix.size();
            let dtc = distances.and_then(|d| d.file(s).map(|f| (d, f)));
            let any_damage = !damaged.is_empty();
            (0..ix.size().div_ceil(CHUNK))
                .into_par_iter()
                .map_init(MoveList::new, |list, c| {
                    let end = ((c + 1) * CHUNK).min(ix.size());
                    let (mut bad, mut skipped) = (0, 0);
                    for i in c * CHUNK..end {
                        let problem = match check_one::<R>(db, &ix, i, list) {
                            // Damage elsewhere explains a successor without a value.
                            Some(Problem::Unanswered(_)) if any_damage => {
                                skipped += 1;
                                continue;
                            }
                            Some(p) => Some(p.text()),
                            None => dtc.and_then(|(d, f)| {
                                distance_problem_with::<R>(db, d, f, &ix, i, list)
                            }),
                        };
                        if let Some(problem) = problem {
                            bad += 1;
                            note(format!("{s} #{i}: {problem}"));
                        }
                    }
                    bar.inc(end - c * CHUNK);
                    (bad, skipped)
                })
                .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
        } else {
            bar.inc(ix.size());
            (0, 0)
        };
        report.violations += bad;
        report.skipped += skipped;
        done(&SliceVerified {
            slice: s,
            positions: ix.size(),
            violations: bad,
            skipped,
            damaged: own_damaged,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    bar.finish_and_clear();
    report.first = first.into_inner().unwrap_or_else(|e| e.into_inner());
    report
}

/// What is wrong with a stored value.
enum Problem {
    /// It disagrees with its successors' values.
    Wrong(String),
    /// A successor has no value: a missing or damaged file, not this one.
    Unanswered(String),
}

impl Problem {
    fn text(self) -> String {
        match self {
            Problem::Wrong(t) | Problem::Unanswered(t) => t,
        }
    }
}

/// Where `slice` comes in build order (piece count, then [`Slice::all`]'s order).
fn build_order(slice: Slice) -> (usize, usize) {
    let n = slice.pieces();
    (
        n,
        Slice::all(n).iter().position(|&s| s == slice).unwrap_or(0),
    )
}

/// The problem with position `i` of a slice, if any.
fn check_one<R: Rules>(
    db: &SliceDb,
    ix: &SliceIndex,
    i: u64,
    list: &mut MoveList,
) -> Option<Problem> {
    let pos = ix.unrank(i)?.position();
    if has_capture(&pos) {
        return None;
    }
    let stored = db.stored(&pos);
    generate_with::<R>(&pos, list);
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
    let text = || format!("{pos:?}: stored {stored:?}, successors give {derived:?}");
    match (stored, derived) {
        (Some(_), None) => Some(Problem::Unanswered(text())),
        _ => (derived != stored).then(|| Problem::Wrong(text())),
    }
}

/// The problem with the distance of position `i` of a slice, if any: a win
/// that converts (promotes into a lost position) at once has distance 0, any other
/// win one more than its nearest lost successor inside the slice; a loss one more
/// than its farthest successor inside the slice (0 with none). Capture positions
/// and draws store 0. Successors inside the slice are the quiet moves that do not
/// promote (the builder's own definition). Moves follow the database's variant.
pub fn distance_problem(
    db: &SliceDb,
    distances: &SliceDistances,
    file: &DtcFile,
    ix: &SliceIndex,
    i: u64,
    list: &mut MoveList,
) -> Option<String> {
    with_rules!(db.variant(), R => distance_problem_with::<R>(db, distances, file, ix, i, list))
}

/// [`distance_problem`] under the rules `R` (the database's own).
fn distance_problem_with<R: Rules>(
    db: &SliceDb,
    distances: &SliceDistances,
    file: &DtcFile,
    ix: &SliceIndex,
    i: u64,
    list: &mut MoveList,
) -> Option<String> {
    let pos = ix.unrank(i)?.position();
    let stored = file.get(i);
    let wdl = if has_capture(&pos) {
        None
    } else {
        db.stored(&pos)
    };
    let want = match wdl {
        None | Some(Wdl::Draw) => Some(0),
        Some(value) => {
            generate_with::<R>(&pos, list);
            let kings = pos.kings().count();
            let (mut converts, mut nearest, mut farthest) = (false, None::<u8>, None::<u8>);
            for &m in list.iter() {
                let child = pos.play(m);
                if db.wdl(&child).map(Wdl::negate) != Some(value) {
                    continue;
                }
                if child.kings().count() != kings {
                    converts = true;
                    continue;
                }
                let d = distances.plies(&child)?;
                nearest = Some(nearest.map_or(d, |n| n.min(d)));
                farthest = Some(farthest.map_or(d, |f| f.max(d)));
            }
            let one_more = |d: u8| d.saturating_add(1);
            match value {
                Wdl::Win if converts => Some(0),
                Wdl::Win => nearest.map(one_more),
                _ => Some(farthest.map_or(0, one_more)),
            }
        }
    };
    (want.is_none() || want != stored)
        .then(|| format!("{pos:?} ({wdl:?}): stored distance {stored:?}, successors give {want:?}"))
}

/// Wins, draws and losses of every position of `slice` (capture positions
/// resolved by search), and with its distance file the longest win; `None` when
/// the slice (or the distance file given) is missing or unreadable.
pub fn slice_counts(
    db: &SliceDb,
    distances: Option<&DtcFile>,
    slice: Slice,
) -> Option<SliceCounts> {
    let ix = SliceIndex::new(slice);
    db.file(slice)?.check().ok()?;
    if let Some(d) = distances {
        d.check().ok()?;
    }
    (0..ix.size().div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut k = SliceCounts::default();
            for i in c * CHUNK..((c + 1) * CHUNK).min(ix.size()) {
                let pos = ix.unrank(i)?.position();
                let capture = has_capture(&pos);
                k.captures += u64::from(capture);
                match db.wdl(&pos)? {
                    Wdl::Win => {
                        k.wins += 1;
                        if let Some(d) = distances.filter(|_| !capture) {
                            k.longest_win = k.longest_win.max(d.get(i)?);
                        }
                    }
                    Wdl::Draw => k.draws += 1,
                    Wdl::Loss => k.losses += 1,
                }
            }
            Some(k)
        })
        .try_reduce(SliceCounts::default, |a, b| Some(a.merge(b)))
}
