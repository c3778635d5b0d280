//! Every `unsafe` block of the host's side: the app, `serve` and the lab's app side. Each is a
//! call the well-kept crates do not offer safely (rustix has no `mount_setattr`; code between
//! fork and exec is unsafe by nature), wrapped once here with its reason. The sandbox's side
//! has its own such module (`lab::sandbox::sys`); nothing else in the app holds `unsafe`.

#![allow(unsafe_code)]

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd};
use std::os::unix::process::CommandExt;
use std::process::Command;

/// `struct mount_attr` (linux/mount.h) for `mount_setattr`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

impl MountAttr {
    const RDONLY: u64 = 0x1;
    const IDMAP: u64 = 0x0010_0000;

    /// Read-only, nothing else changed.
    pub fn read_only() -> Self {
        MountAttr {
            attr_set: Self::RDONLY,
            attr_clr: 0,
            propagation: 0,
            userns_fd: 0,
        }
    }

    /// Also ids read through the maps of the user namespace `ns`.
    pub fn idmapped(self, ns: BorrowedFd<'_>) -> Self {
        MountAttr {
            attr_set: self.attr_set | Self::IDMAP,
            // A descriptor number is never negative.
            userns_fd: u64::try_from(ns.as_raw_fd()).unwrap_or(u64::MAX),
            ..self
        }
    }
}

/// mount_setattr(2) on the detached mount `tree` and every mount under it.
pub fn mount_setattr(tree: BorrowedFd<'_>, attr: MountAttr) -> io::Result<()> {
    // SAFETY: the kernel reads `size_of::<MountAttr>()` bytes from `attr`, which lives on this
    // frame and has the kernel's layout (repr(C), four u64); the path is a NUL-terminated
    // empty string; `tree` and the namespace fd in `attr` are borrowed, so open, for the call.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            tree.as_raw_fd(),
            c"".as_ptr(),
            libc::AT_EMPTY_PATH | libc::AT_RECURSIVE,
            &raw const attr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Moves this process into a new user namespace. The kernel refuses (EINVAL) when the process
/// has more than one thread, so only a fresh process's main may call it.
pub fn unshare_user_namespace() -> io::Result<()> {
    // SAFETY: rustix marks unshare unsafe for CLONE_FILES, which can leave another thread's
    // descriptors dangling; a new user namespace shares or drops no memory or descriptor.
    unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWUSER)? };
    Ok(())
}

/// The Landlock ABI this kernel offers, as the kernel itself answers (`None`: not built in,
/// or turned off at boot); for `doctor --labs` and the app's choice to ask for confinement.
pub fn landlock_abi() -> Option<u32> {
    // SAFETY: LANDLOCK_CREATE_RULESET_VERSION (1) with a null attribute and size 0 only
    // queries the ABI; the kernel reads no memory.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    u32::try_from(abi).ok().filter(|v| *v >= 1)
}

/// The most descriptors `place_fds` moves.
const MAX_PLACED: usize = 12;

