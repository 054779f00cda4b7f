//! Endgame-database file headers and evaluation weight files: parsing bytes never
//! panics.
#![no_main]

use std::path::Path;

use damas_egdb::parts::file::{FileKind, Header};
use damas_engine::eval::weights::Weights;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for kind in [FileKind::Values, FileKind::Distances] {
        for pieces in 2..=6 {
            let _ = Header::parse(data, Path::new("fuzz"), kind, pieces);
        }
    }
    let _ = Weights::from_bytes(data);
});
