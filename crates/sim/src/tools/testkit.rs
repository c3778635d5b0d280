//! A stage in a temporary folder and a way to run one command line on it, for the unit tests
//! that pin each tool's option handling (what it prints for unknown options, missing values,
//! clustered shorts) without going through the golden files.

#![cfg(test)]

use super::super::{self as sim, Caller, MachineSpec, ScriptedConsole};

/// A stage with a logged-in learner.
pub struct Machine {
    dir: tempfile::TempDir,
    session: String,
    /// The system around the machine, in memory: tests take the same paths as root and as a
    /// normal user.
    pub host: sim::Fake,
}

/// What a tool printed and returned.
#[derive(Debug, PartialEq, Eq)]
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

impl Run {
    /// The first line on stderr and the exit code: what a complaint is checked by.
    pub fn complaint(&self) -> (&str, i32) {
        (self.stderr.lines().next().unwrap_or(""), self.code)
    }
}

impl Machine {
    /// The default machine.
    pub fn stage() -> Machine {
        Machine::with(|_| {})
    }

    /// The default machine, changed by `edit` (a repository, a cluster).
    pub fn with(edit: impl FnOnce(&mut MachineSpec)) -> Machine {
        Machine::on(sim::Fake::default(), edit)
    }

    /// The default machine, changed by `edit`, on `host`.
    pub fn on(host: sim::Fake, edit: impl FnOnce(&mut MachineSpec)) -> Machine {
        let mut spec = MachineSpec::default();
        edit(&mut spec);
        let dir = tempfile::tempdir().expect("temp dir");
        sim::stage::create_on(dir.path(), &spec, &host).expect("stage");
        let session = sim::login_on(dir.path(), &spec.user, &host).expect("login");
        Machine { dir, session, host }
    }

    pub fn root(&self) -> &std::path::Path {
        self.dir.path()
    }

    pub fn learner_caller(&self) -> Caller {
        Caller::user("learner", 1000, Some(&self.session))
    }

    /// `line` split on spaces, run as the learner.
    pub fn learner(&self, line: &str) -> Run {
        self.run(self.learner_caller(), line)
    }

    /// `line` split on spaces, run as root.
    pub fn root_runs(&self, line: &str) -> Run {
        self.run(Caller::user("learner", 1000, None).as_root(), line)
    }

    /// `line` split on spaces (one space, so an empty word can be given), run by `caller`.
    pub fn output(&self, caller: Caller, line: &str) -> sim::Output {
        let words: Vec<String> = line.split(' ').map(String::from).collect();
        sim::run(
            &self.host,
            self.root(),
            &words[0],
            &words[1..],
            &caller,
            &mut ScriptedConsole::new(),
        )
    }

    fn run(&self, caller: Caller, line: &str) -> Run {
        let out = self.output(caller, line);
        Run {
            stdout: out.stdout_text(),
            stderr: out.stderr,
            code: out.code,
        }
    }
}

/// The same machine for the download, package and cluster tools' tests, which compare
/// (exit code, stdout, stderr) and run without a login session.
pub struct Bench(Machine);

/// Exit code, stdout and stderr of one run.
pub type Seen = (i32, String, String);

impl Bench {
    pub fn new(edit: impl FnOnce(&mut MachineSpec)) -> Bench {
        Bench(Machine::with(edit))
    }

    /// Runs `line` as the learner, outside any login session.
    pub fn run(&self, line: &str) -> Seen {
        self.seen(Caller::user("learner", 1000, None), line)
    }

    /// Runs `line` as root, in the learner's home.
    pub fn root(&self, line: &str) -> Seen {
        let mut root = Caller::user("root", 0, None);
        root.cwd = "/home/learner".into();
        self.seen(root, line)
    }

    /// Whether the machine has `path` (a file a download wrote).
    pub fn has(&self, path: &str) -> bool {
        self.0.root().join(path.trim_start_matches('/')).exists()
    }

    fn seen(&self, caller: Caller, line: &str) -> Seen {
        let r = self.0.run(caller, line);
        (r.code, r.stdout, r.stderr)
    }
}

/// Exit code and stderr of one run, for the error cases where stdout stays empty.
pub fn err(seen: Seen) -> (i32, String) {
    assert_eq!(seen.1, "", "nothing on stdout");
    (seen.0, seen.2)
}
