//! `damas perft`: the published counts through the command line, and the position
//! itself at depth 0.

/// The Russian tree of the published counts through the command line.
#[test]
fn perft_command_counts_russian() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["perft", "--variant", "russian", "--depth", "8"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("nodes 929899 "), "{text}");
}

/// `damas perft --depth 0 --threads 2` counts the position itself (it printed 7, the
/// number of root moves).
#[test]
fn perft_depth_zero_with_threads_is_one() {
    for extra in [&[][..], &["--threads", "2"][..], &["--divide"][..]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_damas"))
            .args(["perft", "--depth", "0"])
            .args(extra)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with("nodes 1 "), "{extra:?}: {text}");
    }
}
