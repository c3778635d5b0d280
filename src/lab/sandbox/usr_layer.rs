//! A /usr as on Ubuntu, in a lab started by root (supervisor side; the app makes the copy in
//! `app::usr_map`): owned by root and writable by root (`sudo ln -s /opt/rocm/bin/hipcc
//! /usr/bin/hipcc`), while the host's /usr stays as it is. The supervisor puts the copy the
//! app sent at /usr and a writable layer over it (an overlay whose upper half is a tmpfs
//! nobody can reach), then puts the lab's own /usr/local back on top. Where any of that
//! fails, /usr stays the read-only bind it was.

use std::io;
use std::os::fd::AsFd;

use rustix::fs::CWD;
use rustix::mount::{MoveMountFlags, OpenTreeFlags, UnmountFlags};

use crate::lab::wire::layout::USR_FD;

/// The most the lab's changes to /usr may take (with /tmp and the home: 1.5 GiB in all).
pub const LAYER_SIZE: u64 = 512 << 20;

/// Before the first login: takes the copy of /usr from `USR_FD` (when the app sent one) and
/// makes it the writable /usr. Quietly leaves /usr as it was on any failure.
pub fn install() -> io::Result<()> {
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
