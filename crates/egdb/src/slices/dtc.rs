//! Optional distance files for the slices: plies to conversion.
//!
//! A win/draw/loss slice says who wins, not how; a long win that no search finds
//! before a counting rule draws it needs a distance. Beside each `w21b10.wdl` the
//! builder can write `w21b10.dtc` (`damas-egdb build --dtc`): one byte per position
//! of the slice, the plies to *conversion* with best play (the winner fastest, the
//! loser slowest) — to a capture, a promotion, or the end — for won and lost
//! positions without a capture; 0 for draws and capture positions. This is the
//! retrograde wave that solved the position, so it costs the build nothing but the
//! bytes. Following it the winner always makes progress: every move either lowers
//! the distance or converts to less material, whose own distance takes over.
//!
//! The files are uncompressed (one byte per position: about 2.4 GB for six pieces,
//! 146 MB for two to five) because they are optional and only read by the search
//! for won or lost positions. Distances of 255 plies or more are stored as 255.
//!
//! Layout (little-endian): a 64-byte header — magic `DAMASEGB`, format version 1
//! (u16), index scheme 2 (u16), kind 4 (u8), the rule variant (u8), the slice's white men,
//! white kings, black men, black kings (4 × u8), 6 zero bytes, position count
//! (u64), 24 zero bytes, CRC-32 of the body (u64), 8 zero bytes — then the body.
//! The checksum is verified on first use (the files are large, and a damaged one
//! only takes distances away); a failure is recorded in the database's
//! [`Damage`].

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use memmap2::Mmap;

use crate::damage::{is_damage, BrokenFile, Damage};
use crate::error::EgdbError;
use crate::format::HEADER_LEN;
use crate::slices::header::{self, Header};
use crate::slices::slice::{Slice, SliceIndex, MAX_SLICE_PIECES};
use damas_rules::movegen::has_capture;
use damas_rules::position::{Color, Position};
use damas_rules::Variant;

/// Format version of the distance files.
pub const DTC_FORMAT_VERSION: u16 = 1;
/// File kind 4: plies to conversion, one byte per position.
pub const KIND_DTC: u8 = 4;
/// The largest distance stored; longer ones are stored as this.
pub const MAX_DTC: u8 = u8::MAX;

/// The path of a slice's distance file: `DIR/w21b10.dtc`.
pub fn dtc_path(dir: &Path, slice: Slice) -> PathBuf {
    dir.join(format!("{}.dtc", slice.stem()))
}

/// Write the distance file of `slice` of the rules `variant` (one byte per
/// position, in index order) through a temporary name renamed when complete.
/// Returns its size in bytes.
pub fn write_dtc_file(
    variant: Variant,
    dir: &Path,
    slice: Slice,
    body: &[u8],
) -> Result<u64, EgdbError> {
    let path = dtc_path(dir, slice);
    let positions = SliceIndex::new(slice).size();
    if body.len() as u64 != positions {
        return Err(EgdbError::BadLength {
            path,
            problem: "wrong body",
            expected: positions,
            found: body.len() as u64,
        });
    }
    let sum = u64::from(crc32fast::hash(body));
    let header = header::header_bytes(variant, DTC_FORMAT_VERSION, KIND_DTC, slice, positions, sum);
    damas_rules::atomic_file::write_atomic_with(&path, |w| {
        w.write_all(&header)?;
        w.write_all(body)
    })
    .map_err(|e| EgdbError::io(&path, e))?;
    Ok((HEADER_LEN + body.len()) as u64)
}

/// A memory-mapped distance file. Probes take `&self`; `Send + Sync`.
#[derive(Debug)]
pub struct DtcFile {
    path: PathBuf,
    map: Mmap,
    index: SliceIndex,
    stored_sum: u64,
    computed_sum: OnceLock<u64>,
    /// Where a failed checksum is reported, once.
    damage: Damage,
    reported: OnceLock<()>,
}

impl DtcFile {
    /// Map the distance file of `slice` in `dir`, which must be of the rules
    /// `variant`; `Ok(None)` when there is none. The header and length are
    /// checked now, the checksum on first use.
    pub fn open(variant: Variant, dir: &Path, slice: Slice) -> Result<Option<DtcFile>, EgdbError> {
        let path = dtc_path(dir, slice);
        let Some(map) = header::map_existing(&path)? else {
            return Ok(None);
        };
        let index = SliceIndex::new(slice);
        let positions = index.size();
        let expected = HEADER_LEN as u64 + positions;
        let h = Header::read(&map, &path, expected)?;
        if h.version() != DTC_FORMAT_VERSION {
            return Err(h.bad(format!(
                "distance format version {}, this program reads {DTC_FORMAT_VERSION}; rebuild with `damas-egdb build --dtc`",
                h.version()
            )));
        }
        h.check_variant(variant)?;
        h.check_identity(KIND_DTC, slice, positions)?;
        h.check_reserved(32..48)?;
        header::check_length(&path, map.len() as u64, expected)?;
        let stored_sum = h.checksum();
        Ok(Some(DtcFile {
            path,
            stored_sum,
            map,
            index,
            computed_sum: OnceLock::new(),
            damage: Damage::default(),
            reported: OnceLock::new(),
        }))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The slice numbering.
    pub fn index(&self) -> &SliceIndex {
        &self.index
    }

    /// Bytes on disk.
    pub fn len(&self) -> u64 {
        self.map.len() as u64
    }

    /// Whether the file is empty (never: the header is always there).
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Check the body against the header's checksum (computed once per file).
    pub fn check(&self) -> Result<(), EgdbError> {
        let computed = *self
            .computed_sum
            .get_or_init(|| u64::from(crc32fast::hash(&self.map[HEADER_LEN..])));
        EgdbError::check_sum(&self.path, self.stored_sum, computed)
    }

    /// The stored distance of position `index`; `None` when the file is corrupt
    /// or the index is past its end.
    pub fn get(&self, index: u64) -> Option<u8> {
        if self.computed_sum.get() != Some(&self.stored_sum) {
            if let Err(e) = self.check() {
                self.reported
                    .get_or_init(|| self.damage.record(BrokenFile::new(&self.path, &e)));
                return None;
            }
        }
        self.map
            .get(HEADER_LEN + usize::try_from(index).ok()?)
            .copied()
    }
}

/// The distance files of one directory, by slice.
#[derive(Debug)]
pub struct SliceDistances {
    /// Indexed by [`Slice::key`].
    files: Vec<Option<DtcFile>>,
    /// `complete[n]`: every slice of `n` pieces has its distance file.
    complete: [bool; MAX_SLICE_PIECES + 1],
}

impl SliceDistances {
    /// Map every distance file in `dir` (none need exist); each must be of the
    /// rules `variant`. A damaged file is an error naming it.
    pub fn open_existing(variant: Variant, dir: &Path) -> Result<SliceDistances, EgdbError> {
        let damage = Damage::default();
        let d = SliceDistances::open_with(variant, dir, &damage)?;
        match damage.files().first() {
            Some(f) => Err(f.to_error()),
            None => Ok(d),
        }
    }

