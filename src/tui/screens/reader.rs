//! The lesson reader: rendered Markdown, glossary terms coloured by category with their
//! definition on Enter or click, a table of contents, and "next: quiz / lab" at the end.

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::super::doc::{self, Doc};
use super::super::keymap::{self, Binding};
use super::super::view::{self, Cx, Ev, Face, Outcome, Overlay, View};
use super::super::widgets;
use crate::lang::Lang;
use crate::markdown::{self, Block, Inline, Target};
use crate::progress::{Change, ItemKind};

/// The longest line of running text, in cells, however wide the terminal.
pub const MAX_TEXT_WIDTH: u16 = 100;

/// What a key does in the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Line,
    PageDown,
    PageUp,
    Top,
    Bottom,
    NextLink,
    PrevLink,
    Follow,
    Toc,
}

/// The reader's keys, for dispatch and for the footer and `?`.
const KEYS: &[Binding<Act>] = &[
    Binding::new(keymap::UP_DOWN, "↑↓", "key-scroll", Act::Line),
    Binding::new(
        &[KeyCode::Char(' '), KeyCode::PageDown],
        "Space",
        "key-page",
        Act::PageDown,
    ),
    Binding::hidden(&[KeyCode::Char('f')], Act::PageDown).ctrl(),
    Binding::new(
        &[KeyCode::PageUp, KeyCode::Char('b')],
        "PgUp/b",
        "key-page-up",
        Act::PageUp,
    ),
    Binding::new(
        &[KeyCode::Home, KeyCode::Char('g')],
        "g/G",
        "key-top-bottom",
        Act::Top,
    ),
    Binding::hidden(&[KeyCode::End, KeyCode::Char('G')], Act::Bottom),
    Binding::new(&[KeyCode::Tab], "Tab", "key-next-link", Act::NextLink),
    Binding::hidden(&[KeyCode::BackTab], Act::PrevLink),
    Binding::new(&[KeyCode::Enter], "Enter", "key-follow", Act::Follow),
    Binding::new(
        &[KeyCode::Char('t'), KeyCode::Char('o')],
        "t",
        "key-toc",
        Act::Toc,
    ),
];

pub struct Reader {
    lesson: String,
    scroll: usize,
    /// Focused link (Tab / Shift-Tab), index into the doc's links.
    focus: Option<usize>,
    /// Layout for (language, width, ascii); rebuilt when any changes.
    doc: Doc,
    key: Option<(Lang, u16, bool)>,
    /// Visible height at the last draw, for paging and "reached the end".
    height: usize,
    area: Rect,
    reached_end: bool,
    opened_at: std::time::Instant,
}

impl Reader {
    pub fn new(cx: &Cx, lesson: &str) -> Self {
        let scroll = cx
            .progress
            .lessons
            .get(lesson)
            .map(|r| r.position)
            .unwrap_or(0);
        Reader {
            lesson: lesson.to_string(),
            scroll,
            focus: None,
            doc: Doc::default(),
            key: None,
            height: 0,
            area: Rect::default(),
            reached_end: false,
            opened_at: std::time::Instant::now(),
        }
    }

    /// The lesson's blocks plus a closing "next" paragraph with its quiz and labs.
    fn blocks(&self, cx: &Cx) -> Vec<Block> {
        let Some(lesson) = cx.course.lesson(&self.lesson) else {
            return Vec::new();
        };
        let (body, used) = lesson.body.resolve(cx.lang());
        let mut blocks = Vec::new();
        if used != cx.lang() {
            blocks.push(Block::Paragraph(vec![Inline::Text {
                text: cx
                    .i18n
                    .ta("lesson-fallback", &[("lang", used.code().into())]),
                style: markdown::Style {
                    emphasis: true,
                    ..Default::default()
                },
            }]));
        }
        blocks.extend(markdown::parse(body));
        let mut next = Vec::new();
        if let Some(q) = lesson.quiz.as_ref().and_then(|q| cx.course.quiz(q)) {
            next.push(Inline::Link {
                text: format!("{}: {}", cx.t("reader-next-quiz"), cx.loc(&q.title)),
                target: Target::Quiz(q.id.clone()),
            });
        }
        for lab in &lesson.labs {
            if !next.is_empty() {
                next.push(Inline::Text {
                    text: "   ".into(),
                    style: Default::default(),
                });
            }
            next.push(Inline::Link {
                text: format!(
                    "{}: {}",
                    cx.t("reader-next-lab"),
                    cx.course
                        .lab(lab)
                        .map(|l| cx.loc(&l.title))
                        .unwrap_or_else(|| lab.clone())
                ),
                target: Target::Lab(lab.clone()),
            });
        }
        if !next.is_empty() {
            blocks.push(Block::Rule);
            blocks.push(Block::Paragraph(next));
        }
        blocks
    }

