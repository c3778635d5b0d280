//! The real system around the simulator. Everything the simulator asks of it or does to it goes
//! through [`Host`]: the process's own user id, giving a file to its caller, the real device
//! nodes when the machine's root is this system's `/`, the caller's environment and folder,
//! the clock, replacing the process with a real program, and the hooks of the program running
//! the tools (the lab's broker). The hosts that do this for real live with the programs that
//! run the simulator, outside this crate; tests use [`Fake`], so they take the same paths
//! whether they run as root or as a normal user.

use std::cell::RefCell;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Who runs the program a tool hands over to (sudo's command, su's and newgrp's shell).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandOver {
    /// Login name.
    pub user: String,
    /// Its uid.
    pub uid: u32,
    /// Its home folder inside the machine.
    pub home: String,
    /// The login session the program runs in.
    pub session: String,
}

/// Owner, group and permission bits of a real device node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeMeta {
    /// Owner's uid.
    pub uid: u32,
    /// Group's gid.
    pub gid: u32,
    /// Permission bits (`0o660`).
    pub mode: u32,
}

/// A real program a tool hands over to (sudo's command, su's and newgrp's shell): everything
/// the host needs to replace the tool's process with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The file to run.
    pub path: PathBuf,
    /// The name it is given (`argv[0]`): as typed, as a shell runs it.
    pub arg0: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its whole environment.
    pub env: Vec<(String, String)>,
    /// The folder it starts in; None keeps the tool's.
    pub cwd: Option<PathBuf>,
}

/// The real system the simulator runs on, and the program around it. Every effect on the real
/// system goes through here, and has no default: a host that runs tools for real (the app's,
/// the lab broker's, outside this crate) and one that stands for another system ([`Fake`])
/// each say what it does.
pub trait Host {
    /// True when the tools run on a machine whose caller the host vouches for: the caller then
    /// comes from the environment the host set, never from the process's own ids.
    fn vouches(&self) -> bool;
    /// Becomes `uid` for real before the tool acts (sudo, su). Called while single-threaded.
    fn become_id(&self, uid: u32, gid: u32) -> io::Result<()>;
    /// Right before a program the learner controls replaces this process, running as `who`.
    fn handing_over(&self, who: &HandOver) -> io::Result<()>;
    /// The tool rebooted the machine: the host ends every program on it.
    fn rebooted(&self);
    /// The effective uid of this process.
    fn euid(&self) -> u32;
    /// Gives `path` (a link itself, not its target) to `uid` and `gid`.
    fn chown(&self, path: &Path, uid: u32, gid: u32) -> io::Result<()>;
    /// Owner, group and mode of the node at `path` of this system, when it is the character
    /// device `major`:`minor`.
    fn device_node(&self, path: &str, major: u32, minor: u32) -> Option<NodeMeta>;
    /// The caller's environment, as the program around the simulator received it.
    fn env(&self) -> &[(String, String)];
    /// The caller's working folder, a path of this system.
    fn cwd(&self) -> Option<PathBuf>;
    /// Time since the Unix epoch.
    fn now(&self) -> Duration;
    /// Replaces this process with `program`; returns only when that failed, with the reason.
    fn exec(&self, program: &Program) -> io::Error;
}

/// `host`'s environment variable `name`, when it is set and not empty.
pub fn var(host: &dyn Host, name: &str) -> Option<String> {
    host.env()
        .iter()
        .find(|(n, v)| n == name && !v.is_empty())
        .map(|(_, v)| v.clone())
}

/// A system in memory, for tests: ids, device nodes, the environment and the clock are what its
/// fields say, and a change of owner is recorded instead of made.
#[derive(Debug)]
pub struct Fake {
    /// The effective uid the process seems to have (0 by default: every path root takes).
    pub euid: u32,
    /// Real device nodes by path, device numbers and metadata (none by default).
    pub nodes: Vec<(String, (u32, u32), NodeMeta)>,
    /// The program's environment (none by default).
    pub vars: Vec<(String, String)>,
    /// Time since the Unix epoch.
    pub now: Duration,
    /// The caller's working folder (none by default).
    pub cwd: Option<PathBuf>,
    /// Every change of owner asked for: path, uid, gid.
    pub chowned: RefCell<Vec<(PathBuf, u32, u32)>>,
    /// Every program the tools handed over to, in order (none is run).
    pub execs: RefCell<Vec<Program>>,
}

impl Default for Fake {
    fn default() -> Self {
        Fake {
            euid: 0,
            nodes: Vec::new(),
            vars: Vec::new(),
            // 2024-11-05 09:00:00 UTC, the simulated machines' boot.
            now: Duration::from_secs(1_730_797_200),
            cwd: None,
            chowned: RefCell::new(Vec::new()),
            execs: RefCell::new(Vec::new()),
        }
    }
}

impl Fake {
    /// A process run by the normal user `uid`.
    pub fn user(uid: u32) -> Self {
        Fake {
            euid: uid,
            ..Fake::default()
        }
    }
}

