//! The standard place of the endgame databases.
//!
//! Candidates, in order of precedence:
//! 1. an explicit directory (`--egdb DIR`, `--dir DIR`, the Hub `egdb-dir` parameter);
//! 2. the environment variable `DAMAS_EGDB`;
//! 3. the platform data directory: `$XDG_DATA_HOME/damas/egdb`, else
//!    `~/.local/share/damas/egdb` (`%APPDATA%\damas\egdb` on Windows);
//! 4. the legacy `data/egdb` in the current directory.
//!
//! [`write_place`] is where `damas-egdb build` writes (the first of 1–3, the legacy
//! place only without a home directory).
//!
//! The Brazilian databases live in the place itself, another variant's in a
//! subfolder named for it ([`variant_dir`]: `russian/`). Every function below takes
//! the variant: [`find`] is the first candidate that holds its databases, which
//! `damas play`, `analyze` and `hub` open; an explicit directory is taken as it is,
//! or its subfolder when it holds the variant's files.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::probe::Egdb;
use crate::DEFAULT_DIR;
use damas_rules::Variant;

/// The environment variable naming the database directory.
pub const ENV_VAR: &str = "DAMAS_EGDB";

/// The command that builds the databases, for hints.
pub const BUILD_HINT: &str = "damas-egdb build --pieces 5";

/// How to run `damas-egdb` from a source checkout, where `cargo run` built it
/// but did not put it on the PATH.
pub const CARGO_RUN: &str = "cargo run --release --bin damas-egdb --";

/// The hint naming the command that builds `variant`'s databases (into `dir`
/// when given), both as installed and from a source checkout.
pub fn build_hint(variant: Variant, dir: Option<&Path>) -> String {
    let mut args = String::new();
    if variant != Variant::Brazilian {
        args.push_str(&format!(" --variant {variant}"));
    }
    if let Some(d) = dir {
        args.push_str(&format!(" --dir {}", d.display()));
    }
    let cargo = BUILD_HINT.replacen("damas-egdb", CARGO_RUN, 1);
    format!("`{BUILD_HINT}{args}` (from the source tree: `{cargo}{args}`)")
}

/// A warning when `DAMAS_EGDB` is set but names no directory: the other places
/// are searched instead, and a mistyped path would otherwise go unnoticed.
pub fn env_warning(env: &Env) -> Option<String> {
    let dir = PathBuf::from(env.egdb.clone().filter(|s| !s.is_empty())?);
    (!dir.is_dir()).then(|| {
        format!(
            "{ENV_VAR}={} is not a directory; the databases are looked for elsewhere",
            dir.display()
        )
    })
}

/// The parts of the environment the location depends on (injected for tests).
#[derive(Clone, Debug, Default)]
pub struct Env {
    /// `DAMAS_EGDB`.
    pub egdb: Option<OsString>,
    /// `XDG_DATA_HOME`.
    pub xdg_data_home: Option<OsString>,
    /// `HOME` (`APPDATA` on Windows).
    pub home: Option<OsString>,
}

impl Env {
    /// The environment of this process.
    pub fn from_process() -> Env {
        let home_var = if cfg!(windows) { "APPDATA" } else { "HOME" };
        Env {
            egdb: std::env::var_os(ENV_VAR),
            xdg_data_home: std::env::var_os("XDG_DATA_HOME"),
            home: std::env::var_os(home_var),
        }
    }

    fn data_dir(&self) -> Option<PathBuf> {
        let non_empty = |v: &Option<OsString>| v.clone().filter(|s| !s.is_empty());
        // XDG: a relative XDG_DATA_HOME is invalid and ignored.
        if let Some(x) = non_empty(&self.xdg_data_home).map(PathBuf::from) {
            if x.is_absolute() {
                return Some(x.join("damas").join("egdb"));
            }
        }
        let home = PathBuf::from(non_empty(&self.home)?);
        Some(if cfg!(windows) {
            home.join("damas").join("egdb")
        } else {
            home.join(".local").join("share").join("damas").join("egdb")
        })
    }
}

/// The directory of `variant`'s databases under the databases directory `base`:
/// `base` itself for Brazilian (where they always were), else `base/russian`.
pub fn variant_dir(base: &Path, variant: Variant) -> PathBuf {
    match variant {
        Variant::Brazilian => base.to_path_buf(),
        other => base.join(other.name()),
    }
}

/// Every candidate directory of `variant`'s databases, best first: an explicit
/// directory as it is and then its [`variant_dir`], the standard places' variant
/// subfolders.
pub fn candidates(variant: Variant, explicit: Option<&Path>, env: &Env) -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Some(dir) = explicit {
        v.push(dir.to_path_buf());
    }
    for base in places(explicit, env) {
        let dir = variant_dir(&base, variant);
        if !v.contains(&dir) {
            v.push(dir);
        }
    }
    v
}

