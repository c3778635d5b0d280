//! The learner's shell runs inside bubblewrap: the host read-only, the lab's own /etc, /opt,
//! /home and /var from its stage folder, the stage's usr/bin and usr/sbin (the simulated tools)
//! as /usr/local/bin and /usr/local/sbin, a private /tmp, no network, its own PID
//! namespace, and it dies with the app. When bubblewrap cannot run, the lab says exactly why
//! and how to fix it; it never falls back to an unconfined shell.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::content::Msg;

/// The learner's uid and gid inside the sandbox.
pub const LEARNER_UID: u32 = 1000;

/// Where the rocm-learn binary is mounted inside the sandbox (the simulated tools call it).
pub const SIM_BIN: &str = "/usr/local/libexec/rocm-learn";

/// Host paths that may hold the host's people's files: hidden behind empty folders.
const HIDDEN: [&str; 6] = ["/root", "/mnt", "/media", "/srv", "/tmp", "/run"];

/// Why the sandbox cannot start, as a message naming the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxError(pub Msg);

fn bwrap_path() -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("bwrap"))
            .find(|f| f.is_file())
    })
}

/// Checks once that bubblewrap exists and may create the namespaces the lab needs.
pub fn probe() -> Result<PathBuf, SandboxError> {
    let Some(bwrap) = bwrap_path() else {
        return Err(SandboxError(Msg::new("lab-no-bwrap")));
    };
    let out = Command::new(&bwrap)
        .args([
            "--unshare-all",
            "--unshare-user",
            "--uid",
            "1000",
            "--gid",
            "1000",
        ])
        .args([
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "true",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) => return Err(SandboxError(Msg::new("lab-bwrap-failed").arg("error", e))),
    };
    if out.status.success() {
        return Ok(bwrap);
    }
    let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
    // Ubuntu 24.04 restricts unprivileged user namespaces through AppArmor; other systems
    // turn them off with a sysctl. Both show up as a refused uid map or namespace.
    let id = if err.contains("uid map") || err.contains("setting up uid") {
        "lab-userns-apparmor"
    } else if err.contains("No permissions to create") || err.contains("Operation not permitted") {
        "lab-userns-disabled"
    } else {
        "lab-bwrap-failed"
    };
    Err(SandboxError(Msg::new(id).arg("error", err)))
}

/// The folders of a lab's stage that replace the host's inside the sandbox.
pub struct Layout<'a> {
    pub stage: &'a Path,
    pub exe: &'a Path,
    pub hostname: &'a str,
    pub user: &'a str,
    /// Extra environment (language of the login banner, terminal type).
    pub env: Vec<(String, String)>,
}

/// The bubblewrap command line that runs `program` as the learner in the stage.
pub fn command(bwrap: &Path, l: &Layout, program: &[&str]) -> Vec<OsString> {
    let s = |p: &str| l.stage.join(p).into_os_string();
    let mut a: Vec<OsString> = vec![bwrap.into()];
    let mut push = |items: &[&str]| a.extend(items.iter().map(OsString::from));
    push(&[
        "--unshare-all",
        "--unshare-user",
        "--uid",
        "1000",
        "--gid",
        "1000",
    ]);
    push(&["--hostname", l.hostname, "--die-with-parent"]);
    push(&["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
    for h in HIDDEN {
        push(&["--tmpfs", h]);
    }
    a.extend(["--bind".into(), s("run"), "/run/rocm-lab".into()]);
    for dir in ["etc", "home", "opt", "var"] {
        a.extend(["--bind".into(), s(dir), format!("/{dir}").into()]);
    }
    // The host's /usr stays; the machine's own tools come first on PATH from /usr/local.
    a.extend(["--tmpfs".into(), "/usr/local".into()]);
    a.extend(["--bind".into(), s("usr/bin"), "/usr/local/bin".into()]);
    a.extend(["--bind".into(), s("usr/sbin"), "/usr/local/sbin".into()]);
    a.extend([
        "--ro-bind".into(),
        l.exe.as_os_str().to_owned(),
        SIM_BIN.into(),
    ]);
    let home = format!("/home/{}", l.user);
    let mut env: Vec<(String, String)> = vec![
        ("HOME".into(), home.clone()),
        ("USER".into(), l.user.into()),
        ("LOGNAME".into(), l.user.into()),
        ("SHELL".into(), "/bin/bash".into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("PATH".into(), DEFAULT_PATH.into()),
        ("ROCM_SIM_ROOT".into(), "/".into()),
        ("ROCM_SIM_USER".into(), l.user.into()),
        ("ROCM_SIM_BIN".into(), SIM_BIN.into()),
        ("ROCM_LAB_EVENTS".into(), "/run/rocm-lab/events".into()),
        (super::userns::SANDBOX_ENV.into(), "1".into()),
    ];
    env.extend(l.env.iter().cloned());
    a.push("--clearenv".into());
    for (k, v) in env {
        a.extend(["--setenv".into(), k.into(), v.into()]);
    }
    a.extend(["--chdir".into(), home.into()]);
    a.extend(program.iter().map(OsString::from));
    a
}

pub use crate::sim::entry::DEFAULT_PATH;
