//! What the lab screen says, as lines for a given width: the strip under the terminal (the
//! current step, its state and its reason) and the panel (briefing, full checklist, hints,
//! solution). Pure, so both are tested without a sandbox.

use ratatui::text::{Line, Span};

use super::super::super::doc;
use super::super::super::view::Cx;
use super::super::super::widgets;
use super::super::super::wrap::{str_width, truncate};
use crate::content::{Lab, LabWay};

/// The state of a lab run as the screen shows it.
pub struct View<'a> {
    pub lab: &'a Lab,
    /// Done, per step.
    pub done: Vec<bool>,
    /// The first step not done.
    pub current: Option<usize>,
    /// The current step's reason, once it is feedback on an attempt.
    pub why: Option<String>,
    /// Every step's reason now (what script mode prints), for the panel's checklist.
    pub reasons: Vec<Option<String>>,
    pub complete: bool,
    /// Hints revealed for the current step.
    pub hints: usize,
    /// Hints revealed in this lab so far (the challenge way counts them).
    pub hints_used: u32,
    pub solution: bool,
    pub way: LabWay,
    /// The way can still be switched: nothing has been typed yet.
    pub fresh: bool,
    /// The next item of the course, by title, once the lab is complete.
    pub next: Option<String>,
}

/// A step as the checklist names it: the title, or in the challenge way the goal.
fn step_text(cx: &Cx, v: &View, i: usize) -> String {
    let step = &v.lab.steps[i];
    match (&step.goal, v.way) {
        (Some(g), LabWay::Challenge) => cx.loc(g),
        _ => cx.loc(&step.title),
    }
}

/// What a finished lab says: it is done, what it taught, and where to go on (F6).
fn finished(cx: &Cx, v: &View) -> Vec<String> {
    let mut out = vec![cx.t("lab-complete")];
    if let Some(l) = &v.lab.learned {
        out.push(cx.i18n.ta("labui-learned", &[("text", cx.loc(l).into())]));
    }
    if let Some(n) = &v.next {
        out.push(cx.i18n.ta("labui-next", &[("title", n.as_str().into())]));
    }
    out
}

/// The strip: one heading line, then the reason wrapped to `width` (already without room for
/// the scroll signs).
pub fn strip(cx: &Cx, v: &View, width: usize) -> (Line<'static>, Vec<Line<'static>>) {
    let theme = cx.theme;
    let g = theme.glyphs();
    let marks: String = v
        .done
        .iter()
        .map(|d| if *d { g.right } else { g.bullet })
        .collect();
    let mut head = vec![Span::styled(format!("{marks} "), theme.key())];
    let body = if v.complete {
        let mut said = finished(cx, v).into_iter();
        let done = said.next().unwrap_or_default();
        let room = width.saturating_sub(str_width(&marks) + 1);
        let mut body = if str_width(&done) <= room {
            head.push(Span::styled(done, theme.good()));
            Vec::new()
        } else {
            widgets::wrap_indented(&done, theme.good(), width, 2)
        };
        for line in said {
            body.extend(widgets::wrap_indented(&line, theme.key(), width, 2));
        }
        body
    } else if v.way == LabWay::Challenge {
        // The goals are found, not named: the count, and a reason only as feedback.
        let met = v.done.iter().filter(|d| **d).count();
        let goals = cx.i18n.ta(
            "labui-goals",
            &[("done", met.into()), ("total", v.done.len().into())],
        );
        head.push(Span::styled(goals, theme.heading(3)));
        match &v.why {
            Some(why) => widgets::wrap_indented(why, theme.key(), width, 2),
            None => widgets::wrap_indented(&cx.t("labui-challenge-not-yet"), theme.dim(), width, 2),
        }
    } else if let Some(i) = v.current {
        let step = cx.i18n.ta(
            "labui-step",
            &[("n", (i + 1).into()), ("total", v.done.len().into())],
        );
        let step = format!("{step} ");
        // One line: the title is cut with a visible "…"; the panel (F4) has it whole.
        let room = width.saturating_sub(str_width(&marks) + 1 + str_width(&step));
        head.push(Span::styled(step, theme.heading(3)));
        head.push(Span::raw(cut(&step_text(cx, v, i), room, g.ellipsis)));
        match &v.why {
            Some(why) => widgets::wrap_indented(why, theme.key(), width, 2),
            None => widgets::wrap_indented(&cx.t("labui-not-yet"), theme.dim(), width, 2),
        }
    } else {
        Vec::new()
    };
    (Line::from(head), body)
}

/// `s` in at most `width` cells, ending in the theme's `ellipsis` when cut (ASCII mode: "...").
pub fn cut(s: &str, width: usize, ellipsis: &str) -> String {
    if str_width(s) <= width {
        return s.to_string();
    }
    // `truncate` ends in a one-cell "…": leave room for the theme's own and swap it in.
    let mut t = truncate(s, (width + 1).saturating_sub(str_width(ellipsis)));
    t.pop();
    t.push_str(ellipsis);
    t
}

