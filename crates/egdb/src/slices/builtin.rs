//! The 1–4-piece databases built into the program, for both rules: about 400 kB
//! each, so that every engine knows the smallest endings exactly (three kings
//! against one, a king and two men against a king, …) without a database
//! directory. Without them such endings are played on the evaluation alone, and
//! the engine drew won ones by a counting rule or a repetition (docs/egdb.md,
//! "Built-in databases").
//!
//! A bundle (`data/builtin-egdb/brazilian.wdls` and `russian.wdls`) is the slice
//! files of 2, 3 and 4 pieces as `damas-egdb build --pieces 4` writes them, one
//! after the other in [`Slice::all`] order; each keeps its own header and
//! checksum, so a bundle is read exactly as the files are. `damas-egdb bundle`
//! writes one; a test checks that the committed ones equal a fresh build.

use std::path::{Path, PathBuf};

use byteorder::{ByteOrder, LittleEndian};

use crate::error::EgdbError;
use crate::format::HEADER_LEN;
use crate::slices::compact::{codes_at, slice_path, SliceFile};
use crate::slices::db::SliceDb;
use crate::slices::slice::{Slice, SliceIndex};
use damas_rules::Variant;

/// The most pieces the built-in databases hold.
pub const BUILT_IN_PIECES: usize = 4;

static BRAZILIAN: &[u8] = include_bytes!("../../../../data/builtin-egdb/brazilian.wdls");
static RUSSIAN: &[u8] = include_bytes!("../../../../data/builtin-egdb/russian.wdls");

/// The bundle of `variant` built into the program.
pub fn bundle(variant: Variant) -> &'static [u8] {
    match variant {
        Variant::Brazilian => BRAZILIAN,
        Variant::Russian => RUSSIAN,
    }
}

/// The name the built-in databases of `variant` go by in messages.
pub fn name(variant: Variant) -> PathBuf {
    PathBuf::from(format!("(built-in {} 1-{BUILT_IN_PIECES})", variant.name()))
}

/// Every slice of 2 … [`BUILT_IN_PIECES`] pieces, in bundle order.
fn bundle_slices() -> impl Iterator<Item = Slice> {
    (2..=BUILT_IN_PIECES).flat_map(Slice::all)
}

/// Bytes of a slice file of `slice` whose header starts `rest`: the header, the
/// block offsets and the code area whose length the header gives. `None` when
/// `rest` is shorter than a header.
fn file_len(slice: Slice, rest: &[u8]) -> Option<usize> {
    let code_len = LittleEndian::read_u64(rest.get(40..48)?);
    let len = (codes_at(&SliceIndex::new(slice)) as u64).saturating_add(code_len);
    usize::try_from(len).ok()
}

/// The slice files of `bytes`, a bundle of the rules `variant`, each checked as a
/// file on disk is (header, length, checksum). An error names the slice whose file
/// is missing, short, wrong or corrupt.
pub fn read_bundle(variant: Variant, bytes: &'static [u8]) -> Result<SliceDb, EgdbError> {
    let dir = name(variant);
    let mut at = 0;
    let mut found = Vec::new();
    for slice in bundle_slices() {
        let path = slice_path(&dir, slice);
        let rest = &bytes[at.min(bytes.len())..];
        let len = file_len(slice, rest).ok_or_else(|| EgdbError::BadLength {
            path: path.clone(),
            problem: "truncated",
            expected: HEADER_LEN as u64,
            found: rest.len() as u64,
        })?;
        let file = rest.get(..len).unwrap_or(rest);
        let f = SliceFile::from_static(variant, path, slice, file)?;
        f.check()?;
        found.push((slice, f));
        at += file.len();
    }
    if at != bytes.len() {
        return Err(EgdbError::BadHeader {
            path: dir,
            what: format!("{} bytes after the last slice", bytes.len() - at),
        });
    }
    Ok(SliceDb::of_files(name(variant), variant, found, Vec::new()))
}

/// The built-in databases of `variant`.
pub fn built_in(variant: Variant) -> Result<SliceDb, EgdbError> {
    read_bundle(variant, bundle(variant))
}

