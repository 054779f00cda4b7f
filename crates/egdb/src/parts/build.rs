//! Building the parts: exact values, distances and best moves by retrograde analysis.
//!
//! Part `n` is solved in three passes over its slots (all parallel with rayon):
//! 1. **Init.** Impossible slots are marked. A position where White must capture
//!    leaves the part, so it is solved at once from the smaller parts (already built).
//!    A position without a move is lost in 0. Every other position gets a counter: its
//!    number of (quiet) moves.
//! 2. **Retrograde levels** `d = 0, 1, …`. Each position solved at distance `d` is
//!    un-moved ([`for_each_unmove`]): predecessors of a loss become wins in `d + 1`
//!    (the first claim is the fastest); predecessors of a win lose one counter, and
//!    reach zero exactly when their last (hence longest) move is refuted: a loss in
//!    `d + 1`. Counters and results share one atomic `u16` per slot, so each update is
//!    a single compare-and-swap. Positions never solved are draws.
//! 3. **Final.** Every position is evaluated forward from its successors with
//!    [`evaluate`], which both picks the best move (first in generation order among
//!    the optimal ones, so the files are deterministic) and re-checks the retrograde
//!    result; any disagreement aborts the build.
//!
//! Memory for the 5-piece part: 2 bytes of state per slot plus the two output
//! arrays (≈ 0.8 GB).

use damas_rules::variant::Brazilian;
use std::path::Path;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use crate::build_options::{bar, BuildOptions};
use rayon::prelude::*;

use crate::error::EgdbError;
use crate::lock::BuildLock;
use crate::parts::entry::{decode_wdl, encode, evaluate, Outcome, MAX_MOVE_INDEX};
use crate::parts::file::{
    part_path, write_part_file, FileKind, Header, MappedFile, FORMAT_VERSION,
};
use crate::parts::index::{assignments, combinations, part_size, rank, SlotBlock, MAX_PIECES};
use crate::probe::Egdb;
use crate::unmove::for_each_unmove;
use crate::value::Wdl;
use damas_rules::movegen::{count_moves_with, generate_captures_with, generate_with, has_capture};
use damas_rules::moves::MoveList;
use damas_rules::position::Position;
use damas_rules::Variant;

/// Win/draw/loss counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions won for the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost for the side to move.
    pub losses: u64,
    /// Impossible slots (men on their promotion row).
    pub impossible: u64,
    /// Longest win in plies.
    pub longest_win: u16,
}

impl Counts {
    /// The sum of two counts (the longest win is the larger one).
    pub(crate) fn add(mut self, o: Counts) -> Counts {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        self.impossible += o.impossible;
        self.longest_win = self.longest_win.max(o.longest_win);
        self
    }
}

/// What happened to one part.
#[derive(Clone, Debug)]
pub struct PartSummary {
    /// Piece count.
    pub pieces: usize,
    /// The finished files were already there and were kept.
    pub reused: bool,
    /// Counts (only for parts built now).
    pub counts: Option<Counts>,
    /// Seconds spent in init, retrograde, final pass and writing.
    pub phase_seconds: [f64; 4],
    /// Number of retrograde levels run.
    pub levels: u32,
}

/// [`build`] for the rules `variant`: the parts exist for Brazilian only, so any
/// other variant is refused ([`EgdbError::LegacyVariant`]) before anything is written.
pub fn build_for(
    variant: Variant,
    dir: &Path,
    pieces: usize,
    opts: &BuildOptions,
    on_part: impl FnMut(&PartSummary),
) -> Result<Vec<PartSummary>, EgdbError> {
    match variant {
        Variant::Brazilian => build(dir, pieces, opts, on_part),
        other => Err(EgdbError::LegacyVariant(other)),
    }
}

/// Build parts 1 … `pieces` in `dir` (created if needed). Finished parts (value and
/// distance files present and valid) are kept, so an interrupted build resumes at the
/// first missing part; a present but damaged file is an error (delete it to rebuild).
/// `on_part` is called after each part.
pub fn build(
    dir: &Path,
    pieces: usize,
    opts: &BuildOptions,
    mut on_part: impl FnMut(&PartSummary),
) -> Result<Vec<PartSummary>, EgdbError> {
    let _lock = BuildLock::acquire(dir, pieces, MAX_PIECES)?;
    let pool = opts.pool()?;
    let mut out = Vec::new();
    for n in 1..=pieces {
        let vpath = part_path(dir, n, FileKind::Values);
        let dpath = part_path(dir, n, FileKind::Distances);
        let values = MappedFile::open(&vpath, FileKind::Values, n, true)?;
        let dists = MappedFile::open(&dpath, FileKind::Distances, n, true)?;
        let summary = if values.is_some() && dists.is_some() {
            PartSummary {
                pieces: n,
                reused: true,
                counts: None,
                phase_seconds: [0.0; 4],
                levels: 0,
            }
        } else {
            drop((values, dists));
            let smaller = Egdb::open_parts(dir, n - 1, true)?;
            if let Some(missing) = (1..n).find(|&m| !smaller.has_distances(m)) {
                return Err(EgdbError::MissingPart {
                    dir: dir.to_path_buf(),
                    pieces: missing,
                });
            }
            pool.install(|| build_part(dir, n, &smaller, opts))?
        };
        on_part(&summary);
        out.push(summary);
    }
    Ok(out)
}

