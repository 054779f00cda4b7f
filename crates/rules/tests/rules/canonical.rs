//! The move text the rules tests compare move sets in.

use damas_rules::moves::Move;

/// A move as `from-to`, or `fromxto:captured,…` with the captured squares in
/// (rank, file) order — the form of the pydraughts fixture and the rules tests.
pub fn canonical(m: &Move) -> String {
    if m.is_capture() {
        let caps: Vec<String> = m.captured().iter().map(|s| s.to_string()).collect();
        format!("{}x{}:{}", m.from(), m.to(), caps.join(","))
    } else {
        format!("{}-{}", m.from(), m.to())
    }
}
