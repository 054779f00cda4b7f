//! Endgame databases for up to five pieces (SPEC §4, thesis §6.5.5).
//!
//! Every position with 1–5 pieces gets its exact game-theoretic value for the side to
//! move (no move-count draw rules), its best move (fastest win, slowest loss) and its
//! distance to the end in plies. Positions are numbered by the thesis' combinatorial
//! index ([`index`]), one part file per piece count ([`mod@file`]), built by retrograde
//! analysis ([`mod@build`]), read through memory maps ([`Egdb`]), checked against the
//! rules ([`verify`]) and summarised ([`stats`]). The `damas-egdb` tool is the application's.

pub mod blockindex;
pub mod build;
pub mod codec;
pub mod compact;
pub mod dtc;
pub mod error;
pub mod file;
pub mod index;
pub mod location;
pub mod lock;
pub mod oracle;
pub mod probe;
pub mod progress;
pub mod slice;
pub mod slice_build;
pub mod slice_check;
pub mod slice_header;
pub mod slicedb;
pub mod stats;
pub mod unmove;
pub mod value;
pub mod verify;

pub use build::{build, BuildOptions, Counts, PartSummary};
pub use error::EgdbError;
pub use index::MAX_PIECES;
pub use probe::{Egdb, Probe, Value};
pub use value::Wdl;

/// The legacy database directory, relative to the current directory: the last
/// candidate of [`location`], which resolves the standard place.
pub const DEFAULT_DIR: &str = "data/egdb";
