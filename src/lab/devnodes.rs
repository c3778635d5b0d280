//! Device nodes real to every program, in a lab started by root: `stat`, `test -c`, `ls /dev`
//! and tab completion see /dev/kfd and /dev/dri/* with the machine's major and minor, owner,
//! group and mode. Only the host's root may make a device node, so the app makes every node
//! the machine may have in a pool before the sandbox starts; the supervisor shows in /dev the
//! ones the machine has now, each a bind mount of its pool node, and gives each the owner,
//! group and mode udev gave it. The pool and /dev are nodev mounts: a node is seen, never
//! opened (whether a simulated tool may open it is the simulator's call, from these same
//! permissions: `sim::devnodes::read_back`).

use std::collections::BTreeMap;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;
use std::sync::Mutex;

use rustix::fs::{AtFlags, CWD, FileType, Mode, OFlags};

use crate::sim::accounts;
use crate::sim::state::{DevNode, State};

/// Where the supervisor mounts the pool, which the app hands it on `FD`.
pub const POOL: &str = "/run/rocm-lab/devices";

/// The fd on which the supervisor receives the pool.
pub const FD: i32 = 8;

fn pool_name((major, minor): (u32, u32)) -> String {
    format!("c{major}_{minor}")
}

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

/// Supervisor side, once the machine's folders are in place: mounts the pool the app sent on
/// `FD` at `POOL`. Nothing to do when none was sent (the lab was not started by root).
pub fn install_pool() -> io::Result<()> {
    use std::os::fd::FromRawFd;
    // SAFETY: F_GETFD only asks whether the fd is open.
    if unsafe { libc::fcntl(FD, libc::F_GETFD) } < 0 {
        return Ok(());
    }
    // SAFETY: the fd is open (checked above) and the app put the pool there for this process
    // alone; from here it is owned, and closed, here.
    let pool = unsafe { OwnedFd::from_raw_fd(FD) };
    match std::fs::create_dir(POOL) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
        _ => {}
    }
    rustix::mount::move_mount(
        std::os::fd::AsFd::as_fd(&pool),
        "",
        CWD,
        POOL,
        rustix::mount::MoveMountFlags::MOVE_MOUNT_F_EMPTY_PATH,
    )?;
    Ok(())
}

/// Whether this lab shows real nodes (a pool was made for it).
fn enabled() -> bool {
    Path::new(POOL).is_dir()
}

/// The /dev paths shown now, each with the udev events whose values it was given.
static SHOWN: Mutex<BTreeMap<String, u64>> = Mutex::new(BTreeMap::new());

/// Supervisor side, at the start and after each tool: /dev shows the machine's nodes as its
/// state (as recorded: `load_recorded`) has them; it is read each time, as a file's
/// modification time is too coarse to tell two quick tools apart. A node added is shown, one
/// removed (the driver unloaded) is taken away, and one that went through a udev event since
/// it was last given its values gets the owner, group and mode of that event; a `chmod` or
/// `chown` in between stays, as on a real machine. Nothing to do where there is no pool.
pub fn sync() {
    let Ok(mut shown) = SHOWN.lock() else {
        return;
    };
    if !enabled() {
        return;
    }
    let root = Path::new("/");
    let Ok(state) = State::load_recorded(root) else {
        return;
    };
    let want: Vec<&DevNode> = state
        .devices
        .iter()
        .filter(|d| safe_path(&d.path) && pool_node(d).is_some())
        .collect();
    let gone: Vec<String> = shown
        .keys()
        .filter(|p| !want.iter().any(|d| d.path == **p))
        .cloned()
        .collect();
    for path in gone {
        hide(&path);
        shown.remove(&path);
    }
    let mut names: Option<(Vec<accounts::PasswdEntry>, accounts::Groups)> = None;
    for d in want {
        match shown.get(&d.path) {
            Some(events) if *events == d.events => continue,
            Some(_) => {}
            None => {
                if show(d).is_err() {
                    continue;
                }
            }
        }
        let (users, groups) =
            names.get_or_insert_with(|| (accounts::users(root), accounts::Groups::load(root)));
        let uid = users
            .iter()
            .find(|u| u.name == d.owner)
            .map_or_else(|| d.owner.parse().unwrap_or(0), |u| u.uid);
        let gid = groups
            .by_name(&d.group)
            .map_or_else(|| d.group.parse().unwrap_or(0), |g| g.gid);
        set_ids(d, uid, gid);
        shown.insert(d.path.clone(), d.events);
    }
}