/// Write the bundle of the 2 … [`BUILT_IN_PIECES`]-piece slice files of `dir`
/// (built for `variant`) to `out`, through a temporary name; the bytes written.
pub fn write_bundle(variant: Variant, dir: &Path, out: &Path) -> Result<u64, EgdbError> {
    let mut bytes = Vec::new();
    for slice in bundle_slices() {
        let file = SliceFile::open(variant, dir, slice)?.ok_or_else(|| {
            EgdbError::io(
                slice_path(dir, slice),
                std::io::Error::new(std::io::ErrorKind::NotFound, "missing slice file"),
            )
        })?;
        file.check()?;
        bytes.extend_from_slice(file.bytes());
    }
    damas_rules::atomic_file::write_atomic_with(out, |w| w.write_all(&bytes))
        .map_err(|e| EgdbError::io(out, e))?;
    Ok(bytes.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slices::build::build_slices;
    use crate::value::Wdl;
    use crate::BuildOptions;
    use damas_rules::fen::parse_fen;

    /// The committed bundles are exactly what a fresh build of 1–4 pieces gives.
    #[test]
    fn the_bundles_equal_a_fresh_build() {
        for variant in [Variant::Brazilian, Variant::Russian] {
            let dir = tempfile::tempdir().unwrap();
            build_slices(
                variant,
                dir.path(),
                BUILT_IN_PIECES,
                &BuildOptions::default(),
                |_| {},
            )
            .unwrap();
            let out = dir.path().join("bundle.wdls");
            write_bundle(variant, dir.path(), &out).unwrap();
            let fresh = std::fs::read(&out).unwrap();
            assert!(
                fresh == bundle(variant),
                "{variant:?}: rebuild the bundle (docs/egdb.md)"
            );
            let db = built_in(variant).unwrap();
            assert_eq!(db.max_pieces(), BUILT_IN_PIECES);
            assert_eq!(db.variant(), variant);
        }
    }

    #[test]
    fn the_built_in_databases_answer() {
        let db = built_in(Variant::Brazilian).unwrap();
        // Three kings against one off the long diagonal win; the lone king on it,
        // to move, holds.
        let won = parse_fen("W:WKa1,Kc1,Ke1:BKb8").unwrap();
        assert_eq!(db.wdl(&won), Some(Wdl::Win));
        let held = parse_fen("B:WKa7,Kb8,Kd8:BKe5").unwrap();
        assert_eq!(db.wdl(&held), Some(Wdl::Draw));
        // Five pieces are beyond them.
        let five = parse_fen("W:WKa1,Kc1,Ke1:BKb8,h8").unwrap();
        assert_eq!(db.wdl(&five), None);
    }

    #[test]
    fn a_damaged_bundle_is_refused_with_the_slice_named() {
        let bytes = bundle(Variant::Brazilian);
        let short: &'static [u8] = Box::leak(bytes[..bytes.len() - 10].to_vec().into_boxed_slice());
        let last_slice = bundle_slices().last().unwrap();
        let e = read_bundle(Variant::Brazilian, short)
            .unwrap_err()
            .to_string();
        assert!(e.contains(&last_slice.stem()), "{e}");
        let long: &'static [u8] = Box::leak([bytes, &[0u8; 3]].concat().into_boxed_slice());
        let e = read_bundle(Variant::Brazilian, long)
            .unwrap_err()
            .to_string();
        assert!(e.contains("3 bytes after the last slice"), "{e}");
        // A Brazilian bundle read as Russian names the rules.
        assert!(read_bundle(Variant::Russian, bytes).is_err());
        // A flipped byte in a body fails the checksum, naming the slice.
        let mut flipped = bytes.to_vec();
        let last = flipped.len() - 1;
        flipped[last] ^= 0xff;
        let flipped: &'static [u8] = Box::leak(flipped.into_boxed_slice());
        let e = read_bundle(Variant::Brazilian, flipped).unwrap_err();
        assert!(
            matches!(e, EgdbError::Checksum { .. }) && e.to_string().contains(&last_slice.stem()),
            "{e}"
        );
    }
}
