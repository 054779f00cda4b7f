//! The README's sample outputs are the program's: every fenced block whose info string
//! is `text check` is run and compared, failing when the output drifts from it.
//!
//! In such a block a line `$ damas ARGS` runs `damas` (arguments split at spaces,
//! `"…"` quoted; `$ damas-egdb ARGS` runs `damas-egdb` on slices of 1–4 pieces built
//! here) and the lines after it, up to the next `$` line, are its expected
//! output. For `damas hub`, the lines that are Hub commands (`hub`, `init`, `pos` …)
//! are sent on stdin and the others are expected. Expected lines must appear in order
//! and one after another, except that a line starting with `…` stands for any number
//! of lines, and a `…` inside a line for any text. Timings (`time`, `nps`) are not
//! compared. Output past the last expected line is not checked.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A command of a checked block and the lines it should print.
#[derive(Debug)]
struct Example {
    /// `damas` or `damas-egdb`.
    program: &'static str,
    args: Vec<String>,
    input: Vec<String>,
    expected: Vec<String>,
}

/// Words that start a Hub command sent by a GUI.
const HUB_INPUT: [&str; 10] = [
    "hub",
    "init",
    "set-param",
    "pos",
    "level",
    "go",
    "stop",
    "ponder-hit",
    "new-game",
    "quit",
];

/// `a "b c" d` → `a`, `b c`, `d`.
fn split_args(text: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let (mut quoted, mut any) = (false, false);
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    args.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        args.push(cur);
    }
    args
}

/// The examples of the `text check` blocks of `markdown`.
fn examples(markdown: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_block = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_block = !in_block && line.trim_start_matches('`').trim() == "text check";
            continue;
        }
        if !in_block {
            continue;
        }
        let command = match line.strip_prefix("$ damas-egdb ") {
            Some(cmd) => Some(("damas-egdb", cmd)),
            None => line.strip_prefix("$ damas").map(|cmd| ("damas", cmd)),
        };
        if let Some((program, cmd)) = command {
            out.push(Example {
                program,
                args: split_args(cmd.trim()),
                input: Vec::new(),
                expected: Vec::new(),
            });
            continue;
        }
        let Some(ex) = out.last_mut() else { continue };
        let first = line.split_whitespace().next().unwrap_or("");
        if ex.program == "damas"
            && ex.args.first().map(String::as_str) == Some("hub")
            && HUB_INPUT.contains(&first)
        {
            ex.input.push(line.to_string());
        } else {
            ex.expected.push(line.to_string());
        }
    }
    out
}

/// `line` with the values of `time` and `nps` (`time=0.001`, `nps 123`) replaced by `*`.
fn normalise(line: &str) -> String {
    let mut out = Vec::new();
    let mut blank_next = false;
    for word in line.split(' ') {
        if blank_next {
            out.push("*".to_string());
            blank_next = false;
            continue;
        }
        match word.split_once('=') {
            Some((key @ ("time" | "nps"), _)) => out.push(format!("{key}=*")),
            _ => {
                blank_next = matches!(word, "time" | "nps");
                out.push(word.to_string());
            }
        }
    }
    out.join(" ")
}

/// Whether `actual` matches `expected`, where `…` in `expected` stands for any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let (expected, actual) = (normalise(expected), normalise(actual));
    let parts: Vec<&str> = expected.split('…').collect();
    if parts.len() == 1 {
        return expected.trim_end() == actual.trim_end();
    }
    let Some(mut rest) = actual.strip_prefix(parts[0]) else {
        return false;
    };
    for part in &parts[1..] {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

/// Where `expected` fails to match `actual`, if it does.
fn mismatch(expected: &[String], actual: &[String]) -> Option<String> {
    let mut i = 0;
    let mut gap = false;
    for e in expected {
        if e.trim_start().starts_with('…') {
            gap = true;
            continue;
        }
        let found = if gap {
            (i..actual.len()).find(|&j| line_matches(e, &actual[j]))
        } else {
            (i < actual.len() && line_matches(e, &actual[i])).then_some(i)
        };
        match found {
            Some(j) => i = j + 1,
            None => {
                return Some(format!(
                    "expected {e:?} at output line {}, found {:?}",
                    i + 1,
                    actual.get(i)
                ))
            }
        }
        gap = false;
    }
    None
}

/// Win/draw/loss slices of 1–4 pieces (what `damas-egdb build` writes, fewer
/// pieces), built once, for the `damas-egdb` examples.
fn egdb_dir() -> &'static std::path::Path {
    crate::slices::brazilian(4)
}

/// Run the example's program on its arguments and input; its stdout lines.
fn run(ex: &Example) -> Vec<String> {
    let mut command = match ex.program {
        "damas-egdb" => {
            let mut c = Command::new(env!("CARGO_BIN_EXE_damas-egdb"));
            c.env("DAMAS_EGDB", egdb_dir());
            c
        }
        _ => Command::new(env!("CARGO_BIN_EXE_damas")),
    };
    let mut child = command
        .args(&ex.args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run damas");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    for line in &ex.input {
        writeln!(stdin, "{line}").unwrap();
    }
    let searches = ex.input.iter().filter(|l| l.starts_with("go ")).count();
    let mut lines = Vec::new();
    // A Hub session ends when its searches are done; then it is told to quit.
    let mut done = 0;
    while done < searches {
        let line = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the search ends");
        done += usize::from(line.starts_with("done"));
        lines.push(line);
    }
    writeln!(stdin, "quit").ok();
    drop(stdin);
    lines.extend(rx.iter());
    assert!(
        child.wait().unwrap().success(),
        "{} {:?}",
        ex.program,
        ex.args
    );
    lines
}

#[test]
fn the_readmes_checked_examples_match_the_program() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let examples = examples(&readme);
    assert!(examples.len() >= 2, "checked examples: {examples:?}");
    for ex in &examples {
        let actual = run(ex);
        if let Some(why) = mismatch(&ex.expected, &actual) {
            panic!(
                "README example `{} {}` drifted: {why}\noutput:\n{}",
                ex.program,
                ex.args.join(" "),
                actual.join("\n")
            );
        }
    }
}

#[test]
fn the_checker_finds_drift() {
    let text = "```text check\n$ damas analyze --fen \"W:Wa1:B\" --depth 1\ngame over: White wins (no pieces left), 2-0\n```\n";
    let ex = examples(text);
    assert_eq!(ex.len(), 1);
    assert_eq!(ex[0].args, ["analyze", "--fen", "W:Wa1:B", "--depth", "1"]);
    let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let actual = lines(&["a 1", "info depth=2 time=0.003 nps=9", "done move=1"]);
    assert_eq!(mismatch(&lines(&["a 1"]), &actual), None);
    assert_eq!(
        mismatch(
            &lines(&["…", "info depth=2 time=0.000 nps=1", "done …"]),
            &actual
        ),
        None
    );
    assert!(mismatch(&lines(&["a 2"]), &actual).is_some());
    assert!(mismatch(&lines(&["a 1", "done move=1"]), &actual).is_some());
    assert!(mismatch(&lines(&["a 1", "…", "done move=2"]), &actual).is_some());
}
