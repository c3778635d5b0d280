//! rocm-learn: learn to run AMD's ROCm GPU stack in the terminal.
//!
//! The core (content, quiz, progress, i18n) is pure and testable without a terminal; the front
//! ends (`plain`, later the full-screen app) sit on top of it.

pub mod cli;
pub mod clock;
pub mod content;
pub mod doctor;
pub mod export;
#[doc(hidden)]
pub mod fuzzing;
pub mod i18n;
pub mod lab;
pub mod lang;
pub mod machine_path;
pub mod markdown;
pub mod plain;
pub mod progress;
pub mod proof;
pub mod quiz;
pub mod report;
pub mod sim;
pub mod term_text;
pub mod text;
pub mod tui;
pub mod width;
