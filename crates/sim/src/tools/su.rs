//! `su [-|-l|--login] [-c COMMAND] [USER]`. Root gets a new login session as USER (root when
//! omitted). Anyone else is asked for a password; a cloud image's users have none, so su refuses,
//! as it does on a real node: `sudo su - learner` or logging out and in are the ways to a fresh
//! login.

use super::super::{Ctx, Exec, accounts};
use super::opts::{self, Error, Long, Short, Value};

/// What the command line asks for.
#[derive(Debug, Default)]
struct Request {
    login: bool,
    command: Option<String>,
    user: Option<String>,
}

/// Reads the options as util-linux's getopt_long does (`-lc id`, `--command=id`, options after
/// the user). A `-` first among the operands asks for a login shell too; operands after the user
/// are arguments for the shell, not needed in the lab.
fn parse(args: &[String]) -> Result<Request, Error> {
    let mut p = opts::parser(args);
    let mut r = Request::default();
    let mut operands = Vec::new();
    while let Some(arg) = p.next()? {
        match arg {
            Short('l') | Long("login") => r.login = true,
            Short('c') | Long("command") => r.command = Some(opts::value(&mut p)?),
            Value(v) => operands.push(opts::text(v)),
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    let mut operands = operands.into_iter().peekable();
    if operands.next_if(|o| o == "-").is_some() {
        r.login = true;
    }
    r.user = operands.next();
    Ok(r)
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let Request {
        login,
        command,
        user,
    } = match parse(args) {
        Ok(r) => r,
        Err(e) => return opts::try_help(cx, "su", &opts::getopt_message(&e)),
    };
    let user = user.unwrap_or_else(|| "root".into());
    if accounts::user(cx.root, &user).is_none() {
        cx.eprintln(&format!(
            "su: user {user} does not exist or the user entry does not contain all the required fields"
        ));
        return 1;
    }
    if !cx.caller.is_root() {
        let _ = cx.ask("Password: ");
        cx.eprintln("su: Authentication failure");
        return 1;
    }
    let root = cx.root;
    match cx.state.login(root, &user) {
        Ok(session) => {
            cx.out.exec = Some(Exec::Login {
                session,
                user,
                login,
                command,
            });
            0
        }
        Err(e) => {
            cx.eprintln(&e.message);
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::{Caller, Exec};
    use super::super::testkit::Machine;

    /// (login, command, user) of the session su asks for, as root.
    fn session(m: &Machine, line: &str) -> Option<(bool, Option<String>, String)> {
        match m.output(Caller::user("root", 0, None), line).exec {
            Some(Exec::Login {
                login,
                command,
                user,
                ..
            }) => Some((login, command, user)),
            _ => None,
        }
    }

    #[test]
    fn option_forms() {
        let m = Machine::stage();
        let id = Some("id".to_string());
        let learner = "learner".to_string();
        for line in [
            "su -lc id learner",
            "su - -cid learner",
            "su learner --login --command=id",
        ] {
            assert_eq!(
                session(&m, line),
                Some((true, id.clone(), learner.clone())),
                "{line}"
            );
        }
        assert_eq!(session(&m, "su"), Some((false, None, "root".into())));
        for (line, first) in [
            ("su -c", "su: option requires an argument -- 'c'"),
            (
                "su --command",
                "su: option '--command' requires an argument",
            ),
            ("su -x", "su: invalid option -- 'x'"),
        ] {
            assert_eq!(m.learner(line).complaint(), (first, 1), "{line}");
        }
    }
}
