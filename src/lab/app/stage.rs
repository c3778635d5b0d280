//! A lab's stage: the folder whose etc/, opt/, home/, var/, usr/bin, usr/sbin and run/ become
//! the sandbox's. The simulated machine writes its files here first; this module adds what the lab
//! itself needs (the login loop, the prompt hook, Ubuntu's dotfiles, the tool wrappers).

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::lab::app::shell_files;

/// Gives a stage's files back before it is removed (see `Stage::reclaim_with`).
pub type Reclaim = Box<dyn FnOnce(&Path) + Send>;

pub struct Stage {
    /// Taken by `drop`, which hands it to a remover thread.
    dir: Option<tempfile::TempDir>,
    path: PathBuf,
    /// A lab whose accounts are the caller's subordinate ids leaves files only a sandbox with
    /// the same maps can give back (`bwrap::reclaim`): what does that, given the stage.
    reclaim: Option<Reclaim>,
    /// Host /etc entries bound into the machine's /etc (`layout::HOST_ETC`).
    pub host_etc: Vec<String>,
    /// The machine's user (`[machine] user`), who logs in.
    pub user: String,
    /// What the lab may write in all, in bytes (`[machine] disk_mib`).
    pub budget: u64,
}

impl Stage {
    /// An empty stage with the sandbox's folders, in a tmpfs when `in_memory` (the machine will
    /// be copied into the sandbox's memory; see `stage_dir`), else in the temporary folder.
    pub fn new(in_memory: bool) -> io::Result<Stage> {
        sweep_once();
        let prefix = format!(
            "{}{}-",
            crate::lab::app::stage_dir::PREFIX,
            std::process::id()
        );
        let dir = tempfile::Builder::new()
            .prefix(&prefix)
            .tempdir_in(crate::lab::app::stage_dir::parent(in_memory))?;
        for d in [
            "etc",
            "home",
            "opt",
            "var/tmp",
            "usr/bin",
            "usr/sbin",
            "run",
            // Mount point of the home folder's first contents (`layout::HOME_SEED`).
            "run/home-seed",
        ] {
            fs::create_dir_all(dir.path().join(d))?;
        }
        // Everyone's scratch folder, as on Ubuntu: writable by all, each file its owner's.
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(
            dir.path().join("var/tmp"),
            fs::Permissions::from_mode(0o1777),
        )?;
        Ok(Stage {
            path: dir.path().to_path_buf(),
            dir: Some(dir),
            reclaim: None,
            host_etc: Vec::new(),
            user: "learner".into(),
            budget: crate::sim::spec::DEFAULT_DISK_BYTES,
        })
    }

    pub fn root(&self) -> &Path {
        &self.path
    }

    /// Host path of a stage-relative path (`etc/group` -> `<stage>/etc/group`).
    pub fn host(&self, rel: &str) -> PathBuf {
        self.root().join(rel.trim_start_matches('/'))
    }

    /// Adds the lab's own files. `tools` are (sandbox path, tool name) pairs for the simulated
    /// system tools; files the machine already wrote are left alone.
    pub fn install(&self, user: &str, tools: &[(String, String)]) -> io::Result<()> {
        let w = |rel: &str, text: &str, mode: u32| -> io::Result<()> {
            let p = self.host(rel);
            if let Some(parent) = p.parent() {
                fs::create_dir_all(parent)?;
            }
            fs::write(&p, text)?;
            fs::set_permissions(&p, fs::Permissions::from_mode(mode))
        };
        let missing = |rel: &str| !self.host(rel).exists();
        w("etc/rocm-lab/hook.sh", shell_files::HOOK, 0o644)?;
        if missing("etc/profile") {
            w("etc/profile", shell_files::ETC_PROFILE, 0o644)?;
        }
        if missing("etc/environment") {
            w("etc/environment", shell_files::ETC_ENVIRONMENT, 0o644)?;
        }
        fs::create_dir_all(self.host("etc/profile.d"))?;
        if missing("etc/passwd") {
            w(
                "etc/passwd",
                &format!(
                    "root:x:0:0:root:/root:/bin/bash\n{user}:x:1000:1000:{user}:/home/{user}:/bin/bash\n"
                ),
                0o644,
            )?;
        }
        if missing("etc/group") {
            w("etc/group", &format!("root:x:0:\n{user}:x:1000:\n"), 0o644)?;
        }
        let home = format!("home/{user}");
        fs::create_dir_all(self.host(&home))?;
        if missing(&format!("{home}/.profile")) {
            w(&format!("{home}/.profile"), shell_files::PROFILE, 0o644)?;
        }
        if missing(&format!("{home}/.bashrc")) {
            w(&format!("{home}/.bashrc"), shell_files::BASHRC, 0o644)?;
        }
        for (path, tool) in tools {
            let rel = path.trim_start_matches('/');
            if missing(rel) {
                w(rel, &shell_files::wrapper(tool), 0o755)?;
            }
        }
        Ok(())
    }

