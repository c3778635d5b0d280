//! Every `unsafe` block of the sandbox's side: adopting the descriptors the app placed, code
//! between fork and exec, signal dispositions and the process's environment. Each is wrapped
//! once here with its reason; the host's side has its own such module (`crate::sys`).

#![allow(unsafe_code)]

use std::io;
use std::os::fd::{BorrowedFd, FromRawFd, OwnedFd};
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

/// Forks this process and runs `child` in the new one, which then ends with the status it
/// returns (or 101 on a panic) without returning here; the parent gets the child's pid.
///
/// The child is a copy of a process with other threads, of which only the calling one goes on:
/// `child` must not wait on a lock another thread may have held at the fork. glibc makes its
/// allocator usable in such a child; what `child` may not touch is the standard library's
/// stdout and stderr (their locks) or the environment's lock for writing, and the supervisor's
/// own mutexes (`broker::trusted::run_forked` keeps to that).
pub fn fork_then(child: impl FnOnce() -> i32) -> io::Result<i32> {
    // SAFETY: fork has no memory-safety preconditions of its own; what the child may do in a
    // copy of a threaded process is the contract above, kept by the one caller.
    match unsafe { libc::fork() } {
        -1 => Err(io::Error::last_os_error()),
        0 => {
            let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(child)).unwrap_or(101);
            // SAFETY: ends this process at once: no exit handlers, no flushing of buffers that
            // are copies of the parent's.
            unsafe { libc::_exit(code) }
        }
        pid => Ok(pid),
    }
}

