//! Progress bars for long library jobs (database builds, self-play, the study).
//!
//! With the `progress` feature a [`Bar`] is an `indicatif` bar on stderr; without
//! it every call does nothing, so the library alone does not pull in a terminal
//! crate. Where stderr is not a terminal (a log file, a pipe) there are no
//! redrawn frames: a job shorter than [`LOG_EVERY`] writes nothing, a longer one
//! a plain line every [`LOG_EVERY`] and, when it finishes, one line saying so (or
//! its last state when it stops short of done), so a log never ends on a stale
//! estimate.

#[cfg(feature = "progress")]
use std::io::Write;
#[cfg(feature = "progress")]
use std::sync::{Arc, Mutex};
use std::time::Duration;
#[cfg(feature = "progress")]
use std::time::Instant;

/// How often a bar writes its line where stderr is not a terminal.
pub const LOG_EVERY: Duration = Duration::from_secs(30);

/// A progress bar on stderr, or nothing when hidden or built without the
/// `progress` feature. Shared by reference between worker threads.
#[derive(Debug)]
pub struct Bar {
    #[cfg(feature = "progress")]
    inner: indicatif::ProgressBar,
    /// The line log that stands in for the terminal, if one does.
    #[cfg(feature = "progress")]
    log: Option<Arc<Mutex<LogState>>>,
}

impl Bar {
    /// A bar that draws nothing.
    pub fn hidden() -> Self {
        Self {
            #[cfg(feature = "progress")]
            inner: indicatif::ProgressBar::hidden(),
            #[cfg(feature = "progress")]
            log: None,
        }
    }

    /// A bar of `len` steps (a spinner when `None`) drawn with `template`
    /// (`indicatif`'s template syntax, `=> ` as bar characters), or a hidden one
    /// unless `show`.
    #[cfg_attr(not(feature = "progress"), allow(unused_variables))]
    pub fn new(show: bool, len: Option<u64>, template: &str) -> Self {
        if !show {
            return Self::hidden();
        }
        #[cfg(feature = "progress")]
        {
            use std::io::IsTerminal;
            if !std::io::stderr().is_terminal() {
                return Self::logging(len, template, LOG_EVERY, Box::new(std::io::stderr()));
            }
            let target = indicatif::ProgressDrawTarget::stderr();
            Self::styled(
                indicatif::ProgressBar::with_draw_target(len, target),
                template,
                None,
            )
        }
        #[cfg(not(feature = "progress"))]
        Self::hidden()
    }

    /// A bar that writes its line to `out` as lines of text, at most once `every`
    /// and the first `every` after it starts; once it has written one, a closing
    /// line when it finishes (or its last state when dropped unfinished).
    #[cfg(feature = "progress")]
    pub fn logging(
        len: Option<u64>,
        template: &str,
        every: Duration,
        out: Box<dyn Write + Send>,
    ) -> Self {
        let state = Arc::new(Mutex::new(LogState {
            line: String::new(),
            latest: String::new(),
            latest_written: true,
            written: false,
            last: Some(Instant::now()),
            every,
            out,
        }));
        let term = LogLines(Arc::clone(&state));
        let target = indicatif::ProgressDrawTarget::term_like_with_hz(Box::new(term), 1);
        let inner = indicatif::ProgressBar::with_draw_target(len, target);
        Self::styled(inner, template, Some(state))
    }

    #[cfg(feature = "progress")]
    fn styled(
        inner: indicatif::ProgressBar,
        template: &str,
        log: Option<Arc<Mutex<LogState>>>,
    ) -> Self {
        // The templates are literals in this crate; a bad one only loses the style.
        if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
            inner.set_style(style.progress_chars("=> "));
        }
        Self { inner, log }
    }

    /// Advance by `n` steps.
    #[cfg_attr(not(feature = "progress"), allow(unused_variables))]
    pub fn inc(&self, n: u64) {
        #[cfg(feature = "progress")]
        self.inner.inc(n);
    }

    /// Add `n` steps to the length (work found while it is done).
    #[cfg_attr(not(feature = "progress"), allow(unused_variables))]
    pub fn inc_length(&self, n: u64) {
        #[cfg(feature = "progress")]
        self.inner.inc_length(n);
    }

    /// Set the number of steps done.
    #[cfg_attr(not(feature = "progress"), allow(unused_variables))]
    pub fn set_position(&self, pos: u64) {
        #[cfg(feature = "progress")]
        self.inner.set_position(pos);
    }

    /// Set the text shown as `{msg}`.
    #[cfg_attr(not(feature = "progress"), allow(unused_variables))]
    pub fn set_message(&self, msg: String) {
        #[cfg(feature = "progress")]
        self.inner.set_message(msg);
    }

    /// Redraw a spinner.
    pub fn tick(&self) {
        #[cfg(feature = "progress")]
        self.inner.tick();
    }

    /// Remove the bar from the terminal. A log that had progress lines gets a
    /// closing one (steps and time), not the estimate of the last frame.
    pub fn finish_and_clear(&self) {
        #[cfg(feature = "progress")]
        {
            // The steps done, read before finishing (which counts the bar full).
            let steps = match self.inner.length() {
                Some(len) => format!("{}/{len}", self.inner.position()),
                None => self.inner.position().to_string(),
            };
            self.inner.finish_and_clear();
            if let Some(Ok(mut s)) = self.log.as_ref().map(|l| l.lock()) {
                if s.written {
                    let line = format!(
                        "{} done: {steps} in {:.0} s",
                        self.inner.message(),
                        self.inner.elapsed().as_secs_f64()
                    );
                    // Progress is best effort: a closed stderr only loses the line.
                    let _ = writeln!(s.out, "{}", line.trim_start()).and_then(|()| s.out.flush());
                }
                s.latest_written = true;
            }
        }
    }
}

