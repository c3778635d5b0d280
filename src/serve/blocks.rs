//! Which blocks of host ids (`lab::app::idmap`) the sessions of every `serve` on this machine
//! hold: one lock file per block in a folder of the server's user, each taken with a
//! non-blocking exclusive `flock`. Two servers (two classes, or two on one class folder)
//! therefore never give two learners the same block, and a block is free again as soon as its
//! holder lets go of it or dies: the kernel drops a dead process's locks, so a crashed server
//! leaks no ids and nothing needs cleaning up.
//!
//! The blocks come from the server user's ids (root's range, or the user's subordinate ids),
//! so the folder is that user's: only processes of that user take part, and only they can
//! write it.

use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use rustix::fs::{FlockOperation, Mode, OFlags};

/// The folder of lock files for this user's servers. Root: under /run, which only root may
/// write and which is emptied at boot, when no lab can run. Others: their runtime folder (also
/// theirs alone, and emptied when they have no session), else their state folder.
pub fn default_dir() -> Option<PathBuf> {
    const NAME: &str = "rocm-learn-host-ids";
    if rustix::process::geteuid().is_root() {
        return Some(Path::new("/run").join(NAME));
    }
    let var = |v: &str| {
        std::env::var_os(v)
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
    };
    if let Some(run) = var("XDG_RUNTIME_DIR").filter(|d| d.is_absolute()) {
        return Some(run.join(NAME));
    }
    let home = var("HOME").filter(|d| d.is_absolute())?;
    Some(home.join(".local/state/rocm-learn").join(NAME))
}

/// How many blocks this user's labs have: root's whole range, or as many as the subordinate
/// ids hold (none without).
pub fn capacity() -> u32 {
    use crate::lab::app::idmap::{MAX_SLOTS, slots_in};
    if rustix::process::geteuid().is_root() {
        return MAX_SLOTS;
    }
    crate::lab::app::bwrap::subordinate_ranges()
        .map_or(0, |(_, uids, gids)| slots_in(uids).min(slots_in(gids)))
}

/// The lock folder, opened.
pub struct Blocks {
    dir: OwnedFd,
    path: PathBuf,
    count: u32,
}

/// One block, held until dropped (or the process ends).
#[derive(Debug)]
pub struct Held {
    n: u32,
    lab: PathBuf,
    _claim: OwnedFd,
}

impl Held {
    pub fn number(&self) -> u32 {
        self.n
    }

    /// The block's lab lock, which the session's app holds shared while it lives
    /// (`lab::app::idmap::hold`): a block is not free while a lab of it may still run, even
    /// when the server that gave it out has died.
    pub fn lab_lock(&self) -> &Path {
        &self.lab
    }
}

impl Blocks {
    /// Opens (making it, mode 0700, if missing) the folder `path` of `count` blocks. The folder
    /// is opened without following a link, and must be this user's and writable by no one else:
    /// whoever could write it could take every block, or hand two servers the same one.
    pub fn open(path: &Path, count: u32) -> io::Result<Blocks> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        match rustix::fs::mkdir(path, Mode::from_raw_mode(0o700)) {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(e) => return Err(e.into()),
        }
        let flags = OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::RDONLY | OFlags::CLOEXEC;
        let dir = rustix::fs::open(path, flags, Mode::empty())?;
        let st = rustix::fs::fstat(&dir)?;
        if st.st_uid != rustix::process::geteuid().as_raw() || st.st_mode & 0o022 != 0 {
            return Err(io::Error::other(format!(
                "{} is not a folder of this user's that only it may write",
                path.display()
            )));
        }
        Ok(Blocks {
            dir,
            path: path.to_path_buf(),
            count,
        })
    }

    /// The lowest block no process on the machine holds, taken; none when all are. A block
    /// is two locks: `N`, which its server holds, and `N.lab`, which its session's app holds
    /// shared (`Held::lab_lock`). It is free when neither is held; no other server can take
    /// it between this check of `N.lab` and the app's hold, because this one holds `N`.
    pub fn take(&self) -> Option<Held> {
        (0..self.count).find_map(|n| {
            let claim = self.lock(&n.to_string())?;
            let lab = format!("{n}.lab");
            drop(self.lock(&lab)?);
            Some(Held {
                n,
                lab: self.path.join(lab),
                _claim: claim,
            })
        })
    }

    /// `name` in the folder, locked for this open file alone, if no one else holds it. Locks
    /// belong to the open file: a second open in this same process is refused too, so the
    /// server's own sessions are kept apart by the same means.
    fn lock(&self, name: &str) -> Option<OwnedFd> {
        let flags = OFlags::CREATE | OFlags::RDWR | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let file = rustix::fs::openat(&self.dir, name, flags, Mode::from_raw_mode(0o600)).ok()?;
        rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive).ok()?;
        Some(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn two_allocators_never_hold_the_same_block_and_a_dropped_one_is_free() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("blocks");
        let (a, b) = (
            Blocks::open(&path, 3).unwrap(),
            Blocks::open(&path, 3).unwrap(),
        );
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        let a0 = a.take().unwrap();
        let b1 = b.take().unwrap();
        let a2 = a.take().unwrap();
        assert_eq!([a0.number(), b1.number(), a2.number()], [0, 1, 2]);
        assert!(b.take().is_none(), "all three are held");
        drop(b1);
        assert_eq!(a.take().unwrap().number(), 1);
    }

    #[test]
    fn a_block_of_a_process_that_died_is_free_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("blocks");
        let blocks = Blocks::open(&path, 2).unwrap();
        // Another process holds block 0 the same way a server does (util-linux's flock, on
        // the shell's descriptor, which `sleep` inherits and holds until it dies).
        let mut holder = std::process::Command::new("sh")
            .arg("-c")
            .arg("exec 9>\"$1\" && flock -x 9 && exec sleep 60")
            .arg("sh")
            .arg(path.join("0"))
            .spawn()
            .expect("sh runs");
        let held = (0..500).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            blocks.take().is_some_and(|h| h.number() == 1)
        });
        assert!(held, "the other process's block was given out");
        holder.kill().unwrap();
        holder.wait().unwrap();
        assert_eq!(blocks.take().unwrap().number(), 0);
    }

    #[test]
    fn a_block_whose_app_still_runs_is_not_given_out_after_its_server_let_go() {
        let dir = tempfile::tempdir().unwrap();
        let blocks = Blocks::open(&dir.path().join("blocks"), 2).unwrap();
        let held = blocks.take().unwrap();
        assert_eq!(held.number(), 0);
        // The session's app holds the block's lab lock, as it does under serve...
        let app = crate::lab::app::idmap::hold(held.lab_lock()).unwrap();
        // ...and the server is gone: block 0 is still its lab's.
        drop(held);
        assert_eq!(blocks.take().unwrap().number(), 1);
        drop(app);
        assert_eq!(blocks.take().unwrap().number(), 0);
    }

    #[test]
    fn a_folder_others_may_write_or_a_link_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let open = dir.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(Blocks::open(&open, 1).is_err());
        let link = dir.path().join("link");
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(Blocks::open(&link, 1).is_err());
    }
}
