//! The current generation: one compact win/draw/loss file per material slice
//! (`w21b10.wdl`), up to seven pieces, numbered by a hole-free index per slice
//! ([`mod@slice`]) and coded in blocks ([`codec`], [`compact`]), with optional
//! distances to conversion ([`dtc`], or solved in memory by [`on_demand`]). Built
//! slice by slice ([`mod@build`]), checked against the rules ([`check`]) and probed
//! through [`db::SliceDb`]; the 1–4-piece files are built into the program
//! ([`builtin`]).

pub mod blockindex;
pub mod build;
pub mod builtin;
pub mod check;
pub mod codec;
pub mod compact;
pub mod db;
pub mod dtc;
pub mod header;
pub mod on_demand;
pub mod slice;
