//! The machine in memory (supervisor side, before the first login). bubblewrap shows the
//! stage's folders, which the app built on the host's disk; here every folder a learner or
//! root may write (/etc, /home, /opt, /var, /tmp, /run/rocm-lab, /usr/local) is copied into one
//! sized tmpfs and mounted in place of the stage's, and the stage's mounts are detached. From
//! then on nothing the lab writes reaches the host's disk, one budget holds it all (the real
//! "No space left on device" past it), no host path shows in /proc/self/mountinfo, and the
//! app may remove the stage at once: nothing of the lab is left on the host to clean up.
//!
//! It needs CAP_SYS_ADMIN in the user namespace that owns the lab's mounts. Where the copy
//! fails (no such capability), the lab runs on the stage's folders as before, and says so.

use std::io;
use std::path::{Path, PathBuf};

use std::os::fd::OwnedFd;

use rustix::fs::{AtFlags, CWD, FileType, Mode, OFlags, Timestamps};
use rustix::mount::{MountFlags, UnmountFlags};

/// The folders moved into memory, as mounted in the sandbox.
const TOPS: [&str; 7] = [
    "etc",
    "home",
    "opt",
    "var",
    "tmp",
    "run/rocm-lab",
    "usr/local",
];

/// The most entries copied: a stage is the app's, but a pack's files add to it.
const MAX_ENTRIES: u32 = 100_000;

/// Where the tmpfs is mounted while it is filled: detached once its folders are in place.
const SCRATCH: &str = "/mnt";

