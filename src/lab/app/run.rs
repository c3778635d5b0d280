//! One run of a lab: its stage, the learner's shell in the sandbox, and the checklist as the
//! supervisor reports it after every command. Once the machine is built, nothing here opens a
//! path of the stage until it is removed: the checks run in the sandbox (`supervisor`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::content::{Lab, Msg};
use crate::lab::app::bwrap::{self, Layout, SandboxError};
use crate::lab::app::session::{Hooks, Notify, Shell, Watch};
use crate::lab::app::stage::Stage;
use crate::lab::wire::layout::{self, LANG_ENV, host_path};
use crate::lab::wire::protocol::{self, FromSupervisor, ToSupervisor};
use crate::lab::wire::record::Record;
use crate::sim;

/// Runs labs as on a kernel without Landlock (tests of that path; the result is marked).
pub const NO_LANDLOCK_ENV: &str = "ROCM_LEARN_LAB_NO_LANDLOCK";

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
    /// The app's language, for the few lines the lab itself prints inside the terminal.
    pub lang: crate::lang::Lang,
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
    hooks: Hooks,
    /// The record of the shell's first prompt, kept even when later ones came in the same
    /// batch: nothing typed since it means the way can still be switched.
    pub first: Option<Record>,
    /// The last record of the learner's shell.
    pub last: Option<Record>,
    /// How many records have come since the lab (or F5) started: the first is the first
    /// prompt, so more than one means the learner has run something, however many of them
    /// arrived between two looks.
    pub records: u64,
    pub status: Vec<StepStatus>,
    /// Every step passed at once, at some point: the lab is solved.
    pub complete: bool,
    /// Each step's reason at the first prompt. The app shows a reason only once it differs:
    /// as feedback on an attempt, not as the answer before the learner has tried anything.
    pub baseline: Option<Vec<Option<Msg>>>,
    /// Logins stopped: every new one ended at once (a startup file the learner changed).
    /// The message names the cause; F5 (reset) is the way out.
    pub halted: Option<Msg>,
    /// Whether the kernel confines the learner's processes (None until the supervisor said).
    /// Without it the lab works, but a result may have been forged from inside.
    pub confined: Option<bool>,
    /// Whether the machine lives in memory (None until the supervisor said). When it does
    /// not, what the lab writes goes to its stage on the host's disk.
    pub in_memory: Option<bool>,
    /// The supervisor no longer uses the stage: it goes at the first prompt.
    stage_unused: bool,
    /// This sandbox ended before its first prompt and the host's answers were forgotten.
    forgot: bool,
    /// What the learner typed since a new relogin banner was sent, until it is applied.
    hold: Hold,
    pub started: Instant,
    /// The lab's place in a class server's memory budget, given back when the run ends.
    _memory: Option<super::memory_ticket::Ticket>,
}

impl LabRun {
    pub fn start(lab: &Lab, opts: Options, notify: Notify) -> Result<LabRun, LabError> {
        Self::start_with(
            lab,
            opts,
            Hooks {
                notify,
                watch: None,
            },
        )
    }

    /// `start`, with the shell's output read by the event loop `watch` belongs to.
    pub fn start_watched(
        lab: &Lab,
        opts: Options,
        notify: Notify,
        watch: Watch,
    ) -> Result<LabRun, LabError> {
        let watch = Some(watch);
        Self::start_with(lab, opts, Hooks { notify, watch })
    }

    fn start_with(lab: &Lab, opts: Options, hooks: Hooks) -> Result<LabRun, LabError> {
        let bwrap = bwrap::probe()?;
        // On a class server, the lab's machine must fit in what the open labs may hold.
        let spec = sim::MachineSpec::from_toml(&lab.machine).map_err(bad_machine)?;
        let learner = std::env::var("ROCM_LEARN_LEARNER").unwrap_or_default();
        let ticket = super::memory_ticket::ask(spec.disk_bytes(), &learner)
            .map_err(|_| LabError(Msg::new("serve-labs-full")))?;
        let (stage, shell) = open_or_ask_again(lab, &bwrap, &opts, &hooks)?;
        let mut run = LabRun {
            lab: lab.clone(),
            opts,
            bwrap,
            stage,
            shell,
            hooks,
            first: None,
            last: None,
            records: 0,
            status: Vec::new(),
            complete: false,
            baseline: None,
            halted: None,
            confined: None,
            in_memory: None,
            stage_unused: false,
            forgot: false,
            hold: Hold::default(),
            started: Instant::now(),
            _memory: ticket,
        };
        run.status = unchecked(lab);
        Ok(run)
    }

