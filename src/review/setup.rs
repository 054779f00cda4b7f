//! The one review every front end runs (`damas review`, the game's `v`): the same
//! engine settings, budget and rules, so that a game gets the same marks wherever it
//! is reviewed. The rules are the game's; a `--variant` that contradicts the game's
//! `GameType` is refused ([`VariantConflict`]).

use std::sync::Arc;

use thiserror::Error;

use super::DEFAULT_NODES;
use damas_egdb::oracle::Oracle;
use damas_engine::engine::{Databases, Engine, Sources};
use damas_engine::search::{Limits, Searcher, WinPolicy};
use damas_engine::settings::EngineSettings;
use damas_engine::time::MoveBudget;
use damas_engine::tt::alloc::TableAllocError;
use damas_rules::pdn::{variant_of_game_type, PdnGame};
use damas_rules::variant::Variant;

/// The budget of each position when none is asked for: [`DEFAULT_NODES`] nodes.
pub fn default_budget() -> MoveBudget {
    Limits::nodes(DEFAULT_NODES).into()
}

/// The engine a review judges with under the rules of `variant`, for
/// [`super::review_game`]: the default settings (one thread, the trained evaluation
/// without any random variety, no contempt), `hash_mb` of table, `database` when
/// given (else the built-in databases), and the databases' verdicts (a win given up
/// is a win given up). An error when the table's memory cannot be had.
pub fn review_engine(
    variant: Variant,
    database: Option<Arc<dyn Oracle>>,
    hash_mb: usize,
) -> Result<Searcher, TableAllocError> {
    let settings = EngineSettings {
        variant,
        hash_mb,
        egdb_wins: WinPolicy::Verdict,
        ..EngineSettings::default()
    };
    let sources = Sources {
        databases: Databases::found_or_built_in(database, variant, true),
        ..Sources::default()
    };
    Ok(Engine::try_new(&settings, &sources)?.searcher)
}

/// A variant asked for that contradicts the one the game's `GameType` tag names.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("--variant {asked} contradicts the game's GameType {tag:?} ({game}); leave --variant out, or correct the tag")]
pub struct VariantConflict {
    /// The variant asked for.
    pub asked: Variant,
    /// The game's `GameType` tag, as written.
    pub tag: String,
    /// The variant the tag names.
    pub game: Variant,
}

/// The rules to review `record` by: `asked` when given (a game without a `GameType`
/// tag, or one that names the same rules), else the tag's (Brazilian without one).
pub fn review_variant(
    record: &PdnGame,
    asked: Option<Variant>,
) -> Result<Variant, VariantConflict> {
    let tagged = record
        .tag("GameType")
        .and_then(|tag| variant_of_game_type(tag).map(|v| (tag, v)));
    match (asked, tagged) {
        (Some(asked), Some((tag, game))) if asked != game => Err(VariantConflict {
            asked,
            tag: tag.to_string(),
            game,
        }),
        (Some(asked), _) => Ok(asked),
        (None, _) => Ok(record.variant()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas_rules::pdn::read_games;

    #[test]
    fn a_variant_that_contradicts_the_game_type_is_refused() {
        let russian = &read_games("[GameType \"25\"]\n1. c3-d4 *").unwrap()[0];
        let e = review_variant(russian, Some(Variant::Brazilian)).unwrap_err();
        assert_eq!(
            e,
            VariantConflict {
                asked: Variant::Brazilian,
                tag: "25".to_string(),
                game: Variant::Russian
            }
        );
        let text = e.to_string();
        assert!(
            text.contains("brazilian") && text.contains("russian"),
            "{text}"
        );
        assert_eq!(
            review_variant(russian, Some(Variant::Russian)),
            Ok(Variant::Russian)
        );
        assert_eq!(review_variant(russian, None), Ok(Variant::Russian));
        // Without a tag, the variant asked for decides.
        let untagged = &read_games("1. c3-d4 *").unwrap()[0];
        assert_eq!(
            review_variant(untagged, Some(Variant::Russian)),
            Ok(Variant::Russian)
        );
        assert_eq!(review_variant(untagged, None), Ok(Variant::Brazilian));
    }
}
