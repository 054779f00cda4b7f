//! damas — the application over the engine's crates: the Hub protocol engine
//! ([`hub`]), engine matches ([`mod@matches`]), game review ([`review`]), the thesis'
//! node-count study ([`study`]), training ([`train`]), book building
//! ([`book_build`]), database wins played out ([`egdb_playout`]), and, with their
//! features, the terminal UI and the command lines.
//!
//! The layers below are their own crates: [`damas_rules`] (the rules),
//! [`damas_engine`] (evaluation and search) and [`damas_egdb`] (endgame databases).

pub mod book_build;
pub mod egdb_playout;
pub mod hub;
pub mod matches;
pub mod plural;
pub mod review;
pub mod study;
pub mod train;

#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "tui")]
pub mod ui;
#[cfg(feature = "web")]
pub mod web;
