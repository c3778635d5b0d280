//! `su [-|-l|--login] [-c COMMAND] [USER]`. Root gets a new login session as USER (root when
//! omitted). Anyone else is asked for a password; a cloud image's users have none, so su refuses,
//! as it does on a real node: `sudo su - learner` or logging out and in are the ways to a fresh
//! login.

use super::super::{Ctx, Exec, accounts};

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut login = false;
    let mut command = None;
    let mut user = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "-" | "-l" | "--login" => login = true,
            "-c" | "--command" => {
                i += 1;
                let Some(c) = args.get(i) else {
                    cx.eprintln("su: option requires an argument -- 'c'");
                    cx.eprintln("Try 'su --help' for more information.");
                    return 1;
                };
                command = Some(c.clone());
            }
            o if o.starts_with("--command=") => command = Some(o["--command=".len()..].to_string()),
            o if o.starts_with("--") => {
                cx.eprintln(&format!("su: unrecognized option '{o}'"));
                cx.eprintln("Try 'su --help' for more information.");
                return 1;
            }
            o if o.starts_with('-') => {
                cx.eprintln(&format!(
                    "su: invalid option -- '{}'",
                    o.chars().nth(1).unwrap_or('-')
                ));
                cx.eprintln("Try 'su --help' for more information.");
                return 1;
            }
            name => {
                if user.is_some() {
                    // Further operands are arguments for the shell; not needed in the lab.
                    break;
                }
                user = Some(name.to_string());
            }
        }
        i += 1;
    }
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
