//! Second-generation files: one compact win/draw/loss file per material slice.
//!
//! Layout (little-endian): a 64-byte header — magic `DAMASEGB`, format version 3 (u16),
//! index scheme 2 (u16, [`crate::slices::slice`]), kind 3 (u8), the rule variant (u8, 0
//! Brazilian, 1 Russian: [`crate::slices::header`]), the slice's white men, white kings,
//! black men, black kings (4 × u8), 6 zero bytes, position count (u64), positions per block
//! (u32), 4 zero bytes, length of the code area (u64), checksum of the body (u64: CRC-32 in
//! version 3, the project's own 64-bit sum in version 2, still read), 8 zero bytes — then
//! the body: `blocks + 1` u32 offsets of each block's codes in the code area (the last is
//! its length), then the codes ([`crate::slices::codec`]).
//!
//! Opening a file checks the header and the length; the checksum is checked by
//! [`SliceFile::check`] (a directory opened through [`crate::Egdb`] checks every
//! file at once, docs/egdb.md "Damaged files") and at the latest on first use,
//! when the offsets are read into a [`BlockIndex`] that probes use instead.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use byteorder::{ByteOrder, LittleEndian};
use memmap2::Mmap;

use crate::error::EgdbError;
use crate::format::{legacy_checksum, HEADER_LEN};
use crate::slices::blockindex::BlockIndex;
use crate::slices::codec::decode_at;
use crate::slices::header::{self, Header};
use crate::slices::slice::{Slice, SliceIndex};
use damas_rules::Variant;

/// Format version of the slice files written: 3, whose checksum is a CRC-32.
pub const SLICE_FORMAT_VERSION: u16 = 3;
/// The previous version, read (same layout, the custom 64-bit checksum of
/// [`crate::format::legacy_checksum`]), so that databases built with it stay usable.
pub const SLICE_FORMAT_V2: u16 = 2;

/// The body checksum of a file of format `version` (3 or 2).
pub fn body_checksum(version: u16, body: &[u8]) -> u64 {
    if version == SLICE_FORMAT_V2 {
        legacy_checksum(body)
    } else {
        u64::from(crc32fast::hash(body))
    }
}
pub use crate::slices::header::SCHEME_SLICE;
/// File kind 3: compact win/draw/loss.
pub const KIND_WDL: u8 = 3;
/// Positions per block.
pub const BLOCK_POSITIONS: u32 = 1024;

/// The path of a slice's file: `DIR/w21b10.wdl`.
pub fn slice_path(dir: &Path, slice: Slice) -> PathBuf {
    dir.join(format!("{}.wdl", slice.stem()))
}

fn header_bytes(
    variant: Variant,
    slice: Slice,
    positions: u64,
    code_len: u64,
    sum: u64,
) -> [u8; HEADER_LEN] {
    let mut h = header::header_bytes(
        variant,
        SLICE_FORMAT_VERSION,
        KIND_WDL,
        slice,
        positions,
        sum,
    );
    LittleEndian::write_u32(&mut h[32..], BLOCK_POSITIONS);
    LittleEndian::write_u64(&mut h[40..], code_len);
    h
}

/// Write the file of `slice` of the rules `variant` from its encoded blocks,
/// through a temporary name renamed when complete (a file with the final name is
/// always whole).
pub fn write_slice_file(
    variant: Variant,
    dir: &Path,
    slice: Slice,
    blocks: &[Vec<u8>],
) -> Result<u64, EgdbError> {
    let path = slice_path(dir, slice);
    let positions = SliceIndex::new(slice).size();
    let mut body = Vec::with_capacity(4 * (blocks.len() + 1));
    let mut offset = 0u64;
    for b in blocks {
        body.extend_from_slice(&(offset as u32).to_le_bytes());
        offset += b.len() as u64;
    }
    if offset > u64::from(u32::MAX) {
        return Err(EgdbError::BadHeader {
            path,
            what: format!("code area of {offset} bytes does not fit 32-bit offsets"),
        });
    }
    body.extend_from_slice(&(offset as u32).to_le_bytes());
    for b in blocks {
        body.extend_from_slice(b);
    }
    let sum = body_checksum(SLICE_FORMAT_VERSION, &body);
    let header = header_bytes(variant, slice, positions, offset, sum);
    damas_rules::atomic_file::write_atomic_with(&path, |w| {
        w.write_all(&header)?;
        w.write_all(&body)
    })
    .map_err(|e| EgdbError::io(&path, e))?;
    Ok((HEADER_LEN + body.len()) as u64)
}

/// Where a file's bytes are: its own read-only mapping, or a part of one
/// anonymous copy of several files ([`crate::slices::db::SliceDb::copy_to_huge_pages`]).
#[derive(Debug)]
enum Backing {
    Mapped(Mmap),
    /// Bytes inside the program ([`crate::slices::builtin`]).
    Static(&'static [u8]),
    Shared {
        area: Arc<Mmap>,
        start: usize,
        len: usize,
    },
}

impl Backing {
    /// The bytes, header included.
    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        match self {
            Backing::Mapped(m) => m,
            Backing::Static(b) => b,
            Backing::Shared { area, start, len } => area
                .get(*start..start.wrapping_add(*len))
                .unwrap_or_default(),
        }
    }
}

/// Where the code area of a file of the slice numbered by `index` starts: after
/// the header and the `blocks + 1` offsets.
pub(crate) fn codes_at(index: &SliceIndex) -> usize {
    let blocks = index.size().div_ceil(u64::from(BLOCK_POSITIONS)) as usize;
    HEADER_LEN + 4 * (blocks + 1)
}