    pub fn root(&self) -> &Path {
        self.stage.root()
    }

    /// Takes what the supervisor sent; true if anything changed.
    pub fn pump(&mut self) -> bool {
        let msgs = self.shell.messages();
        let changed = !msgs.is_empty();
        for m in msgs {
            self.apply(m);
        }
        if self.records == 0 && self.shell.has_exited() && !self.forgot {
            // The sandbox ended before a prompt: what the host was said to allow may be
            // wrong now, so the next open (or F5) asks it again.
            self.forgot = true;
            bwrap::forget_probes();
        }
        if self.hold.holding() && self.shell.has_exited() {
            // The sandbox is gone (and its supervisor with it): no answer will come, and
            // there is no shell to type into.
            self.hold.drop_held();
        }
        changed
    }

    /// Types `bytes` (keys, a paste) into the learner's shell: at once, or, while a new relogin
    /// banner is not yet applied, as soon as it is (`Hold`).
    pub fn type_keys(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hold.typed(bytes, &mut ShellOut(&mut self.shell))
    }

    /// Waits for the shell's next record (scripted runs), with the status checked after it.
    pub fn wait_record(&mut self, timeout: Duration) -> Option<Record> {
        let end = Instant::now() + timeout;
        loop {
            let left = end.checked_duration_since(Instant::now())?;
            let m = self.shell.next_message(left)?;
            if let Some(r) = self.apply(m) {
                // Later ones may be queued behind it; the newest describes the shell now.
                self.pump();
                return Some(r);
            }
        }
    }

    /// Applies one message; returns the record it carried.
    fn apply(&mut self, m: FromSupervisor) -> Option<Record> {
        match m {
            FromSupervisor::Status { record, steps } => {
                if steps.len() == self.lab.steps.len() {
                    self.status = steps
                        .iter()
                        .map(|s| StepStatus {
                            done: s.done,
                            why: s
                                .why
                                .as_ref()
                                .map(crate::lab::wire::protocol::WireMsg::to_msg),
                        })
                        .collect();
                }
                if record.is_some() {
                    if self.records == 0 {
                        self.first = record.clone();
                    }
                    self.last = record.clone();
                    self.records += 1;
                    if self.stage_unused {
                        // Removed now the learner has a prompt: the remover's work does not
                        // compete with the first login for the CPU.
                        self.stage.release();
                    }
                }
                if self.status.iter().all(|s| s.done) {
                    self.complete = true;
                }
                if self.baseline.is_none() && self.last.is_some() {
                    self.baseline = Some(self.status.iter().map(|s| s.why.clone()).collect());
                }
                record
            }
            FromSupervisor::LoginBroken { status } => {
                self.halted = Some(Msg::new("lab-login-broken").arg("status", status));
                None
            }
            FromSupervisor::Machine {
                in_memory,
                stage_unused,
            } => {
                self.in_memory = Some(in_memory);
                // Nothing of the lab is on the host's disk any more: nothing to leave once
                // the first prompt is there (see Status).
                self.stage_unused = stage_unused;
                if stage_unused && self.records > 0 {
                    self.stage.release();
                }
                None
            }
            FromSupervisor::Confinement { enforced } => {
                self.confined = Some(enforced);
                None
            }
            FromSupervisor::ReloginApplied { seq } => {
                // The keys held since `L` go to the shell now, in the order typed.
                let _ = self.hold.applied(seq, &mut ShellOut(&mut self.shell));
                None
            }
        }
    }

    /// Brings the checklist up to date with what the supervisor has sent (it checks every
    /// step after each command; nothing is evaluated on this side).
    pub fn evaluate(&mut self) {
        self.pump();
    }