    /// [`SliceDistances::open_existing`], a damaged file left out (its piece
    /// count then has no distance files) and recorded in `damage`, as is a file
    /// whose checksum, checked on first use, fails.
    pub(crate) fn open_with(
        variant: Variant,
        dir: &Path,
        damage: &Damage,
    ) -> Result<SliceDistances, EgdbError> {
        let mut files: Vec<Option<DtcFile>> = (0..Slice::KEYS).map(|_| None).collect();
        let mut complete = [false; MAX_SLICE_PIECES + 1];
        for (n, whole) in complete.iter_mut().enumerate().skip(2) {
            *whole = true;
            for s in Slice::all(n) {
                let f = match DtcFile::open(variant, dir, s) {
                    Ok(f) => f.map(|f| DtcFile {
                        damage: damage.clone(),
                        ..f
                    }),
                    Err(e) if is_damage(&e) => {
                        damage.record(BrokenFile::new(&dtc_path(dir, s), &e));
                        None
                    }
                    Err(e) => return Err(e),
                };
                *whole &= f.is_some();
                files[s.key()] = f;
            }
        }
        Ok(SliceDistances { files, complete })
    }

    /// Whether no distance file is present.
    pub fn is_empty(&self) -> bool {
        self.files.iter().all(Option::is_none)
    }

    /// Whether every slice of `pieces` pieces has its distance file.
    pub fn has_pieces(&self, pieces: usize) -> bool {
        self.complete.get(pieces).copied().unwrap_or(false)
    }

    /// Bytes on disk of all files.
    pub fn bytes(&self) -> u64 {
        self.files.iter().flatten().map(DtcFile::len).sum()
    }

    /// The file of `slice`, when present.
    pub fn file(&self, slice: Slice) -> Option<&DtcFile> {
        if !slice.is_valid() {
            return None;
        }
        self.files[slice.key()].as_ref()
    }

    /// Plies to conversion of `pos`, a won or lost position of a slice: 0 when
    /// the side to move must capture (the capture is the conversion), else the
    /// stored distance. `None` when its file is missing or corrupt, or the
    /// position has a side without pieces or too many pieces.
    pub fn plies(&self, pos: &Position) -> Option<u8> {
        plies_from(pos, |slice, white, black, kings| {
            let file = self.file(slice)?;
            file.get(file.index().rank(white, black, kings))
        })
    }
}

/// Where the distance to conversion of a position is found.
pub(crate) enum DtcSlot {
    /// A side has no piece, or the side to move must capture: the conversion is
    /// now (0 plies).
    Now,
    /// Stored for this White-to-move placement of `slice` (the mover as White).
    Stored {
        slice: Slice,
        white: u32,
        black: u32,
        kings: u32,
    },
}

/// Plies to conversion of `pos`, a won or lost position: 0 when the conversion is
/// now, else what `stored` finds for its slice and White-to-move placement (white
/// pieces, black pieces, kings); `None` above [`MAX_SLICE_PIECES`] pieces.
pub(crate) fn plies_from(
    pos: &Position,
    stored: impl FnOnce(Slice, u32, u32, u32) -> Option<u8>,
) -> Option<u8> {
    match dtc_slot(pos)? {
        DtcSlot::Now => Some(0),
        DtcSlot::Stored {
            slice,
            white,
            black,
            kings,
        } => stored(slice, white, black, kings),
    }
}

/// The [`DtcSlot`] of `pos`; `None` above [`MAX_SLICE_PIECES`] pieces.
pub(crate) fn dtc_slot(pos: &Position) -> Option<DtcSlot> {
    if pos.own().is_empty() || pos.opp().is_empty() {
        return Some(DtcSlot::Now);
    }
    if pos.piece_count() as usize > MAX_SLICE_PIECES {
        return None;
    }
    if has_capture(pos) {
        return Some(DtcSlot::Now);
    }
    let q = if pos.side_to_move() == Color::Black {
        pos.flip()
    } else {
        *pos
    };
    let (white, black, kings) = (q.white().0, q.black().0, q.kings().0);
    Some(DtcSlot::Stored {
        slice: Slice::of(white, black, kings),
        white,
        black,
        kings,
    })
}
