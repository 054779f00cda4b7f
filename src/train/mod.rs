//! Training the evaluation: self-play games ([`selfplay`]) stored in a data file
//! ([`data`]), a trainer fitting the weights of [`damas_engine::eval::features`] to their
//! results ([`fit`]), a network fitted over fixed linear weights ([`net`]), and the
//! training curve ([`curve`]). The binary is
//! `damas-train` (`tools/train.rs`; its command line is `crate::cli::train`);
//! `docs/training.md` tells how the shipped weights were made.

#[cfg(feature = "plot")]
pub mod curve;
pub mod data;
pub mod fit;
pub mod net;
pub mod selfplay;
