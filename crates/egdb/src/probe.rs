//! Probing at play time: [`Egdb`] maps the part files of a directory and answers
//! positions without allocating.
//!
//! Positions where the side to move must capture are stored like any other, so a
//! probe is one index computation and one or two memory reads; the best move costs a
//! move generation on top ([`Egdb::probe`]), the value alone does not
//! ([`Egdb::probe_value`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::damage::{BrokenFile, Damage};
use crate::error::EgdbError;
use crate::parts::entry::{decode_best, decode_wdl};
use crate::parts::file::{part_path, FileKind};
use crate::parts::index::{rank, rank_position, MAX_PIECES};
use crate::parts::{map_parts, Part};
use crate::slices::db::SliceDb;
use crate::slices::dtc::{dtc_slot, DtcSlot, SliceDistances};
use crate::slices::on_demand::OnDemandDistances;
use crate::slices::slice::{Slice, MAX_SLICE_PIECES};
use crate::value::Wdl;
use damas_rules::movegen::legal_moves;
use damas_rules::moves::Move;
use damas_rules::position::Position;
use damas_rules::Variant;

/// Value and distance of a position for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Value {
    /// Win, draw or loss.
    pub wdl: Wdl,
    /// Plies to the end with best play (fastest win, slowest loss) when the distance
    /// file of the part is present; `None` for draws.
    pub distance: Option<u16>,
}

/// A full answer: value, distance and best move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Probe {
    /// Win, draw or loss for the side to move.
    pub wdl: Wdl,
    /// As in [`Value::distance`].
    pub distance: Option<u16>,
    /// The move that wins fastest, loses slowest or keeps the draw, in the position's
    /// own orientation; `None` when the side to move has no move.
    pub best: Option<Move>,
}

/// An opened endgame database: the memory-mapped files of one directory, of either
/// generation — first-generation parts (`part5.val`, with distances and best-move
/// indices) and second-generation slices (`w21b10.wdl`, win/draw/loss only,
/// [`SliceDb`]). A piece count is answered from its first-generation part when
/// present, else from the slices. `Send + Sync`; probes take `&self`.
#[derive(Debug)]
pub struct Egdb {
    dir: PathBuf,
    /// The rules of every file (the parts are Brazilian).
    variant: Variant,
    /// `parts[i]` for `i` pieces (index 0 unused).
    parts: Vec<Option<Part>>,
    /// The second-generation slices, when the directory has any.
    slices: Option<SliceDb>,
    /// The slices' distance files, when the directory has any.
    dtc: Option<SliceDistances>,
    /// Distances of slices without a distance file, solved at a root's request.
    on_demand: OnDemandDistances,
    /// [`Egdb::max_pieces`], fixed once the files are mapped (the search asks at
    /// every node).
    max_pieces: usize,
    /// Whether these are the databases built into the program ([`Egdb::built_in`]).
    built_in: bool,
    /// The damaged files found: left out, each taking only its own slice or part.
    damage: Damage,
}

impl Egdb {
    /// Map every part file in `dir` (`part1.val` … `part5.val`, with the matching
    /// `.dist` files when present) and every second-generation slice file
    /// (`w21b10.wdl`), checking headers, sizes and checksums; distance files
    /// (`w21b10.dtc`) have their headers and sizes checked now and their checksums
    /// on first use. A damaged file (truncated, corrupt, unreadable) is left out
    /// and listed ([`Egdb::damaged_files`]): only positions that need it go
    /// unanswered. A directory without any database file is an error, as is a
    /// file of other rules.
    ///
    /// Every file must be of the rules `variant` ([`EgdbError::Variant`] names the
    /// first that is not; first-generation parts are Brazilian).
    pub fn open(variant: Variant, dir: impl AsRef<Path>) -> Result<Egdb, EgdbError> {
        Egdb::open_checking(variant, dir.as_ref(), true)
    }

    /// Whether `dir` holds databases of `variant` (sound or damaged; no file of
    /// other rules): [`Egdb::open`] without reading the files' bodies.
    pub fn exists(variant: Variant, dir: &Path) -> bool {
        Egdb::open_checking(variant, dir, false).is_ok()
    }

