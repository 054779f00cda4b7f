//! Which search techniques are switched on, and their names on command lines
//! (`pvs+asp+tt`).

use std::fmt;
use std::str::FromStr;

/// Which search techniques are switched on. Parse from `pvs+asp+tt` or `pvs,asp,tt`;
/// `ab` alone means plain α-β.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Techniques {
    /// Principal variation search (null windows after the first move).
    pub pvs: bool,
    /// Iterative deepening.
    pub id: bool,
    /// Aspiration windows at the root (implies iterative deepening).
    pub asp: bool,
    /// Transposition table.
    pub tt: bool,
    /// Quiescence search of captures at the horizon.
    pub qs: bool,
    /// Two killer moves per ply.
    pub killers: bool,
    /// History heuristic.
    pub history: bool,
    /// Enhanced transposition cutoffs near the root (nodes with 6 or more plies to
    /// go; needs `tt`).
    pub etc: bool,
    /// MTD(f) driver over the TT, in place of the root procedure (each iteration
    /// starts from the previous score; without `id` one iteration from the static
    /// evaluation).
    pub mtdf: bool,
    /// Endgame database cutoffs (needs [`SearchOptions::oracle`](super::SearchOptions::oracle)).
    pub egdb: bool,
    /// Late move reductions: at null-window nodes with 3 or more plies to go, quiet
    /// moves after the first three that give the opponent no capture are searched
    /// one ply shallower first (two when late and deep), and again at full depth
    /// only if they beat alpha. Not one of the thesis' techniques.
    pub lmr: bool,
    /// The counting draw rules ([`damas_rules::drawrules`]): a line reaching one scores a
    /// draw, so a won ending is pursued before the count runs out. Not one of the
    /// thesis' techniques.
    pub rules: bool,
    /// Single-reply extensions: a node where the side to move has one legal move
    /// searches it one ply deeper (forced captures are common in draughts, and a
    /// forced move costs the opponent nothing to answer). Not one of the thesis'
    /// techniques.
    pub ext: bool,
    /// ProbCut: a null-window node with `probcut-min-depth` or more plies to go and
    /// no capture to make is cut off when a search `probcut-reduction` plies
    /// shallower clears `beta` by `probcut-margin` (the shallow result predicts the
    /// deep one; constants in [`Tuning`](crate::search::Tuning)). Not one of the
    /// thesis' techniques.
    pub probcut: bool,
    /// ProbCut from the table: where ProbCut applies, a table entry that is a lower
    /// bound no shallower than ProbCut's own search and clears its raised bound cuts
    /// the node off without that search. Off by default (docs/search.md): the
    /// searches it spares are cheap. Not one of the thesis' techniques.
    pub probcut_tt: bool,
    /// Reverse futility pruning: a null-window node with `rfp-max-depth` or fewer
    /// plies to go, where neither side has a capture, fails high at once when its
    /// static evaluation less `rfp-margin` per ply to go still reaches `beta`. Not one
    /// of the thesis' techniques.
    pub rfp: bool,
    /// Threat replies at the horizon: a quiet position where the opponent threatens a
    /// capture is not evaluated as it stands but searched one ply further (each quiet
    /// move, then the opponent's captures). Not one of the thesis' techniques.
    pub threat: bool,
    /// Singular extensions: a node with `se-min-depth` or more plies to go whose
    /// table move has a lower bound searches that move one ply deeper when every
    /// other move, at half the depth, stays below the bound less `se-margin` per ply
    /// to go; at a null-window node where that lowered bound clears `beta`, a second
    /// move reaching it cuts the node off (multi-cut). Not one of the thesis'
    /// techniques.
    pub singular: bool,
    /// Futility pruning: at a null-window node with `futility-max-depth` or fewer
    /// plies to go, whose moves are quiet and whose static evaluation plus
    /// `futility-margin` per ply to go stays at or below `alpha`, the moves after the
    /// first that neither give nor threaten a capture are skipped. Not one of the
    /// thesis' techniques.
    pub futility: bool,
    /// Internal iterative reduction: a non-root node with `iir-min-depth` or more
    /// plies to go and no move from the table is searched one ply shallower. Not one
    /// of the thesis' techniques.
    pub iir: bool,
    /// Selective deepening: at every non-capture, non-root node keep only this
    /// percentage of the moves (best by a cheap move score, in their original order).
    /// `sel35` / `sel50` on the command line; `None` searches every move.
    pub sel: Option<u8>,
}

/// Where a technique's on/off switch lives in [`Techniques`].
type Switch = fn(&mut Techniques) -> &mut bool;