/// Moves the machine into memory. Ok(false): it could not be copied, and the lab runs on the
/// stage as bubblewrap showed it. Err: the copy was made but could not be put in place (or a
/// stage handed by descriptor could not be copied); the lab cannot go on.
/// `budget`: what the lab may write in all, over the copy of the machine, in bytes.
/// `handing`: what came with a stage handed by descriptor, when it was.
pub fn install(user: &str, handing: Option<Handing>, budget: u64) -> io::Result<bool> {
    let handed = handing.as_ref().and_then(|h| Handed::take(h.exe_mount));
    let host_etc = handing.as_ref().map_or(&[][..], |h| h.host_etc);
    let exe = Path::new(crate::lab::wire::layout::SIM_BIN);
    let exe_len = match handed.as_ref().and_then(|h| h.exe.as_ref()) {
        Some(_) => 0,
        None => std::fs::metadata(exe).map_or(0, |m| m.len()),
    };
    let size = std::ffi::CString::new(format!("size={},mode=0755", budget + exe_len))?;
    if let Err(e) = rustix::mount::mount(
        "tmpfs",
        SCRATCH,
        "tmpfs",
        MountFlags::NOSUID | MountFlags::NODEV,
        size.as_c_str(),
    ) {
        return match handed {
            Some(_) => Err(e.into()),
            None => Ok(false),
        };
    }
    let scratch = Path::new(SCRATCH);
    let copied = (|| {
        let mut budget = 0;
        for top in TOPS {
            // Under /run/rocm-lab, the home's first contents are a mount of their own, copied
            // into /home instead.
            let seed = Path::new(crate::lab::wire::layout::HOME_SEED)
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let skip: &[&str] = if top == "run/rocm-lab" { &[seed] } else { &[] };
            let from = handed
                .as_ref()
                .map_or_else(|| Path::new("/").join(top), |h| h.source(top));
            copy_tree(&from, &scratch.join(flat(top)), skip, &mut budget)?;
        }
        match &handed {
            Some(h) => {
                // The host /etc entries Ubuntu's programs read, over their empty mount points.
                for e in host_etc {
                    let (src, dst) = (Path::new("/etc").join(e), scratch.join("etc").join(e));
                    let Ok(m) = std::fs::symlink_metadata(&src) else {
                        continue;
                    };
                    if m.is_dir() {
                        copy_tree(&src, &dst, &[], &mut budget)?;
                    } else if m.is_file() {
                        std::fs::copy(&src, &dst)?;
                    }
                }
                // The machine's programs, which bubblewrap would have bound into /usr/local.
                for (inside, dir) in [("bin", "usr/bin"), ("sbin", "usr/sbin")] {
                    let to = scratch.join(flat("usr/local")).join(inside);
                    copy_tree(&h.stage().join(dir), &to, &[], &mut budget)?;
                }
                // Everyone's scratch folders, as Ubuntu makes them.
                for dir in ["tmp", "var/tmp"] {
                    let at = scratch.join(flat(dir));
                    let _ = std::fs::create_dir_all(&at);
                    use std::os::unix::fs::PermissionsExt;
                    std::fs::set_permissions(&at, std::fs::Permissions::from_mode(0o1777))?;
                }
                let cmdline = h.stage().join(crate::sim::kernel::CMDLINE_PATH);
                if cmdline.is_file() {
                    std::fs::copy(cmdline, scratch.join("cmdline"))?;
                }
                // The host's alternatives, next to the machine's own, and their mounts gone.
                for (rel, links) in crate::sim::alternatives::FOLDERS {
                    let host = crate::lab::wire::layout::host_alternatives(rel);
                    crate::sim::alternatives::adopt_host(
                        Path::new(&host),
                        // Both lie under a one-word top (etc, var): the same path in the copy.
                        &scratch.join(rel),
                        links,
                    )?;
                    let _ = rustix::mount::unmount(host.as_str(), UnmountFlags::DETACH);
                    let _ = std::fs::remove_dir(&host);
                }
                if let Some(exe) = &h.exe {
                    // The binary's own read-only mount, at its place in the copy.
                    let at = scratch
                        .join(flat("usr/local"))
                        .join(exe_path().strip_prefix("/usr/local").unwrap_or(exe_path()));
                    if let Some(dir) = at.parent() {
                        std::fs::create_dir_all(dir)?;
                    }
                    std::fs::write(&at, "")?;
                    rustix::mount::move_mount(
                        exe,
                        "",
                        CWD,
                        &at,
                        rustix::mount::MoveMountFlags::MOVE_MOUNT_F_EMPTY_PATH,
                    )?;
                }
            }
            None => {
                // The learner's home is a folder of /home like any other, seeded from the stage.
                let home = scratch.join("home").join(user);
                let seed = Path::new(crate::lab::wire::layout::HOME_SEED);
                if seed.is_dir() {
                    copy_tree(seed, &home, &[], &mut budget)?;
                }
                std::fs::copy(CMDLINE, scratch.join("cmdline"))?;
            }
        }
        Ok::<(), io::Error>(())
    })();
    // Nothing the learner starts may inherit the stage's descriptor.
    drop(handed);
    if let Err(e) = copied {
        let _ = rustix::mount::unmount(SCRATCH, UnmountFlags::DETACH);
        return if HANDED.load(std::sync::atomic::Ordering::Relaxed) {
            Err(e)
        } else {
            Ok(false)
        };
    }
    swap(scratch)?;
    // The folders hold the tmpfs now; its scratch mount point goes back to being empty.
    rustix::mount::unmount(SCRATCH, UnmountFlags::DETACH)?;
    Ok(true)
}

/// What comes with a stage handed by descriptor.
pub struct Handing<'a> {
    /// The binary is a mount (`exe_mount`) to put in place, not a file to copy.
    pub exe_mount: bool,
    /// The host /etc entries the machine takes from the host.
    pub host_etc: &'a [String],
}

/// The stage the app handed over by descriptor (`layout::STAGE_FD`), when it did, and the
/// binary's mount (`layout::EXE_FD`) when it came as one.
struct Handed {
    stage: std::os::fd::OwnedFd,
    exe: Option<std::os::fd::OwnedFd>,
}

static HANDED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The binary's path in the sandbox.
fn exe_path() -> &'static Path {
    Path::new(crate::lab::wire::layout::SIM_BIN)
}

