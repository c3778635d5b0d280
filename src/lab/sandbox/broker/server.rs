//! The supervisor's side: reads the socket every login inherits. A message with the caller's
//! terminal attached is a tool request, run as the identity of the process that sent it;
//! anything else is the prompt hook's record, attributed the same way.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::Report;
use super::trusted::{self, Job};
use crate::lab::sandbox::identity::{Caller, Identity, Table};
use crate::lab::sandbox::sys;
use crate::lab::wire::fdpass;
use crate::lab::wire::layout::SIM_BIN;
use crate::lab::wire::protocol::{self, ToolReply, ToolRequest};
use crate::lab::wire::record::{Record, Splitter};

/// Senders whose half-records are kept at once; past it the oldest are dropped.
const MAX_SENDERS: usize = 64;

/// Variables a request may not set for the tool: the loader's and the lab's own (but the
/// release a wrapper names: which tree a tool answers for is the caller's to choose).
fn allowed(key: &str) -> bool {
    key == crate::sim::wrappers::RELEASE_ENV
        || !(key.starts_with("LD_")
            || key.starts_with("ROCM_SIM_")
            || key.starts_with("ROCM_LAB_")
            || matches!(
                key,
                "GCONV_PATH"
                    | "GLIBC_TUNABLES"
                    | "LOCPATH"
                    | "NLSPATH"
                    | "HOSTALIASES"
                    | "RES_OPTIONS"
            )
            || key.starts_with("MALLOC_"))
}

/// Reads `sock` until every login has closed it. Each prompt record, its session and uid those
/// of the process that sent it, goes to `record`, which says whether to go on.
/// `shell` is the logins' end, given to each tool too: a program it hands over to (a root
/// shell) sends its records and requests the same way.
pub fn serve(
    sock: OwnedFd,
    shell: i32,
    confined: bool,
    table: Arc<Mutex<Table>>,
    mut record: impl FnMut(Record) -> bool,
) {
    let mut buf = vec![0u8; protocol::MAX + 1];
    let mut partial: HashMap<i32, Splitter> = HashMap::new();
    loop {
        let got = match fdpass::recv(sock.as_fd(), &mut buf) {
            Ok(Some(g)) => g,
            Ok(None) => return,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        let Some(pid) = got.pid else { continue };
        if got.truncated {
            continue;
        }
        let data = &buf[..got.len];
        if got.fds.len() == fdpass::MAX_FDS && data.first() == Some(&b'{') {
            if let Ok(req) = serde_json::from_slice::<ToolRequest>(data) {
                let table = table.clone();
                let fds = got.fds;
                std::thread::spawn(move || run(req, pid, fds, shell, confined, &table));
            }
            continue;
        }
        if partial.len() >= MAX_SENDERS && !partial.contains_key(&pid) {
            partial.clear();
        }
        let done = partial.entry(pid).or_default().feed(data);
        for mut r in done {
            let Some(who) = who_is(&table, pid) else {
                continue;
            };
            r.session = who.session;
            r.uid = who.uid;
            if !record(r) {
                return;
            }
        }
    }
}

/// The identity of `pid`. A login's first prompt can come before the supervisor registered
/// it: `identify` waits for a login start under way to end (a handshake, see there).
fn who_is(table: &Mutex<Table>, pid: i32) -> Option<Identity> {
    crate::lab::sandbox::identity::identify(table, pid)
}

fn reply(out: &mut UnixStream, r: ToolReply) {
    let _ = protocol::send(out, &r);
}

/// Runs one tool for `pid` and answers when it has ended.
fn run(
    req: ToolRequest,
    pid: i32,
    fds: Vec<OwnedFd>,
    shell: i32,
    confined: bool,
    table: &Mutex<Table>,
) {
    let mut fds = fds.into_iter();
    let (Some(stdin), Some(stdout), Some(stderr), Some(out)) =
        (fds.next(), fds.next(), fds.next(), fds.next())
    else {
        return;
    };
    // The reply socket must be the sender's own, and the sender is followed by pidfd from
    // here on; a request that borrowed another process's socket gets no answer on it.
    let Some(caller) = Caller::of_request(pid, out.as_fd()) else {
        return;
    };
    let mut out = UnixStream::from(out);
    let Some(who) = who_is(table, pid) else {
        reply(&mut out, ToolReply::Refused);
        return;
    };
    // The folder is the kernel's word, never the request's (`cwd` there is not read): a
    // tool acts where its caller is. The kernel cannot tell (a removed folder): `/`.
    let (cwd, cwd_fd) = caller
        .folder()
        .map_or((PathBuf::from("/"), None), |(p, fd)| (p, Some(fd)));
    // Who the caller is was read from /proc by pid: it must still be that process.
    if req.version != protocol::VERSION || !caller.still_there() {
        reply(&mut out, ToolReply::Refused);
        return;
    }
    let Ok((report, report_child)) = fdpass::pair(fdpass::SocketType::SEQPACKET) else {
        reply(&mut out, ToolReply::Exit { code: 126 });
        return;
    };
    let job = Job {
        tool: req.tool.clone(),
        args: req.args.clone(),
        env: tool_env(&req, &who),
        cwd,
        cwd_fd,
        stdio: [stdin, stdout, stderr],
        shell,
        report: report_child,
        pgid: caller_group(pid),
        confined,
    };
    let before = state_stamp();
    // The tool runs in a copy of this process: no second start of the binary. The child
    // takes `job`; the parent's copies of its descriptors go when `job` is dropped here.
    let Ok(child) = sys::fork_then(|| trusted::run_forked(job)) else {
        reply(&mut out, ToolReply::Exit { code: 126 });
        return;
    };
    follow_reports(UnixStream::from(report), child, table);
    let status = wait(child);
    if let Ok(mut t) = table.lock() {
        t.forget(child);
    }
    // What the tool did to the machine's devices shows in /dev before its caller goes on;
    // a tool that saved no state changed none.
    if state_stamp() != before {
        crate::lab::sandbox::dev_binds::sync();
    }
    reply(&mut out, status);
}

/// The caller's process group (0 when it cannot be told).
fn caller_group(caller: i32) -> i32 {
    rustix::process::Pid::from_raw(caller)
        .and_then(|p| rustix::process::getpgid(Some(p)).ok())
        .map_or(0, |g| g.as_raw_nonzero().get())
}

/// The tool's environment: the caller's, less what a request may not set, and the machine's
/// word on who the caller is.
fn tool_env(req: &ToolRequest, who: &Identity) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = req
        .env
        .iter()
        .filter(|(k, _)| allowed(k))
        .cloned()
        .collect();
    let ours = [
        ("ROCM_SIM_ROOT", "/".to_string()),
        ("ROCM_SIM_BIN", SIM_BIN.to_string()),
        (
            crate::sim::fsx::PROGRAMS_ENV,
            crate::lab::sandbox::usr_layer::programs_dir().to_string(),
        ),
        (
            crate::sim::fsx::HOST_PROGRAMS_ENV,
            crate::lab::wire::layout::HOST_BIN.to_string(),
        ),
        ("ROCM_SIM_USER", who.user.clone()),
        ("ROCM_SIM_UID", who.uid.to_string()),
        ("ROCM_SIM_SESSION", who.session.clone()),
        (crate::lab::wire::layout::SANDBOX_ENV, "1".to_string()),
    ];
    env.retain(|(k, _)| !ours.iter().any(|(o, _)| o == k));
    env.extend(ours.into_iter().map(|(k, v)| (k.to_string(), v)));
    env
}

