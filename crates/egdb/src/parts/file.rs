//! Part files: names, the 64-byte header, the body checksum, atomic writing and
//! checked memory mapping.
//!
//! Layout (little-endian): magic `DAMASEGB` (8 bytes), format version (u16), index
//! scheme (u16), kind (u8: 1 values, 2 distances), piece count (u8), entry width in
//! bytes (u8), a zero byte, entry count (u64), checksum of the body (u64), longest
//! distance in the file (u32), 28 zero bytes; then the body, one entry per index slot.
//!
//! Version 2 (written) checks the body with a CRC-32; version 1 (still read, so parts
//! built before it stay usable) with the custom 64-bit [`legacy_checksum`]. The
//! entries are the same in both.

use std::fs::File;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use byteorder::{LittleEndian, ReadBytesExt, WriteBytesExt};
use memmap2::Mmap;

use crate::error::EgdbError;
use crate::format::{legacy_checksum, HEADER_LEN, MAGIC};
use crate::parts::index::{part_size, MAX_PIECES};

/// The format version written: 2, whose body checksum is a CRC-32.
pub const FORMAT_VERSION: u16 = 2;
/// The first version, still read: the same entries under [`legacy_checksum`].
pub const FORMAT_V1: u16 = 1;
/// Index scheme 1: the thesis numbering of [`crate::parts::index`], White to move.
pub const SCHEME_THESIS: u16 = 1;

/// What a part file holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FileKind {
    /// One byte per slot: value and best-move index ([`crate::parts::entry::encode`]).
    Values = 1,
    /// One u8 or u16 per slot: plies to the end with best play (0 for draws).
    Distances = 2,
}

impl FileKind {
    fn extension(self) -> &'static str {
        match self {
            FileKind::Values => "val",
            FileKind::Distances => "dist",
        }
    }
}

/// The path of a part file: `DIR/part5.val`, `DIR/part5.dist`.
pub fn part_path(dir: &Path, pieces: usize, kind: FileKind) -> PathBuf {
    dir.join(format!("part{pieces}.{}", kind.extension()))
}

/// A part file header.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Header {
    /// Format version: [`FORMAT_VERSION`] or [`FORMAT_V1`]; it decides the checksum.
    pub version: u16,
    /// What the body holds.
    pub kind: FileKind,
    /// Piece count of the part.
    pub pieces: usize,
    /// Bytes per entry.
    pub width: usize,
    /// Number of entries (the part size).
    pub entries: u64,
    /// [`body_checksum`] of the body for this version.
    pub checksum: u64,
    /// Longest distance stored (informational).
    pub max_distance: u32,
}

impl Header {
    /// The 64 header bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN);
        // Writes into a Vec cannot fail.
        out.extend_from_slice(&MAGIC);
        out.write_u16::<LittleEndian>(self.version).unwrap();
        out.write_u16::<LittleEndian>(SCHEME_THESIS).unwrap();
        out.write_u8(self.kind as u8).unwrap();
        out.write_u8(self.pieces as u8).unwrap();
        out.write_u8(self.width as u8).unwrap();
        out.write_u8(0).unwrap();
        out.write_u64::<LittleEndian>(self.entries).unwrap();
        out.write_u64::<LittleEndian>(self.checksum).unwrap();
        out.write_u32::<LittleEndian>(self.max_distance).unwrap();
        out.resize(HEADER_LEN, 0);
        out
    }

    /// Parse and check a header read from `path`, which should be `kind` for part
    /// `pieces`.
    pub fn parse(
        bytes: &[u8],
        path: &Path,
        kind: FileKind,
        pieces: usize,
    ) -> Result<Header, EgdbError> {
        let bad = |what: String| EgdbError::BadHeader {
            path: path.to_path_buf(),
            what,
        };
        if bytes.len() < HEADER_LEN {
            return Err(EgdbError::BadLength {
                path: path.to_path_buf(),
                problem: "truncated header",
                expected: HEADER_LEN as u64,
                found: bytes.len() as u64,
            });
        }
        if bytes[..8] != MAGIC {
            return Err(EgdbError::BadMagic {
                path: path.to_path_buf(),
            });
        }
        let mut c = Cursor::new(&bytes[8..HEADER_LEN]);
        // The cursor spans the whole header, so these reads cannot run short.
        let version = c.read_u16::<LittleEndian>().unwrap();
        let scheme = c.read_u16::<LittleEndian>().unwrap();
        let kind_byte = c.read_u8().unwrap();
        let pieces_byte = c.read_u8().unwrap() as usize;
        let width = c.read_u8().unwrap() as usize;
        let pad = c.read_u8().unwrap();
        let entries = c.read_u64::<LittleEndian>().unwrap();
        let checksum = c.read_u64::<LittleEndian>().unwrap();
        let max_distance = c.read_u32::<LittleEndian>().unwrap();
        if version != FORMAT_VERSION && version != FORMAT_V1 {
            return Err(bad(format!(
                "format version {version}, this program reads {FORMAT_V1} and {FORMAT_VERSION}; rebuild with `damas-egdb build --legacy`"
            )));
        }
        if scheme != SCHEME_THESIS {
            return Err(bad(format!(
                "index scheme {scheme}, this program reads {SCHEME_THESIS}"
            )));
        }
        if kind_byte != kind as u8 {
            return Err(bad(format!(
                "file kind {kind_byte}, expected {} ({kind:?})",
                kind as u8
            )));
        }
        if pieces_byte != pieces || pieces > MAX_PIECES {
            return Err(bad(format!("piece count {pieces_byte}, expected {pieces}")));
        }
        let widths: &[usize] = if kind == FileKind::Values {
            &[1]
        } else {
            &[1, 2]
        };
        if !widths.contains(&width) {
            return Err(bad(format!("entry width {width}")));
        }
        if entries != part_size(pieces) {
            return Err(bad(format!(
                "entry count {entries}, part {pieces} has {}",
                part_size(pieces)
            )));
        }
        if pad != 0 || bytes[36..HEADER_LEN].iter().any(|&b| b != 0) {
            return Err(bad("reserved bytes are not zero".into()));
        }
        Ok(Header {
            version,
            kind,
            pieces,
            width,
            entries,
            checksum,
            max_distance,
        })
    }

    /// Total file length implied by the header.
    pub fn file_len(&self) -> u64 {
        HEADER_LEN as u64 + self.entries * self.width as u64
    }
}

