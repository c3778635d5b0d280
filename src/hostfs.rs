//! Reading folders the app does not own: content packs, class submit folders, exported
//! progress. Their authors may be hostile, so every read here never follows a link, takes
//! regular files only (a FIFO, socket or device is never opened), caps each file, the count of
//! entries, the depth and the total, and gives up after a deadline. What is refused is said per
//! file, and the rest of the folder is still read.

use std::ffi::OsStr;
use std::io::Read;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::{Duration, Instant};

use rustix::fs::{AtFlags, CWD, FileType, Mode, OFlags};

/// How much one read of a folder may take.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The largest file read.
    pub max_file: u64,
    /// All files together.
    pub max_total: u64,
    /// Entries looked at (files, folders and what is refused).
    pub max_entries: usize,
    /// Folders below the root.
    pub max_depth: usize,
    /// The whole walk.
    pub deadline: Duration,
}

impl Limits {
    /// A content pack: text files of a few MiB at most.
    pub const PACK: Limits = Limits {
        max_file: 4 << 20,
        max_total: 64 << 20,
        max_entries: 20_000,
        max_depth: 16,
        deadline: Duration::from_secs(5),
    };
    /// A class submit folder: one export (an event log) per learner and machine.
    pub const SUBMIT: Limits = Limits {
        max_file: 16 << 20,
        max_total: 256 << 20,
        max_entries: 10_000,
        max_depth: 0,
        deadline: Duration::from_secs(5),
    };
}

/// Why a path was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A symbolic link: never followed, wherever it points.
    Link,
    /// A FIFO, socket or device (or a folder where a file was expected).
    NotRegular(&'static str),
    TooLarge(u64),
    /// The folder holds more than the limits allow; the rest was not read.
    TooMany(usize),
    TooDeep(usize),
    TooMuch(u64),
    Deadline(Duration),
    Io(String),
}

impl std::fmt::Display for Refusal {
    /// English, for places that have no catalogue at hand (wrapped in a translated message).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Link => f.write_str("a symbolic link (not followed)"),
            Refusal::NotRegular(kind) => write!(f, "not a regular file ({kind})"),
            Refusal::TooLarge(max) => write!(f, "larger than {max} bytes"),
            Refusal::TooMany(max) => write!(f, "more than {max} entries"),
            Refusal::TooDeep(max) => write!(f, "more than {max} folders deep"),
            Refusal::TooMuch(max) => write!(f, "more than {max} bytes in all"),
            Refusal::Deadline(d) => write!(f, "not read within {} s", d.as_secs()),
            Refusal::Io(e) => f.write_str(e),
        }
    }
}

impl From<rustix::io::Errno> for Refusal {
    fn from(e: rustix::io::Errno) -> Self {
        match e {
            rustix::io::Errno::LOOP => Refusal::Link,
            e => Refusal::Io(std::io::Error::from(e).to_string()),
        }
    }
}

/// What a walk found: the files read (path relative to the root, `/`-separated) and what was
/// refused, both in path order.
#[derive(Debug, Default)]
pub struct Walk {
    pub files: Vec<(String, Vec<u8>)>,
    pub refused: Vec<(String, Refusal)>,
}

/// Reads one file a user named. The name itself may be a link the user made (it is theirs to
/// name); what it resolves to must still be a regular file within `cap`.
pub fn read_named(path: &Path, cap: u64) -> Result<Vec<u8>, Refusal> {
    read_open(open_named(path)?.into(), cap)
}

/// Reads `name` in the folder `dir` without following a link. The entry is looked at before
/// it is opened, so a device is never opened at all; the open is non-blocking and checked again
/// (the entry may be swapped in between).
pub fn read_at(dir: impl AsFd, name: &OsStr, cap: u64) -> Result<Vec<u8>, Refusal> {
    let st = rustix::fs::statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW)?;
    match FileType::from_raw_mode(st.st_mode) {
        FileType::RegularFile => {}
        other => return Err(kind_refusal(other)),
    }
    if st.st_size as u64 > cap {
        return Err(Refusal::TooLarge(cap));
    }
    let fd = rustix::fs::openat(
        &dir,
        name,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    read_open(fd, cap)
}

