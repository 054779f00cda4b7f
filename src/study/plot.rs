//! SVG plots of the study (with `plotters`): mean nodes against depth on a log scale
//! per configuration (thesis fig. 6.7) and mean nodes against moves played at one
//! depth (fig. 6.9).

use std::path::Path;

use plotters::prelude::*;
use thiserror::Error;

use super::report::Summary;

/// A plot could not be drawn or written.
#[derive(Debug, Error)]
#[error("cannot draw {path}: {message}")]
pub struct PlotError {
    /// The file.
    pub path: String,
    /// What went wrong.
    pub message: String,
}

/// One line of a plot: a label and its points.
type Series = (String, Vec<(f64, f64)>);

fn draw(path: &Path, caption: &str, x_desc: &str, series: &[Series]) -> Result<(), PlotError> {
    let err = |e: &dyn std::fmt::Display| PlotError {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let points = || series.iter().flat_map(|s| s.1.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in points() {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        return Err(err(&"no data"));
    }
    let (y0, y1) = (y0.max(1.0) / 1.5, y1.max(1.0) * 1.5);
    let (x0, x1) = if x0 == x1 {
        (x0 - 1.0, x1 + 1.0)
    } else {
        (x0, x1)
    };
    let root = SVGBackend::new(path, (1180, 620)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    // The legend gets its own column so it never hides a line.
    let (plot_area, legend) = root.split_horizontally(900);
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(caption, ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(x0..x1, (y0..y1).log_scale())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("mean nodes (log scale)")
        .x_labels(((x1 - x0) as usize + 1).min(18))
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(|e| err(&e))?;
    for (i, (label, pts)) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(label.as_str());
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(|e| err(&e))?;
        let y = 50 + 24 * i as i32;
        legend
            .draw(&PathElement::new(
                vec![(5, y), (35, y)],
                color.stroke_width(3),
            ))
            .map_err(|e| err(&e))?;
        legend
            .draw(&Text::new(label.as_str(), (42, y - 7), ("sans-serif", 14)))
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// Fig. 6.7: mean nodes against depth, one line per configuration.
pub fn nodes_by_depth(s: &Summary, path: &Path) -> Result<(), PlotError> {
    let series: Vec<Series> = s
        .configs
        .iter()
        .map(|c| {
            (
                c.clone(),
                s.depths
                    .iter()
                    .filter_map(|&d| s.mean(c, d).map(|m| (d as f64, m)))
                    .collect(),
            )
        })
        .collect();
    draw(
        path,
        "Search tree size against depth (fig. 6.7)",
        "depth (plies)",
        &series,
    )
}

/// Fig. 6.9: mean nodes against moves played at `depth`, one line per configuration.
pub fn nodes_by_phase(s: &Summary, depth: u32, path: &Path) -> Result<(), PlotError> {
    let series: Vec<Series> = s
        .configs
        .iter()
        .enumerate()
        .map(|(c, label)| {
            let pts = s
                .by_k
                .iter()
                .filter(|((ci, d, _), a)| *ci == c && *d == depth && a.n > 0)
                .map(|((_, _, k), a)| (*k as f64, a.mean()))
                .collect();
            (label.clone(), pts)
        })
        .collect();
    draw(
        path,
        &format!("Search tree size against game phase, depth {depth} (fig. 6.9)"),
        "moves played before the position",
        &series,
    )
}
