//! A tmux server of its own for the terminal end-to-end tests: keys in, screen out.
#![allow(dead_code)] // each terminal test uses part of it

use std::process::{Command, Output};
use std::thread::sleep;
use std::time::{Duration, Instant};

pub struct Tmux {
    pub socket: String,
}

impl Tmux {
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs")
    }

    pub fn capture(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "e2e"]).stdout).into_owned()
    }

    pub fn flags(&self) -> String {
        let out = self.run(&["display-message", "-p", "-t", "e2e", "#{alternate_on} #{cursor_flag} #{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}"]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "e2e"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    pub fn literal(&self, text: &str) {
        self.run(&["send-keys", "-t", "e2e", "-l", text]);
    }

    /// Type a move and play it.
    pub fn play_move(&self, mv: &str) {
        self.literal(mv);
        self.keys(&["Enter"]);
    }

    /// Wait until the pane satisfies `pred`, polling every `step`; the capture.
    pub fn poll(
        &self,
        what: &str,
        timeout: Duration,
        step: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> String {
        let start = Instant::now();
        loop {
            let screen = self.capture();
            if pred(&screen) {
                return screen;
            }
            if start.elapsed() > timeout {
                panic!("timed out waiting for {what}; screen:\n{screen}");
            }
            sleep(step);
        }
    }

    pub fn wait_for(&self, what: &str, timeout: Duration, pred: impl Fn(&str) -> bool) -> String {
        self.poll(what, timeout, Duration::from_millis(100), pred)
    }

    /// The terminal is back to normal: primary screen, cursor shown, no mouse, cooked mode.
    pub fn assert_restored(&self) {
        assert_eq!(
            self.flags(),
            "0 1 000",
            "alternate screen, cursor, mouse flags after exit"
        );
        self.run(&["send-keys", "-t", "e2e", "clear; stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | sort | tr '\\n' ' '; echo STTY-DONE", "Enter"]);
        let screen = self.wait_for("stty output", Duration::from_secs(10), |s| {
            s.lines()
                .any(|l| l.contains("STTY-DONE") && !l.contains("echo STTY"))
        });
        let line = screen
            .lines()
            .find(|l| l.contains("icanon") && !l.contains("grep"))
            .unwrap_or("");
        assert!(
            line.contains("echo icanon") && !line.contains("-icanon") && !line.contains("-echo"),
            "terminal modes: {line:?}\n{screen}"
        );
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .arg("kill-server")
            .output();
    }
}
