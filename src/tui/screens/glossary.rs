//! The glossary: every term grouped by category, filtered as you type.

use crossterm::event::{KeyCode, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::super::doc;
use super::super::keymap::Binding;
use super::super::view::{Cx, Ev, Face, Outcome, Overlay, View};
use super::super::widgets;
use super::super::wrap::{pad, str_width, truncate};
use crate::content::{Category, Term};
use crate::lang::Lang;

/// What a key does in the glossary. Printable keys not listed here are typed into the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Type,
    Up,
    Down,
    PageUp,
    PageDown,
    Open,
    Erase,
    Clear,
    ClearOrBack,
}

const KEYS: &[Binding<Act>] = &[
    // Advertised only: typing goes to the search box (see `handle`), so no key is listed.
    Binding::new(&[], "abc", "key-search", Act::Type),
    Binding::new(&[KeyCode::Up], "↑↓", "key-move", Act::Up),
    Binding::hidden(&[KeyCode::Down], Act::Down),
    Binding::hidden(&[KeyCode::Char('p')], Act::Up).ctrl(),
    Binding::hidden(&[KeyCode::Char('n')], Act::Down).ctrl(),
    Binding::hidden(&[KeyCode::Char('u')], Act::Clear).ctrl(),
    Binding::hidden(&[KeyCode::PageUp], Act::PageUp),
    Binding::hidden(&[KeyCode::PageDown], Act::PageDown),
    Binding::new(&[KeyCode::Enter], "Enter", "key-definition", Act::Open),
    Binding::hidden(&[KeyCode::Backspace], Act::Erase),
    Binding::hidden(&[KeyCode::Esc], Act::ClearOrBack),
];

pub struct Glossary {
    query: String,
    selected: usize,
    offset: usize,
    list_area: Rect,
    /// Display line -> term index (None for category headers), from the last draw.
    line_terms: Vec<Option<usize>>,
}

impl Glossary {
    pub fn new() -> Self {
        Glossary {
            query: String::new(),
            selected: 0,
            offset: 0,
            list_area: Rect::default(),
            line_terms: Vec::new(),
        }
    }

    /// Terms matching the query, grouped by category in the catalogue's order.
    fn matches<'c>(&self, cx: &Cx<'c>) -> Vec<(Category, Vec<&'c Term>)> {
        let q = self.query.to_lowercase();
        let hit = |t: &Term| {
            q.is_empty()
                || t.id.contains(&q)
                || Lang::ALL
                    .iter()
                    .any(|l| t.name.get(*l).to_lowercase().contains(&q))
                || t.definition.get(cx.lang()).to_lowercase().contains(&q)
        };
        Category::ALL
            .iter()
            .map(|c| {
                let mut terms: Vec<&Term> = cx
                    .course
                    .glossary
                    .iter()
                    .filter(|t| t.category == *c && hit(t))
                    .collect();
                terms.sort_by_key(|t| t.name.get(cx.lang()).to_lowercase());
                (*c, terms)
            })
            .filter(|(_, t)| !t.is_empty())
            .collect()
    }

    /// Selects the term whose name fits the query best: the name itself, then a name that
    /// starts with it, then one containing it; definitions only match when no name does.
    fn select_best(&mut self, cx: &Cx) {
        let q = self.query.to_lowercase();
        let rank = |t: &Term| {
            let names: Vec<String> = Lang::ALL
                .iter()
                .map(|l| t.name.get(*l).to_lowercase())
                .collect();
            if t.id == q || names.contains(&q) {
                0
            } else if t.id.starts_with(&q) || names.iter().any(|n| n.starts_with(&q)) {
                1
            } else if names.iter().any(|n| n.contains(&q)) {
                2
            } else {
                3
            }
        };
        let flat = self.flat(cx);
        self.selected = flat
            .iter()
            .enumerate()
            .min_by_key(|(i, t)| (rank(t), *i))
            .map(|(i, _)| i)
            .unwrap_or(0);
    }

    fn flat<'c>(&self, cx: &Cx<'c>) -> Vec<&'c Term> {
        self.matches(cx).into_iter().flat_map(|(_, t)| t).collect()
    }
}

impl Default for Glossary {
    fn default() -> Self {
        Self::new()
    }
}

/// Lessons whose text links this term.
fn lessons_using(cx: &Cx, id: &str) -> Vec<String> {
    let needle = format!("(term:{id})");
    cx.course
        .lessons
        .iter()
        .filter(|l| {
            Lang::ALL
                .iter()
                .any(|lang| l.body.has(*lang) && l.body.get(*lang).contains(&needle))
        })
        .map(|l| cx.loc(&l.title))
        .collect()
}

impl View for Glossary {
    fn face(&self, cx: &Cx) -> Face {
        Face::new("glossary", cx.t("home-glossary"), KEYS)
    }

