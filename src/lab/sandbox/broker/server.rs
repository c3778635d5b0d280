//! The supervisor's side: reads the socket every login inherits. A message with the caller's
//! terminal attached is a tool request, run as the identity of the process that sent it;
//! anything else is the prompt hook's record, attributed the same way.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use super::{REPORT_FD, Report, TRUSTED_ENV, UNCONFINED_ENV};
use crate::lab::sandbox::identity::{Identity, Table};
use crate::lab::sandbox::sys::{self, Step};
use crate::lab::wire::fdpass;
use crate::lab::wire::layout::SIM_BIN;
use crate::lab::wire::protocol::{self, ToolReply, ToolRequest};
use crate::lab::wire::record::{Record, Splitter};

/// Senders whose half-records are kept at once; past it the oldest are dropped.
const MAX_SENDERS: usize = 64;

/// Variables a request may not set for the tool: the loader's and the lab's own.
fn allowed(key: &str) -> bool {
    !(key.starts_with("LD_")
        || key.starts_with("ROCM_SIM_")
        || key.starts_with("ROCM_LAB_")
        || matches!(
            key,
            "GCONV_PATH" | "GLIBC_TUNABLES" | "LOCPATH" | "NLSPATH" | "HOSTALIASES" | "RES_OPTIONS"
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
    let mut out = UnixStream::from(out);
    let Some(who) = who_is(table, pid) else {
        reply(&mut out, ToolReply::Refused);
        return;
    };
    if req.version != protocol::VERSION {
        reply(&mut out, ToolReply::Refused);
        return;
    }
    let Ok((report, report_child)) = fdpass::pair(fdpass::SocketType::SEQPACKET) else {
        reply(&mut out, ToolReply::Exit { code: 126 });
        return;
    };
    let mut cmd = tool_command(&req, &who, confined, [stdin, stdout, stderr]);
    join_caller(&mut cmd, pid, report_child.as_raw_fd(), shell);
    let Ok(mut child) = cmd.spawn() else {
        reply(&mut out, ToolReply::Exit { code: 126 });
        return;
    };
    drop(report_child);
    drop(cmd);
    let child_pid = child.id() as i32;
    follow_reports(UnixStream::from(report), child_pid, table);
    let status = child.wait();
    if let Ok(mut t) = table.lock() {
        t.forget(child_pid);
    }
    // What the tool did to the machine's devices shows in /dev before its caller goes on.
    crate::lab::sandbox::dev_binds::sync();
    let r = match status {
        Ok(s) => match (s.code(), s.signal()) {
            (Some(code), _) => ToolReply::Exit { code },
            (None, Some(signal)) => ToolReply::Signal { signal },
            _ => ToolReply::Exit { code: 1 },
        },
        Err(_) => ToolReply::Exit { code: 1 },
    };
    reply(&mut out, r);
}

/// The tool itself, `rocm-learn sim TOOL ARGS` as the caller's identity, outside every
/// domain, in the caller's folder, on the caller's terminal.
fn tool_command(
    req: &ToolRequest,
    who: &Identity,
    confined: bool,
    [stdin, stdout, stderr]: [OwnedFd; 3],
) -> Command {
    let cwd = if std::path::Path::new(&req.cwd).is_dir() {
        req.cwd.as_str()
    } else {
        "/"
    };
    let mut cmd = Command::new(SIM_BIN);
    cmd.arg("sim")
        .arg(&req.tool)
        .args(&req.args)
        .env_clear()
        .envs(req.env.iter().filter(|(k, _)| allowed(k)).cloned())
        .env("ROCM_SIM_ROOT", "/")
        .env("ROCM_SIM_BIN", SIM_BIN)
        .env(
            crate::sim::fsx::PROGRAMS_ENV,
            crate::lab::wire::layout::programs_dir(),
        )
        .env("ROCM_SIM_USER", &who.user)
        .env("ROCM_SIM_UID", who.uid.to_string())
        .env("ROCM_SIM_SESSION", &who.session)
        .env(crate::lab::wire::layout::SANDBOX_ENV, "1")
        .env(TRUSTED_ENV, REPORT_FD.to_string())
        .env(UNCONFINED_ENV, if confined { "0" } else { "1" })
        .current_dir(cwd)
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::from(stderr));
    cmd
}

/// In the tool's process before it runs: the caller's process group, the report socket on
/// REPORT_FD and the logins' socket on SHELL_FD.
fn join_caller(cmd: &mut Command, caller: i32, report_fd: i32, shell: i32) {
    let pgid = rustix::process::Pid::from_raw(caller)
        .and_then(|p| rustix::process::getpgid(Some(p)).ok())
        .map_or(0, |g| g.as_raw_nonzero().get());
    // The tool joins the caller's process group, so the terminal's Ctrl-C and Ctrl-Z reach it
    // as they reach the wrapper that asked and a foreground tool may read the terminal. The
    // report socket and the logins' socket go where the tool (and what it hands over to)
    // look for them.
    sys::in_child(cmd, Step::JoinGroup(pgid));
    sys::in_child(
        cmd,
        Step::Dup {
            from: report_fd,
            to: REPORT_FD,
        },
    );
    sys::in_child(
        cmd,
        Step::Dup {
            from: shell,
            to: protocol::SHELL_FD,
        },
    );
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
