//! The review panel's evaluation chart: the evaluation across the game from White's
//! side ([`crate::review::curve`]), the marked moves as dots, the highlighted move
//! as a bar.

use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Style};
use ratatui::symbols::Marker;
use ratatui::widgets::{Axis, Block, Borders, Chart, Dataset, GraphType};
use ratatui::Frame;

use super::controller::ReviewPanel;
use crate::review::curve::{eval_curve, CURVE_LIMIT};

/// Draw the chart of `panel`'s review in `area`.
pub fn draw_eval_chart(frame: &mut Frame, panel: &ReviewPanel, area: Rect) {
    let curve = eval_curve(&panel.review);
    let line: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
        .chain(curve.iter().map(|p| (p.ply as f64, p.white)))
        .collect();
    let marked: Vec<(f64, f64)> = curve
        .iter()
        .filter(|p| p.mark.is_some())
        .map(|p| (p.ply as f64, p.white))
        .collect();
    let here: Vec<(f64, f64)> = curve
        .get(panel.index)
        .map(|p| {
            (0..=8)
                .map(|i| {
                    (
                        p.ply as f64,
                        -CURVE_LIMIT + f64::from(i) * CURVE_LIMIT / 4.0,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let plies = curve.last().map_or(1, |p| p.ply).max(1) as f64;
    let datasets = vec![
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(Style::default().fg(Tc::DarkGray))
            .data(&here),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::default().fg(Tc::Cyan))
            .data(&line),
        Dataset::default()
            .marker(Marker::Block)
            .graph_type(GraphType::Scatter)
            .style(Style::default().fg(Tc::Red))
            .data(&marked),
    ];
    let chart = Chart::new(datasets)
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(" Evaluation (White up; red: marked moves) "),
        )
        .x_axis(Axis::default().bounds([0.0, plies]))
        .y_axis(
            Axis::default()
                .bounds([-CURVE_LIMIT, CURVE_LIMIT])
                .labels(["-3", "0", "+3"]),
        );
    frame.render_widget(chart, area);
}
