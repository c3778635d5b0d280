//! `sim login USER` (the lab's login loop, not a learner's tool) records a login session and
//! prints its id; `login -f USER` as root is the admin's password-less login.

use super::super::Ctx;

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    if let [f, user] = args
        && f == "-f"
    {
        return login_f(cx, user);
    }
    let [user] = args else {
        cx.eprintln("usage: rocm-learn sim login USER");
        return 2;
    };
    let root = cx.root;
    match cx.state.login(root, user) {
        Ok(id) => {
            cx.println(&id);
            0
        }
        Err(e) => {
            cx.eprintln(&e.message);
            1
        }
    }
}

/// `login -f USER` (root only): a new login of USER without a password, with the groups
/// /etc/group gives now, as a fresh login shell.
fn login_f(cx: &mut Ctx, user: &str) -> i32 {
    if !cx.caller.is_root() {
        cx.eprintln("login: Cannot possibly work without effective root");
        return 1;
    }
    let root = cx.root;
    match cx.state.login(root, user) {
        Ok(session) => {
            cx.out.exec = Some(super::super::Exec::Login {
                session,
                user: user.to_string(),
                login: true,
                command: None,
            });
            0
        }
        Err(_) => {
            cx.eprintln("Login incorrect");
            1
        }
    }
}
