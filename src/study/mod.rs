//! The node-count study of thesis §6.6 (docs/node-study.md): a random test set, searches of it
//! with every technique combination written as CSV rows, and a Markdown/SVG report;
//! plus the branching-factor and transposition-table probe statistics of §6.5.
//!
//! The binary `damas-nodes` only parses its command line ([`crate::cli::study`], with
//! the `cli` feature) and calls in here.

pub mod branching;
pub mod config;
pub mod csv;
#[cfg(feature = "plot")]
pub mod plot;
pub mod positions;
pub mod report;
pub mod run;
pub mod ttprobe;
