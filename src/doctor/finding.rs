//! What one check of `doctor` found: ok, a problem, or cannot tell, with the fix and where the
//! course teaches it.

use crate::content::{Localized, Msg};
use crate::markdown::Target;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Ok,
    Problem,
    /// Cannot tell, and the message says why.
    Unknown,
}

impl Level {
    /// The spelling in the JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Level::Ok => "ok",
            Level::Problem => "problem",
            Level::Unknown => "unknown",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Stable, for scripts: `gpu`, `amdgpu`, `kfd`, `kfd_access`, `render`, `groups`, `rocm`,
    /// `path`, `rocminfo`, `amd_smi`, `os`, `support` (one `support` per GPU model).
    pub id: &'static str,
    pub level: Level,
    pub msg: Msg,
    /// More words from the course's data (a support-matrix note), shown after the message.
    pub note: Option<Localized>,
    pub fix: Option<Msg>,
    pub teaches: Option<Target>,
}

impl Finding {
    pub(super) fn new(id: &'static str, level: Level, msg: Msg) -> Self {
        Finding {
            id,
            level,
            msg,
            note: None,
            fix: None,
            teaches: None,
        }
    }

    pub(super) fn ok(id: &'static str, msg: Msg) -> Self {
        Finding::new(id, Level::Ok, msg)
    }

    pub(super) fn problem(id: &'static str, msg: Msg) -> Self {
        Finding::new(id, Level::Problem, msg)
    }

    pub(super) fn unknown(id: &'static str, msg: Msg) -> Self {
        Finding::new(id, Level::Unknown, msg)
    }

    pub(super) fn fix(mut self, fix: Msg) -> Self {
        self.fix = Some(fix);
        self
    }

    /// The lesson that teaches the fix (typed, so that a misspelt kind cannot drop the link).
    pub(super) fn teaches_lesson(mut self, id: &str) -> Self {
        self.teaches = Some(Target::Lesson(id.to_string()));
        self
    }

    /// The lab that practises the fix.
    pub(super) fn teaches_lab(mut self, id: &str) -> Self {
        self.teaches = Some(Target::Lab(id.to_string()));
        self
    }
}