#[cfg(feature = "progress")]
impl Drop for Bar {
    /// The log of a job that stopped short ends with the bar's last state, if
    /// it had progress lines and the interval held that one back.
    fn drop(&mut self) {
        if let Some(log) = &self.log {
            if let Ok(mut s) = log.lock() {
                if s.written && !s.latest_written {
                    let line = std::mem::take(&mut s.latest);
                    // Progress is best effort: a closed stderr only loses the line.
                    let _ = writeln!(s.out, "{line}").and_then(|()| s.out.flush());
                }
            }
        }
    }
}

/// What a logging bar has drawn since its last line, and when that line went out.
#[cfg(feature = "progress")]
struct LogState {
    line: String,
    /// The last line drawn, and whether it went out.
    latest: String,
    latest_written: bool,
    /// Whether any line went out.
    written: bool,
    last: Option<Instant>,
    every: Duration,
    out: Box<dyn Write + Send>,
}

/// The terminal `indicatif` draws on for a logging bar: cursor moves are ignored,
/// the text drawn between two flushes is one line of the log.
#[cfg(feature = "progress")]
#[derive(Debug)]
struct LogLines(Arc<Mutex<LogState>>);

#[cfg(feature = "progress")]
impl std::fmt::Debug for LogState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogState")
            .field("line", &self.line)
            .field("last", &self.last)
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "progress")]
impl LogLines {
    fn with<R>(&self, f: impl FnOnce(&mut LogState) -> R) -> std::io::Result<R> {
        let mut s = self
            .0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?;
        Ok(f(&mut s))
    }
}

#[cfg(feature = "progress")]
impl indicatif::TermLike for LogLines {
    fn width(&self) -> u16 {
        120
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.write_str(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.with(|st| {
            if !st.line.is_empty() && !s.is_empty() {
                st.line.push(' ');
            }
            st.line.push_str(s.trim_matches(['\r', '\n']));
        })
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.with(|st| st.line.clear())
    }
    fn flush(&self) -> std::io::Result<()> {
        self.with(|st| {
            let line = std::mem::take(&mut st.line);
            if line.trim().is_empty() {
                return Ok(());
            }
            st.latest = line.trim_end().to_string();
            let now = Instant::now();
            st.latest_written = st.last.is_none_or(|t| now.duration_since(t) >= st.every);
            if !st.latest_written {
                return Ok(());
            }
            st.last = Some(now);
            st.written = true;
            writeln!(st.out, "{}", st.latest)?;
            st.out.flush()
        })?
    }
}

#[cfg(test)]
mod tests {
    use super::Bar;

    /// Worker threads share one bar by reference.
    const _: () = {
        const fn shared<T: Send + Sync>() {}
        shared::<Bar>();
    };

    #[cfg(feature = "progress")]
    mod logging {
        use super::Bar;
        use std::io::Write;
        use std::sync::{Arc, Mutex};
        use std::time::Duration;

        /// A writer whose text the test reads afterwards.
        #[derive(Clone, Default)]
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }

        fn lines(every: Duration) -> Vec<String> {
            let out = Shared::default();
            let bar = Bar::logging(
                Some(10),
                "{pos}/{len} games {msg}",
                every,
                Box::new(out.clone()),
            );
            for i in 1..=10 {
                bar.set_message(format!("step {i}"));
                bar.inc(1);
            }
            drop(bar);
            let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
            text.lines().map(str::to_string).collect()
        }

        #[test]
        fn a_short_job_writes_nothing_and_a_long_one_ends_on_a_closing_line() {
            let run = |every: Duration| {
                let out = Shared::default();
                let bar = Bar::logging(
                    Some(10),
                    "{pos}/{len} ETA {eta}",
                    every,
                    Box::new(out.clone()),
                );
                bar.set_message("w21b10".into());
                bar.inc(1);
                bar.inc(1);
                bar.finish_and_clear();
                drop(bar);
                let bytes = out.0.lock().unwrap().clone();
                String::from_utf8(bytes).unwrap()
            };
            assert_eq!(run(Duration::from_secs(3600)), "");
            let text = run(Duration::ZERO);
            let last = text.lines().last().unwrap_or_default();
            assert!(last.starts_with("w21b10 done: 2/10 in "), "{text:?}");
            assert!(!last.contains("ETA") && !text.contains('\r'), "{text:?}");
        }

        #[test]
        fn a_log_gets_plain_lines_only_after_the_interval() {
            // An hour between lines: a job of a moment writes none.
            assert!(lines(Duration::from_secs(3600)).is_empty());
            // No interval: every draw the bar makes is a line of its own.
            let l = lines(Duration::ZERO);
            assert_eq!(l.last().unwrap(), "10/10 games step 10", "{l:?}");
            assert!(
                l.iter()
                    .all(|x| x.contains("/10 games") && !x.contains('\r')),
                "{l:?}"
            );
        }
    }
}
