//! One tool call, `rocm-learn sim TOOL ARGS...`: the caller from the host's environment, the
//! tool run on the machine, its output written to the streams handed in and its `Exec` action
//! handed to the host. Nothing here reads the process's environment, standard streams or
//! working folder, or runs a program: the program around the simulator (the app, the lab's
//! broker) supplies each through [`Host`].
//!
//! `rocm-learn sim stage [SPEC.toml]` (lab authors, tests) creates a stage at `ROCM_SIM_ROOT`;
//! it refuses `/` so it can never overwrite a real machine's /etc.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::host::{Program, var};
use super::{BIN_ENV, ROOT_ENV, SESSION_ENV, UID_ENV, USER_ENV};
use super::{Caller, Console, Exec, MachineSpec, Output, accounts};

pub use crate::host::{HandOver, Host};

/// Where a tool's output goes: its console (prompts and stdin) and the process's stdout and
/// stderr, as the program around the simulator has them.
pub struct Streams<'a> {
    /// Prompts and stdin.
    pub console: &'a mut dyn Console,
    /// Standard output.
    pub out: &'a mut dyn Write,
    /// Standard error.
    pub err: &'a mut dyn Write,
}

/// Whether `root` is this system's own `/` (however spelled: `/etc/..`, a link to `/`).
fn is_machine_root(root: &Path) -> bool {
    std::fs::canonicalize(root).is_ok_and(|p| p == Path::new("/"))
}

/// Builds the caller from `ROCM_SIM_*` and the working directory. On a machine whose caller
/// the host vouches for (the lab), the variables are the host's; on this system's own `/`
/// otherwise, the process's own uid is the truth and a variable counts for nothing.
pub fn caller_from_env(root: &Path, host: &dyn Host) -> Caller {
    let user = var(host, USER_ENV)
        .or_else(|| var(host, "USER"))
        .unwrap_or_else(|| "learner".into());
    let uid = if !host.vouches() && is_machine_root(root) {
        Some(host.euid())
    } else {
        var(host, UID_ENV).and_then(|v| v.parse().ok())
    }
    .or_else(|| accounts::user(root, &user).map(|u| u.uid))
    .unwrap_or(1000);
    let cwd = host.cwd();
    let cwd = match cwd {
        Some(c) if root == Path::new("/") => c.to_string_lossy().into_owned(),
        Some(c) => match c.strip_prefix(root) {
            Ok(rel) => format!("/{}", rel.to_string_lossy()),
            Err(_) => format!("/home/{user}"),
        },
        None => format!("/home/{user}"),
    };
    Caller {
        user: if uid == 0 { "root".into() } else { user },
        uid,
        session: var(host, SESSION_ENV),
        cwd,
        sim_bin: var(host, BIN_ENV).unwrap_or_else(|| "rocm-learn".into()),
    }
}

/// Runs `tool` as `rocm-learn sim TOOL ARGS...` does: on `ROCM_SIM_ROOT`, for the caller the
/// host's environment names, through `host`; returns the exit status (when a program the tool
/// hands over to could not replace this process).
pub fn main(tool: &str, args: &[String], host: &dyn Host, io: &mut Streams) -> i32 {
    let root = PathBuf::from(var(host, ROOT_ENV).unwrap_or_else(|| "/".into()));
    if tool == "stage" {
        return stage(&root, args, host, io.err);
    }
    if root == Path::new("/") {
        super::fsx::set_programs(var(host, super::fsx::PROGRAMS_ENV).map(PathBuf::from));
    }
    let caller = caller_from_env(&root, host);
    // sudo becomes root for real before it runs anything: only that root may write the
    // machine's read-only /etc. amdgpu-install too, which runs apt-get through sudo itself.
    // Done first, while this process has one thread.
    if (tool == "sudo" || tool == "amdgpu-install" || caller.uid == 0)
        && let Err(e) = host.become_id(0, 0)
    {
        let _ = writeln!(io.err, "sudo: unable to change to root: {e}");
    }
    // Sessions are opened by the lab's supervisor; a learner asking for one (to claim groups
    // a login does not have) gets what a normal user gets from login(1).
    if tool == "login" && is_machine_root(&root) && caller.uid != 0 {
        let _ = writeln!(io.err, "login: Cannot possibly work without effective root");
        return 1;
    }
    let out = super::run_with_env(host, &root, tool, args, &caller, io.console, host.env());
    finish(&root, out, &caller, host, io)
}

