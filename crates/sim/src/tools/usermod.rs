//! `usermod` (shadow-utils): `-a -G` appends, `-G` alone *replaces* the supplementary groups,
//! `-r -G` removes. It edits the stage's /etc/group and /etc/gshadow; running sessions keep
//! their groups until a new login. `-g` sets the primary group in /etc/passwd.

use super::super::{Ctx, accounts};
use super::opts::{self, Error, Long, Parsed, Short, Value};

const USAGE: &str = "Usage: usermod [options] LOGIN

Options:
  -a, --append                  append the user to the supplemental GROUPS
                                mentioned by the -G option without removing
                                the user from other groups
  -b, --badname                 allow bad names
  -c, --comment COMMENT         new value of the GECOS field
  -d, --home HOME_DIR           new home directory for the user account
  -e, --expiredate EXPIRE_DATE  set account expiration date to EXPIRE_DATE
  -f, --inactive INACTIVE       set password inactive after expiration
                                to INACTIVE
  -g, --gid GROUP               force use GROUP as new primary group
  -G, --groups GROUPS           new list of supplementary GROUPS
  -h, --help                    display this help message and exit
  -l, --login NEW_LOGIN         new value of the login name
  -L, --lock                    lock the user account
  -m, --move-home               move contents of the home directory to the
                                new location (use only with -d)
  -o, --non-unique              allow using duplicate (non-unique) UID
  -p, --password PASSWORD       use encrypted password for the new password
  -P, --prefix PREFIX_DIR       prefix directory where are located the /etc/* files
  -r, --remove                  remove the user from named supplementary GROUPS
                                mentioned by the -G option without removing
                                the user from other groups
  -R, --root CHROOT_DIR         directory to chroot into
  -s, --shell SHELL             new login shell for the user account
  -u, --uid UID                 new UID for the user account
  -U, --unlock                  unlock the user account
  -v, --add-subuids FIRST-LAST  add range of subordinate uids
  -V, --del-subuids FIRST-LAST  remove range of subordinate uids
  -w, --add-subgids FIRST-LAST  add range of subordinate gids
  -W, --del-subgids FIRST-LAST  remove range of subordinate gids
  -Z, --selinux-user SEUSER     new SELinux user mapping for the user account

";

/// What the command line asks for.
#[derive(Debug, Default)]
struct Request {
    append: bool,
    remove: bool,
    /// `-G`: the supplementary groups, comma-separated.
    groups: Option<String>,
    /// `-g`: the primary group.
    primary: Option<String>,
    /// An option the lab does not act on (`-s`, `-L`...): the account would change.
    other_change: bool,
    logins: Vec<String>,
}

/// Reads the options as shadow's getopt_long does: clustered (`-aG render`), attached
/// (`-Grender`, `--groups=render`), the login anywhere among them. `-h` prints the help at once.
fn parse(args: &[String]) -> Result<Parsed<Request>, Error> {
    let mut p = opts::parser(args);
    let mut r = Request::default();
    while let Some(arg) = p.next()? {
        match arg {
            Short('a') | Long("append") => r.append = true,
            Short('r') | Long("remove") => r.remove = true,
            Short('h') | Long("help") => return Ok(Parsed::Help),
            Short('G') | Long("groups") => r.groups = Some(opts::value(&mut p)?),
            Short('g') | Long("gid") => r.primary = Some(opts::value(&mut p)?),
            Short('c' | 'd' | 'e' | 'f' | 'l' | 'p' | 'P' | 'R' | 's' | 'u')
            | Short('v' | 'V' | 'w' | 'W' | 'Z')
            | Long(
                "comment" | "home" | "expiredate" | "inactive" | "login" | "password" | "prefix"
                | "root" | "shell" | "uid",
            )
            | Long(
                "add-subuids" | "del-subuids" | "add-subgids" | "del-subgids" | "selinux-user",
            ) => {
                p.value()?;
                r.other_change = true;
            }
            Short('b' | 'L' | 'U' | 'm' | 'o')
            | Long("badname" | "lock" | "unlock" | "move-home" | "non-unique") => {
                r.other_change = true
            }
            Value(v) => r.logins.push(opts::text(v)),
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    Ok(Parsed::Request(r))
}

/// The complaints about the options together, before anything is looked up.
fn check(r: &Request) -> Result<(), Option<&'static str>> {
    if r.logins.len() != 1 {
        return Err(None);
    }
    if r.append && r.groups.is_none() {
        return Err(Some("-a flag is ONLY allowed with the -G flag"));
    }
    if r.remove && r.groups.is_none() {
        return Err(Some("-r flag is ONLY allowed with the -G flag"));
    }
    if r.append && r.remove {
        return Err(Some("-a and -r are mutually exclusive"));
    }
    Ok(())
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let r = match parse(args) {
        // shadow's tools have no --version: parse never asks for it.
        Ok(Parsed::Help | Parsed::Version) => {
            cx.print(USAGE);
            return 0;
        }
        Ok(Parsed::Request(r)) => r,
        Err(e) => return bad_usage(cx, Some(&opts::getopt_message(&e))),
    };
    if let Err(m) = check(&r) {
        return bad_usage(cx, m);
    }
    let user = &r.logins[0];
    if accounts::user(cx.root, user).is_none() {
        cx.eprintln(&format!("usermod: user '{user}' does not exist"));
        return 6;
    }
    let db = accounts::Groups::load(cx.root);
    let names = match supplementary(&db, r.groups.as_deref()) {
        Ok(n) => n,
        Err(g) => return no_group(cx, &g),
    };
    let primary_gid = match &r.primary {
        None => None,
        Some(g) => match gid_of(&db, g) {
            Some(gid) => Some(gid),
            None => return no_group(cx, g),
        },
    };
    if r.groups.is_none() && r.primary.is_none() && !r.other_change {
        cx.eprintln("usermod: no changes");
        return 0;
    }
    if !cx.caller.is_root() {
        cx.eprintln("usermod: Permission denied.");
        cx.eprintln("usermod: cannot lock /etc/passwd; try again later.");
        return 1;
    }
    apply(cx, &r, user, primary_gid, &names)
}

/// The `-G` list by group name (a number names the group with that gid); `Err` is the first
/// group that does not exist.
fn supplementary(db: &accounts::Groups, list: Option<&str>) -> Result<Vec<String>, String> {
    let list = list
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|g| !g.is_empty());
    let mut names = Vec::new();
    for g in list {
        let by_gid = g.parse::<u32>().ok().and_then(|n| db.by_gid(n));
        match (by_gid, db.by_name(g)) {
            (Some(e), _) => names.push(e.name.clone()),
            (None, Some(_)) => names.push(g.to_string()),
            (None, None) => return Err(g.to_string()),
        }
    }
    Ok(names)
}

/// A group named or numbered `g`.
fn gid_of(db: &accounts::Groups, g: &str) -> Option<u32> {
    db.by_name(g)
        .map(|e| e.gid)
        .or_else(|| g.parse::<u32>().ok().filter(|n| db.by_gid(*n).is_some()))
}

/// Writes the new primary group, then the supplementary ones as `-a`, `-r` or plain `-G` say.
fn apply(cx: &mut Ctx, r: &Request, user: &str, primary: Option<u32>, names: &[String]) -> i32 {
    if let Some(gid) = primary
        && let Err(e) = accounts::set_primary_gid(cx.root, user, gid)
    {
        cx.eprintln(&format!("usermod: cannot rewrite /etc/passwd: {e}"));
        return 10;
    }
    let result = if r.groups.is_none() {
        Ok(())
    } else if r.append {
        accounts::add_to_groups(cx.root, user, names)
    } else if r.remove {
        accounts::remove_from_groups(cx.root, user, names)
    } else {
        accounts::set_groups(cx.root, user, names)
    };
    if let Err(e) = result {
        cx.eprintln(&format!("usermod: cannot rewrite /etc/group: {e}"));
        return 10;
    }
    0
}

fn no_group(cx: &mut Ctx, g: &str) -> i32 {
    cx.eprintln(&format!("usermod: group '{g}' does not exist"));
    6
}

/// A complaint (if any), then the usage, on stderr; exit 2.
fn bad_usage(cx: &mut Ctx, message: Option<&str>) -> i32 {
    if let Some(m) = message {
        cx.eprintln(&format!("usermod: {m}"));
    }
    cx.eprint(USAGE);
    2
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn option_forms_getopt_accepts() {
        let m = Machine::stage();
        for line in [
            "usermod -aG render learner",
            "usermod -aGrender learner",
            "usermod --append --groups=render learner",
            "usermod learner -a -G render",
            "usermod -G render -- learner",
        ] {
            assert_eq!(m.root_runs(line).code, 0, "{line}");
        }
        assert!(
            m.root_runs("usermod -h")
                .stdout
                .starts_with("Usage: usermod")
        );
    }

    #[test]
    fn getopt_complaints() {
        let m = Machine::stage();
        for (line, first) in [
            ("usermod -x learner", "usermod: invalid option -- 'x'"),
            (
                "usermod --bogus learner",
                "usermod: unrecognized option '--bogus'",
            ),
            (
                "usermod --bogus=1 learner",
                "usermod: unrecognized option '--bogus=1'",
            ),
            ("usermod -G", "usermod: option requires an argument -- 'G'"),
            (
                "usermod --groups",
                "usermod: option '--groups' requires an argument",
            ),
            (
                "usermod --append=1 -G render learner",
                "usermod: option '--append' doesn't allow an argument",
            ),
            (
                "usermod -a learner",
                "usermod: -a flag is ONLY allowed with the -G flag",
            ),
            ("usermod -G render", "Usage: usermod [options] LOGIN"),
        ] {
            assert_eq!(m.root_runs(line).complaint(), (first, 2), "{line}");
        }
    }
}