    /// [`Egdb::open`], checksums checked now or (without `checksums`) on
    /// first use.
    fn open_checking(variant: Variant, dir: &Path, checksums: bool) -> Result<Egdb, EgdbError> {
        let damage = Damage::default();
        let parts = map_parts(dir, MAX_PIECES, checksums, Some(&damage))?;
        if variant != Variant::Brazilian {
            if let Some(n) = (1..parts.len()).find(|&n| parts[n].is_some()) {
                return Err(EgdbError::Variant {
                    path: part_path(dir, n, FileKind::Values),
                    found: Variant::Brazilian,
                    expected: variant,
                });
            }
        }
        let slices =
            Some(SliceDb::open_with(variant, dir, &damage, checksums)?).filter(|s| !s.is_empty());
        let dtc = match slices {
            Some(_) => {
                Some(SliceDistances::open_with(variant, dir, &damage)?).filter(|d| !d.is_empty())
            }
            None => None,
        };
        if parts.iter().all(Option::is_none) && slices.is_none() && damage.is_empty() {
            return Err(EgdbError::NoParts {
                dir: dir.to_path_buf(),
            });
        }
        let mut db = Egdb::assemble(dir, variant, parts, slices, dtc);
        db.damage = damage;
        Ok(db)
    }

    /// The damaged files found so far: when the directory was opened, and distance
    /// files whose checksum failed on first use since. Each is left out; a
    /// position that needs one is not answered ([`Egdb::damaged_file_for`]).
    pub fn damaged_files(&self) -> Vec<BrokenFile> {
        self.damage.files()
    }

    /// A handle on [`Egdb::damaged_files`] that stays current, for a front end
    /// that hands the database itself to a search.
    pub fn damage(&self) -> Damage {
        self.damage.clone()
    }

    /// The damaged file that keeps `pos` from being answered, if one does: its
    /// slice's, one a capture leads to, or its piece count's part. For explaining
    /// a probe that gave no answer; it allocates.
    pub fn damaged_file_for(&self, pos: &Position) -> Option<BrokenFile> {
        let n = pos.piece_count() as usize;
        if self.part(n).is_some() {
            return None;
        }
        if let Some(s) = self.slices_for(n) {
            return s.damaged_file_for(pos).cloned();
        }
        self.damage.file(&part_path(&self.dir, n, FileKind::Values))
    }

    /// The 1–4-piece databases built into the program for the rules `variant`
    /// ([`crate::slices::builtin`]); an error only if the program's copy is damaged.
    pub fn built_in(variant: Variant) -> Result<Egdb, EgdbError> {
        let slices = crate::slices::builtin::built_in(variant)?;
        let parts = (0..=MAX_PIECES).map(|_| None).collect();
        let name = crate::slices::builtin::name(variant);
        let mut db = Egdb::assemble(&name, variant, parts, Some(slices), None);
        db.built_in = true;
        Ok(db)
    }

    /// Whether these are the 1–4-piece databases built into the program: a search
    /// consults them only from a root they cover ([`Oracle::root_only`]), since
    /// without distances their wins inside a longer ending mislead more than they
    /// help (docs/egdb.md, "Built-in databases").
    ///
    /// [`Oracle::root_only`]: crate::oracle::Oracle::root_only
    pub fn is_built_in(&self) -> bool {
        self.built_in
    }

    /// The database of these files, with [`Egdb::max_pieces`] counted once.
    fn assemble(
        dir: &Path,
        variant: Variant,
        parts: Vec<Option<Part>>,
        slices: Option<SliceDb>,
        dtc: Option<SliceDistances>,
    ) -> Egdb {
        let mut db = Egdb {
            dir: dir.to_path_buf(),
            variant,
            parts,
            slices,
            dtc,
            on_demand: OnDemandDistances::default(),
            max_pieces: 0,
            built_in: false,
            damage: Damage::default(),
        };
        db.max_pieces = db.count_max_pieces();
        db
    }

    /// Copy the second-generation slices into huge pages
    /// ([`SliceDb::copy_to_huge_pages`]); the bytes copied (0 without slices).
    pub fn copy_slices_to_huge_pages(&mut self) -> Result<u64, EgdbError> {
        self.slices
            .as_mut()
            .map_or(Ok(0), SliceDb::copy_to_huge_pages)
    }

    /// The second-generation slices, when present.
    pub fn slices(&self) -> Option<&SliceDb> {
        self.slices.as_ref()
    }

    /// Whether `pieces` is answered by the slices (no first-generation part).
    #[inline(always)]
    fn slices_for(&self, pieces: usize) -> Option<&SliceDb> {
        let s = self.slices.as_ref()?;
        (self.part(pieces).is_none() && (pieces == 1 || s.has_pieces(pieces))).then_some(s)
    }

    /// Map the parts up to `max` pieces (none need exist).
    pub(crate) fn open_parts(
        dir: &Path,
        max: usize,
        verify_checksum: bool,
    ) -> Result<Egdb, EgdbError> {
        let parts = map_parts(dir, max, verify_checksum, None)?;
        Ok(Egdb::assemble(dir, Variant::Brazilian, parts, None, None))
    }