/// Where to build `variant`'s databases: an explicit directory as it is, else
/// the [`variant_dir`] of [`write_place`]'s place.
pub fn write_dir(variant: Variant, explicit: Option<&Path>, env: &Env) -> PathBuf {
    match explicit {
        Some(dir) => dir.to_path_buf(),
        None => variant_dir(&write_place(None, env), variant),
    }
}

/// Whether `dir` holds databases of `variant` that open (the files' bodies are
/// read when they are opened for use, not here).
pub fn holds_databases(variant: Variant, dir: &Path) -> bool {
    Egdb::exists(variant, dir)
}

/// The first candidate of [`candidates`] holding `variant`'s databases. With
/// an explicit directory only it and its variant subfolder are considered.
pub fn find(variant: Variant, explicit: Option<&Path>, env: &Env) -> Option<PathBuf> {
    let all = candidates(variant, explicit, env);
    let considered = match explicit {
        Some(dir) => {
            let sub = variant_dir(dir, variant);
            all.into_iter().filter(|d| d == dir || *d == sub).collect()
        }
        None => all,
    };
    considered.into_iter().find(|d| holds_databases(variant, d))
}

/// The directory for reading commands of `variant`: the first candidate holding
/// its databases, else [`write_dir`].
pub fn read_dir(variant: Variant, explicit: Option<&Path>, env: &Env) -> PathBuf {
    find(variant, explicit, env).unwrap_or_else(|| write_dir(variant, explicit, env))
}

/// Open `variant`'s databases for play: those of the explicit directory (itself or
/// its [`variant_dir`]; when neither opens, the error of opening it, which names a
/// file of other rules), else those of the first standard place holding them
/// (`Ok(None)` when none does).
pub fn open(
    variant: Variant,
    explicit: Option<&Path>,
    env: &Env,
) -> Result<Option<Egdb>, crate::EgdbError> {
    match (find(variant, explicit, env), explicit) {
        (Some(dir), _) => Egdb::open(variant, dir).map(Some),
        (None, Some(dir)) => Egdb::open(variant, dir).map(Some),
        (None, None) => Ok(None),
    }
}

/// Every standard place, best first, with an explicit directory first (see the
/// module documentation).
pub fn places(explicit: Option<&Path>, env: &Env) -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Some(dir) = explicit {
        v.push(dir.to_path_buf());
    }
    if let Some(dir) = env.egdb.clone().filter(|s| !s.is_empty()) {
        v.push(PathBuf::from(dir));
    }
    v.extend(env.data_dir());
    v.push(PathBuf::from(DEFAULT_DIR));
    v
}

/// Where to build databases: the explicit directory, else `DAMAS_EGDB`, else the
/// platform data directory, else (no home directory) the legacy `data/egdb`.
pub fn write_place(explicit: Option<&Path>, env: &Env) -> PathBuf {
    places(explicit, env).swap_remove(0)
}

