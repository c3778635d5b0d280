//! Files written whole or not at all, and read with a cap: a progress file, an export or a
//! machine file never ends up half-written, and a file swapped for /dev/zero or a FIFO never
//! fills memory or hangs the reader.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

/// Writes via a temporary file in the same directory and a rename. The file keeps its mode
/// (a tool rewriting /etc/group leaves it 0644); a new one gets 0644, as under umask 022.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = fs::symlink_metadata(path)
        .ok()
        .filter(fs::Metadata::is_file)
        .map_or(0o644, |m| m.permissions().mode() & 0o7777);
    write_atomic_mode(path, bytes, mode)
}

/// The mode of a new file in `dir`: 0600 when only the folder's owner may enter it (a class
/// server's learner and submit folders), else 0644 (a laptop's shared submit folder, which the
/// instructor reads as another user).
pub fn new_file_mode(dir: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    match fs::metadata(dir) {
        Ok(m) if m.permissions().mode() & 0o077 == 0 => 0o600,
        _ => 0o644,
    }
}

/// Makes the folder `path` and any missing parents; each one made in a folder only its owner
/// may enter is made 0700 too (`new_file_mode`), so a private tree stays private.
pub fn create_dir_as_folder(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if path.is_dir() {
        return Ok(());
    }
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    create_dir_as_folder(parent)?;
    let mode = if new_file_mode(parent) == 0o600 {
        0o700
    } else {
        0o777
    };
    match fs::DirBuilder::new().mode(mode).create(path) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && path.is_dir() => Ok(()),
        done => done,
    }
}

/// As `write_atomic`, but a new file gets `new_file_mode` of its folder: a learner's progress
/// or export stays private where its folder is.
pub fn write_atomic_as_folder(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let mode = match fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => m.permissions().mode() & 0o7777,
        _ => new_file_mode(dir),
    };
    write_atomic_mode(path, bytes, mode)
}

/// As `write_atomic`, the file getting `mode` whatever it had: a private record stays private
/// even when someone made it readable.
pub fn write_atomic_mode(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file()
        .set_permissions(fs::Permissions::from_mode(mode))?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Makes a new file only its owner can read (mode 0600) holding `bytes`, synced to disk: a key
/// or a code. It is published whole or not at all: written to a temporary file beside it, then
/// hard-linked into place, so a reader never sees it empty or half-written. It is never
/// overwritten: when the file exists the error is `AlreadyExists`, so of two processes making
/// it at once, both end up with the first one's.
pub fn write_private_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    // tempfile makes its files 0600, with a name no one else can predict.
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    // link() fails with EEXIST rather than replace: the first one published stays.
    fs::hard_link(tmp.path(), path)?;
    // The new name lasts a crash too; the temporary one goes when `tmp` is dropped.
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Makes the folder `path` (and its parents) and sets it to `mode`, whether it was new or not:
/// a class folder's own folders are its owner's alone.
pub fn private_dir(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::create_dir_all(path)?;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
}

/// Opens `path` (made empty if missing, never truncated) and locks it for this process alone,
/// waiting for any other holder: writers sharing a folder take turns. Dropping the file unlocks.
pub fn lock_file(path: &Path) -> io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Empty, but nobody else's to open (an open file can be locked by anyone who has it).
    let f = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .open(path)?;
    f.lock()?;
    Ok(f)
}

/// Reads a text file; `None` when it is missing or unreadable (or not a regular file, or larger
/// than `READ_CAP`).
pub fn read_opt(path: &Path) -> Option<String> {
    read_capped(path, READ_CAP)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// The most any machine file is read at once: files of a simulated machine are small, and one
/// replaced by a link to /dev/zero must not fill memory.
pub const READ_CAP: u64 = 32 << 20;

/// Reads a regular file of at most `cap` bytes. A FIFO, device or directory in its place is an
/// error at once (opened non-blocking, so a FIFO without a writer cannot hang the reader).
pub fn read_capped(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let f = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is not a regular file", path.display()),
        ));
    }
    let mut buf = Vec::new();
    f.take(cap + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > cap {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is larger than {cap} bytes", path.display()),
        ));
    }
    Ok(buf)
}

/// Files become `file` (keeping their execute bits) and folders `dir`, recursively. Symlinks
/// and other mounts inside (host /etc entries bound read-only) are left alone; an entry that
/// cannot be changed does not stop the walk.
pub fn set_modes(path: &Path, file: u32, dir: u32) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::symlink_metadata(path)?;
    walk_modes(path, &meta, meta.dev(), file, dir);
    Ok(())
}

