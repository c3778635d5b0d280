//! What a screen sees of the app and gives back to it: the events it handles, the context it
//! reads, the outcomes and overlays it asks for, and the `View` trait itself. The app and the
//! screens both import this module; the screens never import the app.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use super::keymap::{self, Binding};
use super::theme::Theme;
use crate::content::Course;
use crate::i18n::I18n;
use crate::lang::Lang;
use crate::progress::{Change, ItemKind, Place, Progress};

/// What a screen sees of an input: a key, a click at a cell, or a wheel step (+1 = down).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ev {
    Key(KeyEvent),
    Click {
        x: u16,
        y: u16,
    },
    Scroll(i32),
    Paste(String),
    /// Go to a line (chosen in the table of contents).
    Jump(usize),
    /// Background work has news (see `Input::Wake`).
    Tick,
    /// The learner answered yes to an `Overlay::Ask` with this question.
    Confirmed(Question),
}

/// What a screen asked with `Overlay::Ask`: a name the compiler checks, where a mistyped text
/// tag would silently never match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Show the lab's solution.
    ShowSolution,
    /// Start the lab again from a fresh machine.
    ResetLab,
}

/// Shared, read-mostly context for screens. `changes` collects progress updates.
pub struct Cx<'a> {
    /// Wakes the event loop from another thread (a lab's shell output); `None` in tests.
    pub waker: Option<&'a crate::lab::app::session::Notify>,
    /// Reads a lab's shell output in the event loop's own thread; `None` in tests.
    pub watch: Option<&'a crate::lab::app::session::Watch>,
    pub exe: Option<&'a std::path::Path>,
    /// The body area (between title bar and key hints) at the last draw, so screens can lay
    /// out while handling keys that arrive before their first draw.
    pub area: Rect,
    pub course: &'a Course,
    pub i18n: &'a I18n,
    pub theme: &'a Theme,
    pub progress: &'a Progress,
    pub changes: &'a mut Vec<Change>,
    /// Seed for quiz option orders (`quiz ID --seed N`, tests); `None` draws a fresh one.
    pub quiz_seed: Option<u64>,
}

impl Cx<'_> {
    pub fn t(&self, id: &str) -> String {
        self.i18n.t(id)
    }

    pub fn lang(&self) -> Lang {
        self.i18n.lang()
    }

    /// A content text in the current language, with an `[en]` mark when it fell back.
    pub fn loc(&self, text: &crate::content::Localized) -> String {
        crate::i18n::loc(self.i18n, text)
    }
}

/// What a screen did with an input.
pub enum Outcome {
    /// Not for this screen: the app applies its default (back, help, language...).
    Ignored,
    Stay,
    Push(Box<dyn View>),
    Pop,
    Replace(Box<dyn View>),
    Overlay(Overlay),
    Quit,
}

/// What the app shows of a screen around its body: one value, so that a screen states its name,
/// title and keys in one place.
pub struct Face {
    /// Stable name, for tests and snapshots.
    pub id: &'static str,
    /// Shown in the title bar after "rocm-learn ›".
    pub title: String,
    /// Key hints for the footer and the help overlay: (key, message id). Only the screen's own
    /// keys, made from the table it dispatches with; the shared ones (back, help, language)
    /// are added by the app.
    pub keys: Vec<(&'static str, &'static str)>,
}

impl Face {
    /// A screen whose hints are the advertised keys of the table it dispatches with.
    pub fn new<A: Copy>(id: &'static str, title: String, table: &[Binding<A>]) -> Self {
        Face {
            id,
            title,
            keys: keymap::hints(table),
        }
    }
}

/// A screen of the app.
pub trait View {
    /// Its name, title and keys as they are now.
    fn face(&self, cx: &Cx) -> Face;

    /// The lab this screen runs, if it is a lab's (a class server's help is recorded on it).
    fn lab_id(&self) -> Option<String> {
        None
    }
    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome;
    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect);
    /// Screens with a text field take every printable key (`q` types "q").
    fn wants_text(&self) -> bool {
        false
    }
    /// A screen that owns the keyboard (a focused terminal pane) gets every key, Ctrl-C too.
    fn captures_input(&self) -> bool {
        false
    }
    /// Called when the screen is shown for the first time (recording "opened").
    fn enter(&mut self, _cx: &mut Cx) {}
    /// Called when the screen is about to be left (saving a reading position).
    fn leave(&mut self, _cx: &mut Cx) {}
    /// The terminal changed size (`cx.area` is the new body): lay out again outside drawing.
    fn resized(&mut self, _cx: &mut Cx) {}
}

pub enum Overlay {
    Help,
    /// A glossary term's definition.
    Term(String),
    Notice(String),
    /// A question; `y` applies the change.
    Confirm {
        text: String,
        change: Change,
    },
    /// A question; `y` sends `Ev::Confirmed(tag)` to the screen that asked.
    Ask {
        text: String,
        tag: Question,
    },
    /// A list to pick from: (label, line) pairs, the selected index; Enter sends the line to the
    /// screen below as a jump.
    Toc {
        items: Vec<(String, usize)>,
        selected: usize,
    },
}

/// Records that an item was opened (for "continue where you left off").
pub fn opened(cx: &mut Cx, kind: ItemKind, id: &str) {
    cx.changes.push(Change::Opened(Place {
        kind,
        id: id.to_string(),
    }));
}
