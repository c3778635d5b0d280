//! Errors of the simulator itself (not of a simulated tool, which reports through its output).
//!
//! Each carries a stable id so the lab layer can map it to a localized explanation; the message
//! is English because it is printed inside the simulated machine's shell.

use std::fmt;
use std::path::Path;

/// An error a tool or the lab shows as is: a stable id and a message naming the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimError {
    /// Stable identifier, e.g. `sim-state-corrupt`.
    pub id: &'static str,
    /// What the learner or lab author reads.
    pub message: String,
}

impl SimError {
    /// An error with this id and message.
    pub fn new(id: &'static str, message: impl Into<String>) -> Self {
        SimError {
            id,
            message: message.into(),
        }
    }

    /// An I/O error on `path` while doing `what` (`rocm-learn sim: cannot read`).
    pub fn io(what: &str, path: &Path, e: &std::io::Error) -> Self {
        SimError::new("sim-io", format!("{what} {}: {e}", path.display()))
    }
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SimError {}
