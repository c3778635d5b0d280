//! The lab list: each lab with its state (solved, steps done, not started) and its briefing.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::super::doc;
use super::super::keymap::{self, Binding, ListAct};
use super::super::view::{Cx, Ev, Outcome, View};
use super::super::widgets::{self, Menu, Pick};
use super::super::wrap::pad;
use super::lab::LabScreen;

/// The keys of the list, for dispatch and for the footer.
const KEYS: &[Binding<ListAct>] = &keymap::list("key-start");

pub struct Labs {
    menu: Menu,
}

impl Labs {
    pub fn new() -> Self {
        Labs {
            menu: Menu::default(),
        }
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
        keymap::hints(KEYS)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let n = cx.course.labs.len();
        if n == 0 {
            return Outcome::Ignored;
        }
        let open =
            |i: usize, cx: &Cx| Outcome::Push(Box::new(LabScreen::new(&cx.course.labs[i].id)));
        match self.menu.pick_in(KEYS, ev, n) {
            Some(Pick::Chosen(i)) => open(i, cx),
            Some(Pick::Moved) => Outcome::Stay,
            None => Outcome::Ignored,
        }
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let theme = cx.theme;
        let g = theme.glyphs();
        if cx.course.labs.is_empty() {
            let inner = Rect {
                x: area.x + 1,
                y: area.y + 1,
                width: area.width.saturating_sub(2),
                height: area.height.saturating_sub(1),
            };
            f.render_widget(
                Paragraph::new(widgets::wrap_lines(
                    &[Line::raw(cx.t("labs-none"))],
                    inner.width as usize,
                )),
                inner,
            );
            return;
        }
        let (list, detail) = widgets::split(area, 30);
        let block = widgets::block(theme, &cx.t("home-labs"));
        let inner = block.inner(list);
        f.render_widget(block, list);
        let w = inner.width as usize;
        let items: Vec<Line<'static>> = cx
            .course
            .labs
            .iter()
            .map(|lab| {
                let rec = cx.progress.labs.get(&lab.id);
                let mark = match rec {
                    Some(r) if r.completed_at.is_some() => Span::styled(g.right, theme.good()),
                    Some(_) => Span::styled(g.bullet, theme.key()),
                    None => Span::raw(" "),
                };
                Line::from(vec![
                    mark,
                    Span::raw(" "),
                    Span::raw(pad(&cx.loc(&lab.title), w.saturating_sub(2))),
                ])
            })
            .collect();
        self.menu.draw(f, inner, items, theme.selected());

        let Some(lab) = cx.course.labs.get(self.menu.selected) else {
            return;
        };
        let mut text = vec![
            Line::styled(cx.loc(&lab.title), theme.heading(2)),
            Line::raw(""),
        ];
        if let Some(lesson) = lab.lesson.as_ref().and_then(|l| cx.course.lesson(l)) {
            text.push(Line::styled(
                cx.i18n.ta(
                    "lab-from-lesson",
                    &[("title", cx.loc(&lesson.title).into())],
                ),
                theme.dim(),
            ));
            text.push(Line::raw(""));
        }
        let block = widgets::block(theme, "");
        let dinner = block.inner(detail);
        text.extend(doc::course_text(cx, &lab.briefing, dinner.width as usize));
        text.push(Line::raw(""));
        let rec = cx.progress.labs.get(&lab.id);
        for step in &lab.steps {
            let done = rec.is_some_and(|r| r.steps_done.contains(&step.id));
            let (m, st) = if done {
                (g.right, theme.good())
            } else {
                (g.bullet, theme.text())
            };
            text.push(Line::from(vec![
                Span::styled(format!("{m} "), st),
                Span::raw(cx.loc(&step.title)),
            ]));
        }
        f.render_widget(block, detail);
        widgets::text_box(cx, f, dinner, &text);
    }
}
