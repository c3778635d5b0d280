//! rocm-learn: learn to run AMD's ROCm GPU stack in the terminal.
//!
//! Dependencies point one way. The core (content, quiz, progress, export, report, i18n, `text`)
//! is pure and testable without a terminal and imports no front end; below it are the
//! simulator `sim` and the helpers that know nothing of the course (`hostfs`, `term_text`,
//! `exit`, the crates `rocm-unix` (`unix`, `clock`, `machine_path`) and `rocm-width`
//! (`width`)). The lab runner (`lab`) and `doctor` sit on the core; the front ends (`plain`,
//! the full-screen `tui`) on all of them; the class server `serve` runs the app, and `cli` picks
//! one. ARCHITECTURE.md's table is the map, and `tests/architecture.rs` holds the code to it.

pub mod child;
pub mod cli;
pub mod content;
pub mod credential;
pub mod doctor;
pub mod events;
pub mod exam;
pub mod exit;
pub mod export;
#[doc(hidden)]
pub mod fuzzing;
pub mod hostfs;
pub mod i18n;
pub mod items;
pub mod lab;
pub mod lang;
pub mod lrs;
pub mod markdown;
pub mod merge;
pub mod plain;
pub mod progress;
pub mod proof;
pub mod quiz;
pub mod report;
pub mod review;
pub mod serve;
pub mod sign;
pub mod sim_host;
pub mod sys;
pub mod term_text;
pub mod text;
pub mod tui;
pub mod xapi;

// The simulator and the generic helpers are crates of their own (crates/sim, crates/unix,
// crates/width); named here as the modules they were, so the app's paths stay short.
pub use rocm_sim as sim;
pub use rocm_unix as unix;
pub use rocm_unix::{clock, machine_path};
pub use rocm_width as width;
