//! Who may log in: `roster.toml` in the class folder, `[[learner]]` and `[[instructor]]`
//! entries with a `name` and an OpenSSH public key line.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use russh::keys::PublicKey;
use serde::Deserialize;

use crate::content::Msg;

/// What a login is allowed to open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Learner,
    Instructor,
}

impl Role {
    pub fn word(self) -> &'static str {
        match self {
            Role::Learner => "learner",
            Role::Instructor => "instructor",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Person {
    pub name: String,
    pub role: Role,
    pub key: PublicKey,
}

#[derive(Debug, Default)]
pub struct Roster {
    pub people: Vec<Person>,
}

/// The answer to "may NAME log in with KEY".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Welcome(Role),
    UnknownName,
    WrongKey,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    learner: Vec<toml::Spanned<Entry>>,
    #[serde(default)]
    instructor: Vec<toml::Spanned<Entry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: toml::Spanned<String>,
    key: toml::Spanned<String>,
}

/// The file's name in the class folder.
pub const FILE: &str = "roster.toml";
/// A roster larger than this is not a class list.
const CAP: u64 = 1 << 20;

/// A login name: what a learner types before `@`, and their folder's name on the server.
pub fn valid_name(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        && name.as_bytes()[0].is_ascii_alphanumeric()
}

impl Roster {
    /// Reads `DIR/roster.toml`; an error names the file and line and says what to fix.
    pub fn load(class: &Path) -> Result<Roster, Msg> {
        let path = class.join(FILE);
        let bytes = crate::hostfs::read_named(&path, CAP).map_err(|r| {
            Msg::new("serve-roster-unreadable")
                .arg("path", path.display())
                .arg("why", r.msg().to_string())
        })?;
        let text = String::from_utf8(bytes).map_err(|_| {
            Msg::new("serve-roster-bad")
                .arg("at", path.display())
                .arg("why", "not UTF-8 text")
        })?;
        Roster::parse(&text, &path.display().to_string())
    }

    /// Parses roster text; `origin` names it in errors (`origin:line`).
    pub fn parse(text: &str, origin: &str) -> Result<Roster, Msg> {
        let at = |offset: usize| format!("{origin}:{}", line_of(text, offset));
        let file: File = toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            Msg::new("serve-roster-bad")
                .arg("at", at(offset))
                .arg("why", e.message().trim().to_string())
        })?;
        let mut people: Vec<Person> = Vec::new();
        let entries = file
            .learner
            .into_iter()
            .map(|e| (Role::Learner, e))
            .chain(file.instructor.into_iter().map(|e| (Role::Instructor, e)));
        for (role, entry) in entries {
            let entry = entry.into_inner();
            let name = entry.name.get_ref().trim().to_string();
            if !valid_name(&name) {
                return Err(Msg::new("serve-roster-bad-name")
                    .arg("at", at(entry.name.span().start))
                    .arg("name", name));
            }
            if people.iter().any(|p| p.name == name) {
                return Err(Msg::new("serve-roster-twice")
                    .arg("at", at(entry.name.span().start))
                    .arg("name", name));
            }
            let key = PublicKey::from_openssh(entry.key.get_ref().trim()).map_err(|e| {
                Msg::new("serve-roster-bad-key")
                    .arg("at", at(entry.key.span().start))
                    .arg("name", name.clone())
                    .arg("why", e.to_string())
            })?;
            people.push(Person { name, role, key });
        }
        Ok(Roster { people })
    }

    /// Whether `name` may log in: a name on the roster (`known`), and then the key.
    pub fn known(&self, name: &str) -> bool {
        self.people.iter().any(|p| p.name == name)
    }

    pub fn decide(&self, name: &str, key: &PublicKey) -> Decision {
        match self.people.iter().find(|p| p.name == name) {
            None => Decision::UnknownName,
            // The comment after the key is the owner's label, not part of the key.
            Some(p) if p.key.key_data() == key.key_data() => Decision::Welcome(p.role),
            Some(_) => Decision::WrongKey,
        }
    }

    pub fn learners(&self) -> impl Iterator<Item = &Person> {
        self.people.iter().filter(|p| p.role == Role::Learner)
    }
}

