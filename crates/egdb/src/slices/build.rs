//! Building the second-generation database slice by slice.
//!
//! Slices are built in dependency order: by piece count, then by number of men. A
//! quiet move of slice `S` leads to its mirror (the opponent's view of the same
//! material), so `S` and its mirror are solved together; a promotion leads to a
//! slice with one man fewer and a capture to fewer pieces, both built before.
//! Memory is one byte per position of the pair plus the files it probes (mapped).
//! Quiet moves and their un-moves are the same in every variant; the builder is
//! generic over the [`Rules`] of the captures, dispatched once per pair.
//!
//! Per pair, in parallel with rayon:
//! 1. **Init.** A position where the side to move must capture is solved from the
//!    built slices (a search over its captures, under the variant's rules: the
//!    slice a capture leads to is read from the position it leaves, since a
//!    Russian man crowned mid-capture ends it as a king) and marked: its value is not
//!    stored. A promotion to a lost position wins; a promotion to a drawn one is a
//!    move that can never be refuted. Every other quiet move is counted.
//! 2. **Retrograde waves.** Each win or loss solved in the previous wave is
//!    un-moved: predecessors of a loss win; predecessors of a win lose a counter,
//!    and lose when it reaches zero. Positions never solved are draws.
//! 3. **Write.** Values are encoded in blocks ([`crate::slices::codec`]) and written
//!    under a temporary name, renamed when whole: an interrupted build resumes at
//!    the first pair whose files are missing.
//!
//! One byte of state per position holds the counter, or the value with the wave
//! (mod 15) that solved it. With [`BuildOptions::dtc`] a second byte per position
//! keeps the whole wave number, written as the slice's distance file
//! ([`crate::slices::dtc`]).

use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

use crate::progress::Bar;
use rayon::prelude::*;

use crate::build_options::{bar, BuildOptions};
use crate::error::EgdbError;
use crate::lock::BuildLock;
use crate::slices::codec::{encode_block, ANY, DRAW, LOSS, WIN};
use crate::slices::compact::{write_slice_file, SliceFile, BLOCK_POSITIONS};
use crate::slices::db::SliceDb;
use crate::slices::dtc::{dtc_path, write_dtc_file, MAX_DTC};
use crate::slices::slice::{Slice, SliceIndex, MAX_SLICE_PIECES};
use crate::unmove::for_each_unmove;
use crate::value::Wdl;
use damas_rules::movegen::{generate_captures_with, generate_with, has_capture};
use damas_rules::moves::MoveList;
use damas_rules::{with_rules, Rules, Variant};

/// Win/draw/loss counts of one slice (capture positions included with their
/// value, though their value is not stored).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SliceCounts {
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// Positions where the side to move must capture (not stored).
    pub captures: u64,
    /// The longest win in plies to conversion (capture or promotion), when the
    /// distances are known (built with [`BuildOptions::dtc`], or read from the
    /// distance file); 0 otherwise.
    pub longest_win: u8,
}

impl SliceCounts {
    /// The counts of two parts of a slice together.
    pub fn merge(self, b: SliceCounts) -> SliceCounts {
        SliceCounts {
            wins: self.wins + b.wins,
            draws: self.draws + b.draws,
            losses: self.losses + b.losses,
            captures: self.captures + b.captures,
            longest_win: self.longest_win.max(b.longest_win),
        }
    }
}

/// What happened to one slice.
#[derive(Clone, Debug)]
pub struct SliceSummary {
    /// The slice.
    pub slice: Slice,
    /// Its file was already there and was kept.
    pub reused: bool,
    /// Counts (slices built now).
    pub counts: Option<SliceCounts>,
    /// Bytes of its file.
    pub bytes: u64,
    /// Bytes of its distance file, when written now.
    pub dtc_bytes: u64,
    /// Seconds spent on its pair (shared by the two slices of a pair).
    pub seconds: f64,
    /// Retrograde waves of its pair.
    pub waves: u32,
}

const RESOLVED: u8 = 0x80;
const CAPTURE: u8 = 0x40;
/// Waves are told apart modulo this; level field [`DONE`] marks a position whose
/// un-moves have run (so that wave `L + LEVELS` does not run them again).
const LEVELS: u32 = 15;
const DONE: u8 = 15 << 2;
const MAX_COUNTER: usize = 0x7F;
const V_WIN: u8 = 1;
const V_DRAW: u8 = 2;
const V_LOSS: u8 = 3;

const fn resolved(v: u8, level: u32) -> u8 {
    RESOLVED | ((level % LEVELS) as u8) << 2 | v
}

