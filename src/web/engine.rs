//! The one engine every tab shares, under the limits given to `damas web` (its
//! table size and threads): assembled by the engine assembler for the rules a job
//! asks for, and lent to one job at a time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::Duration;

use damas_egdb::oracle::Oracle;
use damas_engine::engine::{Databases, Engine, Sources};
use damas_engine::settings::EngineSettings;
use damas_rules::variant::Variant;

/// The shared engine: its settings, the databases of each rules, and the engine
/// itself once a job has asked for it (rebuilt when the rules change).
pub struct EngineHost {
    settings: EngineSettings,
    databases: Vec<(Variant, Option<Arc<dyn Oracle>>)>,
    engine: Mutex<Option<Engine>>,
}

/// How often a job waiting for the engine looks whether it was stopped.
const WAIT_STEP: Duration = Duration::from_millis(20);

impl EngineHost {
    /// An engine of `settings` (their table size and threads; the rules are each
    /// job's), searching with `databases` for the rules each names (the built-in
    /// ones of 1–4 pieces for rules without).
    pub fn new(
        settings: EngineSettings,
        databases: Vec<(Variant, Option<Arc<dyn Oracle>>)>,
    ) -> EngineHost {
        EngineHost {
            settings,
            databases,
            engine: Mutex::new(None),
        }
    }

    /// The engine set for `variant`, once no other job holds it; `None` when
    /// `stop` is raised while waiting. An error says why it could not be built.
    pub fn lend(
        &self,
        variant: Variant,
        stop: &AtomicBool,
    ) -> Result<Option<MutexGuard<'_, Option<Engine>>>, String> {
        let mut guard = loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            match self.engine.try_lock() {
                Ok(g) => break g,
                Err(TryLockError::Poisoned(p)) => break p.into_inner(),
                Err(TryLockError::WouldBlock) => std::thread::sleep(WAIT_STEP),
            }
        };
        let fits = guard
            .as_ref()
            .is_some_and(|e| e.searcher.options().variant() == variant);
        if !fits {
            // The old table goes before the new one is allocated.
            *guard = None;
            *guard = Some(self.build(variant)?);
        }
        Ok(Some(guard))
    }

    /// The database searched under `variant`, if any.
    pub fn database(&self, variant: Variant) -> Option<Arc<dyn Oracle>> {
        let found = self
            .databases
            .iter()
            .find(|(v, _)| *v == variant)
            .and_then(|(_, db)| db.clone());
        damas_engine::engine::with_built_in(found, variant, self.settings.builtin_egdb)
    }

    /// The table size every engine of the server gets, in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.settings.hash_mb
    }

    fn build(&self, variant: Variant) -> Result<Engine, String> {
        let mut settings = self.settings.clone();
        settings.variant = variant;
        let sources = Sources {
            databases: Databases::search(self.database(variant)),
            ..Sources::default()
        };
        Engine::try_new(&settings, &sources).map_err(|e| e.to_string())
    }
}
