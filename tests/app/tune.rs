//! Parameter tuning by SPSA: a run stopped and resumed ends where an uninterrupted
//! one does, bad state files are refused with the file and line at fault, a tuned
//! value reaches the engine a match plays, and `damas tune` runs, resumes and
//! summarises from its state file.

use std::path::Path;
use std::process::{Command, Output};

use damas::tune::{self, GameSetup, Spsa, TuneState, Tuned};
use std::time::Duration;

use damas_engine::search::{ParamGroup, ParamId, Tuning, PARAMS};
use damas_engine::time::{MoveBudget, MoveOverhead, TimeControl};
use damas_rules::variant::Variant;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn damas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas"))
        .arg("tune")
        .args(args)
        .output()
        .expect("run damas")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Two parameters of a noisy quadratic with its top at (7, -3).
fn synthetic(planned: u64) -> TuneState {
    let param = |name: &str| Tuned {
        name: name.into(),
        start: 0.0,
        min: -20.0,
        max: 20.0,
        c_end: 0.5,
        r_end: 0.05,
    };
    TuneState {
        games: GameSetup {
            variant: Variant::Brazilian,
            control: TimeControl::Nodes(1000),
            pairs: 1,
            max_plies: 300,
            openings: None,
            engine: "hash=8".into(),
        },
        spsa: Spsa::new(vec![param("x"), param("y")], planned, 5),
    }
}

/// The noisy comparison of `-(x-7)² - (y+3)²` at the two points of iteration `k`.
fn objective(k: u64, plus: &[f64], minus: &[f64]) -> f64 {
    let f = |t: &[f64]| -(t[0] - 7.0).powi(2) - (t[1] + 3.0).powi(2);
    let noise = ChaCha8Rng::seed_from_u64(k).gen_range(-3.0..3.0);
    f(plus) - f(minus) + noise
}

#[test]
fn a_resumed_run_ends_where_an_uninterrupted_one_does() {
    let dir = tempfile::tempdir().unwrap();
    let (once, split) = (dir.path().join("once.txt"), dir.path().join("split.txt"));
    let mut whole = synthetic(6);
    tune::run(&mut whole, &once, 6, &mut objective, |_| {}).unwrap();
    let mut first = synthetic(6);
    tune::run(&mut first, &split, 3, &mut objective, |_| {}).unwrap();
    drop(first);
    let mut resumed = TuneState::load(&split).unwrap().expect("saved");
    assert_eq!(resumed.spsa.k, 3);
    tune::run(&mut resumed, &split, 6, &mut objective, |_| {}).unwrap();
    assert_eq!(resumed, whole);
    assert_eq!(
        std::fs::read_to_string(&split).unwrap(),
        std::fs::read_to_string(&once).unwrap()
    );
    assert_ne!(whole.spsa.theta(), whole.spsa.history[0].as_slice());
}

#[test]
fn a_noisy_objective_of_two_parameters_converges() {
    let mut state = synthetic(3000);
    for _ in 0..3000 {
        state.spsa.step(&mut objective).unwrap();
    }
    let theta = state.spsa.theta();
    assert!((theta[0] - 7.0).abs() < 0.5, "{theta:?}");
    assert!((theta[1] + 3.0).abs() < 0.5, "{theta:?}");
}

#[test]
fn bad_state_files_name_the_file_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let good = synthetic(10).to_text();
    let cases = [
        ("not a state file\n".to_string(), "line 1"),
        (
            good.replace("nodes 1000", "nodes many"),
            "line 3: nodes must be",
        ),
        (
            good.replace("theta 0 0 0", "theta 1 0 0"),
            "expected θ after iteration 0",
        ),
        (
            good.replace("theta 0 0 0", "theta 0 0 x"),
            "θ values must be numbers",
        ),
        (
            good.replace("param y 0", "param y 50"),
            "param y: needs MIN ≤ START ≤ MAX",
        ),
        (good.replace("seed 5\n", ""), "no seed line"),
        (
            good.replace("variant brazilian", "variant italian"),
            "line 2",
        ),
        (format!("{good}colour white\n"), "unknown key \"colour\""),
        (
            good.replace("nodes 1000", "nodes 0"),
            "line 3: nodes must be at least 1",
        ),
        (
            good.replace("nodes 1000", "nodes 1000\nclock 4+0.04"),
            "line 4: a second time control",
        ),
        (
            good.replace("nodes 1000", "clock 40/4+0.04"),
            "moves to go are not tuned",
        ),
        (good.replace("nodes 1000\n", ""), "no nodes or clock line"),
    ];
    for (i, (body, want)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.txt"));
        std::fs::write(&path, body).unwrap();
        let e = TuneState::load(&path).unwrap_err().to_string();
        assert!(e.contains(&path.display().to_string()), "{e}");
        assert!(e.contains(want), "{want}: {e}");
        // The command line refuses it too, without a panic.
        let out = damas(&["--state", path.to_str().unwrap(), "--quiet"]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(text(&out.stderr).contains(want), "{}", text(&out.stderr));
    }
}

#[test]
fn a_clocked_run_is_saved_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clock.txt");
    let mut state = synthetic(4);
    state.games.control = tune::clock_control("4+0.04").unwrap();
    state.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\nclock 4+0.04\n"), "{text}");
    assert!(!text.contains("nodes"), "{text}");
    assert_eq!(TuneState::load(&path).unwrap().unwrap(), state);
}

