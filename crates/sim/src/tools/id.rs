//! `id` (coreutils): the running session's credentials, or a user's from the database.

use super::super::{Ctx, accounts};
use std::ops::ControlFlow;

use super::opts::{self, Error, Long, Parsed, Short, Value};

/// What the command line asks for: at most one of -u, -g, -G, with -n names for numbers.
#[derive(Debug, Default)]
struct Request {
    u: bool,
    g: bool,
    big_g: bool,
    n: bool,
    users: Vec<String>,
}

/// Reads the options as coreutils' getopt_long does (`-un`, users among the options).
fn parse(args: &[String]) -> Result<Parsed<Request>, Error> {
    let mut p = opts::parser(args);
    let mut r = Request::default();
    while let Some(arg) = p.next()? {
        match arg {
            Short('u') | Long("user") => r.u = true,
            Short('g') | Long("group") => r.g = true,
            Short('G') | Long("groups") => r.big_g = true,
            Short('n') | Long("name") => r.n = true,
            Short('r' | 'z' | 'a') | Long("real" | "zero") => {}
            Long("help") => return opts::at_once(&mut p, "help", Parsed::Help),
            Long("version") => return opts::at_once(&mut p, "version", Parsed::Version),
            Value(v) => r.users.push(opts::text(v)),
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    Ok(Parsed::Request(r))
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let r = match opts::coreutils(
        cx,
        "id",
        "Usage: id [OPTION]... [USER]...\nPrint user and group information for each specified USER,\nor (when USER omitted) for the current process.",
        parse(args),
    ) {
        ControlFlow::Continue(r) => r,
        ControlFlow::Break(code) => return code,
    };
    if [r.u, r.g, r.big_g].iter().filter(|x| **x).count() > 1 {
        cx.eprintln("id: cannot print \"only\" of more than one choice");
        return 1;
    }
    if r.n && !(r.u || r.g || r.big_g) {
        cx.eprintln("id: cannot print only names or real IDs in default format");
        return 1;
    }
    let Some(targets) = targets(cx, &r.users) else {
        return 1;
    };
    let db = accounts::Groups::load(cx.root);
    for (name, uid, gids) in targets {
        cx.println(&line(&r, &db, &name, uid, &gids));
    }
    0
}

/// Name, uid and gids of each user asked about: the running session's credentials without
/// one, the database's for a named user. `None` after complaining about an unknown user.
fn targets(cx: &mut Ctx, users: &[String]) -> Option<Vec<(String, u32, Vec<u32>)>> {
    if users.is_empty() {
        let name = if cx.caller.is_root() {
            "root".to_string()
        } else {
            cx.caller.user.clone()
        };
        return Some(vec![(name, cx.caller.uid, cx.gids())]);
    }
    let mut targets = Vec::new();
    for user in users {
        let Some(pw) = accounts::user(cx.root, user) else {
            cx.eprintln(&format!("id: ‘{user}’: no such user"));
            return None;
        };
        let gids = accounts::db_gids(cx.root, &pw);
        targets.push((pw.name, pw.uid, gids));
    }
    Some(targets)
}

/// One user's line in the format the options chose.
fn line(r: &Request, db: &accounts::Groups, name: &str, uid: u32, gids: &[u32]) -> String {
    let gid = gids.first().copied().unwrap_or(uid);
    let n = r.n;
    if r.u {
        if n { name.to_string() } else { uid.to_string() }
    } else if r.g {
        if n { db.name_of(gid) } else { gid.to_string() }
    } else if r.big_g {
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
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn option_forms_and_complaints() {
        let m = Machine::stage();
        assert_eq!(m.learner("id -un").stdout, "learner\n");
        assert_eq!(m.learner("id root -u").stdout, "0\n");
        assert_eq!(
            m.learner("id -- -u").complaint(),
            ("id: ‘-u’: no such user", 1)
        );
        for (line, first) in [
            ("id -x", "id: invalid option -- 'x'"),
            ("id --bogus=1", "id: unrecognized option '--bogus=1'"),
            (
                "id --user=1",
                "id: option '--user' doesn't allow an argument",
            ),
            (
                "id -ug",
                "id: cannot print \"only\" of more than one choice",
            ),
        ] {
            assert_eq!(m.learner(line).complaint(), (first, 1), "{line}");
        }
    }
}
