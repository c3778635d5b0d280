//! Every `unsafe` block of the sandbox's side: adopting the descriptors the app placed, code
//! between fork and exec, signal dispositions and the process's environment. Each is wrapped
//! once here with its reason; the host's side has its own such module (`crate::sys`).

#![allow(unsafe_code)]

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::Command;

use super::ids::{self, Ids};

/// Takes ownership of descriptor `fd`, which the app (or the supervisor) placed for this
/// process, marked close-on-exec so no program started from here inherits it; None when
/// nothing is open there.
pub fn take_fd(fd: i32) -> Option<OwnedFd> {
    // SAFETY: F_GETFD touches no memory; on a number that is not open it fails with EBADF.
    if unsafe { libc::fcntl(fd, libc::F_GETFD) } < 0 {
        return None;
    }
    // SAFETY: the descriptor is open (checked above), and nothing else in this process owns
    // it: each fixed number of `wire::layout` (and the broker's REPORT_FD) is taken by one
    // place, once, and the returned owner is the only one.
    let owned = unsafe { OwnedFd::from_raw_fd(fd) };
    let _ = rustix::io::fcntl_setfd(&owned, rustix::io::FdFlags::CLOEXEC);
    Some(owned)
}

/// Moves this process into a new user namespace. The kernel refuses (EINVAL) when the process
/// has more than one thread, so only a single-threaded process may call it.
pub fn unshare_user_namespace() -> io::Result<()> {
    // SAFETY: rustix marks unshare unsafe for CLONE_FILES, which can leave another thread's
    // descriptors dangling; a new user namespace shares or drops no memory or descriptor.
    unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWUSER)? };
    Ok(())
}

/// Ignores each of `signals` (no handler runs).
pub fn ignore_signals(signals: &[libc::c_int]) {
    for &s in signals {
        // SAFETY: SIG_IGN installs no handler code, so nothing can run at an unsafe moment.
        unsafe {
            libc::signal(s, libc::SIG_IGN);
        }
    }
}

/// Ends this process by `signal`, as a process killed by it ends (the shell reports it
/// alike); returns the status to exit with should the signal not end it.
pub fn die_by(signal: i32) -> i32 {
    // SAFETY: restores the default action (no handler code) and raises the signal on this
    // process; no memory is involved.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
    128 + signal
}

/// Removes `names` from this process's environment. Call it only as the first thing of a
/// process's `main`, before any thread starts: the one caller is `broker::trusted::main`,
/// which `main.rs` dispatches before anything else runs.
pub fn forget_vars_at_start(names: &[&str]) {
    for name in names {
        // SAFETY: no other thread exists yet to read the environment (see above).
        unsafe { std::env::remove_var(name) };
    }
}