/// A memory-mapped slice file. Probes take `&self`; `Send + Sync`.
#[derive(Debug)]
pub struct SliceFile {
    path: PathBuf,
    map: Backing,
    index: SliceIndex,
    /// Where the code area starts: after the header and the `blocks + 1` offsets.
    codes_at: usize,
    /// Format version (it says which checksum the header holds).
    version: u16,
    stored_sum: u64,
    /// The checksum computed on first use.
    computed_sum: OnceLock<u64>,
    /// The blocks' offsets in cache-sized form, built on first use once the
    /// checksum is right; `None` inside when the file is corrupt.
    located: OnceLock<Option<BlockIndex>>,
}

impl SliceFile {
    /// Map the file of `slice` in `dir`, which must be of the rules `variant`;
    /// `Ok(None)` when it does not exist. The header and length are checked now,
    /// the checksum by [`SliceFile::check`] or on first use.
    pub fn open(
        variant: Variant,
        dir: &Path,
        slice: Slice,
    ) -> Result<Option<SliceFile>, EgdbError> {
        let path = slice_path(dir, slice);
        let Some(map) = header::map_existing(&path)? else {
            return Ok(None);
        };
        SliceFile::checked(variant, path, slice, Backing::Mapped(map)).map(Some)
    }

    /// The file of `slice` held in `bytes` (a copy built into the program, named
    /// `name` in messages), checked as [`SliceFile::open`] checks a file.
    pub fn from_static(
        variant: Variant,
        name: PathBuf,
        slice: Slice,
        bytes: &'static [u8],
    ) -> Result<SliceFile, EgdbError> {
        SliceFile::checked(variant, name, slice, Backing::Static(bytes))
    }

    /// The file of `slice` with these bytes, its header and length checked.
    fn checked(
        variant: Variant,
        path: PathBuf,
        slice: Slice,
        map: Backing,
    ) -> Result<SliceFile, EgdbError> {
        let bytes = map.bytes();
        let h = Header::read(bytes, &path, HEADER_LEN as u64)?;
        h.check_variant(variant)?;
        let version = h.version();
        if version != SLICE_FORMAT_VERSION && version != SLICE_FORMAT_V2 {
            return Err(h.bad(format!(
                "format version {version}, this program reads {SLICE_FORMAT_V2} and {SLICE_FORMAT_VERSION}; rebuild with `damas-egdb build`"
            )));
        }
        let index = SliceIndex::new(slice);
        h.check_identity(KIND_WDL, slice, index.size())?;
        if h.u32_at(32) != BLOCK_POSITIONS {
            return Err(h.bad(format!("block of {} positions", h.u32_at(32))));
        }
        h.check_reserved(36..40)?;
        let codes_at = codes_at(&index);
        // Saturating: a header claiming an absurd code length must be refused as
        // the wrong length, not overflow.
        let expected = (codes_at as u64).saturating_add(h.u64_at(40));
        header::check_length(&path, bytes.len() as u64, expected)?;
        let stored_sum = h.checksum();
        Ok(SliceFile {
            path,
            map,
            index,
            codes_at,
            version,
            stored_sum,
            computed_sum: OnceLock::new(),
            located: OnceLock::new(),
        })
    }

    /// The file's bytes, header included (what [`SliceFile::move_to`] copies).
    #[inline(always)]
    pub(crate) fn bytes(&self) -> &[u8] {
        self.map.bytes()
    }

    /// Probe from bytes `start..start + self.len()` of `area` from now on (a copy
    /// of this file's bytes) instead of the file's own mapping, which is dropped.
    pub(crate) fn move_to(&mut self, area: &Arc<Mmap>, start: usize) {
        let len = self.bytes().len();
        self.map = Backing::Shared {
            area: Arc::clone(area),
            start,
            len,
        };
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The slice numbering.
    #[inline(always)]
    pub fn index(&self) -> &SliceIndex {
        &self.index
    }

    /// Bytes on disk.
    pub fn len(&self) -> u64 {
        self.bytes().len() as u64
    }

    /// Whether the file is empty (never: the header is always there).
    pub fn is_empty(&self) -> bool {
        self.bytes().is_empty()
    }

    /// Check the body against the header's checksum (computed once per file).
    pub fn check(&self) -> Result<(), EgdbError> {
        let computed = *self.computed_sum.get_or_init(|| {
            body_checksum(
                self.version,
                self.bytes().get(HEADER_LEN..).unwrap_or_default(),
            )
        });
        EgdbError::check_sum(&self.path, self.stored_sum, computed)
    }

    /// The file's block index, built on first use (after the checksum is
    /// verified); `None` when the file is corrupt.
    #[inline(always)]
    fn located(&self) -> Option<&BlockIndex> {
        self.located
            .get_or_init(|| {
                self.check().ok()?;
                let offsets = self
                    .bytes()
                    .get(HEADER_LEN..self.codes_at)?
                    .chunks_exact(4)
                    .map(LittleEndian::read_u32);
                BlockIndex::new(offsets)
            })
            .as_ref()
    }

    /// The stored value code of position `index` ([`crate::slices::codec`]); `None`
    /// when the file is corrupt (checksum, or codes that do not decode).
    #[inline]
    pub fn code(&self, index: u64) -> Option<u8> {
        let block = (index / u64::from(BLOCK_POSITIONS)) as usize;
        let (start, len) = self.located()?.locate(block)?;
        let codes = self.codes_at + start;
        let area = self.bytes().get(codes..codes + len)?;
        decode_at(area, (index % u64::from(BLOCK_POSITIONS)) as usize)
    }
}