    /// Starts over: a fresh machine and a fresh login.
    pub fn reset(&mut self) -> Result<(), LabError> {
        if self.stage.released() {
            // Nothing of the old lab is on the host: it is killed now and reaped while the
            // new one starts.
            self.shell.signal_kill();
        } else {
            // Its stage is still in use: the sandbox ends before the stage is removed.
            self.shell.kill();
        }
        let (stage, shell) = open_or_ask_again(&self.lab, &self.bwrap, &self.opts, &self.hooks)?;
        self.stage = stage;
        let old = std::mem::replace(&mut self.shell, shell);
        std::thread::spawn(move || drop(old));
        self.first = None;
        self.last = None;
        self.records = 0;
        self.complete = false;
        self.baseline = None;
        self.halted = None;
        self.in_memory = None;
        self.stage_unused = false;
        self.forgot = false;
        // Keys held for the old shell are not typed into the new one; its supervisor starts
        // with the current banner (`Hello`), so there is nothing to wait for.
        self.hold = Hold::default();
        self.status = unchecked(&self.lab);
        self.started = Instant::now();
        Ok(())
    }

    /// The banner between two logins in another language (the learner switched): sent to
    /// the supervisor, which prints it before each new login. What the learner types next is
    /// held until the supervisor says the text is in place (`FromSupervisor::ReloginApplied`).
    pub fn set_relogin(&mut self, text: &str) {
        self.opts.relogin = text.to_string();
        let seq = self.hold.next_seq();
        let sent = self.shell.tell(&ToSupervisor::Relogin {
            seq,
            text: text.to_string(),
        });
        if sent.is_ok() {
            // A channel that is gone gets no answer: nothing is held for it.
            self.hold.wait_for(seq);
        }
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

/// The learner's shell as a place to write keys.
struct ShellOut<'a>(&'a mut Shell);

impl std::io::Write for ShellOut<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map(|()| buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The most typed input held while a relogin banner is not yet applied. Beyond it the hold is
/// given up (what was held is written, then the rest as it comes): no key is ever lost, and at
/// worst one banner comes in the old language. The answer takes a moment, so a learner rarely
/// types more than a few keys into it; a paste can be larger.
pub const HOLD_MAX: usize = 4096;

/// The handshake of a relogin banner, on the app's side. The keys reach the shell by the
/// terminal and the banner the supervisor by the channel: an `exit` typed right after `L`
/// could end the login before the supervisor applied the new text. So from sending a
/// `Relogin` until its `ReloginApplied` comes, what the learner types is kept here, and then
/// written in the order typed.
#[derive(Debug, Default)]
pub struct Hold {
    /// The last sequence number given out.
    seq: u64,
    /// The relogin whose answer is awaited, if any.
    awaiting: Option<u64>,
    held: Vec<u8>,
}

impl Hold {
    /// The number for the next `Relogin`.
    pub fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// `seq` was sent: hold what is typed until it is applied.
    pub fn wait_for(&mut self, seq: u64) {
        self.awaiting = Some(seq);
    }

    pub fn holding(&self) -> bool {
        self.awaiting.is_some()
    }

    /// Keys typed: written to `out` now, or kept while a relogin is unanswered (up to
    /// `HOLD_MAX`; past it everything goes out, see there).
    pub fn typed(&mut self, bytes: &[u8], out: &mut impl std::io::Write) -> std::io::Result<()> {
        if self.awaiting.is_some() {
            if self.held.len() + bytes.len() <= HOLD_MAX {
                self.held.extend_from_slice(bytes);
                return Ok(());
            }
            self.release(out)?;
        }
        out.write_all(bytes)
    }

    /// The supervisor applied every relogin up to `seq` (it takes them in order): once that
    /// covers the last one sent, the held keys go to `out`.
    pub fn applied(&mut self, seq: u64, out: &mut impl std::io::Write) -> std::io::Result<()> {
        match self.awaiting {
            Some(want) if seq >= want => self.release(out),
            _ => Ok(()),
        }
    }

    /// Stops holding and forgets the keys (their shell is gone).
    pub fn drop_held(&mut self) {
        self.awaiting = None;
        self.held = Vec::new();
    }

    fn release(&mut self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        self.awaiting = None;
        let held = std::mem::take(&mut self.held);
        if held.is_empty() {
            return Ok(());
        }
        out.write_all(&held)
    }
}

impl Drop for LabRun {
    /// The sandbox ends before its stage is removed: nothing inside can change the stage while
    /// the remover walks it.
    fn drop(&mut self) {
        self.shell.kill();
    }
}

/// Whether the learner's processes will run under Landlock (the kernel has it and no test
/// turned it off).
fn confining() -> bool {
    std::env::var_os(NO_LANDLOCK_ENV).is_none_or(|v| v != "1")
        && crate::sys::landlock_abi().is_some()
}

/// Fills `stage` with a fresh machine: the simulated machine, the scenario's files, the lab's
/// own files, locked down. `confined`: the files keep Ubuntu's modes (Landlock guards them);
/// otherwise the system folders are made read-only, the only guard there is then. `handed`:
/// the supervisor adds the host's alternatives itself.
fn build(
    lab: &Lab,
    spec: &sim::MachineSpec,
    confined: bool,
    handed: bool,
    stage: &mut Stage,
) -> Result<sim::State, LabError> {
    let state = sim::stage::create_on(stage.root(), spec, &crate::sim_host::Alone::new())
        .map_err(bad_machine)?;
    let tools: Vec<(String, String)> = sim::tools::system_tools(&state)
        .into_iter()
        .map(|t| (t.path.to_string(), t.name.to_string()))
        .chain(
            [
                ("/usr/bin/ls", "ls"),
                ("/usr/bin/stat", "stat"),
                ("/usr/bin/which", "which"),
            ]
            .map(|(p, n)| (p.to_string(), n.to_string())),
        )
        .collect();
    stage.install(&spec.user, &tools).map_err(io)?;
    if !handed {
        // A handed stage's supervisor takes the host's alternatives from the host itself.
        stage.adopt_alternatives(Path::new("/")).map_err(io)?;
    }
    if confined {
        // Ubuntu's modes before the lab's own files, which bring theirs.
        stage.ubuntu_modes().map_err(io)?;
    }
    for f in &lab.files {
        let host = host_path(stage.root(), &f.path);
        if !host.starts_with(stage.root()) || crate::content::lab::simulator_own(&f.path).is_some()
        {
            // Only the machine's own folders can be written; the host stays untouched.
            return Err(LabError(Msg::new("lab-file-outside").arg("path", &f.path)));
        }
        // A LabPath has no ".." (so starts_with above is sound), but the machine may hold
        // symlinks (an absolute one would point at the host): never write through one.
        if through_link(stage.root(), &host) {
            return Err(LabError(
                Msg::new("lab-file-through-link").arg("path", &f.path),
            ));
        }
        if let Some(parent) = host.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        std::fs::write(&host, &f.text).map_err(io)?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&host, std::fs::Permissions::from_mode(f.mode)).map_err(io)?;
    }
    stage.host_etc = bwrap::host_etc_mountpoints(stage.root()).map_err(io)?;
    if !confined {
        stage.lock_down().map_err(io)?;
    }
    Ok(state)
}

fn bad_machine(e: sim::SimError) -> LabError {
    LabError(Msg::new("lab-bad-machine").arg("error", e.message))
}

/// Whether `host` (inside `root`) or a folder between `root` and it is a symlink.
fn through_link(root: &Path, host: &Path) -> bool {
    let Ok(rel) = host.strip_prefix(root) else {
        return true;
    };
    let mut at = root.to_path_buf();
    rel.components().any(|c| {
        at.push(c);
        std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink())
    })
}