/// Opens one regular file a user named, for reading as a stream (an archive): a FIFO or
/// device in its place is refused without being opened.
pub fn open_named(path: &Path) -> Result<std::fs::File, Refusal> {
    let st = rustix::fs::stat(path)?;
    match FileType::from_raw_mode(st.st_mode) {
        FileType::RegularFile => {}
        other => return Err(kind_refusal(other)),
    }
    let fd = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let st = rustix::fs::fstat(&fd)?;
    match FileType::from_raw_mode(st.st_mode) {
        FileType::RegularFile => Ok(std::fs::File::from(fd)),
        other => Err(kind_refusal(other)),
    }
}

fn read_open(fd: OwnedFd, cap: u64) -> Result<Vec<u8>, Refusal> {
    let st = rustix::fs::fstat(&fd)?;
    match FileType::from_raw_mode(st.st_mode) {
        FileType::RegularFile => {}
        other => return Err(kind_refusal(other)),
    }
    let mut buf = Vec::new();
    std::fs::File::from(fd)
        .take(cap + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Refusal::Io(e.to_string()))?;
    if buf.len() as u64 > cap {
        return Err(Refusal::TooLarge(cap));
    }
    Ok(buf)
}

fn kind_refusal(t: FileType) -> Refusal {
    match t {
        FileType::Symlink => Refusal::Link,
        FileType::Fifo => Refusal::NotRegular("fifo"),
        FileType::Socket => Refusal::NotRegular("socket"),
        FileType::CharacterDevice | FileType::BlockDevice => Refusal::NotRegular("device"),
        FileType::Directory => Refusal::NotRegular("folder"),
        FileType::RegularFile | FileType::Unknown => Refusal::NotRegular("other"),
    }
}

