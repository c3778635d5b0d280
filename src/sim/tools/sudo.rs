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
    if TOOLS.contains(&cmd) && cmd != "login" && cmd != "reboot" {
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

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut target_user: Option<String> = None;
    let mut shell: Option<&str> = None;
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
            "-E" | "-H" | "-n" | "-S" | "-k" | "-b" | "-P" | "-A" | "-N" | "--preserve-env"
            | "--non-interactive" | "--set-home" => {}
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
    if let Some(flag) = shell {
        let mut argv = vec!["bash".to_string()];
        if flag == "-i" {
            argv.push("-l".into());
        }
        if !cmdline.is_empty() {
            argv.push("-c".into());
            argv.push(cmdline.join(" "));
        }
        cx.out.exec = Some(Exec::Program { argv, as_root });
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
            let mut argv: Vec<String> = env.to_vec();
            argv.extend(cmdline.iter().cloned());
            cx.out.exec = Some(Exec::Program { argv, as_root });
            0
        }
    }
}
