//! `adduser USER GROUP` (Debian's adduser): 3.137 on Ubuntu 24.04 prefixes its messages with
//! `info:`/`fatal:`, 3.118 on 22.04 with the program name.

use super::super::{Ctx, accounts};

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let noble = cx.state.machine.os.codename == "noble";
    let fatal = |m: &str| {
        if noble {
            format!("fatal: {m}")
        } else {
            format!("adduser: {m}")
        }
    };
    let operands: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    if let Some(o) = args
        .iter()
        .find(|a| a.starts_with('-') && !matches!(a.as_str(), "--quiet" | "-q" | "--debug"))
    {
        cx.eprintln(&fatal(&format!(
            "Unknown option: {}",
            o.trim_start_matches('-')
        )));
        return 1;
    }
    if !cx.caller.is_root() {
        cx.eprintln(&fatal("Only root may add a user or group to the system."));
        return 1;
    }
    match operands.as_slice() {
        [user, group] => {
            if accounts::user(cx.root, user).is_none() {
                cx.eprintln(&fatal(&format!("The user `{user}' does not exist.")));
                return 1;
            }
            if accounts::Groups::load(cx.root).by_name(group).is_none() {
                cx.eprintln(&fatal(&format!("The group `{group}' does not exist.")));
                return 1;
            }
            if accounts::members_of(cx.root, group)
                .unwrap_or_default()
                .contains(&user.to_string())
            {
                let m = format!("The user `{user}' is already a member of `{group}'.");
                cx.println(&if noble { format!("info: {m}") } else { m });
                return 0;
            }
            if noble {
                cx.println(&format!(
                    "info: Adding user `{user}' to group `{group}' ..."
                ));
            } else {
                cx.println(&format!("Adding user `{user}' to group `{group}' ..."));
                cx.println(&format!("Adding user {user} to group {group}"));
                cx.println("Done.");
            }
            match accounts::add_to_groups(cx.root, user, &[group.to_string()]) {
                Ok(()) => 0,
                Err(e) => {
                    cx.eprintln(&fatal(&format!("cannot update /etc/group: {e}")));
                    1
                }
            }
        }
        [user] => {
            if accounts::user(cx.root, user).is_some() {
                cx.eprintln(&fatal(&format!("The user `{user}' already exists.")));
            } else {
                cx.eprintln(&fatal(
                    "creating new users is not part of the simulated machine",
                ));
            }
            1
        }
        _ => {
            cx.eprintln(&fatal("Only one or two names allowed."));
            1
        }
    }
}
