//! One run of a lab: its stage, the learner's shell in the sandbox, and the checklist, re-checked
//! after every command the shell reports.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use super::checks::{self, Env};
use super::record::Record;
use super::sandbox::{self, Layout, SandboxError};
use super::session::{Notify, Shell};
use super::stage::{Stage, host_path};
use crate::content::{Lab, Msg};
use crate::sim;

/// Why a lab could not start, as a message naming the cause and the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabError(pub Msg);

impl From<SandboxError> for LabError {
    fn from(e: SandboxError) -> Self {
        LabError(e.0)
    }
}

fn io(e: std::io::Error) -> LabError {
    LabError(Msg::new("lab-start-failed").arg("error", e))
}

/// How to start a lab.
#[derive(Clone)]
pub struct Options {
    /// The rocm-learn binary (mounted into the sandbox for the simulated tools).
    pub exe: PathBuf,
    pub rows: u16,
    pub cols: u16,
    /// Printed between two logins ("logged out; logging in again").
    pub relogin: String,
    /// Keep everything the shell prints (scripted runs print it as the transcript).
    pub transcript: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepStatus {
    pub done: bool,
    pub why: Option<Msg>,
}

pub struct LabRun {
    pub lab: Lab,
    opts: Options,
    bwrap: PathBuf,
    stage: Stage,
    pub shell: Shell,
    notify: Notify,
    /// The last record of the learner's shell.
    pub last: Option<Record>,
    pub status: Vec<StepStatus>,
    /// Every step passed at once, at some point: the lab is solved.
    pub complete: bool,
    /// Each step's reason at the first prompt. The app shows a reason only once it differs:
    /// as feedback on an attempt, not as the answer before the learner has tried anything.
    pub baseline: Option<Vec<Option<Msg>>>,
    /// The last new-login environment, and the login files it was computed from.
    login_env: Option<(Fingerprint, Vec<(String, String)>)>,
    pub started: Instant,
}

impl LabRun {
    pub fn start(lab: &Lab, opts: Options, notify: Notify) -> Result<LabRun, LabError> {
        let bwrap = sandbox::probe()?;
        let stage = prepare(lab)?;
        let shell = spawn(&bwrap, &stage, &opts, notify.clone())?;
        let mut run = LabRun {
            lab: lab.clone(),
            opts,
            bwrap,
            stage,
            shell,
            notify,
            last: None,
            status: Vec::new(),
            complete: false,
            baseline: None,
            login_env: None,
            started: Instant::now(),
        };
        run.evaluate();
        Ok(run)
    }

    pub fn root(&self) -> &Path {
        self.stage.root()
    }

    /// Takes the records that arrived; re-checks when there were any. True if anything changed.
    pub fn pump(&mut self) -> bool {
        let records = self.shell.records();
        let Some(last) = records.into_iter().last() else {
            return false;
        };
        self.last = Some(last);
        self.relock();
        self.evaluate();
        true
    }

    /// Files sudo wrote or created come out owner-writable; on a real machine they belong to
    /// root. After each command the system folders are made read-only to the learner again.
    fn relock(&self) {
        let _ = self.stage.lock_down();
    }

    /// Waits for the shell's next record (scripted runs).
    pub fn wait_record(&mut self, timeout: Duration) -> Option<Record> {
        let r = self.shell.next_record(timeout)?;
        // Later ones may be queued behind it; the newest describes the shell now.
        let mut last = r.clone();
        for more in self.shell.records() {
            last = more;
        }
        self.last = Some(last);
        self.relock();
        Some(r)
    }

