//! The `damas-egdb` command line: build, verify, summarise and probe databases.
//! The binary only parses and calls [`run`].
//!
//! `probe` prints one line per position, in input order:
//! `win <plies> best <move>`, `loss <plies> best <move>`, `loss 0` (no move),
//! `draw best <move>`, or `error <reason>`. Plies are the distance to the end of
//! the game with best play (omitted when the part has no distance file); moves
//! are algebraic (`c3-d4`, `c3xe5`).

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args as ClapArgs, Parser, Subcommand};

use damas_egdb::error::EgdbError;
use damas_egdb::location::{self, Env};
use damas_egdb::parts::build::{build_for, PartSummary};
use damas_egdb::parts::index::{part_size, MAX_PIECES};
use damas_egdb::parts::stats::part_stats;
use damas_egdb::parts::verify::verify;
use damas_egdb::probe::Egdb;
use damas_egdb::slices::build::{build_slices, SliceSummary};
use damas_egdb::slices::check::{present_slices, slice_counts, verify_slices, VerifyOptions};
use damas_egdb::slices::slice::Slice;
use damas_egdb::slices::slice::MAX_SLICE_PIECES;
use damas_egdb::verify::VerifyReport;
use damas_egdb::BuildOptions;
use damas_rules::fen::parse_fen;
use damas_rules::notation::{move_to_string, Notation};
use damas_rules::Variant;

use crate::cli::variant_parser;

/// Endgame databases for Brazilian checkers.
#[derive(Parser, Debug)]
#[command(
    name = "damas-egdb",
    version,
    about = "Build, check and probe damas endgame databases"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: EgdbCommand,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum EgdbCommand {
    /// Build the databases of 1 … N pieces (finished slices are kept; an interrupted
    /// build resumes).
    Build(BuildArgs),
    /// Check every entry against its successors, and the checksums; one line per
    /// slice as it is checked (`--from` resumes at a slice).
    Verify(VerifyArgs),
    /// Wins, draws and losses per part and per material; longest wins.
    Stats(DirArgs),
    /// Look positions up, one answer line per position in input order:
    /// `win <plies> best <move>`, `loss <plies> best <move>`, `loss 0` (no move),
    /// `draw best <move>` or `error <reason>`; exit status 1 if any line is an error.
    Probe(ProbeArgs),
    /// Play won database positions out, engine against engine with the databases,
    /// under the draw rules: how many are won over the board.
    Playout(super::egdb_playout::PlayoutArgs),
    /// Write the bundle of a directory's 2–4-piece slices that the program builds
    /// in (`data/builtin-egdb/VARIANT.wdls`; docs/egdb.md, "Built-in databases").
    Bundle(BundleArgs),
}

/// Arguments of `bundle`.
#[derive(ClapArgs, Debug)]
pub struct BundleArgs {
    /// The directory of a `build --pieces 4` (or larger) and its variant.
    #[command(flatten)]
    pub dir: DirArgs,
    /// The bundle to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// The database directory and the rules of its databases.
#[derive(ClapArgs, Debug)]
pub struct DirArgs {
    /// Database directory (default: `DAMAS_EGDB`, else `$XDG_DATA_HOME/damas/egdb` or
    /// `~/.local/share/damas/egdb`, else `data/egdb`; the first holding databases;
    /// Russian ones in its `russian/` subfolder).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// The rules of the databases.
    #[arg(long, default_value_t = Variant::Brazilian, value_parser = variant_parser())]
    pub variant: Variant,
}

impl DirArgs {
    /// The directory to read (a `DAMAS_EGDB` naming no directory is warned about).
    pub fn resolve(&self) -> PathBuf {
        let env = Env::from_process();
        if self.dir.is_none() {
            if let Some(w) = location::env_warning(&env) {
                eprintln!("damas-egdb: warning: {w}");
            }
        }
        location::read_dir(self.variant, self.dir.as_deref(), &env)
    }

