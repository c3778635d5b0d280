//! Device nodes real to every program, in a lab started by root: `stat`, `test -c`, `ls /dev`
//! and tab completion see /dev/kfd and /dev/dri/* with the machine's major and minor, owner,
//! group and mode. Only the host's root may make a device node, so the app makes every node
//! the machine may have in a pool before the sandbox starts; the supervisor shows in /dev the
//! ones the machine has now, each a bind mount of its pool node, and gives each the owner,
//! group and mode udev gave it. The pool and /dev are nodev mounts: a node is seen, never
//! opened (whether a simulated tool may open it is the simulator's call, from these same
//! permissions: `sim::State::read_back_nodes`).

use std::collections::BTreeMap;
use std::io;
use std::os::fd::AsRawFd;
use std::path::Path;
use std::sync::Mutex;

use rustix::fs::{AtFlags, CWD, Mode, OFlags};

use crate::lab::wire::layout::{POOL, POOL_FD, pool_name};
use crate::sim::accounts;
use crate::sim::state::{DevNode, State};

/// Supervisor side, once the machine's folders are in place: mounts the pool the app sent on
/// `POOL_FD` at `POOL`. Nothing to do when none was sent (the lab was not started by root).
pub fn install_pool() -> io::Result<()> {
    // The app put the pool there for this process alone; from here it is owned, and closed,
    // here.
    let Some(pool) = super::sys::take_fd(POOL_FD) else {
        return Ok(());
    };
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
    let Some(st) = crate::sim_host::char_device(&d.path, d.major, d.minor) else {
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
