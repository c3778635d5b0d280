//! A stage in a temporary folder and a way to run one command line on it, for the unit tests
//! that pin each tool's option handling (what it prints for unknown options, missing values,
//! clustered shorts) without going through the golden files.

#![cfg(test)]

use tempfile::TempDir;

use super::super::{Caller, MachineSpec, ScriptedConsole};

pub struct Bench {
    dir: TempDir,
}

/// Exit code, stdout and stderr of one run.
pub type Seen = (i32, String, String);

impl Bench {
    /// The default machine, changed by `edit` (a repository, a cluster).
    pub fn new(edit: impl FnOnce(&mut MachineSpec)) -> Bench {
        let mut spec = MachineSpec::default();
        edit(&mut spec);
        let dir = tempfile::tempdir().expect("temp dir");
        super::super::stage::create(dir.path(), &spec).expect("stage");
        Bench { dir }
    }

    /// Runs `line` (split on spaces) as the learner.
    pub fn run(&self, line: &str) -> Seen {
        self.run_as(Caller::user("learner", 1000, None), line)
    }

    /// Runs `line` (split on spaces) as root.
    pub fn root(&self, line: &str) -> Seen {
        let mut root = Caller::user("root", 0, None);
        root.cwd = "/home/learner".into();
        self.run_as(root, line)
    }

    /// Whether the machine has `path` (a file a download wrote).
    pub fn has(&self, path: &str) -> bool {
        self.dir.path().join(path.trim_start_matches('/')).exists()
    }

    fn run_as(&self, caller: Caller, line: &str) -> Seen {
        let words: Vec<String> = line.split(' ').map(String::from).collect();
        let out = super::super::run(
            self.dir.path(),
            &words[0],
            &words[1..],
            &caller,
            &mut ScriptedConsole::new(),
        );
        (out.code, out.stdout_text(), out.stderr)
    }
}

/// Exit code and stderr of one run, for the error cases where stdout stays empty.
pub fn err(seen: Seen) -> (i32, String) {
    assert_eq!(seen.1, "", "nothing on stdout");
    (seen.0, seen.2)
}
