//! The endgame database as the search's [`Oracle`].

use std::sync::Arc;

use crate::{Egdb, Wdl};
use damas_engine::oracle::{Oracle, OracleAnswer, OracleValue};
use damas_rules::position::Position;
use damas_rules::Variant;

/// The 1–4-piece databases built into the program for `variant`, as a search's
/// oracle ([`Egdb::built_in`]): what every front end uses where no directory
/// holds databases. `None` only if the program's copy is damaged.
pub fn built_in(variant: Variant) -> Option<Arc<dyn Oracle>> {
    Egdb::built_in(variant)
        .ok()
        .map(|db| Arc::new(db) as Arc<dyn Oracle>)
}

fn value(wdl: Wdl) -> OracleValue {
    match wdl {
        Wdl::Win => OracleValue::Win,
        Wdl::Draw => OracleValue::Draw,
        Wdl::Loss => OracleValue::Loss,
    }
}

impl Oracle for Egdb {
    fn probe(&self, pos: &Position) -> Option<OracleAnswer> {
        let p = Egdb::probe(self, pos)?;
        // Without a distance (the slices store win/draw/loss only) a winning move may
        // make no progress and a losing one may lose at once: leave both to the
        // search, which scores the database's wins by progress, so the winner drives
        // towards the end and the loser resists it. A drawing move is as good as any.
        let best = p
            .best
            .filter(|_| p.wdl == Wdl::Draw || p.distance.is_some());
        Some(OracleAnswer {
            value: value(p.wdl),
            best,
            plies: p.distance.map(u32::from),
            to_conversion: p.distance.is_some()
                && !self.has_legacy_part(pos.piece_count() as usize),
        })
    }

    fn probe_value(&self, pos: &Position) -> Option<OracleAnswer> {
        let v = Egdb::probe_value(self, pos)?;
        Some(OracleAnswer {
            value: value(v.wdl),
            best: None,
            plies: v.distance.map(u32::from),
            to_conversion: v.distance.is_some()
                && !self.has_legacy_part(pos.piece_count() as usize),
        })
    }

    fn root_only(&self) -> bool {
        self.is_built_in()
    }

    fn prepare_root(self: Arc<Self>, pos: &Position, wait: bool) {
        // A failed solve is remembered and leaves the position to the conversion
        // search, as without distances.
        if wait {
            let _ = self.solve_distances(pos);
        } else {
            Egdb::solve_distances_in_background(&self, pos);
        }
    }

    fn max_pieces(&self) -> u32 {
        Egdb::max_pieces(self) as u32
    }

    fn variant(&self) -> Variant {
        Egdb::variant(self)
    }
}
