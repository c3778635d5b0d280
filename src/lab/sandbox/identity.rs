//! Who a process in the lab is, as the supervisor knows it: every login, and every program a
//! brokered sudo, su, newgrp or sg started, is registered by its pid when the supervisor
//! starts it; any other process is whoever its nearest registered ancestor is. The kernel
//! names the sender of each message (SCM_CREDENTIALS), and a process cannot choose its
//! parent, so no variable or file the learner writes can change the answer.

use std::collections::HashMap;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::PathBuf;

use crate::lab::sandbox::sys;

/// The credentials of a login (or of a program sudo or su started).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Identity {
    pub user: String,
    pub uid: u32,
    pub home: String,
    /// The simulated login session, which holds the groups the login got.
    pub session: String,
}

/// Signalled whenever a login start ends (registered or failed), for `identify`.
static REGISTERED: std::sync::Condvar = std::sync::Condvar::new();

/// The longest `identify` waits for a login start under way. A guard against a start that
/// hangs, not an ordering: the start signals its end (`Table::started`), and a process is
/// only waited for while a start is under way at all.
pub const HUNG_START: std::time::Duration = std::time::Duration::from_secs(10);

/// The identity of `pid` in `table`. A login's first prompt can come before the supervisor has
/// registered the login it just started (it learns the pid only once the shell runs), so while
/// a start is under way (`Table::starting`) its end is awaited: a handshake with
/// `Table::started`, not a poll. A process no login started gets None at once when nothing is
/// starting. The supervisor keeps one table, so one condition serves it.
pub fn identify(table: &std::sync::Mutex<Table>, pid: i32) -> Option<Identity> {
    let deadline = std::time::Instant::now() + HUNG_START;
    let mut t = table.lock().ok()?;
    loop {
        if let Some(w) = t.of(pid) {
            return Some(w);
        }
        if t.starting == 0 {
            return None;
        }
        let left = deadline.checked_duration_since(std::time::Instant::now())?;
        t = REGISTERED.wait_timeout(t, left).ok()?.0;
    }
}

/// Registered processes by pid, with their start time (so a reused pid is not mistaken for
/// the process that had it).
#[derive(Default)]
pub struct Table {
    by_pid: HashMap<i32, (u64, Identity)>,
    /// Logins being started and not yet registered.
    starting: u32,
}

