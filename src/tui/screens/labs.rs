//! Labs. The sandboxed shell arrives with the lab engine; until then this screen says so.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::super::app::{Cx, Ev, Outcome, View};
use super::super::widgets;

pub struct Labs;

impl Labs {
    pub fn new() -> Self {
        Labs
    }
}

impl Default for Labs {
    fn default() -> Self {
        Self::new()
    }
}

impl View for Labs {
    fn id(&self) -> &'static str {
        "labs"
    }

    fn title(&self, cx: &Cx) -> String {
        cx.t("home-labs")
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![("q", "key-back")]
    }

    fn handle(&mut self, _cx: &mut Cx, _ev: &Ev) -> Outcome {
        Outcome::Ignored
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let inner = Rect {
            x: area.x + 1,
            y: area.y + 1,
            width: area.width.saturating_sub(2),
            height: area.height.saturating_sub(1),
        };
        let text = vec![Line::raw(cx.t("labs-coming"))];
        f.render_widget(
            Paragraph::new(widgets::wrap_lines(&text, inner.width as usize)),
            inner,
        );
    }
}
