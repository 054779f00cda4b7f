//! Tests of `time/control.rs`: the text form and its aliases.

use proptest::prelude::*;

use super::*;

fn parse(text: &str) -> TimeControl {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} refused: {e}"))
}

fn clock(moves: Option<u32>, time_ms: u64, inc_ms: u64) -> TimeControl {
    TimeControl::Clock {
        moves,
        time: Duration::from_millis(time_ms),
        inc: Duration::from_millis(inc_ms),
    }
}

#[test]
fn each_form_reads_what_it_says() {
    assert_eq!(parse("depth=12"), TimeControl::Depth(12));
    assert_eq!(parse("nodes=20000"), TimeControl::Nodes(20_000));
    assert_eq!(
        parse("move-time=0.25"),
        TimeControl::MoveTime(Duration::from_millis(250))
    );
    assert_eq!(parse("clock=60+0.5"), clock(None, 60_000, 500));
    assert_eq!(parse("clock=40/60+1"), clock(Some(40), 60_000, 1_000));
    assert_eq!(parse("clock=5"), clock(None, 5_000, 0));
    assert_eq!(parse("infinite"), TimeControl::Infinite);
}

#[test]
fn time_is_the_alias_of_move_time() {
    assert_eq!(parse("time=0.5"), parse("move-time=0.5"));
    assert_eq!(
        parse("time=1e-3"),
        TimeControl::MoveTime(Duration::from_millis(1))
    );
}

#[test]
fn a_time_may_name_its_unit() {
    assert_eq!(parse("clock=5m+3"), parse("clock=300+3"));
    assert_eq!(parse("clock=2min+500ms"), parse("clock=120+0.5"));
    assert_eq!(parse("move-time=250ms"), parse("move-time=0.25"));
    assert_eq!(parse("move-time=2s"), parse("move-time=2"));
}

#[test]
fn the_minutes_clock_counts_its_bare_base_in_minutes() {
    let c = TimeControl::from_minutes_clock("5+3").unwrap();
    assert_eq!(c, parse("clock=300+3"));
    assert_eq!(
        c.game_clock(),
        Some((Duration::from_secs(300), Duration::from_secs(3)))
    );
    assert_eq!(
        TimeControl::from_minutes_clock("0.1").unwrap(),
        clock(None, 6_000, 0)
    );
    // A unit overrides the minutes; the increment is always seconds.
    assert_eq!(
        TimeControl::from_minutes_clock("30s+1").unwrap(),
        clock(None, 30_000, 1_000)
    );
    for bad in ["", "x+3", "5+y", "-1+0", "0+5", "5+3+1", "inf"] {
        assert!(TimeControl::from_minutes_clock(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_hub_clock_words_allow_an_empty_clock() {
    assert_eq!(
        TimeControl::from_hub_clock("0", Some("1"), None).unwrap(),
        clock(None, 0, 1_000)
    );
    assert_eq!(
        TimeControl::from_hub_clock("60.5", Some("1"), Some("40")).unwrap(),
        clock(Some(40), 60_500, 1_000)
    );
    // `moves=0` is sudden death, not a control after no moves.
    assert_eq!(
        TimeControl::from_hub_clock("2", None, Some("0")).unwrap(),
        clock(None, 2_000, 0)
    );
    let e = TimeControl::from_hub_clock("-1", None, None).unwrap_err();
    assert_eq!((e.what, e.value.as_str()), ("clock time", "-1"));
}

#[test]
fn nonsense_is_refused_with_the_part_that_is_wrong() {
    for (text, what) in [
        ("depth=0", "depth"),
        ("depth=x", "depth"),
        ("nodes=-5", "nodes"),
        ("move-time=0", "move time"),
        ("time=inf", "move time"),
        ("time=NaN", "move time"),
        ("move-time=1e20", "move time"),
        ("move-time=1000000001", "move time"),
        ("move-time=5h", "move time"),
        ("clock=0+1", "clock time"),
        ("clock=a+1", "clock time"),
        ("clock=60+-1", "increment"),
        ("clock=x/60", "moves"),
        ("speed=3", "time control"),
        ("depth", "time control"),
        ("", "time control"),
    ] {
        let e = text.parse::<TimeControl>().unwrap_err();
        assert_eq!(e.what, what, "{text}: {e}");
        assert!(e.to_string().contains(what), "{text}: {e}");
    }
}

#[test]
fn the_longest_time_is_accepted() {
    assert_eq!(
        parse("move-time=1000000000"),
        TimeControl::MoveTime(Duration::from_secs(MAX_SECONDS))
    );
}

fn duration(min_nanos: u64) -> impl Strategy<Value = Duration> {
    prop_oneof![
        (min_nanos..=MAX_SECONDS * 1_000_000_000).prop_map(Duration::from_nanos),
        (min_nanos.max(1)..=3_600_000u64).prop_map(Duration::from_millis),
    ]
}

fn time_control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        (1..=u32::MAX).prop_map(TimeControl::Depth),
        (1..=u64::MAX).prop_map(TimeControl::Nodes),
        duration(1).prop_map(TimeControl::MoveTime),
        (proptest::option::of(1..=u32::MAX), duration(1), duration(0))
            .prop_map(|(moves, time, inc)| TimeControl::Clock { moves, time, inc }),
        Just(TimeControl::Infinite),
    ]
}

proptest! {
    #[test]
    fn display_reads_back_the_same(tc in time_control()) {
        let text = tc.to_string();
        prop_assert_eq!(text.parse::<TimeControl>(), Ok(tc), "{}", text);
    }
}
