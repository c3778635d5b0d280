//! What the checks may look at: a file tree (the real `/`, or a fake one in tests) and the few
//! facts only the running process knows (who it runs as, its groups, PATH, the kernel), plus two
//! doors to the outside that tests replace: running `rocminfo`/`amd-smi`, and opening a device
//! node. Nothing here writes: files are read, device nodes are opened and closed at once.

use std::collections::BTreeMap;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// How long `rocminfo` or `amd-smi` may take before doctor stops it and says so.
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(5);

/// Output kept from one tool; more is read and dropped so the tool never blocks on a full pipe.
const OUTPUT_CAP: u64 = 1 << 20;

pub struct Host {
    /// Where the machine's `/` is: `/` itself, or a fake tree in tests.
    pub root: PathBuf,
    /// The login name of this process's user (`rocminfo` uses the same for its diagnosis).
    pub user: String,
    pub uid: u32,
    /// This process's groups: its effective group and the supplementary ones. This is what the
    /// kernel checks when a device node is opened, not what /etc/group says today.
    pub gids: Vec<u32>,
    /// PATH as this process has it (`None` when unset).
    pub path: Option<String>,
    /// The running kernel's release (`uname -r`).
    pub kernel: Option<String>,
    pub devices: Devices,
    pub tools: Box<dyn Tools>,
}

/// Owner, group and mode of a device node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    pub uid: u32,
    pub gid: u32,
    /// Permission bits only (`0o660`).
    pub mode: u32,
}

/// What happened when a node was opened read-write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Open {
    Ok,
    /// EACCES or EPERM: the kernel refused this process.
    Denied,
    Missing,
    /// Anything else, with the system's words for it.
    Error(String),
}

/// How device nodes are looked at.
pub enum Devices {
    /// The real machine: `stat` the node, `open(O_RDWR)` it and close it again, which is the
    /// first thing `rocminfo` and every ROCm program do.
    Real,
    /// For fake trees: the nodes' owner, group and mode by path (`/dev/kfd`); access is decided
    /// from those bits and the host's uid and groups, as the kernel would. A node that exists in
    /// the tree but is not listed here gets the file's own owner, group and mode.
    Table(BTreeMap<String, Node>),
}

/// The result of running a tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolRun {
    Done {
        /// `None` when a signal ended it.
        code: Option<i32>,
        stdout: String,
        stderr: String,
    },
    /// Stopped after this many seconds.
    TimedOut(u64),
    /// Could not be started at all.
    Failed(String),
}

/// Runs a tool by its path on the machine (`/opt/rocm/bin/rocminfo`), with no input.
pub trait Tools {
    fn run(&self, program: &str, args: &[&str]) -> ToolRun;
}

/// Tests hand in a closure.
impl<F: Fn(&str, &[&str]) -> ToolRun> Tools for F {
    fn run(&self, program: &str, args: &[&str]) -> ToolRun {
        self(program, args)
    }
}

/// The real tools: started with stdin from /dev/null, output captured, stopped after
/// [`TOOL_TIMEOUT`].
pub struct RealTools;

impl Tools for RealTools {
    fn run(&self, program: &str, args: &[&str]) -> ToolRun {
        run_with_timeout(Path::new(program), args, TOOL_TIMEOUT)
    }
}

impl Host {
    /// This process on this machine.
    pub fn real() -> Host {
        let root = PathBuf::from("/");
        let (uid, egid) = (
            rustix::process::getuid().as_raw(),
            rustix::process::getegid().as_raw(),
        );
        let user = crate::unix::accounts::user_by_uid(&root, uid)
            .map(|u| u.name)
            .or_else(|| std::env::var("USER").ok().filter(|u| !u.is_empty()))
            .or_else(|| std::env::var("LOGNAME").ok().filter(|u| !u.is_empty()))
            .unwrap_or_else(|| uid.to_string());
        let mut gids = vec![egid];
        for g in process_groups() {
            if !gids.contains(&g) {
                gids.push(g);
            }
        }
        Host {
            root,
            user,
            uid,
            gids,
            path: std::env::var("PATH").ok(),
            kernel: kernel_release(),
            devices: Devices::Real,
            tools: Box::new(RealTools),
        }
    }

    /// Where a path of the machine (`/dev/kfd`) is in the tree.
    pub fn file(&self, path: &str) -> PathBuf {
        self.root.join(path.trim_start_matches('/'))
    }