// Slot states during the build. Unresolved: the number of moves not yet refuted
// (bits 0–7). Resolved: RESOLVED | value code << 12 | distance (bits 0–11).
const INVALID: u16 = 0x4000;
const RESOLVED: u16 = 0x8000;
const MAX_DISTANCE: u16 = 0x0FFF;

const fn resolved(wdl: Wdl, distance: u16) -> u16 {
    let code = match wdl {
        Wdl::Win => 1,
        Wdl::Draw => 2,
        Wdl::Loss => 3,
    };
    RESOLVED | code << 12 | distance
}

/// Value and distance of a state; unresolved counts as a draw (the final reading).
const fn state_value(s: u16) -> (Wdl, u16) {
    if s & RESOLVED == 0 {
        return (Wdl::Draw, 0);
    }
    let wdl = match s >> 12 & 3 {
        1 => Wdl::Win,
        3 => Wdl::Loss,
        _ => Wdl::Draw,
    };
    (wdl, s & MAX_DISTANCE)
}

/// Value of the position after a capture, looked up in the smaller parts.
#[inline]
fn smaller_value(smaller: &Egdb, after: &Position) -> Option<(Wdl, u16)> {
    let q = after.flip();
    let (byte, d) = smaller.entry_of(q.white().0, q.black().0, q.kings().0)?;
    Some((decode_wdl(byte)?, d?))
}

/// Solve part `n` and write its files.
fn build_part(
    dir: &Path,
    n: usize,
    smaller: &Egdb,
    opts: &BuildOptions,
) -> Result<PartSummary, EgdbError> {
    let fail = |what: String| EgdbError::Build {
        dir: dir.to_path_buf(),
        pieces: n,
        what,
    };
    let combos = combinations(n);
    let a = assignments(n) as usize;
    let state: Vec<AtomicU16> = (0..part_size(n)).map(|_| AtomicU16::new(0)).collect();
    let mut seconds = [0.0; 4];

    // 1. Init.
    let t = Instant::now();
    let pb = bar(opts, Some(combos), format!("part {n}: init"));
    let max_init = (0..combos)
        .into_par_iter()
        .map_init(MoveList::new, |list, p| {
            let block = SlotBlock::new(n, p);
            let base = p as usize * a;
            let mut max_d = 0u16;
            for kw in 0..a {
                let s = match block.position(kw) {
                    None => INVALID,
                    Some(pos) if has_capture(&pos) => {
                        generate_captures_with::<Brazilian>(&pos, list);
                        let o = evaluate(list, |i| smaller_value(smaller, &pos.play(list[i])))
                            .ok_or_else(|| {
                                fail(format!(
                                    "a capture from {pos:?} leads outside the smaller parts"
                                ))
                            })?;
                        max_d = max_d.max(o.distance);
                        resolved(o.wdl, o.distance)
                    }
                    Some(pos) => match count_moves_with::<Brazilian>(&pos) {
                        0 => resolved(Wdl::Loss, 0),
                        c => c as u16,
                    },
                };
                state[base + kw].store(s, Relaxed);
            }
            pb.inc(1);
            Ok(max_d)
        })
        .try_reduce(|| 0, |x, y| Ok(x.max(y)))?;
    pb.finish_and_clear();
    seconds[0] = t.elapsed().as_secs_f64();

    // 2. Retrograde levels.
    let t = Instant::now();
    let pb = bar(opts, None, format!("part {n}: retrograde"));
    let mut last = max_init;
    let mut d = 0u16;
    while d <= last {
        if d >= MAX_DISTANCE {
            return Err(fail(format!("distance beyond {MAX_DISTANCE} plies")));
        }
        pb.set_message(format!("part {n}: retrograde level {d}"));
        pb.tick();
        let solved = retro_level(n, &state, d);
        if solved > 0 {
            last = last.max(d + 1);
        }
        d += 1;
    }
    pb.finish_and_clear();
    let levels = u32::from(d);
    seconds[1] = t.elapsed().as_secs_f64();

    // 3. Final pass.
    let t = Instant::now();
    let pb = bar(opts, Some(combos), format!("part {n}: best moves"));
    let width = if last > u16::from(u8::MAX) { 2 } else { 1 };
    let mut values = vec![0u8; part_size(n) as usize];
    let mut dists = vec![0u8; part_size(n) as usize * width];
    let counts = values
        .par_chunks_mut(a)
        .zip(dists.par_chunks_mut(a * width))
        .enumerate()
        .map_init(MoveList::new, |list, (p, (vals, ds))| {
            let block = SlotBlock::new(n, p as u64);
            let base = p * a;
            let mut c = Counts::default();
            for kw in 0..a {
                let Some(pos) = block.position(kw) else {
                    c.impossible += 1;
                    continue;
                };
                let (o, expected) = final_outcome(&state, smaller, &pos, base + kw, list);
                let o = o.ok_or_else(|| fail(format!("{pos:?}: a successor has no value")))?;
                if (o.wdl, o.distance) != expected {
                    return Err(fail(format!(
                        "{pos:?}: retrograde gave {expected:?}, successors give {o:?}"
                    )));
                }
                let best = o.best.unwrap_or(0);
                if best > MAX_MOVE_INDEX {
                    return Err(fail(format!(
                        "{pos:?}: best move index {best} does not fit in 6 bits"
                    )));
                }
                vals[kw] = encode(o.wdl, best as u8);
                if width == 1 {
                    ds[kw] = o.distance as u8;
                } else {
                    ds[2 * kw..2 * kw + 2].copy_from_slice(&o.distance.to_le_bytes());
                }
                match o.wdl {
                    Wdl::Win => {
                        c.wins += 1;
                        c.longest_win = c.longest_win.max(o.distance);
                    }
                    Wdl::Draw => c.draws += 1,
                    Wdl::Loss => c.losses += 1,
                }
            }
            pb.inc(1);
            Ok(c)
        })
        .try_reduce(Counts::default, |x, y| Ok(x.add(y)))?;
    pb.finish_and_clear();
    drop(state);
    seconds[2] = t.elapsed().as_secs_f64();

    // Distances first: the value file is the mark of a finished part.
    let t = Instant::now();
    let entries = part_size(n);
    let max_distance = u32::from(last);
    let header = Header {
        version: FORMAT_VERSION,
        kind: FileKind::Distances,
        pieces: n,
        width,
        entries,
        checksum: 0,
        max_distance,
    };
    write_part_file(&part_path(dir, n, FileKind::Distances), header, &dists)?;
    let header = Header {
        kind: FileKind::Values,
        width: 1,
        ..header
    };
    write_part_file(&part_path(dir, n, FileKind::Values), header, &values)?;
    seconds[3] = t.elapsed().as_secs_f64();
    Ok(PartSummary {
        pieces: n,
        reused: false,
        counts: Some(counts),
        phase_seconds: seconds,
        levels,
    })
}

