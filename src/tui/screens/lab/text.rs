//! What the lab screen says, as lines for a given width: the strip under the terminal (the
//! current step, its state and its reason) and the panel (briefing, full checklist, hints,
//! solution). Pure, so both are tested without a sandbox.

use ratatui::text::{Line, Span};

use super::super::super::doc;
use super::super::super::view::Cx;
use super::super::super::widgets;
use super::super::super::wrap::{str_width, truncate};
use crate::content::Lab;

/// The state of a lab run as the screen shows it.
pub struct View<'a> {
    pub lab: &'a Lab,
    /// Done, per step.
    pub done: Vec<bool>,
    /// The first step not done.
    pub current: Option<usize>,
    /// The current step's reason, once it is feedback on an attempt.
    pub why: Option<String>,
    pub complete: bool,
    /// Hints revealed for the current step.
    pub hints: usize,
    pub solution: bool,
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
        let done = cx.t("lab-complete");
        let room = width.saturating_sub(str_width(&marks) + 1);
        if str_width(&done) <= room {
            head.push(Span::styled(done, theme.good()));
            Vec::new()
        } else {
            widgets::wrap_indented(&done, theme.good(), width, 2)
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
        head.push(Span::raw(cut(
            &cx.loc(&v.lab.steps[i].title),
            room,
            g.ellipsis,
        )));
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
    lines.push(Line::styled(cx.t("lab-checklist"), theme.heading(3)));
    for (i, (step, done)) in v.lab.steps.iter().zip(&v.done).enumerate() {
        let (mark, style) = if *done {
            (g.right, theme.good())
        } else {
            (g.bullet, theme.text())
        };
        lines.extend(widgets::item(
            mark,
            style,
            &cx.loc(&step.title),
            style,
            width,
        ));
        if Some(i) == v.current
            && let Some(why) = &v.why
        {
            lines.extend(widgets::wrap_indented(why, theme.key(), width, 2));
        }
    }
    if v.complete {
        lines.push(Line::raw(""));
        lines.extend(widgets::wrap_lines(
            &[Line::styled(cx.t("lab-complete"), theme.good())],
            width,
        ));
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
