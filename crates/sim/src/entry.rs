//! The command-line entry `rocm-learn sim TOOL ARGS...`: reads the caller from the environment,
//! runs the tool on the stage, prints its output and carries out its `Exec` action.
//!
//! `rocm-learn sim stage [SPEC.toml]` (lab authors, tests) creates a stage at `ROCM_SIM_ROOT`;
//! it refuses `/` so it can never overwrite a real machine's /etc.

use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

use super::{BIN_ENV, ROOT_ENV, SESSION_ENV, UID_ENV, USER_ENV};
use super::{Caller, Console, Exec, MachineSpec, Output, accounts};

pub use crate::host::{Alone, HandOver, Host};

/// The real terminal: prompts are shown before reading the answer.
struct Terminal;

impl Console for Terminal {
    fn read_stdin(&mut self) -> Vec<u8> {
        let mut buf = Vec::new();
        let _ = io::stdin().lock().read_to_end(&mut buf);
        buf
    }

    fn ask(&mut self, pending: &[u8]) -> Option<String> {
        let mut out = io::stdout().lock();
        let _ = out.write_all(pending);
        let _ = out.flush();
        let mut line = String::new();
        match io::stdin().lock().read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_string()),
        }
    }
}

/// Whether `root` is this system's own `/` (however spelled: `/etc/..`, a link to `/`).
fn is_machine_root(root: &Path) -> bool {
    std::fs::canonicalize(root).is_ok_and(|p| p == Path::new("/"))
}

/// Builds the caller from `ROCM_SIM_*` and the working directory. On a machine whose caller
/// the host vouches for (the lab), the variables are the host's; on this system's own `/`
/// otherwise, the process's own uid is the truth and a variable counts for nothing.
pub fn caller_from_env(root: &Path, host: &dyn Host) -> Caller {
    let user = host
        .var(USER_ENV)
        .or_else(|| host.var("USER"))
        .unwrap_or_else(|| "learner".into());
    let uid = if !host.vouches() && is_machine_root(root) {
        Some(host.euid())
    } else {
        host.var(UID_ENV).and_then(|v| v.parse().ok())
    }
    .or_else(|| accounts::user(root, &user).map(|u| u.uid))
    .unwrap_or(1000);
    let cwd = std::env::current_dir().ok();
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
        session: host.var(SESSION_ENV),
        cwd,
        sim_bin: host.var(BIN_ENV).unwrap_or_else(|| "rocm-learn".into()),
    }
}

/// Runs `tool` as `rocm-learn sim TOOL ARGS...` does: on `ROCM_SIM_ROOT`, for the caller the environment names, through `host`; returns the exit status.
pub fn main(tool: &str, args: &[String], host: &dyn Host) -> i32 {
    let root = PathBuf::from(host.var(ROOT_ENV).unwrap_or_else(|| "/".into()));
    if tool == "stage" {
        return stage(&root, args, host);
    }
    let caller = caller_from_env(&root, host);
    // sudo becomes root for real before it runs anything: only that root may write the
    // machine's read-only /etc. amdgpu-install too, which runs apt-get through sudo itself.
    // Done first, while this process has one thread.
    if (tool == "sudo" || tool == "amdgpu-install" || caller.uid == 0)
        && let Err(e) = host.become_id(0, 0)
    {
        eprintln!("sudo: unable to change to root: {e}");
    }
    // Sessions are opened by the lab's supervisor; a learner asking for one (to claim groups
    // a login does not have) gets what a normal user gets from login(1).
    if tool == "login" && is_machine_root(&root) && caller.uid != 0 {
        eprintln!("login: Cannot possibly work without effective root");
        return 1;
    }
    let env: Vec<(String, String)> = std::env::vars().collect();
    let out = super::run_with_env(host, &root, tool, args, &caller, &mut Terminal, &env);
    finish(&root, out, &caller, host)
}

fn stage(root: &Path, args: &[String], host: &dyn Host) -> i32 {
    if root == Path::new("/") {
        eprintln!("rocm-learn sim stage: set {ROOT_ENV} to the stage directory (refusing /)");
        return 2;
    }
    let mut spec = match args {
        [] => MachineSpec::default(),
        [file] => match std::fs::read_to_string(file) {
            Ok(t) => match MachineSpec::from_toml(&t) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("{e}");
                    return 1;
                }
            },
            Err(e) => {
                eprintln!("rocm-learn sim stage: {file}: {e}");
                return 1;
            }
        },
        _ => {
            eprintln!("usage: rocm-learn sim stage [SPEC.toml]");
            return 2;
        }
    };
    spec.sim_bin = host.var(BIN_ENV);
    if let Err(e) = std::fs::create_dir_all(root) {
        eprintln!("rocm-learn sim stage: {}: {e}", root.display());
        return 1;
    }
    match super::stage::create_on(root, &spec, host) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

