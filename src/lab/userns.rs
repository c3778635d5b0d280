//! Changing identity inside the lab sandbox with nested user namespaces.
//!
//! The sandbox has a single uid, so `sudo` cannot be setuid. Instead it creates a user namespace
//! in which the learner is root: root there has CAP_DAC_OVERRIDE over the stage's files (whose
//! owner is mapped), so it can write the read-only /etc, while the host stays out of reach.
//! `su - learner` from such a root does the reverse: a namespace in which that root is uid 1000,
//! whose capabilities are dropped at the next `exec`.

use std::io;

/// Set in the sandbox's environment; outside it nobody changes namespaces.
pub const SANDBOX_ENV: &str = "ROCM_LAB_SANDBOX";

pub fn in_sandbox() -> bool {
    std::env::var_os(SANDBOX_ENV).is_some_and(|v| v == "1")
}

pub fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Becomes `uid`/`gid` in a new user namespace (nothing to do when already `uid`).
/// Must run while the process has a single thread.
pub fn become_id(uid: u32, gid: u32) -> io::Result<()> {
    let (cur_uid, cur_gid) = (euid(), rustix::process::getegid().as_raw());
    if cur_uid == uid {
        return Ok(());
    }
    // SAFETY: unshare with CLONE_NEWUSER only changes this process's namespace membership; the
    // caller promises a single thread (the kernel refuses CLONE_NEWUSER otherwise, EINVAL).
    // rustix offers it only as `unshare_unsafe` too.
    if unsafe { libc::unshare(libc::CLONE_NEWUSER) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // An unprivileged namespace may only map our own ids, and must give up setgroups first.
    std::fs::write("/proc/self/setgroups", "deny")?;
    std::fs::write("/proc/self/uid_map", format!("{uid} {cur_uid} 1"))?;
    std::fs::write("/proc/self/gid_map", format!("{gid} {cur_gid} 1"))?;
    Ok(())
}