/// One thing a child does between fork and exec.
#[derive(Debug)]
pub enum Step {
    /// Becomes these ids for real (`ids::switch_to`).
    Ids(Ids),
    /// A session of its own, with its stdin (a terminal) as the controlling terminal.
    OwnTerminal,
    /// The default action back for each signal the supervisor ignores.
    DefaultSignals(&'static [libc::c_int]),
    /// The address-space limit, in bytes (RLIMIT_AS; a lower hard limit is kept).
    LimitMemory(u64),
    /// Descriptor `from` also at `to`, without close-on-exec.
    Dup { from: i32, to: i32 },
    /// Joins process group `pgid` when it is above 0; the result is not checked (a caller in
    /// another session keeps the child in the supervisor's group).
    JoinGroup(i32),
}

/// Has the child `cmd` starts take `step` before it runs its program (after the steps added
/// before it).
pub fn in_child(cmd: &mut Command, step: Step) {
    // SAFETY: between fork and exec the closure may only make async-signal-safe calls and must
    // not allocate. Each arm makes system calls only (setgroups/setres[ug]id/capset through
    // rustix, setsid, ioctl, signal, setrlimit, dup2, setpgid) on values moved in before the
    // fork: `Ids` holds its group list already allocated, and nothing is built in the child.
    unsafe {
        cmd.pre_exec(move || match &step {
            Step::Ids(ids) => ids::switch_to(ids),
            Step::OwnTerminal => {
                rustix::process::setsid()?;
                rustix::process::ioctl_tiocsctty(rustix::fd::BorrowedFd::borrow_raw(0))?;
                Ok(())
            }
            Step::DefaultSignals(signals) => {
                for &s in *signals {
                    libc::signal(s, libc::SIG_DFL);
                }
                Ok(())
            }
            Step::LimitMemory(bytes) => limit_memory(*bytes),
            Step::Dup { from, to } => {
                if libc::dup2(*from, *to) < 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            }
            Step::JoinGroup(pgid) => {
                if *pgid > 0 {
                    libc::setpgid(0, *pgid);
                }
                Ok(())
            }
        });
    }
}

/// Holds this process (and what it starts) to `bytes` of address space. A hard limit already
/// below it holds the process tighter: nothing to do then.
pub fn limit_memory(bytes: u64) -> io::Result<()> {
    use rustix::process::{Resource, Rlimit, setrlimit};
    let lim = Rlimit {
        current: Some(bytes),
        maximum: Some(bytes),
    };
    match setrlimit(Resource::As, lim) {
        Err(rustix::io::Errno::PERM) | Ok(()) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// Gives this thread (and what it starts) the kernel's default CPU turn back: the app's
/// short turn (`crate::sys::set_turn`) is for the threads that carry keystrokes, not for the
/// learner's programs. The policy and nice value are kept; an older kernel changes nothing.
pub fn default_turn() {
    /// `struct sched_attr` (linux/sched/types.h).
    #[repr(C)]
    #[derive(Default)]
    struct SchedAttr {
        size: u32,
        policy: u32,
        flags: u64,
        nice: i32,
        priority: u32,
        runtime: u64,
        deadline: u64,
        period: u64,
    }
    // SAFETY: plain system calls about this thread, with a struct laid out as the kernel's.
    unsafe {
        if libc::sched_getscheduler(0) != libc::SCHED_OTHER {
            return;
        }
        *libc::__errno_location() = 0;
        let nice = libc::getpriority(libc::PRIO_PROCESS, 0);
        if nice == -1 && *libc::__errno_location() != 0 {
            return;
        }
        // A runtime of 0 asks for the default turn.
        let attr = SchedAttr {
            size: std::mem::size_of::<SchedAttr>() as u32,
            policy: libc::SCHED_OTHER as u32,
            nice,
            ..SchedAttr::default()
        };
        libc::syscall(libc::SYS_sched_setattr, 0, &raw const attr, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;
    use std::process::Stdio;

    #[test]
    fn a_number_nothing_is_open_on_is_not_taken() {
        // Far above anything a test process opens.
        assert!(take_fd(4000).is_none());
    }

    #[test]
    fn a_taken_fd_is_owned_and_kept_from_programs_started_later() {
        let (r, w) = std::io::pipe().unwrap();
        let raw = OwnedFd::from(r);
        let n = raw.as_raw_fd();
        std::mem::forget(raw);
        let fd = take_fd(n).expect("open");
        let flags = rustix::io::fcntl_getfd(&fd).unwrap();
        assert!(flags.contains(rustix::io::FdFlags::CLOEXEC));
        drop(w);
    }

    #[test]
    fn steps_run_in_the_child_in_order() {
        let (r, _w) = std::io::pipe().unwrap();
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "test -e /proc/self/fd/77 && ulimit -v"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped());
        in_child(
            &mut cmd,
            Step::Dup {
                from: r.as_raw_fd(),
                to: 77,
            },
        );
        in_child(&mut cmd, Step::LimitMemory(1 << 30));
        let out = cmd.output().unwrap();
        assert!(out.status.success());
        // ulimit -v reports KiB.
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1048576");
    }
}