    /// Gives the machine its own /etc/alternatives (so `update-alternatives` can change it)
    /// holding the host's choices as well as its own: `which`, `awk`, `vi`, `editor` and
    /// `pager` of the host's /usr are reached through those links. The host's records in
    /// /var/lib/dpkg/alternatives come along so `--display editor` works too. What the machine
    /// already has (its `rocm` group) is kept.
    pub fn adopt_alternatives(&self, host_root: &Path) -> io::Result<()> {
        for (rel, links) in crate::sim::alternatives::FOLDERS {
            crate::sim::alternatives::adopt_host(&host_root.join(rel), &self.host(rel), links)?;
        }
        Ok(())
    }

    /// Has `reclaim` give the stage's files back before it is removed (a lab whose accounts
    /// are the caller's subordinate ids).
    pub fn reclaim_with(&mut self, reclaim: Reclaim) {
        self.reclaim = Some(reclaim);
    }

    /// Gives the whole stage to `uid`:`gid` (a lab started by root runs as nobody), never
    /// through a symlink. Before the sandbox starts: nothing in the stage is the learner's yet.
    pub fn give_to(&self, uid: u32, gid: u32) -> io::Result<()> {
        fn walk(p: &Path, uid: u32, gid: u32) -> io::Result<()> {
            std::os::unix::fs::lchown(p, Some(uid), Some(gid))?;
            let meta = fs::symlink_metadata(p)?;
            if meta.is_dir() {
                for e in fs::read_dir(p)? {
                    walk(&e?.path(), uid, gid)?;
                }
            }
            Ok(())
        }
        // The stage's own folder stays root's, mode 0700: the sandbox gets it by descriptor,
        // and no host process running as `uid` can reach what is inside by its path.
        for e in fs::read_dir(self.root())? {
            walk(&e?.path(), uid, gid)?;
        }
        Ok(())
    }

    /// Files 0644 (executables 0755) and folders 0755 in the system folders, as a package
    /// installs them.
    pub fn ubuntu_modes(&self) -> io::Result<()> {
        for top in ["etc", "opt", "usr"] {
            rocm_unix::files::set_modes(&self.host(top), 0o644, 0o755)?;
        }
        Ok(())
    }

    /// Makes the system folders read-only to the learner, as root-owned files are on a real
    /// machine: only `sudo` (a nested user namespace with root's capabilities) can change them.
    /// The home folder, /var (the simulator's state) and the side channel stay writable.
    pub fn lock_down(&self) -> io::Result<()> {
        for top in ["etc", "opt", "usr"] {
            rocm_unix::files::set_modes(&self.host(top), 0o444, 0o555)?;
        }
        Ok(())
    }
}

impl Drop for Stage {
    /// Folders the lab made read-only (0555, also as an unprivileged user) are opened up first,
    /// so the temporary folder can be removed. Never through a symlink: each folder is opened
    /// with O_NOFOLLOW and changed through its descriptor. Call only once the sandbox is gone.
    /// All of it runs on a thread of its own (a reclaim starts a sandbox, a learner may have
    /// left many files): closing a lab never waits for it; `finish_removals` does, bounded,
    /// before the program ends.
    fn drop(&mut self) {
        self.release();
    }
}

impl Stage {
    /// Whether the stage was released (nothing of the lab uses it any more).
    pub fn released(&self) -> bool {
        self.dir.is_none()
    }

    /// Removes the stage now, off this thread (see `Drop`): once the sandbox is gone, or once
    /// its supervisor has moved the machine into memory and uses the stage no more.
    pub fn release(&mut self) {
        let Some(dir) = self.dir.take() else { return };
        let reclaim = self.reclaim.take();
        let remover = std::thread::spawn(move || {
            if let Some(reclaim) = reclaim {
                reclaim(dir.path());
            }
            open_up(dir.path());
            drop(dir);
        });
        if let Ok(mut r) = REMOVALS.lock() {
            r.retain(|h| !h.is_finished());
            r.push(remover);
        }
    }
}

/// Removes, once per process and off this thread, the stages of apps that are gone (killed
/// before their supervisor took the machine into memory): they would hold a tmpfs's memory or
/// a disk's space until the next reboot.
fn sweep_once() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let sweeper = std::thread::spawn(|| {
            let parents = [
                crate::lab::app::stage_dir::parent(true),
                crate::lab::app::stage_dir::parent(false),
            ];
            let mut seen = Vec::new();
            for parent in parents {
                if seen.contains(&parent) {
                    continue;
                }
                for stage in crate::lab::app::stage_dir::leftovers(&parent) {
                    open_up(&stage);
                    let _ = fs::remove_dir_all(&stage);
                }
                seen.push(parent);
            }
        });
        if let Ok(mut r) = REMOVALS.lock() {
            r.push(sweeper);
        }
    });
}

