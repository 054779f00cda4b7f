//! Tests of `src/hub/protocol.rs`.

use std::time::Duration;

use super::*;

#[test]
fn splits_quoted_values_and_bare_words() {
    let l = split_line("  pos pos=Wbbbb moves=\"22-18 9-13\" junk x=")
        .unwrap()
        .unwrap();
    assert_eq!(l.command, "pos");
    assert_eq!(l.get("moves"), Some("22-18 9-13"));
    assert!(l.has("junk"));
    assert_eq!(l.get("x"), Some(""));
    assert_eq!(split_line(" \t").unwrap(), None);
    assert_eq!(
        split_line("id name=\"a b").unwrap_err(),
        ProtocolError::UnterminatedQuote(8)
    );
}

#[test]
fn a_clock_with_moves_zero_is_sudden_death() {
    assert_eq!(
        parse_command("level time=2 moves=0").unwrap(),
        Some(HubCommand::TimeControl(TimeControl::Clock {
            moves: None,
            time: Duration::from_secs(2),
            inc: Duration::ZERO
        }))
    );
}

#[test]
fn malformed_known_commands_are_errors_unknown_ones_ignored() {
    assert!(parse_command("set-param name=\"egdb-dir").is_err());
    assert!(parse_command("level time=abc").is_err());
    // `go` needs its mode: neither a bare `go` nor an unknown one is taken as `think`.
    for line in ["go", "go fly", "go think ponder"] {
        let Err(ProtocolError::BadValue { key, .. }) = parse_command(line) else {
            panic!("{line} accepted");
        };
        assert_eq!(key, "go");
    }
    assert!(parse_command("go analyse").is_ok());
    assert_eq!(
        parse_command("frobnicate x=\"open").unwrap(),
        Some(HubCommand::Unknown("frobnicate".into()))
    );
}

#[test]
fn parses_commands() {
    let start = position_string(&Position::start());
    assert_eq!(start, "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    assert_eq!(parse_position(&start).unwrap(), Position::start());
    let c = parse_command(&format!("pos pos={start} moves=\"22-18 11-15\""))
        .unwrap()
        .unwrap();
    assert_eq!(
        c,
        HubCommand::Pos {
            pos: Position::start(),
            moves: vec!["22-18".into(), "11-15".into()]
        }
    );
    assert_eq!(
        parse_command("level depth=7").unwrap(),
        Some(HubCommand::TimeControl(TimeControl::Depth(7)))
    );
    assert_eq!(
        parse_command("level moves=40 time=60.5 inc=1").unwrap(),
        Some(HubCommand::TimeControl(TimeControl::Clock {
            moves: Some(40),
            time: Duration::from_secs_f64(60.5),
            inc: Duration::from_secs(1)
        }))
    );
    assert_eq!(
        parse_command("level infinite").unwrap(),
        Some(HubCommand::TimeControl(TimeControl::Infinite))
    );
    assert_eq!(
        parse_command("go ponder").unwrap(),
        Some(HubCommand::Go(GoMode::Ponder))
    );
    assert_eq!(
        parse_command("go think").unwrap(),
        Some(HubCommand::Go(GoMode::Think))
    );
    assert_eq!(
        parse_command("frobnicate a=1").unwrap(),
        Some(HubCommand::Unknown("frobnicate".into()))
    );
    assert_eq!(parse_command("").unwrap(), None);
}

#[test]
fn a_time_control_with_nothing_to_search_is_refused_like_one_too_long() {
    // move-time=0 gives no time to think, as 1e20 gives more than can be kept.
    for line in [
        "level move-time=0",
        "level move-time=1e20",
        "level depth=0",
        "level nodes=0",
    ] {
        let Err(ProtocolError::BadValue { reason, .. }) = parse_command(line) else {
            panic!("{line} accepted");
        };
        assert!(
            reason.contains("above 0") || reason.contains("at least 1"),
            "{line}: {reason}"
        );
    }
    // A clock may have no time left or no increment.
    assert!(parse_command("level time=0 inc=1").is_ok());
    assert!(parse_command("level time=60 inc=0").is_ok());
}

#[test]
fn rejects_bad_values_with_reasons() {
    assert!(matches!(
        parse_command("level depth=x"),
        Err(ProtocolError::BadValue { .. })
    ));
    assert!(matches!(
        parse_command("level time=-1"),
        Err(ProtocolError::BadValue { .. })
    ));
    assert!(matches!(
        parse_command("level"),
        Err(ProtocolError::MissingKey { .. })
    ));
    assert!(matches!(
        parse_command("pos"),
        Err(ProtocolError::MissingKey { key: "pos", .. })
    ));
    assert!(matches!(
        parse_command("pos pos=W"),
        Err(ProtocolError::BadPosition { .. })
    ));
    assert!(matches!(
        parse_command("set-param name=x"),
        Err(ProtocolError::MissingKey { key: "value", .. })
    ));
    let man_on_last_row = format!("W{}{}", "w", "e".repeat(31));
    assert!(matches!(
        parse_position(&man_on_last_row),
        Err(ProtocolError::BadPosition { .. })
    ));
    assert!(matches!(
        parse_position(&format!("X{}", "e".repeat(32))),
        Err(ProtocolError::BadPosition { .. })
    ));
}

#[test]
fn the_level_line_sent_reads_back_as_its_time_control() {
    for control in [
        TimeControl::Depth(7),
        TimeControl::Nodes(20_000),
        TimeControl::MoveTime(Duration::from_millis(250)),
        TimeControl::Clock {
            moves: Some(40),
            time: Duration::from_millis(60_500),
            inc: Duration::from_secs(1),
        },
        TimeControl::Clock {
            moves: None,
            time: Duration::ZERO,
            inc: Duration::from_millis(50),
        },
        TimeControl::Infinite,
    ] {
        let line = time_control_line(&control);
        assert_eq!(
            parse_command(&line).unwrap(),
            Some(HubCommand::TimeControl(control)),
            "{line}"
        );
    }
}

#[test]
fn a_bad_clock_word_is_named_as_the_gui_wrote_it() {
    for (line, word) in [
        ("level time=x", "time"),
        ("level time=1 inc=-1", "inc"),
        ("level time=1 moves=many", "moves"),
    ] {
        let Err(ProtocolError::BadValue { key, .. }) = parse_command(line) else {
            panic!("{line} accepted");
        };
        assert_eq!(key, word, "{line}");
    }
}
