//! `usermod` (shadow-utils): `-a -G` appends, `-G` alone *replaces* the supplementary groups,
//! `-r -G` removes. It edits the stage's /etc/group and /etc/gshadow; running sessions keep
//! their groups until a new login. `-g` sets the primary group in /etc/passwd.

use super::super::{Ctx, accounts};
use super::split_short;

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

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let args = split_short(args, "cdefgGlpPRsuvVwWZ");
    let (mut append, mut remove) = (false, false);
    let mut groups: Option<String> = None;
    let mut primary: Option<String> = None;
    let mut other_change = false;
    let mut login = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        match flag {
            "-a" | "--append" => append = true,
            "-r" | "--remove" => remove = true,
            "-h" | "--help" => {
                cx.print(USAGE);
                return 0;
            }
            "-G" | "--groups" => match inline.or_else(|| it.next().cloned()) {
                Some(v) => groups = Some(v),
                None => return missing(cx, "G"),
            },
            "-g" | "--gid" => match inline.or_else(|| it.next().cloned()) {
                Some(v) => primary = Some(v),
                None => return missing(cx, "g"),
            },
            "-c" | "--comment" | "-d" | "--home" | "-e" | "--expiredate" | "-f" | "--inactive"
            | "-l" | "--login" | "-p" | "--password" | "-P" | "--prefix" | "-R" | "--root"
            | "-s" | "--shell" | "-u" | "--uid" | "-v" | "-V" | "-w" | "-W" | "-Z" => {
                if inline.is_none() && it.next().is_none() {
                    return missing(cx, flag.trim_start_matches('-'));
                }
                other_change = true;
            }
            "-b" | "--badname" | "-L" | "--lock" | "-U" | "--unlock" | "-m" | "--move-home"
            | "-o" | "--non-unique" => other_change = true,
            o if o.starts_with("--") => {
                cx.eprintln(&format!("usermod: unrecognized option '{o}'"));
                cx.eprint(USAGE);
                return 2;
            }
            o if o.starts_with('-') && o.len() > 1 => {
                cx.eprintln(&format!("usermod: invalid option -- '{}'", &o[1..]));
                cx.eprint(USAGE);
                return 2;
            }
            o => login.push(o.to_string()),
        }
    }
    if login.len() != 1 {
        cx.eprint(USAGE);
        return 2;
    }
    if append && groups.is_none() {
        cx.eprintln("usermod: -a flag is ONLY allowed with the -G flag");
        cx.eprint(USAGE);
        return 2;
    }
    if remove && groups.is_none() {
        cx.eprintln("usermod: -r flag is ONLY allowed with the -G flag");
        cx.eprint(USAGE);
        return 2;
    }
    if append && remove {
        cx.eprintln("usermod: -a and -r are mutually exclusive");
        cx.eprint(USAGE);
        return 2;
    }
    let user = &login[0];
    if accounts::user(cx.root, user).is_none() {
        cx.eprintln(&format!("usermod: user '{user}' does not exist"));
        return 6;
    }
    let list: Vec<String> = groups
        .as_deref()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|g| !g.is_empty())
        .map(String::from)
        .collect();
    let db = accounts::Groups::load(cx.root);
    for g in &list {
        let known = db.by_name(g).is_some()
            || g.parse::<u32>()
                .ok()
                .is_some_and(|n| db.by_gid(n).is_some());
        if !known {
            cx.eprintln(&format!("usermod: group '{g}' does not exist"));
            return 6;
        }
    }
    let primary_gid = match &primary {
        None => None,
        Some(g) => match db
            .by_name(g)
            .map(|e| e.gid)
            .or_else(|| g.parse::<u32>().ok().filter(|n| db.by_gid(*n).is_some()))
        {
            Some(gid) => Some(gid),
            None => {
                cx.eprintln(&format!("usermod: group '{g}' does not exist"));
                return 6;
            }
        },
    };
    if groups.is_none() && primary.is_none() && !other_change {
        cx.eprintln("usermod: no changes");
        return 0;
    }
    if !cx.caller.is_root() {
        cx.eprintln("usermod: Permission denied.");
        cx.eprintln("usermod: cannot lock /etc/passwd; try again later.");
        return 1;
    }
    // Numeric gids name their groups.
    let names: Vec<String> = list
        .iter()
        .map(|g| match g.parse::<u32>() {
            Ok(n) => db
                .by_gid(n)
                .map(|e| e.name.clone())
                .unwrap_or_else(|| g.clone()),
            Err(_) => g.clone(),
        })
        .collect();
    if let Some(gid) = primary_gid
        && let Err(e) = accounts::set_primary_gid(cx.root, user, gid)
    {
        cx.eprintln(&format!("usermod: cannot rewrite /etc/passwd: {e}"));
        return 10;
    }
    let result = if groups.is_none() {
        Ok(())
    } else if append {
        accounts::add_to_groups(cx.root, user, &names)
    } else if remove {
        accounts::remove_from_groups(cx.root, user, &names)
    } else {
        accounts::set_groups(cx.root, user, &names)
    };
    if let Err(e) = result {
        cx.eprintln(&format!("usermod: cannot rewrite /etc/group: {e}"));
        return 10;
    }
    0
}

fn missing(cx: &mut Ctx, opt: &str) -> i32 {
    cx.eprintln(&format!("usermod: option requires an argument -- '{opt}'"));
    cx.eprint(USAGE);
    2
}