impl Handed {
    /// Takes the stage's descriptor the app said it sent (None, and the copy fails, when
    /// it is not open), and the binary's mount when `exe_mount`.
    fn take(exe_mount: bool) -> Option<Handed> {
        HANDED.store(true, std::sync::atomic::Ordering::Relaxed);
        let exe = match exe_mount {
            true => super::sys::take_fd(crate::lab::wire::layout::EXE_FD),
            // bubblewrap copied the binary from its descriptor; whatever is left of it is
            // closed here, so no login inherits it.
            false => {
                drop(super::sys::take_fd(crate::lab::wire::layout::EXE_FD));
                None
            }
        };
        let stage = super::sys::take_fd(crate::lab::wire::layout::STAGE_FD)?;
        Some(Handed { stage, exe })
    }

    /// The stage's folder, through the descriptor: no path of the host is walked.
    fn stage(&self) -> PathBuf {
        use std::os::fd::AsRawFd;
        PathBuf::from(format!("/proc/self/fd/{}", self.stage.as_raw_fd()))
    }

    /// Where the stage keeps what the sandbox shows at `top`.
    fn source(&self, top: &str) -> PathBuf {
        match crate::lab::wire::layout::MOUNTS
            .iter()
            .find(|(inside, _)| *inside == top)
        {
            Some((_, dir)) => self.stage().join(dir),
            // /tmp and /usr/local are bubblewrap's own, not the stage's.
            None => Path::new("/").join(top),
        }
    }
}

/// The machine's kernel command line, which bubblewrap bound from the stage.
const CMDLINE: &str = "/proc/cmdline";

/// `run/rocm-lab` as one folder name of the scratch tmpfs.
fn flat(top: &str) -> String {
    top.replace('/', "-")
}

/// Puts each copied folder in place of the stage's, and the kernel command line over
/// /proc/cmdline.
fn swap(scratch: &Path) -> io::Result<()> {
    for top in TOPS {
        let at = Path::new("/").join(top);
        // Detached with everything mounted under it (the host /etc entries, /var/tmp, the
        // home's tmpfs): their contents are in the copy. A handed stage was never mounted.
        if top == "etc" {
            // The host entries bubblewrap bound one by one (on a handed stage, the only mounts
            // under /etc): the copy holds them.
            for e in crate::lab::wire::layout::HOST_ETC {
                let _ = rustix::mount::unmount(at.join(e), UnmountFlags::DETACH);
            }
        }
        match rustix::mount::unmount(&at, UnmountFlags::DETACH) {
            Ok(()) | Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOENT) => {}
            Err(e) => return Err(e.into()),
        }
        std::fs::create_dir_all(&at)?;
        // Recursive: the binary's own mount sits in /usr/local.
        rustix::mount::mount_bind_recursive(scratch.join(flat(top)), &at)?;
    }
    // bubblewrap binds it only where the stage has one; a handed stage's is bound here.
    let bound = rustix::mount::unmount(CMDLINE, UnmountFlags::DETACH).is_ok();
    if bound
        || (HANDED.load(std::sync::atomic::Ordering::Relaxed) && scratch.join("cmdline").is_file())
    {
        bind_read_only(&scratch.join("cmdline"), Path::new(CMDLINE))?;
    }
    init_as_pid_1(scratch);
    Ok(())
}

/// What `ps` and /proc show of PID 1 on an Ubuntu node: systemd, which the kernel starts as
/// /sbin/init (its cmdline) and which names itself `systemd` (its comm).
const PID1_CMDLINE: &[u8] = b"/sbin/init\0";
const PID1_NAME: &str = "systemd";