/// The first standard place holding databases of any rules (Brazilian ones in it,
/// the others in their [`variant_dir`]): a program that may play either rules opens
/// the variant's own from there.
pub fn find_place(env: &Env) -> Option<PathBuf> {
    places(None, env).into_iter().find(|base| {
        Variant::ALL
            .iter()
            .any(|&v| holds_databases(v, &variant_dir(base, v)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(egdb: Option<&str>, xdg: Option<&str>, home: Option<&str>) -> Env {
        Env {
            egdb: egdb.map(Into::into),
            xdg_data_home: xdg.map(Into::into),
            home: home.map(Into::into),
        }
    }

    #[test]
    fn a_damas_egdb_that_names_no_directory_is_warned_about() {
        let here = tempfile::tempdir().unwrap();
        let nowhere = here.path().join("no-such-dir");
        let w = env_warning(&env(nowhere.to_str(), None, None)).unwrap();
        assert!(w.contains("DAMAS_EGDB") && w.contains("no-such-dir"), "{w}");
        assert_eq!(env_warning(&env(here.path().to_str(), None, None)), None);
        assert_eq!(env_warning(&env(None, None, None)), None);
        assert_eq!(env_warning(&env(Some(""), None, None)), None);
    }

    #[test]
    fn the_build_hint_names_the_installed_and_the_cargo_command() {
        let h = build_hint(Variant::Russian, Some(Path::new("d")));
        assert!(
            h.contains("`damas-egdb build --pieces 5 --variant russian --dir d`"),
            "{h}"
        );
        assert!(
            h.contains("`cargo run --release --bin damas-egdb -- build --pieces 5 --variant russian --dir d`"),
            "{h}"
        );
    }

    #[test]
    fn precedence_explicit_env_data_dir_legacy() {
        let e = env(Some("/e"), Some("/xdg"), Some("/home/u"));
        assert_eq!(write_place(Some(Path::new("/x")), &e), PathBuf::from("/x"));
        assert_eq!(write_place(None, &e), PathBuf::from("/e"));
        let e = env(None, Some("/xdg"), Some("/home/u"));
        assert_eq!(write_place(None, &e), PathBuf::from("/xdg/damas/egdb"));
        if !cfg!(windows) {
            let e = env(None, Some("relative"), Some("/home/u"));
            assert_eq!(
                write_place(None, &e),
                PathBuf::from("/home/u/.local/share/damas/egdb")
            );
        }
        let e = env(None, None, None);
        assert_eq!(write_place(None, &e), PathBuf::from(DEFAULT_DIR));
        assert_eq!(
            places(None, &env(Some("/e"), None, Some("/h"))).last(),
            Some(&PathBuf::from(DEFAULT_DIR))
        );
    }

    #[test]
    fn russian_databases_live_in_a_subfolder_of_each_place() {
        let e = env(Some("/e"), Some("/xdg"), Some("/home/u"));
        let ru = Variant::Russian;
        assert_eq!(
            variant_dir(Path::new("/d"), ru),
            PathBuf::from("/d/russian")
        );
        assert_eq!(
            variant_dir(Path::new("/d"), Variant::Brazilian),
            PathBuf::from("/d")
        );
        assert_eq!(write_dir(ru, None, &e), PathBuf::from("/e/russian"));
        assert_eq!(
            write_dir(ru, None, &env(None, Some("/xdg"), None)),
            PathBuf::from("/xdg/damas/egdb/russian")
        );
        assert_eq!(
            write_dir(ru, Some(Path::new("/x")), &e),
            PathBuf::from("/x")
        );
        assert_eq!(
            candidates(ru, Some(Path::new("/x")), &e)[..3],
            [
                PathBuf::from("/x"),
                PathBuf::from("/x/russian"),
                PathBuf::from("/e/russian")
            ]
        );
        assert_eq!(
            write_dir(Variant::Brazilian, None, &e),
            write_place(None, &e)
        );
    }

    #[test]
    fn find_for_a_variant_skips_the_other_variants_files() {
        let base = tempfile::tempdir().unwrap();
        crate::build(base.path(), 2, &Default::default(), |_| {}).unwrap();
        let ru = base.path().join("russian");
        crate::slices::build::build_slices(Variant::Russian, &ru, 2, &Default::default(), |_| {})
            .unwrap();
        let e = Env::default();
        // The base holds Brazilian files: Russian is found in its subfolder.
        assert_eq!(
            find(Variant::Russian, Some(base.path()), &e),
            Some(ru.clone())
        );
        assert_eq!(find(Variant::Russian, Some(&ru), &e), Some(ru.clone()));
        assert_eq!(
            find(Variant::Brazilian, Some(base.path()), &e),
            Some(base.path().to_path_buf())
        );
        assert_eq!(find(Variant::Brazilian, Some(&ru), &e), None);
        let from_env = Env {
            egdb: Some(base.path().into()),
            ..Env::default()
        };
        assert_eq!(find(Variant::Russian, None, &from_env), Some(ru));
    }

    #[test]
    fn find_skips_candidates_without_databases() {
        let full = tempfile::tempdir().unwrap();
        crate::build(full.path(), 2, &Default::default(), |_| {}).unwrap();
        let empty = tempfile::tempdir().unwrap();
        // DAMAS_EGDB empty, data dir full: the data dir is found.
        let xdg = tempfile::tempdir().unwrap();
        let data = xdg.path().join("damas").join("egdb");
        crate::build(&data, 1, &Default::default(), |_| {}).unwrap();
        let e = Env {
            egdb: Some(empty.path().into()),
            xdg_data_home: Some(xdg.path().into()),
            home: None,
        };
        assert_eq!(find(Variant::Brazilian, None, &e), Some(data.clone()));
        assert_eq!(read_dir(Variant::Brazilian, None, &e), data);
        // An explicit directory wins and is the only one considered.
        assert_eq!(
            find(Variant::Brazilian, Some(full.path()), &e),
            Some(full.path().to_path_buf())
        );
        assert_eq!(find(Variant::Brazilian, Some(empty.path()), &e), None);
        // DAMAS_EGDB with databases beats the data dir.
        let e = Env {
            egdb: Some(full.path().into()),
            ..e
        };
        assert_eq!(
            find(Variant::Brazilian, None, &e),
            Some(full.path().to_path_buf())
        );
    }
}