    fn ensure_layout(&mut self, cx: &Cx, width: u16) {
        let key = (cx.lang(), width, cx.theme.ascii);
        if self.key == Some(key) {
            return;
        }
        // Keep the reader near the same place across a language switch or resize.
        let frac = if self.doc.lines.is_empty() {
            None
        } else {
            Some(self.scroll as f64 / self.doc.lines.len() as f64)
        };
        self.doc = doc::layout(&self.blocks(cx), width as usize, cx.course, cx.theme);
        if let (Some(frac), Some(_)) = (frac, self.key) {
            self.scroll = (frac * self.doc.lines.len() as f64) as usize;
        }
        self.key = Some(key);
        self.focus = None;
        self.clamp();
    }

    fn max_scroll(&self) -> usize {
        self.doc.lines.len().saturating_sub(self.height.max(1))
    }

    fn clamp(&mut self) {
        self.scroll = self.scroll.min(self.max_scroll());
    }

    fn scroll_by(&mut self, d: isize) {
        self.scroll = self.scroll.saturating_add_signed(d);
        self.clamp();
    }

    /// Moves focus to the next (or previous) link, scrolling it into view.
    fn cycle_focus(&mut self, forward: bool) {
        let n = self.doc.links.len();
        if n == 0 {
            return;
        }
        // Start from the first link on screen when nothing is focused yet, or when the focused
        // link was scrolled away: Tab goes on from what the learner sees.
        let focus = self.focus.filter(|&i| self.link_visible(i));
        let next = match focus {
            Some(i) if forward => (i + 1) % n,
            Some(i) => (i + n - 1) % n,
            None if forward => self
                .doc
                .links
                .iter()
                .position(|l| l.line >= self.scroll)
                .unwrap_or(0),
            None => self
                .doc
                .links
                .iter()
                .rposition(|l| l.line < self.scroll + self.height)
                .unwrap_or(n - 1),
        };
        self.focus = Some(next);
        let line = self.doc.links[next].line;
        if line < self.scroll || line >= self.scroll + self.height {
            self.scroll = line.saturating_sub(self.height / 3);
            self.clamp();
        }
    }

    /// The link is on the lines shown now.
    fn link_visible(&self, i: usize) -> bool {
        self.doc
            .links
            .get(i)
            .is_some_and(|l| l.line >= self.scroll && l.line < self.scroll + self.height)
    }

    fn follow(&self, cx: &Cx, link: usize) -> Outcome {
        match &self.doc.links[link].target {
            Target::Term(id) => Outcome::Overlay(Overlay::Term(id.clone())),
            Target::Web(url) => Outcome::Overlay(Overlay::Notice(
                cx.i18n
                    .ta("reader-web-link", &[("url", url.as_str().into())]),
            )),
            t => match super::for_target(cx, t) {
                Some(v) => Outcome::Push(v),
                None => Outcome::Stay,
            },
        }
    }

    fn link_at(&self, x: u16, y: u16) -> Option<usize> {
        let a = self.area;
        if x < a.x || x >= a.x + a.width || y < a.y || y >= a.y + a.height {
            return None;
        }
        let line = self.doc.lines.get(self.scroll + (y - a.y) as usize)?;
        let mut col = a.x as usize;
        for seg in line {
            let w = seg.width();
            if (x as usize) < col + w {
                return seg.link;
            }
            col += w;
        }
        None
    }

    fn at_end(&self) -> bool {
        self.height > 0 && self.scroll >= self.max_scroll()
    }
}

