//! The opening book file: a small versioned binary format, read with typed errors.
//!
//! Layout (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `DAMASBK\x1a` |
//! | 2 | format version ([`VERSION`]) |
//! | 2 | the rules' PDN `GameType` number (0 in files written before the field: Brazilian) |
//! | 4 | number of positions |
//! | 4 | body length in bytes |
//! | 4 | CRC-32 of the body |
//!
//! The body holds the positions sorted by their masks, each as white, black and
//! kings masks (`u32` each), the side to move (`u8`, 0 White, 1 Black) and the
//! number of moves (`u8`), then per move its start and end square indices (`u8`
//! each), the captured squares (`u32` mask) and a weight (`u16`). Moves are stored
//! by their squares, not by their index in the move generator's output, so the file
//! survives changes to the generator's order (a Russian capture that crowns a man
//! midway is the legal move with those squares).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use damas_rules::bitboard::Bitboard;
use damas_rules::movegen::legal_moves;
use damas_rules::moves::Move;
use damas_rules::position::{Color, Position};
use damas_rules::square::Square;
use damas_rules::variant::{GameType, Variant};

/// The first bytes of every book file.
pub const MAGIC: [u8; 8] = *b"DAMASBK\x1a";
/// The format version this build reads and writes.
pub const VERSION: u16 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 24;
/// Bytes of one position before its moves.
const POSITION_LEN: usize = 14;
/// Bytes of one stored move.
const MOVE_LEN: usize = 8;

/// How often a book move is chosen, relative to the other moves of its position.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Weight(pub u16);

/// One move of a book position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its relative weight (0 never chosen).
    pub weight: Weight,
}

/// Why a book file was refused.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read or written.
    #[error("book file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Fewer bytes than the header.
    #[error("book is {len} bytes, shorter than its {HEADER_LEN}-byte header (truncated)")]
    TooShort {
        /// The file's length.
        len: usize,
    },
    /// The magic bytes are wrong: not a book.
    #[error("not a damas opening book (wrong magic bytes)")]
    BadMagic,
    /// The header names rules this build does not play.
    #[error("book for PDN GameType {0}, which this damas does not play")]
    UnknownVariant(GameType),
    /// The book was built for other rules than asked for.
    #[error("book for {found} rules, not {expected}")]
    WrongVariant {
        /// The rules of the book.
        found: Variant,
        /// The rules asked for.
        expected: Variant,
    },
    /// A format version this build does not read.
    #[error("book format version {found}; this damas reads version {VERSION}")]
    WrongVersion {
        /// The version in the file.
        found: u16,
    },
    /// The body is shorter or longer than the header says.
    #[error("book body is {found} bytes, the header says {expected} (truncated or padded)")]
    Length {
        /// Length in the header.
        expected: u32,
        /// Length found.
        found: usize,
    },
    /// The body's checksum does not match.
    #[error("book checksum mismatch (stored {stored:08x}, computed {computed:08x}): the file is damaged")]
    Checksum {
        /// Checksum in the header.
        stored: u32,
        /// Checksum of the body.
        computed: u32,
    },
    /// The body ends inside an entry.
    #[error("book entry {entry} is cut off at byte {offset} of the body")]
    Truncated {
        /// Entry number (0-based).
        entry: usize,
        /// Offset in the body.
        offset: usize,
    },
    /// Bytes left after the last entry.
    #[error("{extra} bytes after the last of {count} book entries")]
    TrailingBytes {
        /// The header's count.
        count: u32,
        /// Bytes left over.
        extra: usize,
    },
    /// An entry does not hold a valid position.
    #[error("book entry {entry}: invalid position ({why})")]
    BadPosition {
        /// Entry number.
        entry: usize,
        /// The position's problem.
        why: String,
    },
    /// The same position twice.
    #[error("book entry {entry}: the position is stored twice")]
    Duplicate {
        /// Entry number.
        entry: usize,
    },
    /// A position without moves.
    #[error("book entry {entry}: no moves")]
    NoMoves {
        /// Entry number.
        entry: usize,
    },
    /// A stored move is not legal in its position.
    #[error("book entry {entry}, move {index}: not a legal move in its position")]
    IllegalMove {
        /// Entry number.
        entry: usize,
        /// Move number within the entry.
        index: usize,
    },
}

