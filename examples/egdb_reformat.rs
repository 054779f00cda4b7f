//! Rewrite the slice files of a database in the current format (for comparing
//! formats without solving again): `cargo run --release --example egdb_reformat --
//! SRC DST`. Every slice file of SRC, of any version read, is written to DST
//! ([`rewrite_slice_file`]: the same file a build would write).

use std::path::Path;

use damas::egdb::compact::rewrite_slice_file;
use damas::egdb::slice::{Slice, MAX_SLICE_PIECES};
use damas::egdb::slicedb::SliceDb;
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: egdb_reformat SRC DST");
        std::process::exit(2);
    }
    let (src, dst) = (Path::new(&args[1]), Path::new(&args[2]));
    let fail = |e: &dyn std::fmt::Display| -> ! {
        eprintln!("egdb_reformat: {e}");
        std::process::exit(1)
    };
    let db = SliceDb::open_existing(src).unwrap_or_else(|e| fail(&e));
    std::fs::create_dir_all(dst).unwrap_or_else(|e| fail(&e));
    let slices: Vec<Slice> = (2..=MAX_SLICE_PIECES).flat_map(Slice::all).collect();
    let start = std::time::Instant::now();
    let bytes: u64 = slices
        .par_iter()
        .filter_map(|&s| db.file(s).map(|f| (s, f)))
        .map(|(s, f)| {
            let n = rewrite_slice_file(f, dst).unwrap_or_else(|e| fail(&e));
            println!("{s}: {} -> {n} bytes", f.len());
            n
        })
        .sum();
    println!(
        "{} -> {bytes} bytes in {:.1} s",
        db.bytes(),
        start.elapsed().as_secs_f64()
    );
}
