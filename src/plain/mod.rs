//! The line-mode front end: no alternate screen, no box drawing, numbered choices.
//! For screen readers, scripts, CI, and terminals that cannot do better.

pub mod lesson;
pub mod quiz;

use crate::content::Localized;
use crate::i18n::I18n;

/// A content text in the learner's language; an English fallback is marked so it is never a
/// silent surprise.
pub fn loc(i18n: &I18n, text: &Localized) -> String {
    let (s, used) = text.resolve(i18n.lang());
    if used == i18n.lang() {
        s.to_string()
    } else {
        format!("[{used}] {s}")
    }
}