/// An opening book for one rule variant: positions and the moves to play in them,
/// with weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    variant: Variant,
    entries: HashMap<Position, Vec<BookMove>>,
}

/// The legal move among `legal` going from `from` to `to` and capturing `captured`:
/// how moves stored by their squares are read back.
pub fn move_by_squares(
    legal: &[Move],
    from: Square,
    to: Square,
    captured: Bitboard,
) -> Option<Move> {
    legal
        .iter()
        .copied()
        .find(|m| m.from() == from && m.to() == to && m.captured() == captured)
}

/// The sort key of a position in the file.
fn order_key(pos: &Position) -> (u32, u32, u32, u8) {
    (
        pos.white().0,
        pos.black().0,
        pos.kings().0,
        u8::from(pos.side_to_move() == Color::Black),
    )
}

impl Book {
    /// An empty book for the rules of `variant`.
    pub fn new(variant: Variant) -> Book {
        Book {
            variant,
            entries: HashMap::new(),
        }
    }

    /// The rules the book is for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The book shipped with the engine for `variant` (`data/book/opening*.book`). The
    /// embedded files are checked by the tests; should one ever fail to read, the
    /// engine plays without a book rather than stopping.
    pub fn embedded(variant: Variant) -> Book {
        Book::from_bytes_for(super::embedded_bytes(variant), variant)
            .unwrap_or_else(|_| Book::new(variant))
    }

    /// Store `moves` for `pos` (replacing what was there).
    pub fn insert(&mut self, pos: Position, moves: Vec<BookMove>) {
        self.entries.insert(pos, moves);
    }

