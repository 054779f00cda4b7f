//! Controller tests of the rules a game is played by: a Russian game accepts a capture
//! the majority rule forbids, keeps its rules for a new game, writes `GameType 25`,
//! and a loaded PDN's `GameType` picks the rules.

use super::*;

/// White's man on c3 takes one man (c3xa5) or two (c3xe5xg7).
const CHOICE: &str = "W:Wc3,g1:Bb4,d4,f6,h8";

#[test]
fn a_russian_game_accepts_a_capture_the_majority_rule_forbids() {
    let mut brazilian = human_vs_human(CHOICE);
    type_move(&mut brazilian, "c3xa5");
    assert_eq!(brazilian.game().moves().len(), 0, "majority rule");
    let rule = brazilian.message().unwrap().0;
    assert!(rule.contains("longest capture"), "{rule}");

    let mut c = human_vs_human_in(Variant::Russian, CHOICE);
    assert_eq!(c.variant(), Variant::Russian);
    type_move(&mut c, "c3xa5");
    assert_eq!(c.game().moves().len(), 1, "{:?}", c.message());
    assert!(c.pdn_text().contains("[GameType \"25"), "{}", c.pdn_text());
    // A new game keeps the rules.
    c.new_game(Position::start());
    assert_eq!(c.variant(), Variant::Russian);
}

#[test]
fn a_loaded_game_is_played_by_the_rules_its_game_type_names() {
    let mut c = human_vs_human(CHOICE);
    let pdn = format!("[GameType \"25\"]\n[SetUp \"1\"]\n[FEN \"{CHOICE}\"]\n\n1. c3xa5 h8-g7 *\n");
    c.load_pdn(&pdn).unwrap();
    assert_eq!(c.variant(), Variant::Russian);
    assert_eq!(c.game().moves().len(), 2);
    // And back: a game without the tag is Brazilian.
    c.load_pdn("1. c3-d4 *").unwrap();
    assert_eq!(c.variant(), Variant::Brazilian);
}
