//! rocm-learn: learn to run AMD's ROCm GPU stack in the terminal.
//!
//! Dependencies point one way. The core (content, quiz, progress, export, report, i18n, the
//! simulator `sim`, and the text helpers `width`, `clock`, `text`, `term_text`) is pure and
//! testable without a terminal and imports no front end. The lab runner (`lab`) and `doctor`
//! sit on the core; the front ends (`plain`, the full-screen `tui`) on all of them; `cli` picks
//! one.

pub mod child;
pub mod cli;
pub mod clock;
pub mod content;
pub mod doctor;
pub mod events;
pub mod export;
#[doc(hidden)]
pub mod fuzzing;
pub mod hostfs;
pub mod i18n;
pub mod lab;
pub mod lang;
pub mod lrs;
pub mod machine_path;
pub mod markdown;
pub mod merge;
pub mod plain;
pub mod progress;
pub mod proof;
pub mod quiz;
pub mod report;
pub mod serve;
pub mod sign;
pub mod sim;
pub mod term_text;
pub mod text;
pub mod tui;
pub mod width;
pub mod xapi;
