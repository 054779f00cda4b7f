//! The study's claims, checked on the data present: the ranking at the deepest
//! common depth, TT with iterative deepening against plain α-β, and the default
//! configuration against the thesis' best row (the 60% goal).

use std::fmt::Write;

use super::{selective_base, thousands, Summary};
use crate::study::config::Config;

/// The study's claims, checked on the data present.
pub(crate) fn checks(s: &Summary, m: &mut String) {
    let _ = writeln!(m, "\n### Checks\n");
    let Some(deep) = s.deepest_common() else {
        let _ = writeln!(m, "No depth at which every configuration has results.");
        return;
    };
    let mut order: Vec<(&str, f64)> = s
        .configs
        .iter()
        .filter_map(|c| s.mean(c, deep).map(|x| (c.as_str(), x)))
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    let _ = writeln!(
        m,
        "- Ranking at depth {deep} (most nodes first): {}.",
        order
            .iter()
            .map(|(c, x)| format!("`{c}` {}", thousands(*x)))
            .collect::<Vec<_>>()
            .join(" > ")
    );
    let thesis_order: Vec<&str> = order
        .iter()
        .filter_map(|(c, _)| {
            Config::parse(c)
                .ok()
                .and_then(|cfg| cfg.thesis_row())
                .map(|_| *c)
        })
        .collect();
    let expected: Vec<&str> = crate::study::config::THESIS_TABLE
        .iter()
        .filter_map(|(l, _)| s.find_same(l))
        .collect();
    let _ = writeln!(
        m,
        "- Thesis rows in the thesis' order at depth {deep}: {}.",
        if thesis_order == expected {
            "yes".to_string()
        } else {
            format!(
                "no (thesis: {})",
                expected
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(" > ")
            )
        }
    );
    if let (Some(ab), Some(idtt)) = (s.find_same("ab"), s.find_same("ab+id+tt")) {
        let ratios: Vec<String> = s
            .depths
            .iter()
            .filter_map(|&d| Some((d, s.mean(ab, d)? / s.mean(idtt, d)?)))
            .map(|(d, r)| format!("d{d} {r:.2}×"))
            .collect();
        let _ = writeln!(
            m,
            "- `{ab}` / `{idtt}` (TT with iterative deepening against plain α-β): {}.",
            ratios.join(", ")
        );
    }
    let against = s
        .find_same("pvs+asp+tt+egdb")
        .map(|l| (l, true))
        .or(s.find_same("pvs+asp+tt").map(|l| (l, false)));
    let reference = |m: &mut String, what: &str, label: &str| {
        let Some((best, is_egdb)) = against else {
            let _ = writeln!(
                m,
                "- The thesis' best row was not run; no comparison for {what}."
            );
            return;
        };
        if let (Some(a), Some(b)) = (s.mean(label, deep), s.mean(best, deep)) {
            let r = a / b;
            let _ = writeln!(
                m,
                "- {what} `{label}` at depth {deep}: {:.1}% of the nodes of `{best}`{} — {} the 60% goal.",
                100.0 * r,
                if is_egdb {
                    ""
                } else {
                    " (the thesis' best row without the endgame database; the egdb rows were not run)"
                },
                if r <= 0.6 { "meets" } else { "misses" }
            );
        }
    };
    let default = damas_engine::search::Techniques::strongest();
    match s.find_same("default") {
        Some(label) => reference(
            m,
            &format!("Default configuration (`{default}`), row"),
            label,
        ),
        None => {
            let _ = writeln!(m, "- The default configuration (`{default}`) was not run.");
        }
    }
    let best_full = order
        .iter()
        .rev()
        .find(|(c, _)| selective_base(c).is_none())
        .map(|(c, _)| *c);
    if let Some(best) = best_full {
        reference(m, "Fewest nodes among the full-width configurations:", best);
    }
}
