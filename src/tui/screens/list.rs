//! The list screens (lessons, quizzes, labs) are one screen: the items boxed under a title, the
//! selected one's text beside them, Enter to open it. Each kind of item says only what differs.

use std::marker::PhantomData;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::super::keymap::{Binding, ListAct};
use super::super::view::{Cx, Ev, Face, Outcome, View};
use super::super::widgets::{self, Menu};
use crate::content::{Course, Localized};

/// A kind of course item a list screen shows (lessons, quizzes, labs).
pub trait Kind: Sized + 'static {
    /// The screen's stable name.
    const ID: &'static str;
    /// Message id of the title (title bar and list box).
    const TITLE: &'static str;
    /// The keys of the list, for dispatch and for the footer.
    const KEYS: &'static [Binding<ListAct>];
    /// Message id of what an empty list says in place of the boxes; `None` draws them empty.
    const EMPTY: Option<&'static str> = None;
    /// The items of this kind, in course order.
    fn all(course: &Course) -> &[Self];
    /// The screen this item opens; `act` is `Open`, or `Retry` where the table has it.
    fn open(&self, cx: &Cx, act: ListAct) -> Outcome;
    /// The item's line in the list (`n` counts from 0), laid out to the list's inner width.
    fn line(&self, cx: &Cx, n: usize, w: usize) -> Line<'static>;
    /// The item's text beside the list, laid out to `w`.
    fn detail(&self, cx: &Cx, w: usize) -> Vec<Line<'static>>;
}

/// A list screen of one kind of item.
pub struct List<K> {
    menu: Menu,
    kind: PhantomData<K>,
}

impl<K: Kind> List<K> {
    pub fn new() -> Self {
        List {
            menu: Menu::default(),
            kind: PhantomData,
        }
    }
}

impl<K: Kind> Default for List<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Kind> View for List<K> {
    fn face(&self, cx: &Cx) -> Face {
        Face::new(K::ID, cx.t(K::TITLE), K::KEYS)
    }

    fn handle(&mut self, cx: &mut Cx, ev: &Ev) -> Outcome {
        let all = K::all(cx.course);
        if all.is_empty() {
            return Outcome::Ignored;
        }
        if let Ev::Key(k) = ev
            && Binding::find(K::KEYS, k) == Some(ListAct::Retry)
        {
            self.menu.clamp(all.len());
            return all[self.menu.selected].open(cx, ListAct::Retry);
        }
        self.menu
            .outcome_in(K::KEYS, ev, all.len(), |i| all[i].open(cx, ListAct::Open))
    }

    fn draw(&mut self, cx: &Cx, f: &mut Frame, area: Rect) {
        let all = K::all(cx.course);
        if let Some(empty) = K::EMPTY
            && all.is_empty()
        {
            let inner = Rect {
                x: area.x + 1,
                y: area.y + 1,
                width: area.width.saturating_sub(2),
                height: area.height.saturating_sub(1),
            };
            let text = widgets::wrap_lines(&[Line::raw(cx.t(empty))], inner.width as usize);
            f.render_widget(Paragraph::new(text), inner);
            return;
        }
        widgets::list_and_detail(
            cx,
            f,
            area,
            &cx.t(K::TITLE),
            &mut self.menu,
            |w| {
                all.iter()
                    .enumerate()
                    .map(|(n, item)| item.line(cx, n, w))
                    .collect()
            },
            |i, w| all.get(i).map(|item| item.detail(cx, w)),
        );
    }
}

/// The mark before an item: ticked when `Some(true)` (done), a bullet when `Some(false)`
/// (started), blank when `None` (not opened yet).
pub fn mark(cx: &Cx, done: Option<bool>) -> Span<'static> {
    let theme = cx.theme;
    let g = theme.glyphs();
    match done {
        Some(true) => Span::styled(g.right, theme.good()),
        Some(false) => Span::styled(g.bullet, theme.key()),
        None => Span::raw(" "),
    }
}

/// The top of an item's text: its title as a heading, then a blank line.
pub fn heading(cx: &Cx, title: &Localized) -> Vec<Line<'static>> {
    vec![
        Line::styled(cx.loc(title), cx.theme.heading(2)),
        Line::raw(""),
    ]
}
