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