/// Shows PID 1 (bubblewrap's reaper) as a node's init: a copy of each file `ps` reads for it,
/// with the name and command line an Ubuntu node's PID 1 has, bound over the original. The
/// reaper itself is untouched; `stat` and `status` are frozen at this moment (it only ever
/// waits). A kernel that refuses a mount over a /proc/<pid> file keeps the real one.
fn init_as_pid_1(scratch: &Path) {
    let dir = scratch.join("pid1");
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let read = |f: &str| std::fs::read_to_string(format!("/proc/1/{f}")).unwrap_or_default();
    let stat = read("stat");
    // `pid (comm) state ...`: the name sits between the first '(' and the last ')'.
    let stat = match (stat.find('('), stat.rfind(')')) {
        (Some(a), Some(b)) if a < b => format!("{}({PID1_NAME}){}", &stat[..a], &stat[b + 1..]),
        _ => String::new(),
    };
    let status: String = read("status")
        .lines()
        .map(|l| match l.strip_prefix("Name:") {
            Some(_) => format!("Name:\t{PID1_NAME}\n"),
            None => format!("{l}\n"),
        })
        .collect();
    let comm = format!("{PID1_NAME}\n");
    let files: [(&str, &[u8]); 4] = [
        ("cmdline", PID1_CMDLINE),
        ("comm", comm.as_bytes()),
        ("stat", stat.as_bytes()),
        ("status", status.as_bytes()),
    ];
    for (name, text) in files {
        let copy = dir.join(name);
        if text.is_empty() || std::fs::write(&copy, text).is_err() {
            continue;
        }
        let _ = bind_read_only(&copy, Path::new(&format!("/proc/1/{name}")));
    }
}

/// Binds the file `from` over `to`, read-only: the copies stand for what the kernel shows,
/// and root in the lab must not rewrite them (`echo x > /proc/1/cmdline`). Where the kernel
/// refuses the read-only remount, the bind goes again and `to` stays as it was.
fn bind_read_only(from: &Path, to: &Path) -> io::Result<()> {
    rustix::mount::mount_bind(from, to)?;
    // A remount sets every flag of the mount: those it has (a user namespace may not drop a
    // locked nosuid, nodev or noexec) are kept.
    let has = rustix::fs::statvfs(to).map(|v| v.f_flag)?;
    let mut flags = MountFlags::BIND | MountFlags::RDONLY;
    for (st, ms) in [
        (rustix::fs::StatVfsMountFlags::NOSUID, MountFlags::NOSUID),
        (rustix::fs::StatVfsMountFlags::NODEV, MountFlags::NODEV),
        (rustix::fs::StatVfsMountFlags::NOEXEC, MountFlags::NOEXEC),
        (rustix::fs::StatVfsMountFlags::NOATIME, MountFlags::NOATIME),
        (
            rustix::fs::StatVfsMountFlags::NODIRATIME,
            MountFlags::NODIRATIME,
        ),
        (
            rustix::fs::StatVfsMountFlags::RELATIME,
            MountFlags::RELATIME,
        ),
    ] {
        if has.contains(st) {
            flags |= ms;
        }
    }
    if let Err(e) = rustix::mount::mount_remount(to, flags, "") {
        let _ = rustix::mount::unmount(to, UnmountFlags::DETACH);
        return Err(e.into());
    }
    Ok(())
}

/// Copies `from` to `to` (made here) with owners, modes and times; folders, files and symlinks
/// only. Entries named in `skip` (at the top) are left out.
///
/// One pass over descriptors: each folder is opened once and everything in it is reached
/// relative to it (a stage handed by descriptor is a path under /proc/self/fd, which every
/// path-based call would walk again), and a file is one read and one write into a file made
/// with its mode, then given its owner and times by its descriptor. Between two tmpfs
/// `copy_file_range` always fails, so it is not tried for the small files a machine is made
/// of; a large one (the binary, where it is copied) goes through the kernel's own copy.
fn copy_tree(from: &Path, to: &Path, skip: &[&str], count: &mut u32) -> io::Result<()> {
    let labelled = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", from.display()));
    let src = rustix::fs::open(from, DIR_FLAGS, Mode::empty()).map_err(|e| labelled(e.into()))?;
    // The learner's home exists already (a mount point in /home): it is filled, not made.
    match rustix::fs::mkdir(to, Mode::from_raw_mode(0o700)) {
        Ok(()) | Err(rustix::io::Errno::EXIST) => {}
        Err(e) => return Err(labelled(e.into())),
    }
    let dst = rustix::fs::open(to, DIR_FLAGS, Mode::empty()).map_err(|e| labelled(e.into()))?;
    copy_dir(&src, &dst, skip, count).map_err(labelled)
}

