//! The real system under the simulator (`crate::sim`, a pure library): its `Host` effects done
//! for real, and the process's standard streams as a tool's console. `Alone` is this system
//! with no program around the simulator (`rocm-learn sim` outside a lab); the lab's broker
//! builds its own host on these same effects (`lab::sandbox::broker::trusted`).

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::sim::entry::{self, Streams};
use crate::sim::{Console, HandOver, Host, NodeMeta, Program};

/// The metadata of `path` when it is the character device `major`:`minor` on this system
/// (never following a link).
pub fn char_device(path: &str, major: u32, minor: u32) -> Option<rustix::fs::Stat> {
    use rustix::fs::{FileType, lstat, makedev};
    let st = lstat(path).ok()?;
    let is_char = FileType::from_raw_mode(st.st_mode) == FileType::CharacterDevice;
    (is_char && st.st_rdev == makedev(major, minor)).then_some(st)
}

/// Owner, group and mode of the real node at `path`, when it is `major`:`minor`.
pub fn device_node(path: &str, major: u32, minor: u32) -> Option<NodeMeta> {
    char_device(path, major, minor).map(|st| NodeMeta {
        uid: st.st_uid,
        gid: st.st_gid,
        mode: st.st_mode & 0o7777,
    })
}

/// This process's effective uid.
pub fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Gives `path` (a link itself, not its target) to `uid` and `gid`.
pub fn chown(path: &Path, uid: u32, gid: u32) -> io::Result<()> {
    std::os::unix::fs::lchown(path, Some(uid), Some(gid))
}

/// The system clock, since the Unix epoch.
pub fn now() -> Duration {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
}

/// Replaces this process with `program`; returns only why it could not.
pub fn exec(program: &Program) -> io::Error {
    use std::os::unix::process::CommandExt;
    command(program).exec()
}

/// The command that runs `program` as given: its name, arguments, whole environment and folder.
pub fn command(program: &Program) -> std::process::Command {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(&program.path);
    cmd.arg0(&program.arg0)
        .args(&program.args)
        .env_clear()
        .envs(program.env.iter().map(|(k, v)| (k, v)));
    if let Some(dir) = &program.cwd {
        cmd.current_dir(dir);
    }
    cmd
}

/// This system as it is: the process's own environment (taken when first asked for), folder,
/// ids and clock. `rocm-learn sim` outside a lab runs tools on it, and the app and the
/// supervisor load a machine's state through it (the real nodes of a machine at `/`).
pub struct Alone {
    env: std::sync::OnceLock<Vec<(String, String)>>,
}

impl Alone {
    /// This process.
    pub fn new() -> Alone {
        Alone {
            env: std::sync::OnceLock::new(),
        }
    }

    /// This process, with `more` set over its environment.
    pub fn with(more: &[(&str, &str)]) -> Alone {
        let mut env: Vec<(String, String)> = std::env::vars().collect();
        for (k, v) in more {
            env.retain(|(n, _)| n != k);
            env.push(((*k).into(), (*v).into()));
        }
        Alone {
            env: std::sync::OnceLock::from(env),
        }
    }
}

impl Default for Alone {
    fn default() -> Self {
        Alone::new()
    }
}

impl Host for Alone {
    fn vouches(&self) -> bool {
        false
    }
    fn become_id(&self, _uid: u32, _gid: u32) -> io::Result<()> {
        Ok(())
    }
    fn handing_over(&self, _who: &HandOver) -> io::Result<()> {
        Ok(())
    }
    fn rebooted(&self) {}
    fn euid(&self) -> u32 {
        euid()
    }
    fn chown(&self, path: &Path, uid: u32, gid: u32) -> io::Result<()> {
        chown(path, uid, gid)
    }
    fn device_node(&self, path: &str, major: u32, minor: u32) -> Option<NodeMeta> {
        device_node(path, major, minor)
    }
    fn env(&self) -> &[(String, String)] {
        self.env.get_or_init(|| std::env::vars().collect())
    }
    fn cwd(&self) -> Option<PathBuf> {
        std::env::current_dir().ok()
    }
    fn now(&self) -> Duration {
        now()
    }
    fn exec(&self, program: &Program) -> io::Error {
        exec(program)
    }
}

/// A tool's console on this process's stdin and stdout: prompts are shown before the answer
/// is read. It takes no lock of the standard library's streams (it writes to copies of their
/// descriptors), so a process forked from one with other threads (the lab's broker) can use it.
pub struct Terminal {
    input: Option<std::fs::File>,
    output: Stream,
}

impl Terminal {
    pub fn new() -> Terminal {
        Terminal {
            input: copy(rustix::stdio::stdin()),
            output: Stream::stdout(),
        }
    }
}

impl Default for Terminal {
    fn default() -> Self {
        Terminal::new()
    }
}

impl Console for Terminal {
    fn read_stdin(&mut self) -> Vec<u8> {
        let mut buf = Vec::new();
        if let Some(input) = &mut self.input {
            let _ = input.read_to_end(&mut buf);
        }
        buf
    }

    fn ask(&mut self, pending: &[u8]) -> Option<String> {
        let _ = self.output.write_all(pending);
        let _ = self.output.flush();
        let input = self.input.as_mut()?;
        // One byte at a time: whatever follows the answer's line stays for the next reader.
        let mut line = Vec::new();
        let mut byte = [0u8; 1];
        loop {
            match input.read(&mut byte) {
                Ok(0) | Err(_) if line.is_empty() => return None,
                Ok(0) | Err(_) => break,
                Ok(_) if byte[0] == b'\n' => break,
                Ok(_) => line.push(byte[0]),
            }
        }
        let text = String::from_utf8_lossy(&line);
        Some(text.trim_end_matches(['\n', '\r']).to_string())
    }
}

/// A copy of descriptor `fd` as a file (None when nothing is open there).
fn copy(fd: std::os::fd::BorrowedFd<'static>) -> Option<std::fs::File> {
    fd.try_clone_to_owned().ok().map(Into::into)
}

/// This process's stdout or stderr as a writer on a copy of its descriptor (see `Terminal`);
/// writes go nowhere when it has none.
pub struct Stream(Option<std::fs::File>);

impl Stream {
    pub fn stdout() -> Stream {
        Stream(copy(rustix::stdio::stdout()))
    }
    pub fn stderr() -> Stream {
        Stream(copy(rustix::stdio::stderr()))
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.0 {
            Some(f) => f.write(buf),
            None => Ok(buf.len()),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `rocm-learn sim TOOL ARGS...` outside a lab: the tool on `$ROCM_SIM_ROOT` for this process,
/// with `more` set over its environment (a release's wrapper names its release).
pub fn main(tool: &str, args: &[String], more: &[(&str, &str)]) -> i32 {
    let host = Alone::with(more);
    let (mut out, mut err) = (Stream::stdout(), Stream::stderr());
    entry::main(
        tool,
        args,
        &host,
        &mut Streams {
            console: &mut Terminal::new(),
            out: &mut out,
            err: &mut err,
        },
    )
}
