use super::*;

/// The budget with the default tuning.
fn for_level(level: &TimeControl, overhead: MoveOverhead) -> MoveBudget {
    MoveBudget::for_level(level, overhead, &Tuning::default())
}

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

/// Whether `a` and `b` are within a microsecond (float seconds round).
fn close(a: Duration, b: Duration) -> bool {
    a.abs_diff(b) <= Duration::from_micros(1)
}

fn clock(time: f64, inc: f64, moves: Option<u32>) -> TimeControl {
    TimeControl::Clock {
        moves,
        time: secs(time),
        inc: secs(inc),
    }
}

#[test]
fn clock_budget_never_spends_the_whole_clock() {
    for overhead in [0, 100, 1000] {
        let o = MoveOverhead::from_millis(overhead);
        for (time, inc, moves) in [
            (0.0, 0.0, None),
            (0.5, 3.0, None),
            (1.0, 0.05, None),
            (0.2, 10.0, Some(1)),
            (2.0, 0.0, Some(0)),
            (0.05, 0.0, None),
            (1.0, 0.0, Some(1)),
            (60.0, 1.0, None),
            (300.0, 0.0, Some(40)),
            (2.0, 2.0, None),
        ] {
            let b = for_level(&clock(time, inc, moves), o);
            let (hard, soft) = (b.hard().unwrap(), b.soft().unwrap());
            assert!(soft <= hard, "{time} {inc}");
            // The increment is not on the clock yet: only `time` may be spent, with
            // the overhead kept back.
            assert!(
                hard + o.duration() <= secs(time * 0.8) + Duration::from_micros(1)
                    || hard == Duration::from_millis(1),
                "{time} {inc} {overhead}: {hard:?}"
            );
        }
    }
}

#[test]
fn the_optimum_is_the_base_share_plus_most_of_the_increment() {
    let o = MoveOverhead::from_millis(0);
    let b = for_level(&clock(300.0, 0.0, None), o);
    assert_eq!(b.soft(), Some(secs(10.0)));
    assert_eq!(b.hard(), Some(secs(50.0)));
    // With an increment, the clock and the increments to come are shared among
    // 14 moves.
    let b = for_level(&clock(60.0, 0.6, None), o);
    let want = (60.0 + 0.6 * 13.0) / 14.0;
    assert!(
        (b.soft().unwrap().as_secs_f64() - want).abs() < 1e-6,
        "{b:?}"
    );
    // Each future increment counts less half the overhead, never below nothing.
    let o = MoveOverhead::from_millis(100);
    let b = for_level(&clock(60.0, 0.6, None), o);
    let want = (60.0 + 0.55 * 13.0 - 0.2) / 14.0;
    assert!(
        (b.soft().unwrap().as_secs_f64() - want).abs() < 1e-6,
        "{b:?}"
    );
    // An increment the overhead takes whole is no increment: 30 moves.
    let b = for_level(&clock(1.0, 0.05, None), o);
    assert!(close(b.soft().unwrap(), secs(0.8 / 30.0)), "{b:?}");
    let o = MoveOverhead::from_millis(0);
    // Moves to go share what is left among themselves.
    let b = for_level(&clock(100.0, 0.0, Some(10)), o);
    assert_eq!(b.soft(), Some(secs(10.0)));
    // The last move before a time control gets most of the clock, not all.
    let b = for_level(&clock(10.0, 0.0, Some(1)), o);
    assert!(close(b.hard().unwrap(), secs(8.0)), "{b:?}");
}

#[test]
fn the_overhead_is_kept_back() {
    let quiet = for_level(&clock(6.0, 0.0, None), MoveOverhead::from_millis(0));
    let busy = for_level(&clock(6.0, 0.0, None), MoveOverhead::from_millis(100));
    assert_eq!(quiet.soft(), Some(secs(0.2)));
    assert!(close(busy.soft().unwrap(), secs(5.8 / 30.0)), "{busy:?}");
    // A clock below the overhead leaves the shortest search.
    let low = for_level(&clock(0.09, 0.0, None), MoveOverhead::from_millis(100));
    assert_eq!(low.hard(), Some(Duration::from_millis(1)));
}

#[test]
fn increment_is_not_spent_before_it_is_credited() {
    // time=0.5 inc=3: the share is large, but only the clock's time may be spent.
    let o = MoveOverhead::default();
    let b = for_level(&clock(0.5, 3.0, None), o);
    assert!(close(b.hard().unwrap(), secs(0.3)), "{b:?}");
}

#[test]
fn moves_zero_is_sudden_death() {
    let o = MoveOverhead::default();
    let zero = for_level(&clock(2.0, 0.0, Some(0)), o);
    assert_eq!(zero, for_level(&clock(2.0, 0.0, None), o));
    assert!(zero.hard().unwrap() <= secs(0.5), "{zero:?}");
}

