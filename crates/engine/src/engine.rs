//! The engine assembler: the one way from the settings ([`EngineSettings`]) and where
//! the databases and weights come from ([`Sources`]) to a ready engine ([`Engine`]):
//! its evaluation, weights, book, databases, table and threads. The Hub, match
//! players, the terminal game, analysis, review, self-play, playouts, book building
//! and the study all assemble their engines here.

use std::path::Path;
use std::sync::Arc;

use crate::book::{self, Book};
use crate::eval::{Evaluation, Trained, WeightsError};
use crate::level::Strength;
use crate::search::{SearchOptions, Searcher, TableKind};
use crate::settings::EngineSettings;
use crate::time::MoveOverhead;
use crate::tt::alloc::TableAllocError;
use damas_egdb::oracle::Oracle;
use damas_rules::variant::Variant;

/// The endgame databases an engine is given.
#[derive(Clone, Default)]
pub enum Databases {
    /// None.
    #[default]
    None,
    /// These, which switch the `egdb` technique on: opening databases is how every
    /// front end asks for them.
    Search(Arc<dyn Oracle>),
    /// These, kept at hand without touching the techniques: the `egdb` technique
    /// consults them only when the techniques chosen include it.
    AtHand(Arc<dyn Oracle>),
}

impl Databases {
    /// `Search` with `found`, or `None` when nothing was found.
    pub fn search(found: Option<Arc<dyn Oracle>>) -> Databases {
        found.map_or(Databases::None, Databases::Search)
    }

    /// [`with_built_in`] as the databases an engine searches with.
    pub fn found_or_built_in(
        found: Option<Arc<dyn Oracle>>,
        variant: Variant,
        builtin: bool,
    ) -> Databases {
        Databases::search(with_built_in(found, variant, builtin))
    }
}

/// The databases of `variant` to search with: `found` when it holds those rules,
/// else the 1–4-piece databases built into the program when `builtin` (the
/// `builtin-egdb` setting). The one place the built-in fallback is decided.
pub fn with_built_in(
    found: Option<Arc<dyn Oracle>>,
    variant: Variant,
    builtin: bool,
) -> Option<Arc<dyn Oracle>> {
    found.filter(|db| db.variant() == variant).or_else(|| {
        builtin
            .then(|| damas_egdb::oracle::built_in(variant))
            .flatten()
    })
}

/// How the table is used beyond what the settings say: the study's and training's
/// protocols for the thesis' table. The default is the engine's own use.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct TableUse {
    /// Keep the thesis' table across searches instead of clearing it at each.
    pub keep: bool,
    /// Probe and store at horizon nodes too, as the thesis does.
    pub leaves: bool,
    /// Use a stored value only at exactly the depth required.
    pub exact_draft: bool,
}

/// Where an engine's databases and weights come from, beside its settings.
#[derive(Clone, Default)]
pub struct Sources {
    /// The endgame databases (a database of other rules than the settings' is
    /// not used).
    pub databases: Databases,
    /// An evaluation that replaces the one the settings name (weights read from a
    /// file, a copy with noise); `None`: the settings' `eval` under their rules.
    pub evaluation: Option<Evaluation>,
    /// How the table is used.
    pub table: TableUse,
}

impl Sources {
    /// The evaluation of the weight file `path`, when one is named: the trained
    /// evaluation with those weights, under whichever rules are played.
    pub fn weights(path: Option<&Path>) -> Result<Option<Evaluation>, WeightsError> {
        path.map(|p| Ok(Evaluation::Trained(Arc::new(Trained::from_file(p)?))))
            .transpose()
    }
}

