//! `sg GROUP [-c] COMMAND`: runs one command with GROUP added to the credentials, under the
//! same membership rules as newgrp ([`super::newgrp::group_session`]).

use super::super::{Ctx, Exec};
use super::newgrp::group_session;

const USAGE: &str = "Usage: sg group [[-c] command]";

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut rest: Vec<&String> = args.iter().collect();
    if rest.first().is_some_and(|a| a.as_str() == "-") {
        rest.remove(0);
    }
    let Some(group) = rest.first().map(|g| g.to_string()) else {
        cx.eprintln(USAGE);
        return 1;
    };
    let words: Vec<&String> = rest[1..].to_vec();
    let command = match words.as_slice() {
        [] => None,
        [c, cmd] if c.as_str() == "-c" => Some(cmd.to_string()),
        [c, ..] if c.as_str() == "-c" => {
            cx.eprintln(USAGE);
            return 1;
        }
        // `sg render rocminfo --help`: the words form the command.
        w => Some(w.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")),
    };
    let Ok(session) = group_session(cx, "sg", Some(&group)) else {
        return 1;
    };
    cx.out.exec = Some(match command {
        Some(c) => Exec::Login {
            session,
            user: cx.caller.user.clone(),
            login: false,
            command: Some(c),
        },
        None => Exec::Shell { session },
    });
    0
}