/// Build every slice of 2 … `pieces` pieces of the rules `variant` in `dir`,
/// keeping the slices whose files are already there (a file of another variant
/// is an error). `on_slice` is called after each slice.
pub fn build_slices(
    variant: Variant,
    dir: &Path,
    pieces: usize,
    opts: &BuildOptions,
    mut on_slice: impl FnMut(&SliceSummary),
) -> Result<Vec<SliceSummary>, EgdbError> {
    let _lock = BuildLock::acquire(dir, pieces, MAX_SLICE_PIECES)?;
    let pool = opts.pool()?;
    let all: Vec<Slice> = (2..=pieces).flat_map(Slice::all).collect();
    let total: u64 = all.iter().map(|&s| SliceIndex::new(s).size()).sum();
    let pb = bar(opts, Some(total), String::new());
    let mut out = Vec::new();
    let mut done = vec![false; Slice::KEYS];
    for &s in &all {
        if done[s.key()] {
            continue;
        }
        let pair: Vec<Slice> = if s.mirror() == s {
            vec![s]
        } else {
            vec![s, s.mirror()]
        };
        for p in &pair {
            done[p.key()] = true;
        }
        let existing: Vec<Option<SliceFile>> = pair
            .iter()
            .map(|&p| SliceFile::open(variant, dir, p))
            .collect::<Result<_, _>>()?;
        let distances_there = !opts.dtc || pair.iter().all(|&p| dtc_path(dir, p).is_file());
        let summaries = if existing.iter().all(Option::is_some) && distances_there {
            existing
                .iter()
                .flatten()
                .map(|f| {
                    pb.inc(f.index().size());
                    SliceSummary {
                        slice: f.index().slice(),
                        reused: true,
                        counts: None,
                        bytes: f.len(),
                        dtc_bytes: 0,
                        seconds: 0.0,
                        waves: 0,
                    }
                })
                .collect()
        } else {
            drop(existing);
            pb.set_message(format!("{} pieces: {s}", s.pieces()));
            let db = SliceDb::open_existing(variant, dir)?;
            // A damaged smaller slice would be read as missing: refuse it by name.
            if let Some((_, broken)) = db.broken().first() {
                return Err(broken.to_error());
            }
            with_rules!(variant, R => pool.install(|| build_pair::<R>(dir, &pair, &db, &pb, opts.dtc)))?
        };
        for summary in &summaries {
            on_slice(summary);
        }
        out.extend(summaries);
    }
    pb.finish_and_clear();
    Ok(out)
}

/// The slices of a pair, numbered one after the other.
struct PairIndex {
    slices: Vec<SliceIndex>,
    bases: Vec<u64>,
    total: u64,
}

impl PairIndex {
    fn new(pair: &[Slice]) -> PairIndex {
        let slices: Vec<SliceIndex> = pair.iter().map(|&s| SliceIndex::new(s)).collect();
        let mut bases = Vec::new();
        let mut total = 0;
        for s in &slices {
            bases.push(total);
            total += s.size();
        }
        PairIndex {
            slices,
            bases,
            total,
        }
    }

    /// Which slice of the pair holds combined number `i`.
    fn which(&self, i: u64) -> usize {
        usize::from(self.bases.len() > 1 && i >= self.bases[1])
    }
}

/// A slice and its mirror solved in memory: each position's state byte and, when
/// asked for, the wave that solved it.
struct SolvedPair {
    ix: PairIndex,
    state: Vec<AtomicU8>,
    levels: Vec<AtomicU8>,
    waves: u32,
}

impl SolvedPair {
    /// The distances to conversion of slice `j` of the pair, in index order: the
    /// body of its distance file (0 for draws and capture positions).
    fn distances(&self, j: usize) -> Vec<u8> {
        let base = self.ix.bases[j] as usize;
        let size = self.ix.slices[j].size() as usize;
        self.levels[base..base + size]
            .par_iter()
            .zip(self.state[base..base + size].par_iter())
            .map(|(l, s)| {
                let s = s.load(Relaxed);
                // Draws and capture positions: no distance.
                if s & RESOLVED == 0 || s & CAPTURE != 0 {
                    0
                } else {
                    l.load(Relaxed)
                }
            })
            .collect()
    }
}

/// Solve the pair of `slice` (the slice and its mirror) in memory, its exits —
/// captures and promotions — valued from `db`, and return each slice of the pair
/// with its distances to conversion: what [`build_slices`] writes as their
/// distance files, under the rules of `db`. Runs on the current rayon pool.
pub fn solve_distances(db: &SliceDb, slice: Slice) -> Result<Vec<(Slice, Vec<u8>)>, EgdbError> {
    let pair: Vec<Slice> = if slice.mirror() == slice {
        vec![slice]
    } else {
        vec![slice, slice.mirror()]
    };
    let bar = Bar::hidden();
    let solved = with_rules!(db.variant(), R => solve_pair::<R>(db.dir(), &pair, db, &bar, true))?;
    Ok(solved
        .ix
        .slices
        .iter()
        .enumerate()
        .map(|(j, s)| (s.slice(), solved.distances(j)))
        .collect())
}

