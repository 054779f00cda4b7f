//! The damas engine: position evaluation ([`eval`]), the search ([`search`]) and its
//! transposition tables ([`tt`]), time management ([`time`]), the opening book ([`book`]),
//! strength levels ([`level`]), choosing a move to play ([`think`]), the engine's
//! settings ([`settings`]) and what a score proves, in words ([`verdict`]). The
//! search consults perfect knowledge through the endgame databases'
//! [`damas_egdb::oracle::Oracle`].
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use damas_engine::search::{Limits, SearchOptions, Searcher};
//! use damas_rules::Position;
//!
//! let mut searcher = Searcher::new(SearchOptions::default().with_hash_mb(1));
//! let stop = AtomicBool::new(false);
//! let result = searcher.search(&Position::start(), &[], &Limits::depth(6), &stop, &mut |_| {});
//! assert!(result.best.is_some());
//! assert_eq!(result.depth, 6);
//! ```

pub mod book;
pub mod engine;
pub mod eval;
pub mod level;
pub mod score;
pub mod search;
pub mod settings;
pub mod think;
pub mod time;
pub mod tt;
pub mod verdict;

pub use score::Score;
