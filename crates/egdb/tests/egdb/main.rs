//! The database crate's integration tests: the first-generation parts, the slices
//! against them, the distance files and the Russian databases.

mod distances;
mod parts;
mod russian;
mod slices;
