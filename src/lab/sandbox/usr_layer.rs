//! /usr as on Ubuntu (supervisor side, before the first login).
//!
//! The machine's programs: bubblewrap shows them at /usr/local/bin and /usr/local/sbin
//! (`layout::FALLBACK_PROGRAMS`); here each of /usr/bin and /usr/sbin gets an overlay whose
//! lower half is the folder as it was (the host's programs) and whose upper half, a tmpfs no
//! path leads to, holds the machine's, which then leave /usr/local. So `rocminfo` is
//! /usr/bin/rocminfo for `which`, `ls`, `type` and `dpkg -S` alike, a package's tool lands
//! there, root may add a link there, and /usr/local/bin is empty as on Ubuntu. The host's own
//! /usr/bin stays readable at `layout::HOST_BIN` for the tools that hand over to the real `ls`
//! or `stat`. Where the kernel refuses any of it, the programs stay in /usr/local.
//!
//! A lab started by root: the rest of /usr too is owned by root and writable by root, while
//! the host's /usr stays as it is. The supervisor puts the copy the app
//! sent (`app::usr_map`) at /usr and a writable layer over it (an overlay whose upper half is a
//! tmpfs nobody can reach), then puts the lab's own /usr/local back on top. Where any of that
//! fails, /usr stays the read-only bind it was.

use std::io;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::CWD;
use rustix::mount::{MountFlags, MoveMountFlags, OpenTreeFlags, UnmountFlags};

use crate::lab::wire::layout::{FALLBACK_PROGRAMS, HOST_BIN, PROGRAMS, USR_FD};

/// The most the lab's changes to /usr may take (with /tmp and the home: 1.5 GiB in all); the
/// machine's programs and what root adds beside them have as much again.
pub const LAYER_SIZE: u64 = 512 << 20;

/// Where a tmpfs is mounted for a moment while a layer is made: once the overlay holds it,
/// it is detached from every path.
const SCRATCH: &str = "/mnt";

/// Whether the machine's programs are in /usr/bin and /usr/sbin (else in /usr/local).
static IN_USR: AtomicBool = AtomicBool::new(false);

/// The folder whose bin and sbin hold the machine's programs, for the simulated tools
/// (`sim::fsx::PROGRAMS_ENV`).
pub fn programs_dir() -> &'static str {
    if IN_USR.load(Ordering::Relaxed) {
        "/usr"
    } else {
        FALLBACK_PROGRAMS
    }
}

/// Before the first login, while the supervisor may still mount: the writable /usr of a lab
/// started by root (when the app sent its copy on `USR_FD`), then, with `programs`, the
/// machine's programs in /usr/bin and /usr/sbin. Each part quietly leaves things as they were
/// on failure; the error says what failed first.
pub fn install(programs: bool) -> io::Result<()> {
    // Shown before /usr changes: what is at /usr/bin now is the host's own, read-only.
    let shown = programs && show_host_bin().is_ok();
    let layered = root_layer();
    let laid = if shown {
        let laid = lay_programs();
        if laid.is_err() {
            // The real programs are at /usr/bin again: no second view of them.
            let _ = rustix::mount::unmount(HOST_BIN, UnmountFlags::DETACH);
            let _ = std::fs::remove_dir(HOST_BIN);
        }
        laid
    } else {
        Ok(())
    };
    layered.and(laid)
}

/// Shows the host's /usr/bin at `HOST_BIN`, read-only or not at all.
fn show_host_bin() -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let at = Path::new(HOST_BIN);
    std::fs::create_dir_all(at)?;
    std::fs::set_permissions(at, std::fs::Permissions::from_mode(0o755))?;
    let flags = OpenTreeFlags::OPEN_TREE_CLONE | OpenTreeFlags::OPEN_TREE_CLOEXEC;
    let tree = rustix::mount::open_tree(CWD, "/usr/bin", flags)?;
    rustix::mount::move_mount(
        tree.as_fd(),
        "",
        CWD,
        at,
        MoveMountFlags::MOVE_MOUNT_F_EMPTY_PATH,
    )?;
    let read_only = rustix::fs::statvfs(at)
        .is_ok_and(|s| s.f_flag.contains(rustix::fs::StatVfsMountFlags::RDONLY));
    if !read_only {
        let _ = rustix::mount::unmount(at, UnmountFlags::DETACH);
        let _ = std::fs::remove_dir(at);
        return Err(io::Error::other("the host's /usr/bin is not read-only"));
    }
    Ok(())
}

/// The tmpfs at `SCRATCH` a layer's upper half lives on.
fn scratch_tmpfs() -> io::Result<()> {
    let size = std::ffi::CString::new(format!("size={LAYER_SIZE},mode=0755"))?;
    rustix::mount::mount(
        "tmpfs",
        SCRATCH,
        "tmpfs",
        MountFlags::NOSUID,
        size.as_c_str(),
    )?;
    Ok(())
}

/// An overlay at `at` over what is there, with `upper` and `work` on the scratch tmpfs.
fn overlay(at: &Path, upper: &Path, work: &Path) -> io::Result<()> {
    let opts = format!(
        "lowerdir={},upperdir={},workdir={}",
        at.display(),
        upper.display(),
        work.display()
    );
    let mount = |opts: &str| -> io::Result<()> {
        let opts = std::ffi::CString::new(opts)?;
        rustix::mount::mount(
            "overlay",
            at,
            "overlay",
            MountFlags::NOSUID,
            opts.as_c_str(),
        )?;
        Ok(())
    };
    // In a user namespace the kernel may want the layer's own attributes as user.* xattrs.
    mount(&opts).or_else(|_| mount(&format!("{opts},userxattr")))
}