impl Host for Fake {
    fn vouches(&self) -> bool {
        false
    }
    fn become_id(&self, _uid: u32, _gid: u32) -> io::Result<()> {
        Ok(())
    }
    fn handing_over(&self, _who: &HandOver) -> io::Result<()> {
        Ok(())
    }
    fn rebooted(&self) {}
    fn euid(&self) -> u32 {
        self.euid
    }
    fn chown(&self, path: &Path, uid: u32, gid: u32) -> io::Result<()> {
        self.chowned
            .borrow_mut()
            .push((path.to_path_buf(), uid, gid));
        Ok(())
    }
    fn device_node(&self, path: &str, major: u32, minor: u32) -> Option<NodeMeta> {
        self.nodes
            .iter()
            .find(|(p, n, _)| p == path && *n == (major, minor))
            .map(|(_, _, m)| *m)
    }
    fn env(&self) -> &[(String, String)] {
        &self.vars
    }
    fn cwd(&self) -> Option<PathBuf> {
        self.cwd.clone()
    }
    fn now(&self) -> Duration {
        self.now
    }
    fn exec(&self, program: &Program) -> io::Error {
        self.execs.borrow_mut().push(program.clone());
        io::Error::other("a fake host runs no program")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::testkit::Machine;

    const KEY: &str = "wget -q https://repo.radeon.com/rocm/rocm.gpg.key -O /home/learner/rocm.key";

    #[test]
    fn a_file_written_by_a_root_process_for_the_learner_is_given_to_the_learner() {
        let m = Machine::stage();
        assert_eq!(m.learner(KEY).code, 0);
        let chowned = m.host.chowned.borrow();
        assert_eq!(chowned.len(), 1, "{chowned:?}");
        assert!(chowned[0].0.ends_with("home/learner/rocm.key"));
        assert_eq!((chowned[0].1, chowned[0].2), (1000, 1000));
        // Root's own files stay root's.
        drop(chowned);
        let root = m.root_runs(&KEY.replace("rocm.key", "root.key"));
        assert_eq!(root.code, 0, "{root:?}");
        assert_eq!(m.host.chowned.borrow().len(), 1);
    }

    #[test]
    fn a_normal_users_process_changes_no_owner() {
        let m = Machine::on(Fake::user(1000), |_| {});
        assert_eq!(m.learner(KEY).code, 0);
        assert!(m.host.chowned.borrow().is_empty());
        assert!(m.root().join("home/learner/rocm.key").is_file());
    }

    #[test]
    fn on_this_systems_root_the_caller_is_the_process_itself() {
        let caller = crate::entry::caller_from_env(Path::new("/"), &Fake::user(4321));
        assert_eq!(caller.uid, 4321);
        let caller = crate::entry::caller_from_env(Path::new("/"), &Fake::default());
        assert_eq!((caller.uid, caller.user.as_str()), (0, "root"));
    }

    #[test]
    fn device_nodes_of_this_systems_root_are_read_back_from_the_host() {
        let m = Machine::stage();
        let mut state = crate::State::load_recorded(m.root()).unwrap();
        let kfd = state.device("/dev/kfd").unwrap().clone();
        let host = Fake {
            nodes: vec![(
                kfd.path.clone(),
                (kfd.major, kfd.minor),
                NodeMeta {
                    uid: 0,
                    gid: 0,
                    mode: 0o600,
                },
            )],
            ..Fake::default()
        };
        // A stage folder keeps what udev set; the system's own root takes the host's word.
        state.read_back_nodes(m.root(), &host);
        assert_eq!(state.device_mode("/dev/kfd"), Some(kfd.mode));
        state.read_back_nodes(Path::new("/"), &host);
        assert_eq!(state.device_mode("/dev/kfd"), Some(0o600));
        assert_eq!(state.device("/dev/kfd").unwrap().owner, "root");
    }

    #[test]
    fn the_cause_of_a_failed_boot_follows_the_hosts_clock() {
        let causes: Vec<String> = crate::wont_load::CAUSES
            .iter()
            .map(|c| c.to_string())
            .collect();
        let at = |nanos| Fake {
            now: Duration::new(1_730_797_200, nanos),
            ..Fake::default()
        };
        assert_eq!(
            crate::wont_load::pick(&causes, &at(0)).as_deref(),
            Some("blacklist")
        );
        assert_eq!(
            crate::wont_load::pick(&causes, &at(1)).as_deref(),
            Some("nomodeset")
        );
        // A test that names the cause gets it, whatever the clock says.
        let named = Fake {
            vars: vec![("ROCM_SIM_VARIANT".into(), "dkms".into())],
            ..at(0)
        };
        assert_eq!(
            crate::wont_load::pick(&causes, &named).as_deref(),
            Some("dkms")
        );
    }

    #[test]
    fn the_caller_comes_from_the_hosts_environment() {
        let host = Fake {
            vars: vec![
                (crate::USER_ENV.into(), "alice".into()),
                (crate::UID_ENV.into(), "1001".into()),
            ],
            ..Fake::default()
        };
        let m = Machine::stage();
        let caller = crate::entry::caller_from_env(m.root(), &host);
        assert_eq!((caller.user.as_str(), caller.uid), ("alice", 1001));
        // Without the variables: the learner of the stage, by its account.
        let caller = crate::entry::caller_from_env(m.root(), &Fake::user(4321));
        assert_eq!((caller.user.as_str(), caller.uid), ("learner", 1000));
    }
}