/// What a first login with the class code did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joined {
    Added,
    /// Someone has that name already.
    Taken,
}

/// Whether `name` was ever a learner of the class: their folder holds their progress and their
/// signed files are in the submit folder, so a learner taken off the roster keeps the name, and
/// whoever has the class code cannot join as them and inherit it all.
pub fn had_folder(class: &Path, name: &str) -> bool {
    std::fs::symlink_metadata(crate::progress::learner_dir(class, name)).is_ok()
}

/// Adds `name` with `key` as a learner to the class's roster, unless the name is taken (on the
/// roster, or a learner's folder that is not on it any more: `had_folder`). Under a
/// lock (servers sharing the folder), the file is read again (capped), written whole to a new
/// file and renamed over the old one, so a reader never sees half of it.
pub fn join(class: &Path, name: &str, key: &PublicKey) -> std::io::Result<Joined> {
    use std::io::Write;
    let _lock = crate::unix::files::lock_file(&class.join(LOCK))?;
    let path = class.join(FILE);
    let bytes = crate::hostfs::read_named(&path, CAP)
        .map_err(|r| std::io::Error::other(r.msg().to_string()))?;
    let mut text = String::from_utf8(bytes).map_err(std::io::Error::other)?;
    let origin = path.display().to_string();
    let roster = Roster::parse(&text, &origin).map_err(|m| std::io::Error::other(m.to_string()))?;
    if roster.known(name) || had_folder(class, name) {
        return Ok(Joined::Taken);
    }
    // The key alone: whatever comment the client's copy carries is not ours to keep.
    let line = PublicKey::new(key.key_data().clone(), "")
        .to_openssh()
        .map_err(std::io::Error::other)?;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&format!(
        "\n# joined with the class code\n[[learner]]\nname = \"{name}\"\nkey = \"{line}\"\n"
    ));
    if text.len() as u64 > CAP {
        return Err(std::io::Error::other("the roster is full"));
    }
    Roster::parse(&text, &origin).map_err(|m| std::io::Error::other(m.to_string()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(class)?;
    tmp.write_all(text.as_bytes())?;
    tmp.as_file().sync_all()?;
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(Joined::Added)
}

/// The lock file of roster changes, next to the roster.
const LOCK: &str = "roster.lock";

/// The file's identity and size: a change means "read it again".
type Stamp = (u64, i64, i64, u64);

fn stamp(path: &Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some((m.ino(), m.mtime(), m.mtime_nsec(), m.size()))
}

/// The roster as a server uses it: read again when the file changed (a learner joined with the
/// class code, through this server or another one on the folder, or the instructor edited it).
/// A file that no longer reads is said in the log, and the last good roster kept.
pub struct Live {
    class: PathBuf,
    now: Mutex<(Option<Stamp>, Arc<Roster>)>,
}

impl Live {
    pub fn new(class: &Path, roster: Roster) -> Live {
        Live {
            class: class.to_path_buf(),
            now: Mutex::new((stamp(&class.join(FILE)), Arc::new(roster))),
        }
    }

    pub fn get(&self) -> Arc<Roster> {
        let fresh = stamp(&self.class.join(FILE));
        let Ok(mut now) = self.now.lock() else {
            return Arc::new(Roster::default());
        };
        if fresh != now.0 {
            now.0 = fresh;
            match Roster::load(&self.class) {
                Ok(r) => now.1 = Arc::new(r),
                Err(m) => eprintln!("serve: {m} (the roster read before stays in use)"),
            }
        }
        now.1.clone()
    }
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY_A: &str = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGVujA3cxiovefmTlENBEqxsxkG7X/5/5ua2IjEiKufJ ana@laptop";
    const KEY_B: &str =
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILYvfwPDno0GdeyOH6N+x+6g4B1vAaT1HVb6tZCsYhLX";

    fn roster(text: &str) -> Result<Roster, String> {
        Roster::parse(text, "roster.toml").map_err(|m| m.to_string())
    }

    #[test]
    fn learners_and_instructors_with_their_keys() {
        let r = roster(&format!(
            "[[learner]]\nname = \"ana\"\nkey = \"{KEY_A}\"\n\n[[instructor]]\nname = \"kim\"\nkey = \"{KEY_B}\"\n"
        ))
        .unwrap();
        let a = PublicKey::from_openssh(KEY_A).unwrap();
        let b = PublicKey::from_openssh(KEY_B).unwrap();
        assert_eq!(r.decide("ana", &a), Decision::Welcome(Role::Learner));
        assert_eq!(r.decide("kim", &b), Decision::Welcome(Role::Instructor));
        assert_eq!(r.decide("ana", &b), Decision::WrongKey);
        assert_eq!(r.decide("bob", &a), Decision::UnknownName);
        assert_eq!(r.learners().count(), 1);
    }

    #[test]
    fn a_bad_key_is_named_with_its_line() {
        let err = roster("[[learner]]\nname = \"ana\"\nkey = \"ssh-ed25519 AAAA\"\n").unwrap_err();
        assert!(err.contains("roster.toml:3"), "{err}");
        assert!(err.contains("ana"), "{err}");
    }

    #[test]
    fn syntax_and_unknown_fields_name_the_line() {
        let err =
            roster("[[learner]]\nname = \"ana\"\nkey = \"x\"\npassword = \"p\"\n").unwrap_err();
        assert!(err.contains("roster.toml:"), "{err}");
        let err = roster("[[learner]]\nname = \"ana\nkey = 1\n").unwrap_err();
        assert!(err.contains("roster.toml:2"), "{err}");
    }

    #[test]
    fn a_learner_joins_once_and_the_server_sees_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(FILE),
            format!("[[instructor]]\nname = \"kim\"\nkey = \"{KEY_B}\""),
        )
        .unwrap();
        let live = Live::new(dir.path(), Roster::load(dir.path()).unwrap());
        let a = PublicKey::from_openssh(KEY_A).unwrap();
        assert_eq!(live.get().decide("ana", &a), Decision::UnknownName);
        assert_eq!(join(dir.path(), "ana", &a).unwrap(), Joined::Added);
        assert_eq!(join(dir.path(), "ana", &a).unwrap(), Joined::Taken);
        assert_eq!(join(dir.path(), "kim", &a).unwrap(), Joined::Taken);
        assert_eq!(
            live.get().decide("ana", &a),
            Decision::Welcome(Role::Learner)
        );
        let b = PublicKey::from_openssh(KEY_B).unwrap();
        assert_eq!(live.get().decide("ana", &b), Decision::WrongKey);
        // The comment of the key the client sent is not written.
        let text = std::fs::read_to_string(dir.path().join(FILE)).unwrap();
        assert!(!text.contains("ana@laptop"), "{text}");
        // A learner taken off the roster keeps their name: their folder is there.
        std::fs::create_dir_all(crate::progress::learner_dir(dir.path(), "bob")).unwrap();
        assert_eq!(join(dir.path(), "bob", &a).unwrap(), Joined::Taken);
        assert_eq!(live.get().decide("bob", &a), Decision::UnknownName);
        // A roster broken by hand keeps the last good one in use.
        std::fs::write(dir.path().join(FILE), "[[learner]]\nname = 1\n").unwrap();
        assert_eq!(
            live.get().decide("ana", &a),
            Decision::Welcome(Role::Learner)
        );
    }

    #[test]
    fn names_are_plain_and_unique() {
        let err = roster(&format!(
            "[[learner]]\nname = \"../x\"\nkey = \"{KEY_A}\"\n"
        ))
        .unwrap_err();
        assert!(err.contains("roster.toml:2"), "{err}");
        let err = roster(&format!(
            "[[learner]]\nname = \"ana\"\nkey = \"{KEY_A}\"\n[[learner]]\nname = \"ana\"\nkey = \"{KEY_B}\"\n"
        ))
        .unwrap_err();
        assert!(err.contains("roster.toml:5"), "{err}");
        assert!(valid_name("ana-1") && !valid_name("-x") && !valid_name("Ana"));
    }
}
