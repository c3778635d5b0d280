//! Key tables: one per screen and focus, used both to dispatch keys and to draw the footer and
//! the `?` help, so what the screen says it does and what it does cannot drift apart.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Up and down, with the arrows or vi's `k`/`j`.
pub const UP_DOWN: &[KeyCode] = &[
    KeyCode::Up,
    KeyCode::Down,
    KeyCode::Char('k'),
    KeyCode::Char('j'),
];

/// [`UP_DOWN`] and a page at a time: what scrolls a text.
pub const SCROLL: &[KeyCode] = &[
    KeyCode::Up,
    KeyCode::Down,
    KeyCode::Char('k'),
    KeyCode::Char('j'),
    KeyCode::PageUp,
    KeyCode::PageDown,
];

/// The keys a list moves with (`Menu::nav` handles exactly these).
pub const LIST_MOVE: &[KeyCode] = &[
    KeyCode::Up,
    KeyCode::Down,
    KeyCode::Char('k'),
    KeyCode::Char('j'),
    KeyCode::Home,
    KeyCode::End,
    KeyCode::Char('g'),
    KeyCode::Char('G'),
    KeyCode::PageUp,
    KeyCode::PageDown,
];

/// The keys that open a list's selected item (`Menu::pick`).
pub const LIST_OPEN: &[KeyCode] = &[KeyCode::Enter, KeyCode::Right, KeyCode::Char('l')];

/// Keys that do one thing, the label that names them, and the message that says what it is.
#[derive(Debug, Clone, Copy)]
pub struct Binding<A: 'static> {
    pub keys: &'static [KeyCode],
    /// How the footer writes the keys ("↑↓", "Enter", "q/Esc").
    pub label: &'static str,
    /// Message id of what the keys do; `None` for keys handled but not advertised (a guard
    /// against leaving by accident, a second name for a key already shown).
    pub msg: Option<&'static str>,
    pub act: A,
    /// The keys are pressed with Ctrl.
    pub ctrl: bool,
}

impl<A: Copy + 'static> Binding<A> {
    pub const fn new(
        keys: &'static [KeyCode],
        label: &'static str,
        msg: &'static str,
        act: A,
    ) -> Self {
        Binding {
            keys,
            label,
            msg: Some(msg),
            act,
            ctrl: false,
        }
    }

    pub const fn hidden(keys: &'static [KeyCode], act: A) -> Self {
        Binding {
            keys,
            label: "",
            msg: None,
            act,
            ctrl: false,
        }
    }

    /// The same keys pressed with Ctrl.
    pub const fn ctrl(mut self) -> Self {
        self.ctrl = true;
        self
    }

    /// What the table does with a key, if it has it. Alt is never ours (terminals send it for
    /// their own shortcuts); Ctrl must match the binding.
    pub fn find(table: &[Self], key: &KeyEvent) -> Option<A> {
        if key.modifiers.contains(KeyModifiers::ALT) {
            return None;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        table
            .iter()
            .find(|b| b.ctrl == ctrl && b.keys.contains(&key.code))
            .map(|b| b.act)
    }
}

/// What a plain list's keys do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListAct {
    Move,
    Open,
    /// Open the selected item for another try at what went wrong (a quiz's wrong answers).
    Retry,
}

/// A list that moves and opens; `open` names what opening does ("read", "start").
pub const fn list(open: &'static str) -> [Binding<ListAct>; 2] {
    [
        Binding::new(LIST_MOVE, "↑↓", "key-move", ListAct::Move),
        Binding::new(LIST_OPEN, "Enter", open, ListAct::Open),
    ]
}

/// The advertised keys of a table, in order: (label, message id).
pub fn hints<A: Copy>(table: &[Binding<A>]) -> Vec<(&'static str, &'static str)> {
    table
        .iter()
        .filter_map(|b| b.msg.map(|m| (b.label, m)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Act {
        Go,
        Stay,
    }

    const TABLE: &[Binding<Act>] = &[
        Binding::new(
            &[KeyCode::Enter, KeyCode::Char('l')],
            "Enter",
            "key-open",
            Act::Go,
        ),
        Binding::hidden(&[KeyCode::Left], Act::Stay),
    ];

    #[test]
    fn a_table_dispatches_every_key_it_lists_and_advertises_only_the_shown_ones() {
        let key = |c| KeyEvent::from(c);
        assert_eq!(
            Binding::find(TABLE, &key(KeyCode::Char('l'))),
            Some(Act::Go)
        );
        assert_eq!(Binding::find(TABLE, &key(KeyCode::Left)), Some(Act::Stay));
        assert_eq!(Binding::find(TABLE, &key(KeyCode::Char('x'))), None);
        let ctrl_l = KeyEvent::new(KeyCode::Char('l'), KeyModifiers::CONTROL);
        assert_eq!(Binding::find(TABLE, &ctrl_l), None, "Ctrl-l is another key");
        assert_eq!(hints(TABLE), vec![("Enter", "key-open")]);
    }
}

#[cfg(test)]
mod list_tests {
    use super::*;
    use crate::tui::widgets::Menu;

    #[test]
    fn a_list_moves_with_exactly_the_keys_its_table_names() {
        for &code in LIST_MOVE {
            let mut m = Menu::default();
            assert!(
                m.nav(code, 5),
                "{code:?} is in LIST_MOVE but Menu::nav ignores it"
            );
        }
        for code in [KeyCode::Char('x'), KeyCode::Enter, KeyCode::Tab] {
            assert!(!Menu::default().nav(code, 5), "{code:?}");
        }
    }
}