#[test]
fn a_tuned_value_reaches_the_engine_a_spec_builds() {
    use damas::matches::EngineSpec;
    use damas_engine::engine::{Engine, Sources};
    let spec: EngineSpec = "depth=2,tune=futility-margin:60;lmr-min-move:5"
        .parse()
        .unwrap();
    let engine = Engine::new(&spec.settings, &Sources::default());
    let tuning = engine.searcher.options().tuning();
    assert_eq!(tuning.get(ParamId::FUTILITY_MARGIN), 60);
    assert_eq!(tuning.get(ParamId::LMR_MIN_MOVE), 5);
    assert_eq!(
        tuning.get(ParamId::RFP_MARGIN),
        ParamId::RFP_MARGIN.param().default
    );
    // The time constants travel the same way, into the budget of a move on a clock.
    let spec: EngineSpec = "clock=60+1,tune=time-horizon-inc:20;pace-start:40"
        .parse()
        .unwrap();
    let engine = Engine::new(&spec.settings, &Sources::default());
    let tuning = engine.searcher.options().tuning();
    assert_eq!(tuning.get(ParamId::TIME_HORIZON_INC), 20);
    let budget = MoveBudget::for_level(&spec.limit, MoveOverhead::from_millis(0), tuning);
    let default = MoveBudget::for_level(
        &spec.limit,
        MoveOverhead::from_millis(0),
        &Tuning::default(),
    );
    assert_eq!(
        budget.soft(),
        Some(Duration::from_secs_f64((60.0 + 19.0) / 20.0))
    );
    assert!(budget.soft() < default.soft(), "{budget:?} {default:?}");
    let e = "depth=2,tune=futility-margin:999"
        .parse::<EngineSpec>()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("futility-margin must be a whole number from 0 to 200"),
        "{e}"
    );
}

#[test]
fn damas_tune_runs_resumes_and_summarises() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state.txt");
    let state_arg = state.to_str().unwrap();
    let run = |iterations: &str| {
        damas(&[
            "--state",
            state_arg,
            "--iterations",
            iterations,
            "--nodes",
            "300",
            "--concurrency",
            "2",
            "--params",
            "futility-margin,rfp-margin",
            "--max-plies",
            "60",
            "--c-scale",
            "2",
            "--r-scale",
            "10",
            "--quiet",
        ])
    };
    let out = run("1");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = TuneState::load(&state).unwrap().unwrap();
    assert_eq!(first.spsa.k, 1);
    // The scales multiply the table's c and r.
    let futility = &first.spsa.params[0];
    let table = ParamId::FUTILITY_MARGIN.param();
    assert_eq!(futility.name, table.name);
    assert!(
        (futility.c_end - 2.0 * table.c).abs() < 1e-9,
        "{}",
        futility.c_end
    );
    assert!(
        (futility.r_end - 10.0 * table.r).abs() < 1e-9,
        "{}",
        futility.r_end
    );
    let out = run("2");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("resuming"), "{stdout}");
    let start = |id: ParamId| format!("| {} | {} |", id.param().name, id.param().default);
    let futility_start = start(ParamId::FUTILITY_MARGIN);
    assert!(stdout.contains(&futility_start), "{stdout}");
    let saved = TuneState::load(&state).unwrap().unwrap();
    assert_eq!((saved.spsa.k, saved.spsa.history.len()), (2, 3));
    let summary = damas(&["--state", state_arg, "--summary"]);
    assert!(summary.status.success());
    assert!(text(&summary.stdout).contains(&start(ParamId::RFP_MARGIN)));
}

#[test]
fn a_clocked_run_tunes_the_time_constants() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state.txt");
    let out = damas(&[
        "--state",
        state.to_str().unwrap(),
        "--iterations",
        "1",
        "--clock",
        "0.3+0.01",
        "--concurrency",
        "2",
        "--max-plies",
        "40",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let saved = TuneState::load(&state).unwrap().unwrap();
    assert_eq!(saved.spsa.k, 1);
    assert_eq!(
        saved.games.control,
        tune::clock_control("0.3+0.01").unwrap()
    );
    // Named none, a clocked run tunes the time manager's constants.
    let names: Vec<&str> = saved.spsa.params.iter().map(|p| p.name.as_str()).collect();
    let time: Vec<&str> = PARAMS
        .iter()
        .filter(|p| p.group == ParamGroup::Time)
        .map(|p| p.name)
        .collect();
    assert_eq!(names, time);
    assert!(names.contains(&"pace-start"));
}

#[test]
fn bad_arguments_are_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state.txt");
    let missing = Path::new("/nonexistent-directory/state.txt");
    for (args, want) in [
        (vec!["--state", missing.to_str().unwrap()], "--state"),
        (
            vec!["--state", state.to_str().unwrap(), "--params", "no-such"],
            "no tunable parameter \"no-such\"",
        ),
        (
            vec!["--state", state.to_str().unwrap(), "--concurrency", "0"],
            "--concurrency",
        ),
        (
            vec![
                "--state",
                state.to_str().unwrap(),
                "--engine",
                "colour=white",
            ],
            "unknown key",
        ),
        (
            vec!["--state", state.to_str().unwrap(), "--c-scale", "0"],
            "must be positive",
        ),
        (
            vec!["--state", state.to_str().unwrap(), "--params", "pace-start"],
            "pace-start is a time constant",
        ),
        (
            vec!["--state", state.to_str().unwrap(), "--clock", "0+0"],
            "--clock",
        ),
        (
            vec![
                "--state",
                state.to_str().unwrap(),
                "--clock",
                "1+0.01",
                "--nodes",
                "500",
            ],
            "cannot be used with",
        ),
        (
            vec!["--state", state.to_str().unwrap(), "--summary"],
            "no such state file",
        ),
    ] {
        let out = damas(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(want),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(!state.exists(), "{args:?} wrote a state file");
    }
}

#[test]
fn the_documentation_shows_the_parameters() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tuning.md")).unwrap();
    assert!(
        doc.contains(&tune::params_table()),
        "docs/tuning.md is out of date; its table should read:\n{}",
        tune::params_table()
    );
}
