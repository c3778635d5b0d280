//! Where stages are built (app side), and the sweep of stages a killed app left behind.
//!
//! A stage lives until the supervisor has copied the machine into the sandbox's memory, a few
//! hundred milliseconds. On a disk that is a few thousand small files written, synced and
//! removed for nothing, so when the machine will move into memory the stage is built in a
//! tmpfs of the user's own (`$XDG_RUNTIME_DIR`, else `/dev/shm`) and never touches a disk.
//! Where the machine stays on the stage (`lab-on-disk`), the lab writes into it for its whole
//! life, so it goes to the temporary folder as before: a learner's files never fill RAM.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// What a stage's folder is called: the prefix, then the app's pid, then a random part. The
/// pid lets a later app tell a leftover (its app is gone) from a stage in use.
pub const PREFIX: &str = "rocm-lab-";

/// A tmpfs with less room than this is not used: a pack's files add to the stage.
const MIN_FREE: u64 = 64 << 20;

/// At most this many entries of a folder are looked at by one sweep.
const SWEEP_LIMIT: usize = 10_000;

/// The folder a new stage goes into: a private tmpfs when `in_memory` (the machine will be
/// copied into the sandbox's memory), else the temporary folder.
pub fn parent(in_memory: bool) -> PathBuf {
    if in_memory {
        let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from);
        for dir in runtime.into_iter().chain([PathBuf::from("/dev/shm")]) {
            if usable_tmpfs(&dir) {
                return dir;
            }
        }
    }
    std::env::temp_dir()
}

/// A tmpfs folder (not a link) with room, which others cannot use against us: our own and
/// closed to others, or sticky (others may not remove or rename what we make there).
fn usable_tmpfs(dir: &Path) -> bool {
    const TMPFS_MAGIC: i64 = 0x0102_1994;
    if !dir.is_absolute() {
        return false;
    }
    let Ok(meta) = std::fs::symlink_metadata(dir) else {
        return false;
    };
    let me = rustix::process::geteuid().as_raw();
    let private = meta.uid() == me && meta.mode() & 0o022 == 0;
    let sticky = meta.mode() & 0o1000 != 0;
    if !meta.is_dir() || !(private || sticky) {
        return false;
    }
    match rustix::fs::statfs(dir) {
        // The fields' widths differ between targets.
        #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
        Ok(s) => {
            s.f_type as i64 == TMPFS_MAGIC
                && u64::try_from(s.f_bavail)
                    .unwrap_or(0)
                    .saturating_mul(u64::try_from(s.f_bsize).unwrap_or(0))
                    >= MIN_FREE
        }
        Err(_) => false,
    }
}

/// The pid in a stage folder's name (`rocm-lab-<pid>-<random>`), if it has one.
fn owner_pid(name: &str) -> Option<i32> {
    let rest = name.strip_prefix(PREFIX)?;
    let (pid, random) = rest.split_once('-')?;
    if random.is_empty() {
        return None;
    }
    pid.parse().ok()
}

/// Whether a process with this pid exists (a pid reused by another program counts: a stage is
/// only ever left too long, never removed under a running app).
fn alive(pid: i32) -> bool {
    let Some(pid) = rustix::process::Pid::from_raw(pid) else {
        return false;
    };
    !matches!(
        rustix::process::test_kill_process(pid),
        Err(rustix::io::Errno::SRCH)
    )
}

/// Stages in `parent` whose app is gone: our own folders (never a link), named with a pid that
/// no process has. A stage of this app is never among them.
pub fn leftovers(parent: &Path) -> Vec<PathBuf> {
    let me = rustix::process::geteuid().as_raw();
    let mine = i32::try_from(std::process::id()).unwrap_or(0);
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Vec::new();
    };
    entries
        .take(SWEEP_LIMIT)
        .flatten()
        .filter_map(|e| {
            let pid = owner_pid(e.file_name().to_str()?)?;
            let meta = std::fs::symlink_metadata(e.path()).ok()?;
            (meta.is_dir() && meta.uid() == me && pid != mine && !alive(pid)).then(|| e.path())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stage_name_carries_its_apps_pid() {
        assert_eq!(owner_pid("rocm-lab-1234-abcXYZ"), Some(1234));
        assert_eq!(owner_pid("rocm-lab-abcXYZ"), None, "an older stage's name");
        assert_eq!(owner_pid("rocm-lab-12-"), None);
        assert_eq!(owner_pid("other-12-ab"), None);
    }

    #[test]
    fn only_stages_of_dead_apps_are_leftovers() {
        let dir = tempfile::tempdir().unwrap();
        // A pid that no process has: the largest the kernel can hand out is below it.
        let dead = dir.path().join("rocm-lab-2147483600-aaaaaa");
        let live = dir
            .path()
            .join(format!("rocm-lab-{}-bbbbbb", std::process::id()));
        let parent_pid = dir.path().join(format!(
            "rocm-lab-{}-cccccc",
            std::os::unix::process::parent_id()
        ));
        let old_style = dir.path().join("rocm-lab-dddddd");
        for d in [&dead, &live, &parent_pid, &old_style] {
            std::fs::create_dir(d).unwrap();
        }
        // A link named like a dead stage is never followed or taken.
        let link = dir.path().join("rocm-lab-2147483601-eeeeee");
        std::os::unix::fs::symlink(&live, &link).unwrap();
        assert_eq!(leftovers(dir.path()), vec![dead]);
    }

    #[test]
    fn the_temporary_folder_is_used_when_the_machine_stays_on_the_stage() {
        assert_eq!(parent(false), std::env::temp_dir());
        let p = parent(true);
        assert!(
            p == std::env::temp_dir() || usable_tmpfs(&p),
            "{}",
            p.display()
        );
    }
}
