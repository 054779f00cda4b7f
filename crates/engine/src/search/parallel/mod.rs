//! Several threads on one search: lazy SMP over the shared table (`smp`) and the
//! positions other threads are searching now, which a thread puts off (`busy`).

pub(super) mod busy;
pub(super) mod smp;
