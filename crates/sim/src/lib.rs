//! The simulated ROCm machine: state, and the tools a learner runs against it.
//!
//! Labs need a machine with AMD GPUs that does not exist. This crate is that machine as a pure
//! library: no PTY, no sandbox. Each tool prints what the real tool prints (the facts sheet,
//! `rocm-facts.md`), in English: simulated output is never localized.
//!
//! # Contract with the lab layer
//!
//! **Root.** Every tool works on a directory `root` (`/` inside the sandbox, a temp dir in
//! tests). Files a real machine keeps in files are the truth and live there: `etc/passwd`,
//! `etc/group`, `etc/gshadow`, `etc/os-release`, `etc/hostname`, `etc/modules`,
//! `etc/modules-load.d/*.conf`, `etc/udev/rules.d/*.rules`, `etc/apt/sources.list(.d)`,
//! `etc/apt/keyrings/*`, `etc/apt/preferences.d/*`, `etc/ld.so.conf.d/*`, `opt/rocm-X.Y.Z/...` and
//! the `opt/rocm` symlink, the tool wrappers in `usr/bin` & co. Facts with no file on a real
//! machine (kernel, PCI devices, whether amdgpu is loaded, the *applied* owner/group/mode of the
//! device nodes, loaded udev rules, installed packages and fetched apt lists, DKMS builds, the
//! Kubernetes cluster, login sessions) live in [`state::STATE_PATH`]
//! (`var/lib/rocm-sim/state.json`), versioned and written atomically. A missing or damaged state
//! file makes every tool print a clear error on stderr and exit 1; nothing panics.
//!
//! **Creating a stage.** [`stage::create_on`]`(root, &MachineSpec, &dyn Host)` writes the files
//! and the state.
//! A lab scenario describes its machine in TOML ([`MachineSpec::from_toml`]): `preset =
//! "vega64-workstation"` (RX Vega 64, gfx900, Ubuntu 24.04) or `preset = "mi300x-server"`
//! (Instinct MI300X, gfx942, Ubuntu 22.04, `gpu_count` 1-8, a BMC's ASPEED display as the only
//! "VGA" device), then e.g. `amdgpu_loaded = false`, `driver = "in-tree" | "dkms" | "none"`,
//! `amdgpu_persisted`, `rocm_installed = "6.2.2"` (or several releases side by side:
//! `rocm_releases = ["6.2.2", "6.3.2"]`; /opt/rocm is the `rocm` alternative, see
//! [`alternatives`]), `repo_configured = "6.2.2"` + `repo_key = false`, `user_groups =
//! ["adm", "sudo"]`, `kfd_mode = "0660"`, `kfd_group`, `render_mode`, `udev_rules = {
//! "70-amdgpu.rules" = "..." }`, `k8s = true`, `node_labels`, `device_plugin`.
//! Set `spec.sim_bin` to the binary's path inside the sandbox so wrappers can find it.
//!
//! **The host.** Everything the simulator asks of or does to the real system goes through a
//! [`Host`]: the process's own uid, giving a file to its caller, the real device nodes when the
//! root is this system's `/`, the caller's environment and folder, the clock, replacing the
//! process with a real program, and the hooks of the program around it (the lab's broker).
//! Nothing in this crate reads the environment or a real device, or runs a program, any other
//! way. The real hosts belong to the programs that run the simulator; tests use [`Fake`], so
//! they take the same paths as root and as a normal user.
//!
//! **Calling a tool.** In-process: [`run`]`(&dyn Host, root, tool, &args, &Caller, &mut dyn
//! Console) -> Output` loads the state, runs the tool (one file per tool under `tools/`), and
//! saves the state only if it changed (read-only tools never rewrite it; two *mutating* tools
//! running at the same moment would see last-writer-wins, which lab pipelines do not do). Tools that read a
//! pipe (`gpg --dearmor`, `kubectl apply -f -`) or prompt (apt's `[Y/n]`) go through the
//! [`Console`]; tests use [`ScriptedConsole`].
//!
//! From the shell, the binary's hidden entry `rocm-learn sim TOOL ARGS...` ([`entry::main`])
//! reads, from its host's environment:
//! - `ROCM_SIM_ROOT`: the root directory (default `/`);
//! - `ROCM_SIM_USER`: the login name (default `learner`);
//! - `ROCM_SIM_UID`: the effective uid; `0` is root (default: the user's uid in /etc/passwd);
//! - `ROCM_SIM_SESSION`: the login session id printed by `rocm-learn sim login USER`;
//! - `ROCM_SIM_BIN`: the binary's absolute path, written into wrappers when packages install;
//! - `ROCM_SIM_PROGRAMS`: where the machine's /usr/bin and /usr/sbin are seen at root `/`
//!   ([`fsx::system_bin`]), when they cannot be at their own place (unset or `/usr`: they are);
//! - `ROCM_SIM_HOST_PROGRAMS`: a folder holding the host's own /usr/bin, where a tool that hands
//!   over to the real `ls` or `stat` finds it when the machine's programs cover those names.
//!
//! The host's working folder (`Host::cwd`) is taken as the caller's directory inside the
//! machine (with `root` stripped when it is a prefix).
//!
//! **Sessions model real credentials.** `sim login USER` records a session with the groups
//! /etc/group gives USER at that moment and prints its id; call it for every new login shell.
//! `groups`/`id` without a user show the session's groups, `groups learner` the database.
//! `usermod -aG render learner` changes /etc/group but not running sessions, so `rocminfo` keeps
//! failing (now with `learner is member of render group`) until a new login. `newgrp render`
//! returns [`Exec::Shell`] with a new session id that has the group; the CLI entry then runs the
//! user's shell with `ROCM_SIM_SESSION` set to it. A caller without a (known) session is treated
//! as a fresh login. [`State::reboot`] ends all sessions.
//!
//! **Root and sudo.** Admin tools refuse a non-zero uid with the real messages. `sudo CMD ARGS`
//! runs a simulated CMD in-process as root; any other CMD comes back as [`Exec::Program`] with
//! `as_root: true` for the caller to run with `ROCM_SIM_UID=0` (`sudo tee /etc/modules` etc.).
//!
//! **ls.** `sim ls ARGS` lists /dev/kfd, /dev/dri and /dev/dri/* from the state (owner, group,
//! mode as applied); any other path comes back as [`Exec::Program`] running the real `ls` (the
//! first on PATH that is no wrapper, else the one in `ROCM_SIM_HOST_PROGRAMS`).
//!
//! **Installing materialises files.** Packages write wrappers (`#!/bin/sh` + `exec "<bin>" sim
//! <tool> "$@"`) into `opt/rocm-X.Y.Z/bin`, create the `opt/rocm` link, `usr/bin/amdgpu-install`
//! and its repository files, `usr/sbin/dkms` ([`fsx::system_bin`]: with root `/`, in the lab
//! sandbox, the machine's programs are laid over the real /usr/bin and /usr/sbin, so that is
//! where they go, and `which` names them there; only where the lab's kernel refuses that are
//! they seen in /usr/local, which `ROCM_SIM_PROGRAMS` then names, and `which` still shows them
//! at /usr/bin and /usr/sbin). [`tools::system_tools`]`(&state)` lists the tools
//! present on this machine outside /opt/rocm and where Ubuntu keeps them (it needs the state:
//! `dkms` appears once installed, `kubectl` only with a cluster), for the lab to install wrappers;
//! [`pkgs::wrapper`] gives a wrapper's text. [`tools::TOOLS`] is every name `sim` accepts.
//! ROCm tools are never on the default PATH: `bash: hipcc: command not found` comes from bash.
//!
//! **Grader queries** (read-only): [`State::load_on`], [`State::is_module_loaded`],
//! [`State::device_mode`], [`State::device_group`], [`State::session_groups`],
//! [`accounts::db_groups`], [`State::installed`], [`State::rocm_version`], [`State::pod_phase`],
//! [`State::device_plugin_running`], [`State::amdgpu_persisted`].
//!
//! **Time.** Dates derive from the state's boot time; kubectl advances a simulated clock by a
//! few seconds per call so ages move. Goldens are therefore stable.
//!
//! **Lab-only entries** (not tools a learner has): `rocm-learn sim stage [SPEC.toml]` creates a
//! stage at `ROCM_SIM_ROOT` (refuses `/`), `sim login USER` records a login and prints the
//! session id. `reboot`, `shutdown -r now` and `systemctl reboot` (as root) boot the machine again
//! from its configuration ([`kernel::boot`]); `State::boot.count` grows by one at every boot, so the
//! lab's login loop can tell that the learner's session ended and log in again.
//!
//! **Output** of a tool is bytes on stdout (gpg --dearmor writes binary, so `Vec<u8>` rather
//! than `String`), text on stderr, an exit code, and optionally an [`Exec`] action. `shown` says
//! how much of stdout a [`Console`] prompt already displayed (apt's `[Y/n]`, newgrp's
//! `Password:`); the CLI prints only the rest. rocminfo's start-up lines carry the real tool's
//! ANSI colours, as on a real terminal.
//!
//! **Also simulated**: `uname` (so `linux-headers-$(uname -r)` names the machine's kernel). The
//! machine's host name is `Machine::hostname` (give it to bubblewrap's `--hostname`).
//!
//! **Boot**: amdgpu loads by PCI modalias unless /etc/modprobe.d or `modprobe.blacklist=` forbid
//! it, `nomodeset` stops it, modules files load it through systemd-modules-load, a DKMS build
//! counts only for its kernel and Secure Boot refuses it until the MOK is enrolled. The running
//! command line is in `State::boot.cmdline` and in the file [`kernel::CMDLINE_PATH`] (for the
//! sandbox to mount over /proc/cmdline).
//!
//! **Simplifications** worth knowing: `hipcc` reports its version but does not compile; apt knows the
//! packages of the labs, not the whole archive, and implements update/install/list.

