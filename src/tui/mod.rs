//! The full-screen app (ratatui + crossterm).

pub mod app;
pub mod class;
pub mod doc;
pub mod keymap;
pub mod run;
pub mod screens;
pub mod theme;
pub mod view;
pub mod widgets;
pub mod wrap;

pub use app::{App, Input};
