//! Who is connected now, for the class screen: each running learner session keeps a file
//! `CLASS/online/NAME.PID.N` whose time the server renews every `RENEW` (a heartbeat); the file
//! goes when the session ends. A file not renewed for `FRESH` (a server that died) counts for
//! nothing, so several servers on one class folder need no other coordination, and a dead
//! server's learners stop showing as connected within half a minute. A session kept after its
//! connection dropped says so in its file: `detached UNTIL` (seconds since the epoch).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

pub const DIR: &str = "online";
/// How often a server renews its sessions' files.
pub const RENEW: Duration = Duration::from_secs(10);
/// How old a file may be and still mean "connected": three missed heartbeats.
const FRESH: Duration = Duration::from_secs(30);

/// Where a learner is now, as the class folder says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Here {
    Connected,
    /// Their connection dropped; the session is kept until then.
    Detached(SystemTime),
}

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

    /// Kept after a dropped connection until `until`, or (None) connected again.
    pub fn set_detached(&self, until: Option<SystemTime>) {
        let text = until
            .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map(|d| format!("detached {}\n", d.as_secs()))
            .unwrap_or_default();
        let _ = std::fs::write(&self.0, text);
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
    here(class, name).is_some()
}

/// Where `name` is now: connected if any of their sessions is, else detached until the latest
/// a kept session lasts, else nowhere.
pub fn here(class: &Path, name: &str) -> Option<Here> {
    let prefix = format!("{name}.");
    let entries = std::fs::read_dir(class.join(DIR)).ok()?;
    let mut found: Option<Here> = None;
    for e in entries.filter_map(Result::ok).take(10_000) {
        let mine = e
            .file_name()
            .to_str()
            .is_some_and(|f| f.starts_with(&prefix));
        // Not followed: a link here is nobody's session.
        let fresh = std::fs::symlink_metadata(e.path()).is_ok_and(|m| {
            m.is_file()
                && m.modified()
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age < FRESH)
        });
        if !(mine && fresh) {
            continue;
        }
        let now = match detached_until(&e.path()) {
            None => return Some(Here::Connected),
            Some(t) => Here::Detached(t),
        };
        found = match (found, now) {
            (Some(Here::Detached(a)), Here::Detached(b)) => Some(Here::Detached(a.max(b))),
            (_, now) => Some(now),
        };
    }
    found
}

/// The time in a session file that says `detached UNTIL`.
fn detached_until(path: &Path) -> Option<SystemTime> {
    let bytes = crate::hostfs::read_named(path, 64).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let secs: u64 = text.trim().strip_prefix("detached ")?.parse().ok()?;
    Some(SystemTime::UNIX_EPOCH + Duration::from_secs(secs))
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
        assert_eq!(here(dir.path(), "ana"), Some(Here::Connected));
        let until = SystemTime::UNIX_EPOCH + Duration::from_secs(2_000_000_000);
        p.set_detached(Some(until));
        assert_eq!(here(dir.path(), "ana"), Some(Here::Detached(until)));
        // Another session of hers that is connected wins.
        let q = Presence::new(dir.path(), "ana").unwrap();
        assert_eq!(here(dir.path(), "ana"), Some(Here::Connected));
        drop(q);
        p.set_detached(None);
        assert_eq!(here(dir.path(), "ana"), Some(Here::Connected));
        drop(p);
        assert!(!online(dir.path(), "ana"));
    }
}
