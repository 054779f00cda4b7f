//! Drawing the analysis board's panel: what the engine is doing, then its best lines,
//! one row each, labelled with the side each favours (or the proven result).

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use super::controller::Controller;
use super::thinking::short_count;

/// The key line on the analysis board.
pub const KEY_LINE: &str =
    "ANALYSIS  move both sides  , . back/fwd  m stop/resume  z leave  ? keys  q quit";

/// The panel's rows: status, then one row per line (as many as fit).
pub fn panel_lines(c: &Controller, rows: usize) -> Vec<Line<'static>> {
    let Some(a) = c.analysis() else {
        return Vec::new();
    };
    let status = match (c.search_elapsed(), c.thinking()) {
        _ if c.result().is_some() => "game over: nothing to analyse".to_string(),
        _ if a.stopped => "stopped (m resumes)".to_string(),
        (Some(t), Some(th)) if c.thinking_is_live() => format!(
            "depth {}  {} nodes  {}/s  {:.0}s",
            th.depth,
            short_count(th.nodes),
            short_count(th.nps),
            t.as_secs_f64()
        ),
        (Some(_), _) => "thinking…".to_string(),
        (None, Some(th)) => format!("done: depth {}", th.depth),
        (None, None) => String::new(),
    };
    let mut out = vec![Line::styled(
        status,
        Style::default().add_modifier(Modifier::BOLD),
    )];
    if let Some(th) = c.thinking() {
        let lines: Vec<(String, String)> = if th.lines.is_empty() {
            vec![(th.score.clone(), th.pv.join(" "))]
        } else {
            th.lines.clone()
        };
        for (i, (score, moves)) in lines.into_iter().enumerate().take(rows.saturating_sub(1)) {
            out.push(Line::raw(format!("{}. {score}: {moves}", i + 1)));
        }
    }
    out
}

/// Draw the panel in `area`.
pub fn draw_analysis(frame: &mut Frame, c: &Controller, area: Rect) {
    let lines = c.analysis().map_or(1, |a| a.lines);
    let rows = usize::from(area.height.saturating_sub(2));
    frame.render_widget(
        Paragraph::new(panel_lines(c, rows)).block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" Analysis: {lines} best moves ")),
        ),
        area,
    );
}
