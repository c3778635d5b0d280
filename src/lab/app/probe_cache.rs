//! What the host allows a sandbox, remembered per machine. Before its first lab an app asks
//! bubblewrap a few questions by running throwaway sandboxes (may it create the namespaces,
//! run them as nobody, map the machine's ids, grant one id the capabilities to mount), each a
//! few milliseconds; every app process (each `serve` session is one) asked again. A yes is
//! now kept in a private file of this user's, keyed by everything the answer depends on (the
//! boot, the kernel, bubblewrap's file, the user, the sysctls that turn namespaces off, the
//! id-mapping helpers and tables), so a later process of the same boot takes it from there.
//!
//! The file is untrusted input: its folder is opened without following a link and must be
//! this user's alone (0700), the file is read without following a link, only if it is this
//! user's regular file, and capped. Only a yes is kept, and every yes chooses the stronger
//! sandbox (as nobody rather than as root, the machine's ids rather than one, in memory rather
//! than on the disk): a wrong entry can make a lab fail to start, never start weaker. When a
//! lab fails to start, `forget` drops the file and this process's answers, and the next open
//! asks again.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rustix::fs::{Mode, OFlags};
use sha2::{Digest, Sha256};

/// The file of remembered answers in the cache folder.
const FILE: &str = "sandbox.probes";
/// The most read of it: a line of 33 bytes per answer, a handful per user and boot (two per
/// session place under `serve`).
const READ_CAP: usize = 16 << 10;
/// The answers kept (the newest): older boots' lines fall out.
const KEEP: usize = 256;

/// This process's answers, by question.
static ANSWERS: Mutex<Option<HashMap<String, bool>>> = Mutex::new(None);

/// Whether any answer of this process came from the file (and so was not tried here).
static FROM_FILE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The answer to `question` (with `detail`: what else it depends on, such as the id maps),
/// asked by running `ask` unless this process or the file has a yes already. Asked once per
/// process when the answer is no (a no is never kept: it is the weaker sandbox).
pub fn answer(question: &str, detail: &str, ask: impl FnOnce() -> bool) -> bool {
    if let Some(known) = known(question, detail) {
        return known;
    }
    let yes = ask();
    remember(question, detail, yes);
    yes
}

/// What this process, or for a yes the file, knows of `question` already.
pub fn known(question: &str, detail: &str) -> Option<bool> {
    let name = format!("{question}\0{detail}");
    if let Some(known) = with_answers(|a| a.get(&name).copied()) {
        return Some(known);
    }
    let folder = Folder::open_default()?;
    if !folder.has(&entry(&name)) {
        return None;
    }
    FROM_FILE.store(true, std::sync::atomic::Ordering::Relaxed);
    with_answers(|a| a.insert(name, true));
    Some(true)
}

/// Keeps the answer for this process, and a yes in the file for the next ones.
pub fn remember(question: &str, detail: &str, yes: bool) {
    let name = format!("{question}\0{detail}");
    if yes && let Some(f) = Folder::open_default() {
        // Not kept is only slower: the next process asks again.
        let _ = f.add(&entry(&name));
    }
    with_answers(|a| a.insert(name, yes));
}

/// Drops every remembered answer, this process's and the file's: a lab failed to start, and
/// the next asks the host again. True if an answer had come from the file.
pub fn forget() -> bool {
    with_answers(HashMap::clear);
    if let Some(f) = Folder::open_default() {
        let _ = rustix::fs::unlinkat(&f.dir, FILE, rustix::fs::AtFlags::empty());
    }
    FROM_FILE.swap(false, std::sync::atomic::Ordering::Relaxed)
}

fn with_answers<T>(f: impl FnOnce(&mut HashMap<String, bool>) -> T) -> T {
    let mut g = ANSWERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    f(g.get_or_insert_with(HashMap::new))
}