/// The body checksum of a file of format `version`: a CRC-32 from version 2 on,
/// [`legacy_checksum`] for version 1.
pub fn body_checksum(version: u16, body: &[u8]) -> u64 {
    if version == FORMAT_V1 {
        legacy_checksum(body)
    } else {
        u64::from(crc32fast::hash(body))
    }
}

/// Write `header` (in the current version, with the checksum of `body` filled in) and
/// `body` to `path` through a temporary file that is renamed only when complete
/// ([`damas_rules::atomic_file::write_atomic_with`]), so a file with the final name is
/// always whole.
pub fn write_part_file(path: &Path, mut header: Header, body: &[u8]) -> Result<(), EgdbError> {
    header.version = FORMAT_VERSION;
    header.checksum = body_checksum(FORMAT_VERSION, body);
    damas_rules::atomic_file::write_atomic_with(path, |w| {
        w.write_all(&header.to_bytes())?;
        w.write_all(body)
    })
    .map_err(|e| EgdbError::io(path, e))?;
    Ok(())
}

/// A checked, memory-mapped part file.
#[derive(Debug)]
pub struct MappedFile {
    map: Mmap,
    header: Header,
}

impl MappedFile {
    /// Map `path` as file `kind` of part `pieces`. `Ok(None)` when the file does not
    /// exist; an error when it exists but is foreign, truncated or (if
    /// `verify_checksum`) corrupt.
    pub fn open(
        path: &Path,
        kind: FileKind,
        pieces: usize,
        verify_checksum: bool,
    ) -> Result<Option<MappedFile>, EgdbError> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(EgdbError::io(path, e)),
        };
        let len = file.metadata().map_err(|e| EgdbError::io(path, e))?.len();
        if len < HEADER_LEN as u64 {
            return Err(EgdbError::BadLength {
                path: path.to_path_buf(),
                problem: "truncated",
                expected: HEADER_LEN as u64,
                found: len,
            });
        }
        // SAFETY: the mapping is read-only; the files are written once under a
        // temporary name and never modified in place afterwards. Truncating a mapped
        // file from outside would fault, as for any mmap user.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| EgdbError::io(path, e))?;
        let header = Header::parse(&map, path, kind, pieces)?;
        let expected = header.file_len();
        if len != expected {
            let problem = if len < expected {
                "truncated"
            } else {
                "trailing bytes"
            };
            return Err(EgdbError::BadLength {
                path: path.to_path_buf(),
                problem,
                expected,
                found: len,
            });
        }
        let mapped = MappedFile { map, header };
        if verify_checksum {
            let computed = body_checksum(header.version, mapped.body());
            EgdbError::check_sum(path, header.checksum, computed)?;
        }
        Ok(Some(mapped))
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The entries.
    #[inline(always)]
    pub fn body(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums_see_every_byte() {
        let body: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
        for version in [FORMAT_V1, FORMAT_VERSION] {
            let base = body_checksum(version, &body);
            for i in 0..body.len() {
                let mut b = body.clone();
                b[i] ^= 0x10;
                assert_ne!(
                    body_checksum(version, &b),
                    base,
                    "version {version} byte {i}"
                );
            }
            assert_ne!(body_checksum(version, &body[..999]), base);
        }
        assert_ne!(
            body_checksum(FORMAT_V1, &body),
            body_checksum(FORMAT_VERSION, &body)
        );
    }

    #[test]
    fn header_round_trip() {
        let h = Header {
            version: FORMAT_VERSION,
            kind: FileKind::Distances,
            pieces: 3,
            width: 2,
            entries: part_size(3),
            checksum: 42,
            max_distance: 17,
        };
        let bytes = h.to_bytes();
        assert_eq!(bytes.len(), HEADER_LEN);
        let p = Path::new("x");
        assert_eq!(Header::parse(&bytes, p, FileKind::Distances, 3).unwrap(), h);
        assert!(Header::parse(&bytes, p, FileKind::Values, 3).is_err());
        assert!(Header::parse(&bytes, p, FileKind::Distances, 4).is_err());
    }
}
