//! The summary of a run: each parameter's start, its value now, and its path at
//! every tenth of the iterations done, as a Markdown table.

use super::spsa::Spsa;

/// The iterations the summary's path shows: 0, then every tenth of the `done`
/// iterations (each once).
pub fn path_points(done: u64) -> Vec<u64> {
    let mut points: Vec<u64> = (0..=10).map(|j| (done * j + 5) / 10).collect();
    points.dedup();
    points
}

/// The table: one row per parameter, its start, its value now and its path.
pub fn summary(spsa: &Spsa) -> String {
    let points = path_points(spsa.k);
    let mut out = format!(
        "{} iterations of {} planned, results summed {:+}\n\n| parameter | start | now |",
        spsa.k, spsa.schedule.planned, spsa.total
    );
    for k in &points {
        out.push_str(&format!(" k={k} |"));
    }
    out.push_str("\n|---|---|---|");
    out.push_str(&"---|".repeat(points.len()));
    out.push('\n');
    for (i, p) in spsa.params.iter().enumerate() {
        let now = spsa.theta()[i];
        out.push_str(&format!("| {} | {} | {:.1} |", p.name, p.start, now));
        for &k in &points {
            let v = spsa.history.get(k as usize).map_or(f64::NAN, |t| t[i]);
            out.push_str(&format!(" {v:.1} |"));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_shows_every_tenth_once() {
        assert_eq!(path_points(0), vec![0]);
        assert_eq!(path_points(3), vec![0, 1, 2, 3]);
        assert_eq!(path_points(40), (0..=10).map(|j| 4 * j).collect::<Vec<_>>());
    }
}