    /// Checks every step against the state as it is now.
    pub fn evaluate(&mut self) {
        let root = self.stage.root().to_path_buf();
        let state = sim::State::load(&root).map_err(|e| e.message);
        let login_env = if self
            .lab
            .steps
            .iter()
            .any(|s| checks::needs_login_path(&s.check))
        {
            self.login_env()
        } else {
            None
        };
        let login_path = login_env
            .as_ref()
            .and_then(|e| e.iter().find(|(k, _)| k == "PATH"))
            .map(|(_, v)| v.as_str());
        let env = Env {
            root: &root,
            state: state.as_ref().map_err(String::as_str),
            shell: self.last.as_ref(),
            login_path,
            login_env: login_env.as_deref(),
        };
        self.status = self
            .lab
            .steps
            .iter()
            .map(|s| match checks::evaluate(&s.check, &env) {
                Ok(()) => StepStatus {
                    done: true,
                    why: None,
                },
                Err(why) => StepStatus {
                    done: false,
                    why: Some(why),
                },
            })
            .collect();
        if self.status.iter().all(|s| s.done) {
            self.complete = true;
        }
        if self.baseline.is_none() && self.last.is_some() {
            self.baseline = Some(self.status.iter().map(|s| s.why.clone()).collect());
        }
    }

    /// The environment a new login would get, recomputed only when a login file changed.
    fn login_env(&mut self) -> Option<Vec<(String, String)>> {
        let print = login_fingerprint(self.stage.root());
        if let Some((p, env)) = &self.login_env
            && *p == print
        {
            return Some(env.clone());
        }
        let layout = layout(&self.stage, &self.opts);
        let mut argv = sandbox::command(
            &self.bwrap,
            &layout,
            &["/bin/bash", "/etc/rocm-lab/login.sh", "--probe-env"],
        );
        // The probe is an interactive login shell: in the app's session it would take the
        // terminal's foreground and the kernel would stop the app. A session of its own has
        // no controlling terminal to take.
        argv.insert(1, "--new-session".into());
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let out = run_with_timeout(cmd, Duration::from_secs(5))?;
        let env: Vec<(String, String)> = out
            .split('\0')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        self.login_env = Some((print, env.clone()));
        Some(env)
    }

    /// Starts over: a fresh machine and a fresh login.
    pub fn reset(&mut self) -> Result<(), LabError> {
        self.shell.kill();
        self.stage = prepare(&self.lab)?;
        self.shell = spawn(&self.bwrap, &self.stage, &self.opts, self.notify.clone())?;
        self.last = None;
        self.complete = false;
        self.baseline = None;
        self.login_env = None;
        self.started = Instant::now();
        self.evaluate();
        Ok(())
    }

    /// The banner between two logins in another language (the learner switched): the login
    /// loop reads it from the side-channel folder before each new login.
    pub fn set_relogin(&mut self, text: &str) {
        self.opts.relogin = text.to_string();
        let _ = std::fs::write(self.stage.root().join("run/relogin"), format!("{text}\n"));
    }

    /// The reason to show for step `i`: only when it changed since the first prompt.
    pub fn feedback(&self, i: usize) -> Option<&Msg> {
        let why = self.status.get(i)?.why.as_ref()?;
        let base = self.baseline.as_ref()?.get(i)?.as_ref();
        (base != Some(why)).then_some(why)
    }

    pub fn steps_done(&self) -> Vec<String> {
        self.lab
            .steps
            .iter()
            .zip(&self.status)
            .filter(|(_, s)| s.done)
            .map(|(st, _)| st.id.clone())
            .collect()
    }
}

/// A fresh stage: the simulated machine, the scenario's files, the lab's own files, locked down.
fn prepare(lab: &Lab) -> Result<Stage, LabError> {
    let stage = Stage::new().map_err(io)?;
    let mut spec = sim::MachineSpec::from_toml(&lab.machine)
        .map_err(|e| LabError(Msg::new("lab-bad-machine").arg("error", e.message)))?;
    spec.sim_bin = Some(sandbox::SIM_BIN.to_string());
    let state = sim::stage::create(stage.root(), &spec)
        .map_err(|e| LabError(Msg::new("lab-bad-machine").arg("error", e.message)))?;
    let tools: Vec<(String, String)> = sim::tools::system_tools(&state)
        .into_iter()
        .map(|t| (t.path.to_string(), t.name.to_string()))
        .chain([("/usr/bin/ls".to_string(), "ls".to_string())])
        .collect();
    stage.install("learner", &tools).map_err(io)?;
    for f in &lab.files {
        let host = host_path(stage.root(), &f.path);
        if !host.starts_with(stage.root()) {
            // Only the machine's own folders can be written; the host stays untouched.
            return Err(LabError(Msg::new("lab-file-outside").arg("path", &f.path)));
        }
        if let Some(parent) = host.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        std::fs::write(&host, &f.text).map_err(io)?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&host, std::fs::Permissions::from_mode(f.mode)).map_err(io)?;
    }
    stage.lock_down().map_err(io)?;
    Ok(stage)
}

