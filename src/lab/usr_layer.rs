//! A /usr as on Ubuntu, in a lab started by root: owned by root and writable by root
//! (`sudo ln -s /opt/rocm/bin/hipcc /usr/bin/hipcc`), while the host's /usr stays as it is.
//!
//! The host's /usr belongs to the host's root, whom the lab's namespace does not map. The
//! app (the host's root) makes a detached copy of the /usr mount whose ids read through a map
//! like the lab's (`idmap::Mapper`): a file of host uid 0 is the lab's root, one of gid 42 is
//! the machine's group 42. The supervisor puts it at /usr and a writable layer over it (an
//! overlay whose upper half is a tmpfs nobody can reach), then puts the lab's own /usr/local
//! back on top. Where any of that fails, /usr stays the read-only bind it was.

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};

use rustix::fs::CWD;
use rustix::mount::{MoveMountFlags, OpenTreeFlags, UnmountFlags};

/// The fd on which the supervisor receives the copy of /usr.
pub const FD: i32 = 7;

/// The most the lab's changes to /usr may take (with /tmp and the home: 1.5 GiB in all).
pub const LAYER_SIZE: u64 = 512 << 20;

/// `struct mount_attr` (linux/mount.h), which neither rustix nor libc wraps yet.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}
const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_IDMAP: u64 = 0x0010_0000;

/// Host side: a detached, read-only copy of the host's /usr whose ids read as the lab's
/// namespace (root as `root_host`) maps them. Made once per app process and maps, and cloned
/// for each lab where the kernel clones detached mounts: making one takes a user namespace
/// of its own, a few milliseconds of every lab open.
pub fn idmapped_usr(mapper: &super::idmap::Mapper) -> io::Result<OwnedFd> {
    use std::sync::Mutex;
    static MADE: Mutex<Option<(super::idmap::Mapper, OwnedFd)>> = Mutex::new(None);
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
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((for_mapper, tree)) = made.as_ref()
        && for_mapper == mapper
        && let Ok(copy) = clone(tree)
    {
        return Ok(copy);
    }
    let tree = make_idmapped_usr(mapper)?;
    match clone(&tree) {
        Ok(copy) => {
            *made = Some((mapper.clone(), tree));
            Ok(copy)
        }
        // A kernel that does not clone detached mounts: this lab takes the tree itself.
        Err(_) => Ok(tree),
    }
}

fn make_idmapped_usr(mapper: &super::idmap::Mapper) -> io::Result<OwnedFd> {
    let ns = userns_with_map(mapper)?;
    let flags = OpenTreeFlags::OPEN_TREE_CLONE
        | OpenTreeFlags::OPEN_TREE_CLOEXEC
        | OpenTreeFlags::AT_RECURSIVE;
    let tree = rustix::mount::open_tree(CWD, "/usr", flags)?;
    set_attr(
        tree.as_fd(),
        &MountAttr {
            attr_set: MOUNT_ATTR_IDMAP | MOUNT_ATTR_RDONLY,
            attr_clr: 0,
            propagation: 0,
            userns_fd: ns.as_raw_fd() as u64,
        },
    )?;
    Ok(tree)
}

/// Makes the detached mount `tree` (and every mount under it) read-only.
pub fn make_read_only(tree: BorrowedFd) -> io::Result<()> {
    set_attr(
        tree,
        &MountAttr {
            attr_set: MOUNT_ATTR_RDONLY,
            attr_clr: 0,
            propagation: 0,
            userns_fd: 0,
        },
    )
}