    /// The rules the databases answer for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The directory the parts were read from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The largest `n` such that parts 1 … `n` are all present: every position with
    /// at most this many pieces can be probed.
    #[inline(always)]
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// [`Egdb::max_pieces`] from the files mapped.
    fn count_max_pieces(&self) -> usize {
        (1..=MAX_SLICE_PIECES)
            .take_while(|&n| self.has_part(n))
            .last()
            .unwrap_or(0)
    }

    /// Whether positions of `pieces` pieces are answered (by a first-generation
    /// part or by every slice of that many pieces).
    pub fn has_part(&self, pieces: usize) -> bool {
        self.part(pieces).is_some() || self.slices_for(pieces).is_some()
    }

    /// Whether first-generation part `pieces` is present.
    pub fn has_legacy_part(&self, pieces: usize) -> bool {
        self.part(pieces).is_some()
    }

    /// Whether part `pieces` has its distance file.
    pub fn has_distances(&self, pieces: usize) -> bool {
        self.part(pieces).is_some_and(|p| p.distances.is_some())
    }

    #[inline(always)]
    pub(crate) fn part(&self, pieces: usize) -> Option<&Part> {
        self.parts.get(pieces).and_then(Option::as_ref)
    }

    /// Raw entry of a White-to-move placement (`None` when its part is missing).
    #[inline(always)]
    pub(crate) fn entry_of(&self, white: u32, black: u32, kings: u32) -> Option<(u8, Option<u16>)> {
        // `part` is None above MAX_PIECES, so `rank` only sees valid piece counts.
        let part = self.part((white | black).count_ones() as usize)?;
        Some(part.entry(rank(white, black, kings) as usize))
    }

    /// Value and distance of `pos` for the side to move; `None` when its part is
    /// missing (or more than [`MAX_PIECES`] pieces, or an impossible placement).
    #[inline]
    pub fn probe_value(&self, pos: &Position) -> Option<Value> {
        if let Some(s) = self.slices_for(pos.piece_count() as usize) {
            let wdl = s.wdl(pos)?;
            return Some(Value {
                wdl,
                distance: self.slice_distance(pos, wdl),
            });
        }
        let (pieces, index, _) = rank_position(pos)?;
        let (byte, distance) = self.part(pieces)?.entry(index as usize);
        let wdl = decode_wdl(byte)?;
        Some(Value {
            wdl,
            distance: if wdl == Wdl::Draw { None } else { distance },
        })
    }

