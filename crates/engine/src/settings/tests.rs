use super::*;

#[test]
fn unknown_keys_and_bad_values_are_typed_errors() {
    let mut s = EngineSettings::default();
    assert_eq!(
        s.set("no-such-key", "1"),
        Err(SettingError::Unknown("no-such-key".into()))
    );
    for (key, value) in [
        ("hash", "-1"),
        ("threads", "0"),
        ("tt-bits", "9"),
        ("tt-bits", "x"),
        ("techniques", "no-such-technique"),
        ("eval", "nnue"),
        ("strength", "11"),
        ("level", "grandmaster"),
        ("book", "maybe"),
        ("move-overhead", "-1"),
        ("move-overhead", "10001"),
        ("aspiration", "0"),
        ("contempt", "101"),
        ("contempt", "-101"),
        ("tt-frontier", "sometimes"),
        ("variant", "italian"),
        ("tune", "futility-margin"),
        ("tune", "no-such-param:1"),
        ("tune", "rfp-margin:70;futility-margin:-1"),
    ] {
        let e = s.set(key, value).expect_err(key);
        assert!(matches!(e, SettingError::Value { .. }), "{key}: {e}");
    }
    assert_eq!(
        s,
        EngineSettings::default(),
        "refused values change nothing"
    );
}

#[test]
fn every_value_read_back_sets_the_same() {
    let mut s = EngineSettings::default();
    for (key, value) in [
        ("variant", "russian"),
        ("hash", "8"),
        ("threads", "2"),
        ("techniques", "pvs+tt"),
        ("eval", "material"),
        ("level", "3"),
        ("book", "off"),
        ("move-overhead", "250"),
        ("aspiration", "30"),
        ("contempt", "-15"),
        ("tt-frontier", "false"),
        ("tune", "futility-margin:60;lmr-min-move:4"),
        ("tt-bits", "16"),
    ] {
        s.set(key, value).unwrap();
    }
    assert_eq!((s.table, s.tt_bits, s.hash_mb), (TableKind::Thesis, 16, 8));
    assert_eq!(s.strength.number(), 3);
    assert_eq!(s.move_overhead.millis(), 250);
    let mut copy = EngineSettings::default();
    for setting in &SETTINGS {
        copy.set(setting.key, &s.get(setting.key).unwrap()).unwrap();
    }
    // The table kind follows the last of `hash` and `tt-bits` set.
    assert_eq!(copy, s);
    assert_eq!(
        format!("{:?}", copy.search_options()),
        format!("{:?}", s.search_options())
    );
}

#[test]
fn the_defaults_are_the_search_defaults() {
    // One exception: games play decided database endings on the evaluation, while a
    // search built directly reports the databases' verdicts.
    let settings = EngineSettings::default().search_options();
    assert_eq!(settings.egdb_wins(), WinPolicy::Play);
    assert_eq!(SearchOptions::default().egdb_wins(), WinPolicy::Verdict);
    assert_eq!(
        format!("{:?}", settings.with_win_policy(WinPolicy::Verdict)),
        format!("{:?}", SearchOptions::default())
    );
    let names: Vec<&str> = EvalName::ALL.iter().map(|e| e.as_str()).collect();
    assert_eq!(
        setting("eval").unwrap().values,
        Values::Choice(&["trained", "material"])
    );
    assert_eq!(names, ["trained", "material"]);
    assert_eq!(setting("level").unwrap().key, "strength");
}

#[test]
fn the_documentation_shows_this_table() {
    let doc = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/engine-settings.md"
    ));
    assert!(
        doc.contains(&markdown_table()),
        "docs/engine-settings.md is out of date; its table should read:\n{}",
        markdown_table()
    );
}

#[test]
fn the_variant_key_picks_the_rules_searched() {
    use damas_rules::variant::Variant;
    let mut s = EngineSettings::default();
    assert_eq!(s.variant, Variant::Brazilian);
    assert_eq!(s.search_options().variant(), Variant::Brazilian);
    s.set("variant", "Russian").unwrap();
    assert_eq!(s.variant, Variant::Russian);
    assert_eq!(s.get("variant").as_deref(), Some("russian"));
    assert_eq!(s.search_options().variant(), Variant::Russian);
    let v = setting("variant").unwrap();
    assert!(v.searcher && v.hub);
    assert_eq!(v.values, Values::Choice(&["brazilian", "russian"]));
}

#[test]
fn egdb_wins_selects_the_policy_and_refuses_other_names() {
    let mut s = EngineSettings::default();
    s.set("egdb-wins", "verdict").unwrap();
    assert_eq!(s.search_options().egdb_wins(), WinPolicy::Verdict);
    assert_eq!(s.get("egdb-wins").as_deref(), Some("verdict"));
    let e = s.set("egdb-wins", "exact").unwrap_err();
    assert_eq!(
        e.to_string(),
        "egdb-wins must be play or verdict, not \"exact\""
    );
    assert_eq!(s.egdb_wins, WinPolicy::Verdict);
}

#[test]
fn tune_and_aspiration_write_the_same_tuning() {
    use crate::search::ParamId;
    let mut s = EngineSettings::default();
    assert_eq!(s.get("tune").as_deref(), Some(""));
    s.set("tune", "aspiration:30;se-margin:3").unwrap();
    assert_eq!(s.get("aspiration").as_deref(), Some("30"));
    s.set("aspiration", "40").unwrap();
    assert_eq!(s.get("tune").as_deref(), Some("se-margin:3;aspiration:40"));
    let options = s.search_options();
    assert_eq!(options.aspiration_delta(), 40);
    assert_eq!(options.tuning().get(ParamId::SE_MARGIN), 3);
    s.set("tune", "default").unwrap();
    assert_eq!(s, EngineSettings::default());
}