/// The line that stands for a yes to `name` on this machine as it is now.
fn entry(name: &str) -> String {
    let mut h = Sha256::new();
    h.update(machine_key().as_bytes());
    h.update([0]);
    h.update(name.as_bytes());
    let digest = h.finalize();
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// Everything a sandbox's answer depends on that is the same for every question: the boot
/// (a reboot may bring another AppArmor policy), the kernel, bubblewrap and the helpers by
/// their files, the user, and the switches that allow user namespaces.
fn machine_key() -> &'static str {
    static KEY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    KEY.get_or_init(|| {
        let uname = rustix::system::uname();
        let mut key = format!(
            "v1\nboot {}\nkernel {} {}\nids {} {} {} {}\n",
            small_file("/proc/sys/kernel/random/boot_id"),
            uname.release().to_string_lossy(),
            uname.version().to_string_lossy(),
            rustix::process::getuid().as_raw(),
            rustix::process::geteuid().as_raw(),
            rustix::process::getgid().as_raw(),
            rustix::process::getegid().as_raw(),
        );
        for sysctl in [
            "/proc/sys/kernel/unprivileged_userns_clone",
            "/proc/sys/user/max_user_namespaces",
            "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
            "/proc/sys/kernel/apparmor_restrict_unprivileged_unconfined",
        ] {
            key.push_str(&format!("{sysctl} {}\n", small_file(sysctl)));
        }
        for tool in ["bwrap", "newuidmap", "newgidmap"] {
            key.push_str(&format!(
                "{tool} {}\n",
                file_id(super::programs::on_path(tool))
            ));
        }
        for table in ["/etc/subuid", "/etc/subgid"] {
            key.push_str(&format!(
                "{table} {}\n",
                file_id(Some(PathBuf::from(table)))
            ));
        }
        key
    })
}

/// A kernel file's text (a sysctl, the boot id), or nothing where it has none.
fn small_file(path: &str) -> String {
    std::fs::read_to_string(path)
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// A file by where it is and what it is (device, inode, size, change time): a new bubblewrap
/// or a changed id table is another key.
fn file_id(path: Option<PathBuf>) -> String {
    use std::os::unix::fs::MetadataExt;
    let Some(path) = path else {
        return "none".into();
    };
    match std::fs::metadata(&path) {
        Ok(m) => format!(
            "{} {}:{} {} {}.{} {}.{}",
            path.display(),
            m.dev(),
            m.ino(),
            m.len(),
            m.mtime(),
            m.mtime_nsec(),
            m.ctime(),
            m.ctime_nsec()
        ),
        Err(_) => format!("{} missing", path.display()),
    }
}

/// This user's cache folder, opened.
struct Folder {
    dir: OwnedFd,
}

impl Folder {
    /// The default folder: root's under /run (root's alone, emptied at boot), another user's in
    /// the runtime folder (theirs alone, emptied at logout), else in their cache folder.
    fn open_default() -> Option<Folder> {
        Folder::open(&default_dir()?).ok()
    }

    /// Opens (making it, 0700, if missing) `path`: never through a link, and only a folder of
    /// this user's that no one else may enter.
    fn open(path: &Path) -> io::Result<Folder> {
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
        if st.st_uid != rustix::process::geteuid().as_raw() || st.st_mode & 0o077 != 0 {
            return Err(io::Error::other("not a private folder of this user's"));
        }
        Ok(Folder { dir })
    }

    /// The file's lines: empty when it is missing, not this user's regular file, or unreadable.
    fn lines(&self) -> Vec<String> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let Ok(fd) = rustix::fs::openat(&self.dir, FILE, flags, Mode::empty()) else {
            return Vec::new();
        };
        let Ok(st) = rustix::fs::fstat(&fd) else {
            return Vec::new();
        };
        let regular = rustix::fs::FileType::from_raw_mode(st.st_mode).is_file();
        if !regular || st.st_uid != rustix::process::geteuid().as_raw() {
            return Vec::new();
        }
        let mut text = Vec::new();
        let capped = std::fs::File::from(fd)
            .take(READ_CAP as u64)
            .read_to_end(&mut text);
        if capped.is_err() {
            return Vec::new();
        }
        String::from_utf8_lossy(&text)
            .lines()
            .filter(|l| l.len() == 32 && l.bytes().all(|b| b.is_ascii_hexdigit()))
            .map(str::to_string)
            .collect()
    }

    fn has(&self, line: &str) -> bool {
        self.lines().iter().any(|l| l == line)
    }

    /// Adds `line` (keeping the newest `KEEP`), written whole under another name and renamed
    /// over the file, so a reader never sees half of it.
    fn add(&self, line: &str) -> io::Result<()> {
        let mut lines = self.lines();
        lines.retain(|l| l != line);
        lines.push(line.to_string());
        let skip = lines.len().saturating_sub(KEEP);
        let text: String = lines[skip..].iter().map(|l| format!("{l}\n")).collect();
        let tmp = format!("{FILE}.{}", std::process::id());
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::TRUNC | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.dir, &tmp, flags, Mode::from_raw_mode(0o600))?;
        std::fs::File::from(fd).write_all(text.as_bytes())?;
        rustix::fs::renameat(&self.dir, &tmp, &self.dir, FILE)?;
        Ok(())
    }
}

