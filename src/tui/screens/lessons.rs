//! The lesson list: title, summary, whether it was read, and which languages it has.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::super::keymap::{self, Binding, ListAct};
use super::super::view::{Cx, Ev, Outcome, View};
use super::super::widgets::{self, Menu, Pick};
use super::super::wrap::pad;
use super::reader::Reader;

/// The keys of the list, for dispatch and for the footer.
const KEYS: &[Binding<ListAct>] = &keymap::list("key-read");

pub struct Lessons {
    menu: Menu,
}

impl Lessons {
    pub fn new() -> Self {
        Lessons {
            menu: Menu::default(),
        }
    }
}

impl Default for Lessons {
    fn default() -> Self {
        Self::new()
    }
}

impl View for Lessons {
    fn id(&self) -> &'static str {
        "lessons"
    }

    fn title(&self, cx: &Cx) -> String {
        cx.t("home-lessons")
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        keymap::hints(KEYS)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let n = cx.course.lessons.len();
        let open =
            |i: usize, cx: &Cx| Outcome::Push(Box::new(Reader::new(cx, &cx.course.lessons[i].id)));
        match self.menu.pick_in(KEYS, ev, n) {
            Some(Pick::Chosen(i)) => open(i, cx),
            Some(Pick::Moved) => Outcome::Stay,
            None => Outcome::Ignored,
        }
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let theme = cx.theme;
        let g = theme.glyphs();
        let (list, detail) = widgets::split(area, 30);
        let list_inner = widgets::block(theme, &cx.t("home-lessons")).inner(list);
        f.render_widget(widgets::block(theme, &cx.t("home-lessons")), list);
        let w = list_inner.width as usize;
        let items: Vec<Line<'static>> = cx
            .course
            .lessons
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let rec = cx.progress.lessons.get(&l.id);
                let mark = match rec {
                    Some(r) if r.finished_at.is_some() => Span::styled(g.right, theme.good()),
                    Some(_) => Span::styled(g.bullet, theme.key()),
                    None => Span::raw(" "),
                };
                Line::from(vec![
                    mark,
                    Span::raw(format!(" {:>2}. ", i + 1)),
                    Span::raw(pad(&cx.loc(&l.title), w.saturating_sub(6))),
                ])
            })
            .collect();
        self.menu.draw(f, list_inner, items, theme.selected());

        let Some(lesson) = cx.course.lessons.get(self.menu.selected) else {
            return;
        };
        let mut text = vec![
            Line::styled(cx.loc(&lesson.title), theme.heading(2)),
            Line::raw(""),
        ];
        if let Some(s) = &lesson.summary {
            text.push(Line::raw(cx.loc(s)));
            text.push(Line::raw(""));
        }
        let status = match cx.progress.lessons.get(&lesson.id) {
            Some(r) if r.finished_at.is_some() => cx.t("lesson-status-read"),
            Some(_) => cx.t("lesson-status-started"),
            None => cx.t("lesson-status-new"),
        };
        text.push(Line::styled(status, theme.dim()));
        if !lesson.has_lang(cx.lang()) {
            text.push(Line::styled(
                cx.i18n.ta("lesson-fallback", &[("lang", "en".into())]),
                theme.dim(),
            ));
        }
        let inner = widgets::block(theme, "").inner(detail);
        f.render_widget(widgets::block(theme, ""), detail);
        widgets::text_box(cx, f, inner, &text);
    }
}