fn finish(root: &Path, out: Output, caller: &Caller, host: &dyn Host) -> i32 {
    {
        let mut so = io::stdout().lock();
        let _ = so.write_all(&out.stdout[out.shown.min(out.stdout.len())..]);
        let _ = so.flush();
    }
    if !out.stderr.is_empty() {
        let _ = io::stderr().lock().write_all(out.stderr.as_bytes());
    }
    if out.rebooted {
        host.rebooted();
    }
    match out.exec {
        None => out.code,
        Some(Exec::Shell { session }) => {
            let user = host.var(USER_ENV).unwrap_or_else(|| "learner".into());
            let shell = accounts::user(root, &user)
                .map(|u| u.shell)
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "/bin/sh".into());
            let mut cmd = std::process::Command::new(&shell);
            cmd.env(SESSION_ENV, &session);
            let who = HandOver {
                user: caller.user.clone(),
                uid: caller.uid,
                home: home_of(root, &caller.user),
                session,
            };
            hand_over(cmd, &shell, &who, host)
        }
        Some(Exec::Login {
            session,
            user,
            login,
            command,
        }) => login_shell(root, &session, &user, login, command, host),
        Some(Exec::Program { argv, as_root, env }) => {
            let Some(prog) = argv.first() else {
                return out.code;
            };
            let Some(path) = find_real(prog, host) else {
                eprintln!("sudo: {prog}: command not found");
                return 1;
            };
            let mut cmd = std::process::Command::new(path);
            // The program names itself as typed (`ls: cannot access ...`), as a shell runs it.
            std::os::unix::process::CommandExt::arg0(&mut cmd, prog);
            cmd.args(&argv[1..]);
            if let Some(env) = env {
                cmd.env_clear().envs(env);
            }
            let who = if as_root {
                cmd.env(UID_ENV, "0");
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
            hand_over(cmd, prog, &who, host)
        }
    }
}

/// `su`: the user's shell in a new session; in the sandbox, as that user's uid for real.
fn login_shell(
    root: &Path,
    session: &str,
    user: &str,
    login: bool,
    command: Option<String>,
    host: &dyn Host,
) -> i32 {
    let Some(pw) = accounts::user(root, user) else {
        eprintln!("su: user {user} does not exist");
        return 1;
    };
    if let Err(e) = host.become_id(pw.uid, pw.gid) {
        eprintln!("su: cannot set user id: {e}");
        return 1;
    }
    let shell = if pw.shell.is_empty() {
        "/bin/sh".to_string()
    } else {
        pw.shell.clone()
    };
    let mut cmd = std::process::Command::new(&shell);
    if login {
        cmd.arg("-l");
        // A login starts from a clean environment; the lab's own variables (its prompt hook
        // and side channel) and the terminal survive, as TERM does with a real `su -`.
        let keep: Vec<(std::ffi::OsString, std::ffi::OsString)> = std::env::vars_os()
            .filter(|(k, _)| {
                let k = k.to_string_lossy();
                k == "TERM"
                    || k == "LANG"
                    || k == "PROMPT_COMMAND"
                    || k.starts_with("ROCM_")
                    || k.starts_with("BASH_FUNC_")
            })
            .collect();
        cmd.env_clear().envs(keep);
        let path = environment_path(root);
        cmd.env("PATH", path)
            .current_dir(root.join(pw.home.trim_start_matches('/')));
    }
    if let Some(c) = command {
        cmd.args(["-c", &c]);
    }
    cmd.env("HOME", &pw.home)
        .env("USER", user)
        .env("LOGNAME", user)
        .env("SHELL", &shell)
        .env(USER_ENV, user)
        .env(SESSION_ENV, session)
        .env_remove(UID_ENV);
    let who = HandOver {
        user: user.into(),
        uid: pw.uid,
        home: pw.home.clone(),
        session: session.into(),
    };
    hand_over(cmd, &shell, &who, host)
}

/// A user's home folder as /etc/passwd gives it.
fn home_of(root: &Path, user: &str) -> String {
    accounts::user(root, user)
        .map(|u| u.home)
        .unwrap_or_else(|| format!("/home/{user}"))
}

/// Tells the host who the program will run as, then becomes it. A host that cannot make the
/// identity real refuses, and the program does not run.
fn hand_over(cmd: std::process::Command, name: &str, who: &HandOver, host: &dyn Host) -> i32 {
    if let Err(e) = host.handing_over(who) {
        eprintln!("{name}: {e}");
        return 126;
    }
    exec(cmd, name)
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

/// Finds `prog` on `host`'s PATH, skipping the simulator's own wrappers (so `ls` for other paths runs
/// the real ls even when a wrapper named ls comes first).
fn find_real(prog: &str, host: &dyn Host) -> Option<PathBuf> {
    let is_wrapper = |p: &Path| {
        std::fs::read(p)
            .map(|b| b.len() < 4096 && String::from_utf8_lossy(&b).contains("\" sim "))
            .unwrap_or(false)
    };
    if prog.contains('/') {
        let p = PathBuf::from(prog);
        return p.is_file().then_some(p);
    }
    let path = host.var("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(prog))
        .find(|p| p.is_file() && !is_wrapper(p))
}

#[cfg(unix)]
fn exec(mut cmd: std::process::Command, name: &str) -> i32 {
    use std::os::unix::process::CommandExt;
    let e = cmd.exec();
    eprintln!("{name}: {e}");
    126
}

#[cfg(not(unix))]
fn exec(mut cmd: std::process::Command, name: &str) -> i32 {
    match cmd.status() {
        Ok(s) => s.code().unwrap_or(1),
        Err(e) => {
            eprintln!("{name}: {e}");
            126
        }
    }
}