/// Which version of the machine's state file is there (a new file on every save).
fn state_stamp() -> Option<(u64, i64, i64, u64)> {
    let st = rustix::fs::stat(Path::new("/").join(crate::sim::state::STATE_PATH)).ok()?;
    Some((
        st.st_ino,
        st.st_ctime as i64,
        st.st_ctime_nsec as i64,
        st.st_size as u64,
    ))
}

/// Waits for the tool and turns its end into the answer.
fn wait(child: i32) -> ToolReply {
    use rustix::process::{Pid, WaitOptions, waitpid};
    let Some(pid) = Pid::from_raw(child) else {
        return ToolReply::Exit { code: 1 };
    };
    loop {
        match waitpid(Some(pid), WaitOptions::empty()) {
            Ok(Some((_, st))) => {
                return match (st.exit_status(), st.terminating_signal()) {
                    (Some(code), _) => ToolReply::Exit { code },
                    (None, Some(signal)) => ToolReply::Signal { signal },
                    _ => ToolReply::Exit { code: 1 },
                };
            }
            Err(rustix::io::Errno::INTR) => {}
            _ => return ToolReply::Exit { code: 1 },
        }
    }
}

/// Reads what the tool reports until it closes its socket: each identity it hands over to is
/// registered before it is answered, and a reboot is carried out.
fn follow_reports(mut report: UnixStream, child_pid: i32, table: &Mutex<Table>) {
    let mut buf = vec![0u8; 4096];
    while let Ok(n) = report.read(&mut buf) {
        if n == 0 {
            break;
        }
        match serde_json::from_slice::<Report>(&buf[..n]) {
            Ok(Report::HandOver(id)) => {
                if let Ok(mut t) = table.lock() {
                    t.register(child_pid, id);
                }
                if report.write_all(&[1]).is_err() {
                    break;
                }
            }
            Ok(Report::Rebooted) => {
                // The boot's state is saved: /dev shows its nodes (modes by the boot's udev
                // rules) before any program ends, so the next login never sees the old ones.
                crate::lab::sandbox::dev_binds::sync();
                power_cycle();
            }
            Err(_) => break,
        }
    }
}

/// A reboot ends every program on the machine: all processes of the sandbox but the
/// supervisor (and bubblewrap's init) are killed, and the login loop logs in again.
fn power_cycle() {
    let me = std::process::id() as i32;
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return;
    };
    for e in rd.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
            continue;
        };
        // The pids are this sandbox's own (its PID namespace); one already gone is no matter.
        if let Some(p) = rustix::process::Pid::from_raw(pid).filter(|_| pid > 1 && pid != me) {
            let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
        }
    }
}
