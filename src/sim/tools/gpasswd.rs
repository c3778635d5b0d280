//! `gpasswd -a USER GROUP` / `-d USER GROUP` (shadow-utils).

use super::super::{Ctx, accounts};

const USAGE: &str = "Usage: gpasswd [option] GROUP

Options:
  -a, --add USER                add USER to GROUP
  -d, --delete USER             remove USER from GROUP
  -h, --help                    display this help message and exit
  -Q, --root CHROOT_DIR         directory to chroot into
  -r, --remove-password         remove the GROUP's password
  -R, --restrict                restrict access to GROUP to its members
  -M, --members USER,...        set the list of members of GROUP
  -A, --administrators ADMIN,...
                                set the list of administrators for GROUP
Except for the -A and -M options, the options cannot be combined.
";

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let args = super::split_short(args, "adMAQ");
    let mut add: Option<String> = None;
    let mut del: Option<String> = None;
    let mut members: Option<String> = None;
    let mut operands = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-a" | "--add" | "-d" | "--delete" => {
                let Some(u) = it.next() else {
                    cx.eprintln(&format!(
                        "gpasswd: option requires an argument -- '{}'",
                        a.trim_start_matches('-').chars().next().unwrap_or('a')
                    ));
                    cx.eprint(USAGE);
                    return 2;
                };
                if a.contains('a') {
                    add = Some(u.clone());
                } else {
                    del = Some(u.clone());
                }
            }
            "-M" | "--members" => {
                let Some(list) = it.next() else {
                    cx.eprintln("gpasswd: option requires an argument -- 'M'");
                    cx.eprint(USAGE);
                    return 2;
                };
                members = Some(list.clone());
            }
            "-h" | "--help" => {
                cx.print(USAGE);
                return 0;
            }
            o if o.starts_with("--") => {
                cx.eprintln(&format!("gpasswd: unrecognized option '{o}'"));
                cx.eprint(USAGE);
                return 2;
            }
            o if o.starts_with('-') && o.len() > 1 => {
                cx.eprintln(&format!("gpasswd: invalid option -- '{}'", &o[1..]));
                cx.eprint(USAGE);
                return 2;
            }
            o => operands.push(o.to_string()),
        }
    }
    if operands.len() != 1 || (add.is_some() && del.is_some()) {
        cx.eprint(USAGE);
        return 2;
    }
    let group = operands[0].clone();
    if accounts::Groups::load(cx.root).by_name(&group).is_none() {
        cx.eprintln(&format!(
            "gpasswd: group '{group}' does not exist in /etc/group"
        ));
        return 3;
    }
    if !cx.caller.is_root() {
        cx.eprintln("gpasswd: Permission denied.");
        return 1;
    }
    if let Some(list) = members {
        // -M replaces the whole member list: whoever is not named is out.
        let names: Vec<String> = list
            .split(',')
            .filter(|m| !m.is_empty())
            .map(String::from)
            .collect();
        if let Some(u) = names.iter().find(|u| accounts::user(cx.root, u).is_none()) {
            cx.eprintln(&format!("gpasswd: user '{u}' does not exist"));
            return 3;
        }
        if let Err(e) = accounts::set_members(cx.root, &group, &names) {
            cx.eprintln(&format!(
                "gpasswd: failure while writing changes to /etc/group: {e}"
            ));
            return 1;
        }
        return 0;
    }
    let (Some(user), adding) = (add.clone().or(del.clone()), add.is_some()) else {
        cx.eprintln("gpasswd: changing the group password is not part of this lab");
        return 1;
    };
    if accounts::user(cx.root, &user).is_none() {
        cx.eprintln(&format!("gpasswd: user '{user}' does not exist"));
        return 3;
    }
    let g = vec![group.clone()];
    if adding {
        cx.println(&format!("Adding user {user} to group {group}"));
        if let Err(e) = accounts::add_to_groups(cx.root, &user, &g) {
            cx.eprintln(&format!(
                "gpasswd: failure while writing changes to /etc/group: {e}"
            ));
            return 1;
        }
    } else {
        let members = accounts::members_of(cx.root, &group).unwrap_or_default();
        if !members.contains(&user) {
            cx.eprintln(&format!(
                "gpasswd: user '{user}' is not a member of '{group}'"
            ));
            return 3;
        }
        cx.println(&format!("Removing user {user} from group {group}"));
        if let Err(e) = accounts::remove_from_groups(cx.root, &user, &g) {
            cx.eprintln(&format!(
                "gpasswd: failure while writing changes to /etc/group: {e}"
            ));
            return 1;
        }
    }
    0
}