fn layout<'a>(stage: &'a Stage, opts: &'a Options) -> Layout<'a> {
    Layout {
        stage: stage.root(),
        exe: &opts.exe,
        hostname: "gpu-node",
        user: &stage.user,
        host_etc: &stage.host_etc,
        ids: bwrap::Ids::One,
        handed: false,
        exe_mount: false,
        env: vec![
            ("TERM".into(), "xterm-256color".into()),
            (
                "PROMPT_COMMAND".into(),
                crate::lab::app::shell_files::PROMPT_COMMAND.into(),
            ),
            (LANG_ENV.into(), opts.lang.code().into()),
        ],
    }
}

/// Every step open, with no reason yet: the state before the supervisor's first report.
fn unchecked(lab: &Lab) -> Vec<StepStatus> {
    lab.steps
        .iter()
        .map(|_| StepStatus {
            done: false,
            why: None,
        })
        .collect()
}

/// A fresh machine and its sandbox: the stage, and the shell whose supervisor has been
/// greeted. A lab started by root gets its stage by descriptor, so the sandbox starts first
/// and the machine is built while bubblewrap sets up (the supervisor waits for the greeting
/// before it copies anything); otherwise the sandbox shows the stage's folders, which are
/// built first.
fn open(lab: &Lab, bwrap: &Path, opts: &Options, hooks: Hooks) -> Result<(Stage, Shell), LabError> {
    let mut spec = sim::MachineSpec::from_toml(&lab.machine).map_err(bad_machine)?;
    spec.sim_bin = Some(layout::SIM_BIN.to_string());
    let hostname = sim::stage::hostname(&spec).map_err(bad_machine)?;
    let confined = confining();
    let mut stage = Stage::new(bwrap::machine_in_memory(bwrap)).map_err(io)?;
    stage.user = spec.user.clone();
    stage.budget = spec.disk_bytes();
    let mapper = bwrap::mapper(bwrap);
    // Started by root, the sandbox runs as nobody: it gets the stage and the binary by
    // descriptor, never by a path nobody could reach (or a neighbour running as nobody).
    let owner = mapper.as_ref().and_then(super::idmap::Mapper::run_as);
    let built = match owner {
        Some(_) => None,
        None => Some(build(lab, &spec, confined, false, &mut stage)?),
    };
    if let Some(m) = mapper.as_ref().filter(|m| !m.is_root()) {
        let (bwrap, m) = (bwrap.to_path_buf(), m.clone());
        stage.reclaim_with(Box::new(move |dir| {
            bwrap::reclaim(&bwrap, dir, &m);
        }));
    }
    let (mut pool, mut handed) = (None, None);
    if let Some(owner) = owner {
        // Only the host's root makes device nodes: every one the machine may show, once
        // the machine is built.
        pool = Some(crate::lab::app::device_pool::empty_pool(owner).map_err(io)?);
        handed = Some(
            crate::lab::app::session::Handed::open(stage.root(), &opts.exe, owner).map_err(io)?,
        );
    }
    // A handed stage is copied by the supervisor, host /etc entries and all: each one the
    // host has comes, and the machine's own win.
    let every_host_etc: Vec<String> = layout::HOST_ETC
        .iter()
        .filter(|e| Path::new("/etc").join(e).exists())
        .map(std::string::ToString::to_string)
        .collect();
    let mut l = layout(&stage, opts);
    l.hostname = &hostname;
    if mapper.is_some() {
        l.ids = bwrap::Ids::Many;
    }
    l.handed = handed.is_some();
    if l.handed {
        l.host_etc = &every_host_etc;
    }
    // A binary that comes as a mount is not copied: bubblewrap starts the supervisor from
    // its descriptor, and the supervisor mounts it in place.
    l.exe_mount = handed.as_ref().is_some_and(|h| h.exe_is_mount);
    let by_fd = layout::exe_by_fd();
    let supervisor = if l.exe_mount {
        by_fd.as_str()
    } else {
        layout::SIM_BIN
    };
    let argv = bwrap::command(
        bwrap,
        &l,
        &[supervisor, crate::lab::wire::layout::SUPERVISOR],
    );
    let hello = |host_etc: Vec<String>| ToSupervisor::Hello {
        version: protocol::VERSION,
        user: spec.user.clone(),
        relogin: opts.relogin.clone(),
        checks: lab.steps.iter().map(|s| s.check.clone()).collect(),
        confine: confined,
        handed: l.handed,
        exe_mount: l.exe_mount,
        host_etc,
        budget: spec.disk_bytes(),
    };
    let greeting = built.is_some().then(|| hello(Vec::new()));
    // A /usr whose files are the lab's root's, for the supervisor to make writable; without
    // it (an old kernel) /usr stays the read-only bind.
    let usr = mapper
        .as_ref()
        .filter(|m| m.is_root())
        .and_then(|m| crate::lab::app::usr_map::idmapped_usr(m, &opts.exe).ok());
    let handed_pool = match &pool {
        Some(p) => Some(p.try_clone().map_err(io)?),
        None => None,
    };
    let mut shell = Shell::spawn(
        argv,
        opts.rows,
        opts.cols,
        greeting.as_ref(),
        opts.transcript,
        hooks,
        crate::lab::app::session::MachineIds {
            usr,
            mapper,
            pool: handed_pool,
            handed,
        },
    )
    .map_err(io)?;
    if let (Some(owner), Some(pool)) = (owner, &pool) {
        let ready = build(lab, &spec, confined, true, &mut stage).and_then(|state| {
            let nodes = sim::devnodes::possible(&state);
            crate::lab::app::device_pool::fill_pool(pool, &nodes, owner).map_err(io)?;
            stage.give_to(owner.0, owner.1).map_err(io)
        });
        if let Err(e) = ready {
            shell.kill();
            return Err(e);
        }
        shell.greet(&hello(stage.host_etc.clone())).map_err(io)?;
    }
    Ok((stage, shell))
}

