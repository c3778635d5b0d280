//! Who is connected now, for the class screen: each running learner session keeps a file
//! `CLASS/online/NAME.PID.N` whose time the server renews every minute; the file goes when the
//! session ends. A file not renewed for `FRESH` (a server that died) counts for nothing, so
//! several servers on one class folder need no other coordination.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

pub const DIR: &str = "online";
/// How often a server renews its sessions' files.
pub const RENEW: Duration = Duration::from_secs(60);
/// How old a file may be and still mean "connected".
const FRESH: Duration = Duration::from_secs(180);

static NEXT: AtomicU64 = AtomicU64::new(0);

/// One session's file, removed when dropped.
pub struct Presence(PathBuf);

impl Presence {
    pub fn new(class: &Path, name: &str) -> Option<Presence> {
        use std::os::unix::fs::OpenOptionsExt;
        let dir = class.join(DIR);
        std::fs::create_dir_all(&dir).ok()?;
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let path = dir.join(format!("{name}.{}.{n}", std::process::id()));
        // Empty, and still the server user's alone (who is on, and when).
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&path)
            .ok()?;
        Some(Presence(path))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Renews the time of a session's file (it is still connected).
pub fn renew(path: &Path) {
    if let Ok(f) = std::fs::OpenOptions::new().write(true).open(path) {
        let _ = f.set_modified(SystemTime::now());
    }
}

/// Whether `name` has a session now, by any server on this class folder.
pub fn online(class: &Path, name: &str) -> bool {
    let prefix = format!("{name}.");
    let Ok(entries) = std::fs::read_dir(class.join(DIR)) else {
        return false;
    };
    entries.filter_map(Result::ok).take(10_000).any(|e| {
        e.file_name()
            .to_str()
            .is_some_and(|f| f.starts_with(&prefix))
            && e.metadata().is_ok_and(|m| {
                m.is_file()
                    && m.modified()
                        .ok()
                        .and_then(|t| t.elapsed().ok())
                        .is_some_and(|age| age < FRESH)
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_is_online_until_it_ends_and_stale_files_count_for_nothing() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!online(dir.path(), "ana"));
        let p = Presence::new(dir.path(), "ana").unwrap();
        assert!(online(dir.path(), "ana"));
        // Another learner whose name starts the same is not ana.
        assert!(!online(dir.path(), "an"));
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(p.path())
            .unwrap();
        f.set_modified(SystemTime::now() - Duration::from_secs(600))
            .unwrap();
        assert!(!online(dir.path(), "ana"));
        renew(p.path());
        assert!(online(dir.path(), "ana"));
        drop(p);
        assert!(!online(dir.path(), "ana"));
    }
}