fn layout<'a>(stage: &'a Stage, opts: &'a Options) -> Layout<'a> {
    Layout {
        stage: stage.root(),
        exe: &opts.exe,
        hostname: "gpu-node",
        user: "learner",
        env: vec![
            ("TERM".into(), "xterm-256color".into()),
            (
                "PROMPT_COMMAND".into(),
                super::scripts::PROMPT_COMMAND.into(),
            ),
            ("ROCM_LAB_RELOGIN".into(), opts.relogin.clone()),
        ],
    }
}

fn spawn(bwrap: &Path, stage: &Stage, opts: &Options, notify: Notify) -> Result<Shell, LabError> {
    // Open the first login session here, in-process: one process fewer before the first prompt.
    let mut state = sim::State::load(stage.root())
        .map_err(|e| LabError(Msg::new("lab-bad-machine").arg("error", e.message)))?;
    let first = state.login(stage.root(), "learner").ok();
    state
        .save(stage.root())
        .map_err(|e| LabError(Msg::new("lab-bad-machine").arg("error", e.message)))?;
    let hostname = state.machine.hostname.clone();
    let mut l = layout(stage, opts);
    l.hostname = &hostname;
    if let Some(id) = first {
        l.env.push(("ROCM_LAB_FIRST_SESSION".into(), id));
    }
    let argv = sandbox::command(bwrap, &l, &["/bin/bash", "/etc/rocm-lab/login.sh"]);
    Shell::spawn(
        argv,
        opts.rows,
        opts.cols,
        &stage.fifo(),
        opts.transcript,
        notify,
    )
    .map_err(io)
}

/// Size and modification time of each file a login shell reads.
type Fingerprint = Vec<(PathBuf, u64, SystemTime)>;

/// The files a login shell reads: when none changed, its PATH has not either.
fn login_fingerprint(root: &Path) -> Fingerprint {
    let mut files: Vec<PathBuf> = [
        "home/learner/.bashrc",
        "home/learner/.profile",
        "home/learner/.bash_profile",
        "home/learner/.bash_login",
        "etc/profile",
        "etc/bash.bashrc",
        "etc/environment",
        // ~/.profile adds these to PATH only when they exist.
        "home/learner/bin",
        "home/learner/.local/bin",
    ]
    .iter()
    .map(|p| root.join(p))
    .collect();
    if let Ok(rd) = std::fs::read_dir(root.join("etc/profile.d")) {
        files.extend(rd.filter_map(Result::ok).map(|e| e.path()));
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let m = std::fs::metadata(&p).ok()?;
            Some((p, m.len(), m.modified().ok()?))
        })
        .collect()
}

fn run_with_timeout(mut cmd: Command, timeout: Duration) -> Option<String> {
    let mut child = cmd.spawn().ok()?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() < timeout => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let mut out = String::new();
    use std::io::Read;
    child.stdout.take()?.read_to_string(&mut out).ok()?;
    Some(out)
}

/// A notify hook that does nothing (scripted runs wait on records instead).
pub fn no_notify() -> Notify {
    Arc::new(|| {})
}
