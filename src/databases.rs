//! The endgame databases an engine searches with: those found (opened from a
//! directory or the standard place), else the 1–4-piece databases built into the
//! program. The one place the built-in fallback is decided.

use std::sync::Arc;

use damas_engine::engine::Databases;
use damas_engine::oracle::Oracle;
use damas_rules::variant::Variant;

/// The databases of `variant` to search with: `found` when it holds those rules,
/// else the built-in ones when `builtin` (the `builtin-egdb` setting).
pub fn with_built_in(
    found: Option<Arc<dyn Oracle>>,
    variant: Variant,
    builtin: bool,
) -> Option<Arc<dyn Oracle>> {
    found.filter(|db| db.variant() == variant).or_else(|| {
        builtin
            .then(|| damas_egdb::oracle::built_in(variant))
            .flatten()
    })
}

/// [`with_built_in`] as the databases an engine searches with.
pub fn search_with(found: Option<Arc<dyn Oracle>>, variant: Variant, builtin: bool) -> Databases {
    Databases::search(with_built_in(found, variant, builtin))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_databases_stand_in_when_asked() {
        let built_in = with_built_in(None, Variant::Russian, true).expect("built in");
        assert_eq!(
            (built_in.variant(), built_in.max_pieces()),
            (Variant::Russian, 4)
        );
        assert!(with_built_in(None, Variant::Brazilian, false).is_none());
        // Databases of other rules are not used.
        let russian = with_built_in(Some(built_in), Variant::Brazilian, false);
        assert!(russian.is_none());
    }
}