impl View for Reader {
    fn face(&self, cx: &Cx) -> Face {
        let title = cx
            .course
            .lesson(&self.lesson)
            .map(|l| cx.loc(&l.title))
            .unwrap_or_default();
        Face::new("reader", title, KEYS)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        if self.key.is_none() {
            // Keys can arrive before the first draw (a burst, or a script): lay out now.
            self.height = cx.area.height as usize;
            self.ensure_layout(cx, Self::text_width(cx.area));
        }
        let page = self.height.saturating_sub(2).max(1) as isize;
        let outcome = match ev {
            Ev::Key(k) => match Binding::find(KEYS, k) {
                Some(Act::Line) => {
                    let up = matches!(k.code, KeyCode::Up | KeyCode::Char('k'));
                    self.scroll_by(if up { -1 } else { 1 });
                    Outcome::Stay
                }
                Some(Act::PageDown) => {
                    self.scroll_by(page);
                    Outcome::Stay
                }
                Some(Act::PageUp) => {
                    self.scroll_by(-page);
                    Outcome::Stay
                }
                Some(Act::Top) => {
                    self.scroll = 0;
                    Outcome::Stay
                }
                Some(Act::Bottom) => {
                    self.scroll = self.max_scroll();
                    Outcome::Stay
                }
                Some(Act::NextLink) => {
                    self.cycle_focus(true);
                    Outcome::Stay
                }
                Some(Act::PrevLink) => {
                    self.cycle_focus(false);
                    Outcome::Stay
                }
                // A focused link scrolled out of view is not opened blind.
                Some(Act::Follow) => match self.focus {
                    Some(i) if self.link_visible(i) => self.follow(cx, i),
                    _ => Outcome::Stay,
                },
                Some(Act::Toc) => {
                    let items: Vec<(String, usize)> = self
                        .doc
                        .headings
                        .iter()
                        .map(|h| {
                            (
                                format!(
                                    "{}{}",
                                    "  ".repeat(h.level.saturating_sub(1) as usize),
                                    h.text
                                ),
                                h.line,
                            )
                        })
                        .collect();
                    if items.is_empty() {
                        Outcome::Stay
                    } else {
                        let selected = items
                            .iter()
                            .rposition(|(_, l)| *l <= self.scroll)
                            .unwrap_or(0);
                        Outcome::Overlay(Overlay::Toc { items, selected })
                    }
                }
                None => Outcome::Ignored,
            },
            Ev::Jump(line) => {
                self.scroll = *line;
                self.clamp();
                Outcome::Stay
            }
            Ev::Scroll(d) => {
                self.scroll_by(*d as isize);
                Outcome::Stay
            }
            Ev::Click { x, y } => match self.link_at(*x, *y) {
                Some(i) => {
                    self.focus = Some(i);
                    self.follow(cx, i)
                }
                None => Outcome::Stay,
            },
            Ev::Paste(_) | Ev::Tick | Ev::Confirmed(_) => Outcome::Stay,
        };
        if self.at_end() && !self.reached_end {
            self.reached_end = true;
            self.save(cx);
        }
        outcome
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        // One column on the right for the scroll position.
        let text_area = Rect {
            x: area.x + 1,
            width: Self::text_width(area),
            ..area
        };
        self.area = text_area;
        self.height = area.height as usize;
        self.ensure_layout(cx, text_area.width);
        self.clamp();
        let lines: Vec<Line> = self
            .doc
            .lines
            .iter()
            .skip(self.scroll)
            .take(self.height)
            .map(|l| widgets::to_line(l, self.focus))
            .collect();
        f.render_widget(Paragraph::new(lines), text_area);
        // Scroll indicator: a thumb in the right column.
        let total = self.doc.lines.len();
        if total > self.height && area.height > 0 {
            let h = area.height as usize;
            let thumb = (self.scroll * (h - 1)) / self.max_scroll().max(1);
            // Right beside the text, which may be narrower than the screen.
            let x = (text_area.x + text_area.width + 1).min(area.x + area.width - 1);
            let g = cx.theme.glyphs();
            for y in 0..h {
                let s = if y == thumb { g.car } else { g.v };
                let style = if y == thumb {
                    cx.theme.key()
                } else {
                    cx.theme.dim()
                };
                f.buffer_mut().set_string(x, area.y + y as u16, s, style);
            }
        }
    }

    fn enter(&mut self, cx: &mut Cx) {
        view::opened(cx, ItemKind::Lesson, &self.lesson);
    }

    fn leave(&mut self, cx: &mut Cx) {
        self.save(cx);
    }
}

impl Reader {
    /// The text column: a margin on the left, the scroll indicator on the right.
    fn text_width(area: Rect) -> u16 {
        // Lines much longer than this are hard to follow back to their start.
        area.width.saturating_sub(3).min(MAX_TEXT_WIDTH)
    }

    fn save(&mut self, cx: &mut Cx) {
        let secs = self.opened_at.elapsed().as_secs();
        self.opened_at = std::time::Instant::now();
        cx.changes.push(Change::Lesson {
            id: self.lesson.clone(),
            position: self.scroll,
            finished: self.reached_end,
            secs,
        });
    }
}