/// Every technique's name on command lines, with the switch it sets: the one list
/// that parsing, printing and the error's list of known names read.
const NAMED: [(&str, Switch); 20] = [
    ("pvs", |t| &mut t.pvs),
    ("id", |t| &mut t.id),
    ("asp", |t| &mut t.asp),
    ("tt", |t| &mut t.tt),
    ("qs", |t| &mut t.qs),
    ("killers", |t| &mut t.killers),
    ("history", |t| &mut t.history),
    ("etc", |t| &mut t.etc),
    ("mtdf", |t| &mut t.mtdf),
    ("egdb", |t| &mut t.egdb),
    ("lmr", |t| &mut t.lmr),
    ("rules", |t| &mut t.rules),
    ("ext", |t| &mut t.ext),
    ("probcut", |t| &mut t.probcut),
    ("probcut-tt", |t| &mut t.probcut_tt),
    ("rfp", |t| &mut t.rfp),
    ("threat", |t| &mut t.threat),
    ("singular", |t| &mut t.singular),
    ("futility", |t| &mut t.futility),
    ("iir", |t| &mut t.iir),
];

/// Error for an unknown technique name; its message lists the known ones.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown search technique {0:?} (known: {known})", known = Techniques::known_names())]
pub struct TechniqueError(pub String);

impl FromStr for Techniques {
    type Err = TechniqueError;
    fn from_str(s: &str) -> Result<Techniques, TechniqueError> {
        let mut t = Techniques::default();
        for name in s.split(['+', ',']).map(str::trim).filter(|n| !n.is_empty()) {
            if name.eq_ignore_ascii_case("default") {
                // The default engine's set, so a change is written `default+threat`.
                t = t.union(Techniques::engine());
            } else {
                t.switch_on(name)?;
            }
        }
        Ok(t)
    }
}

impl fmt::Display for Techniques {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The table's switches are mutable accessors: read them on a copy.
        let mut copy = *self;
        let mut on: Vec<String> = NAMED
            .iter()
            .filter(|(_, flag)| *flag(&mut copy))
            .map(|(name, _)| name.to_string())
            .collect();
        if let Some(p) = self.sel {
            on.push(format!("sel{p}"));
        }
        if on.is_empty() {
            f.write_str("ab")
        } else {
            f.write_str(&on.join("+"))
        }
    }
}

impl Techniques {
    /// The combination used when none is given (`pvs+id+asp+tt+qs+history+etc`): the
    /// thesis' techniques that reach a given depth fastest on the middle-game test
    /// positions (the node counts of each combination: docs/node-study.md).
    pub fn strongest() -> Techniques {
        Techniques {
            pvs: true,
            id: true,
            asp: true,
            tt: true,
            qs: true,
            history: true,
            etc: true,
            ..Techniques::default()
        }
    }

    /// The default engine's combination: [`Techniques::strongest`] plus late move
    /// reductions, ProbCut, reverse futility pruning, singular extensions, futility
    /// pruning, internal iterative reduction, the counting draw rules, and killers
    /// (which cost nodes with the thesis' material count but pay with the trained
    /// evaluation's graded scores); docs/search.md has the matches.
    pub fn engine() -> Techniques {
        Techniques {
            lmr: true,
            rules: true,
            killers: true,
            probcut: true,
            rfp: true,
            singular: true,
            futility: true,
            iir: true,
            ..Techniques::strongest()
        }
    }

    /// Each technique's own name, in the order [`Techniques`] prints them.
    pub fn names() -> impl Iterator<Item = &'static str> {
        NAMED.iter().map(|(name, _)| *name)
    }

    /// Every name a technique list may hold: `default`, `ab`, each technique's,
    /// and the selective-deepening forms, as the error message lists them.
    fn known_names() -> String {
        let named: Vec<&str> = Techniques::names().collect();
        format!("default, ab, {}, sel35, sel50, sel<1-99>", named.join(", "))
    }

    /// The techniques switched on in either set (`sel` from `self` where it has one).
    fn union(mut self, mut other: Techniques) -> Techniques {
        for (_, flag) in NAMED {
            *flag(&mut self) |= *flag(&mut other);
        }
        self.sel = self.sel.or(other.sel);
        self
    }

    /// Switch on the technique called `name`.
    fn switch_on(&mut self, name: &str) -> Result<(), TechniqueError> {
        if name == "ab" {
            return Ok(());
        }
        if let Some((_, flag)) = NAMED.iter().find(|(n, _)| *n == name) {
            *flag(self) = true;
            return Ok(());
        }
        match name.strip_prefix("sel").and_then(|p| p.parse::<u8>().ok()) {
            Some(p) if (1..=99).contains(&p) => self.sel = Some(p),
            _ => return Err(TechniqueError(name.to_string())),
        }
        Ok(())
    }
}