/// Parent pid and start time from /proc/PID/stat.
fn stat(pid: i32) -> Option<(i32, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    let rest = &text[text.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    // rest starts at field 3 (state): ppid is field 4, starttime field 22.
    Some((f.get(1)?.parse().ok()?, f.get(19)?.parse().ok()?))
}

impl Table {
    pub fn register(&mut self, pid: i32, who: Identity) {
        if let Some((_, start)) = stat(pid) {
            self.by_pid.insert(pid, (start, who));
        }
        REGISTERED.notify_all();
    }

    /// A login is about to start: `identify` waits for its registration until `started`.
    pub fn starting(&mut self) {
        self.starting += 1;
    }

    /// The login announced by `starting` runs as `pid` (registered as `who`), or did not
    /// start (None); either way a wait for it in `identify` ends.
    pub fn started(&mut self, login: Option<(i32, Identity)>) {
        self.starting = self.starting.saturating_sub(1);
        match login {
            Some((pid, who)) => self.register(pid, who),
            None => REGISTERED.notify_all(),
        }
    }

    pub fn forget(&mut self, pid: i32) {
        self.by_pid.remove(&pid);
    }

    /// The identity of `pid`: its own registration or its nearest registered ancestor's.
    pub fn of(&self, pid: i32) -> Option<Identity> {
        let mut at = pid;
        for _ in 0..512 {
            let (ppid, start) = stat(at)?;
            if let Some((s, who)) = self.by_pid.get(&at)
                && *s == start
            {
                return Some(who.clone());
            }
            if ppid <= 0 {
                return None;
            }
            at = ppid;
        }
        None
    }
}

/// The process a tool request came from, as the kernel names it. The reply socket a request
/// carries must have been made by the process that sent it (its SO_PEERCRED pid is the
/// sender's), so a request cannot borrow another process's socket; where the kernel gives a
/// pidfd of that process (SO_PEERPIDFD; else one opened at once by pid), every later look at
/// `/proc/PID` is checked against it, so a pid given to a new process after the caller ended
/// is never taken for the caller.
pub struct Caller {
    pub pid: i32,
    pidfd: Option<OwnedFd>,
}

impl Caller {
    /// The caller of a request that `sender` sent (the kernel's SCM_CREDENTIALS pid) with the
    /// reply socket `reply`; None when the socket is another process's, or no socket.
    pub fn of_request(sender: i32, reply: BorrowedFd) -> Option<Caller> {
        let cred = rustix::net::sockopt::socket_peercred(reply).ok()?;
        if cred.pid.as_raw_nonzero().get() != sender {
            return None;
        }
        let pidfd = sys::peer_pidfd(reply).or_else(|| {
            let pid = rustix::process::Pid::from_raw(sender)?;
            rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
        });
        Some(Caller { pid: sender, pidfd })
    }

    /// Whether the pid still names the caller (it has not been reaped). Without a pidfd (a
    /// kernel before 5.3) the pid is taken at its word.
    pub fn still_there(&self) -> bool {
        self.pidfd
            .as_ref()
            .is_none_or(|fd| sys::pidfd_alive(fd.as_fd()))
    }

    /// The caller's working folder as the kernel knows it (`/proc/PID/cwd`), never as the
    /// request says: its path and that folder opened (`O_PATH`, which never blocks on what it
    /// opens). The path must lead to the very same folder with no symbolic link on the way,
    /// and the caller must still be there after the look. None when the kernel cannot tell
    /// (the folder removed, or out of this view).
    pub fn folder(&self) -> Option<(PathBuf, OwnedFd)> {
        let look = || folder_of(self.pid);
        let found = match look() {
            Err(rustix::io::Errno::ACCESS | rustix::io::Errno::PERM)
                if rustix::process::geteuid().is_root() =>
            {
                // Reading another uid's /proc/PID/cwd takes CAP_SYS_PTRACE, which the
                // supervisor does not hold: it looks with the caller's own ids instead (its
                // real, effective and saved ids are one then, as a login's and a tool's are).
                let (uid, gid) = plain_ids(self.pid)?;
                sys::with_fs_ids(uid, gid, look)
            }
            other => other,
        };
        found.ok().filter(|_| self.still_there())
    }
}

/// `pid`'s working folder: its path, when the path leads there without a link.
fn folder_of(pid: i32) -> rustix::io::Result<(PathBuf, OwnedFd)> {
    use rustix::fs::{Mode, OFlags, ResolveFlags};
    let link = format!("/proc/{pid}/cwd");
    let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let dir = rustix::fs::open(&link, flags, Mode::empty())?;
    let path = rustix::fs::readlink(&link, Vec::new())?;
    let path: PathBuf =
        <std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(path.into_bytes()).into();
    // A removed folder reads as "PATH (deleted)", and a folder out of this view does not
    // start at the root: neither is a path a tool can use.
    if !path.is_absolute() {
        return Err(rustix::io::Errno::NOENT);
    }
    let again = rustix::fs::openat2(
        rustix::fs::CWD,
        &path,
        flags | OFlags::NOFOLLOW,
        Mode::empty(),
        ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS,
    )?;
    let (a, b) = (rustix::fs::fstat(&dir)?, rustix::fs::fstat(&again)?);
    if (a.st_dev, a.st_ino) != (b.st_dev, b.st_ino) {
        return Err(rustix::io::Errno::NOENT);
    }
    Ok((path, dir))
}

/// `pid`'s uid and gid when its real, effective and saved ids are one each.
fn plain_ids(pid: i32) -> Option<(u32, u32)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let one = |key: &str| -> Option<u32> {
        let line = status.lines().find_map(|l| l.strip_prefix(key))?;
        let ids: Vec<u32> = line
            .split_whitespace()
            .take(3)
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        (ids.len() == 3 && ids.iter().all(|i| *i == ids[0])).then_some(ids[0])
    };
    Some((one("Uid:")?, one("Gid:")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(user: &str) -> Identity {
        Identity {
            user: user.into(),
            uid: 1000,
            home: format!("/home/{user}"),
            session: "s1".into(),
        }
    }

    #[test]
    fn a_child_is_who_its_registered_ancestor_is() {
        let mut t = Table::default();
        let me = std::process::id() as i32;
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        assert_eq!(t.of(pid), None);
        t.register(me, who("learner"));
        assert_eq!(t.of(pid).unwrap().user, "learner");
        // The nearest registration wins.
        t.register(pid, who("root"));
        assert_eq!(t.of(pid).unwrap().user, "root");
        t.forget(pid);
        assert_eq!(t.of(pid).unwrap().user, "learner");
        child.kill().unwrap();
        child.wait().unwrap();
        // A pid that is gone has no identity.
        assert_eq!(t.of(pid), None);
    }

    #[test]
    fn a_login_being_started_is_waited_for_however_long_its_start_takes() {
        let table = std::sync::Arc::new(std::sync::Mutex::new(Table::default()));
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        // Nothing is starting: a process no login started is not waited for.
        assert_eq!(identify(&table, pid), None);
        table.lock().unwrap().starting();
        let starter = {
            let table = table.clone();
            std::thread::spawn(move || {
                // A slow start (a loaded machine): longer than any fixed wait used to be.
                std::thread::sleep(std::time::Duration::from_millis(400));
                table.lock().unwrap().started(Some((pid, who("learner"))));
            })
        };
        assert_eq!(
            identify(&table, pid).map(|w| w.user).as_deref(),
            Some("learner")
        );
        starter.join().unwrap();
        // A start that failed ends the wait too.
        let t = &mut table.lock().unwrap();
        t.forget(pid);
        t.starting();
        t.started(None);
        assert_eq!(t.starting, 0);
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn a_callers_folder_is_the_kernels_word_through_no_link() {
        let real = tempfile::tempdir().unwrap();
        let deep = real.path().join("a b").join("c");
        std::fs::create_dir_all(&deep).unwrap();
        let deep = std::fs::canonicalize(&deep).unwrap();
        // Started through a link: the kernel names the folder itself.
        let link = real.path().join("link");
        std::os::unix::fs::symlink(&deep, &link).unwrap();
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .current_dir(&link)
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let (path, fd) = folder_of(pid).unwrap();
        assert_eq!(path, deep);
        let (a, b) = (
            rustix::fs::fstat(&fd).unwrap(),
            rustix::fs::stat(&deep).unwrap(),
        );
        assert_eq!((a.st_dev, a.st_ino), (b.st_dev, b.st_ino));
        // Its folder removed under it: the kernel cannot give a path a tool could use.
        std::fs::remove_dir(&deep).unwrap();
        assert!(folder_of(pid).is_err());
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn a_request_names_its_sender_only_with_a_socket_of_its_own() {
        let me = std::process::id() as i32;
        let (_mine, theirs) =
            crate::lab::wire::fdpass::pair(rustix::net::SocketType::STREAM).expect("socketpair");
        let caller = Caller::of_request(me, theirs.as_fd()).expect("our own socket");
        assert!(caller.still_there());
        assert_eq!(
            caller.folder().map(|(p, _)| p),
            Some(std::env::current_dir().unwrap())
        );
        // The same socket sent by another process (a child it was passed to): not its own.
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let other = child.id() as i32;
        assert!(Caller::of_request(other, theirs.as_fd()).is_none());
        // A caller that has ended is never taken for whoever gets its pid next.
        let pidfd = rustix::process::pidfd_open(
            rustix::process::Pid::from_raw(other).unwrap(),
            rustix::process::PidfdFlags::empty(),
        )
        .unwrap();
        let gone = Caller {
            pid: other,
            pidfd: Some(pidfd),
        };
        assert!(gone.still_there());
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!gone.still_there());
        assert!(gone.folder().is_none());
    }

    #[test]
    fn stat_reads_names_with_parentheses_and_spaces() {
        let me = std::process::id() as i32;
        let (ppid, start) = stat(me).unwrap();
        assert!(ppid > 0 && start > 0);
    }
}