#[test]
fn a_fixed_time_per_move_is_spent_to_its_end() {
    let o = MoveOverhead::default();
    for (t, want) in [(0.1, 0.095), (1.0, 0.95), (10.0, 9.9)] {
        let b = for_level(&TimeControl::MoveTime(secs(t)), o);
        assert_eq!(b.soft(), None, "no stop between iterations");
        let hard = b.hard().unwrap().as_secs_f64();
        assert!((hard - want).abs() < 1e-9, "{t}: {hard}");
    }
    let none = for_level(
        &TimeControl::MoveTime(secs(1.0)),
        MoveOverhead::from_millis(0),
    );
    assert_eq!(none.hard(), Some(secs(1.0)));
}

#[test]
fn search_limits_carry_the_deadlines() {
    let o = MoveOverhead::default();
    let b = for_level(&TimeControl::MoveTime(secs(1.0)), o);
    assert_eq!(
        (b.search_limits().time, b.search_limits().soft),
        (b.hard(), None)
    );
    let c = for_level(&clock(60.0, 1.0, None), o);
    assert_eq!(
        (c.search_limits().time, c.search_limits().soft),
        (c.hard(), c.soft())
    );
    assert!(c.soft() < c.hard());
    let d = for_level(&TimeControl::Depth(4), o).search_limits();
    assert_eq!((d.depth, d.time, d.soft), (Some(4), None, None));
}

#[test]
fn exact_budgets_spend_all_of_a_move_time() {
    let t = secs(0.25);
    assert_eq!(
        MoveBudget::exact(&TimeControl::MoveTime(t)).search_limits(),
        Limits::time(t)
    );
    assert_eq!(
        MoveBudget::exact(&TimeControl::Depth(0)).search_limits(),
        Limits::depth(0)
    );
    let c = clock(60.0, 1.0, None);
    assert_eq!(
        MoveBudget::exact(&c),
        for_level(&c, MoveOverhead::default())
    );
}

#[test]
fn a_ponder_budget_keeps_depth_and_nodes_without_time() {
    let o = MoveOverhead::default();
    let clocked = for_level(&clock(60.0, 1.0, None), o).without_time();
    assert_eq!((clocked.hard(), clocked.soft()), (None, None));
    let deep = for_level(&TimeControl::Depth(6), o).without_time();
    assert_eq!(deep.search_limits(), Limits::depth(6));
}

#[test]
fn fixed_levels() {
    let o = MoveOverhead::default();
    assert_eq!(for_level(&TimeControl::Depth(5), o).limits.depth, Some(5));
    assert_eq!(
        for_level(&TimeControl::Nodes(1000), o).limits.nodes,
        Some(1000)
    );
    assert_eq!(for_level(&TimeControl::Infinite, o), MoveBudget::default());
}

#[test]
fn overheads_are_bounded() {
    assert_eq!(MoveOverhead::default().millis(), 100);
    assert_eq!(
        MoveOverhead::from_millis(u64::MAX).millis(),
        MoveOverhead::MAX_MS
    );
}

#[test]
fn the_tuning_sets_the_horizons_and_the_cap() {
    use crate::search::ParamId;
    let o = MoveOverhead::from_millis(0);
    let tuning = Tuning::default()
        .with(ParamId::TIME_HORIZON, 20)
        .with(ParamId::TIME_HORIZON_INC, 10)
        .with(ParamId::TIME_MAX_RATIO, 3);
    let b = MoveBudget::for_level(&clock(300.0, 0.0, None), o, &tuning);
    assert_eq!(b.soft(), Some(secs(15.0)));
    assert_eq!(b.hard(), Some(secs(45.0)));
    let b = MoveBudget::for_level(&clock(60.0, 0.6, None), o, &tuning);
    let want = (60.0 + 0.6 * 9.0) / 10.0;
    assert!(close(b.soft().unwrap(), secs(want)), "{b:?}");
    // Fewer moves to go than the horizon still share among themselves.
    let b = MoveBudget::for_level(&clock(100.0, 0.0, Some(10)), o, &tuning);
    assert_eq!(b.soft(), Some(secs(10.0)));
    // The pace's constants travel with the budget, ponder budgets included.
    let tuning = tuning.with(ParamId::PACE_START, 40);
    let b = MoveBudget::for_level(&clock(60.0, 1.0, None), o, &tuning);
    assert_eq!(b.pace(), &tuning.time());
    assert_eq!(b.without_time().pace(), &tuning.time());
    assert_ne!(b.pace(), &Tuning::default().time());
    // A value out of range is clamped where it is set: no horizon of 0 to divide by.
    let zero = Tuning::default().with(ParamId::TIME_HORIZON, 0);
    let b = MoveBudget::for_level(&clock(50.0, 0.0, None), o, &zero);
    assert_eq!(b.soft(), Some(secs(10.0)));
}