// These predate the pedantic subset of the workspace's [lints] and get them once the crate's
// shape settles.
#![allow(
    clippy::redundant_closure_for_method_calls,
    clippy::semicolon_if_nothing_returned,
    clippy::implicit_clone,
    clippy::manual_let_else
)]

pub use rocm_unix::accounts;
pub mod alternatives;
pub mod catalog;
pub mod coresdk;
pub mod devnodes;
pub mod entry;
pub mod error;
pub mod fsx;
pub mod host;
pub mod k8s;
pub mod k8s_patch;
pub mod kernel;
pub mod keys;
pub mod machine;
pub mod pkgs;
pub mod ran;
pub mod rocm_runtimes;
pub mod spec;
pub mod stage;
pub mod state;
pub mod tools;
pub mod udev;
pub mod wont_load;
pub mod wrappers;

use std::collections::VecDeque;
use std::path::Path;

pub use error::SimError;
pub use host::{Fake, HandOver, Host, NodeMeta, Program};
pub use machine::{Machine, Preset};
pub use spec::MachineSpec;
pub use state::State;

/// The machine's root folder (default `/`).
pub const ROOT_ENV: &str = "ROCM_SIM_ROOT";
/// The caller's login name.
pub const USER_ENV: &str = "ROCM_SIM_USER";
/// The caller's effective uid (`0` is root).
pub const UID_ENV: &str = "ROCM_SIM_UID";
/// The caller's login session id (from `sim login`).
pub const SESSION_ENV: &str = "ROCM_SIM_SESSION";
/// The rocm-learn binary, written into the wrappers packages install.
pub const BIN_ENV: &str = "ROCM_SIM_BIN";