fn stage(root: &Path, args: &[String], host: &dyn Host, err: &mut dyn Write) -> i32 {
    if root == Path::new("/") {
        let _ = writeln!(
            err,
            "rocm-learn sim stage: set {ROOT_ENV} to the stage directory (refusing /)"
        );
        return 2;
    }
    let mut spec = match args {
        [] => MachineSpec::default(),
        [file] => match std::fs::read_to_string(file) {
            Ok(t) => match MachineSpec::from_toml(&t) {
                Ok(s) => s,
                Err(e) => {
                    let _ = writeln!(err, "{e}");
                    return 1;
                }
            },
            Err(e) => {
                let _ = writeln!(err, "rocm-learn sim stage: {file}: {e}");
                return 1;
            }
        },
        _ => {
            let _ = writeln!(err, "usage: rocm-learn sim stage [SPEC.toml]");
            return 2;
        }
    };
    spec.sim_bin = var(host, BIN_ENV);
    if let Err(e) = std::fs::create_dir_all(root) {
        let _ = writeln!(err, "rocm-learn sim stage: {}: {e}", root.display());
        return 1;
    }
    match super::stage::create_on(root, &spec, host) {
        Ok(_) => 0,
        Err(e) => {
            let _ = writeln!(err, "{e}");
            1
        }
    }
}

fn finish(root: &Path, out: Output, caller: &Caller, host: &dyn Host, io: &mut Streams) -> i32 {
    let _ = io
        .out
        .write_all(&out.stdout[out.shown.min(out.stdout.len())..]);
    let _ = io.out.flush();
    if !out.stderr.is_empty() {
        let _ = io.err.write_all(out.stderr.as_bytes());
    }
    if out.rebooted {
        host.rebooted();
    }
    let env = host.env();
    match out.exec {
        None => out.code,
        Some(Exec::Shell { session }) => {
            let user = var(host, USER_ENV).unwrap_or_else(|| "learner".into());
            let shell = accounts::user(root, &user)
                .map(|u| u.shell)
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "/bin/sh".into());
            let mut vars = env.to_vec();
            set(&mut vars, SESSION_ENV, &session);
            let program = Program {
                path: PathBuf::from(&shell),
                arg0: shell.clone(),
                args: Vec::new(),
                env: vars,
                cwd: None,
            };
            let who = HandOver {
                user: caller.user.clone(),
                uid: caller.uid,
                home: home_of(root, &caller.user),
                session,
            };
            hand_over(&program, &shell, &who, host, io.err)
        }
        Some(Exec::Login {
            session,
            user,
            login,
            command,
        }) => login_shell(root, &session, &user, login, command, host, io.err),
        Some(Exec::Program {
            argv,
            as_root,
            env: given,
        }) => {
            let Some(prog) = argv.first() else {
                return out.code;
            };
            let Some(path) = find_real(prog, host) else {
                let _ = writeln!(io.err, "sudo: {prog}: command not found");
                return 1;
            };
            let mut vars = given.unwrap_or_else(|| env.to_vec());
            let who = if as_root {
                set(&mut vars, UID_ENV, "0");
                HandOver {
                    user: "root".into(),
                    uid: 0,
                    home: "/root".into(),
                    session: caller.session.clone().unwrap_or_default(),
                }
            } else {
                HandOver {
                    user: caller.user.clone(),
                    uid: caller.uid,
                    home: home_of(root, &caller.user),
                    session: caller.session.clone().unwrap_or_default(),
                }
            };
            // The program names itself as typed (`ls: cannot access ...`), as a shell runs it.
            let program = Program {
                path,
                arg0: prog.clone(),
                args: argv[1..].to_vec(),
                env: vars,
                cwd: None,
            };
            hand_over(&program, prog, &who, host, io.err)
        }
    }
}

/// Sets `key` to `value` in `env`, in place of any earlier value.
fn set(env: &mut Vec<(String, String)>, key: &str, value: &str) {
    env.retain(|(k, _)| k != key);
    env.push((key.into(), value.into()));
}

