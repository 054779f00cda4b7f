//! Endgame databases: the exact value of every position with few pieces
//! (docs/egdb.md; the thesis' §6.5.5 for the first generation's index).
//!
//! Every position gets its game-theoretic value for the side to move, without
//! move-count draw rules. Two generations of files share a directory:
//! - [`slices`], the current one: a compact win/draw/loss file per material slice,
//!   up to seven pieces, with optional distances to conversion;
//! - [`parts`], the first: one file per piece count up to five, with best moves and
//!   distances to the end.
//!
//! [`Egdb`] maps both and answers a piece count from its part when present, else
//! from the slices; the rest is shared by both generations. A search consults them
//! through [`oracle::Oracle`], which the engine depends on this crate for; this
//! crate depends on the rules alone. The `damas-egdb` tool is the application's.

mod binomial;
pub mod build_options;
pub mod damage;
pub mod error;
pub mod format;
pub mod location;
pub mod lock;
pub mod oracle;
pub mod parts;
pub mod probe;
pub mod progress;
pub mod slices;
pub mod unmove;
pub mod value;
pub mod verify;

pub use build_options::BuildOptions;
pub use damage::{BrokenFile, Damage};
pub use error::EgdbError;
pub use parts::build::{build, Counts, PartSummary};
pub use parts::index::MAX_PIECES;
pub use probe::{Egdb, Probe, Value};
pub use value::Wdl;

/// The legacy database directory, relative to the current directory: the last
/// candidate of [`location`], which resolves the standard place.
pub const DEFAULT_DIR: &str = "data/egdb";