/// Puts each fd of `fds` (source, target) at its target number in the child `cmd` starts,
/// without close-on-exec there. Each source is copied above every target first, so that no
/// move overwrites a source still to be moved. More than `MAX_PLACED` makes the spawn fail.
pub fn place_fds(cmd: &mut Command, fds: Vec<(i32, i32)>) {
    // SAFETY: between fork and exec the closure makes only fcntl and dup2 calls, both
    // async-signal-safe, and allocates nothing: `fds` is moved in and only read, `high` is
    // on the stack.
    unsafe {
        cmd.pre_exec(move || {
            if fds.len() > MAX_PLACED {
                return Err(io::Error::from_raw_os_error(libc::EMFILE));
            }
            let mut high = [0i32; MAX_PLACED];
            for (i, (from, _)) in fds.iter().enumerate() {
                high[i] = libc::fcntl(*from, libc::F_DUPFD_CLOEXEC, 64);
                if high[i] < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            for (i, (_, to)) in fds.iter().enumerate() {
                if libc::dup2(high[i], *to) < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
}

/// In the child `cmd` starts, before it runs: a session of its own with its stdin (a PTY) as
/// controlling terminal.
pub fn own_terminal(cmd: &mut Command) {
    // SAFETY: setsid and ioctl(TIOCSCTTY) are async-signal-safe system calls that allocate
    // nothing; they run between fork and exec, on fd 0 as Command set it up.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// A new descriptor (close-on-exec) for the open file behind `raw`, which a crate hands out
/// only as a number (portable-pty's master). The caller holds that crate's owner of `raw`
/// for the length of the call.
pub fn dup_raw(raw: std::os::fd::RawFd) -> io::Result<std::os::fd::OwnedFd> {
    // SAFETY: `raw` is open for the length of this call (see above); it is only read here.
    let fd = unsafe { BorrowedFd::borrow_raw(raw) };
    Ok(rustix::io::fcntl_dupfd_cloexec(fd, 0)?)
}

/// `fd` watched by the current tokio runtime (call from inside one).
pub fn watch(
    fd: std::os::fd::OwnedFd,
) -> io::Result<tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>> {
    // SAFETY: an `OwnedFd` owns its descriptor and gives the same number for as long as it
    // lives, and nothing else closes it: what `register` asks.
    unsafe { tokio::io::unix::AsyncFd::register(fd) }.map_err(|e| e.into_parts().1)
}

/// `struct sched_attr` (linux/sched/types.h), for `sched_setattr`, which libc does not wrap.
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

/// The turn for the threads that carry keystrokes and their echo: shorter than the kernel's
/// default (0.7 ms on one CPU, more on several), so they go first when they wake, yet long
/// enough for a redraw to finish in one turn rather than wait between many.
pub const SHORT_TURN_NS: u64 = 500_000;

/// Asks the kernel (Linux 6.12 and later) to run this thread, and the threads and programs it
/// starts from now on, in turns of `slice_ns` nanoseconds (0: the kernel's default turn).
///
/// A thread whose turn is shorter than the running one's is let on the CPU as soon as it
/// wakes: an echo that passes through several of our threads then does not wait behind a
/// learner's busy loop at each of them. A short turn gives no larger share of the CPU, needs no
/// privilege, and keeps the policy and nice value. An older kernel ignores the request or
/// refuses it; either way nothing changes, so the result is not reported.
pub fn set_turn(slice_ns: u64) {
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
        let attr = SchedAttr {
            size: std::mem::size_of::<SchedAttr>() as u32,
            policy: libc::SCHED_OTHER as u32,
            nice,
            runtime: slice_ns,
            ..SchedAttr::default()
        };
        libc::syscall(libc::SYS_sched_setattr, 0, &raw const attr, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsFd;
    use std::process::Stdio;

    #[test]
    fn placed_fds_arrive_at_their_numbers_even_when_they_cross() {
        let (a_r, _a_w) = std::io::pipe().unwrap();
        let (b_r, _b_w) = std::io::pipe().unwrap();
        let (a, b) = (a_r.as_raw_fd(), b_r.as_raw_fd());
        let mut cmd = Command::new("sh");
        // Each target is the other's source: a naive dup2 order would lose one.
        cmd.args(["-c", "test -e /proc/self/fd/$0 && test -e /proc/self/fd/$1"])
            .arg(b.to_string())
            .arg(a.to_string())
            .stdin(Stdio::null());
        place_fds(&mut cmd, vec![(a, b), (b, a)]);
        assert!(cmd.status().unwrap().success());
    }

    #[test]
    fn more_fds_than_it_places_fail_the_spawn_instead_of_being_dropped() {
        let (r, _w) = std::io::pipe().unwrap();
        let fd = r.as_fd().as_raw_fd();
        let mut cmd = Command::new("true");
        place_fds(
            &mut cmd,
            (0..=MAX_PLACED).map(|i| (fd, 20 + i as i32)).collect(),
        );
        assert!(cmd.status().is_err());
    }

    #[test]
    fn read_only_and_idmapped_set_both_flags() {
        let (r, _w) = std::io::pipe().unwrap();
        let a = MountAttr::read_only().idmapped(r.as_fd());
        assert_eq!(a.attr_set, MountAttr::RDONLY | MountAttr::IDMAP);
        assert_eq!(a.userns_fd, r.as_raw_fd() as u64);
    }

    /// The turn the kernel reports for this thread, where it reports one.
    fn turn() -> Option<u64> {
        let tid = unsafe { libc::gettid() };
        let text = std::fs::read_to_string(format!("/proc/self/task/{tid}/sched")).ok()?;
        let line = text.lines().find(|l| l.starts_with("se.slice"))?;
        line.split(':').nth(1)?.trim().parse().ok()
    }

    #[test]
    fn a_thread_asks_for_short_turns_and_gives_them_back() {
        std::thread::spawn(|| {
            let Some(default) = turn() else {
                return; // a kernel without per-task turns: nothing to see
            };
            set_turn(SHORT_TURN_NS);
            let short = turn().unwrap();
            // Kernels before 6.12 keep their own turn whatever is asked.
            if short != default {
                assert_eq!(short, SHORT_TURN_NS);
                // What this thread starts inherits the turn.
                let child = std::thread::spawn(turn).join().unwrap();
                assert_eq!(child, Some(SHORT_TURN_NS));
                set_turn(0);
                assert_eq!(turn(), Some(default));
            }
        })
        .join()
        .unwrap();
    }
}