/// The builder's init and retrograde waves for `pair` (a slice and its mirror)
/// under the rules `R`, exits valued from `db`; errors name `dir`.
fn solve_pair<R: Rules>(
    dir: &Path,
    pair: &[Slice],
    db: &SliceDb,
    pb: &Bar,
    with_dtc: bool,
) -> Result<SolvedPair, EgdbError> {
    let fail = |what: String| EgdbError::Build {
        dir: dir.to_path_buf(),
        pieces: pair[0].pieces(),
        what,
    };
    let ix = PairIndex::new(pair);
    let state: Vec<AtomicU8> = (0..ix.total).map(|_| AtomicU8::new(0)).collect();
    // The wave that solved each position (plies to conversion), when asked for.
    let levels: Vec<AtomicU8> = if with_dtc {
        (0..ix.total).map(|_| AtomicU8::new(0)).collect()
    } else {
        Vec::new()
    };

    // 1. Init.
    const CHUNK: u64 = 1 << 14;
    (0..ix.total.div_ceil(CHUNK))
        .into_par_iter()
        .try_for_each_init(MoveList::new, |list, c| {
            let end = ((c + 1) * CHUNK).min(ix.total);
            for i in c * CHUNK..end {
                let j = ix.which(i);
                let Some(p) = ix.slices[j].unrank(i - ix.bases[j]) else {
                    return Err(fail(format!("slot {i} does not decode")));
                };
                let pos = p.position();
                let missing = || fail(format!("{pos:?}: a successor's slice is missing"));
                let s = if has_capture(&pos) {
                    generate_captures_with::<R>(&pos, list);
                    let mut v = V_LOSS;
                    for &m in list.iter() {
                        match db.wdl(&pos.play(m)).ok_or_else(missing)? {
                            Wdl::Loss => {
                                v = V_WIN;
                                break;
                            }
                            Wdl::Draw => v = V_DRAW,
                            Wdl::Win => {}
                        }
                    }
                    resolved(v, 0) | CAPTURE
                } else {
                    generate_with::<R>(&pos, list);
                    let kings = pos.kings().0.count_ones();
                    let mut counter = 0usize;
                    let mut win = false;
                    for &m in list.iter() {
                        let after = pos.play(m);
                        if after.kings().0.count_ones() == kings {
                            counter += 1;
                            continue;
                        }
                        match db.wdl(&after).ok_or_else(missing)? {
                            Wdl::Loss => win = true,
                            Wdl::Draw => counter += 1,
                            Wdl::Win => {}
                        }
                    }
                    if win {
                        resolved(V_WIN, 0)
                    } else if counter == 0 {
                        resolved(V_LOSS, 0)
                    } else if counter > MAX_COUNTER {
                        return Err(fail(format!("{pos:?}: {counter} moves")));
                    } else {
                        counter as u8
                    }
                };
                state[i as usize].store(s, Relaxed);
            }
            pb.inc(end - c * CHUNK);
            Ok(())
        })?;

    // 2. Retrograde waves.
    let mut waves = 0;
    loop {
        let solved = wave(&ix, &state, &levels, waves);
        waves += 1;
        if solved == 0 {
            break;
        }
    }
    Ok(SolvedPair {
        ix,
        state,
        levels,
        waves,
    })
}