/// Who runs a tool, and from where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// Login name (`learner`); `root` under sudo.
    pub user: String,
    /// Effective uid; 0 is root.
    pub uid: u32,
    /// Login session id, if the shell has one.
    pub session: Option<String>,
    /// Working directory inside the machine (`/home/learner`).
    pub cwd: String,
    /// The rocm-learn binary to write into wrappers.
    pub sim_bin: String,
}

impl Caller {
    /// `name` with `uid`, in login session `session`, in their home folder.
    pub fn user(name: &str, uid: u32, session: Option<&str>) -> Self {
        Caller {
            user: name.into(),
            uid,
            session: session.map(String::from),
            cwd: format!("/home/{name}"),
            sim_bin: "rocm-learn".into(),
        }
    }

    /// Whether the caller is root (uid 0).
    pub fn is_root(&self) -> bool {
        self.uid == 0
    }

    /// The same caller after `sudo`: root's identity, same directory.
    pub fn as_root(&self) -> Caller {
        Caller {
            user: "root".into(),
            uid: 0,
            session: None,
            cwd: self.cwd.clone(),
            sim_bin: self.sim_bin.clone(),
        }
    }
}

/// Something the caller must do after the tool returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exec {
    /// Start the user's login shell in this (new) session (`newgrp`).
    Shell {
        /// The new session.
        session: String,
    },
    /// Run a real program (not simulated), as root when `as_root`, with exactly `env` as its
    /// environment when given (sudo resets it), else with the caller's.
    Program {
        /// The program and its arguments.
        argv: Vec<String>,
        /// Run as root (`sudo`).
        as_root: bool,
        /// The whole environment, when the tool set one (sudo resets it).
        env: Option<Vec<(String, String)>>,
    },
    /// Start `user`'s shell in this new session (`su`): a login shell with a fresh environment
    /// when `login`, running `command` when given.
    Login {
        /// The new session.
        session: String,
        /// Whose shell.
        user: String,
        /// A login shell with a fresh environment (`su -`).
        login: bool,
        /// What the shell runs (`su -c`).
        command: Option<String>,
    },
}

