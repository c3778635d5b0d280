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
mod finding;
pub mod host;
pub mod labs;
pub mod report;

pub use checks::examine;
pub use finding::{Finding, Level};
pub use host::{Devices, Host, Node, Open, ToolRun, Tools};