    pub fn read(&self, path: &str) -> io::Result<String> {
        std::fs::read_to_string(self.file(path))
    }

    /// A small text file's first line, trimmed (sysfs attributes).
    pub fn attr(&self, path: &str) -> Option<String> {
        self.read(path)
            .ok()
            .map(|t| t.lines().next().unwrap_or("").trim().to_string())
    }

    pub fn exists(&self, path: &str) -> bool {
        std::fs::symlink_metadata(self.file(path)).is_ok()
    }

    /// Names in a folder, sorted; `Err` when the folder cannot be read.
    pub fn list(&self, path: &str) -> io::Result<Vec<String>> {
        let mut names: Vec<String> = std::fs::read_dir(self.file(path))?
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        Ok(names)
    }

    /// Follows symbolic links as the machine would (an absolute target counts from the tree's
    /// root) and returns the machine path it ends at, or `None` if something on the way is
    /// missing or the links loop.
    pub fn resolve(&self, path: &str) -> Option<String> {
        crate::machine_path::resolve(path, |p| self.file(p))
    }

    /// An executable file at this machine path?
    pub fn is_executable(&self, path: &str) -> bool {
        std::fs::metadata(self.file(path)).is_ok_and(|m| m.is_file() && m.mode() & 0o111 != 0)
    }

    /// Owner, group and mode of a device node, if it exists.
    pub fn node(&self, path: &str) -> Option<Node> {
        if let Devices::Table(t) = &self.devices
            && let Some(n) = t.get(path)
        {
            return self.exists(path).then_some(*n);
        }
        std::fs::metadata(self.file(path)).ok().map(|m| Node {
            uid: m.uid(),
            gid: m.gid(),
            mode: m.mode() & 0o7777,
        })
    }

    /// Can this process open the node read-write? Really tries on the real machine.
    pub fn open_rw(&self, path: &str) -> Open {
        match &self.devices {
            Devices::Real => open_and_close(&self.file(path)),
            Devices::Table(_) => match self.node(path) {
                None => Open::Missing,
                Some(n) if may_read_write(&n, self.uid, &self.gids) => Open::Ok,
                Some(_) => Open::Denied,
            },
        }
    }
}

/// The kernel's rule for the permission bits (the one the simulator and the labs use too).
pub fn may_read_write(n: &Node, uid: u32, gids: &[u32]) -> bool {
    crate::unix::accounts::may_read_write(n.mode, Some(n.uid), Some(n.gid), uid, gids)
}

/// `open(O_RDWR)` and `close`: the one thing doctor does to a device, and exactly what
/// `rocminfo` does first. Nothing is read from or written to the device.
fn open_and_close(path: &Path) -> Open {
    use std::os::unix::fs::OpenOptionsExt;
    // std adds O_CLOEXEC; the file is closed when it goes out of scope.
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open(path);
    let Err(e) = opened else {
        return Open::Ok;
    };
    match e.raw_os_error() {
        Some(libc::EACCES) | Some(libc::EPERM) => Open::Denied,
        Some(libc::ENOENT) => Open::Missing,
        _ => Open::Error(e.to_string()),
    }
}

/// This process's supplementary groups (`getgroups`).
fn process_groups() -> Vec<u32> {
    rustix::process::getgroups()
        .map(|gs| gs.into_iter().map(rustix::fs::Gid::as_raw).collect())
        .unwrap_or_default()
}

/// `uname -r`.
fn kernel_release() -> Option<String> {
    let u = rustix::system::uname();
    Some(u.release().to_string_lossy().into_owned()).filter(|s| !s.is_empty())
}

/// Runs a program with no input and a time limit; a program still running then is killed.
pub fn run_with_timeout(program: &Path, args: &[&str], limit: Duration) -> ToolRun {
    let mut cmd = Command::new(program);
    cmd.args(args)
        // The tools' English messages are what doctor looks for.
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match crate::child::run_capped(cmd, limit, OUTPUT_CAP) {
        Ok(done) => ToolRun::Done {
            code: done.status.code(),
            stdout: String::from_utf8_lossy(&done.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&done.stderr).into_owned(),
        },
        Err(crate::child::Failure::TimedOut) => ToolRun::TimedOut(limit.as_secs()),
        Err(crate::child::Failure::Spawn(e)) => ToolRun::Failed(e.to_string()),
    }
}
