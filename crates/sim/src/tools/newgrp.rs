//! `newgrp GROUP`: a new shell whose credentials add GROUP, if the database makes the user a
//! member (no group passwords on the machine: a non-member gets shadow's crypt error).

use super::super::state::Session;
use super::super::{Ctx, Exec, accounts};

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let operands: Vec<&String> = args
        .iter()
        .filter(|a| a.as_str() != "-" && a.as_str() != "-l")
        .collect();
    if let Some(o) = operands.iter().find(|a| a.starts_with('-')) {
        cx.eprintln(&format!("newgrp: invalid option -- '{}'", &o[1..]));
        cx.eprintln("Usage: newgrp [-] [group]");
        return 1;
    }
    if operands.len() > 1 {
        cx.eprintln("Usage: newgrp [-] [group]");
        return 1;
    }
    let Ok(id) = group_session(cx, "newgrp", operands.first().map(|s| s.as_str())) else {
        return 1;
    };
    cx.out.exec = Some(Exec::Shell { session: id });
    0
}

/// A new login session whose credentials add `group` (the primary group without one), if the
/// database makes the user a member: what `newgrp` and `sg` share. `Err` after the message.
pub fn group_session(cx: &mut Ctx, prog: &str, group: Option<&str>) -> Result<String, i32> {
    let db = accounts::Groups::load(cx.root);
    let Some(pw) = accounts::user_by_uid(cx.root, cx.caller.uid) else {
        cx.eprintln(&format!("{prog}: Cannot determine your user name."));
        return Err(1);
    };
    let current = cx.gids();
    let new_gid = match group {
        None => pw.gid,
        Some(name) => {
            let Some(g) = db.by_name(name) else {
                cx.eprintln(&format!("{prog}: group '{name}' does not exist"));
                return Err(1);
            };
            let member = g.members.contains(&pw.name) || g.gid == pw.gid;
            if !member && !cx.caller.is_root() {
                let _ = cx.ask("Password: ");
                if !accounts::group_has_password(cx.root, name) {
                    cx.eprintln(&format!(
                        "{prog}: failed to crypt password with previous salt: Invalid argument"
                    ));
                } else {
                    cx.eprintln("Invalid password.");
                }
                return Err(1);
            }
            g.gid
        }
    };
    let mut gids = vec![new_gid];
    gids.extend(current.into_iter().filter(|g| *g != new_gid));
    Ok(cx.state.open_session(Session {
        user: pw.name,
        uid: pw.uid,
        gids,
    }))
}