/// The search options of `settings` with `sources`: the one place where they are
/// put together.
pub fn search_options(settings: &EngineSettings, sources: &Sources) -> SearchOptions {
    let options = SearchOptions::default()
        .with_variant(settings.variant)
        .with_techniques(settings.techniques)
        .with_hash_mb(settings.hash_mb)
        .with_threads(settings.threads)
        .with_tuning(settings.tuning)
        .with_contempt(settings.contempt)
        .with_tt_frontier(settings.tt_frontier)
        .with_lines(settings.lines)
        .with_win_policy(settings.egdb_wins)
        .with_eval(
            sources
                .evaluation
                .clone()
                .unwrap_or_else(|| settings.eval.evaluation(settings.variant)),
        );
    let options = match settings.table {
        TableKind::Thesis => options.with_thesis_table(settings.tt_bits),
        TableKind::Replacing => options,
    };
    let table = sources.table;
    let options = options
        .with_clear_tt(!table.keep)
        .with_tt_leaves(table.leaves)
        .with_exact_draft(table.exact_draft);
    match &sources.databases {
        Databases::None => options,
        Databases::Search(db) => options.with_database(Some(db.clone())),
        Databases::AtHand(db) => options.with_oracle(Some(db.clone())),
    }
}

/// A ready engine: the searcher and what chooses a move beside it.
pub struct Engine {
    /// The searcher, with its tables.
    pub searcher: Searcher,
    /// The shipped opening book of the settings' rules, when `book` is on.
    pub book: Option<&'static Book>,
    /// Playing strength.
    pub strength: Strength,
    /// Time lost outside the search on every move.
    pub overhead: MoveOverhead,
}

impl Engine {
    /// The engine of `settings` with `sources` (aborts where its table's memory
    /// cannot be had: [`Engine::try_new`] says so instead).
    pub fn new(settings: &EngineSettings, sources: &Sources) -> Engine {
        Engine::try_new(settings, sources).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The engine of `settings` with `sources`, or the error when the memory of its
    /// table cannot be had (a `hash` too large for the machine).
    pub fn try_new(
        settings: &EngineSettings,
        sources: &Sources,
    ) -> Result<Engine, TableAllocError> {
        Ok(Engine {
            searcher: Searcher::try_new(search_options(settings, sources))?,
            book: settings.book.then(|| book::embedded_book(settings.variant)),
            strength: settings.strength,
            overhead: settings.move_overhead,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_databases_stand_in_when_asked() {
        let built_in = with_built_in(None, Variant::Russian, true).expect("built in");
        assert_eq!(
            (built_in.variant(), built_in.max_pieces()),
            (Variant::Russian, 4)
        );
        assert!(with_built_in(None, Variant::Brazilian, false).is_none());
        // Databases of other rules are not used.
        let russian = with_built_in(Some(built_in), Variant::Brazilian, false);
        assert!(russian.is_none());
    }
    use crate::search::WinPolicy;

    #[test]
    fn the_engine_keeps_its_settings() {
        let mut settings = EngineSettings::default();
        settings.set("tt-bits", "18").unwrap();
        settings.set("strength", "3").unwrap();
        settings.set("book", "false").unwrap();
        let engine = Engine::new(&settings, &Sources::default());
        let options = engine.searcher.options();
        assert_eq!(options.table(), TableKind::Thesis);
        assert_eq!(options.tt_bits(), 18);
        assert_eq!(options.egdb_wins(), WinPolicy::Play);
        assert!(options.oracle().is_none() && !options.techniques().egdb);
        assert_eq!(engine.strength.number(), 3);
        assert!(engine.book.is_none());
    }

    #[test]
    fn a_replacing_evaluation_and_a_table_use_are_taken() {
        let settings = EngineSettings::default();
        let sources = Sources {
            evaluation: Some(Evaluation::Material),
            table: TableUse {
                keep: true,
                leaves: true,
                exact_draft: false,
            },
            ..Sources::default()
        };
        let options = search_options(&settings, &sources);
        assert_eq!(options.evaluation().name(), "material");
        assert!(!options.clear_tt() && options.tt_leaves() && !options.tt_exact_draft());
    }
}
