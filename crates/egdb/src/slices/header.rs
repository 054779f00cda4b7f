//! The 64-byte header that the slice files share — win/draw/loss codes
//! ([`crate::slices::compact`]) and distances ([`crate::slices::dtc`]) — written and
//! checked in one place.
//!
//! Layout (little-endian): magic `DAMASEGB`, format version (u16), index scheme 2 (u16),
//! kind (u8), the rule variant (u8: 0 Brazilian, 1 Russian; files written before it was
//! named hold 0, so they read as Brazilian), the slice's white men, white kings, black men,
//! black kings (4 × u8), 6 zero bytes, position count (u64), 16 bytes of the kind's own
//! fields (zero when it has none), checksum of the body (u64), 8 zero bytes.

use std::fs::File;
use std::ops::Range;
use std::path::Path;

use byteorder::{ByteOrder, LittleEndian};
use memmap2::Mmap;

use crate::error::EgdbError;
use crate::format::{HEADER_LEN, MAGIC};
use crate::slices::slice::Slice;
use damas_rules::Variant;

/// Index scheme 2: the material-slice numbering.
pub const SCHEME_SLICE: u16 = 2;
/// Bytes every kind keeps zero: the pad after the slice and at the end.
const RESERVED: [Range<usize>; 2] = [18..24, 56..64];
/// Where the header names the rule variant.
const VARIANT_AT: usize = 13;

/// The header byte naming `variant` (Brazilian 0, the byte's value in older files).
pub const fn variant_byte(variant: Variant) -> u8 {
    match variant {
        Variant::Brazilian => 0,
        Variant::Russian => 1,
    }
}

/// A header with the fields every kind has; the kind's own (bytes 32–47) are zero
/// for the caller to fill.
pub fn header_bytes(
    variant: Variant,
    version: u16,
    kind: u8,
    slice: Slice,
    positions: u64,
    sum: u64,
) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(&MAGIC);
    LittleEndian::write_u16(&mut h[8..], version);
    LittleEndian::write_u16(&mut h[10..], SCHEME_SLICE);
    h[12] = kind;
    h[VARIANT_AT] = variant_byte(variant);
    h[14..18].copy_from_slice(&[
        slice.white_men,
        slice.white_kings,
        slice.black_men,
        slice.black_kings,
    ]);
    LittleEndian::write_u64(&mut h[24..], positions);
    LittleEndian::write_u64(&mut h[48..], sum);
    h
}

/// Map the file at `path` read-only; `Ok(None)` when it does not exist.
pub fn map_existing(path: &Path) -> Result<Option<Mmap>, EgdbError> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(EgdbError::io(path, e)),
    };
    // SAFETY: read-only mapping of a file written once under a temporary name
    // and renamed; it is never modified in place.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| EgdbError::io(path, e))?;
    Ok(Some(map))
}

/// The header of a mapped slice file, its magic checked ([`Header::read`]).
pub struct Header<'a> {
    path: &'a Path,
    h: &'a [u8],
}

impl<'a> Header<'a> {
    /// The header of `map` (the file at `path`): an error when the file is shorter
    /// than a header (`expected` is the length it should have) or is not a damas
    /// database file.
    pub fn read(map: &'a [u8], path: &'a Path, expected: u64) -> Result<Header<'a>, EgdbError> {
        let Some(h) = map.get(..HEADER_LEN) else {
            return Err(EgdbError::BadLength {
                path: path.to_path_buf(),
                problem: "truncated",
                expected,
                found: map.len() as u64,
            });
        };
        if h[..8] != MAGIC {
            return Err(EgdbError::BadMagic {
                path: path.to_path_buf(),
            });
        }
        Ok(Header { path, h })
    }

    /// The u16 at byte `o`.
    pub fn u16_at(&self, o: usize) -> u16 {
        LittleEndian::read_u16(&self.h[o..])
    }

    /// The u32 at byte `o`.
    pub fn u32_at(&self, o: usize) -> u32 {
        LittleEndian::read_u32(&self.h[o..])
    }

    /// The u64 at byte `o`.
    pub fn u64_at(&self, o: usize) -> u64 {
        LittleEndian::read_u64(&self.h[o..])
    }

    /// The format version.
    pub fn version(&self) -> u16 {
        self.u16_at(8)
    }

    /// The stored checksum of the body.
    pub fn checksum(&self) -> u64 {
        self.u64_at(48)
    }

    /// A header error saying `what`, naming the file.
    pub fn bad(&self, what: String) -> EgdbError {
        EgdbError::BadHeader {
            path: self.path.to_path_buf(),
            what,
        }
    }

    /// The rule variant the file was built for.
    pub fn variant(&self) -> Result<Variant, EgdbError> {
        let byte = self.h[VARIANT_AT];
        Variant::ALL
            .into_iter()
            .find(|&v| variant_byte(v) == byte)
            .ok_or_else(|| self.bad(format!("unknown rule variant {byte}")))
    }

    /// Check that the file was built for `expected` ([`EgdbError::Variant`] if not).
    pub fn check_variant(&self, expected: Variant) -> Result<(), EgdbError> {
        let found = self.variant()?;
        if found != expected {
            return Err(EgdbError::Variant {
                path: self.path.to_path_buf(),
                found,
                expected,
            });
        }
        Ok(())
    }

    /// Check the index scheme, the kind, the slice and its position count.
    pub fn check_identity(&self, kind: u8, slice: Slice, positions: u64) -> Result<(), EgdbError> {
        if self.u16_at(10) != SCHEME_SLICE || self.h[12] != kind {
            return Err(self.bad(format!(
                "index scheme {} kind {}, expected {SCHEME_SLICE} and {kind}",
                self.u16_at(10),
                self.h[12]
            )));
        }
        let found = Slice::new(self.h[14], self.h[15], self.h[16], self.h[17]);
        if found != slice {
            return Err(self.bad(format!("slice {found}, expected {slice}")));
        }
        if self.u64_at(24) != positions {
            return Err(self.bad(format!(
                "{} positions, the slice has {positions}",
                self.u64_at(24)
            )));
        }
        Ok(())
    }

    /// Check that the reserved bytes, and the kind's own `unused` ones, are zero.
    pub fn check_reserved(&self, unused: Range<usize>) -> Result<(), EgdbError> {
        let mut reserved = RESERVED.into_iter().chain(std::iter::once(unused));
        if reserved.any(|r| self.h[r].iter().any(|&b| b != 0)) {
            return Err(self.bad("reserved bytes are not zero".into()));
        }
        Ok(())
    }
}