/// The forward evaluation of slot `index` (position `pos`) and the value the
/// retrograde passes gave it.
fn final_outcome(
    state: &[AtomicU16],
    smaller: &Egdb,
    pos: &Position,
    index: usize,
    list: &mut MoveList,
) -> (Option<Outcome>, (Wdl, u16)) {
    let expected = state_value(state[index].load(Relaxed));
    generate_with::<Brazilian>(pos, list);
    let o = if list.first().is_some_and(|m| m.is_capture()) {
        evaluate(list, |i| smaller_value(smaller, &pos.play(list[i])))
    } else {
        evaluate(list, |i| {
            let q = pos.play(list[i]).flip();
            let s = state[rank(q.white().0, q.black().0, q.kings().0) as usize].load(Relaxed);
            (s & INVALID == 0).then(|| state_value(s))
        })
    };
    (o, expected)
}

/// Process every win and loss at distance `d`: claim the predecessors of losses as
/// wins in `d + 1`, count down the predecessors of wins. Returns how many positions
/// were solved.
fn retro_level(n: usize, state: &[AtomicU16], d: u16) -> u64 {
    let a = assignments(n) as usize;
    let win_next = resolved(Wdl::Win, d + 1);
    let loss_next = resolved(Wdl::Loss, d + 1);
    let want_win = resolved(Wdl::Win, d);
    let want_loss = resolved(Wdl::Loss, d);
    let solved = AtomicU64::new(0);
    (0..combinations(n)).into_par_iter().for_each(|p| {
        let base = p as usize * a;
        let slots = &state[base..base + a];
        if !slots
            .iter()
            .any(|s| matches!(s.load(Relaxed), x if x == want_win || x == want_loss))
        {
            return;
        }
        let block = SlotBlock::new(n, p);
        let mut count = 0u64;
        for (kw, slot) in slots.iter().enumerate() {
            let s = slot.load(Relaxed);
            if s != want_win && s != want_loss {
                continue;
            }
            let (white, black, kings) = block.placement(kw);
            // The same game seen from the side that just moved (Black to move).
            let (w, b, k) = (
                black.reverse_bits(),
                white.reverse_bits(),
                kings.reverse_bits(),
            );
            for_each_unmove(w, b, k, |pw, pb, pk| {
                let pred = &state[rank(pw, pb, pk) as usize];
                let update = if s == want_loss {
                    pred.fetch_update(Relaxed, Relaxed, |x| {
                        (x & (RESOLVED | INVALID) == 0).then_some(win_next)
                    })
                } else {
                    pred.fetch_update(Relaxed, Relaxed, |x| match x {
                        _ if x & (RESOLVED | INVALID) != 0 => None,
                        1 => Some(loss_next),
                        _ => Some(x - 1),
                    })
                };
                if s == want_loss && update.is_ok() || update == Ok(1) {
                    count += 1;
                }
            });
        }
        solved.fetch_add(count, Relaxed);
    });
    solved.into_inner()
}
