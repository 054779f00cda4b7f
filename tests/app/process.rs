//! Running a command with text on its stdin, as the tests that drive the binaries
//! (the Hub above all) need.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Run `command` with `input` on stdin; its stdout and stderr are captured.
pub fn with_input(mut command: Command, input: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the command");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait for the command")
}
