//! Landlock domains for the learner's processes, so that the machine's files cannot be written
//! behind the simulator's back. Reads and execution stay open (the machine is the learner's to
//! explore); writes are allowed only where the identity could write on Ubuntu:
//!
//! - a user: their home, /tmp, /var/tmp, the terminals, /dev/null and its kin, /dev/shm;
//! - root (after sudo): everything but what stands in for the kernel, the simulator's state
//!   (/var/lib/rocm-sim) and the lab's channel (/run/rocm-lab), which only the simulated tools
//!   change, run by the supervisor outside any domain.
//!
//! A domain can only be narrowed: what the learner starts inherits it, and Landlock keeps a
//! confined process from tracing the supervisor. Applied by a single-threaded process right
//! before it runs the learner's program (`__lab-exec`, or a brokered tool before its exec).

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use landlock::{
    ABI, AccessFs, BitFlags, CompatLevel, Compatible, PathBeneath, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus,
};

/// What only the simulated tools may change (see module docs).
pub const KERNEL_SIDE: [&str; 2] = crate::content::lab::SIMULATOR_OWN;

/// What of /dev anyone may write: the terminals, the usual character devices, /dev/shm.
const DEVICES: [&str; 9] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/console",
    "/dev/pts",
    "/dev/shm",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Domain {
    /// A normal user with this home folder.
    User { home: String },
    /// root, after sudo or su.
    Root,
}

impl Domain {
    /// The domain for `uid` with `home`.
    pub fn for_uid(uid: u32, home: &str) -> Domain {
        if uid == 0 {
            Domain::Root
        } else {
            Domain::User { home: home.into() }
        }
    }

    /// As an argument of `__lab-exec`: `root` or `user:HOME`.
    pub fn to_arg(&self) -> String {
        match self {
            Domain::Root => "root".into(),
            Domain::User { home } => format!("user:{home}"),
        }
    }

    pub fn from_arg(s: &str) -> Option<Domain> {
        match s {
            "root" => Some(Domain::Root),
            _ => s
                .strip_prefix("user:")
                .map(|h| Domain::User { home: h.into() }),
        }
    }

    /// The folders and files where this domain may write.
    fn writable(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = DEVICES.iter().map(PathBuf::from).collect();
        match self {
            Domain::User { home } => {
                out.extend([home.as_str(), "/tmp", "/var/tmp"].map(PathBuf::from));
            }
            Domain::Root => {
                // /dev is a tmpfs as large as half the host's memory: nobody creates files
                // there, root included; /dev/shm is a sized tmpfs of its own.
                let mut hidden = KERNEL_SIDE.to_vec();
                hidden.push("/dev");
                out.extend(everything_but(Path::new("/"), &hidden));
            }
        }
        out
    }
}

/// Every entry under `top` except the `hidden` paths, descending only where one of them lies.
fn everything_but(top: &Path, hidden: &[&str]) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(top) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in rd.flatten().take(4096) {
        let p = e.path();
        if hidden.iter().any(|h| Path::new(h) == p) {
            continue;
        }
        if hidden.iter().any(|h| Path::new(h).starts_with(&p)) {
            out.extend(everything_but(&p, hidden));
        } else {
            out.push(p);
        }
    }
    out
}

/// The write rights Landlock can take away (up to ABI 3: file truncation). Device ioctls
/// (ABI 5) are left alone: the terminal needs them.
fn write_rights() -> BitFlags<AccessFs> {
    AccessFs::from_write(ABI::V3)
}

/// Opens `p` for a rule without following a symlink anywhere on the way: a link planted by a
/// root shell must not turn a rule for the home folder into one for the machine's state.
fn open_exact(p: &Path) -> Option<OwnedFd> {
    if std::fs::canonicalize(p).ok()? != p {
        return None;
    }
    use rustix::fs::{Mode, OFlags};
    rustix::fs::open(
        p,
        OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .ok()
}

/// Confines this process and everything it starts to `domain`. True when the kernel enforces
/// it; false on a kernel without Landlock (the lab says so; see `available`).
pub fn apply(domain: &Domain) -> Result<bool, String> {
    let rights = write_rights();
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(rights)
        .and_then(landlock::Ruleset::create)
        .map_err(|e| e.to_string())?;
    for p in domain.writable() {
        let Some(fd) = open_exact(&p) else {
            continue;
        };
        let is_dir = std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir());
        let access = if is_dir {
            rights
        } else {
            rights & AccessFs::from_file(ABI::V3)
        };
        ruleset = ruleset
            .add_rule(PathBeneath::new(fd, access))
            .map_err(|e| e.to_string())?;
    }
    let status = ruleset.restrict_self().map_err(|e| e.to_string())?;
    Ok(status.ruleset != RulesetStatus::NotEnforced)
}

/// Whether this kernel enforces Landlock at all (ABI 1, Linux 5.13 and later, when enabled):
/// a ruleset that must be created as asked is, or is not. (The doctor reports the ABI number
/// itself: `sys::landlock_abi`.)
pub fn available() -> bool {
    Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_write(ABI::V1))
        .and_then(landlock::Ruleset::create)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_survive_the_command_line() {
        for d in [
            Domain::Root,
            Domain::User {
                home: "/home/dana".into(),
            },
        ] {
            assert_eq!(Domain::from_arg(&d.to_arg()), Some(d));
        }
        assert_eq!(Domain::from_arg("admin"), None);
    }

    #[test]
    fn root_may_write_everything_but_the_kernel_side() {
        let dir = tempfile::tempdir().unwrap();
        for p in [
            "var/lib/rocm-sim",
            "var/lib/dpkg",
            "var/log",
            "etc",
            "run/rocm-lab",
        ] {
            std::fs::create_dir_all(dir.path().join(p)).unwrap();
        }
        let hidden = [
            dir.path().join("var/lib/rocm-sim"),
            dir.path().join("run/rocm-lab"),
        ];
        let hidden: Vec<&str> = hidden.iter().map(|p| p.to_str().unwrap()).collect();
        let mut got: Vec<String> = everything_but(dir.path(), &hidden)
            .iter()
            .map(|p| {
                p.strip_prefix(dir.path())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        got.sort();
        assert_eq!(got, ["etc", "var/lib/dpkg", "var/log"]);
    }
}