fn walk_modes(path: &Path, meta: &fs::Metadata, dev: u64, file: u32, dir: u32) {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if meta.file_type().is_symlink() || meta.dev() != dev {
        return;
    }
    if meta.is_dir() {
        if let Ok(rd) = fs::read_dir(path) {
            for e in rd.flatten() {
                if let Ok(m) = fs::symlink_metadata(e.path()) {
                    walk_modes(&e.path(), &m, dev, file, dir);
                }
            }
        }
        let _ = fs::set_permissions(path, fs::Permissions::from_mode(dir));
    } else if meta.is_file() {
        let exec = meta.permissions().mode() & 0o111;
        let _ = fs::set_permissions(path, fs::Permissions::from_mode(file | exec));
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn modes_change_below_a_folder_but_execute_bits_and_links_stay() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let top = d.path().join("etc");
        fs::create_dir_all(top.join("sub")).unwrap();
        fs::write(top.join("sub/plain"), "x").unwrap();
        fs::write(top.join("tool"), "x").unwrap();
        fs::set_permissions(top.join("tool"), fs::Permissions::from_mode(0o755)).unwrap();
        let outside = d.path().join("outside");
        fs::write(&outside, "x").unwrap();
        fs::set_permissions(&outside, fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::symlink(&outside, top.join("link")).unwrap();
        set_modes(&top, 0o444, 0o555).unwrap();
        let mode = |p: &Path| fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode(&top.join("sub/plain")), 0o444);
        assert_eq!(mode(&top.join("tool")), 0o555);
        assert_eq!(mode(&top.join("sub")), 0o555);
        // The link was not followed: the file it names keeps its mode.
        assert_eq!(mode(&outside), 0o600);
        fs::set_permissions(&top, fs::Permissions::from_mode(0o755)).unwrap();
        fs::set_permissions(top.join("sub"), fs::Permissions::from_mode(0o755)).unwrap();
    }

    use super::*;

    #[test]
    fn a_machine_file_swapped_for_dev_zero_or_a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let zero = dir.path().join("state.json");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert!(read_capped(&zero, READ_CAP).is_err());
        assert_eq!(read_opt(&zero), None);
        let fifo = dir.path().join("fifo.json");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        // No writer: a blocking open would never return.
        assert!(read_capped(&fifo, READ_CAP).is_err());
        let big = dir.path().join("big");
        fs::write(&big, vec![b'x'; 2048]).unwrap();
        assert!(read_capped(&big, 1024).is_err());
        assert_eq!(read_capped(&big, 4096).unwrap().len(), 2048);
    }

    #[test]
    fn a_private_file_is_owner_only_and_never_overwritten() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("key");
        write_private_new(&path, b"first").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let again = write_private_new(&path, b"second").unwrap_err();
        assert_eq!(again.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&path).unwrap(), b"first");
    }

    #[test]
    fn a_record_in_a_private_folder_is_private_and_elsewhere_readable() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o7777;
        let (private, shared) = (dir.path().join("private"), dir.path().join("shared"));
        private_dir(&private, 0o700).unwrap();
        private_dir(&shared, 0o755).unwrap();
        write_atomic_as_folder(&private.join("a.json"), b"{}").unwrap();
        write_atomic_as_folder(&shared.join("a.json"), b"{}").unwrap();
        assert_eq!(mode(&private.join("a.json")), 0o600);
        assert_eq!(mode(&shared.join("a.json")), 0o644);
        // A folder made private later keeps the files it has as they are until rewritten...
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o700)).unwrap();
        write_atomic_as_folder(&shared.join("a.json"), b"[]").unwrap();
        assert_eq!(mode(&shared.join("a.json")), 0o644);
        // ...and its new ones are private.
        write_atomic_as_folder(&shared.join("b.json"), b"[]").unwrap();
        assert_eq!(mode(&shared.join("b.json")), 0o600);
        assert_eq!(mode(&private), 0o700);
        create_dir_as_folder(&private.join("ana/packs/x")).unwrap();
        assert_eq!(mode(&private.join("ana")), 0o700);
        assert_eq!(mode(&private.join("ana/packs/x")), 0o700);
    }

    #[test]
    fn an_atomic_write_keeps_the_mode_of_the_file_it_replaces() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("sub/new.json");
        write_atomic(&new, b"{}").unwrap();
        assert_eq!(fs::read(&new).unwrap(), b"{}");
        assert_eq!(
            fs::metadata(&new).unwrap().permissions().mode() & 0o7777,
            0o644
        );
        fs::set_permissions(&new, fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&new, b"[1]").unwrap();
        assert_eq!(fs::read(&new).unwrap(), b"[1]");
        assert_eq!(
            fs::metadata(&new).unwrap().permissions().mode() & 0o7777,
            0o600
        );
        // Nothing but the file itself is left in its folder.
        assert_eq!(fs::read_dir(new.parent().unwrap()).unwrap().count(), 1);
    }
}
