//! Changing identity inside the lab sandbox.
//!
//! With the machine's ids (`idmap`), the supervisor and the tools are root, and a program
//! changes ids for real (`switch_to`), with the capabilities the kernel gives or takes.
//!
//! With a single uid, `sudo` cannot be setuid. Instead it creates a user namespace in which the
//! learner is root: root there has CAP_DAC_OVERRIDE over the stage's files (whose owner is
//! mapped), so it can write the read-only /etc, while the host stays out of reach. `su -
//! learner` from such a root does the reverse: a namespace in which that root is uid 1000, whose
//! capabilities are dropped at the next `exec` (`become_id`).

use std::io;

/// Set in the sandbox's environment; outside it nobody changes namespaces.
/// The learner's uid and gid inside the sandbox.
pub const LEARNER_UID: u32 = 1000;

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

/// The ids a program runs as: uid, primary gid and supplementary groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ids {
    uid: rustix::process::Uid,
    gid: rustix::process::Gid,
    groups: Vec<rustix::process::Gid>,
}

impl Ids {
    pub fn new(uid: u32, gid: u32, groups: &[u32]) -> Ids {
        use rustix::process::{Gid, Uid};
        Ids {
            uid: Uid::from_raw(uid),
            gid: Gid::from_raw(gid),
            groups: groups.iter().map(|g| Gid::from_raw(*g)).collect(),
        }
    }

    pub fn uid(&self) -> u32 {
        self.uid.as_raw()
    }
}

/// The ids of the machine's account `uid` (at `root`): root's; or the account's with `gids`, a
/// session's groups, the first the primary one (as login and newgrp leave it); or, without
/// them, those /etc/group gives a fresh login.
pub fn account_ids(root: &std::path::Path, uid: u32, gids: Option<Vec<u32>>) -> Ids {
    use crate::sim::accounts;
    if uid == 0 {
        return Ids::new(0, 0, &[0]);
    }
    let gids = gids.filter(|g| !g.is_empty()).unwrap_or_else(|| {
        accounts::user_by_uid(root, uid)
            .map_or_else(|| vec![uid], |pw| accounts::db_gids(root, &pw))
    });
    Ids::new(uid, gids[0], &gids)
}

/// Becomes `ids` for real (in a namespace with many ids, as its root): groups first, then the
/// gid, then the uid, which takes every capability away when it is not 0. The calls change
/// the calling thread only and allocate nothing, so this runs between fork and exec or in a
/// process with one thread.
pub fn switch_to(ids: &Ids) -> io::Result<()> {
    use rustix::thread::{set_thread_groups, set_thread_res_gid, set_thread_res_uid};
    set_thread_groups(&ids.groups)?;
    set_thread_res_gid(ids.gid, ids.gid, ids.gid)?;
    set_thread_res_uid(ids.uid, ids.uid, ids.uid)?;
    if !ids.uid.is_root() {
        // The uid change emptied the effective, permitted and ambient sets; the inheritable
        // one goes too, so that nothing a user runs can take a capability up again.
        use rustix::thread::{CapabilitySet, CapabilitySets, set_capabilities};
        let none = CapabilitySet::empty();
        set_capabilities(
            None,
            CapabilitySets {
                effective: none,
                permitted: none,
                inheritable: none,
            },
        )?;
    }
    Ok(())
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
        CapabilitySet, CapabilitySets, UnshareFlags, clear_ambient_capability_set,
        set_capabilities, unshare_unsafe,
    };
    let id = LEARNER_UID;
    // SAFETY: only a new user namespace: no file descriptor table or memory is unshared,
    // which is what could leave Rust's view of the process wrong.
    unsafe { unshare_unsafe(UnshareFlags::NEWUSER)? };
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
