//! Whether the learner may run a program, with the learner's own rights (uid and groups), not
//! the supervisor's: a check that asks "does a new login find hipcc" must not count a program
//! the learner's login would get "Permission denied" for.

use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::lab::wire::layout::{LEARNER_UID, host_path};
use crate::sim::accounts;

/// Who asks: a uid and its groups.
pub struct Rights {
    uid: u32,
    gids: Vec<u32>,
}

const READ: u32 = 4;
const SEARCH: u32 = 1;

impl Rights {
    /// A new login of the learner: the account's uid and the groups /etc/group gives it now.
    pub fn new_login(root: &Path) -> Self {
        match accounts::user_by_uid(root, LEARNER_UID) {
            Some(pw) => Self {
                uid: pw.uid,
                gids: accounts::db_gids(root, &pw),
            },
            None => Self::of(LEARNER_UID, vec![LEARNER_UID]),
        }
    }

    pub fn of(uid: u32, gids: Vec<u32>) -> Self {
        Self { uid, gids }
    }

    /// The permission `bit` (READ or SEARCH/execute) in `m`'s mode for this user. Root reads
    /// and searches everything, and runs what has any execute bit.
    fn may(&self, m: &Metadata, bit: u32) -> bool {
        let mode = m.mode();
        if self.uid == 0 {
            return bit != SEARCH || m.is_dir() || mode & 0o111 != 0;
        }
        let shift = if m.uid() == self.uid {
            6
        } else if self.gids.contains(&m.gid()) {
            3
        } else {
            0
        };
        (mode >> shift) & bit != 0
    }
}

/// Where `inside` (a path of the machine) ends, links followed, when `who` may run it: every
/// folder on the way searchable, the file executable, and a script (`#!`) readable too, as
/// its interpreter reads it.
pub fn runnable(root: &Path, inside: &str, who: &Rights) -> Option<String> {
    let end = crate::machine_path::resolve(inside, |p| host_path(root, p))?;
    for p in [inside, end.as_str()] {
        let mut dir = Path::new(p).parent();
        while let Some(d) = dir {
            let m = std::fs::metadata(host_path(root, d.to_str()?)).ok()?;
            if !who.may(&m, SEARCH) {
                return None;
            }
            dir = d.parent();
        }
    }
    let host = host_path(root, &end);
    let m = std::fs::metadata(&host).ok()?;
    if !m.is_file() || !who.may(&m, SEARCH) {
        return None;
    }
    if is_script(&host) && !who.may(&m, READ) {
        return None;
    }
    Some(end)
}

fn is_script(host: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 2];
    std::fs::File::open(host)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| head == *b"#!")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn file(dir: &Path, name: &str, text: &str, mode: u32) {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn the_owner_others_and_scripts_are_told_apart() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join("opt/tool/bin")).unwrap();
        let bin = root.join("opt/tool/bin");
        file(&bin, "script", "#!/bin/sh\n", 0o711);
        file(&bin, "binary", "\x7fELF", 0o711);
        file(&bin, "plain", "data", 0o644);
        let me = rustix::process::geteuid().as_raw();
        // Someone else: others' bits only.
        let other = Rights::of(me.wrapping_add(4242).max(1), vec![]);
        assert!(runnable(root, "/opt/tool/bin/binary", &other).is_some());
        assert!(runnable(root, "/opt/tool/bin/script", &other).is_none());
        assert!(runnable(root, "/opt/tool/bin/plain", &other).is_none());
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert!(runnable(root, "/opt/tool/bin/binary", &other).is_none());
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}
