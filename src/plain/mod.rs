//! The line-mode front end: no alternate screen, no box drawing, numbered choices.
//! For screen readers, scripts, CI, and terminals that cannot do better.

pub mod lesson;
pub mod quiz;

use crate::content::Localized;
use crate::i18n::I18n;

// The app, the doctor and the exports show content text the same way; the function lives
// with the catalogue so that none of them depends on this front end.
pub use crate::i18n::loc;

/// A Markdown text (a quiz prompt, option or explanation, a briefing, a hint) as plain text:
/// no backticks or asterisks, lists as lists, the same rendering as lessons in plain mode.
pub fn markdown(i18n: &I18n, src: &str) -> String {
    let mut out = Vec::new();
    let mut terms = Vec::new();
    for block in crate::markdown::parse(src) {
        // Writing to a Vec cannot fail.
        let _ = lesson::write_block(&block, "", i18n, &mut terms, &mut out);
    }
    String::from_utf8_lossy(&out).trim_end().to_string()
}

/// A content text in the learner's language, rendered from Markdown to plain text.
pub fn loc_md(i18n: &I18n, text: &Localized) -> String {
    markdown(i18n, &loc(i18n, text))
}