/// What a tool printed and returned.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Output {
    /// Bytes on stdout.
    pub stdout: Vec<u8>,
    /// Text on stderr.
    pub stderr: String,
    /// Exit status.
    pub code: i32,
    /// What the caller runs next, if anything.
    pub exec: Option<Exec>,
    /// How many bytes of `stdout` the console already showed (before a prompt).
    pub shown: usize,
    /// The tool booted the machine again: every program on it ends.
    pub rebooted: bool,
}

impl Output {
    /// stdout as text (lossy UTF-8).
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// The terminal a tool talks to: stdin, and prompts that need the answer before going on.
pub trait Console {
    /// All of stdin (tools that read a pipe: `gpg --dearmor`, `kubectl apply -f -`).
    fn read_stdin(&mut self) -> Vec<u8>;
    /// Shows `pending` (output so far, ending with the prompt) and reads one line of answer;
    /// `None` at end of input.
    fn ask(&mut self, pending: &[u8]) -> Option<String>;
}

/// A console fed from memory: for tests and scripted use.
#[derive(Debug, Clone, Default)]
pub struct ScriptedConsole {
    /// All of stdin.
    pub stdin: Vec<u8>,
    /// Answers to prompts, in order; `None` after the last.
    pub answers: VecDeque<String>,
}

impl ScriptedConsole {
    /// No input and no answers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Just this on stdin.
    pub fn with_stdin(stdin: impl Into<Vec<u8>>) -> Self {
        ScriptedConsole {
            stdin: stdin.into(),
            answers: VecDeque::new(),
        }
    }

    /// These answers to prompts, in order.
    pub fn answering(answers: &[&str]) -> Self {
        ScriptedConsole {
            stdin: Vec::new(),
            answers: answers.iter().map(|s| s.to_string()).collect(),
        }
    }
}

impl Console for ScriptedConsole {
    fn read_stdin(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.stdin)
    }

    fn ask(&mut self, _pending: &[u8]) -> Option<String> {
        self.answers.pop_front()
    }
}

/// Everything a tool works with during one run.
pub struct Ctx<'a> {
    /// The real system around the machine.
    pub host: &'a dyn Host,
    /// The machine's root folder on the host.
    pub root: &'a Path,
    /// The machine's state, saved after the run when it changed.
    pub state: &'a mut State,
    /// Who runs the tool.
    pub caller: Caller,
    /// stdin and prompts.
    pub console: &'a mut dyn Console,
    /// What the tool printed and returns.
    pub out: Output,
    /// The caller's environment, for the tools whose answer depends on it (python3 reads
    /// `HIP_VISIBLE_DEVICES` and friends); empty in [`run`].
    pub env: &'a [(String, String)],
}

