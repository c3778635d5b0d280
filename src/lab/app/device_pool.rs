//! Device nodes for a lab started by root (app side; `sandbox::dev_binds` shows them): only
//! the host's root may make a device node, so the app makes every node the machine may have
//! in a pool before the sandbox starts, on a small detached tmpfs that no host path reaches.
//! The supervisor binds the ones the machine has now into /dev.

use std::io;
use std::os::fd::OwnedFd;

use rustix::fs::{AtFlags, FileType, Mode};

use crate::lab::wire::layout::pool_name;

/// Host side, as root, before the sandbox starts: a character device for each of `nodes` on
/// a small tmpfs of its own that no host path reaches (a detached mount, held by its fd), owned
/// by `owner`, the lab's root, and mode 0700. Nothing of it is on the host's disk, no host
/// process can open it, and it goes when the lab's last reference does.
pub fn make_pool(nodes: &[(u32, u32)], owner: (u32, u32)) -> io::Result<OwnedFd> {
    let pool = empty_pool(owner)?;
    fill_pool(&pool, nodes, owner)?;
    Ok(pool)
}

/// The pool's tmpfs, empty: the sandbox may start with it while the machine (and so the list
/// of its nodes) is being built, as long as it is filled before the supervisor mounts it.
pub fn empty_pool(owner: (u32, u32)) -> io::Result<OwnedFd> {
    use rustix::mount::{
        FsMountFlags, FsOpenFlags, MountAttrFlags, fsconfig_create, fsconfig_set_string, fsmount,
        fsopen,
    };
    let fs = fsopen("tmpfs", FsOpenFlags::FSOPEN_CLOEXEC)?;
    fsconfig_set_string(&fs, "size", "64k")?;
    fsconfig_set_string(&fs, "mode", "0700")?;
    fsconfig_set_string(&fs, "uid", owner.0.to_string().as_str())?;
    fsconfig_set_string(&fs, "gid", owner.1.to_string().as_str())?;
    fsconfig_create(&fs)?;
    let pool = fsmount(
        &fs,
        FsMountFlags::FSMOUNT_CLOEXEC,
        MountAttrFlags::MOUNT_ATTR_NODEV
            | MountAttrFlags::MOUNT_ATTR_NOSUID
            | MountAttrFlags::MOUNT_ATTR_NOEXEC,
    )?;
    Ok(pool)
}

/// Makes a node for each of `nodes` in `pool`, owned by `owner` and mode 0600.
pub fn fill_pool(pool: &OwnedFd, nodes: &[(u32, u32)], owner: (u32, u32)) -> io::Result<()> {
    for &(major, minor) in nodes {
        let name = pool_name((major, minor));
        rustix::fs::mknodat(
            pool,
            name.as_str(),
            FileType::CharacterDevice,
            Mode::from_raw_mode(0o600),
            rustix::fs::makedev(major, minor),
        )?;
        rustix::fs::chownat(
            pool,
            name.as_str(),
            Some(rustix::fs::Uid::from_raw(owner.0)),
            Some(rustix::fs::Gid::from_raw(owner.1)),
            AtFlags::SYMLINK_NOFOLLOW,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_holds_each_node_as_the_labs_root_owns_it() {
        if !rustix::process::geteuid().is_root() {
            eprintln!("skipped: only root makes device nodes");
            return;
        }
        let owner = (1_000_100, 1_000_100);
        let pool = make_pool(&[(226, 128), (235, 0)], owner).unwrap();
        for (major, minor) in [(226, 128), (235, 0)] {
            let st = rustix::fs::statat(
                &pool,
                pool_name((major, minor)).as_str(),
                AtFlags::SYMLINK_NOFOLLOW,
            )
            .unwrap();
            assert_eq!(
                FileType::from_raw_mode(st.st_mode),
                FileType::CharacterDevice
            );
            assert_eq!(st.st_mode & 0o7777, 0o600);
            assert_eq!((st.st_uid, st.st_gid), owner);
            assert_eq!(rustix::fs::major(st.st_rdev), major);
            assert_eq!(rustix::fs::minor(st.st_rdev), minor);
        }
        // The pool itself is the lab root's and closed to everyone else.
        let top = rustix::fs::fstat(&pool).unwrap();
        assert_eq!((top.st_uid, top.st_gid), owner);
        assert_eq!(top.st_mode & 0o777, 0o700);
    }
}
