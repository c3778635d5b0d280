//! `rocm-learn doctor`: the labs' checks pointed at the real machine, read-only.
//!
//! The checks (`checks`) read a [`Host`]: a file tree and a few facts about this process, so the
//! same code runs on `/` and on fake trees in the tests. Each check gives one [`Finding`]: ok,
//! problem or cannot tell, with the fix and the lesson or lab that teaches it. `report` turns the
//! findings into text in the learner's language or JSON.
//!
//! Doctor never changes anything: it reads files, runs `rocminfo` and `amd-smi` (read-only
//! tools) under a time limit, and opens device nodes only to close them again.

mod checks;
pub mod host;
pub mod labs;
pub mod report;

pub use checks::examine;
pub use host::{Devices, Host, Node, Open, ToolRun, Tools};

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
    fn new(id: &'static str, level: Level, msg: Msg) -> Self {
        Finding {
            id,
            level,
            msg,
            note: None,
            fix: None,
            teaches: None,
        }
    }

    fn ok(id: &'static str, msg: Msg) -> Self {
        Finding::new(id, Level::Ok, msg)
    }

    fn problem(id: &'static str, msg: Msg) -> Self {
        Finding::new(id, Level::Problem, msg)
    }

    fn unknown(id: &'static str, msg: Msg) -> Self {
        Finding::new(id, Level::Unknown, msg)
    }

    fn fix(mut self, fix: Msg) -> Self {
        self.fix = Some(fix);
        self
    }

    /// The lesson that teaches the fix (typed, so that a misspelt kind cannot drop the link).
    fn teaches_lesson(mut self, id: &str) -> Self {
        self.teaches = Some(Target::Lesson(id.to_string()));
        self
    }

    /// The lab that practises the fix.
    fn teaches_lab(mut self, id: &str) -> Self {
        self.teaches = Some(Target::Lab(id.to_string()));
        self
    }
}
