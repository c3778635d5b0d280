//! Users and groups, read from and written to the stage's own /etc/passwd, /etc/group and
//! /etc/gshadow: those files are the truth, so `grep render /etc/group` and the grader agree with
//! what usermod/gpasswd/adduser did, and a hand edit of /etc/group counts too.

use std::path::Path;

use super::files;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasswdEntry {
    pub name: String,
    pub uid: u32,
    pub gid: u32,
    pub home: String,
    pub shell: String,
}

/// All users of /etc/passwd (lines that do not parse are skipped, as getpwent does).
pub fn users(root: &Path) -> Vec<PasswdEntry> {
    let text = files::read_opt(&root.join("etc/passwd")).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split(':').collect();
            if f.len() < 7 {
                return None;
            }
            Some(PasswdEntry {
                name: f[0].to_string(),
                uid: f[2].parse().ok()?,
                gid: f[3].parse().ok()?,
                home: f[5].to_string(),
                shell: f[6].to_string(),
            })
        })
        .collect()
}

pub fn user(root: &Path, name: &str) -> Option<PasswdEntry> {
    users(root).into_iter().find(|u| u.name == name)
}

pub fn user_by_uid(root: &Path, uid: u32) -> Option<PasswdEntry> {
    users(root).into_iter().find(|u| u.uid == uid)
}

/// One line of /etc/group or /etc/gshadow (both have the member list in the fourth field).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Line {
    Entry {
        name: String,
        pw: String,
        /// gid in /etc/group, administrators in /etc/gshadow.
        third: String,
        members: Vec<String>,
    },
    Other(String),
}

fn parse_line(l: &str) -> Line {
    let f: Vec<&str> = l.split(':').collect();
    if f.len() != 4 || f[0].is_empty() {
        return Line::Other(l.to_string());
    }
    Line::Entry {
        name: f[0].to_string(),
        pw: f[1].to_string(),
        third: f[2].to_string(),
        members: f[3]
            .split(',')
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(String::from)
            .collect(),
    }
}

fn render_line(l: &Line) -> String {
    match l {
        Line::Entry {
            name,
            pw,
            third,
            members,
        } => format!("{name}:{pw}:{third}:{}", members.join(",")),
        Line::Other(s) => s.clone(),
    }
}

/// A group file kept line by line, so rewriting it changes only what was meant to change.
#[derive(Debug, Clone)]
pub struct GroupFile {
    rel: &'static str,
    lines: Vec<Line>,
    trailing_newline: bool,
    exists: bool,
}

impl GroupFile {
    fn load(root: &Path, rel: &'static str) -> Self {
        let text = files::read_opt(&root.join(rel));
        let exists = text.is_some();
        let text = text.unwrap_or_default();
        GroupFile {
            rel,
            lines: text.lines().map(parse_line).collect(),
            trailing_newline: text.is_empty() || text.ends_with('\n'),
            exists,
        }
    }

    fn save(&self, root: &Path) -> std::io::Result<()> {
        if !self.exists {
            return Ok(());
        }
        let mut s: String = self
            .lines
            .iter()
            .map(render_line)
            .collect::<Vec<_>>()
            .join("\n");
        if self.trailing_newline && !s.is_empty() {
            s.push('\n');
        }
        files::write_atomic(&root.join(self.rel), s.as_bytes())
    }
}

/// The group database as /etc/group has it now.
#[derive(Debug, Clone)]
pub struct Groups {
    pub entries: Vec<GroupEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupEntry {
    pub name: String,
    pub gid: u32,
    pub members: Vec<String>,
}

impl Groups {
    pub fn load(root: &Path) -> Self {
        let f = GroupFile::load(root, "etc/group");
        let entries = f
            .lines
            .into_iter()
            .filter_map(|l| match l {
                Line::Entry {
                    name,
                    third,
                    members,
                    ..
                } => Some(GroupEntry {
                    name,
                    gid: third.parse().ok()?,
                    members,
                }),
                Line::Other(_) => None,
            })
            .collect();
        Groups { entries }
    }

    pub fn by_name(&self, name: &str) -> Option<&GroupEntry> {
        self.entries.iter().find(|g| g.name == name)
    }

    pub fn by_gid(&self, gid: u32) -> Option<&GroupEntry> {
        self.entries.iter().find(|g| g.gid == gid)
    }

