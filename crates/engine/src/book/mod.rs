//! The opening book: a tree of opening positions, built by searching
//! (`damas::book_build`), stored in a small versioned file ([`mod@file`]) that is embedded in the
//! binary, and played from by weighted random choice ([`probe`]) in `play`, the
//! Hub engine and (when asked) `match`. `analyze` never uses it.

pub mod file;
pub mod probe;

pub use file::{Book, BookError, BookMove, Weight};
pub use probe::choose;

/// The book shipped with the engine, built by `damas book build` (see the README).
pub const EMBEDDED: &[u8] = include_bytes!("../../../../data/book/opening.book");