/// The machine's programs from /usr/local into overlays at /usr/bin and /usr/sbin.
fn lay_programs() -> io::Result<()> {
    // (where, the /usr/local folders whose programs go there)
    let mut layers: Vec<(PathBuf, Vec<PathBuf>)> = Vec::new();
    for (inside, _) in PROGRAMS {
        let at = Path::new("/").join(inside);
        let name = inside.rsplit('/').next().unwrap_or(inside);
        let from = Path::new(FALLBACK_PROGRAMS).join(name);
        let is_dir = std::fs::symlink_metadata(&at).is_ok_and(|m| m.is_dir());
        match layers.first_mut() {
            // A merged /usr/sbin (a link to bin, as some systems have it): its programs join
            // bin's.
            Some((_, sources)) if !is_dir => sources.push(from),
            _ if is_dir => layers.push((at, vec![from])),
            _ => {
                return Err(io::Error::other(format!(
                    "{} is not a folder",
                    at.display()
                )));
            }
        }
    }
    scratch_tmpfs()?;
    let mut mounted: Vec<&Path> = Vec::new();
    let made = (|| {
        for (i, (at, sources)) in layers.iter().enumerate() {
            let upper = Path::new(SCRATCH).join(format!("{i}/upper"));
            let work = Path::new(SCRATCH).join(format!("{i}/work"));
            std::fs::create_dir_all(&upper)?;
            std::fs::create_dir_all(&work)?;
            for from in sources {
                copy_programs(from, &upper)?;
            }
            overlay(at, &upper, &work)?;
            mounted.push(at);
        }
        Ok::<(), io::Error>(())
    })();
    let _ = rustix::mount::unmount(SCRATCH, UnmountFlags::DETACH);
    if let Err(e) = made {
        for at in mounted {
            let _ = rustix::mount::unmount(at, UnmountFlags::DETACH);
        }
        return Err(e);
    }
    IN_USR.store(true, Ordering::Relaxed);
    // They are in /usr now: /usr/local/bin and /usr/local/sbin are empty, as on Ubuntu.
    for (_, sources) in &layers {
        for from in sources {
            for name in names(from)? {
                let _ = std::fs::remove_file(from.join(name));
            }
        }
    }
    Ok(())
}

/// The entries of a folder of programs (the app wrote them: wrappers and links).
fn names(dir: &Path) -> io::Result<Vec<std::ffi::OsString>> {
    match std::fs::read_dir(dir) {
        Ok(rd) => rd.map(|e| e.map(|e| e.file_name())).collect(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

/// Copies the files and links of `from` into `to` with their modes, owners and times.
fn copy_programs(from: &Path, to: &Path) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    for name in names(from)? {
        let (src, dst) = (from.join(&name), to.join(&name));
        let m = std::fs::symlink_metadata(&src)?;
        if m.file_type().is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&src)?, &dst)?;
        } else if m.is_file() {
            std::fs::copy(&src, &dst)?;
        } else {
            // Nothing but programs and links lives there.
            continue;
        }
        let _ = std::os::unix::fs::lchown(&dst, Some(m.uid()), Some(m.gid()));
        let ts = |s: i64, ns: i64| rustix::fs::Timespec {
            tv_sec: s,
            tv_nsec: ns as _,
        };
        let times = rustix::fs::Timestamps {
            last_access: ts(m.atime(), m.atime_nsec()),
            last_modification: ts(m.mtime(), m.mtime_nsec()),
        };
        let _ = rustix::fs::utimensat(CWD, &dst, &times, rustix::fs::AtFlags::SYMLINK_NOFOLLOW);
        if m.is_file() {
            // The change of owner cleared any set-id bit.
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dst, std::fs::Permissions::from_mode(m.mode() & 0o7777))?;
        }
    }
    Ok(())
}

/// The copy of /usr from `USR_FD` (when the app sent one), made the writable /usr.
fn root_layer() -> io::Result<()> {
    // The app put the copy there for this process alone; from here it is owned (and closed)
    // here, so no program the supervisor starts inherits it.
    let Some(usr) = super::sys::take_fd(USR_FD) else {
        return Ok(());
    };
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
    let layered = (|| {
        scratch_tmpfs()?;
        let scratch = Path::new(SCRATCH);
        std::fs::create_dir(scratch.join("upper"))?;
        std::fs::create_dir(scratch.join("work"))?;
        overlay(
            Path::new("/usr"),
            &scratch.join("upper"),
            &scratch.join("work"),
        )
    })();
    let _ = rustix::mount::unmount(SCRATCH, UnmountFlags::DETACH);
    // The lab's /usr/local goes back on top whatever became of the layer: the machine's own
    // programs are there until `lay_programs` takes them.
    rustix::mount::move_mount(
        local.as_fd(),
        "",
        CWD,
        "/usr/local",
        MoveMountFlags::MOVE_MOUNT_F_EMPTY_PATH,
    )?;
    layered
}