/// Where the panel's parts start, for jumping to what the learner just asked for.
#[derive(Debug, Default, Clone, Copy)]
pub struct Marks {
    pub hints: Option<usize>,
    pub solution: Option<usize>,
}

/// The panel: the briefing (Markdown, as in the reader), the full checklist with the current
/// reason, the hints revealed so far and, once asked for, the solution.
pub fn panel(cx: &Cx, v: &View, width: usize) -> (Vec<Line<'static>>, Marks) {
    let theme = cx.theme;
    let g = theme.glyphs();
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut marks = Marks::default();
    lines.extend(widgets::wrap_lines(
        &[Line::styled(cx.loc(&v.lab.title), theme.heading(2))],
        width,
    ));
    lines.push(Line::raw(""));
    let blocks = crate::markdown::parse(&cx.loc(&v.lab.briefing));
    let brief = doc::layout(&blocks, width, cx.course, theme);
    lines.extend(brief.lines.iter().map(|l| widgets::to_line(l, None)));
    lines.push(Line::raw(""));
    let way = match v.way {
        LabWay::Guided => cx.t("labui-way-guided"),
        LabWay::Challenge => cx.t("labui-way-challenge"),
    };
    let way_line = if v.fresh {
        cx.i18n.ta("labui-way-switch", &[("way", way.into())])
    } else {
        way
    };
    lines.extend(widgets::wrap_indented(&way_line, theme.dim(), width, 0));
    lines.push(Line::raw(""));
    lines.push(Line::styled(cx.t("lab-checklist"), theme.heading(3)));
    let challenge = v.way == LabWay::Challenge;
    for (i, done) in v.done.iter().enumerate() {
        // The challenge way shows a goal only once it is met.
        if challenge && !*done {
            continue;
        }
        let (mark, style) = if *done {
            (g.right, theme.good())
        } else {
            (g.bullet, theme.text())
        };
        lines.extend(widgets::item(
            mark,
            style,
            &step_text(cx, v, i),
            style,
            width,
        ));
        // Every unmet step says what script mode says about it.
        if !*done && let Some(why) = v.reasons.get(i).cloned().flatten() {
            lines.extend(widgets::wrap_indented(&why, theme.key(), width, 2));
        }
    }
    if challenge {
        let hidden = v.done.iter().filter(|d| !**d).count();
        if hidden > 0 {
            lines.extend(widgets::wrap_indented(
                &cx.i18n.ta("labui-goals-hidden", &[("n", hidden.into())]),
                theme.dim(),
                width,
                2,
            ));
            if let Some(why) = &v.why {
                lines.extend(widgets::wrap_indented(why, theme.key(), width, 2));
            }
        }
        lines.extend(widgets::wrap_indented(
            &cx.i18n
                .ta("labui-hints-used", &[("n", v.hints_used.into())]),
            theme.dim(),
            width,
            0,
        ));
    }
    if v.complete {
        lines.push(Line::raw(""));
        let mut said = finished(cx, v).into_iter();
        let done = said.next().unwrap_or_default();
        lines.extend(widgets::wrap_lines(
            &[Line::styled(done, theme.good())],
            width,
        ));
        for line in said {
            lines.extend(widgets::wrap_indented(&line, theme.key(), width, 0));
        }
    }
    if let Some(i) = v.current {
        for (n, h) in v.lab.steps[i].hints.iter().take(v.hints).enumerate() {
            lines.push(Line::raw(""));
            marks.hints.get_or_insert(lines.len());
            let label = cx.i18n.ta("lab-hint", &[("n", (n + 1).into())]);
            lines.push(Line::styled(label, theme.dim()));
            lines.extend(widgets::wrap_lines(&[Line::raw(cx.loc(h))], width));
        }
    }
    if v.solution {
        lines.push(Line::raw(""));
        marks.solution = Some(lines.len());
        lines.push(Line::styled(cx.t("lab-solution"), theme.heading(3)));
        lines.extend(widgets::wrap_lines(
            &[Line::raw(cx.loc(&v.lab.solution))],
            width,
        ));
        for c in &v.lab.solution_commands {
            lines.extend(widgets::wrap_indented(c, theme.code(), width, 2));
        }
    }
    (lines, marks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_ends_in_the_themes_ellipsis_and_keeps_to_the_width() {
        assert_eq!(cut("abcdefgh", 6, "..."), "abc...");
        assert_eq!(cut("abcdefgh", 6, "…"), "abcde…");
        assert_eq!(cut("abc", 6, "..."), "abc", "what fits is kept");
        let ja = cut("チェックリスト全体", 9, "...");
        assert!(ja.ends_with("...") && str_width(&ja) <= 9, "{ja}");
    }
}
