//! The copy of /usr a lab started by root gets (app side; `sandbox::usr_layer` puts it in
//! place): the host's /usr belongs to the host's root, whom the lab's namespace does not map,
//! so the app (the host's root) makes a detached, read-only copy of the /usr mount whose ids
//! read through a map like the lab's (`idmap::Mapper`): a file of host uid 0 is the lab's
//! root, one of gid 42 is the machine's group 42.
//!
//! An idmapped mount takes a user namespace that holds the map. A process in this app cannot
//! make one for itself (the kernel refuses `unshare(CLONE_NEWUSER)` to a process with
//! threads, and forking one that has threads is unsafe), so a fresh process of this binary
//! makes it (`HOLD`): it unshares, says so, and waits while the map is written.

use std::io::{self, Read};
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;

use rustix::fs::CWD;
use rustix::mount::OpenTreeFlags;

use crate::lab::app::idmap::Mapper;
use crate::sys::{MountAttr, mount_setattr};

/// The hidden subcommand of the process that holds the namespace.
pub const HOLD: &str = "__userns-hold";

/// A detached, read-only copy of the host's /usr whose ids read as `mapper` maps them; `exe`
/// is this binary. Made once per app process and mapper, and cloned for each lab where the
/// kernel clones detached mounts: making one takes a process and a namespace, a few
/// milliseconds.
pub fn idmapped_usr(mapper: &Mapper, exe: &Path) -> io::Result<OwnedFd> {
    static MADE: Mutex<Option<(Mapper, OwnedFd)>> = Mutex::new(None);
    let clone = |tree: &OwnedFd| {
        rustix::mount::open_tree(
            tree,
            "",
            OpenTreeFlags::OPEN_TREE_CLONE
                | OpenTreeFlags::OPEN_TREE_CLOEXEC
                | OpenTreeFlags::AT_RECURSIVE
                | OpenTreeFlags::AT_EMPTY_PATH,
        )
    };
    let mut made = MADE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((for_mapper, tree)) = made.as_ref()
        && for_mapper == mapper
        && let Ok(copy) = clone(tree)
    {
        return Ok(copy);
    }
    let tree = make_idmapped_usr(mapper, exe)?;
    match clone(&tree) {
        Ok(copy) => {
            *made = Some((mapper.clone(), tree));
            Ok(copy)
        }
        // A kernel that does not clone detached mounts: this lab takes the tree itself.
        Err(_) => Ok(tree),
    }
}

fn make_idmapped_usr(mapper: &Mapper, exe: &Path) -> io::Result<OwnedFd> {
    let ns = userns_with_map(mapper, exe)?;
    let flags = OpenTreeFlags::OPEN_TREE_CLONE
        | OpenTreeFlags::OPEN_TREE_CLOEXEC
        | OpenTreeFlags::AT_RECURSIVE;
    let tree = rustix::mount::open_tree(CWD, "/usr", flags)?;
    mount_setattr(tree.as_fd(), MountAttr::read_only().idmapped(ns.as_fd()))?;
    Ok(tree)
}

/// Makes the detached mount `tree` (and every mount under it) read-only.
pub fn make_read_only(tree: std::os::fd::BorrowedFd) -> io::Result<()> {
    mount_setattr(tree, MountAttr::read_only())
}

/// A user namespace with the lab's maps, held by its fd: a `HOLD` process makes it and
/// waits while the maps are written, then ends when its stdin closes.
fn userns_with_map(mapper: &Mapper, exe: &Path) -> io::Result<OwnedFd> {
    let mut holder = Command::new(exe)
        .arg(HOLD)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let pid = holder.id();
    let made = (|| {
        let mut said = [0u8; 1];
        holder
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("the namespace's holder has no output"))?
            .read_exact(&mut said)?;
        if said != [1] {
            return Err(io::Error::other("cannot create a user namespace"));
        }
        let pid = i32::try_from(pid).map_err(io::Error::other)?;
        mapper.write(pid)?;
        let ns = std::fs::File::open(format!("/proc/{pid}/ns/user"))?;
        Ok(OwnedFd::from(ns))
    })();
    drop(holder.stdin.take());
    let _ = holder.wait();
    made
}

/// `HOLD`: in a fresh, single-threaded process, unshares a user namespace, says whether it
/// could (one byte, 1 or 0), and waits until the app closes stdin.
pub fn hold_main() -> i32 {
    use std::io::Write;
    let made = crate::sys::unshare_user_namespace().is_ok();
    let mut out = io::stdout();
    if out
        .write_all(&[u8::from(made)])
        .and_then(|()| out.flush())
        .is_err()
    {
        return 1;
    }
    let mut rest = [0u8; 1];
    while matches!(io::stdin().read(&mut rest), Ok(n) if n > 0) {}
    i32::from(!made)
}
