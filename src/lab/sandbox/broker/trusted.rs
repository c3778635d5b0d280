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
use crate::lab::sandbox::sys::{self, Step};
use crate::lab::sandbox::userns;
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
        use std::os::unix::process::CommandExt;
        let mut cmd = sim_host::command(program);
        // The program is the learner's: held to a login's memory limit from its first
        // instruction. Set as the last step before the exec, never earlier: this copy of the
        // supervisor may map more than that already, and any allocation under the limit
        // (the hand-over's own) could fail.
        sys::in_child(&mut cmd, Step::LimitMemory(PROGRAM_MEMORY));
        cmd.exec()
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
    /// The caller's environment as the tool sees it, and its folder: the path and the folder
    /// itself (opened `O_PATH`), when the kernel could tell.
    pub env: Vec<(String, String)>,
    pub cwd: PathBuf,
    pub cwd_fd: Option<OwnedFd>,
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
    // First, before this copy of the supervisor reads anything more: no process of the
    // learner's may trace it or read its memory (/proc/PID/mem, environ), even one of the
    // same uid (a root shell). An exec (the hand-over) makes the program dumpable again.
    if seal().is_err() {
        return 126;
    }
    // The caller's very folder, not a path to it that could be swapped meanwhile. Its owner
    // goes with the parent's descriptors `adopt_streams` closes.
    let in_folder = match &job.cwd_fd {
        Some(fd) => rustix::process::fchdir(fd).is_ok(),
        None => std::env::set_current_dir(&job.cwd).is_ok(),
    };
    std::mem::forget(job.cwd_fd);
    if !in_folder {
        return 126;
    }
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

/// Makes this process not dumpable: its /proc files become root's, and only a holder of
/// CAP_SYS_PTRACE (no process in the lab) may trace it or read its memory.
fn seal() -> io::Result<()> {
    Ok(rustix::process::set_dumpable_behavior(
        rustix::process::DumpableBehavior::NotDumpable,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::wire::fdpass;
    use rustix::process::{Pid, Resource, WaitOptions, getrlimit, waitpid};

    #[test]
    fn a_program_handed_over_to_gets_a_logins_memory_limit() {
        assert_eq!(PROGRAM_MEMORY, crate::lab::sandbox::supervisor::MAX_MEMORY);
    }

    /// The exit status of the forked `pid`, or None when it has not ended within 5 seconds
    /// (it is killed then).
    fn ended(pid: i32) -> Option<i32> {
        let pid = Pid::from_raw(pid).unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        loop {
            if let Ok(Some((_, st))) = waitpid(Some(pid), WaitOptions::NOHANG) {
                return st.exit_status();
            }
            if std::time::Instant::now() > deadline {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                let _ = waitpid(Some(pid), WaitOptions::empty());
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn the_memory_limit_is_the_programs_alone_never_the_tools() {
        let (report, report_child) = fdpass::pair(fdpass::SocketType::SEQPACKET).unwrap();
        let (mut out_r, out_w) = std::io::pipe().unwrap();
        let ours = getrlimit(Resource::As).current;
        let pid = sys::fork_then(move || {
            let lab = Lab {
                confine: false,
                real_ids: false,
                report: UnixStream::from(report_child),
                env: Vec::new(),
                cwd: PathBuf::from("/"),
            };
            let who = HandOver {
                user: "learner".into(),
                uid: 1000,
                home: "/home/learner".into(),
                session: "s1".into(),
            };
            if lab.handing_over(&who).is_err() {
                return 3;
            }
            // The tool goes on after the hand-over's report: it keeps the supervisor's limit
            // (whatever it maps already), or any allocation of it could fail.
            if getrlimit(Resource::As).current != ours {
                return 4;
            }
            if rustix::stdio::dup2_stdout(&out_w).is_err() {
                return 5;
            }
            let program = Program {
                path: PathBuf::from("/bin/sh"),
                arg0: "sh".into(),
                args: vec!["-c".into(), "ulimit -v".into()],
                env: vec![("PATH".into(), "/usr/bin:/bin".into())],
                cwd: None,
            };
            let _ = lab.exec(&program);
            6
        })
        .unwrap();
        // The supervisor's side of the hand-over: a report, answered with one byte.
        let mut report = UnixStream::from(report);
        let mut buf = [0u8; 4096];
        let n = report.read(&mut buf).unwrap();
        assert!(matches!(
            serde_json::from_slice::<Report>(&buf[..n]),
            Ok(Report::HandOver(_))
        ));
        report.write_all(&[1]).unwrap();
        let status = ended(pid);
        let mut said = String::new();
        out_r.read_to_string(&mut said).unwrap_or_default();
        assert_eq!(status, Some(0), "the tool or its program failed");
        // ulimit -v reports KiB: the program runs under a login's 1 GiB.
        assert_eq!(said.trim(), "1048576");
    }

    #[test]
    fn a_tool_forked_while_other_threads_run_tools_finds_its_programs() {
        use crate::sim::fsx::{set_programs, system_bin};
        use std::sync::atomic::{AtomicBool, Ordering};
        // Other tools' threads (on the same broker) set and read where programs are, all the
        // time; a fork taken while one of them held a lock on that would hang the tool.
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let busy: Vec<_> = (0..2)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        set_programs(Some(PathBuf::from("/usr/local")));
                        let _ = system_bin(Path::new("/"), "/usr/bin/kubectl");
                        set_programs(None);
                    }
                })
            })
            .collect();
        let mut hung = 0;
        for _ in 0..200 {
            let pid = sys::fork_then(|| {
                set_programs(Some(PathBuf::from("/x")));
                i32::from(system_bin(Path::new("/"), "/usr/bin/y") != Path::new("/x/bin/y"))
            })
            .unwrap();
            match ended(pid) {
                Some(0) => {}
                Some(code) => panic!("the tool saw another folder ({code})"),
                None => hung += 1,
            }
        }
        stop.store(true, Ordering::Relaxed);
        for t in busy {
            t.join().unwrap();
        }
        assert_eq!(hung, 0, "forked tools that never ended");
    }
}