/// Stages being removed (see `Drop for Stage`).
static REMOVALS: std::sync::Mutex<Vec<std::thread::JoinHandle<()>>> =
    std::sync::Mutex::new(Vec::new());

/// Waits, at most `limit`, for the stages still being removed: called before the program
/// ends, so that a closed lab leaves nothing behind. Returns how many were not finished.
pub fn finish_removals(limit: std::time::Duration) -> usize {
    let deadline = std::time::Instant::now() + limit;
    let pending: Vec<_> = match REMOVALS.lock() {
        Ok(mut r) => r.drain(..).collect(),
        Err(_) => return 0,
    };
    let mut left = 0;
    for h in pending {
        while !h.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        if h.is_finished() {
            let _ = h.join();
        } else {
            left += 1;
        }
    }
    left
}

fn open_up(dir: &Path) {
    use std::os::unix::fs::OpenOptionsExt;
    let Ok(f) = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_DIRECTORY)
        .open(dir)
    else {
        return;
    };
    let _ = f.set_permissions(fs::Permissions::from_mode(0o700));
    let Ok(rd) = fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            open_up(&e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::wire::layout::{host_path, resolve};

    #[test]
    fn symlinks_resolve_inside_the_sandbox_view() {
        let s = Stage::new(false).unwrap();
        let r = s.root();
        fs::create_dir_all(r.join("opt/rocm-6.2.2/bin")).unwrap();
        fs::write(r.join("opt/rocm-6.2.2/bin/hipcc"), "x").unwrap();
        std::os::unix::fs::symlink("rocm-6.2.2", r.join("opt/rocm")).unwrap();
        fs::create_dir_all(r.join("home/learner/bin")).unwrap();
        // An absolute target names the sandbox's /opt, not the host's.
        std::os::unix::fs::symlink("/opt/rocm/bin/hipcc", r.join("home/learner/bin/hipcc"))
            .unwrap();
        assert_eq!(
            resolve(r, "/home/learner/bin/hipcc"),
            Some(r.join("opt/rocm-6.2.2/bin/hipcc"))
        );
        assert_eq!(
            resolve(r, "/opt/rocm/bin/../bin/hipcc"),
            Some(r.join("opt/rocm-6.2.2/bin/hipcc"))
        );
        std::os::unix::fs::symlink("/home/learner/loop", r.join("home/learner/loop")).unwrap();
        assert_eq!(resolve(r, "/home/learner/loop"), None);
        fs::create_dir_all(r.join("usr/bin")).unwrap();
        fs::write(r.join("usr/bin/lspci"), "x").unwrap();
        assert_eq!(host_path(r, "/usr/bin/lspci"), r.join("usr/bin/lspci"));
        assert_eq!(host_path(r, "/usr/bin/env"), Path::new("/usr/bin/env"));
    }

    #[test]
    fn the_machine_keeps_its_own_alternatives_and_gains_the_hosts() {
        let host = tempfile::tempdir().unwrap();
        let h = host.path();
        fs::create_dir_all(h.join("etc/alternatives")).unwrap();
        fs::create_dir_all(h.join("var/lib/dpkg/alternatives")).unwrap();
        std::os::unix::fs::symlink("/usr/bin/vim.basic", h.join("etc/alternatives/editor"))
            .unwrap();
        std::os::unix::fs::symlink("/usr/bin/host-thing", h.join("etc/alternatives/rocm")).unwrap();
        fs::write(
            h.join("var/lib/dpkg/alternatives/editor"),
            "auto\n/usr/bin/editor\n\n/usr/bin/vim.basic\n30\n\n",
        )
        .unwrap();
        let s = Stage::new(false).unwrap();
        fs::create_dir_all(s.host("etc/alternatives")).unwrap();
        std::os::unix::fs::symlink("/opt/rocm-6.2.2", s.host("etc/alternatives/rocm")).unwrap();
        s.adopt_alternatives(h).unwrap();
        let link = |n: &str| fs::read_link(s.host(&format!("etc/alternatives/{n}"))).unwrap();
        assert_eq!(link("editor"), Path::new("/usr/bin/vim.basic"));
        assert_eq!(link("rocm"), Path::new("/opt/rocm-6.2.2"));
        assert!(s.host("var/lib/dpkg/alternatives/editor").is_file());
        // A real folder of the stage, so the sandbox binds nothing of the host's over it.
        assert!(
            !fs::symlink_metadata(s.host("etc/alternatives"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
}
