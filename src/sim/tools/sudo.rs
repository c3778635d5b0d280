//! `sudo` (passwordless, as on a cloud image). A simulated command runs in-process as root;
//! anything else comes back as `Exec::Program { as_root: true }` for the caller to run.
//! Commands are looked up in sudo's `secure_path`, which does not contain /opt/rocm/bin.

use super::super::{Caller, Ctx, Exec, accounts};
use super::{TOOLS, dispatch, system_tools};

const USAGE: &str = "usage: sudo -h | -K | -k | -V
usage: sudo -v [-ABkNnS] [-g group] [-h host] [-p prompt] [-u user]
usage: sudo -l [-ABkNnS] [-g group] [-h host] [-p prompt] [-U user]
            [-u user] [command [arg ...]]
usage: sudo [-ABbEHkNnPS] [-r role] [-t type] [-C num] [-D directory]
            [-g group] [-h host] [-p prompt] [-R directory] [-T timeout]
            [-u user] [VAR=value] [-i | -s] [command [arg ...]]
usage: sudo -e [-ABkNnS] [-r role] [-t type] [-C num] [-D directory]
            [-g group] [-h host] [-p prompt] [-R directory] [-T timeout]
            [-u user] file ...
";

const SECURE_PATH: &[&str] = &[
    "/usr/local/sbin",
    "/usr/local/bin",
    "/usr/sbin",
    "/usr/bin",
    "/sbin",
    "/bin",
    "/snap/bin",
];

/// The simulated tool behind a command name or path, if the machine has it.
fn resolve(cx: &Ctx, cmd: &str) -> Resolved {
    let wrapper_tool = |host: &std::path::Path| -> Option<String> {
        let text = super::super::fsx::read_opt(host)?;
        let line = text.lines().find(|l| l.starts_with("exec "))?;
        let after = line.split(" sim ").nth(1)?;
        after.split_whitespace().next().map(String::from)
    };
    // login(1) is the machine's own: `sudo login -f USER` opens a simulated session.
    if cmd == "login" || cmd == "/usr/bin/login" || cmd == "/bin/login" {
        return Resolved::Sim("login".to_string());
    }
    if cmd.contains('/') {
        let host = cx.host(cmd);
        if let Some(t) = wrapper_tool(&host) {
            return Resolved::Sim(t);
        }
        return Resolved::Real;
    }
    for dir in SECURE_PATH {
        let host = cx.host(&format!("{dir}/{cmd}"));
        if host.is_file() {
            return match wrapper_tool(&host) {
                Some(t) => Resolved::Sim(t),
                None => Resolved::Real,
            };
        }
    }
    if system_tools(cx.state).iter().any(|t| t.name == cmd) || cmd == "ls" {
        return Resolved::Sim(cmd.to_string());
    }
    if TOOLS.contains(&cmd) && cmd != "reboot" {
        // A simulated tool this machine does not have on sudo's PATH (rocminfo, hipcc...).
        return Resolved::NotFound;
    }
    Resolved::Real
}

enum Resolved {
    Sim(String),
    Real,
    NotFound,
}

