//! Progress bars for long library jobs (database builds, self-play, the study).
//!
//! With the `progress` feature a [`Bar`] is an `indicatif` bar on stderr; without
//! it every call does nothing, so the library alone does not pull in a terminal
//! crate.

/// A progress bar on stderr, or nothing when hidden or built without the
/// `progress` feature. Shared by reference between worker threads.
#[derive(Debug)]
pub struct Bar {
    #[cfg(feature = "progress")]
    inner: indicatif::ProgressBar,
}

impl Bar {
    /// A bar that draws nothing.
    pub fn hidden() -> Self {
        Self {
            #[cfg(feature = "progress")]
            inner: indicatif::ProgressBar::hidden(),
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
            use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
            let inner = ProgressBar::with_draw_target(len, ProgressDrawTarget::stderr());
            // The templates are literals in this crate; a bad one only loses the style.
            if let Ok(style) = ProgressStyle::with_template(template) {
                inner.set_style(style.progress_chars("=> "));
            }
            Self { inner }
        }
        #[cfg(not(feature = "progress"))]
        Self::hidden()
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

    /// Remove the bar from the terminal.
    pub fn finish_and_clear(&self) {
        #[cfg(feature = "progress")]
        self.inner.finish_and_clear();
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
}