/// A folder opened to be read or written into, never through a symlink.
const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

/// Past this size a file is copied by the kernel (`std::io::copy`: sendfile), not read whole.
const READ_WHOLE: u64 = 1 << 20;

fn copy_dir(src: &OwnedFd, dst: &OwnedFd, skip: &[&str], count: &mut u32) -> io::Result<()> {
    let meta = rustix::fs::fstat(src)?;
    let mut names = Vec::new();
    for e in rustix::fs::Dir::read_from(src)? {
        let e = e?;
        let name = e.file_name().to_owned();
        let bytes = name.to_bytes();
        if bytes == b"." || bytes == b".." || skip.iter().any(|s| s.as_bytes() == bytes) {
            continue;
        }
        names.push(name);
    }
    for name in names {
        *count += 1;
        if *count > MAX_ENTRIES {
            return Err(io::Error::other("too many files to copy"));
        }
        let m = rustix::fs::statat(src, &name, AtFlags::SYMLINK_NOFOLLOW)?;
        match FileType::from_raw_mode(m.st_mode) {
            FileType::Directory => {
                match rustix::fs::mkdirat(dst, &name, Mode::from_raw_mode(0o700)) {
                    Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                    Err(e) => return Err(e.into()),
                }
                let from = rustix::fs::openat(src, &name, DIR_FLAGS, Mode::empty())?;
                let to = rustix::fs::openat(dst, &name, DIR_FLAGS, Mode::empty())?;
                copy_dir(&from, &to, &[], count)?;
            }
            FileType::Symlink => {
                let target = rustix::fs::readlinkat(src, &name, Vec::new())?;
                rustix::fs::symlinkat(&target, dst, &name)?;
                keep_owner_and_times_at(dst, &name, &m);
            }
            FileType::RegularFile => copy_file(src, dst, &name, &m)?,
            // Devices, FIFOs and sockets are not part of a machine the app builds.
            _ => {}
        }
    }
    // A folder gets its mode (setgid included) only once its contents are copied, and after
    // its owner (a change of owner clears the set-id bits).
    keep_owner(dst, &meta);
    rustix::fs::fchmod(dst, Mode::from_raw_mode(meta.st_mode & 0o7777))?;
    let _ = rustix::fs::futimens(dst, &times_of(&meta));
    Ok(())
}

/// One regular file: read, written into a new file of its mode, given its owner and times.
fn copy_file(
    src: &OwnedFd,
    dst: &OwnedFd,
    name: &std::ffi::CStr,
    m: &rustix::fs::Stat,
) -> io::Result<()> {
    use std::io::{Read, Write};
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut from = std::fs::File::from(rustix::fs::openat(src, name, flags, Mode::empty())?);
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mode = Mode::from_raw_mode(m.st_mode & 0o7777);
    let to = rustix::fs::openat(dst, name, flags, mode)?;
    let mut out = std::fs::File::from(to);
    let len = u64::try_from(m.st_size).unwrap_or(0);
    if len > READ_WHOLE {
        io::copy(&mut from, &mut out)?;
    } else {
        let mut buf = Vec::with_capacity(usize::try_from(len).unwrap_or(0) + 1);
        from.read_to_end(&mut buf)?;
        out.write_all(&buf)?;
    }
    keep_owner(&out, m);
    // The umask may have narrowed the mode at creation, and the owner's change cleared the
    // set-id bits.
    rustix::fs::fchmod(&out, mode)?;
    let _ = rustix::fs::futimens(&out, &times_of(m));
    Ok(())
}