/// Splits clustered short options as getopt does (`-iu learner` is `-i -u learner`,
/// `-ulearner` is `-u learner`), up to the command.
fn unbundle(args: &[String]) -> Vec<String> {
    const WITH_VALUE: &str = "ugpCDhrtTU";
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == "--" || !a.starts_with('-') || a.starts_with("--") || a.len() <= 2 {
            if a == "--" || !a.starts_with('-') || a == "-" {
                out.extend(args[i..].iter().cloned());
                return out;
            }
            out.push(a.clone());
            if a.len() == 2 && WITH_VALUE.contains(&a[1..]) {
                if let Some(v) = args.get(i + 1) {
                    out.push(v.clone());
                }
                i += 1;
            }
            i += 1;
            continue;
        }
        for (n, c) in a[1..].char_indices() {
            out.push(format!("-{c}"));
            if WITH_VALUE.contains(c) {
                let rest = &a[1 + n + c.len_utf8()..];
                if !rest.is_empty() {
                    out.push(rest.to_string());
                } else if let Some(v) = args.get(i + 1) {
                    out.push(v.clone());
                    i += 1;
                }
                break;
            }
        }
        i += 1;
    }
    out
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let args = &unbundle(args);
    let mut target_user: Option<String> = None;
    let mut shell: Option<&str> = None;
    let mut list = false;
    let mut keep_env = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if !a.starts_with('-') || a == "-" {
            break;
        }
        if a == "--" {
            i += 1;
            break;
        }
        match a {
            "-E" | "--preserve-env" => keep_env = true,
            "-H" | "-n" | "-S" | "-k" | "-b" | "-P" | "-A" | "-N" | "--non-interactive"
            | "--set-home" => {}
            "-u" | "--user" => {
                i += 1;
                let Some(u) = args.get(i) else {
                    cx.eprintln("sudo: option requires an argument -- 'u'");
                    cx.eprint(USAGE);
                    return 1;
                };
                target_user = Some(u.clone());
            }
            "-i" | "--login" => shell = Some("-i"),
            "-l" | "--list" => list = true,
            "-s" | "--shell" => shell = Some("-s"),
            "-h" | "--help" => {
                cx.println("sudo - execute a command as another user\n");
                cx.print(USAGE);
                return 0;
            }
            "-V" | "--version" => {
                cx.println("Sudo version 1.9.15p5");
                return 0;
            }
            o if o.starts_with("--") => {
                cx.eprintln(&format!("sudo: unrecognized option '{o}'"));
                cx.eprint(USAGE);
                return 1;
            }
            o => {
                cx.eprintln(&format!(
                    "sudo: invalid option -- '{}'",
                    o.chars().nth(1).unwrap_or('-')
                ));
                cx.eprint(USAGE);
                return 1;
            }
        }
        i += 1;
    }
    let rest = &args[i..];
    if list {
        return list_rights(cx, rest);
    }
    // Leading VAR=value words set the environment of the command.
    let env_len = rest
        .iter()
        .take_while(|w| w.contains('=') && !w.starts_with('='))
        .count();
    let (env, cmdline) = rest.split_at(env_len);
    let runner: Caller = match &target_user {
        None => cx.caller.as_root(),
        Some(u) => {
            let name = u.trim_start_matches('#');
            let pw = accounts::user(cx.root, name).or_else(|| {
                name.parse()
                    .ok()
                    .and_then(|id| accounts::user_by_uid(cx.root, id))
            });
            match pw {
                Some(pw) => Caller {
                    user: pw.name,
                    uid: pw.uid,
                    session: None,
                    cwd: cx.caller.cwd.clone(),
                    sim_bin: cx.caller.sim_bin.clone(),
                },
                None => {
                    cx.eprintln(&format!("sudo: unknown user {u}"));
                    cx.eprintln("sudo: error initializing audit plugin sudoers_audit");
                    return 1;
                }
            }
        }
    };
    let as_root = runner.is_root();
    // Another user, as PAM does it for sudo: a session of their own, with the groups
    // /etc/group gives them now (sudo -iu learner is a fresh login).
    let real_cmd = cmdline
        .first()
        .is_some_and(|c| !matches!(resolve(cx, c), Resolved::Sim(_)));
    if !as_root && (shell.is_some() || real_cmd) {
        let root = cx.root;
        return match cx.state.login(root, &runner.user) {
            Ok(session) => {
                let command = (!cmdline.is_empty()).then(|| {
                    env.iter()
                        .chain(cmdline)
                        .map(|w| quote(w))
                        .collect::<Vec<_>>()
                        .join(" ")
                });
                let command = match (&command, env.is_empty()) {
                    (Some(c), false) => Some(format!("env {c}")),
                    _ => command,
                };
                cx.out.exec = Some(Exec::Login {
                    session,
                    user: runner.user.clone(),
                    login: shell == Some("-i"),
                    command,
                });
                0
            }
            Err(e) => {
                cx.eprintln(&format!("sudo: {e}"));
                1
            }
        };
    }
    if let Some(flag) = shell {
        let mut argv = vec!["bash".to_string()];
        if flag == "-i" {
            argv.push("-l".into());
        }
        if !cmdline.is_empty() {
            argv.push("-c".into());
            argv.push(cmdline.join(" "));
        }
        let env = sudo_env(cx, &runner, keep_env, &[], &argv);
        cx.out.exec = Some(Exec::Program {
            argv,
            as_root,
            env: Some(env),
        });
        return 0;
    }
    let Some(cmd) = cmdline.first() else {
        cx.eprint(USAGE);
        return 1;
    };
    match resolve(cx, cmd) {
        Resolved::NotFound => {
            cx.eprintln(&format!("sudo: {cmd}: command not found"));
            1
        }
        Resolved::Sim(tool) => {
            let saved = std::mem::replace(&mut cx.caller, runner);
            let code = dispatch(cx, &tool, &cmdline[1..]);
            cx.caller = saved;
            if let Some(Exec::Program { as_root: r, .. }) = &mut cx.out.exec {
                *r = as_root;
            }
            code
        }
        Resolved::Real => {
            let argv: Vec<String> = cmdline.to_vec();
            let env = sudo_env(cx, &runner, keep_env, env, &argv);
            cx.out.exec = Some(Exec::Program {
                argv,
                as_root,
                env: Some(env),
            });
            0
        }
    }
}

