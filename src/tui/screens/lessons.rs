//! The lesson list: title, summary, whether it was read, and which languages it has.

use ratatui::text::{Line, Span};

use super::super::keymap::{self, Binding, ListAct};
use super::super::view::{Cx, Outcome};
use super::super::wrap::pad;
use super::list::{self, Kind};
use super::reader::Reader;
use crate::content::{Course, Lesson};

impl Kind for Lesson {
    const ID: &'static str = "lessons";
    const TITLE: &'static str = "home-lessons";
    const KEYS: &'static [Binding<ListAct>] = &keymap::list("key-read");

    fn all(course: &Course) -> &[Self] {
        &course.lessons
    }

    fn open(&self, cx: &Cx, _: ListAct) -> Outcome {
        Outcome::Push(Box::new(Reader::new(cx, &self.id)))
    }

    /// Numbered, marked read or started.
    fn line(&self, cx: &Cx, n: usize, w: usize) -> Line<'static> {
        let rec = cx.progress.lessons.get(&self.id);
        Line::from(vec![
            list::mark(cx, rec.map(|r| r.finished_at.is_some())),
            Span::raw(format!(" {:>2}. ", n + 1)),
            Span::raw(pad(&cx.loc(&self.title), w.saturating_sub(6))),
        ])
    }

    /// The selected lesson: its summary, whether it was read, and whether it is in this language.
    fn detail(&self, cx: &Cx, _: usize) -> Vec<Line<'static>> {
        let lesson = self;
        let theme = cx.theme;
        let mut text = list::heading(cx, &lesson.title);
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
}

/// How far the learner got in a lesson, in words.
pub fn lesson_status(cx: &Cx, id: &str) -> String {
    match cx.progress.lessons.get(id) {
        Some(r) if r.finished_at.is_some() => cx.t("lesson-status-read"),
        Some(_) => cx.t("lesson-status-started"),
        None => cx.t("lesson-status-new"),
    }
}
