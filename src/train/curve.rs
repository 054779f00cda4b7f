//! The training curve as an SVG plot (with `plotters`): training and held-out loss
//! per epoch, one pair of lines per training round.

use std::path::Path;

use plotters::prelude::*;

use super::fit::EpochReport;

/// Draw the curves of `rounds` (label, reports) to `path`.
pub fn draw(path: &Path, rounds: &[(String, Vec<EpochReport>)]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    let pts = || rounds.iter().flat_map(|r| r.1.iter());
    let x1 = pts().map(|r| r.epoch).max().unwrap_or(1).max(1) as f64;
    let (mut y0, mut y1) = (f64::MAX, f64::MIN);
    for r in pts() {
        for y in [r.train, r.valid] {
            if y.is_finite() {
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
    }
    if y0 > y1 {
        return Err(err(&"no data"));
    }
    let pad = ((y1 - y0) * 0.08).max(1e-4);
    let root = SVGBackend::new(path, (900, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption("damas-train: loss per epoch", ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..x1, (y0 - pad)..(y1 + pad))
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("epoch")
        .y_desc("cross-entropy")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.4}"))
        .draw()
        .map_err(|e| err(&e))?;
    for (i, (label, reports)) in rounds.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        for (kind, held_out) in [("train", false), ("held-out", true)] {
            let line: Vec<(f64, f64)> = reports
                .iter()
                .map(|r| (r.epoch as f64, if held_out { r.valid } else { r.train }))
                .filter(|p| p.1.is_finite())
                .collect();
            let style = if held_out {
                color.stroke_width(3)
            } else {
                color.stroke_width(1)
            };
            chart
                .draw_series(LineSeries::new(line, style))
                .map_err(|e| err(&e))?
                .label(format!("{label} {kind}"))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        }
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