/// `sudo -l`: Ubuntu's defaults and the rules that let the caller run anything (the sudo
/// group's, then cloud-init's NOPASSWD drop-in). With a command, its full path when allowed.
fn list_rights(cx: &mut Ctx, cmd: &[String]) -> i32 {
    let user = cx.caller.user.clone();
    let host = cx.state.machine.hostname.clone();
    if let Some(c) = cmd.first() {
        let path = if c.contains('/') {
            Some(c.clone())
        } else {
            SECURE_PATH
                .iter()
                .map(|d| format!("{d}/{c}"))
                .find(|p| cx.host(p).is_file())
        };
        return match path {
            Some(p) => {
                let mut line = p;
                for a in &cmd[1..] {
                    line.push(' ');
                    line.push_str(a);
                }
                cx.println(&line);
                0
            }
            None => {
                cx.eprintln(&format!("sudo: {c}: command not found"));
                1
            }
        };
    }
    cx.println(&format!("Matching Defaults entries for {user} on {host}:"));
    cx.println("    env_reset, mail_badpass, secure_path=/usr/local/sbin\\:/usr/local/bin\\:/usr/sbin\\:/usr/bin\\:/sbin\\:/bin\\:/snap/bin, use_pty");
    cx.println("");
    cx.println(&format!(
        "User {user} may run the following commands on {host}:"
    ));
    cx.println("    (ALL : ALL) ALL");
    cx.println("    (ALL) NOPASSWD: ALL");
    0
}

/// Variables Ubuntu's sudo keeps through env_reset (sudo's built-in env_keep list).
const ENV_KEEP: &[&str] = &[
    "COLORS",
    "DISPLAY",
    "HOSTNAME",
    "KRB5CCNAME",
    "LS_COLORS",
    "PS1",
    "PS2",
    "XAUTHORITY",
    "XAUTHORIZATION",
    "XDG_CURRENT_DESKTOP",
    "TERM",
    "TZ",
];

/// The environment of the command as sudo builds it: env_reset keeps only ENV_KEEP, the
/// locale and TERM, sets the target's HOME, USER, LOGNAME, SHELL, MAIL and the SUDO_*
/// variables; `-E` keeps everything. secure_path is PATH either way. `VAR=value` words come
/// last. The machine's own variables (`ROCM_*`, the prompt hook) survive, as they must for the
/// program's tools to reach the machine.
fn sudo_env(
    cx: &Ctx,
    runner: &Caller,
    keep_env: bool,
    words: &[String],
    argv: &[String],
) -> Vec<(String, String)> {
    let internal = |k: &str| k.starts_with("ROCM_") || k == "PROMPT_COMMAND";
    let mut env: Vec<(String, String)> = cx
        .env
        .iter()
        .filter(|(k, _)| {
            keep_env
                || internal(k)
                || ENV_KEEP.contains(&k.as_str())
                || k == "LANG"
                || k == "LANGUAGE"
                || k.starts_with("LC_")
        })
        .cloned()
        .collect();
    let pw = accounts::user(cx.root, &runner.user);
    let home = pw
        .as_ref()
        .map_or_else(|| "/root".to_string(), |p| p.home.clone());
    let shell = pw
        .as_ref()
        .map(|p| p.shell.clone())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "/bin/bash".into());
    let me = &cx.caller;
    let gid = accounts::user(cx.root, &me.user).map_or(me.uid, |p| p.gid);
    let set = [
        ("PATH", SECURE_PATH.join(":")),
        ("HOME", home),
        ("USER", runner.user.clone()),
        ("LOGNAME", runner.user.clone()),
        ("SHELL", shell),
        ("MAIL", format!("/var/mail/{}", runner.user)),
        ("SUDO_COMMAND", argv.join(" ")),
        ("SUDO_USER", me.user.clone()),
        ("SUDO_UID", me.uid.to_string()),
        ("SUDO_GID", gid.to_string()),
    ];
    for (k, v) in set {
        env.retain(|(key, _)| key != k);
        env.push((k.into(), v));
    }
    for w in words {
        if let Some((k, v)) = w.split_once('=') {
            env.retain(|(key, _)| key != k);
            env.push((k.into(), v.into()));
        }
    }
    env
}

/// A word quoted for `sh -c` (single quotes, a quote inside written as '\'').
fn quote(w: &str) -> String {
    if !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,@%+".contains(&b))
    {
        return w.to_string();
    }
    format!("'{}'", w.replace('\'', "'\\''"))
}
