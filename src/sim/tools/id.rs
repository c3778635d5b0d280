//! `id` (coreutils): the running session's credentials, or a user's from the database.

use super::super::{Ctx, accounts};

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let args = super::split_short(args, "");
    let (mut u, mut g, mut big_g, mut n) = (false, false, false, false);
    let mut users = Vec::new();
    for a in &args {
        match a.as_str() {
            "-u" | "--user" => u = true,
            "-g" | "--group" => g = true,
            "-G" | "--groups" => big_g = true,
            "-n" | "--name" => n = true,
            "-r" | "--real" | "-z" | "--zero" | "-a" => {}
            "--help" => {
                cx.println("Usage: id [OPTION]... [USER]...\nPrint user and group information for each specified USER,\nor (when USER omitted) for the current process.");
                return 0;
            }
            "--version" => {
                cx.println("id (GNU coreutils) 9.4");
                return 0;
            }
            o if o.starts_with("--") => {
                cx.eprintln(&format!("id: unrecognized option '{o}'"));
                cx.eprintln("Try 'id --help' for more information.");
                return 1;
            }
            o if o.starts_with('-') && o.len() > 1 => {
                cx.eprintln(&format!("id: invalid option -- '{}'", &o[1..]));
                cx.eprintln("Try 'id --help' for more information.");
                return 1;
            }
            o => users.push(o.to_string()),
        }
    }
    if [u, g, big_g].iter().filter(|x| **x).count() > 1 {
        cx.eprintln("id: cannot print \"only\" of more than one choice");
        return 1;
    }
    if n && !(u || g || big_g) {
        cx.eprintln("id: cannot print only names or real IDs in default format");
        return 1;
    }
    let db = accounts::Groups::load(cx.root);
    let mut targets: Vec<(String, u32, Vec<u32>)> = Vec::new();
    if users.is_empty() {
        let name = if cx.caller.is_root() {
            "root".to_string()
        } else {
            cx.caller.user.clone()
        };
        targets.push((name, cx.caller.uid, cx.gids()));
    } else {
        for user in &users {
            match accounts::user(cx.root, user) {
                Some(pw) => {
                    let gids = accounts::db_gids(cx.root, &pw);
                    targets.push((pw.name, pw.uid, gids));
                }
                None => {
                    cx.eprintln(&format!("id: ‘{user}’: no such user"));
                    return 1;
                }
            }
        }
    }
    for (name, uid, gids) in targets {
        let gid = gids.first().copied().unwrap_or(uid);
        let line = if u {
            if n { name.clone() } else { uid.to_string() }
        } else if g {
            if n { db.name_of(gid) } else { gid.to_string() }
        } else if big_g {
            gids.iter()
                .map(|x| if n { db.name_of(*x) } else { x.to_string() })
                .collect::<Vec<_>>()
                .join(" ")
        } else {
            let fmt = |x: u32| match db.by_gid(x) {
                Some(e) => format!("{x}({})", e.name),
                None => x.to_string(),
            };
            format!(
                "uid={uid}({name}) gid={} groups={}",
                fmt(gid),
                gids.iter().map(|x| fmt(*x)).collect::<Vec<_>>().join(",")
            )
        };
        cx.println(&line);
    }
    0
}