    /// The moves stored for `pos`.
    pub fn moves(&self, pos: &Position) -> Option<&[BookMove]> {
        self.entries.get(pos).map(Vec::as_slice)
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no positions.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every position with its moves (in no particular order).
    pub fn iter(&self) -> impl Iterator<Item = (&Position, &[BookMove])> {
        self.entries.iter().map(|(p, m)| (p, m.as_slice()))
    }

    /// The longest line of book moves (and forced moves between them) from the start
    /// position, in plies.
    pub fn depth(&self) -> u32 {
        let mut depth = 0;
        let mut level = vec![Position::start()];
        let mut seen = std::collections::HashSet::new();
        while !level.is_empty() {
            let mut next = Vec::new();
            for pos in level {
                // Forced moves are not stored (they need no choice): follow them.
                let legal = legal_moves(self.variant, &pos);
                let moves: Vec<Move> = match self.moves(&pos) {
                    Some(m) => m.iter().map(|m| m.mv).collect(),
                    None if legal.len() == 1 => vec![legal[0]],
                    None => Vec::new(),
                };
                for mv in moves {
                    let child = pos.play(mv);
                    if seen.insert(child) {
                        next.push(child);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            depth += 1;
            level = next;
        }
        depth
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut keys: Vec<&Position> = self.entries.keys().collect();
        keys.sort_by_key(|p| order_key(p));
        let mut body = Vec::new();
        for pos in keys {
            let moves = &self.entries[pos];
            let (w, b, k, side) = order_key(pos);
            for mask in [w, b, k] {
                body.extend_from_slice(&mask.to_le_bytes());
            }
            body.push(side);
            // At most 255 moves are stored; no position has more legal moves kept.
            let n = moves.len().min(usize::from(u8::MAX));
            body.push(n as u8);
            for m in &moves[..n] {
                body.push(m.mv.from().index() as u8);
                body.push(m.mv.to().index() as u8);
                body.extend_from_slice(&m.mv.captured().0.to_le_bytes());
                body.extend_from_slice(&m.weight.0.to_le_bytes());
            }
        }
        let mut out = Vec::with_capacity(HEADER_LEN + body.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.variant.game_type().0.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Read a book for the rules of `variant` from its bytes: a book for other rules
    /// is refused.
    pub fn from_bytes_for(bytes: &[u8], variant: Variant) -> Result<Book, BookError> {
        let book = Book::from_bytes(bytes)?;
        if book.variant != variant {
            return Err(BookError::WrongVariant {
                found: book.variant,
                expected: variant,
            });
        }
        Ok(book)
    }

    /// Read a book from its bytes, checking the header, the checksum, every
    /// position and the legality of every move under the book's rules.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < HEADER_LEN {
            return Err(BookError::TooShort { len: bytes.len() });
        }
        if bytes[..8] != MAGIC {
            return Err(BookError::BadMagic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at = |b: &[u8], i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let version = u16_at(8);
        if version != VERSION {
            return Err(BookError::WrongVersion { found: version });
        }
        let variant = match u16_at(10) {
            0 => Variant::Brazilian,
            n => Variant::from_game_type(GameType(n))
                .map_err(|_| BookError::UnknownVariant(GameType(n)))?,
        };
        let count = u32_at(bytes, 12);
        let body_len = u32_at(bytes, 16);
        let stored = u32_at(bytes, 20);
        let body = &bytes[HEADER_LEN..];
        if body.len() != body_len as usize {
            return Err(BookError::Length {
                expected: body_len,
                found: body.len(),
            });
        }
        let computed = crc32fast::hash(body);
        if computed != stored {
            return Err(BookError::Checksum { stored, computed });
        }
        let mut entries = HashMap::new();
        let mut at = 0;
        for entry in 0..count as usize {
            if at + POSITION_LEN > body.len() {
                return Err(BookError::Truncated { entry, offset: at });
            }
            let masks = [0, 4, 8].map(|o| Bitboard(u32_at(body, at + o)));
            let side = match body[at + 12] {
                0 => Color::White,
                1 => Color::Black,
                s => {
                    return Err(BookError::BadPosition {
                        entry,
                        why: format!("side to move {s}"),
                    })
                }
            };
            let pos = Position::from_parts(masks[0], masks[1], masks[2], side).map_err(|e| {
                BookError::BadPosition {
                    entry,
                    why: e.to_string(),
                }
            })?;
            let n = usize::from(body[at + 13]);
            at += POSITION_LEN;
            if n == 0 {
                return Err(BookError::NoMoves { entry });
            }
            if at + n * MOVE_LEN > body.len() {
                return Err(BookError::Truncated { entry, offset: at });
            }
            let legal = legal_moves(variant, &pos);
            let mut moves = Vec::with_capacity(n);
            for index in 0..n {
                let m = &body[at..at + MOVE_LEN];
                at += MOVE_LEN;
                let illegal = BookError::IllegalMove { entry, index };
                let (Some(from), Some(to)) = (Square::new(m[0]), Square::new(m[1])) else {
                    return Err(illegal);
                };
                let Some(mv) = move_by_squares(&legal, from, to, Bitboard(u32_at(m, 2))) else {
                    return Err(illegal);
                };
                moves.push(BookMove {
                    mv,
                    weight: Weight(u16::from_le_bytes([m[6], m[7]])),
                });
            }
            if entries.insert(pos, moves).is_some() {
                return Err(BookError::Duplicate { entry });
            }
        }
        if at != body.len() {
            return Err(BookError::TrailingBytes {
                count,
                extra: body.len() - at,
            });
        }
        Ok(Book { variant, entries })
    }

    /// Read a book file for the rules of `variant` (a book for other rules is refused).
    pub fn load_for(path: &Path, variant: Variant) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(|source| BookError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Book::from_bytes_for(&bytes, variant)
    }

    /// Read a book file (for the rules its header names).
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(|source| BookError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Book::from_bytes(&bytes)
    }

    /// Write the book to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        damas_rules::atomic_file::write_atomic(path, &self.to_bytes()).map_err(|source| {
            BookError::Io {
                path: path.to_path_buf(),
                source,
            }
        })
    }
}

#[cfg(test)]
mod tests;