/// `open`, and when it fails after answers taken from the machine's cache of them
/// (`probe_cache`), once more with the host asked again: a stale answer costs a retry, never
/// a weaker sandbox (only the stronger choices are kept).
fn open_or_ask_again(
    lab: &Lab,
    bwrap: &Path,
    opts: &Options,
    hooks: &Hooks,
) -> Result<(Stage, Shell), LabError> {
    match open(lab, bwrap, opts, hooks.clone()) {
        Err(_) if bwrap::forget_probes() => open(lab, bwrap, opts, hooks.clone()),
        other => other,
    }
}

/// A notify hook that does nothing (scripted runs wait on records instead).
pub fn no_notify() -> Notify {
    Arc::new(|| {})
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hold with relogin `seq` sent and unanswered.
    fn waiting() -> (Hold, u64) {
        let mut h = Hold::default();
        let seq = h.next_seq();
        h.wait_for(seq);
        (h, seq)
    }

    #[test]
    fn keys_typed_before_the_answer_reach_the_shell_after_it_in_order() {
        let mut shell = Vec::new();
        let mut h = Hold::default();
        h.typed(b"ls\r", &mut shell).unwrap();
        assert_eq!(shell, b"ls\r", "nothing sent: typed at once");
        let seq = h.next_seq();
        h.wait_for(seq);
        for k in [&b"e"[..], b"x", b"it", b"\r"] {
            h.typed(k, &mut shell).unwrap();
        }
        assert_eq!(shell, b"ls\r", "held until the banner is applied");
        h.applied(seq, &mut shell).unwrap();
        assert_eq!(shell, b"ls\rexit\r");
        h.typed(b"pwd", &mut shell).unwrap();
        assert_eq!(shell, b"ls\rexit\rpwd", "after the answer, at once again");
        assert!(!h.holding());
    }

    #[test]
    fn the_answer_to_an_earlier_relogin_does_not_release_the_keys() {
        // `L` twice: the first answer says nothing about the second banner.
        let (mut h, first) = waiting();
        let second = h.next_seq();
        h.wait_for(second);
        let mut shell = Vec::new();
        h.typed(b"exit\r", &mut shell).unwrap();
        h.applied(first, &mut shell).unwrap();
        assert!(shell.is_empty());
        h.applied(second, &mut shell).unwrap();
        assert_eq!(shell, b"exit\r");
    }

    #[test]
    fn past_the_limit_the_hold_gives_up_and_loses_nothing() {
        let (mut h, seq) = waiting();
        let mut shell = Vec::new();
        let key = [b'a'; 1000];
        for _ in 0..4 {
            h.typed(&key, &mut shell).unwrap();
        }
        assert!(shell.is_empty(), "4000 bytes fit");
        let more = [b'b'; 100];
        h.typed(&more, &mut shell).unwrap();
        let mut want = key.repeat(4);
        want.extend_from_slice(&more);
        assert_eq!(shell, want, "everything written, in order");
        assert!(!h.holding());
        // The late answer changes nothing; keys go out at once again.
        h.applied(seq, &mut shell).unwrap();
        h.typed(b"c", &mut shell).unwrap();
        want.push(b'c');
        assert_eq!(shell, want);
    }

    #[test]
    fn a_gone_shell_drops_what_was_held() {
        let (mut h, seq) = waiting();
        let mut shell = Vec::new();
        h.typed(b"exit\r", &mut shell).unwrap();
        h.drop_held();
        h.applied(seq, &mut shell).unwrap();
        h.typed(b"x", &mut shell).unwrap();
        assert_eq!(shell, b"x");
    }
}