    /// The name of a gid, or the number when /etc/group has no such group (as `id` prints it).
    pub fn name_of(&self, gid: u32) -> String {
        self.by_gid(gid)
            .map(|g| g.name.clone())
            .unwrap_or_else(|| gid.to_string())
    }
}

/// The groups a fresh login of `pw` gets: primary group, then every group listing the user, in
/// /etc/group order (what initgroups does).
pub fn db_gids(root: &Path, pw: &PasswdEntry) -> Vec<u32> {
    let groups = Groups::load(root);
    let mut gids = vec![pw.gid];
    for g in &groups.entries {
        if g.members.iter().any(|m| m == &pw.name) && !gids.contains(&g.gid) {
            gids.push(g.gid);
        }
    }
    gids
}

/// Group names of `user` in the database; `None` if the user does not exist.
pub fn db_groups(root: &Path, user: &str) -> Option<Vec<String>> {
    let pw = self::user(root, user)?;
    let groups = Groups::load(root);
    Some(
        db_gids(root, &pw)
            .into_iter()
            .map(|g| groups.name_of(g))
            .collect(),
    )
}

/// Is `user` a member of `group` according to /etc/group (primary group counts)?
pub fn is_member(root: &Path, user: &str, group: &str) -> bool {
    let groups = Groups::load(root);
    let Some(g) = groups.by_name(group) else {
        return false;
    };
    g.members.iter().any(|m| m == user) || self::user(root, user).is_some_and(|pw| pw.gid == g.gid)
}

/// The kernel's rule for read and write access by permission bits: root passes, then the
/// owner's bits, then the group's if the process has the group, else everybody else's.
/// One rule for the simulated tools, the lab checks and the doctor's view of a real node.
pub fn may_read_write(
    mode: u32,
    owner: Option<u32>,
    group: Option<u32>,
    uid: u32,
    gids: &[u32],
) -> bool {
    let bits = if uid == 0 {
        7
    } else if owner == Some(uid) {
        (mode >> 6) & 7
    } else if group.is_some_and(|g| gids.contains(&g)) {
        (mode >> 3) & 7
    } else {
        mode & 7
    };
    bits & 6 == 6
}

/// [`may_read_write`] for a node of the stage, whose owner and group are names resolved
/// through the stage's own /etc/passwd and /etc/group.
pub fn may_read_write_named(
    root: &Path,
    (owner, group, mode): (&str, &str, u32),
    uid: u32,
    gids: &[u32],
) -> bool {
    let owner = user(root, owner).map(|u| u.uid);
    let group = Groups::load(root)
        .by_name(group)
        .map(|g| g.gid)
        .or((group == "root").then_some(0));
    may_read_write(mode, owner, group, uid, gids)
}

/// Applies `change` to the member list of each named group in /etc/group and /etc/gshadow.
fn edit_members(
    root: &Path,
    mut change: impl FnMut(&str, &mut Vec<String>),
) -> std::io::Result<()> {
    for rel in ["etc/group", "etc/gshadow"] {
        let mut f = GroupFile::load(root, rel);
        for l in &mut f.lines {
            if let Line::Entry { name, members, .. } = l {
                change(name, members);
            }
        }
        f.save(root)?;
    }
    Ok(())
}

/// `usermod -a -G` / `gpasswd -a` / `adduser USER GROUP`: adds `user` to each group.
pub fn add_to_groups(root: &Path, user: &str, groups: &[String]) -> std::io::Result<()> {
    edit_members(root, |name, members| {
        if groups.iter().any(|g| g == name) && !members.iter().any(|m| m == user) {
            members.push(user.to_string());
        }
    })
}

/// `gpasswd -M a,b GROUP`: the group's member list becomes exactly `list`.
pub fn set_members(root: &Path, group: &str, list: &[String]) -> std::io::Result<()> {
    edit_members(root, |name, members| {
        if name == group {
            *members = list.to_vec();
        }
    })
}

/// `usermod -g GROUP USER`: the user's primary group (the gid field of /etc/passwd).
pub fn set_primary_gid(root: &Path, user: &str, gid: u32) -> std::io::Result<()> {
    let path = root.join("etc/passwd");
    let text = files::read_opt(&path).unwrap_or_default();
    let mut out = String::new();
    for l in text.lines() {
        let mut f: Vec<&str> = l.split(':').collect();
        let g = gid.to_string();
        if f.len() == 7 && f[0] == user {
            f[3] = &g;
            out.push_str(&f.join(":"));
        } else {
            out.push_str(l);
        }
        out.push('\n');
    }
    files::write_atomic(&path, out.as_bytes())
}

/// `usermod -G` without `-a`: the user's supplementary groups become exactly `groups`.
pub fn set_groups(root: &Path, user: &str, groups: &[String]) -> std::io::Result<()> {
    edit_members(root, |name, members| {
        let want = groups.iter().any(|g| g == name);
        let has = members.iter().any(|m| m == user);
        if want && !has {
            members.push(user.to_string());
        } else if !want && has {
            members.retain(|m| m != user);
        }
    })
}

/// `gpasswd -d` / `usermod -r -G`: removes `user` from the groups.
pub fn remove_from_groups(root: &Path, user: &str, groups: &[String]) -> std::io::Result<()> {
    edit_members(root, |name, members| {
        if groups.iter().any(|g| g == name) {
            members.retain(|m| m != user);
        }
    })
}

/// Does the gshadow entry of `group` have a usable password (newgrp for non-members)?
pub fn group_has_password(root: &Path, group: &str) -> bool {
    let f = GroupFile::load(root, "etc/gshadow");
    f.lines.iter().any(|l| match l {
        Line::Entry { name, pw, .. } => {
            name == group && !pw.is_empty() && !pw.starts_with('!') && pw != "*"
        }
        _ => false,
    })
}

/// The member list of `group` in /etc/group (`None` when there is no such group).
pub fn members_of(root: &Path, group: &str) -> Option<Vec<String>> {
    Groups::load(root).by_name(group).map(|g| g.members.clone())
}

#[cfg(test)]
mod tests {
    use super::may_read_write;

    #[test]
    fn the_owner_bits_decide_for_the_owner_even_when_the_group_would_allow() {
        // crw-rw---- owned by 1000 with mode 0o060: the owner is refused, the group is not.
        assert!(!may_read_write(0o060, Some(1000), Some(109), 1000, &[109]));
        assert!(may_read_write(0o060, Some(0), Some(109), 1001, &[109]));
        assert!(!may_read_write(0o660, Some(0), Some(109), 1001, &[44]));
        assert!(may_read_write(0o666, Some(0), Some(109), 1001, &[]));
        assert!(may_read_write(0o000, Some(5), None, 0, &[]));
        assert!(!may_read_write(0o640, Some(0), Some(109), 1001, &[109]));
    }
}
