//! Home: where to go, progress at a glance, and "continue where you left off".

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::super::keymap::{Binding, LIST_MOVE, LIST_OPEN};
use super::super::view::{Cx, Ev, Face, Outcome, View};
use super::super::widgets::{self, Menu, Pick};
use super::super::wrap::{pad, str_width};
use super::list::List;
use super::{building, glossary, matrix, progress};
use crate::content::{Lab, Lesson, Quiz};
use crate::markdown::Target;
use crate::progress::ItemKind;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Item {
    Continue,
    Stack,
    Lessons,
    Quizzes,
    Labs,
    Glossary,
    Progress,
    Matrix,
}

impl Item {
    fn key(self) -> char {
        match self {
            Item::Continue => 'c',
            Item::Stack => '1',
            Item::Lessons => '2',
            Item::Quizzes => '3',
            Item::Labs => '4',
            Item::Glossary => '5',
            Item::Progress => '6',
            Item::Matrix => '7',
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    List,
    /// An item's own key, shown next to it in the menu.
    Item,
    Nothing,
}

/// The keys of the home screen, for dispatch and for the footer.
const KEYS: &[Binding<Act>] = &[
    Binding::new(LIST_MOVE, "↑↓", "key-move", Act::List),
    Binding::new(LIST_OPEN, "Enter", "key-open", Act::List),
    Binding::hidden(
        &[
            KeyCode::Char('c'),
            KeyCode::Char('1'),
            KeyCode::Char('2'),
            KeyCode::Char('3'),
            KeyCode::Char('4'),
            KeyCode::Char('5'),
            KeyCode::Char('6'),
            KeyCode::Char('7'),
        ],
        Act::Item,
    ),
    // On the home screen "back" means quit; Left/h/Backspace would surprise.
    Binding::hidden(
        &[KeyCode::Left, KeyCode::Char('h'), KeyCode::Backspace],
        Act::Nothing,
    ),
];

pub struct Home {
    menu: Menu,
}

impl Home {
    pub fn new() -> Self {
        Home {
            menu: Menu::default(),
        }
    }

    fn items(cx: &Cx) -> Vec<Item> {
        let mut v = Vec::new();
        if continue_target(cx).is_some() {
            v.push(Item::Continue);
        }
        v.extend([
            Item::Stack,
            Item::Lessons,
            Item::Quizzes,
            Item::Labs,
            Item::Glossary,
            Item::Progress,
            Item::Matrix,
        ]);
        v
    }

    fn open(cx: &Cx, item: Item) -> Outcome {
        match item {
            Item::Continue => match continue_target(cx).and_then(|t| super::for_target(cx, &t)) {
                Some(v) => Outcome::Push(v),
                None => Outcome::Stay,
            },
            Item::Stack => Outcome::Push(Box::new(building::Building::new())),
            Item::Lessons => Outcome::Push(Box::new(List::<Lesson>::new())),
            Item::Quizzes => Outcome::Push(Box::new(List::<Quiz>::new())),
            Item::Labs => Outcome::Push(Box::new(List::<Lab>::new())),
            Item::Glossary => Outcome::Push(Box::new(glossary::Glossary::new())),
            Item::Progress => Outcome::Push(Box::new(progress::ProgressScreen::new())),
            Item::Matrix => Outcome::Push(Box::new(matrix::Matrix::new())),
        }
    }
}

impl Default for Home {
    fn default() -> Self {
        Self::new()
    }
}

/// The last lesson, quiz or lab opened, if it still exists in this course.
fn continue_target(cx: &Cx) -> Option<Target> {
    let last = cx.progress.last.as_ref()?;
    match last.kind {
        ItemKind::Lesson => cx
            .course
            .lesson(&last.id)
            .map(|l| Target::Lesson(l.id.clone())),
        ItemKind::Quiz => cx.course.quiz(&last.id).map(|q| Target::Quiz(q.id.clone())),
        ItemKind::Lab => cx.course.lab(&last.id).map(|l| Target::Lab(l.id.clone())),
    }
}

fn label(cx: &Cx, item: Item) -> (String, String) {
    let c = cx.course;
    let p = cx.progress;
    match item {
        Item::Continue => {
            let what = match continue_target(cx) {
                Some(Target::Lesson(id)) => {
                    c.lesson(&id).map(|l| cx.loc(&l.title)).unwrap_or_default()
                }
                Some(Target::Quiz(id)) => c.quiz(&id).map(|q| cx.loc(&q.title)).unwrap_or_default(),
                Some(Target::Lab(id)) => c.lab(&id).map(|l| cx.loc(&l.title)).unwrap_or_default(),
                _ => String::new(),
            };
            (cx.t("home-continue"), what)
        }
        Item::Stack => (cx.t("home-stack"), cx.t("home-stack-desc")),
        Item::Lessons => {
            let read = p.tally(c).lessons_read;
            (
                cx.t("home-lessons"),
                cx.i18n.ta(
                    "home-lessons-desc",
                    &[("count", c.lessons.len().into()), ("read", read.into())],
                ),
            )
        }
        Item::Quizzes => {
            let questions: usize = c.quizzes.iter().map(|q| q.questions.len()).sum();
            (
                cx.t("home-quizzes"),
                cx.i18n.ta(
                    "home-quizzes-desc",
                    &[
                        ("count", c.quizzes.len().into()),
                        ("questions", questions.into()),
                    ],
                ),
            )
        }
        Item::Labs => (cx.t("home-labs"), cx.t("home-labs-desc")),
        Item::Glossary => (
            cx.t("home-glossary"),
            cx.i18n
                .ta("home-glossary-desc", &[("count", c.glossary.len().into())]),
        ),
        Item::Progress => (cx.t("home-progress"), cx.t("home-progress-desc")),
        Item::Matrix => (cx.t("matrix-title"), cx.t("home-matrix-desc")),
    }
}

impl View for Home {
    fn face(&self, cx: &Cx) -> Face {
        Face::new("home", cx.t("home-title"), KEYS)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let items = Self::items(cx);
        match self.menu.pick_in(KEYS, ev, items.len()) {
            Some(Pick::Chosen(i)) => return Self::open(cx, items[i]),
            Some(Pick::Moved) => return Outcome::Stay,
            None => {}
        }
        let Ev::Key(k) = ev else {
            return Outcome::Ignored;
        };
        match (Binding::find(KEYS, k), k.code) {
            (Some(Act::Nothing), _) => Outcome::Stay,
            // Each item keeps its key whether or not "Continue" is shown above it.
            (Some(Act::Item), KeyCode::Char(c)) => match items.iter().position(|i| i.key() == c) {
                Some(i) => {
                    self.menu.selected = i;
                    Self::open(cx, items[i])
                }
                None => Outcome::Stay,
            },
            _ => Outcome::Ignored,
        }
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let theme = cx.theme;
        let inner = widgets::pad_x(area);
        let w = inner.width as usize;
        let mut y = inner.y;
        let bottom = inner.y + inner.height;
        // Tagline, wrapped; dropped first when the terminal is short.
        if inner.height >= 14 {
            let tag = widgets::wrap_lines(&[Line::styled(cx.t("home-tagline"), theme.dim())], w);
            let h = tag.len() as u16;
            f.render_widget(
                Paragraph::new(tag),
                Rect {
                    y: y + 1,
                    height: h,
                    ..inner
                },
            );
            y += h + 2;
        }
        let items = Self::items(cx);
        let labels: Vec<(String, String)> = items.iter().map(|i| label(cx, *i)).collect();
        let name_w = labels.iter().map(|(n, _)| str_width(n)).max().unwrap_or(0);
        let g = theme.glyphs();
        let lines: Vec<Line<'static>> = labels
            .into_iter()
            .enumerate()
            .map(|(i, (name, desc))| {
                let marker = if i == self.menu.selected {
                    g.pointer
                } else {
                    " "
                };
                let rest = w.saturating_sub(4 + name_w + 2);
                Line::from(vec![
                    Span::raw(format!("{marker} ")),
                    Span::styled(format!("{} ", items[i].key()), theme.key()),
                    Span::styled(
                        pad(&name, name_w),
                        theme.text().add_modifier(ratatui::style::Modifier::BOLD),
                    ),
                    Span::raw("  "),
                    Span::styled(pad(&desc, rest), theme.dim()),
                ])
            })
            .collect();
        let menu_h = (items.len() as u16).min(bottom.saturating_sub(y));
        self.menu.draw(
            f,
            Rect {
                y,
                height: menu_h,
                ..inner
            },
            lines,
            theme.selected(),
        );
        y += menu_h + 1;

        // Progress gauges, if there is room.
        let p = cx.progress;
        let c = cx.course;
        let tally = p.tally(c);
        let rows = [
            (cx.t("home-lessons"), tally.lessons_read, c.lessons.len()),
            (cx.t("home-quizzes"), tally.quizzes_done, c.quizzes.len()),
            (cx.t("home-labs"), tally.labs_done, c.labs.len()),
        ];
        let below = Rect {
            y,
            height: bottom.saturating_sub(y),
            ..inner
        };
        widgets::gauges(f, theme, below, &rows);
    }
}
