//! `gpasswd -a USER GROUP` / `-d USER GROUP` (shadow-utils).

use super::super::{Ctx, accounts};
use super::opts::{self, Error, Long, Parsed, Short, Value};

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

/// What the command line asks for.
#[derive(Debug, Default)]
struct Request {
    add: Option<String>,
    del: Option<String>,
    /// `-M`: the new member list, comma-separated.
    members: Option<String>,
    operands: Vec<String>,
}

/// Reads the options as shadow's getopt_long does (`-alearner`, `--add=learner`, the group
/// anywhere). `-h` prints the help at once.
fn parse(args: &[String]) -> Result<Parsed<Request>, Error> {
    let mut p = opts::parser(args);
    let mut r = Request::default();
    while let Some(arg) = p.next()? {
        match arg {
            Short('a') | Long("add") => r.add = Some(opts::value(&mut p)?),
            Short('d') | Long("delete") => r.del = Some(opts::value(&mut p)?),
            Short('M') | Long("members") => r.members = Some(opts::value(&mut p)?),
            Short('h') | Long("help") => return Ok(Parsed::Help),
            Value(v) => r.operands.push(opts::text(v)),
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    Ok(Parsed::Request(r))
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let r = match parse(args) {
        // shadow's tools have no --version: parse never asks for it.
        Ok(Parsed::Help | Parsed::Version) => {
            cx.print(USAGE);
            return 0;
        }
        Ok(Parsed::Request(r)) => r,
        Err(e) => {
            cx.eprintln(&format!("gpasswd: {}", opts::getopt_message(&e)));
            cx.eprint(USAGE);
            return 2;
        }
    };
    if r.operands.len() != 1 || (r.add.is_some() && r.del.is_some()) {
        cx.eprint(USAGE);
        return 2;
    }
    let group = r.operands[0].clone();
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
    if let Some(list) = &r.members {
        return set_members(cx, &group, list);
    }
    match (r.add, r.del) {
        (Some(user), _) => add(cx, &user, &group),
        (None, Some(user)) => delete(cx, &user, &group),
        (None, None) => {
            cx.eprintln("gpasswd: changing the group password is not part of this lab");
            1
        }
    }
}

/// `-M`: replaces the whole member list; whoever is not named is out.
fn set_members(cx: &mut Ctx, group: &str, list: &str) -> i32 {
    let names: Vec<String> = list
        .split(',')
        .filter(|m| !m.is_empty())
        .map(String::from)
        .collect();
    if let Some(u) = names.iter().find(|u| accounts::user(cx.root, u).is_none()) {
        cx.eprintln(&format!("gpasswd: user '{u}' does not exist"));
        return 3;
    }
    let written = accounts::set_members(cx.root, group, &names);
    write_result(cx, written)
}

/// `-a USER`.
fn add(cx: &mut Ctx, user: &str, group: &str) -> i32 {
    if accounts::user(cx.root, user).is_none() {
        cx.eprintln(&format!("gpasswd: user '{user}' does not exist"));
        return 3;
    }
    cx.println(&format!("Adding user {user} to group {group}"));
    let written = accounts::add_to_groups(cx.root, user, &[group.to_string()]);
    write_result(cx, written)
}

/// `-d USER`: only a member can be removed.
fn delete(cx: &mut Ctx, user: &str, group: &str) -> i32 {
    if accounts::user(cx.root, user).is_none() {
        cx.eprintln(&format!("gpasswd: user '{user}' does not exist"));
        return 3;
    }
    let members = accounts::members_of(cx.root, group).unwrap_or_default();
    if !members.iter().any(|m| m == user) {
        cx.eprintln(&format!(
            "gpasswd: user '{user}' is not a member of '{group}'"
        ));
        return 3;
    }
    cx.println(&format!("Removing user {user} from group {group}"));
    let written = accounts::remove_from_groups(cx.root, user, &[group.to_string()]);
    write_result(cx, written)
}

/// The exit code after rewriting /etc/group, with the complaint when that failed.
fn write_result(cx: &mut Ctx, written: std::io::Result<()>) -> i32 {
    match written {
        Ok(()) => 0,
        Err(e) => {
            cx.eprintln(&format!(
                "gpasswd: failure while writing changes to /etc/group: {e}"
            ));
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn option_forms_and_complaints() {
        let m = Machine::stage();
        for line in [
            "gpasswd -alearner render",
            "gpasswd render --add=learner",
            "gpasswd --delete learner render",
        ] {
            assert_eq!(m.root_runs(line).code, 0, "{line}");
        }
        for (line, first) in [
            ("gpasswd -a", "gpasswd: option requires an argument -- 'a'"),
            (
                "gpasswd --add",
                "gpasswd: option '--add' requires an argument",
            ),
            ("gpasswd -x render", "gpasswd: invalid option -- 'x'"),
            (
                "gpasswd --bogus=1 render",
                "gpasswd: unrecognized option '--bogus=1'",
            ),
            ("gpasswd render extra", "Usage: gpasswd [option] GROUP"),
        ] {
            assert_eq!(m.root_runs(line).complaint(), (first, 2), "{line}");
        }
    }
}
