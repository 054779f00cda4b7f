//! The evaluation from the command line: `--eval` and `--weights` for `analyze`,
//! bad names and damaged weight files refused, and the trained default giving the
//! start position a non-zero score where the material count sees only zeros;
//! `damas-train` end to end on a few games.

use std::process::{Command, Output};

fn run(bin: &str, args: &[&str]) -> Output {
    Command::new(bin).args(args).output().expect("run binary")
}

fn damas(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_damas"), args)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The score of the `bestmove` line.
fn best_score(o: &Output) -> i32 {
    let out = String::from_utf8_lossy(&o.stdout);
    let line = out
        .lines()
        .find(|l| l.starts_with("bestmove"))
        .expect("bestmove line");
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "score").expect("score");
    words[i + 1].parse().expect("numeric score")
}

#[test]
fn trained_default_prefers_moves_at_the_start() {
    let material = damas(&["analyze", "--depth", "6", "--eval", "material"]);
    assert!(material.status.success(), "{}", text(&material));
    assert_eq!(best_score(&material), 0);
    let trained = damas(&["analyze", "--depth", "6"]);
    assert!(trained.status.success(), "{}", text(&trained));
    assert_ne!(best_score(&trained), 0, "{}", text(&trained));
}

#[test]
fn bad_eval_names_and_weight_files_are_refused() {
    let o = damas(&["analyze", "--depth", "2", "--eval", "neural"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("neural"), "{}", text(&o));
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("broken.bin");
    std::fs::write(&p, b"DAMASEVW\x01\0\0\0").unwrap();
    let o = damas(&["analyze", "--depth", "2", "--weights", p.to_str().unwrap()]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(t.contains("broken.bin") && t.contains("truncated"), "{t}");
}

#[test]
fn train_pipeline_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("sp.bin");
    let weights = dir.path().join("w.bin");
    let curve = dir.path().join("curve.csv");
    let svg = dir.path().join("curve.svg");
    let train = env!("CARGO_BIN_EXE_damas-train");
    let d = data.to_str().unwrap();
    let o = run(
        train,
        &[
            "selfplay", "--out", d, "--games", "12", "--nodes", "500", "--eval", "material",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("12 games"), "{}", text(&o));
    let o = run(
        train,
        &[
            "fit",
            "--data",
            d,
            "--out",
            weights.to_str().unwrap(),
            "--epochs",
            "2",
            "--holdout",
            "20",
            "--curve",
            curve.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&curve).unwrap().lines().count(), 4);
    // The new weights play.
    let o = damas(&[
        "analyze",
        "--depth",
        "4",
        "--weights",
        weights.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(
        train,
        &[
            "plot",
            &format!("r1={}", curve.display()),
            "--svg",
            svg.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    // A network over those weights: the file carries both and plays, and scores
    // otherwise than the linear weights alone.
    // `fit` of a network over those weights into `out`, with `extra` arguments.
    let fit_net = |out: &std::path::Path, extra: &[&str]| {
        let mut args = vec![
            "fit",
            "--data",
            d,
            "--out",
            out.to_str().unwrap(),
            "--init",
            weights.to_str().unwrap(),
            "--holdout",
            "20",
            "--scale",
            "0.006",
        ];
        args.extend_from_slice(extra);
        run(train, &args)
    };
    let netted = dir.path().join("n.bin");
    let o = fit_net(
        &netted,
        &[
            "--net", "16", "--epochs", "2", "--batch", "32", "--net-lr", "0.01",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("16 hidden units"), "{}", text(&o));
    assert!(
        text(&o).contains("K = 0.006000"),
        "--scale sets K: {}",
        text(&o)
    );
    let bytes = std::fs::read(&netted).unwrap();
    assert_eq!(&bytes[8..12], &2u32.to_le_bytes(), "a version-2 file");
    let scores: Vec<i32> = [&weights, &netted]
        .iter()
        .map(|w| {
            let o = damas(&["analyze", "--depth", "1", "--weights", w.to_str().unwrap()]);
            assert!(o.status.success(), "{}", text(&o));
            best_score(&o)
        })
        .collect();
    assert_ne!(scores[0], scores[1], "the network changes the score");
    // Training on from that network: its hidden count is taken from the file, and
    // no epoch leaves the network as it was.
    let again = dir.path().join("again.bin");
    let cont = |start: &std::path::Path, extra: &[&str]| {
        let mut args = vec!["--epochs", "0", "--net-init", start.to_str().unwrap()];
        args.extend_from_slice(extra);
        fit_net(&again, &args)
    };
    let o = cont(&netted, &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("16 hidden units"), "{}", text(&o));
    assert_eq!(
        std::fs::read(&again).unwrap(),
        bytes,
        "0 epochs: the same file"
    );
    let o = cont(&netted, &["--net", "32"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("has 16 hidden units"), "{}", text(&o));
    let o = cont(&weights, &[]);
    assert!(!o.status.success());
    assert!(text(&o).contains("has no network"), "{}", text(&o));
    let o = run(
        train,
        &["fit", "--data", d, "--out", "x.bin", "--net", "16"],
    );
    assert!(!o.status.success(), "--net needs --init");
    let o = run(
        train,
        &["fit", "--data", d, "--out", "x.bin", "--groups", "nonsense"],
    );
    assert!(!o.status.success());
    assert!(text(&o).contains("unknown feature group"), "{}", text(&o));
    let o = run(
        train,
        &["fit", "--data", d, "--out", "x.bin", "--scale", "0"],
    );
    assert!(!o.status.success());
    assert!(
        text(&o).contains("invalid value '0' for '--scale <K>'"),
        "{}",
        text(&o)
    );
}

#[test]
fn selfplay_ends_games_in_the_databases() {
    let dir = tempfile::tempdir().unwrap();
    let egdb = dir.path().join("egdb");
    let o = run(
        env!("CARGO_BIN_EXE_damas-egdb"),
        &[
            "build",
            "--pieces",
            "4",
            "--dir",
            egdb.to_str().unwrap(),
            "--quiet",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let train = env!("CARGO_BIN_EXE_damas-train");
    let data = dir.path().join("sp.bin");
    let args = |db: &str| {
        vec![
            "selfplay".to_string(),
            "--out".into(),
            data.to_str().unwrap().into(),
            "--games".into(),
            "6".into(),
            "--nodes".into(),
            "500".into(),
            "--eval".into(),
            "material".into(),
            "--egdb".into(),
            db.into(),
        ]
    };
    let o = Command::new(train)
        .args(args(egdb.to_str().unwrap()))
        .output()
        .unwrap();
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    // "… played now in … s, N of them ended by the databases), …"
    let n: u32 = t
        .split(" of them ended by the databases")
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no count of adjudicated games: {t}"));
    assert!(n <= 6, "{t}");
    // A directory without databases is refused, naming the flag.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = Command::new(train)
        .args(args(empty.to_str().unwrap()))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(text(&o).contains("--egdb"), "{}", text(&o));
}

#[test]
fn selfplay_refuses_a_node_jitter_of_100_percent_or_more() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("sp.bin");
    let train = env!("CARGO_BIN_EXE_damas-train");
    let args = |jitter: &str| {
        run(
            train,
            &[
                "selfplay",
                "--out",
                data.to_str().unwrap(),
                "--games",
                "2",
                "--nodes",
                "300",
                "--eval",
                "material",
                "--random-plies",
                "0",
                "--node-jitter",
                jitter,
            ],
        )
    };
    let o = args("100");
    assert!(!o.status.success());
    assert!(text(&o).contains("--node-jitter"), "{}", text(&o));
    assert!(!data.exists());
    let o = args("50");
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("2 games"), "{}", text(&o));
}
