//! `sudo` (passwordless, as on a cloud image). A simulated command runs in-process as root;
//! anything else comes back as `Exec::Program { as_root: true }` for the caller to run.
//! Commands are looked up in sudo's `secure_path`, which does not contain /opt/rocm/bin.

use super::super::{Caller, Ctx, Exec, accounts};
use super::opts::{self, Error, Long, Parsed, Short, Value};
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
        super::super::wrappers::tool_of(&text, &cx.caller.sim_bin).map(|(tool, _)| tool)
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

/// What the command line asks for.
#[derive(Debug, Default)]
struct Request {
    target_user: Option<String>,
    /// `-i` (a login shell) or `-s`.
    shell: Option<&'static str>,
    list: bool,
    keep_env: bool,
    /// `VAR=value` words and the command, as given.
    rest: Vec<String>,
}

/// Reads sudo's options as its getopt_long does with "+": they stop at the first word that is
/// not one (the command), so the command's own options stay its own.
fn parse(args: &[String]) -> Result<Parsed<Request>, Error> {
    let mut p = opts::parser(args);
    let mut r = Request::default();
    while let Some(arg) = p.next()? {
        match arg {
            Short('E') => r.keep_env = true,
            Long("preserve-env") => match p.optional_value() {
                // `--preserve-env=LIST` keeps only some variables: not simulated, refused.
                Some(list) => {
                    let word = format!("--preserve-env={}", opts::text(list));
                    return Err(Error::UnexpectedOption(word));
                }
                None => r.keep_env = true,
            },
            Short('H' | 'n' | 'S' | 'k' | 'b' | 'P' | 'A' | 'N')
            | Long("set-home" | "non-interactive" | "stdin" | "reset-timestamp" | "background")
            | Long("preserve-groups" | "askpass" | "no-update") => {}
            Short('u') | Long("user") => r.target_user = Some(opts::value(&mut p)?),
            Short('i') | Long("login") => r.shell = Some("-i"),
            Short('s') | Long("shell") => r.shell = Some("-s"),
            Short('l') | Long("list") => r.list = true,
            Short('h') | Long("help") => return Ok(Parsed::Help),
            Short('V') | Long("version") => return Ok(Parsed::Version),
            Value(first) => {
                r.rest.push(opts::text(first));
                r.rest.extend(p.raw_args()?.map(opts::text));
            }
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    Ok(Parsed::Request(r))
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let r = match parse(args) {
        Ok(Parsed::Request(r)) => r,
        Ok(Parsed::Help) => {
            cx.println("sudo - execute a command as another user\n");
            cx.print(USAGE);
            return 0;
        }
        Ok(Parsed::Version) => {
            cx.println("Sudo version 1.9.15p5");
            return 0;
        }
        Err(e) => {
            cx.eprintln(&format!("sudo: {}", opts::getopt_message(&e)));
            cx.eprint(USAGE);
            return 1;
        }
    };
    if r.list {
        return list_rights(cx, &r.rest);
    }
    // Leading VAR=value words set the environment of the command.
    let env_len = r
        .rest
        .iter()
        .take_while(|w| w.contains('=') && !w.starts_with('='))
        .count();
    let (env, cmdline) = r.rest.split_at(env_len);
    let Some(runner) = runner(cx, r.target_user.as_deref()) else {
        return 1;
    };
    // Another user, as PAM does it for sudo: a session of their own, with the groups
    // /etc/group gives them now (sudo -iu learner is a fresh login).
    let real_cmd = cmdline
        .first()
        .is_some_and(|c| !matches!(resolve(cx, c), Resolved::Sim(_)));
    if !runner.is_root() && (r.shell.is_some() || real_cmd) {
        return login_as(cx, &runner, r.shell == Some("-i"), env, cmdline);
    }
    if let Some(flag) = r.shell {
        return shell(cx, &runner, flag, r.keep_env, cmdline);
    }
    command(cx, runner, r.keep_env, env, cmdline)
}

/// Who the command runs as: root, or `-u USER` (a name or `#UID`). `None` after sudo's
/// complaint about a user that does not exist.
fn runner(cx: &mut Ctx, target: Option<&str>) -> Option<Caller> {
    let Some(u) = target else {
        return Some(cx.caller.as_root());
    };
    let name = u.trim_start_matches('#');
    let pw = accounts::user(cx.root, name).or_else(|| {
        name.parse()
            .ok()
            .and_then(|id| accounts::user_by_uid(cx.root, id))
    });
    match pw {
        Some(pw) => Some(Caller {
            user: pw.name,
            uid: pw.uid,
            session: None,
            cwd: cx.caller.cwd.clone(),
            sim_bin: cx.caller.sim_bin.clone(),
        }),
        None => {
            cx.eprintln(&format!("sudo: unknown user {u}"));
            cx.eprintln("sudo: error initializing audit plugin sudoers_audit");
            None
        }
    }
}

/// A new login session of another user, running their shell or the command in it.
fn login_as(cx: &mut Ctx, runner: &Caller, login: bool, env: &[String], cmdline: &[String]) -> i32 {
    let root = cx.root;
    match cx.state.login(root, &runner.user) {
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
                login,
                command,
            });
            0
        }
        Err(e) => {
            cx.eprintln(&format!("sudo: {e}"));
            1
        }
    }
}

/// `-i`/`-s` as root: bash (a login shell for `-i`), running the command with `-c` if any.
fn shell(cx: &mut Ctx, runner: &Caller, flag: &str, keep_env: bool, cmdline: &[String]) -> i32 {
    let mut argv = vec!["bash".to_string()];
    if flag == "-i" {
        argv.push("-l".into());
    }
    if !cmdline.is_empty() {
        argv.push("-c".into());
        argv.push(cmdline.join(" "));
    }
    let env = sudo_env(cx, runner, keep_env, &[], &argv);
    cx.out.exec = Some(Exec::Program {
        argv,
        as_root: runner.is_root(),
        env: Some(env),
    });
    0
}

/// The command itself: a simulated tool runs here as `runner`; another program is handed to
/// the caller to run.
fn command(
    cx: &mut Ctx,
    runner: Caller,
    keep_env: bool,
    env: &[String],
    cmdline: &[String],
) -> i32 {
    let Some(cmd) = cmdline.first() else {
        cx.eprint(USAGE);
        return 1;
    };
    let as_root = runner.is_root();
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

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn options_end_at_the_command() {
        let m = Machine::stage();
        let out = |line: &str| m.learner(line).stdout;
        assert_eq!(out("sudo id -u"), "0\n");
        assert_eq!(out("sudo -nk id -un"), "root\n");
        assert_eq!(out("sudo -ulearner id -un"), "learner\n");
        assert_eq!(out("sudo --user=learner -- id -un"), "learner\n");
        assert!(out("sudo -h").starts_with("sudo - execute a command"));
        for (line, first) in [
            ("sudo -x id", "sudo: invalid option -- 'x'"),
            ("sudo --bogus=1", "sudo: unrecognized option '--bogus=1'"),
            ("sudo -u", "sudo: option requires an argument -- 'u'"),
            ("sudo --user", "sudo: option '--user' requires an argument"),
            (
                "sudo --preserve-env=PATH id",
                "sudo: unrecognized option '--preserve-env=PATH'",
            ),
            ("sudo -u nosuch id", "sudo: unknown user nosuch"),
        ] {
            assert_eq!(m.learner(line).complaint(), (first, 1), "{line}");
        }
    }
}
