//! Brazilian win/draw/loss slices built once per test run, for the tests that only
//! read them (a test that damages files works on a copy).

use std::path::Path;
use std::sync::OnceLock;

use damas_egdb::slices::build::build_slices;
use damas_egdb::BuildOptions;
use damas_rules::variant::Variant;
use tempfile::TempDir;

/// The directory of the Brazilian slices of 2 … `pieces` pieces (3 or 4).
pub fn brazilian(pieces: usize) -> &'static Path {
    static THREE: OnceLock<TempDir> = OnceLock::new();
    static FOUR: OnceLock<TempDir> = OnceLock::new();
    let cell = match pieces {
        3 => &THREE,
        4 => &FOUR,
        _ => panic!("no shared slices of {pieces} pieces"),
    };
    cell.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        build_slices(
            Variant::Brazilian,
            dir.path(),
            pieces,
            &BuildOptions::default(),
            |_| {},
        )
        .unwrap();
        dir
    })
    .path()
}
