//! damas — a Brazilian-checkers engine.
//!
//! The rules core: [`Position`] (three 32-bit masks and the side to move), [`movegen`]
//! for the Brazilian rules, [`fen`] and [`notation`] for reading and writing, and
//! [`perft`] to count move-tree leaves.

pub mod bitboard;
pub mod book;
pub mod clock;
pub mod drawrules;
pub mod eval;
pub mod fen;
pub mod fsutil;
pub mod game;
pub mod hub;
pub mod level;
pub mod matches;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod oracle;
pub mod padded;
pub mod pdn;
pub mod perft;
mod perft_bulk;
pub mod position;
mod prefetch;
pub mod progress;
pub mod review;
pub mod score;
pub mod search;
pub mod shared_tt;
pub mod square;
pub mod study;
pub mod train;
pub mod tt;
#[cfg(feature = "tui")]
pub mod ui;

pub use bitboard::{Bitboard, Dir};
pub use fen::{parse_fen, to_fen, FenError};
pub use moves::{Move, MoveList};
pub use position::{Color, Kind, Piece, Position};
pub use square::Square;
#[cfg(feature = "cli")]
pub mod cli;
pub mod egdb;
pub use score::Score;
