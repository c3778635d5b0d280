//! `groups` (coreutils): without a user the *running session's* groups, with one the database's.

use super::super::{Ctx, accounts};
use std::ops::ControlFlow;

use super::opts::{self, Error, Long, Parsed, Value};

/// groups knows only --help and --version; the users may come among them.
fn parse(args: &[String]) -> Result<Parsed<Vec<String>>, Error> {
    let mut p = opts::parser(args);
    let mut users = Vec::new();
    while let Some(arg) = p.next()? {
        match arg {
            Long("help") => return opts::at_once(&mut p, "help", Parsed::Help),
            Long("version") => return opts::at_once(&mut p, "version", Parsed::Version),
            Value(v) => users.push(opts::text(v)),
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    Ok(Parsed::Request(users))
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let users = match opts::coreutils(
        cx,
        "groups",
        "Usage: groups [OPTION]... [USERNAME]...\nPrint group memberships for each USERNAME or, if no USERNAME is specified, for\nthe current process (which may differ if the groups database has changed).\n      --help        display this help and exit\n      --version     output version information and exit",
        parse(args),
    ) {
        ControlFlow::Continue(r) => r,
        ControlFlow::Break(code) => return code,
    };
    let db = accounts::Groups::load(cx.root);
    if users.is_empty() {
        let names: Vec<String> = cx.gids().iter().map(|g| db.name_of(*g)).collect();
        cx.println(&names.join(" "));
        return 0;
    }
    let mut code = 0;
    for u in &users {
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

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn options_anywhere_and_complaints() {
        let m = Machine::stage();
        assert!(
            m.learner("groups learner --help")
                .stdout
                .starts_with("Usage:")
        );
        assert_eq!(m.learner("groups -- learner").code, 0);
        for (line, first) in [
            ("groups -x", "groups: invalid option -- 'x'"),
            ("groups --bogus", "groups: unrecognized option '--bogus'"),
            (
                "groups --help=1",
                "groups: option '--help' doesn't allow an argument",
            ),
        ] {
            let r = m.learner(line);
            assert_eq!(r.complaint(), (first, 1), "{line}");
            assert!(
                r.stderr
                    .ends_with("Try 'groups --help' for more information.\n")
            );
        }
    }
}
