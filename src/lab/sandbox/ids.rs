//! The ids a program in the lab runs as, and the switch to them: the calls change the calling
//! thread only and allocate nothing, so they run between fork and exec (`sys::Step::Ids`) or
//! in a process with one thread.

use std::io;

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

/// A tool the supervisor runs in a copy of itself (no exec) gives up what only the
/// supervisor keeps: CAP_SYS_ADMIN and CAP_SETPCAP, already out of its bounding set, so an
/// exec would have dropped them too (`userns::keep_to_self`).
pub fn as_a_tool() -> io::Result<()> {
    use rustix::thread::{CapabilitySet, capabilities, set_capabilities};
    let mut sets = capabilities(None)?;
    let kept = CapabilitySet::SYS_ADMIN | CapabilitySet::SETPCAP;
    if !(sets.effective | sets.permitted).intersects(kept) {
        return Ok(());
    }
    sets.effective.remove(kept);
    sets.permitted.remove(kept);
    set_capabilities(None, sets)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_is_root_and_a_user_gets_the_groups_a_login_gets() {
        let d = tempfile::tempdir().unwrap();
        let etc = d.path().join("etc");
        std::fs::create_dir_all(&etc).unwrap();
        std::fs::write(
            etc.join("passwd"),
            "root:x:0:0:root:/root:/bin/bash\nlearner:x:1000:1000::/home/learner:/bin/bash\n",
        )
        .unwrap();
        std::fs::write(
            etc.join("group"),
            "root:x:0:\nvideo:x:44:learner\nrender:x:110:\nlearner:x:1000:\n",
        )
        .unwrap();
        assert_eq!(
            account_ids(d.path(), 0, Some(vec![44])),
            Ids::new(0, 0, &[0])
        );
        // A fresh login: the primary group first, then /etc/group's.
        assert_eq!(
            account_ids(d.path(), 1000, None),
            Ids::new(1000, 1000, &[1000, 44])
        );
        // A session's groups (after newgrp render) win over the files.
        assert_eq!(
            account_ids(d.path(), 1000, Some(vec![110, 1000, 44])),
            Ids::new(1000, 110, &[110, 1000, 44])
        );
        // An account missing from passwd is itself alone.
        assert_eq!(
            account_ids(d.path(), 1001, None),
            Ids::new(1001, 1001, &[1001])
        );
    }
}
