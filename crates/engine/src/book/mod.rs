//! The opening book: a tree of opening positions, built by searching
//! (`damas::book_build`), stored in a small versioned file ([`mod@file`]) that is embedded in the
//! binary, and played from by weighted random choice ([`probe`]) in `play`, the
//! Hub engine and (when asked) `match`. `analyze` never uses it.

pub mod file;
pub mod probe;

pub use file::{move_by_squares, Book, BookError, BookMove, Weight};
pub use probe::choose;

use damas_rules::variant::Variant;

/// The Brazilian book shipped with the engine, built by `damas book build` (see the README).
pub const EMBEDDED: &[u8] = include_bytes!("../../../../data/book/opening.book");
/// The Russian book shipped with the engine, built by `damas book build --variant russian`.
pub const EMBEDDED_RUSSIAN: &[u8] = include_bytes!("../../../../data/book/opening-russian.book");

/// The bytes of the book shipped for `variant`.
pub fn embedded_bytes(variant: Variant) -> &'static [u8] {
    match variant {
        Variant::Brazilian => EMBEDDED,
        Variant::Russian => EMBEDDED_RUSSIAN,
    }
}

/// The book shipped for `variant`, read once and shared ([`Book::embedded`]).
pub fn embedded_book(variant: Variant) -> &'static Book {
    static CELLS: [std::sync::OnceLock<Book>; Variant::ALL.len()] =
        [const { std::sync::OnceLock::new() }; Variant::ALL.len()];
    let i = Variant::ALL
        .iter()
        .position(|&v| v == variant)
        .expect("every variant is in Variant::ALL");
    CELLS[i].get_or_init(|| Book::embedded(variant))
}
