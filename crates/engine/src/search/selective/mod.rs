//! What the node search skips, shortens or lengthens, each technique in its own file
//! and switched by its own [`Techniques`](super::Techniques) flag: cutoffs before the
//! moves are searched (`etc`, `reverse_futility`, `probcut`), moves left out or
//! searched shallower (`futility`, `lmr`, `iir`), and lines searched deeper
//! (`singular`, `threat` at the horizon).

pub(super) mod etc;
pub(super) mod futility;
pub(super) mod iir;
pub(super) mod lmr;
pub(super) mod probcut;
pub(super) mod reverse_futility;
pub(super) mod singular;
pub(super) mod threat;
