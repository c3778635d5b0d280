//! The one cleaner for text that comes from a lab (what the learner typed, named or printed)
//! or another user (a class's exports) and is printed outside the full-screen UI: transcripts,
//! reasons, JSON strings, errors.
//! A learner controls that text; written raw to the instructor's terminal, an escape sequence
//! could set its title, write its clipboard (OSC 52) or reorder what is shown (bidi controls).

/// Characters that are never printed as they are: C0 controls but newline and tab, DEL, C1
/// controls (U+0080..U+009F: CSI, OSC and ST on terminals that read them), and the bidi
/// embedding, override and isolate controls.
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with every unsafe character shown as `?` (as `ls -q` does).
pub fn text(s: &str) -> String {
    s.chars()
        .map(|c| if is_unsafe(c) { '?' } else { c })
        .collect()
}

/// A name as `ls` quotes it when it holds unsafe characters: `$'…'` with escapes for them
/// (`\033` for ESC, `\a` for BEL, the bytes of C1 and bidi characters in octal); other names
/// unchanged.
pub fn quote(s: &str) -> String {
    if !s.chars().any(is_unsafe) {
        return s.to_string();
    }
    let mut out = String::from("$'");
    for c in s.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{b}' => out.push_str("\\v"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if is_unsafe(c) => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("\\{b:03o}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_controls_from_a_lab_never_reach_the_terminal() {
        let hostile =
            "a\u{1b}]52;c;aGk=\u{7}b\u{9b}31mc\u{9d}0;t\u{9c}\u{e}\u{f}d\u{202e}e\u{2066}f\r";
        let clean = text(hostile);
        assert!(!clean.chars().any(is_unsafe), "{clean:?}");
        assert!(!clean.contains('\u{1b}') && !clean.contains('\u{7}'));
        assert_eq!(clean.matches('?').count(), 10, "{clean:?}");
        assert_eq!(text("line one\n\tline two"), "line one\n\tline two");
        assert_eq!(text("日本語 한국어"), "日本語 한국어");
    }

    #[test]
    fn names_are_quoted_as_ls_quotes_them() {
        assert_eq!(quote("99-kfd.rules"), "99-kfd.rules");
        assert_eq!(
            quote("\u{1b}]52;c;x\u{7}.rules"),
            "$'\\033]52;c;x\\a.rules'"
        );
        assert_eq!(quote("a\u{9b}b"), "$'a\\302\\233b'");
        assert_eq!(quote("it's\u{202e}"), "$'it\\'s\\342\\200\\256'");
    }
}
