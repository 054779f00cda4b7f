//! What a check of a database found, for either generation's checker
//! ([`crate::parts::verify`], [`crate::slices::check`]).

/// The result of checking a database against the rules.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// Parts checked.
    pub parts: Vec<usize>,
    /// Entries checked (impossible slots included).
    pub entries: u64,
    /// Entries that break a rule.
    pub violations: u64,
    /// The first violations, described (position and problem).
    pub first: Vec<String>,
    /// The damaged files, found by their checksums, lengths or headers before any
    /// entry was checked; their slices are not checked.
    pub damaged: Vec<crate::BrokenFile>,
    /// Entries not checked because a successor's value needs a damaged file:
    /// not violations, the damaged file is the fault.
    pub skipped: u64,
}