/// `/dev/NAME` or `/dev/dri/NAME`: the only places the machine's nodes live.
fn safe_path(path: &str) -> bool {
    let name = path
        .strip_prefix("/dev/dri/")
        .or_else(|| path.strip_prefix("/dev/"));
    name.is_some_and(|n| !n.is_empty() && !n.contains('/') && n != "." && n != "..")
}

fn pool_node(d: &DevNode) -> Option<String> {
    let p = format!("{POOL}/{}", pool_name((d.major, d.minor)));
    Path::new(&p).exists().then_some(p)
}

/// Makes an empty file at the node's path (never through a symlink, replacing whatever root
/// left there) and binds the pool's node over it.
fn show(d: &DevNode) -> io::Result<()> {
    let pool = pool_node(d).ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
    let path = Path::new(&d.path);
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(io::ErrorKind::InvalidInput.into());
    };
    if parent != Path::new("/dev") {
        match std::fs::create_dir(parent) {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
            _ => {}
        }
    }
    let dir = rustix::fs::open(
        parent,
        OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW,
        Mode::empty(),
    )?;
    let create =
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let file = match rustix::fs::openat(&dir, name, create, Mode::from_raw_mode(0o600)) {
        Err(rustix::io::Errno::EXIST) => {
            rustix::fs::unlinkat(&dir, name, AtFlags::empty())?;
            rustix::fs::openat(&dir, name, create, Mode::from_raw_mode(0o600))?
        }
        other => other?,
    };
    rustix::mount::mount_bind(
        pool.as_str(),
        format!("/proc/self/fd/{}", file.as_raw_fd()).as_str(),
    )?;
    Ok(())
}

fn hide(path: &str) {
    use rustix::mount::{UnmountFlags, unmount};
    let _ = unmount(path, UnmountFlags::DETACH | UnmountFlags::NOFOLLOW);
    let _ = std::fs::remove_file(path);
    // The folder goes with its last node, as when the last DRM driver unloads.
    if let Some(parent) = Path::new(path).parent().filter(|p| *p != Path::new("/dev")) {
        let _ = std::fs::remove_dir(parent);
    }
}

/// Gives a shown node the owner, group and mode the machine has for it, when they differ.
fn set_ids(d: &DevNode, uid: u32, gid: u32) {
    let Some(st) = crate::sim::devnodes::real(d) else {
        return;
    };
    // The path is a mount point: nothing can be renamed or unlinked over it meanwhile.
    if (st.st_uid, st.st_gid) != (uid, gid) {
        let _ = rustix::fs::chownat(
            CWD,
            d.path.as_str(),
            Some(rustix::process::Uid::from_raw(uid)),
            Some(rustix::process::Gid::from_raw(gid)),
            AtFlags::SYMLINK_NOFOLLOW,
        );
    }
    if st.st_mode & 0o7777 != d.mode {
        let _ = rustix::fs::chmod(d.path.as_str(), Mode::from_raw_mode(d.mode));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_live_in_dev_or_dev_dri_only() {
        for ok in ["/dev/kfd", "/dev/dri/renderD128", "/dev/dri/card0"] {
            assert!(safe_path(ok), "{ok}");
        }
        for bad in [
            "/etc/shadow",
            "/dev/",
            "/dev/dri/",
            "/dev/../etc/x",
            "/dev/a/b",
            "/dev/dri/..",
        ] {
            assert!(!safe_path(bad), "{bad}");
        }
    }
}