impl Ctx<'_> {
    /// Prints to stdout.
    pub fn print(&mut self, s: &str) {
        self.out.stdout.extend_from_slice(s.as_bytes());
    }

    /// Prints a line to stdout.
    pub fn println(&mut self, s: &str) {
        self.print(s);
        self.out.stdout.push(b'\n');
    }

    /// Prints to stderr.
    pub fn eprint(&mut self, s: &str) {
        self.out.stderr.push_str(s);
    }

    /// Prints a line to stderr.
    pub fn eprintln(&mut self, s: &str) {
        self.out.stderr.push_str(s);
        self.out.stderr.push('\n');
    }

    /// Prints `prompt` and waits for a line of input.
    pub fn ask(&mut self, prompt: &str) -> Option<String> {
        self.print(prompt);
        let pending = self.out.stdout[self.out.shown..].to_vec();
        self.out.shown = self.out.stdout.len();
        self.console.ask(&pending)
    }

    /// Host path of a path typed by the learner.
    pub fn host(&self, path: &str) -> std::path::PathBuf {
        fsx::host(self.root, path, &self.caller.cwd)
    }

    /// Writes a file the caller named (`wget -O`, `curl -o`, `gpg -o`). The simulator's own
    /// state stands in for the kernel and is nobody's to write, through a symlinked folder
    /// neither: there the write is refused as a real one would be.
    pub fn write_named(&self, path: &str, bytes: &[u8]) -> std::io::Result<()> {
        let host = self.host(path);
        let dir = host.parent().unwrap_or(self.root);
        let kernel = self.root.join(state::STATE_PATH);
        let kernel = kernel.parent().unwrap_or(self.root);
        if let (Ok(d), Ok(k)) = (std::fs::canonicalize(dir), std::fs::canonicalize(kernel))
            && d.starts_with(&k)
        {
            return Err(std::io::Error::from_raw_os_error(libc::EACCES));
        }
        fsx::write_atomic(&host, bytes)?;
        // A tool running as the machine's real root (a lab with the machine's ids) writes for
        // its caller: the file is the caller's, as the real tool run by that user leaves it.
        if self.host.euid() == 0 && !self.caller.is_root() {
            let gid = self.gids().first().copied().unwrap_or(self.caller.uid);
            self.host.chown(&host, self.caller.uid, gid)?;
        }
        Ok(())
    }

    /// The caller's current groups (gids): root's, the session's, or a fresh login's.
    pub fn gids(&self) -> Vec<u32> {
        if self.caller.is_root() {
            return vec![0];
        }
        if let Some(s) = self
            .caller
            .session
            .as_ref()
            .and_then(|id| self.state.sessions.get(id))
            .filter(|s| s.uid == self.caller.uid)
        {
            return s.gids.clone();
        }
        accounts::user(self.root, &self.caller.user)
            .map(|pw| accounts::db_gids(self.root, &pw))
            .unwrap_or_else(|| vec![self.caller.uid])
    }
}

/// Runs `tool` on the stage at `root` of `host`: loads the state, runs, saves if it changed.
pub fn run(
    host: &dyn Host,
    root: &Path,
    tool: &str,
    args: &[String],
    caller: &Caller,
    console: &mut dyn Console,
) -> Output {
    run_with_env(host, root, tool, args, caller, console, &[])
}

/// [`run`], with the caller's environment variables.
pub fn run_with_env(
    host: &dyn Host,
    root: &Path,
    tool: &str,
    args: &[String],
    caller: &Caller,
    console: &mut dyn Console,
    env: &[(String, String)],
) -> Output {
    let mut state = match State::load_on(root, host) {
        Ok(s) => s,
        Err(e) => {
            return Output {
                stderr: format!("{e}\n"),
                code: 1,
                ..Output::default()
            };
        }
    };
    let before = state.clone();
    let mut cx = Ctx {
        host,
        root,
        state: &mut state,
        caller: caller.clone(),
        console,
        out: Output::default(),
        env,
    };
    let code = tools::dispatch(&mut cx, tool, args);
    if let Some(session) = &caller.session {
        ran::record(root, session, tool, code);
    }
    let mut out = cx.out;
    out.code = code;
    out.rebooted = state.boot.count > before.boot.count;
    if state != before
        && let Err(e) = state.save(root)
    {
        out.stderr.push_str(&format!("{e}\n"));
        if out.code == 0 {
            out.code = 1;
        }
    }
    out
}

impl Machine {
    /// Reboots the machine of the stage at `root` of `host` (a lab's "reboot" step).
    pub fn reboot_on(root: &Path, host: &dyn Host) -> Result<(), SimError> {
        let mut s = State::load_on(root, host)?;
        s.reboot(root);
        s.save(root)
    }
}

/// Records a login of `user` on the stage at `root` of `host` and returns the session id (what
/// `sim login USER` prints).
pub fn login_on(root: &Path, user: &str, host: &dyn Host) -> Result<String, SimError> {
    let mut s = State::load_on(root, host)?;
    let id = s.login(root, user)?;
    s.save(root)?;
    Ok(id)
}
