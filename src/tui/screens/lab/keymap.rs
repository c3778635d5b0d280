//! The lab screen's keys: one table that both dispatches a key and draws the footer and the
//! help, so that neither can offer a key the screen does not handle in its current mode.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Who gets the keys right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The terminal pane has focus: every key not in the table goes to the shell.
    Terminal,
    /// The app has the keys; the terminal is shown but not typed into.
    App,
    /// The briefing and full checklist are open over the terminal.
    Panel,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    LeaveTerminal,
    FocusTerminal,
    Help,
    Panel,
    ClosePanel,
    Hint,
    Solution,
    Reset,
    Up,
    Down,
    PageUp,
    PageDown,
    /// Opens the next item of the course (a finished lab).
    Next,
    /// Switches between the guided and the challenge way (before the first command).
    Way,
}

/// What the lab's state adds to the table: keys that exist only at some moments.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Moment {
    /// The lab is complete and the course has an item after it.
    pub next: bool,
    /// Nothing has been typed yet: the way can still be switched.
    pub fresh: bool,
}

/// The keys of the moment, in every mode (F keys never reach the shell's programs here):
/// (label, message id, key, action).
fn moment_rows(m: Moment) -> Vec<(&'static str, &'static str, KeyCode, Act)> {
    let mut v = Vec::new();
    if m.next {
        v.push(("F6", "labui-key-next", KeyCode::F(6), Act::Next));
    }
    if m.fresh {
        v.push(("F7", "labui-key-way", KeyCode::F(7), Act::Way));
    }
    v
}

/// The action a key of the moment has, if any.
pub fn dispatch_moment(m: Moment, k: &KeyEvent) -> Option<Act> {
    moment_rows(m)
        .into_iter()
        .find(|r| r.2 == k.code && k.modifiers.is_empty())
        .map(|r| r.3)
}

/// (key, message id) of the keys of the moment, first in the footer: they matter most then.
pub fn moment_hints(m: Moment) -> Vec<(&'static str, &'static str)> {
    moment_rows(m).into_iter().map(|r| (r.0, r.1)).collect()
}

struct Row {
    /// As shown in the footer and the help.
    label: &'static str,
    msg: &'static str,
    modes: &'static [Mode],
    /// The action of a key for this row, if it is one of the row's keys (the label names the
    /// main one; j/k and Ctrl-] are aliases).
    matches: fn(&KeyEvent) -> Option<Act>,
}

use Mode::{App, Panel, Terminal};

fn is(k: &KeyEvent, c: KeyCode) -> bool {
    k.code == c
}

/// In footer order: what a learner needs most comes first, since a narrow footer drops the tail.
const ROWS: &[Row] = &[
    Row {
        label: "F10",
        msg: "key-leave-terminal",
        modes: &[Terminal],
        matches: |k| {
            let ctrl_bracket =
                k.code == KeyCode::Char(']') && k.modifiers.contains(KeyModifiers::CONTROL);
            (is(k, KeyCode::F(10)) || ctrl_bracket).then_some(Act::LeaveTerminal)
        },
    },
    Row {
        label: "Enter",
        msg: "key-focus-terminal",
        modes: &[App],
        matches: |k| {
            matches!(k.code, KeyCode::Enter | KeyCode::Tab | KeyCode::Char('i'))
                .then_some(Act::FocusTerminal)
        },
    },
    Row {
        label: "Esc",
        msg: "labui-key-close",
        modes: &[Panel],
        matches: |k| {
            matches!(
                k.code,
                KeyCode::Esc | KeyCode::Char('q') | KeyCode::Enter | KeyCode::F(4)
            )
            .then_some(Act::ClosePanel)
        },
    },
    Row {
        label: "F4",
        msg: "labui-key-briefing",
        modes: &[Terminal, App],
        matches: |k| is(k, KeyCode::F(4)).then_some(Act::Panel),
    },
    Row {
        label: "↑↓",
        msg: "key-scroll",
        modes: &[App, Panel],
        matches: |k| match k.code {
            KeyCode::Up | KeyCode::Char('k') => Some(Act::Up),
            KeyCode::Down | KeyCode::Char('j') => Some(Act::Down),
            KeyCode::PageUp => Some(Act::PageUp),
            KeyCode::PageDown | KeyCode::Char(' ') => Some(Act::PageDown),
            _ => None,
        },
    },
    Row {
        label: "F2",
        msg: "key-hint",
        modes: &[Terminal, App, Panel],
        matches: |k| is(k, KeyCode::F(2)).then_some(Act::Hint),
    },
    Row {
        label: "F3",
        msg: "key-solution",
        modes: &[Terminal, App, Panel],
        matches: |k| is(k, KeyCode::F(3)).then_some(Act::Solution),
    },
    Row {
        label: "F1",
        msg: "key-help",
        modes: &[Terminal],
        matches: |k| is(k, KeyCode::F(1)).then_some(Act::Help),
    },
    Row {
        label: "F5",
        msg: "key-reset",
        modes: &[Terminal, App, Panel],
        matches: |k| is(k, KeyCode::F(5)).then_some(Act::Reset),
    },
];