    fn wants_text(&self) -> bool {
        true
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let n = self.flat(cx).len();
        match ev {
            Ev::Key(k) => match (Binding::find(KEYS, k), k.code) {
                (Some(Act::Up), _) => self.selected = self.selected.saturating_sub(1),
                (Some(Act::Down), _) => {
                    self.selected = (self.selected + 1).min(n.saturating_sub(1));
                }
                (Some(Act::Clear), _) => self.query.clear(),
                (Some(Act::PageUp), _) => self.selected = self.selected.saturating_sub(10),
                (Some(Act::PageDown), _) => {
                    self.selected = (self.selected + 10).min(n.saturating_sub(1));
                }
                (Some(Act::Open), _) => {
                    return match self.flat(cx).get(self.selected) {
                        Some(t) => Outcome::Overlay(Overlay::Term(t.id.clone())),
                        None => Outcome::Stay,
                    };
                }
                (Some(Act::Erase), _) => {
                    self.query.pop();
                    self.select_best(cx);
                }
                // Esc clears the search first; with nothing typed it goes back (the app's key).
                (Some(Act::ClearOrBack), _) if !self.query.is_empty() => self.query.clear(),
                (Some(Act::ClearOrBack), _) => return Outcome::Ignored,
                // Every other printable key is part of the search text.
                (None, KeyCode::Char(c))
                    if !k.modifiers.contains(KeyModifiers::CONTROL)
                        && !k.modifiers.contains(KeyModifiers::ALT) =>
                {
                    self.query.push(c);
                    self.select_best(cx);
                }
                _ => return Outcome::Ignored,
            },
            Ev::Paste(s) => {
                self.query.push_str(s.lines().next().unwrap_or(""));
                self.select_best(cx);
            }
            Ev::Click { x, y } => {
                let a = self.list_area;
                if *x >= a.x && *x < a.x + a.width && *y >= a.y && *y < a.y + a.height {
                    let line = self.offset + (*y - a.y) as usize;
                    if let Some(Some(i)) = self.line_terms.get(line) {
                        self.selected = *i;
                    }
                }
            }
            Ev::Scroll(d) => {
                self.selected = self
                    .selected
                    .saturating_add_signed(*d as isize)
                    .min(n.saturating_sub(1));
            }
            Ev::Jump(_) | Ev::Tick | Ev::Confirmed(_) => {}
        }
        let n = self.flat(cx).len();
        self.selected = self.selected.min(n.saturating_sub(1));
        Outcome::Stay
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let theme = cx.theme;
        // Search line.
        let search = Line::from(vec![
            Span::styled(format!(" {} ", cx.t("glossary-search")), theme.key()),
            Span::raw(self.query.clone()),
            Span::styled("_", theme.dim()),
        ]);
        f.render_widget(Paragraph::new(search), Rect { height: 1, ..area });
        let rest = Rect {
            y: area.y + 1,
            height: area.height.saturating_sub(1),
            ..area
        };
        let (list, detail) = widgets::split(rest, 28);
        let block = widgets::block(theme, &cx.t("home-glossary"));
        let inner = block.inner(list);
        f.render_widget(block, list);
        self.list_area = inner;

        let groups = self.matches(cx);
        let mut lines: Vec<Line<'static>> = Vec::new();
        self.line_terms.clear();
        let mut idx = 0;
        let mut sel_line = 0;
        let w = inner.width as usize;
        for (cat, terms) in &groups {
            lines.push(Line::styled(
                truncate(&cx.t(cat.msg_id()), w),
                theme
                    .term(*cat)
                    .remove_modifier(ratatui::style::Modifier::UNDERLINED)
                    .add_modifier(ratatui::style::Modifier::BOLD),
            ));
            self.line_terms.push(None);
            for t in terms {
                if idx == self.selected {
                    sel_line = lines.len();
                }
                let text = pad(&format!("  {}", cx.loc(&t.name)), w);
                let style = if idx == self.selected {
                    theme.selected()
                } else {
                    theme.text()
                };
                lines.push(Line::styled(text, style));
                self.line_terms.push(Some(idx));
                idx += 1;
            }
        }
        if lines.is_empty() {
            lines.push(Line::styled(cx.t("glossary-no-match"), theme.dim()));
        }
        let h = inner.height as usize;
        if sel_line < self.offset {
            // Show the category header above the first term too.
            self.offset = sel_line.saturating_sub(1);
        } else if sel_line >= self.offset + h {
            self.offset = sel_line + 1 - h;
        }
        self.offset = self.offset.min(lines.len().saturating_sub(h.max(1)));
        let visible: Vec<Line> = lines.into_iter().skip(self.offset).take(h).collect();
        f.render_widget(Paragraph::new(visible), inner);

        let block = widgets::block(theme, "");
        let dinner = block.inner(detail);
        f.render_widget(block, detail);
        let Some(term) = groups.iter().flat_map(|(_, t)| t.iter()).nth(self.selected) else {
            return;
        };
        let mut text = vec![
            Line::from(vec![
                Span::styled(cx.loc(&term.name), theme.term(term.category)),
                Span::styled(format!("  {}", cx.t(term.category.msg_id())), theme.dim()),
            ]),
            Line::raw(""),
        ];
        text.extend(doc::course_text(
            cx,
            &term.definition,
            dinner.width as usize,
        ));
        let used = lessons_using(cx, &term.id);
        if !used.is_empty() {
            text.push(Line::raw(""));
            text.push(Line::styled(cx.t("glossary-in-lessons"), theme.dim()));
            let g = theme.glyphs();
            for l in used {
                text.push(Line::raw(format!("{} {l}", g.bullet)));
            }
        }
        let _ = str_width;
        widgets::text_box(cx, f, dinner, &text);
    }
}
