//! `groupmems -g GROUP -a USER | -d USER | -l | -p` (shadow-utils): a group's member list.
//! Without `-g` it works on the caller's own group (one named as the user); `-g` is root's.

use super::super::{Ctx, accounts};
use super::opts::{self, Error, Long, Parsed, Short, Value};

const USAGE: &str = "Usage: groupmems [options] [action]

Options:
  -g, --group groupname         change groupname instead of the user's group
                                (root only)
  -R, --root CHROOT_DIR         directory to chroot into

Actions:
  -a, --add username            add username to the members of the group
  -d, --delete username         remove username from the members of the group
  -h, --help                    display this help message and exit
  -p, --purge                   purge all members from the group
  -l, --list                    list the members of the group
";

/// What the command line asks for: one action at most, on `group` (or the caller's own).
#[derive(Debug, Default)]
struct Request {
    add: Option<String>,
    del: Option<String>,
    group: Option<String>,
    list: bool,
    purge: bool,
    actions: usize,
    operands: usize,
}

fn parse(args: &[String]) -> Result<Parsed<Request>, Error> {
    let mut p = opts::parser(args);
    let mut r = Request::default();
    while let Some(arg) = p.next()? {
        match arg {
            Short('a') | Long("add") => {
                r.add = Some(opts::value(&mut p)?);
                r.actions += 1;
            }
            Short('d') | Long("delete") => {
                r.del = Some(opts::value(&mut p)?);
                r.actions += 1;
            }
            Short('g') | Long("group") => r.group = Some(opts::value(&mut p)?),
            Short('l') | Long("list") => {
                r.list = true;
                r.actions += 1;
            }
            Short('p') | Long("purge") => {
                r.purge = true;
                r.actions += 1;
            }
            Short('R') | Long("root") => drop(opts::value(&mut p)?),
            Short('h') | Long("help") => return Ok(Parsed::Help),
            Value(_) => r.operands += 1,
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    Ok(Parsed::Request(r))
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let r = match parse(args) {
        Ok(Parsed::Help | Parsed::Version) => {
            cx.print(USAGE);
            return 0;
        }
        Ok(Parsed::Request(r)) if r.actions <= 1 && r.operands == 0 => r,
        Ok(Parsed::Request(_)) => {
            cx.eprint(USAGE);
            return 1;
        }
        Err(e) => {
            cx.eprintln(&format!("groupmems: {}", opts::getopt_message(&e)));
            cx.eprint(USAGE);
            return 1;
        }
    };
    if let Some(u) = r.add.as_deref()
        && accounts::user(cx.root, u).is_none()
    {
        cx.eprintln(&format!("groupmems: user '{u}' does not exist"));
        return 8;
    }
    let group = match &r.group {
        Some(g) => {
            if !r.list && !cx.caller.is_root() {
                cx.eprintln("groupmems: only root can use the -g/--group option");
                return 3;
            }
            g.clone()
        }
        // The caller's own group: its primary group must be named as the user.
        None => match own_group(cx) {
            Some(g) => g,
            None if r.list => cx.caller.user.clone(),
            None => {
                cx.eprintln("groupmems: your groupname does not match your username");
                return 5;
            }
        },
    };
    let Some(members) = accounts::members_of(cx.root, &group) else {
        cx.eprintln(&format!(
            "groupmems: group '{group}' does not exist in /etc/group"
        ));
        return 9;
    };
    let has = |u: &str| members.iter().any(|m| m == u);
    let written = if r.list {
        if !members.is_empty() {
            cx.println(&format!("{} ", members.join("  ")));
        }
        return 0;
    } else if let Some(u) = &r.add {
        if has(u) {
            cx.eprintln(&format!(
                "groupmems: user '{u}' is already a member of '{group}'"
            ));
            return 7;
        }
        accounts::add_to_groups(cx.root, u, std::slice::from_ref(&group))
    } else if let Some(u) = &r.del {
        if !has(u) {
            cx.eprintln(&format!(
                "groupmems: user '{u}' is not a member of '{group}'"
            ));
            return 6;
        }
        accounts::remove_from_groups(cx.root, u, std::slice::from_ref(&group))
    } else if r.purge {
        accounts::set_members(cx.root, &group, &[])
    } else {
        return 0;
    };
    match written {
        Ok(()) => 0,
        Err(e) => {
            cx.eprintln(&format!(
                "groupmems: failure while writing changes to /etc/group: {e}"
            ));
            2
        }
    }
}

/// The caller's primary group when it is named as the caller (a user private group).
fn own_group(cx: &Ctx) -> Option<String> {
    let pw = accounts::user(cx.root, &cx.caller.user)?;
    let g = accounts::Groups::load(cx.root);
    let name = &g.by_gid(pw.gid)?.name;
    (name == &pw.name).then(|| name.clone())
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn root_edits_a_groups_members_and_others_may_only_list() {
        let m = Machine::stage();
        assert_eq!(
            m.learner("groupmems -g render -a learner").complaint(),
            ("groupmems: only root can use the -g/--group option", 3)
        );
        assert_eq!(m.root_runs("groupmems -g render -a learner").code, 0);
        assert!(
            m.learner("groupmems -g render -l")
                .stdout
                .contains("learner")
        );
        assert_eq!(
            m.root_runs("groupmems -g render -a learner").complaint(),
            (
                "groupmems: user 'learner' is already a member of 'render'",
                7
            )
        );
        assert_eq!(
            m.root_runs("groupmems -g render -a nobody2").complaint(),
            ("groupmems: user 'nobody2' does not exist", 8)
        );
        assert_eq!(m.root_runs("groupmems -g render -d learner").code, 0);
        assert!(
            !m.learner("groupmems -g render -l")
                .stdout
                .contains("learner")
        );
        assert_eq!(
            m.root_runs("groupmems -g nosuch -l").complaint(),
            ("groupmems: group 'nosuch' does not exist in /etc/group", 9)
        );
    }
}
