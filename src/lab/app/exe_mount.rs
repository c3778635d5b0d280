//! The binary a lab started by root runs inside (app side): one copy in a private tmpfs per
//! app process, of which each lab gets a read-only mount by descriptor. Copying 17 MB into
//! every lab's memory (twice: bubblewrap's copy, then the supervisor's) was the largest part
//! of opening a lab. The tmpfs is detached (`fsmount`): no host path leads to it, and the
//! lab's mountinfo shows it as `/rocm-learn` on a tmpfs. Where the kernel refuses to clone a
//! mount of a detached tree (older kernels do), the lab gets the binary by a plain
//! descriptor and copies it, as before.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::sync::OnceLock;

use rustix::fs::{Mode, OFlags};
use rustix::mount::{
    FsMountFlags, FsOpenFlags, MountAttrFlags, OpenTreeFlags, fsconfig_create, fsconfig_set_string,
    fsmount, fsopen, open_tree,
};

/// The copy's name in its tmpfs.
const NAME: &str = "rocm-learn";

/// A read-only mount of the binary for one lab, or None where this kernel or this user
/// cannot make one (the lab then copies the binary from a plain descriptor). `owner`: the
/// host ids root inside the lab has, so that the binary is root's there, as a copy made
/// inside would be (the mount is read-only, so root cannot change it).
pub fn for_lab(exe: &Path, owner: (u32, u32)) -> Option<OwnedFd> {
    static COPY: OnceLock<Option<((u32, u32), OwnedFd)>> = OnceLock::new();
    let (made_for, copy) = COPY
        .get_or_init(|| copy_once(exe, owner).ok().map(|c| (owner, c)))
        .as_ref()?;
    if *made_for != owner {
        return None;
    }
    open_tree(
        copy,
        NAME,
        OpenTreeFlags::OPEN_TREE_CLONE | OpenTreeFlags::OPEN_TREE_CLOEXEC,
    )
    .ok()
}

/// The detached tmpfs holding the copy, read-only once written; its fd keeps it alive for as
/// long as the app runs.
fn copy_once(exe: &Path, owner: (u32, u32)) -> io::Result<OwnedFd> {
    let mut from = std::fs::File::from(rustix::fs::open(
        exe,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?);
    let len = from.metadata()?.len();
    let fs = fsopen("tmpfs", FsOpenFlags::FSOPEN_CLOEXEC)?;
    fsconfig_set_string(&fs, "size", (len + 64 * 1024).to_string().as_str())?;
    fsconfig_set_string(&fs, "mode", "0755")?;
    fsconfig_create(&fs)?;
    let mnt = fsmount(
        &fs,
        FsMountFlags::FSMOUNT_CLOEXEC,
        MountAttrFlags::MOUNT_ATTR_NOSUID | MountAttrFlags::MOUNT_ATTR_NODEV,
    )?;
    let to = rustix::fs::openat(
        &mnt,
        NAME,
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o755),
    )?;
    rustix::fs::fchown(
        &to,
        Some(rustix::process::Uid::from_raw(owner.0)),
        Some(rustix::process::Gid::from_raw(owner.1)),
    )?;
    // Closed before the mount turns read-only: a file open for writing keeps it busy.
    io::copy(&mut from, &mut std::fs::File::from(to))?;
    crate::lab::app::usr_map::make_read_only(mnt.as_fd())?;
    // A kernel that cannot clone from a detached tree says so now, not at each lab.
    open_tree(
        &mnt,
        NAME,
        OpenTreeFlags::OPEN_TREE_CLONE | OpenTreeFlags::OPEN_TREE_CLOEXEC,
    )?;
    Ok(mnt)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As root, each lab gets a mount of the same bytes, read-only and owned by the lab's
    /// root, unless the kernel refuses to clone a detached mount (then none, and the lab
    /// copies the binary); as another user, none.
    #[test]
    fn each_lab_gets_a_mount_of_the_same_copy_or_none() {
        let exe = std::env::current_exe().unwrap();
        let nobody = (65534, 65534);
        if let Err(e) = copy_once(&exe, nobody) {
            let refused = e.raw_os_error() == Some(libc::EINVAL);
            assert!(
                !rustix::process::geteuid().is_root() || refused,
                "as root, only the kernel's refusal to clone may stop the copy: {e}"
            );
            assert!(for_lab(&exe, nobody).is_none());
            return;
        }
        let one = for_lab(&exe, nobody).expect("a lab gets one");
        let two = for_lab(&exe, nobody).expect("a second lab gets one too");
        assert!(
            for_lab(&exe, (1, 1)).is_none(),
            "a lab whose root is another id copies the binary"
        );
        for fd in [&one, &two] {
            let path = format!("/proc/self/fd/{}", rustix::fd::AsRawFd::as_raw_fd(fd));
            let m = std::fs::metadata(&path).unwrap();
            assert_eq!(m.len(), std::fs::metadata(&exe).unwrap().len());
            use std::os::unix::fs::MetadataExt;
            assert_eq!((m.uid(), m.gid(), m.mode() & 0o7777), (65534, 65534, 0o755));
            assert!(
                std::fs::OpenOptions::new().write(true).open(&path).is_err(),
                "the copy is read-only"
            );
        }
    }
}