/// The action a key has in `mode`, if the table has one.
pub fn dispatch(mode: Mode, k: &KeyEvent) -> Option<Act> {
    ROWS.iter()
        .filter(|r| r.modes.contains(&mode))
        .find_map(|r| (r.matches)(k))
}

/// (key, message id) for the footer and the help in `mode`.
pub fn hints(mode: Mode) -> Vec<(&'static str, &'static str)> {
    ROWS.iter()
        .filter(|r| r.modes.contains(&mode))
        .map(|r| (r.label, r.msg))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key a footer label stands for.
    fn key_of(label: &str) -> KeyEvent {
        let code = match label {
            "Enter" => KeyCode::Enter,
            "Esc" => KeyCode::Esc,
            "↑↓" => KeyCode::Down,
            "q" => KeyCode::Char('q'),
            f => KeyCode::F(f.trim_start_matches('F').parse().expect("an F key")),
        };
        KeyEvent::from(code)
    }

    #[test]
    fn every_key_the_footer_shows_does_something_in_that_mode() {
        for mode in [Terminal, App, Panel] {
            for (label, _) in hints(mode) {
                assert!(
                    dispatch(mode, &key_of(label)).is_some(),
                    "{label} is shown in {mode:?} but does nothing"
                );
            }
        }
        // ...and the ones it does not show in the terminal go to the shell.
        assert_eq!(dispatch(Terminal, &key_of("Esc")), None);
        assert_eq!(dispatch(Terminal, &key_of("q")), None);
    }

    #[test]
    fn letters_reach_the_shell_while_the_terminal_has_focus() {
        for c in ['q', 'j', 'k', '?', 'L', 'i', ' '] {
            let k = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
            assert_eq!(dispatch(Terminal, &k), None, "{c:?} must go to the shell");
        }
        assert_eq!(
            dispatch(Terminal, &KeyEvent::from(KeyCode::Enter)),
            None,
            "Enter runs the command"
        );
        assert_eq!(
            dispatch(Terminal, &KeyEvent::from(KeyCode::F(10))),
            Some(Act::LeaveTerminal)
        );
        assert_eq!(
            dispatch(
                Terminal,
                &KeyEvent::new(KeyCode::Char(']'), KeyModifiers::CONTROL)
            ),
            Some(Act::LeaveTerminal)
        );
    }

    #[test]
    fn keys_of_the_moment_exist_only_at_their_moment() {
        let f6 = KeyEvent::from(KeyCode::F(6));
        let f7 = KeyEvent::from(KeyCode::F(7));
        assert_eq!(dispatch_moment(Moment::default(), &f6), None);
        assert_eq!(dispatch_moment(Moment::default(), &f7), None);
        let both = Moment {
            next: true,
            fresh: true,
        };
        assert_eq!(dispatch_moment(both, &f6), Some(Act::Next));
        assert_eq!(dispatch_moment(both, &f7), Some(Act::Way));
        assert_eq!(
            moment_hints(both),
            vec![("F6", "labui-key-next"), ("F7", "labui-key-way")]
        );
    }

    #[test]
    fn the_panel_closes_with_the_key_that_opened_it() {
        let f4 = KeyEvent::from(KeyCode::F(4));
        assert_eq!(dispatch(Terminal, &f4), Some(Act::Panel));
        assert_eq!(dispatch(Panel, &f4), Some(Act::ClosePanel));
        assert_eq!(
            dispatch(Panel, &KeyEvent::from(KeyCode::Down)),
            Some(Act::Down)
        );
    }
}