/// `su`: the user's shell in a new session; in the sandbox, as that user's uid for real.
fn login_shell(
    root: &Path,
    session: &str,
    user: &str,
    login: bool,
    command: Option<String>,
    host: &dyn Host,
    err: &mut dyn Write,
) -> i32 {
    let Some(pw) = accounts::user(root, user) else {
        let _ = writeln!(err, "su: user {user} does not exist");
        return 1;
    };
    if let Err(e) = host.become_id(pw.uid, pw.gid) {
        let _ = writeln!(err, "su: cannot set user id: {e}");
        return 1;
    }
    let shell = if pw.shell.is_empty() {
        "/bin/sh".to_string()
    } else {
        pw.shell.clone()
    };
    let mut args = Vec::new();
    let mut cwd = None;
    let mut vars: Vec<(String, String)> = if login {
        args.push("-l".to_string());
        cwd = Some(root.join(pw.home.trim_start_matches('/')));
        // A login starts from a clean environment; the lab's own variables (its prompt hook
        // and side channel) and the terminal survive, as TERM does with a real `su -`.
        let mut keep: Vec<(String, String)> = host
            .env()
            .iter()
            .filter(|(k, _)| {
                k == "TERM"
                    || k == "LANG"
                    || k == "PROMPT_COMMAND"
                    || k.starts_with("ROCM_")
                    || k.starts_with("BASH_FUNC_")
            })
            .cloned()
            .collect();
        set(&mut keep, "PATH", &environment_path(root));
        keep
    } else {
        host.env().to_vec()
    };
    if let Some(c) = command {
        args.extend(["-c".to_string(), c]);
    }
    for (k, v) in [
        ("HOME", pw.home.as_str()),
        ("USER", user),
        ("LOGNAME", user),
        ("SHELL", shell.as_str()),
        (USER_ENV, user),
        (SESSION_ENV, session),
    ] {
        set(&mut vars, k, v);
    }
    vars.retain(|(k, _)| k != UID_ENV);
    let program = Program {
        path: PathBuf::from(&shell),
        arg0: shell.clone(),
        args,
        env: vars,
        cwd,
    };
    let who = HandOver {
        user: user.into(),
        uid: pw.uid,
        home: pw.home.clone(),
        session: session.into(),
    };
    hand_over(&program, &shell, &who, host, err)
}

/// A user's home folder as /etc/passwd gives it.
fn home_of(root: &Path, user: &str) -> String {
    accounts::user(root, user)
        .map(|u| u.home)
        .unwrap_or_else(|| format!("/home/{user}"))
}

/// Tells the host who the program will run as, then has the host become it. A host that
/// cannot make the identity real refuses, and the program does not run.
fn hand_over(
    program: &Program,
    name: &str,
    who: &HandOver,
    host: &dyn Host,
    err: &mut dyn Write,
) -> i32 {
    if let Err(e) = host.handing_over(who) {
        let _ = writeln!(err, "{name}: {e}");
        return 126;
    }
    let e = host.exec(program);
    let _ = writeln!(err, "{name}: {e}");
    126
}

/// The PATH of a fresh Ubuntu login.
pub const DEFAULT_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// PATH as a new login gets it (pam_env reads /etc/environment), Ubuntu's default without one.
pub fn environment_path(root: &Path) -> String {
    environment(root)
        .into_iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v)
        .unwrap_or_else(|| DEFAULT_PATH.into())
}

/// The variables /etc/environment gives every new login, as pam_env reads them (`KEY=value`,
/// optional quotes), PATH among them when it sets one.
pub fn environment(root: &Path) -> Vec<(String, String)> {
    let Ok(bytes) = super::fsx::read_capped(&root.join("etc/environment"), 64 * 1024) else {
        return Vec::new();
    };
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter_map(|l| {
            let (k, v) = l.split_once('=')?;
            let ok = !k.is_empty()
                && !k.starts_with(|c: char| c.is_ascii_digit())
                && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            ok.then(|| (k.to_string(), v.trim_matches('"').to_string()))
        })
        .collect()
}

/// Finds `prog` on `host`'s PATH, skipping the simulator's own wrappers (so `ls` for other
/// paths runs the real ls even when a wrapper named ls comes first), then in the host's own
/// /usr/bin when the machine's programs cover it there.
fn find_real(prog: &str, host: &dyn Host) -> Option<PathBuf> {
    if prog.contains('/') {
        let p = PathBuf::from(prog);
        return p.is_file().then_some(p);
    }
    let path = var(host, "PATH");
    let host_bin = var(host, super::fsx::HOST_PROGRAMS_ENV).map(PathBuf::from);
    let bin = var(host, BIN_ENV).unwrap_or_else(|| "rocm-learn".into());
    path.iter()
        .flat_map(std::env::split_paths)
        .chain(host_bin)
        .map(|d| d.join(prog))
        .find(|p| p.is_file() && !super::wrappers::is_wrapper(p, &bin))
}