/// Where this user's answers are kept (see `Folder::open_default`).
fn default_dir() -> Option<PathBuf> {
    const NAME: &str = "rocm-learn-cache";
    if rustix::process::geteuid().is_root() {
        return Some(Path::new("/run").join(NAME));
    }
    let var = |v: &str| {
        std::env::var_os(v)
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
            .filter(|d| d.is_absolute())
    };
    if let Some(run) = var("XDG_RUNTIME_DIR") {
        return Some(run.join(NAME));
    }
    if let Some(cache) = var("XDG_CACHE_HOME") {
        return Some(cache.join("rocm-learn"));
    }
    Some(var("HOME")?.join(".cache/rocm-learn"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_yes_is_kept_and_read_back_and_the_file_stays_small() {
        let t = tempfile::tempdir().unwrap();
        let f = Folder::open(&t.path().join("c")).unwrap();
        let m = std::fs::metadata(t.path().join("c")).unwrap();
        assert_eq!(m.permissions().mode() & 0o777, 0o700);
        let a = entry("a");
        assert!(!f.has(&a));
        f.add(&a).unwrap();
        assert!(f.has(&a));
        for i in 0..KEEP + 5 {
            f.add(&entry(&i.to_string())).unwrap();
        }
        assert!(!f.has(&a), "the oldest lines fall out");
        assert_eq!(f.lines().len(), KEEP);
        assert_ne!(entry("a"), entry("b"));
    }

    #[test]
    fn a_folder_others_may_enter_or_a_link_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let open = t.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(Folder::open(&open).is_err());
        let link = t.path().join("link");
        let real = t.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(Folder::open(&link).is_err(), "never through a link");
    }

    #[test]
    fn what_is_not_a_plain_small_file_of_answers_reads_as_nothing() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("c");
        let f = Folder::open(&dir).unwrap();
        let a = entry("a");
        // A link in the file's place (to a file holding the line) is not followed.
        let elsewhere = t.path().join("elsewhere");
        std::fs::write(&elsewhere, format!("{a}\n")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.join(FILE)).unwrap();
        assert!(!f.has(&a));
        std::fs::remove_file(dir.join(FILE)).unwrap();
        // A FIFO is not waited on; a huge file is read only up to the cap.
        rustix::fs::mknodat(
            rustix::fs::CWD,
            dir.join(FILE),
            rustix::fs::FileType::Fifo,
            Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        assert!(!f.has(&a));
        std::fs::remove_file(dir.join(FILE)).unwrap();
        let mut big = "x".repeat(READ_CAP * 2);
        big.push_str(&format!("\n{a}\n"));
        std::fs::write(dir.join(FILE), big).unwrap();
        assert!(!f.has(&a), "past the cap nothing is read");
        // Junk lines are no answers.
        std::fs::write(dir.join(FILE), "yes\n../../etc\n").unwrap();
        assert!(f.lines().is_empty());
    }
}
