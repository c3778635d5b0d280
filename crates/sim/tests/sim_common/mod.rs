//! Shared helpers for the simulator tests: stages in temp dirs, a learner with a login session,
//! and golden files of stdout/stderr/exit code.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use rocm_sim::{self as sim, Caller, MachineSpec, Output, Preset, ScriptedConsole, State};
use tempfile::TempDir;

/// A Vega 64 workstation, changed by `edit` before it is built.
pub fn vega(edit: impl FnOnce(&mut MachineSpec)) -> Stage {
    Stage::preset(Preset::Vega64Workstation, edit)
}

/// An MI300X server, changed by `edit` before it is built.
pub fn mi300x(edit: impl FnOnce(&mut MachineSpec)) -> Stage {
    Stage::preset(Preset::Mi300xServer, edit)
}

/// Root without a login session (as a root shell on the console would be).
pub fn root() -> Caller {
    Caller::user("root", 0, None)
}

/// Runs `cmd` as the learner and checks it against the golden file `name`.
pub fn check(st: &Stage, name: &str, cmd: &str) -> Output {
    let out = st.run(cmd);
    golden(name, cmd, &out);
    out
}

/// Runs `cmd` as `caller` and checks it against the golden file `name`.
pub fn check_as(st: &Stage, caller: &Caller, name: &str, cmd: &str) -> Output {
    let out = st.run_as(caller, cmd);
    golden(name, cmd, &out);
    out
}

/// Runs `cmd` as root in the learner's session and checks it against the golden file `name`.
pub fn check_root(st: &Stage, name: &str, cmd: &str) -> Output {
    let out = st.run_root(cmd);
    golden(name, &format!("(as root) {cmd}"), &out);
    out
}

/// A pod asking for one AMD GPU on a node labelled `gpu: "true"`.
pub const GPU_POD: &str = "apiVersion: v1
kind: Pod
metadata:
  name: gpu-workload
spec:
  containers:
  - name: rocm-container
    image: rocm/pytorch:latest
    resources:
      limits:
        amd.com/gpu: 1
  nodeSelector:
    gpu: \"true\"
";

pub struct Stage {
    pub dir: TempDir,
    pub session: String,
    /// The system around the machine: the same in memory whoever runs the tests.
    pub host: sim::Fake,
}

impl Stage {
    pub fn new(spec: &MachineSpec) -> Stage {
        let dir = tempfile::tempdir().expect("temp dir");
        let host = sim::Fake::default();
        sim::stage::create_on(dir.path(), spec, &host).expect("stage");
        let session = sim::login_on(dir.path(), &spec.user, &host).expect("login");
        Stage { dir, session, host }
    }

    pub fn preset(preset: Preset, edit: impl FnOnce(&mut MachineSpec)) -> Stage {
        let mut spec = MachineSpec::preset(preset);
        edit(&mut spec);
        Stage::new(&spec)
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn learner(&self) -> Caller {
        Caller::user("learner", 1000, Some(&self.session))
    }

    /// Logs in again (a new login shell) and makes that the learner's session.
    pub fn relogin(&mut self) {
        self.session = sim::login_on(self.root(), "learner", &self.host).expect("login");
    }

    /// Runs a command line (split on spaces) as the learner.
    pub fn run(&self, cmd: &str) -> Output {
        self.run_with(cmd, &mut ScriptedConsole::new())
    }

    pub fn run_with(&self, cmd: &str, console: &mut ScriptedConsole) -> Output {
        self.run_full(&self.learner(), cmd, console)
    }

    pub fn run_as(&self, caller: &Caller, cmd: &str) -> Output {
        self.run_full(caller, cmd, &mut ScriptedConsole::new())
    }

    /// Runs `cmd` as root in the learner's login session (what `sudo -s` gives).
    pub fn run_root(&self, cmd: &str) -> Output {
        self.run_as(&self.learner().as_root(), cmd)
    }

    /// Runs `cmd` as `caller`, whose questions get `answers` in turn.
    pub fn run_answering(&self, caller: &Caller, cmd: &str, answers: &[&str]) -> Output {
        self.run_full(caller, cmd, &mut ScriptedConsole::answering(answers))
    }

    /// Runs a command line (split on spaces) as `caller`, talking to `console`.
    pub fn run_full(&self, caller: &Caller, cmd: &str, console: &mut ScriptedConsole) -> Output {
        let words: Vec<String> = cmd.split_whitespace().map(String::from).collect();
        sim::run(
            &self.host,
            self.root(),
            &words[0],
            &words[1..],
            caller,
            console,
        )
    }

    /// The machine's state as the tools left it.
    pub fn state(&self) -> State {
        State::load_on(self.root(), &self.host).expect("state")
    }

    /// Where the symbolic link at `path` points ("" when it is no link).
    pub fn link(&self, path: &str) -> String {
        std::fs::read_link(self.root().join(path.trim_start_matches('/')))
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    pub fn write(&self, path: &str, text: &str) {
        let p = self.root().join(path.trim_start_matches('/'));
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }

    pub fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.root().join(path.trim_start_matches('/'))).unwrap_or_default()
    }
}

/// Text without ANSI colour sequences (rocminfo colours its start-up lines).
pub fn plain(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\u{1b}' && it.peek() == Some(&'[') {
            for d in it.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The transcript a golden file holds.
pub fn transcript(cmd: &str, out: &Output) -> String {
    format!(
        "$ {cmd}\n--- stdout\n{}--- stderr\n{}--- exit {}\n",
        out.stdout_text(),
        out.stderr,
        out.code
    )
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/sim")
}

/// Compares with `tests/golden/sim/NAME.txt`; `UPDATE_GOLDEN=1` rewrites the file.
pub fn golden(name: &str, cmd: &str, out: &Output) {
    let text = transcript(cmd, out);
    let path = golden_dir().join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(golden_dir()).expect("golden dir");
        std::fs::write(&path, &text).expect("write golden");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing golden {} (run with UPDATE_GOLDEN=1)",
            path.display()
        )
    });
    if want != text {
        panic!("golden {name} differs\n--- want\n{want}\n--- got\n{text}",);
    }
}