/// This process's ids: a copy is made with them, and most of the machine is root's, as the
/// copier is.
fn mine() -> (u32, u32) {
    // Asked once: the copy is made before the supervisor changes its ids.
    static MINE: std::sync::OnceLock<(u32, u32)> = std::sync::OnceLock::new();
    *MINE.get_or_init(|| {
        (
            rustix::process::geteuid().as_raw(),
            rustix::process::getegid().as_raw(),
        )
    })
}

// The stat fields' widths differ between architectures.
#[allow(clippy::unnecessary_cast)]
fn times_of(m: &rustix::fs::Stat) -> Timestamps {
    let ts = |s: i64, ns: i64| rustix::fs::Timespec {
        tv_sec: s,
        tv_nsec: ns as _,
    };
    Timestamps {
        last_access: ts(m.st_atime as i64, m.st_atime_nsec as i64),
        last_modification: ts(m.st_mtime as i64, m.st_mtime_nsec as i64),
    }
}

/// The copy keeps the owner of the original where this namespace maps it.
fn keep_owner(fd: &impl std::os::fd::AsFd, m: &rustix::fs::Stat) {
    if (m.st_uid, m.st_gid) != mine() {
        let _ = rustix::fs::fchown(
            fd,
            Some(rustix::process::Uid::from_raw(m.st_uid)),
            Some(rustix::process::Gid::from_raw(m.st_gid)),
        );
    }
}

/// The same for a symlink, by its name in `dir` (a link cannot be opened).
fn keep_owner_and_times_at(dir: &OwnedFd, name: &std::ffi::CStr, m: &rustix::fs::Stat) {
    if (m.st_uid, m.st_gid) != mine() {
        let _ = rustix::fs::chownat(
            dir,
            name,
            Some(rustix::process::Uid::from_raw(m.st_uid)),
            Some(rustix::process::Gid::from_raw(m.st_gid)),
            AtFlags::SYMLINK_NOFOLLOW,
        );
    }
    let _ = rustix::fs::utimensat(dir, name, &times_of(m), AtFlags::SYMLINK_NOFOLLOW);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_keeps_modes_links_and_times_and_leaves_out_what_it_skips() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let t = tempfile::tempdir().unwrap();
        let from = t.path().join("from");
        std::fs::create_dir_all(from.join("sub")).unwrap();
        std::fs::write(from.join("sub/file"), "text").unwrap();
        std::fs::set_permissions(from.join("sub/file"), PermissionsExt::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink("sub/file", from.join("link")).unwrap();
        std::fs::create_dir(from.join("skipped")).unwrap();
        let to = t.path().join("to");
        let mut n = 0;
        copy_tree(&from, &to, &["skipped"], &mut n).unwrap();
        assert_eq!(
            std::fs::read_to_string(to.join("sub/file")).unwrap(),
            "text"
        );
        let m = std::fs::metadata(to.join("sub/file")).unwrap();
        assert_eq!(m.mode() & 0o777, 0o640);
        assert_eq!(
            m.mtime(),
            std::fs::metadata(from.join("sub/file")).unwrap().mtime()
        );
        assert_eq!(
            std::fs::read_link(to.join("link")).unwrap(),
            Path::new("sub/file")
        );
        assert!(!to.join("skipped").exists());
        assert_eq!(flat("run/rocm-lab"), "run-rocm-lab");
    }

    #[test]
    fn a_copy_stops_at_its_cap() {
        let t = tempfile::tempdir().unwrap();
        let from = t.path().join("from");
        std::fs::create_dir(&from).unwrap();
        for i in 0..5 {
            std::fs::write(from.join(i.to_string()), "").unwrap();
        }
        let mut n = MAX_ENTRIES - 2;
        assert!(copy_tree(&from, &t.path().join("to"), &[], &mut n).is_err());
    }
}
