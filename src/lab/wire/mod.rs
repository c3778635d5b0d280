//! What both sides of the lab agree on (see `lab`): neither side's code, only the shape of
//! what passes between them.

pub mod fdpass;
pub mod layout;
pub mod protocol;
pub mod record;
// The cleaner of the lab's text lives with the other terminal text helpers, below the core
// that prints it too; named here as well, where the lab's code looks for it.
pub use crate::term_text::sanitize;
