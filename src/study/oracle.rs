//! The endgame database as the search's [`Oracle`], for the study's `egdb` rows: the
//! value and distance only (the search needs no best move below the root).

use std::path::Path;

use crate::egdb::{Egdb, EgdbError, Wdl};
use crate::position::Position;
use crate::search::{Oracle, OracleAnswer, OracleValue};

/// An opened database answering the search's probes.
#[derive(Debug)]
pub struct EgdbOracle(Egdb);

impl EgdbOracle {
    /// Map the database in `dir` (checked as [`Egdb::open`] checks it).
    pub fn open(dir: &Path) -> Result<EgdbOracle, EgdbError> {
        Egdb::open(dir).map(EgdbOracle)
    }
}

impl Oracle for EgdbOracle {
    fn probe(&self, pos: &Position) -> Option<OracleAnswer> {
        let v = self.0.probe_value(pos)?;
        let value = match v.wdl {
            Wdl::Win => OracleValue::Win,
            Wdl::Draw => OracleValue::Draw,
            Wdl::Loss => OracleValue::Loss,
        };
        Some(OracleAnswer {
            value,
            best: None,
            plies: v.distance.map(u32::from),
        })
    }

    fn max_pieces(&self) -> u32 {
        self.0.max_pieces() as u32
    }
}
