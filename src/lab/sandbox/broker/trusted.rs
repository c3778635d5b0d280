//! A simulated tool run by the supervisor, outside the learner's domain, in a copy of the
//! supervisor's process (`server` forks; nothing is exec'd). It may act as the identity the
//! supervisor gave it; when it hands over to a program the learner controls, it reports who
//! that program is and confines it first.

use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Report;
use crate::lab::sandbox::confine::{self, Domain};
use crate::lab::sandbox::identity::Identity;
use crate::lab::sandbox::ids::{self, Ids};
use crate::lab::sandbox::{sys, userns};
use crate::sim::entry::{self, HandOver, Host, Streams};
use crate::sim::{NodeMeta, Program};
use crate::sim_host;

/// The address space a program the tool hands over to may map: a login's
/// (`supervisor::MAX_MEMORY`, which a test keeps alike; named here, as the supervisor
/// imports the broker).
const PROGRAM_MEMORY: u64 = 1 << 30;

struct Lab {
    confine: bool,
    /// The sandbox maps the machine's ids and this tool runs as its root: the program it hands
    /// over to is switched to its user's ids for real (`ids::switch_to`).
    real_ids: bool,
    /// The supervisor's end for this tool's reports (close-on-exec: a program the tool hands
    /// over to never gets it).
    report: UnixStream,
    /// The caller's environment as the tool sees it.
    env: Vec<(String, String)>,
    /// The caller's folder.
    cwd: PathBuf,
}

/// The ids `who` runs with: its session's groups where the session is its own.
fn ids_of(who: &HandOver) -> Ids {
    let root = std::path::Path::new("/");
    let gids = crate::sim::State::load_recorded(root)
        .ok()
        .and_then(|st| st.sessions.get(&who.session).cloned())
        .filter(|s| s.uid == who.uid)
        .map(|s| s.gids);
    ids::account_ids(root, who.uid, gids)
}

impl Host for Lab {
    fn vouches(&self) -> bool {
        true
    }
    fn euid(&self) -> u32 {
        sim_host::euid()
    }
    fn chown(&self, path: &Path, uid: u32, gid: u32) -> io::Result<()> {
        sim_host::chown(path, uid, gid)
    }
    fn device_node(&self, path: &str, major: u32, minor: u32) -> Option<NodeMeta> {
        sim_host::device_node(path, major, minor)
    }
    fn env(&self) -> &[(String, String)] {
        &self.env
    }
    fn cwd(&self) -> Option<PathBuf> {
        Some(self.cwd.clone())
    }
    fn now(&self) -> Duration {
        sim_host::now()
    }
    fn exec(&self, program: &Program) -> io::Error {
        sim_host::exec(program)
    }

    fn become_id(&self, uid: u32, gid: u32) -> io::Result<()> {
        // As root of a namespace with the machine's ids the tool already may act as anyone;
        // the program it hands over to changes ids at the hand-over, with its groups.
        if self.real_ids {
            return Ok(());
        }
        userns::become_id(uid, gid)
    }

    fn handing_over(&self, who: &HandOver) -> io::Result<()> {
        let id = Identity {
            user: who.user.clone(),
            uid: who.uid,
            home: who.home.clone(),
            session: who.session.clone(),
        };
        self.report(&Report::HandOver(id))?;
        // The supervisor has registered this pid once it answers: whatever the program sends
        // from its first instruction on is attributed to `who`.
        let mut ack = [0u8; 1];
        (&self.report).read_exact(&mut ack)?;
        // Looked up before the switch: the state is root's to read.
        let ids = self.real_ids.then(|| ids_of(who));
        // The program is the learner's: held to a login's memory limit.
        sys::limit_memory(PROGRAM_MEMORY)?;
        if self.confine
            && let Err(e) = confine::apply(&Domain::for_uid(who.uid, &who.home))
        {
            return Err(io::Error::other(format!("cannot confine the program: {e}")));
        }
        match ids {
            Some(ids) => ids::switch_to(&ids)
                .map_err(|e| io::Error::other(format!("cannot set the user's ids: {e}"))),
            None => Ok(()),
        }
    }

    fn rebooted(&self) {
        let _ = self.report(&Report::Rebooted);
    }
}

impl Lab {
    /// Sends one report to the supervisor.
    fn report(&self, r: &Report) -> io::Result<()> {
        let body = serde_json::to_vec(r).map_err(io::Error::other)?;
        (&self.report).write_all(&body)
    }
}

/// What the supervisor hands a tool it runs.
pub struct Job {
    /// The tool and its arguments.
    pub tool: String,
    pub args: Vec<String>,
    /// The caller's environment as the tool sees it, and its folder.
    pub env: Vec<(String, String)>,
    pub cwd: PathBuf,
    /// The caller's stdin, stdout and stderr.
    pub stdio: [OwnedFd; 3],
    /// The logins' socket (a number the supervisor keeps open), kept on `SHELL_FD` for the
    /// programs the tool hands over to.
    pub shell: i32,
    /// The tool's end of its report socket.
    pub report: OwnedFd,
    /// The caller's process group (0: stay in the supervisor's).
    pub pgid: i32,
    /// Whether the learner's programs are confined.
    pub confined: bool,
}

/// The tool, in the child of `sys::fork_then`: the caller's streams, process group and folder,
/// the supervisor's own capabilities given up, then the simulator's entry. Keeps to what such
/// a child may do: no lock the supervisor's other threads take, no standard stream of the
/// library (`sim_host::Stream` writes to the descriptors).
pub fn run_forked(job: Job) -> i32 {
    const REPORT_FD: i32 = 98;
    use std::os::fd::AsRawFd;
    let keep = [
        (job.shell, crate::lab::wire::protocol::SHELL_FD),
        (job.report.as_raw_fd(), REPORT_FD),
    ];
    // The report socket's owner goes with the copy of the parent's descriptors it closes.
    std::mem::forget(job.report);
    if sys::adopt_streams(job.stdio, &keep).is_err() {
        return 126;
    }
    let Some(report) = sys::take_fd(REPORT_FD).map(UnixStream::from) else {
        return 126;
    };
    if job.pgid > 0 {
        // The terminal's Ctrl-C and Ctrl-Z reach the tool as they reach the wrapper that asked,
        // and a foreground tool may read the terminal. A caller in another session keeps the
        // tool in the supervisor's group.
        let _ = rustix::process::setpgid(None, rustix::process::Pid::from_raw(job.pgid));
    }
    if ids::as_a_tool().is_err() {
        return 126;
    }
    let _ = std::env::set_current_dir(&job.cwd);
    let lab = Lab {
        confine: job.confined,
        real_ids: userns::euid() == 0 && userns::many_ids(),
        report,
        env: job.env,
        cwd: job.cwd,
    };
    let (mut out, mut err) = (sim_host::Stream::stdout(), sim_host::Stream::stderr());
    entry::main(
        &job.tool,
        &job.args,
        &lab,
        &mut Streams {
            console: &mut sim_host::Terminal::new(),
            out: &mut out,
            err: &mut err,
        },
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_program_handed_over_to_gets_a_logins_memory_limit() {
        assert_eq!(
            super::PROGRAM_MEMORY,
            crate::lab::sandbox::supervisor::MAX_MEMORY
        );
    }
}
