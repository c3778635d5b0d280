//! Turns key presses into the bytes a terminal sends to the program in it.
//!
//! Characters go as UTF-8 (Japanese and Korean input arrive as composed characters), Ctrl+letter
//! as 0x01-0x1a, Alt as an ESC prefix; cursor keys use SS3 when the program asked for
//! application-cursor mode (vim, less) and CSI otherwise, with `CSI 1;m X` for modified keys.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Bytes for a key, or `None` for keys a terminal does not send (e.g. a bare modifier).
pub fn encode(key: &KeyEvent, app_cursor: bool) -> Option<Vec<u8>> {
    let m = key.modifiers;
    let alt = m.contains(KeyModifiers::ALT);
    let ctrl = m.contains(KeyModifiers::CONTROL);
    let shift = m.contains(KeyModifiers::SHIFT);
    // xterm's modifier parameter: 1 + shift + 2*alt + 4*ctrl.
    let param = 1 + shift as u8 + 2 * alt as u8 + 4 * ctrl as u8;

    let mut out = match key.code {
        KeyCode::Char(c) if ctrl => {
            let b = match c.to_ascii_lowercase() {
                c @ 'a'..='z' => c as u8 - b'a' + 1,
                '@' | ' ' | '2' => 0,
                '[' | '3' => 0x1b,
                '\\' | '4' => 0x1c,
                ']' | '5' => 0x1d,
                '^' | '6' => 0x1e,
                '_' | '-' | '7' | '/' => 0x1f,
                '?' | '8' => 0x7f,
                _ => return None,
            };
            vec![b]
        }
        KeyCode::Char(c) => c.to_string().into_bytes(),
        KeyCode::Enter => vec![b'\r'],
        KeyCode::Tab => vec![b'\t'],
        KeyCode::BackTab => b"\x1b[Z".to_vec(),
        KeyCode::Backspace => vec![if ctrl { 0x08 } else { 0x7f }],
        KeyCode::Esc => vec![0x1b],
        KeyCode::Up
        | KeyCode::Down
        | KeyCode::Right
        | KeyCode::Left
        | KeyCode::Home
        | KeyCode::End => {
            let final_byte = match key.code {
                KeyCode::Up => b'A',
                KeyCode::Down => b'B',
                KeyCode::Right => b'C',
                KeyCode::Left => b'D',
                KeyCode::Home => b'H',
                _ => b'F',
            };
            if param > 1 {
                format!("\x1b[1;{param}{}", final_byte as char).into_bytes()
            } else if app_cursor {
                vec![0x1b, b'O', final_byte]
            } else {
                vec![0x1b, b'[', final_byte]
            }
        }
        KeyCode::Insert => tilde(2, param),
        KeyCode::Delete => tilde(3, param),
        KeyCode::PageUp => tilde(5, param),
        KeyCode::PageDown => tilde(6, param),
        KeyCode::F(n @ 1..=4) => {
            let b = b"PQRS"[n as usize - 1];
            if param > 1 {
                format!("\x1b[1;{param}{}", b as char).into_bytes()
            } else {
                vec![0x1b, b'O', b]
            }
        }
        KeyCode::F(n @ 5..=12) => {
            let code = [15, 17, 18, 19, 20, 21, 23, 24][n as usize - 5];
            tilde(code, param)
        }
        _ => return None,
    };
    // Alt+key: ESC first (for keys not already encoded with a modifier parameter).
    if alt
        && matches!(
            key.code,
            KeyCode::Char(_) | KeyCode::Enter | KeyCode::Backspace | KeyCode::Esc | KeyCode::Tab
        )
    {
        out.insert(0, 0x1b);
    }
    Some(out)
}

fn tilde(code: u8, param: u8) -> Vec<u8> {
    if param > 1 {
        format!("\x1b[{code};{param}~").into_bytes()
    } else {
        format!("\x1b[{code}~").into_bytes()
    }
}

/// Pasted text, wrapped in bracketed-paste markers when the program asked for them.
pub fn paste(text: &str, bracketed: bool) -> Vec<u8> {
    // A terminal sends line breaks in a paste as carriage returns.
    let body = text.replace("\r\n", "\r").replace('\n', "\r");
    if bracketed {
        // An end marker inside the text would end the paste early, and removing just the
        // marker can leave a new one behind ("\x1b[20\x1b[201~1~"). Pasted text has no business
        // sending escape sequences at all, so every ESC goes, as careful terminals do.
        let body = body.replace('\x1b', "");
        format!("\x1b[200~{body}\x1b[201~").into_bytes()
    } else {
        body.into_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, m)
    }

    fn enc(code: KeyCode, m: KeyModifiers) -> Vec<u8> {
        encode(&k(code, m), false).unwrap()
    }

    #[test]
    fn characters_are_utf8_including_korean_and_japanese() {
        assert_eq!(enc(KeyCode::Char('a'), KeyModifiers::NONE), b"a");
        assert_eq!(
            enc(KeyCode::Char('한'), KeyModifiers::NONE),
            "한".as_bytes()
        );
        assert_eq!(
            enc(KeyCode::Char('あ'), KeyModifiers::NONE),
            "あ".as_bytes()
        );
    }

    #[test]
    fn control_and_alt() {
        assert_eq!(enc(KeyCode::Char('c'), KeyModifiers::CONTROL), [3]);
        assert_eq!(enc(KeyCode::Char('D'), KeyModifiers::CONTROL), [4]);
        assert_eq!(enc(KeyCode::Char('['), KeyModifiers::CONTROL), [0x1b]);
        assert_eq!(enc(KeyCode::Char('b'), KeyModifiers::ALT), b"\x1bb");
        assert_eq!(enc(KeyCode::Enter, KeyModifiers::NONE), b"\r");
        assert_eq!(enc(KeyCode::Backspace, KeyModifiers::NONE), [0x7f]);
    }

    #[test]
    fn arrows_follow_the_cursor_mode() {
        assert_eq!(enc(KeyCode::Up, KeyModifiers::NONE), b"\x1b[A");
        assert_eq!(
            encode(&k(KeyCode::Up, KeyModifiers::NONE), true).unwrap(),
            b"\x1bOA"
        );
        assert_eq!(enc(KeyCode::Right, KeyModifiers::CONTROL), b"\x1b[1;5C");
        assert_eq!(
            enc(KeyCode::Left, KeyModifiers::SHIFT | KeyModifiers::ALT),
            b"\x1b[1;4D"
        );
    }

    #[test]
    fn editing_and_function_keys() {
        assert_eq!(enc(KeyCode::Delete, KeyModifiers::NONE), b"\x1b[3~");
        assert_eq!(enc(KeyCode::PageDown, KeyModifiers::CONTROL), b"\x1b[6;5~");
        assert_eq!(enc(KeyCode::F(1), KeyModifiers::NONE), b"\x1bOP");
        assert_eq!(enc(KeyCode::F(5), KeyModifiers::NONE), b"\x1b[15~");
        assert_eq!(enc(KeyCode::F(12), KeyModifiers::NONE), b"\x1b[24~");
    }

    #[test]
    fn pastes_are_bracketed_only_on_request() {
        assert_eq!(paste("a\nb", false), b"a\rb");
        assert_eq!(paste("ls", true), b"\x1b[200~ls\x1b[201~");
        assert_eq!(paste("x\x1b[201~rm", true), b"\x1b[200~x[201~rm\x1b[201~");
        // Found by fuzzing: taking the marker out once must not join a new marker together.
        assert_eq!(
            paste("a\x1b[20\x1b[201~1~b", true),
            b"\x1b[200~a[20[201~1~b\x1b[201~"
        );
    }
}
