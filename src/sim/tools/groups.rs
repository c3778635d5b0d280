//! `groups` (coreutils): without a user the *running session's* groups, with one the database's.

use super::super::{Ctx, accounts};

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    if let Some(o) = args.iter().find(|a| a.starts_with('-') && a.len() > 1) {
        match o.as_str() {
            "--help" => {
                cx.println("Usage: groups [OPTION]... [USERNAME]...\nPrint group memberships for each USERNAME or, if no USERNAME is specified, for\nthe current process (which may differ if the groups database has changed).\n      --help        display this help and exit\n      --version     output version information and exit");
                return 0;
            }
            "--version" => {
                cx.println("groups (GNU coreutils) 9.4");
                return 0;
            }
            o if o.starts_with("--") => cx.eprintln(&format!("groups: unrecognized option '{o}'")),
            o => cx.eprintln(&format!(
                "groups: invalid option -- '{}'",
                o.chars().nth(1).unwrap_or('-')
            )),
        }
        cx.eprintln("Try 'groups --help' for more information.");
        return 1;
    }
    let db = accounts::Groups::load(cx.root);
    if args.is_empty() {
        let names: Vec<String> = cx.gids().iter().map(|g| db.name_of(*g)).collect();
        cx.println(&names.join(" "));
        return 0;
    }
    let mut code = 0;
    for u in args {
        match accounts::db_groups(cx.root, u) {
            Some(g) => cx.println(&format!("{u} : {}", g.join(" "))),
            None => {
                cx.eprintln(&format!("groups: ‘{u}’: no such user"));
                code = 1;
            }
        }
    }
    code
}