/// Check that a file of `found` bytes at `path` has the `expected` length.
pub fn check_length(path: &Path, found: u64, expected: u64) -> Result<(), EgdbError> {
    if found == expected {
        return Ok(());
    }
    Err(EgdbError::BadLength {
        path: path.to_path_buf(),
        problem: if found < expected {
            "truncated"
        } else {
            "trailing bytes"
        },
        expected,
        found,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_header_reads_back_and_each_damage_is_named() {
        let slice = Slice::new(1, 1, 1, 0);
        let path = Path::new("w11b10.wdl");
        let h = header_bytes(Variant::Brazilian, 3, 7, slice, 1234, 99);
        let ok = Header::read(&h, path, 64).unwrap();
        assert_eq!((ok.version(), ok.checksum()), (3, 99));
        assert_eq!(ok.variant().unwrap(), Variant::Brazilian);
        ok.check_identity(7, slice, 1234).unwrap();
        ok.check_reserved(32..48).unwrap();

        let message = |e: EgdbError| {
            let m = e.to_string();
            assert!(m.contains("w11b10.wdl"), "{m}");
            m
        };
        let short = Header::read(&h[..10], path, 64).err().unwrap();
        assert!(message(short).contains("truncated"));
        let mut foreign = h;
        foreign[0] = b'X';
        assert!(Header::read(&foreign, path, 64).is_err());
        let kind = ok.check_identity(8, slice, 1234).unwrap_err();
        assert!(message(kind).contains("kind 7"));
        let other = ok
            .check_identity(7, Slice::new(2, 0, 1, 0), 1234)
            .unwrap_err();
        assert!(message(other).contains("slice"));
        let count = ok.check_identity(7, slice, 1235).unwrap_err();
        assert!(message(count).contains("1234 positions"));
        for byte in [20, 40, 60] {
            let mut damaged = h;
            damaged[byte] = 1;
            let e = Header::read(&damaged, path, 64)
                .unwrap()
                .check_reserved(32..48)
                .unwrap_err();
            assert!(message(e).contains("reserved"), "byte {byte}");
        }
        // Bytes 32-47 belong to the kind when it says so.
        let mut own = h;
        own[40] = 1;
        let own = Header::read(&own, path, 64).unwrap();
        assert!(own.check_reserved(36..40).is_ok());
    }

    #[test]
    fn the_variant_round_trips_and_a_mismatch_names_both() {
        let slice = Slice::new(1, 0, 0, 1);
        let path = Path::new("w10b01.wdl");
        for v in Variant::ALL {
            let h = header_bytes(v, 3, 3, slice, 10, 0);
            let read = Header::read(&h, path, 64).unwrap();
            assert_eq!(read.variant().unwrap(), v);
            read.check_variant(v).unwrap();
            read.check_reserved(36..40).unwrap();
            let other = Variant::ALL.into_iter().find(|&o| o != v).unwrap();
            let e = read.check_variant(other).unwrap_err();
            assert!(
                matches!(e, EgdbError::Variant { found, expected, .. } if found == v && expected == other)
            );
            let m = e.to_string();
            assert!(
                m.contains("w10b01.wdl") && m.contains(v.name()) && m.contains(other.name()),
                "{m}"
            );
        }
        // Brazilian is the zero byte older files hold.
        assert_eq!(header_bytes(Variant::Brazilian, 3, 3, slice, 10, 0)[13], 0);
        let mut unknown = header_bytes(Variant::Russian, 3, 3, slice, 10, 0);
        unknown[13] = 9;
        let e = Header::read(&unknown, path, 64)
            .unwrap()
            .variant()
            .unwrap_err();
        assert!(e.to_string().contains("variant 9"), "{e}");
    }

    #[test]
    fn lengths_are_truncated_or_trailing() {
        let path = Path::new("x.dtc");
        assert!(check_length(path, 100, 100).is_ok());
        assert!(check_length(path, 99, 100)
            .unwrap_err()
            .to_string()
            .contains("truncated"));
        assert!(check_length(path, 101, 100)
            .unwrap_err()
            .to_string()
            .contains("trailing"));
    }
}