/// Opens a folder the user named (the name may be a link they made) for reading entries.
pub fn open_root(path: &Path) -> Result<OwnedFd, Refusal> {
    Ok(rustix::fs::openat(
        CWD,
        path,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// Reads every file below `root` that `wanted` accepts (given the relative path and whether it
/// is a folder; a folder it refuses is not entered). Names starting with a dot are passed over.
pub fn walk(root: &Path, limits: Limits, wanted: &dyn Fn(&str, bool) -> bool) -> Walk {
    let mut w = Walker {
        limits,
        started: Instant::now(),
        entries: 0,
        total: 0,
        stopped: false,
        out: Walk::default(),
    };
    match open_root(root) {
        Ok(fd) => w.folder(&fd, "", 0, wanted),
        Err(r) => w.out.refused.push((String::new(), r)),
    }
    w.out.files.sort_by(|a, b| a.0.cmp(&b.0));
    w.out.refused.sort_by(|a, b| a.0.cmp(&b.0));
    w.out
}

/// The regular files directly in `root` whose names `wanted` accepts.
pub fn files_in(root: &Path, limits: Limits, wanted: &dyn Fn(&str) -> bool) -> Walk {
    walk(
        root,
        Limits {
            max_depth: 0,
            ..limits
        },
        &|rel, dir| !dir && wanted(rel),
    )
}

struct Walker {
    limits: Limits,
    started: Instant,
    entries: usize,
    total: u64,
    stopped: bool,
    out: Walk,
}

impl Walker {
    fn folder(
        &mut self,
        dir: &OwnedFd,
        rel: &str,
        depth: usize,
        wanted: &dyn Fn(&str, bool) -> bool,
    ) {
        let mut names = match rustix::fs::Dir::read_from(dir) {
            Ok(mut d) => {
                let mut names = Vec::new();
                while let Some(entry) = d.read() {
                    if self.over_count(rel) {
                        return;
                    }
                    match entry {
                        Ok(e) => {
                            let name = e.file_name().to_bytes();
                            if !name.starts_with(b".") {
                                names.push((name.to_vec(), e.file_type()));
                            }
                        }
                        Err(e) => {
                            self.out.refused.push((rel.to_string(), e.into()));
                            return;
                        }
                    }
                }
                names
            }
            Err(e) => {
                self.out.refused.push((rel.to_string(), e.into()));
                return;
            }
        };
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, kind) in names {
            if self.stopped {
                return;
            }
            if self.started.elapsed() > self.limits.deadline {
                self.stop(rel, Refusal::Deadline(self.limits.deadline));
                return;
            }
            let name = OsStr::from_bytes(&name);
            let child = if rel.is_empty() {
                name.to_string_lossy().into_owned()
            } else {
                format!("{rel}/{}", name.to_string_lossy())
            };
            // d_type may be unknown on some file systems: ask without following.
            let kind = match kind {
                FileType::Unknown => match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
                {
                    Ok(st) => FileType::from_raw_mode(st.st_mode),
                    Err(e) => {
                        self.out.refused.push((child, e.into()));
                        continue;
                    }
                },
                k => k,
            };
            let is_dir = kind == FileType::Directory;
            if !wanted(&child, is_dir) {
                continue;
            }
            if is_dir {
                self.subfolder(dir, name, child, depth, wanted);
            } else if kind == FileType::RegularFile {
                self.file(dir, name, child);
            } else {
                self.out.refused.push((child, kind_refusal(kind)));
            }
        }
    }

    fn subfolder(
        &mut self,
        dir: &OwnedFd,
        name: &OsStr,
        child: String,
        depth: usize,
        wanted: &dyn Fn(&str, bool) -> bool,
    ) {
        if depth >= self.limits.max_depth {
            self.out
                .refused
                .push((child, Refusal::TooDeep(self.limits.max_depth)));
            return;
        }
        let flags = OFlags::RDONLY
            | OFlags::DIRECTORY
            | OFlags::NOFOLLOW
            | OFlags::NONBLOCK
            | OFlags::CLOEXEC;
        match rustix::fs::openat(dir, name, flags, Mode::empty()) {
            Ok(fd) => self.folder(&fd, &child, depth + 1, wanted),
            Err(e) => self.out.refused.push((child, e.into())),
        }
    }

    fn file(&mut self, dir: &OwnedFd, name: &OsStr, child: String) {
        let left = self.limits.max_total.saturating_sub(self.total);
        match read_at(dir, name, self.limits.max_file.min(left)) {
            Ok(bytes) => {
                self.total += bytes.len() as u64;
                self.out.files.push((child, bytes));
            }
            Err(Refusal::TooLarge(_)) if left < self.limits.max_file => {
                self.stop(&child, Refusal::TooMuch(self.limits.max_total));
            }
            Err(r) => self.out.refused.push((child, r)),
        }
    }

    fn over_count(&mut self, rel: &str) -> bool {
        self.entries += 1;
        if self.entries > self.limits.max_entries {
            self.stop(rel, Refusal::TooMany(self.limits.max_entries));
        }
        self.stopped
    }

    fn stop(&mut self, rel: &str, why: Refusal) {
        if !self.stopped {
            self.stopped = true;
            self.out.refused.push((rel.to_string(), why));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::symlink;

    fn names(w: &Walk) -> Vec<&str> {
        w.files.iter().map(|(n, _)| n.as_str()).collect()
    }

    fn refused<'a>(w: &'a Walk, name: &str) -> Option<&'a Refusal> {
        w.refused.iter().find(|(n, _)| n == name).map(|(_, r)| r)
    }

    #[test]
    fn hostile_entries_are_refused_by_name_and_the_rest_is_read() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        fs::create_dir(root.join("sub")).unwrap();
        fs::write(root.join("a.json"), "a").unwrap();
        fs::write(root.join("sub/b.json"), "b").unwrap();
        rustix::fs::mkfifoat(CWD, root.join("fifo.json"), Mode::from_raw_mode(0o600)).unwrap();
        symlink("/dev/zero", root.join("zero.json")).unwrap();
        symlink("/etc/passwd", root.join("passwd.json")).unwrap();
        symlink("..", root.join("sub/up")).unwrap();
        symlink("..", root.join("sub/up2")).unwrap();
        let started = Instant::now();
        let w = walk(root, Limits::PACK, &|_, _| true);
        assert!(started.elapsed() < Duration::from_secs(1));
        assert_eq!(names(&w), ["a.json", "sub/b.json"]);
        assert_eq!(refused(&w, "fifo.json"), Some(&Refusal::NotRegular("fifo")));
        assert_eq!(refused(&w, "zero.json"), Some(&Refusal::Link));
        assert_eq!(refused(&w, "passwd.json"), Some(&Refusal::Link));
        assert_eq!(refused(&w, "sub/up"), Some(&Refusal::Link));
    }

    #[test]
    fn a_large_file_is_refused_without_reading_it() {
        let d = tempfile::tempdir().unwrap();
        let f = fs::File::create(d.path().join("huge.json")).unwrap();
        f.set_len(10 << 30).unwrap(); // sparse: 10 GiB that take no disk
        fs::write(d.path().join("small.json"), "{}").unwrap();
        let started = Instant::now();
        let w = files_in(d.path(), Limits::SUBMIT, &|n| n.ends_with(".json"));
        assert!(started.elapsed() < Duration::from_secs(1));
        assert_eq!(names(&w), ["small.json"]);
        assert_eq!(
            refused(&w, "huge.json"),
            Some(&Refusal::TooLarge(Limits::SUBMIT.max_file))
        );
    }

    #[test]
    fn counts_depth_and_total_are_capped() {
        let d = tempfile::tempdir().unwrap();
        for i in 0..20 {
            fs::write(d.path().join(format!("f{i:02}")), "x".repeat(100)).unwrap();
        }
        let mut deep = d.path().join("d");
        for _ in 0..4 {
            fs::create_dir(&deep).unwrap();
            deep = deep.join("d");
        }
        let small = Limits {
            max_entries: 10,
            ..Limits::PACK
        };
        let w = walk(d.path(), small, &|_, _| true);
        assert!(w.files.is_empty());
        assert!(w.refused.iter().any(|(_, r)| *r == Refusal::TooMany(10)));

        let shallow = Limits {
            max_depth: 2,
            ..Limits::PACK
        };
        let w = walk(d.path(), shallow, &|_, _| true);
        assert_eq!(w.files.len(), 20);
        assert_eq!(refused(&w, "d/d/d"), Some(&Refusal::TooDeep(2)));

        let little = Limits {
            max_total: 550,
            ..Limits::PACK
        };
        let w = walk(d.path(), little, &|_, _| true);
        assert_eq!(w.files.len(), 5);
        assert!(w.refused.iter().any(|(_, r)| *r == Refusal::TooMuch(550)));
    }

    #[test]
    fn a_named_file_must_be_regular_and_small() {
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("fifo");
        rustix::fs::mkfifoat(CWD, &fifo, Mode::from_raw_mode(0o600)).unwrap();
        assert_eq!(read_named(&fifo, 10), Err(Refusal::NotRegular("fifo")));
        assert_eq!(
            read_named(Path::new("/dev/zero"), 10),
            Err(Refusal::NotRegular("device"))
        );
        fs::write(d.path().join("f"), "hello").unwrap();
        assert_eq!(read_named(&d.path().join("f"), 10).unwrap(), b"hello");
        assert_eq!(
            read_named(&d.path().join("f"), 3),
            Err(Refusal::TooLarge(3))
        );
    }
}
