//! The application's integration tests: the command lines, the Hub protocol, the
//! terminal UI, matches, review and the study run as binaries, and the library
//! where the engine meets the endgame databases.

mod analyze;
mod analyze_lines;
mod analyze_verdicts;
mod book;
mod egdb_convert;
mod egdb_damage;
mod egdb_russian_play;
mod egdb_tool;
mod egdb_verdicts;
mod eval;
mod hub;
mod hub_limits;
mod hub_random_sessions;
mod matches;
mod node_study;
mod output_destination;
mod parsers_never_panic;
mod perft;
mod process;
mod readme_examples;
mod review;
mod review_both_ways;
mod russian_play;
mod slices;
mod tmux;
mod tui;
mod tui_analysis;
mod tune;
#[cfg(feature = "web")]
mod web;