/// mount_setattr(2) on `tree` and every mount under it (rustix has no wrapper for it).
fn set_attr(tree: BorrowedFd, attr: &MountAttr) -> io::Result<()> {
    // SAFETY: mount_setattr reads `size_of::<MountAttr>()` bytes from a live, properly laid
    // out struct; the path is a NUL-terminated empty string and `tree` an open fd.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            tree.as_raw_fd(),
            c"".as_ptr(),
            libc::AT_EMPTY_PATH | libc::AT_RECURSIVE,
            attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A user namespace with the lab's maps, held by its fd: a child process creates it and waits
/// while the maps are written, then exits.
fn userns_with_map(mapper: &super::idmap::Mapper) -> io::Result<OwnedFd> {
    let (ready_r, ready_w) = io::pipe()?;
    let (go_r, go_w) = io::pipe()?;
    let (ready_fd, go_fd) = (ready_w.as_raw_fd(), go_r.as_raw_fd());
    // SAFETY: the child makes only async-signal-safe system calls (unshare, write, read,
    // _exit) on fds it inherited, and never returns into Rust code.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        // SAFETY: as above; the child's own copy of the pipes.
        unsafe {
            let ok = libc::unshare(libc::CLONE_NEWUSER) == 0;
            let byte = [u8::from(ok)];
            libc::write(ready_fd, byte.as_ptr().cast(), 1);
            let mut b = [0u8; 1];
            libc::read(go_fd, b.as_mut_ptr().cast(), 1);
            libc::_exit(0);
        }
    }
    drop((ready_w, go_r));
    let result = (|| {
        let mut byte = [0u8; 1];
        io::Read::read_exact(&mut &ready_r, &mut byte)?;
        if byte[0] != 1 {
            return Err(io::Error::other("cannot create a user namespace"));
        }
        mapper.write(pid)?;
        let ns = std::fs::File::open(format!("/proc/{pid}/ns/user"))?;
        Ok(OwnedFd::from(ns))
    })();
    // A byte, not the pipe's end: the child holds a copy of this write end too.
    let _ = io::Write::write_all(&mut &go_w, b"1");
    drop(go_w);
    // SAFETY: waiting for our own child; a null status pointer is allowed.
    unsafe {
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
    result
}

/// Supervisor side, before the first login: takes the copy of /usr from `FD` (when the app
/// sent one) and makes it the writable /usr. Quietly leaves /usr as it was on any failure.
pub fn install() -> io::Result<()> {
    // SAFETY: F_GETFD only asks whether the fd is open.
    if unsafe { libc::fcntl(FD, libc::F_GETFD) } < 0 {
        return Ok(());
    }
    // SAFETY: the app put the copy on FD for this process alone; from here it is owned (and
    // closed) here, so no program the supervisor starts inherits it.
    let usr = unsafe { OwnedFd::from_raw_fd(FD) };
    let local_flags = OpenTreeFlags::OPEN_TREE_CLONE
        | OpenTreeFlags::OPEN_TREE_CLOEXEC
        | OpenTreeFlags::AT_RECURSIVE;
    let local = rustix::mount::open_tree(CWD, "/usr/local", local_flags)?;
    rustix::mount::move_mount(
        usr.as_fd(),
        "",
        CWD,
        "/usr",
        MoveMountFlags::MOVE_MOUNT_F_EMPTY_PATH,
    )?;
    // The upper half lives on a tmpfs mounted for a moment at /mnt: once the overlay holds it,
    // it is detached from every path.
    let scratch = "/mnt";
    let size = std::ffi::CString::new(format!("size={LAYER_SIZE},mode=0755"))?;
    let layered = (|| {
        rustix::mount::mount(
            "tmpfs",
            scratch,
            "tmpfs",
            rustix::mount::MountFlags::NOSUID,
            size.as_c_str(),
        )?;
        std::fs::create_dir(format!("{scratch}/upper"))?;
        std::fs::create_dir(format!("{scratch}/work"))?;
        let opts = std::ffi::CString::new(format!(
            "lowerdir=/usr,upperdir={scratch}/upper,workdir={scratch}/work"
        ))?;
        rustix::mount::mount(
            "overlay",
            "/usr",
            "overlay",
            rustix::mount::MountFlags::NOSUID,
            opts.as_c_str(),
        )?;
        Ok::<(), io::Error>(())
    })();
    let _ = rustix::mount::unmount(scratch, UnmountFlags::DETACH);
    // The lab's /usr/local goes back on top whatever became of the layer: the machine's own
    // programs live there.
    rustix::mount::move_mount(
        local.as_fd(),
        "",
        CWD,
        "/usr/local",
        MoveMountFlags::MOVE_MOUNT_F_EMPTY_PATH,
    )?;
    layered
}