    /// Value of `pos` for the side to move (see [`Egdb::probe_value`]).
    #[inline]
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        if let Some(s) = self.slices_for(pos.piece_count() as usize) {
            return s.wdl(pos);
        }
        let (pieces, index, _) = rank_position(pos)?;
        decode_wdl(self.part(pieces)?.values.body()[index as usize])
    }

    /// Value, distance and best move of `pos`; `None` as for [`Egdb::probe_value`].
    /// From the slices the best move is the least optimal move in [`Move`]'s order
    /// (no distance: a winning move, not necessarily the fastest).
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        if let Some(s) = self.slices_for(pos.piece_count() as usize) {
            let (wdl, best) = s.probe(pos)?;
            let distance = self.slice_distance(pos, wdl);
            let best = match distance {
                Some(_) => self.fastest_conversion(pos, wdl).or(best),
                None => best,
            };
            return Some(Probe {
                wdl,
                distance,
                best,
            });
        }
        let (pieces, index, flipped) = rank_position(pos)?;
        let (byte, distance) = self.part(pieces)?.entry(index as usize);
        let wdl = decode_wdl(byte)?;
        // The index refers to the move list of the White-to-move orientation.
        let q = if flipped { pos.flip() } else { *pos };
        let moves = legal_moves(self.variant, &q);
        let best = moves
            .get(decode_best(byte))
            .map(|&m| if flipped { m.rotate() } else { m });
        Some(Probe {
            wdl,
            distance: if wdl == Wdl::Draw { None } else { distance },
            best,
        })
    }

    /// The slices' distance files, when present.
    pub fn slice_distances(&self) -> Option<&SliceDistances> {
        self.dtc.as_ref()
    }

    /// Whether the slices of `pieces` pieces have their distance files.
    pub fn has_slice_distances(&self, pieces: usize) -> bool {
        self.dtc.as_ref().is_some_and(|d| d.has_pieces(pieces))
    }

    /// Plies to conversion of a won or lost slice position, from its distance
    /// file ([`crate::slices::dtc`]) or its slice solved on demand
    /// ([`Egdb::solve_distances`]); `None` for draws or without either.
    fn slice_distance(&self, pos: &Position, wdl: Wdl) -> Option<u16> {
        if wdl == Wdl::Draw {
            return None;
        }
        let plies = match &self.dtc {
            Some(d) if d.has_pieces(pos.piece_count() as usize) => d.plies(pos),
            _ => self.on_demand.plies(pos),
        };
        plies.map(u16::from)
    }

    /// Solve in memory the distances to conversion of the slice of `pos`, a won or
    /// lost position the slices answer, when its piece count has no distance
    /// files ([`OnDemandDistances`]: within its limits, once per slice); probes
    /// then give distances and moves for that slice as its files would.
    /// `Ok(true)` when the slice's distances are known now (a position whose side
    /// to move must capture needs none: the capture is the conversion).
    pub fn solve_distances(&self, pos: &Position) -> Result<bool, EgdbError> {
        match self.slice_needing_distances(pos) {
            Ok((s, slice)) => self.on_demand.solve(s, slice),
            Err(known) => Ok(known),
        }
    }

    /// The slices and the slice of `pos` whose distances a solve would give;
    /// `Err(known)` when none is needed, `known` telling whether `pos` has them
    /// already (from distance files).
    fn slice_needing_distances(&self, pos: &Position) -> Result<(&SliceDb, Slice), bool> {
        let n = pos.piece_count() as usize;
        let s = self.slices_for(n).ok_or(false)?;
        if self.has_slice_distances(n) {
            return Err(true);
        }
        if !matches!(s.wdl(pos), Some(Wdl::Win | Wdl::Loss)) {
            return Err(false);
        }
        match dtc_slot(pos) {
            Some(DtcSlot::Stored { slice, .. }) => Ok((s, slice)),
            Some(DtcSlot::Now) | None => Err(false),
        }
    }

    /// As [`Egdb::solve_distances`], on a thread of its own, for a caller that
    /// must not wait (a timed move): later probes use the distances once solved.
    /// Nothing is started while another background solve runs, or when the slice
    /// needs none or was tried before.
    pub fn solve_distances_in_background(db: &Arc<Egdb>, pos: &Position) {
        let Ok((_, slice)) = db.slice_needing_distances(pos) else {
            return;
        };
        if !db.on_demand.wants(slice) || !db.on_demand.begin_background() {
            return;
        }
        let db2 = Arc::clone(db);
        let spawned = std::thread::Builder::new()
            .name("egdb-distances".into())
            .spawn(move || {
                let _done = BackgroundDone(&db2.on_demand);
                if let Some(s) = db2.slices_for(slice.pieces()) {
                    let _ = db2.on_demand.solve(s, slice);
                }
            });
        if spawned.is_err() {
            db.on_demand.end_background();
        }
    }

    /// The distances solved on demand so far.
    pub fn on_demand_distances(&self) -> &OnDemandDistances {
        &self.on_demand
    }

    /// Solve distances on demand only for slices of at most `pieces` pieces
    /// (0: never; the default is [`OnDemandDistances::PIECE_LIMIT`]).
    pub fn set_on_demand_pieces(&mut self, pieces: usize) {
        self.on_demand.set_piece_limit(pieces);
    }

    /// The move that follows the slices' distances from a won or lost position
    /// `pos` (valued `wdl`): a winner converts (captures or promotes) into a lost
    /// position when it can, else steps to the nearest lost position of the
    /// slice; a loser steps to the farthest won one, converting only when it must.
    /// This is the move the builder's waves assumed, so the distance falls by one
    /// with each move of the winner's. Ties go to the least move in [`Move`]'s order.
    fn fastest_conversion(&self, pos: &Position, wdl: Wdl) -> Option<Move> {
        let pieces = pos.piece_count();
        let kings = pos.kings().count();
        let mut best: Option<(i32, Move)> = None;
        for &m in legal_moves(self.variant, pos).iter() {
            let child = pos.play(m);
            let v = self.probe_value(&child)?;
            if v.wdl.negate() != wdl {
                continue;
            }
            let converts = child.piece_count() != pieces || child.kings().count() != kings;
            let plies = i32::from(v.distance.unwrap_or(0));
            // Lower is better for the side to move.
            // Conversions rank before (winner) or after (loser) every move inside
            // the slice; among themselves by the distance they lead to.
            const CONVERSION: i32 = 1 << 16;
            let key = match wdl {
                Wdl::Win if converts => plies - CONVERSION,
                Wdl::Win => plies,
                _ if converts => CONVERSION - plies,
                _ => -plies,
            };
            if best.is_none_or(|(k, b)| key < k || (key == k && m < b)) {
                best = Some((key, m));
            }
        }
        best.map(|(_, m)| m)
    }
}

/// Marks the background solve finished when dropped, a panicking one included.
struct BackgroundDone<'a>(&'a OnDemandDistances);

impl Drop for BackgroundDone<'_> {
    fn drop(&mut self) {
        self.0.end_background();
    }
}
