//! The lab list: each lab with its state (solved, steps done, not started) and its briefing.

use ratatui::text::{Line, Span};

use super::super::doc;
use super::super::keymap::{self, Binding, ListAct};
use super::super::view::{Cx, Outcome};
use super::super::wrap::pad;
use super::lab::LabScreen;
use super::list::{self, Kind};
use crate::content::{Course, Lab};

impl Kind for Lab {
    const ID: &'static str = "labs";
    const TITLE: &'static str = "home-labs";
    const KEYS: &'static [Binding<ListAct>] = &keymap::list("key-start");
    const EMPTY: Option<&'static str> = Some("labs-none");

    fn all(course: &Course) -> &[Self] {
        &course.labs
    }

    fn open(&self, _: &Cx, _: ListAct) -> Outcome {
        Outcome::Push(Box::new(LabScreen::new(&self.id)))
    }

    /// Marked solved or started.
    fn line(&self, cx: &Cx, _: usize, w: usize) -> Line<'static> {
        let rec = cx.progress.labs.get(&self.id);
        Line::from(vec![
            list::mark(cx, rec.map(|r| r.completed_at.is_some())),
            Span::raw(" "),
            Span::raw(pad(&cx.loc(&self.title), w.saturating_sub(2))),
        ])
    }

    /// The selected lab: its lesson, briefing (laid out to `w`), and steps, done ones ticked.
    fn detail(&self, cx: &Cx, w: usize) -> Vec<Line<'static>> {
        let lab = self;
        let theme = cx.theme;
        let g = theme.glyphs();
        let mut text = list::heading(cx, &lab.title);
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
        text.extend(doc::course_text(cx, &lab.briefing, w));
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
        text
    }
}
