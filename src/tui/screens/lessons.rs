//! The lesson list: title, summary, whether it was read, and which languages it has.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::super::keymap::{self, Binding, ListAct};
use super::super::view::{Cx, Ev, Face, Outcome, View};
use super::super::widgets::{self, Menu};
use super::super::wrap::pad;
use super::reader::Reader;
use crate::content::Lesson;

/// The keys of the list, for dispatch and for the footer.
const KEYS: &[Binding<ListAct>] = &keymap::list("key-read");

#[derive(Default)]
pub struct Lessons {
    menu: Menu,
}

impl Lessons {
    pub fn new() -> Self {
        Self::default()
    }
}

impl View for Lessons {
    fn face(&self, cx: &Cx) -> Face {
        Face::new("lessons", cx.t("home-lessons"), KEYS)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let n = cx.course.lessons.len();
        self.menu.outcome_in(KEYS, ev, n, |i| {
            Outcome::Push(Box::new(Reader::new(cx, &cx.course.lessons[i].id)))
        })
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        widgets::list_and_detail(
            cx,
            f,
            area,
            &cx.t("home-lessons"),
            &mut self.menu,
            |w| items(cx, w),
            |i, _| cx.course.lessons.get(i).map(|l| detail(cx, l)),
        );
    }
}

/// Each lesson, numbered, marked read or started.
fn items(cx: &Cx, w: usize) -> Vec<Line<'static>> {
    let theme = cx.theme;
    let g = theme.glyphs();
    cx.course
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
        .collect()
}

/// The selected lesson: its summary, whether it was read, and whether it is in this language.
fn detail(cx: &Cx, lesson: &Lesson) -> Vec<Line<'static>> {
    let theme = cx.theme;
    let mut text = vec![
        Line::styled(cx.loc(&lesson.title), theme.heading(2)),
        Line::raw(""),
    ];
    if let Some(s) = &lesson.summary {
        text.push(Line::raw(cx.loc(s)));
        text.push(Line::raw(""));
    }
    text.push(Line::styled(lesson_status(cx, &lesson.id), theme.dim()));
    if !lesson.has_lang(cx.lang()) {
        text.push(Line::styled(
            cx.i18n.ta("lesson-fallback", &[("lang", "en".into())]),
            theme.dim(),
        ));
    }
    text
}

/// How far the learner got in a lesson, in words.
pub fn lesson_status(cx: &Cx, id: &str) -> String {
    match cx.progress.lessons.get(id) {
        Some(r) if r.finished_at.is_some() => cx.t("lesson-status-read"),
        Some(_) => cx.t("lesson-status-started"),
        None => cx.t("lesson-status-new"),
    }
}