/// In a child of `fork_then`: puts the caller's `stdio` on 0, 1 and 2, each descriptor of
/// `keep` (a number open in this process: `(from, to)`) on its number `to`, without
/// close-on-exec, and closes every other descriptor the copy of the parent holds (another
/// request's terminal or reply socket among them). An owner of a closed number that is still
/// alive must not be dropped: the child ends with `_exit` or an exec.
pub fn adopt_streams(stdio: [OwnedFd; 3], keep: &[(i32, i32)]) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    // First out of the way of every target number (a source may sit on another's target).
    let lift = |fd: i32| -> io::Result<i32> {
        // SAFETY: F_DUPFD_CLOEXEC touches no memory; on a number that is not open it fails.
        let n = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 1000) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(n)
    };
    let mut moves = Vec::with_capacity(3 + keep.len());
    for (fd, to) in stdio.iter().zip([0, 1, 2]) {
        moves.push((lift(fd.as_raw_fd())?, to));
    }
    drop(stdio);
    for &(fd, to) in keep {
        moves.push((lift(fd)?, to));
    }
    for &(from, to) in &moves {
        // SAFETY: dup2 onto a number this child reserves for it (0-2 and the broker's fixed
        // numbers); nothing in this process owns the number it replaces.
        if unsafe { libc::dup2(from, to) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    // Everything but the targets goes, the lifted copies with it.
    let mut targets: Vec<u32> = moves.iter().map(|&(_, to)| to as u32).collect();
    targets.sort_unstable();
    // Where close_range is missing (Linux before 5.9, a seccomp filter), each number up to the
    // limit on open files is closed one by one: a descriptor left open would reach the
    // learner's program the tool hands over to.
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    let open_max = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit) } == 0 {
        u32::try_from(limit.rlim_cur).unwrap_or(u32::MAX)
    } else {
        1 << 20
    };
    let mut from = 0u32;
    for t in targets.into_iter().chain([u32::MAX]) {
        if t > from {
            // SAFETY: closes numbers only; none of them is owned by anything this child
            // still uses (the copies of the parent's owners are never dropped: the child
            // ends with `_exit` or an exec).
            if unsafe { libc::close_range(from, t - 1, 0) } < 0 {
                for fd in from..t.min(open_max) {
                    // SAFETY: as above.
                    unsafe { libc::close(fd as libc::c_int) };
                }
            }
        }
        from = t.saturating_add(1);
    }
    Ok(())
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
/// below it holds the process tighter: nothing to do then. Only for a process about to exec
/// (`Step::LimitMemory`): one that goes on running may already map more.
fn limit_memory(bytes: u64) -> io::Result<()> {
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

/// A pidfd of the process at the other end of the unix socket `sock` (SO_PEERPIDFD, Linux 6.5
/// and later): the process itself, never a later one given the same pid. None where the
/// kernel has no such option, or that process is gone.
pub fn peer_pidfd(sock: BorrowedFd) -> Option<OwnedFd> {
    use std::os::fd::AsRawFd;
    let mut fd: libc::c_int = -1;
    let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: getsockopt writes at most `len` bytes into `fd`, which is that large.
    let r = unsafe {
        libc::getsockopt(
            sock.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERPIDFD,
            (&raw mut fd).cast(),
            &raw mut len,
        )
    };
    if r < 0 || fd < 0 {
        return None;
    }
    // SAFETY: the kernel just opened this descriptor (close-on-exec, as every pidfd) for this
    // call; nothing else owns it.
    Some(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Whether the process `pidfd` names has not been reaped yet (so its pid is still its own).
pub fn pidfd_alive(pidfd: BorrowedFd) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: signal 0 sends nothing (the kernel only looks the process up); the info
    // pointer may be null.
    let r = unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            pidfd.as_raw_fd(),
            0,
            std::ptr::null::<libc::siginfo_t>(),
            0,
        )
    };
    // EPERM: there, but not ours to signal.
    r == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Runs `f` with this thread's filesystem ids (the ones the kernel checks access with) set to
/// `uid` and `gid`, then puts the previous ones back. Only this thread changes: the kernel
/// keeps filesystem ids per thread, and glibc does not pass setfsuid on to the others.
pub fn with_fs_ids<T>(uid: u32, gid: u32, f: impl FnOnce() -> T) -> T {
    // SAFETY: setfsgid and setfsuid change this thread's credentials only; no memory is
    // involved. Each returns the previous id, put back below.
    let (old_gid, old_uid) = unsafe { (libc::setfsgid(gid), libc::setfsuid(uid)) };
    let out = f();
    // SAFETY: as above.
    unsafe {
        libc::setfsuid(old_uid as libc::uid_t);
        libc::setfsgid(old_gid as libc::gid_t);
    }
    out
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
    fn a_forked_child_gets_the_callers_streams_and_none_of_the_parents_other_descriptors() {
        let open = |fd: i32| unsafe { libc::fcntl(fd, libc::F_GETFD) } >= 0;
        let (out_r, out_w) = std::io::pipe().unwrap();
        let (_kept_r, kept_w) = std::io::pipe().unwrap();
        let (_other_r, other_w) = std::io::pipe().unwrap();
        let other = other_w.as_raw_fd();
        let null = || OwnedFd::from(std::fs::File::open("/dev/null").unwrap());
        let stdio = [null(), OwnedFd::from(out_w), null()];
        let kept = kept_w.as_raw_fd();
        let pid = fork_then(move || {
            if adopt_streams(stdio, &[(kept, 77)]).is_err() {
                return 3;
            }
            // The kept socket is on its number, another request's is gone.
            let verdict: &[u8] = if open(77) && !open(other) {
                b"ok"
            } else {
                b"leak"
            };
            let _ = rustix::io::write(rustix::stdio::stdout(), verdict);
            0
        })
        .unwrap();
        let mut got = String::new();
        std::io::Read::read_to_string(&mut std::fs::File::from(OwnedFd::from(out_r)), &mut got)
            .unwrap();
        let status = rustix::process::waitpid(
            rustix::process::Pid::from_raw(pid),
            rustix::process::WaitOptions::empty(),
        )
        .unwrap()
        .unwrap()
        .1;
        assert_eq!(got, "ok");
        assert_eq!(status.exit_status(), Some(0));
        drop((kept_w, other_w));
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