    /// The databases of the directory to read; each damaged file is named on
    /// stderr (it is left out, the rest answers).
    pub fn open(&self) -> Result<Egdb, EgdbError> {
        let db = Egdb::open(self.variant, self.resolve())?;
        warn_damaged(&db);
        Ok(db)
    }
}

/// Name on stderr each damaged file of `db` (left out: positions that need it go
/// unanswered).
fn warn_damaged(db: &Egdb) {
    for f in db.damaged_files() {
        eprintln!("damas-egdb: {f}");
    }
}

/// Arguments of `build`.
#[derive(ClapArgs, Debug)]
pub struct BuildArgs {
    /// Largest piece count to build (1–7; 1–5 with `--legacy`).
    #[arg(long, default_value_t = MAX_PIECES as u8, value_parser = clap::value_parser!(u8).range(1..=MAX_SLICE_PIECES as i64))]
    pub pieces: u8,
    /// Build the first-generation parts (one byte per slot, with distances and
    /// best moves) instead of the compact win/draw/loss slices.
    #[arg(long)]
    pub legacy: bool,
    /// Also build the first-generation parts of 1 … N pieces (N ≤ 5) beside the
    /// slices: they store distances to the end, which the engine follows to win
    /// won endings in the fewest moves (a win/draw/loss slice says only who wins,
    /// and a search alone cannot always find a long win before a counting rule
    /// draws it). About 0.43 GB and a few minutes for N = 5.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=MAX_PIECES as i64))]
    pub distances: u8,
    /// Also write each slice's distance file (`w21b10.dtc`: plies to the next
    /// capture or promotion, one byte per position), which the engine follows to
    /// win long won endings the slices alone cannot. About 2.4 GB for six pieces.
    /// Slices already built without one are solved again.
    #[arg(long, conflicts_with = "legacy")]
    pub dtc: bool,
    /// Database directory to write (default: `DAMAS_EGDB`, else
    /// `$XDG_DATA_HOME/damas/egdb` or `~/.local/share/damas/egdb`; Russian ones in
    /// its `russian/` subfolder).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// The rules to solve (`--legacy` and `--distances` are Brazilian only).
    #[arg(long, default_value_t = Variant::Brazilian, value_parser = variant_parser())]
    pub variant: Variant,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
}

/// A destination that cannot be written, as a database error naming it.
fn destination(e: super::output::DestinationError) -> EgdbError {
    EgdbError::io(e.path, std::io::Error::other(e.reason))
}

/// `bundle`: the built-in databases' file from a directory's slices.
fn run_bundle(a: &BundleArgs) -> Result<ExitCode, EgdbError> {
    let dir = a.dir.resolve();
    super::output::check_file(&a.out).map_err(destination)?;
    let bytes = damas_egdb::slices::builtin::write_bundle(a.dir.variant, &dir, &a.out)?;
    outln!("{}: {bytes} bytes", a.out.display());
    Ok(ExitCode::SUCCESS)
}

/// Arguments of `verify`.
#[derive(ClapArgs, Debug)]
pub struct VerifyArgs {
    /// The database directory.
    #[command(flatten)]
    pub dir: DirArgs,
    /// Start at this slice (a file stem such as `w21b10`), skipping those before it
    /// in build order: resumes an interrupted run.
    #[arg(long, value_parser = parse_slice)]
    pub from: Option<Slice>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

fn parse_slice(stem: &str) -> Result<Slice, String> {
    Slice::from_stem(stem).ok_or_else(|| format!("`{stem}` is not a slice file stem like w21b10"))
}

/// Arguments of `probe`.
#[derive(ClapArgs, Debug)]
pub struct ProbeArgs {
    /// The database directory and variant.
    #[command(flatten)]
    pub dir: DirArgs,
    /// One position.
    #[arg(long, conflicts_with = "fens", required_unless_present = "fens")]
    pub fen: Option<String>,
    /// A file with one FEN per line (blank lines and lines starting with `#` skipped).
    #[arg(long)]
    pub fens: Option<PathBuf>,
}

/// Run a parsed command line. Failures print one line on stderr; exit status 1
/// for a failed check or probe line, 2 for unusable input (files, arguments).
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        EgdbCommand::Build(a) => run_build(&a),
        EgdbCommand::Verify(a) => run_verify(&a),
        EgdbCommand::Stats(a) => run_stats(&a),
        EgdbCommand::Probe(a) => run_probe(&a),
        EgdbCommand::Playout(a) => super::egdb_playout::run(&a),
        EgdbCommand::Bundle(a) => run_bundle(&a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("damas-egdb: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_build(a: &BuildArgs) -> Result<ExitCode, EgdbError> {
    let opts = BuildOptions {
        threads: a.threads,
        progress: !a.quiet,
        dtc: a.dtc,
    };
    let v = a.variant;
    if v != Variant::Brazilian && (a.legacy || a.distances > 0) {
        return Err(EgdbError::LegacyVariant(v));
    }
    let dir = location::write_dir(v, a.dir.as_deref(), &Env::from_process());
    super::output::check_dir(&dir).map_err(destination)?;
    outln!("building {v} databases in {}", dir.display());
    let start = std::time::Instant::now();
    if a.legacy {
        build_for(v, &dir, a.pieces as usize, &opts, print_summary)?;
    } else {
        let slices = build_slices(v, &dir, a.pieces as usize, &opts, print_slice_summary)?;
        let bytes: u64 = slices.iter().map(|s| s.bytes).sum();
        outln!(
            "{} slices, {bytes} bytes ({:.2} MB)",
            slices.len(),
            bytes as f64 / 1e6
        );
        if a.dtc {
            let dtc: u64 = slices.iter().map(|s| s.dtc_bytes).sum();
            outln!(
                "distance files written now: {dtc} bytes ({:.2} MB)",
                dtc as f64 / 1e6
            );
        }
        if a.distances > 0 {
            outln!("distances: parts 1 to {}", a.distances);
            build_for(v, &dir, a.distances as usize, &opts, print_summary)?;
        }
    }
    outln!("done in {:.1} s", start.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

fn print_slice_summary(s: &SliceSummary) {
    if s.reused {
        outln!(
            "{:<12} already built, kept ({} bytes)",
            s.slice.to_string(),
            s.bytes
        );
        return;
    }
    out!(
        "{:<12} {:>11} positions, {:>9} bytes, pair in {:.1} s ({} waves)",
        s.slice.to_string(),
        damas_egdb::slices::slice::SliceIndex::new(s.slice).size(),
        s.bytes,
        s.seconds,
        s.waves
    );
    if let Some(c) = s.counts {
        out!(
            "; {} wins, {} draws, {} losses ({} captures not stored)",
            c.wins,
            c.draws,
            c.losses,
            c.captures
        );
        if s.dtc_bytes > 0 {
            out!(
                "; distances {} bytes, longest win {} to conversion",
                s.dtc_bytes,
                plies(u64::from(c.longest_win))
            );
        }
    }
    outln!();
}

/// A count of plies with the right plural: `1 ply`, `7 plies`.
pub fn plies(n: u64) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

fn print_summary(s: &PartSummary) {
    if s.reused {
        outln!("part {}: already built, kept", s.pieces);
        return;
    }
    let [init, retro, fin, write] = s.phase_seconds;
    let total = init + retro + fin + write;
    out!("part {}: {} slots in {total:.1} s (init {init:.1}, retro {retro:.1} in {} levels, final {fin:.1}, write {write:.1})", s.pieces, part_size(s.pieces), s.levels);
    if let Some(c) = s.counts {
        out!(
            "; {} wins, {} draws, {} losses, {} impossible; longest win {}",
            c.wins,
            c.draws,
            c.losses,
            c.impossible,
            plies(c.longest_win as u64)
        );
    }
    outln!();
}

fn run_verify(a: &VerifyArgs) -> Result<ExitCode, EgdbError> {
    let db = Egdb::open(a.dir.variant, a.dir.resolve())?;
    // Checksums before any consistency check: a damaged file is named first, and
    // positions that disagree only through it are not blamed.
    let mut named: Vec<PathBuf> = Vec::new();
    let mut name = |f: &damas_egdb::BrokenFile| {
        if !named.contains(&f.path) {
            outln!("damaged: {f}");
            named.push(f.path.clone());
        }
    };
    for f in db.damaged_files() {
        name(&f);
    }
    if let (Some(s), Some(d)) = (db.slices(), db.slice_distances()) {
        for f in present_slices(s).into_iter().filter_map(|s| d.file(s)) {
            if let Err(e) = f.check() {
                name(&damas_egdb::BrokenFile::new(f.path(), &e));
            }
        }
    }
    let mut r = if a.from.is_some() {
        VerifyReport::default()
    } else {
        verify(&db, 10)
    };
    if let Some(s) = db.slices() {
        let opts = VerifyOptions {
            from: a.from,
            progress: !a.quiet,
            keep: 10,
        };
        let r2 = verify_slices(s, db.slice_distances(), &opts, |v| {
            let what = if v.damaged {
                "damaged, not checked".to_string()
            } else if v.skipped > 0 {
                format!(
                    "{} violations, {} not checked (they need a damaged file)",
                    v.violations, v.skipped
                )
            } else {
                format!("{} violations", v.violations)
            };
            outln!(
                "{} {:<14} {:>11} positions, {what}, {:.1} s",
                v.slice.stem(),
                v.slice.to_string(),
                v.positions,
                v.seconds
            );
        });
        for n in r2.parts {
            if !r.parts.contains(&n) {
                r.parts.push(n);
            }
        }
        r.entries += r2.entries;
        r.violations += r2.violations;
        r.skipped += r2.skipped;
        r.first.extend(r2.first);
        for f in &r2.damaged {
            name(f);
        }
    }
    for line in &r.first {
        outln!("violation: {line}");
    }
    let parts: Vec<String> = r.parts.iter().map(|p| p.to_string()).collect();
    let checksums = match named.len() {
        0 => "checksums ok".to_string(),
        n => format!(
            "{n} damaged file{} named above",
            if n == 1 { "" } else { "s" }
        ),
    };
    let skipped = if r.skipped > 0 {
        format!(
            ", {} entries not checked for want of a damaged file",
            r.skipped
        )
    } else {
        String::new()
    };
    outln!(
        "checked parts {} ({} entries, {checksums}): {} violations{skipped}",
        parts.join(","),
        r.entries,
        r.violations
    );
    Ok(if r.violations == 0 && named.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn run_stats(a: &DirArgs) -> Result<ExitCode, EgdbError> {
    let db = a.open()?;
    for n in 1..=MAX_PIECES {
        let Some(s) = part_stats(&db, n) else {
            continue;
        };
        let t = s.total;
        outln!(
            "part {n}: {} wins, {} draws, {} losses, {} impossible slots; longest win {}{}",
            t.wins,
            t.draws,
            t.losses,
            t.impossible,
            plies(t.longest_win as u64),
            s.longest_example
                .map(|p| format!(" ({p:?})"))
                .unwrap_or_default()
        );
        for (m, c) in &s.by_material {
            outln!(
                "  {:<14} {:>11} wins {:>11} draws {:>11} losses  longest win {}",
                m.to_string(),
                c.wins,
                c.draws,
                c.losses,
                plies(c.longest_win as u64)
            );
        }
    }
    if let Some(sdb) = db.slices() {
        for s in present_slices(sdb) {
            let distances = db.slice_distances().and_then(|d| d.file(s));
            let Some(c) = slice_counts(sdb, distances, s) else {
                outln!("  {:<14} unreadable (run verify)", s.to_string());
                continue;
            };
            outln!(
                "  {:<14} {:>11} wins {:>11} draws {:>11} losses  ({} captures){}",
                s.to_string(),
                c.wins,
                c.draws,
                c.losses,
                c.captures,
                if distances.is_some() {
                    format!(
                        "  longest win {} to conversion",
                        plies(u64::from(c.longest_win))
                    )
                } else {
                    String::new()
                }
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The answer line for one FEN (see the module docs for the format).
pub fn probe_line(db: &Egdb, fen: &str) -> String {
    let pos = match parse_fen(fen) {
        Ok(p) => p,
        Err(e) => return format!("error {e}"),
    };
    let n = pos.piece_count() as usize;
    if n == 0 {
        return "error no pieces on the board".into();
    }
    if !db.has_part(n) {
        if let Some(f) = db.damaged_file_for(&pos) {
            return format!("error {f}");
        }
        return format!(
            "error {n} pieces: part {n} is not in {}",
            db.dir().display()
        );
    }
    let Some(p) = db.probe(&pos) else {
        return match db.damaged_file_for(&pos) {
            Some(f) => format!("error {f}"),
            None => "error position not in the database".into(),
        };
    };
    let mut line = p.wdl.name().to_string();
    if let Some(d) = p.distance {
        line.push_str(&format!(" {d}"));
        // Slices count plies to the next capture or promotion, parts to the end.
        if !db.has_legacy_part(n) {
            line.push_str(" to-conversion");
        }
    }
    if let Some(m) = p.best {
        line.push_str(&format!(
            " best {}",
            move_to_string(db.variant(), &pos, m, Notation::Algebraic)
        ));
    }
    line
}

/// The hint printed when there are no databases of `variant` (in `explicit`,
/// when given).
pub fn build_hint(variant: Variant, explicit: Option<&std::path::Path>) -> String {
    format!(
        "build them with {}, about 1-2 minutes",
        location::build_hint(variant, explicit)
    )
}

fn run_probe(a: &ProbeArgs) -> Result<ExitCode, EgdbError> {
    let dir = a.dir.resolve();
    let variant = a.dir.variant;
    let hint = || build_hint(variant, a.dir.dir.as_deref());
    let db = match Egdb::open(variant, &dir) {
        Ok(db) => db,
        // No databases at all (rather than damaged ones): an explicit directory
        // is an error, else the built-in ones answer.
        Err(e @ (EgdbError::NoParts { .. } | EgdbError::Io { .. })) => {
            let missing = match &e {
                EgdbError::Io { source, .. } => source.kind() == std::io::ErrorKind::NotFound,
                _ => true,
            };
            if !missing {
                return Err(e);
            }
            if a.dir.dir.is_some() {
                eprintln!(
                    "damas-egdb: no {variant} endgame databases in {}; {}",
                    dir.display(),
                    hint()
                );
                return Ok(ExitCode::from(2));
            }
            eprintln!(
                "damas-egdb: no {variant} endgame databases in {}, answering from the 1-4-piece ones built into the program; for 5 pieces {}",
                dir.display(),
                hint()
            );
            Egdb::built_in(variant)?
        }
        Err(e) => return Err(e),
    };
    warn_damaged(&db);
    let mut failed = false;
    let mut answer = |fen: &str| {
        let line = probe_line(&db, fen);
        failed |= line.starts_with("error");
        outln!("{line}");
    };
    if let Some(fen) = &a.fen {
        answer(fen);
    }
    if let Some(path) = &a.fens {
        let file = std::fs::File::open(path).map_err(|e| EgdbError::io(path, e))?;
        for line in BufReader::new(file).lines() {
            let line = line.map_err(|e| EgdbError::io(path, e))?;
            let t = line.trim();
            if !t.is_empty() && !t.starts_with('#') {
                answer(t);
            }
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn ply_counts_have_the_right_plural() {
        assert_eq!(super::plies(1), "1 ply");
        assert_eq!(super::plies(0), "0 plies");
        assert_eq!(super::plies(7), "7 plies");
    }
}
