//! Key tables: one per screen and focus, used both to dispatch keys and to draw the footer and
//! the `?` help, so what the screen says it does and what it does cannot drift apart.

use crossterm::event::KeyCode;

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
        }
    }

    pub const fn hidden(keys: &'static [KeyCode], act: A) -> Self {
        Binding {
            keys,
            label: "",
            msg: None,
            act,
        }
    }

    /// What the table does with a key, if it has it.
    pub fn find(table: &[Self], code: KeyCode) -> Option<A> {
        table.iter().find(|b| b.keys.contains(&code)).map(|b| b.act)
    }
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
        assert_eq!(Binding::find(TABLE, KeyCode::Char('l')), Some(Act::Go));
        assert_eq!(Binding::find(TABLE, KeyCode::Left), Some(Act::Stay));
        assert_eq!(Binding::find(TABLE, KeyCode::Char('x')), None);
        assert_eq!(hints(TABLE), vec![("Enter", "key-open")]);
    }
}
