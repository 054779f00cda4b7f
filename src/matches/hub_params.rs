//! What a match tells a Hub engine (`cmd=…`) of its spec: the `set-param` lines, so
//! that a key the engine cannot honour stops the match instead of being dropped.

use damas_engine::eval::EvalName;

use super::player::EngineSpec;

impl EngineSpec {
    /// The `set-param` name/value pairs for this spec, given the parameters the engine
    /// declared (`offered`). Techniques, table sizes, threads, the move overhead and the
    /// database policy (`egdb-wins`), when the spec gives them, are always sent (the
    /// engine reports an error for one it lacks); the move numbering, the book and the
    /// evaluation only to engines that declare them; the database directory (`egdb`)
    /// as `egdb-dir`, which the engine must declare. An evaluation other than the
    /// default for an engine without an `eval` parameter is an error, which names the
    /// key: the engine would silently play with its own.
    pub fn hub_params(&self, offered: &[String]) -> Result<Vec<(&'static str, String)>, String> {
        let offers = |name: &str| offered.iter().any(|p| p == name);
        let mut out = Vec::new();
        // Sent whenever offered: the engine's default may differ from the spec's.
        if offers("move-numbering") {
            out.push(("move-numbering", self.numbering.to_string()));
        }
        // What the spec gave of these is sent whether offered or not.
        for key in [
            "techniques",
            "tt-bits",
            "hash",
            "threads",
            "move-overhead",
            "egdb-wins",
        ] {
            if let Some(value) = self.setting(key) {
                out.push((key, value));
            }
        }
        // The engine's default may differ from the match's (off).
        if offers("book") {
            out.push(("book", self.settings.book.to_string()));
        }
        if !self.settings.strength.is_full() {
            out.push(("strength", self.settings.strength.number().to_string()));
        }
        if let Some(dir) = &self.egdb {
            if !offers("egdb-dir") {
                return Err(format!(
                    "egdb={}: the engine has no `egdb-dir` parameter",
                    dir.display()
                ));
            }
            out.push(("egdb-dir", dir.display().to_string()));
        }
        if offers("eval") {
            out.push(("eval", self.settings.eval.to_string()));
        } else if self.settings.eval != EvalName::default() {
            return Err(format!(
                "eval={}: the engine has no `eval` parameter",
                self.settings.eval
            ));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offered(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_evaluation_reaches_engines_that_offer_it() {
        let spec: EngineSpec = "eval=material,hash=8,cmd=damas hub".parse().unwrap();
        let sent = spec
            .hub_params(&offered(&["hash", "eval", "book"]))
            .unwrap();
        assert!(sent.contains(&("eval", "material".to_string())), "{sent:?}");
        assert!(sent.contains(&("hash", "8".to_string())), "{sent:?}");
        assert!(sent.contains(&("book", "false".to_string())), "{sent:?}");
        // The default evaluation is sent too, so the engine's own default does not
        // decide.
        let spec: EngineSpec = "depth=2,cmd=damas hub".parse().unwrap();
        let sent = spec.hub_params(&offered(&["eval"])).unwrap();
        assert_eq!(sent, vec![("eval", "trained".to_string())]);
    }

    #[test]
    fn the_database_directory_is_sent_as_egdb_dir() {
        let spec: EngineSpec = "egdb=/db/br,depth=2,cmd=damas hub".parse().unwrap();
        let sent = spec.hub_params(&offered(&["egdb-dir"])).unwrap();
        assert_eq!(sent, vec![("egdb-dir", "/db/br".to_string())]);
        // An engine without the parameter would play without them: refused.
        let e = spec.hub_params(&offered(&["hash"])).unwrap_err();
        assert!(e.contains("egdb=/db/br") && e.contains("egdb-dir"), "{e}");
        // The policy is sent when the spec names it.
        let spec: EngineSpec = "egdb=/db/br,egdb-wins=verdict,cmd=damas hub"
            .parse()
            .unwrap();
        let sent = spec
            .hub_params(&offered(&["egdb-dir", "egdb-wins"]))
            .unwrap();
        assert!(
            sent.contains(&("egdb-wins", "verdict".to_string())),
            "{sent:?}"
        );
    }

    #[test]
    fn an_evaluation_the_engine_cannot_take_is_refused() {
        let spec: EngineSpec = "eval=material,cmd=old hub".parse().unwrap();
        let e = spec.hub_params(&offered(&["hash"])).unwrap_err();
        assert!(
            e.contains("eval=material") && e.contains("no `eval`"),
            "{e}"
        );
        // Without the key, an engine without the parameter is fine.
        let spec: EngineSpec = "depth=2,cmd=old hub".parse().unwrap();
        assert_eq!(spec.hub_params(&offered(&["hash"])).unwrap(), vec![]);
    }
}
