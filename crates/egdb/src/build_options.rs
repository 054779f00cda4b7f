//! How to build, for both generations' builders: threads, progress bars, distances.

use crate::error::EgdbError;
use crate::progress::Bar;

/// How to build.
#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// Worker threads (0: rayon's default, one per core).
    pub threads: usize,
    /// Draw progress bars on stderr (only when it is a terminal).
    pub progress: bool,
    /// Also write each slice's distance file ([`crate::slices::dtc`]); a slice whose
    /// win/draw/loss file exists but not its distance file is solved again.
    pub dtc: bool,
}

impl BuildOptions {
    /// The worker pool these options ask for.
    pub(crate) fn pool(&self) -> Result<rayon::ThreadPool, EgdbError> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|source| EgdbError::Threads {
                threads: self.threads,
                source,
            })
    }
}

/// A progress bar on stderr (hidden unless `opts.progress`): with a known length a
/// bar with ETA, without one a spinner.
pub(crate) fn bar(opts: &BuildOptions, len: Option<u64>, msg: String) -> Bar {
    let template = if len.is_some() {
        "{msg:28} [{bar:40}] {percent:>3}% {elapsed_precise} left {eta_precise}"
    } else {
        "{msg:28} {spinner} {elapsed_precise}"
    };
    let pb = Bar::new(opts.progress, len, template);
    pb.set_message(msg);
    pb
}
