//! Changing identity inside the lab sandbox.
//!
//! With the machine's ids (`idmap`), the supervisor and the tools are root, and a program
//! changes ids for real (`ids::switch_to`), with the capabilities the kernel gives or takes.
//!
//! With a single uid, `sudo` cannot be setuid. Instead it creates a user namespace in which the
//! learner is root: root there has CAP_DAC_OVERRIDE over the stage's files (whose owner is
//! mapped), so it can write the read-only /etc, while the host stays out of reach. `su -
//! learner` from such a root does the reverse: a namespace in which that root is uid 1000, whose
//! capabilities are dropped at the next `exec` (`become_id`).

use std::io;

use crate::lab::wire::layout::LEARNER_UID;

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
    super::sys::unshare_user_namespace()?;
    // An unprivileged namespace may only map our own ids, and must give up setgroups first.
    std::fs::write("/proc/self/setgroups", "deny")?;
    std::fs::write("/proc/self/uid_map", format!("{uid} {cur_uid} 1"))?;
    std::fs::write("/proc/self/gid_map", format!("{gid} {cur_gid} 1"))?;
    Ok(())
}

/// Whether this process's user namespace maps the machine's ids (started by root or by a
/// user with subordinate ids) rather than the learner's uid alone: then its root changes
/// identity for real (`switch_to`).
pub fn many_ids() -> bool {
    let Ok(map) = std::fs::read_to_string("/proc/self/uid_map") else {
        return false;
    };
    let mapped: u64 = map
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2)?.parse::<u64>().ok())
        .sum();
    mapped > 1
}

/// Keeps CAP_SYS_ADMIN and CAP_SETPCAP to this thread (and the threads it starts): out of the
/// bounding, inheritable and ambient sets, so no program started from here, root's included,
/// ever holds them. Call first, while the process has one thread.
pub fn keep_to_self() -> io::Result<()> {
    use rustix::thread::{
        CapabilitySet, capabilities, clear_ambient_capability_set,
        remove_capability_from_bounding_set, set_capabilities,
    };
    clear_ambient_capability_set()?;
    let mut sets = capabilities(None)?;
    sets.inheritable
        .remove(CapabilitySet::SYS_ADMIN | CapabilitySet::SETPCAP);
    set_capabilities(None, sets)?;
    remove_capability_from_bounding_set(CapabilitySet::SYS_ADMIN)?;
    // Last: dropping from the bounding set needs CAP_SETPCAP itself.
    remove_capability_from_bounding_set(CapabilitySet::SETPCAP)?;
    Ok(())
}

/// A lab of one id starts as root of its namespace (the learner's host uid), so that the
/// supervisor may move the machine into memory (`in_memory`). Then it leaves for a namespace of
/// its own that maps the learner's uid and gid to that root alone, and gives up every
/// capability: from here on, it and every login are the learner, as bubblewrap's `--uid`
/// would have made them. Before any thread starts (the kernel requires it).
pub fn become_learner_alone() -> io::Result<()> {
    use rustix::thread::{
        CapabilitySet, CapabilitySets, clear_ambient_capability_set, set_capabilities,
    };
    let id = LEARNER_UID;
    super::sys::unshare_user_namespace()?;
    std::fs::write("/proc/self/setgroups", "deny")?;
    std::fs::write("/proc/self/uid_map", format!("{id} 0 1"))?;
    std::fs::write("/proc/self/gid_map", format!("{id} 0 1"))?;
    clear_ambient_capability_set()?;
    set_capabilities(
        None,
        CapabilitySets {
            effective: CapabilitySet::empty(),
            permitted: CapabilitySet::empty(),
            inheritable: CapabilitySet::empty(),
        },
    )?;
    Ok(())
}