/// Solve a slice and its mirror under the rules `R` and write their files.
fn build_pair<R: Rules>(
    dir: &Path,
    pair: &[Slice],
    db: &SliceDb,
    pb: &Bar,
    with_dtc: bool,
) -> Result<Vec<SliceSummary>, EgdbError> {
    let start = Instant::now();
    let solved = solve_pair::<R>(dir, pair, db, pb, with_dtc)?;
    let SolvedPair {
        ix, state, waves, ..
    } = &solved;
    let waves = *waves;

    // 3. Encode and write.
    let seconds = start.elapsed().as_secs_f64();
    let mut out = Vec::new();
    for (j, slice_ix) in ix.slices.iter().enumerate() {
        let base = ix.bases[j] as usize;
        let size = slice_ix.size() as usize;
        let states = &state[base..base + size];
        let blocks: Vec<(Vec<u8>, SliceCounts)> = states
            .par_chunks(BLOCK_POSITIONS as usize)
            .map(|chunk| {
                let mut c = SliceCounts::default();
                let values: Vec<u8> = chunk
                    .iter()
                    .map(|s| {
                        let s = s.load(Relaxed);
                        let v = if s & RESOLVED == 0 { V_DRAW } else { s & 3 };
                        match v {
                            V_WIN => c.wins += 1,
                            V_LOSS => c.losses += 1,
                            _ => c.draws += 1,
                        }
                        if s & RESOLVED != 0 && s & CAPTURE != 0 {
                            c.captures += 1;
                            ANY
                        } else {
                            match v {
                                V_WIN => WIN,
                                V_LOSS => LOSS,
                                _ => DRAW,
                            }
                        }
                    })
                    .collect();
                let mut codes = Vec::new();
                encode_block(&values, &mut codes);
                (codes, c)
            })
            .collect();
        let mut counts = blocks
            .iter()
            .fold(SliceCounts::default(), |a, (_, c)| a.merge(*c));
        let codes: Vec<Vec<u8>> = blocks.into_iter().map(|(b, _)| b).collect();
        let bytes = write_slice_file(R::VARIANT, dir, slice_ix.slice(), &codes)?;
        let mut dtc_bytes = 0;
        if with_dtc {
            let body = solved.distances(j);
            counts.longest_win = body
                .par_iter()
                .zip(states.par_iter())
                .filter(|(_, s)| {
                    let s = s.load(Relaxed);
                    s & RESOLVED != 0 && s & 3 == V_WIN
                })
                .map(|(&d, _)| d)
                .max()
                .unwrap_or(0);
            dtc_bytes = write_dtc_file(R::VARIANT, dir, slice_ix.slice(), &body)?;
        }
        out.push(SliceSummary {
            slice: slice_ix.slice(),
            reused: false,
            counts: Some(counts),
            bytes,
            dtc_bytes,
            seconds,
            waves,
        });
    }
    Ok(out)
}

/// Un-move every win and loss solved in wave `level`; returns how many positions
/// this solved. When `levels` is not empty, each newly solved position's wave
/// (`level + 1`, at most [`MAX_DTC`]) is recorded there.
fn wave(ix: &PairIndex, state: &[AtomicU8], levels: &[AtomicU8], level: u32) -> u64 {
    let want_win = resolved(V_WIN, level);
    let want_loss = resolved(V_LOSS, level);
    let win_next = resolved(V_WIN, level + 1);
    let loss_next = resolved(V_LOSS, level + 1);
    let solved = AtomicU64::new(0);
    const CHUNK: usize = 1 << 12;
    state.par_chunks(CHUNK).enumerate().for_each(|(c, chunk)| {
        let mut count = 0u64;
        for (o, slot) in chunk.iter().enumerate() {
            let raw = slot.load(Relaxed);
            let s = raw & !CAPTURE;
            if s != want_win && s != want_loss {
                continue;
            }
            // Only this thread writes a resolved slot.
            slot.store(raw | DONE, Relaxed);
            let i = (c * CHUNK + o) as u64;
            let j = ix.which(i);
            let Some(p) = ix.slices[j].unrank(i - ix.bases[j]) else {
                continue;
            };
            let to = ix.slices.len() - 1 - j;
            let (pred_ix, pred_base) = (&ix.slices[to], ix.bases[to]);
            // The same game seen from the side that just moved.
            let (w, b, k) = (
                p.black.reverse_bits(),
                p.white.reverse_bits(),
                p.kings.reverse_bits(),
            );
            let kings = k.count_ones();
            for_each_unmove(w, b, k, |pw, pb, pk| {
                if pk.count_ones() != kings {
                    // An un-promotion: the predecessor is in a slice built later.
                    return;
                }
                let pred_i = (pred_base + pred_ix.rank(pw, pb, pk)) as usize;
                let pred = &state[pred_i];
                let update = if s == want_loss {
                    pred.fetch_update(Relaxed, Relaxed, |x| {
                        (x & RESOLVED == 0).then_some(win_next)
                    })
                } else {
                    pred.fetch_update(Relaxed, Relaxed, |x| match x {
                        _ if x & RESOLVED != 0 => None,
                        1 => Some(loss_next),
                        _ => Some(x - 1),
                    })
                };
                if (s == want_loss && update.is_ok()) || update == Ok(1) {
                    count += 1;
                    if let Some(l) = levels.get(pred_i) {
                        l.store((level + 1).min(u32::from(MAX_DTC)) as u8, Relaxed);
                    }
                }
            });
        }
        solved.fetch_add(count, Relaxed);
    });
    solved.into_inner()
}
