//! The line-mode front end: no alternate screen, no box drawing, numbered choices.
//! For screen readers, scripts, CI, and terminals that cannot do better.

pub mod exam;
pub mod lab;
pub mod lesson;
pub mod quiz;
pub mod review;

// The app, the doctor and the exports show content text the same way; the function lives
// with the catalogue so that none of them depends on this front end.
pub use crate::i18n::loc;

// Markdown as plain text is shared with the quiz's JSON and the app.
pub use crate::text::{loc_md, markdown};
