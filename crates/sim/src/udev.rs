//! udev rules for the GPU device nodes: parsed from `/etc/udev/rules.d/*.rules` (other names are
//! ignored, as real udev does) on top of the distribution defaults, loaded only by
//! `udevadm control --reload-rules` (or a boot), applied only when a node appears or on
//! `udevadm trigger`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use rocm_unix::accounts::Groups;

use super::fsx;

/// A device node as udev left it: what a rule matches on and what it sets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DevNode {
    /// `/dev/kfd`, `/dev/dri/renderD128`.
    pub path: String,
    /// udev's KERNEL (`kfd`, `renderD128`).
    pub kernel: String,
    /// udev's SUBSYSTEM (`kfd`, `drm`).
    pub subsystem: String,
    /// Driver behind the node (`amdgpu`, `ast`), for DRIVERS== matches.
    pub driver: String,
    /// Device major number.
    pub major: u32,
    /// Device minor number.
    pub minor: u32,
    /// Owner as a user name.
    pub owner: String,
    /// Group as a group name.
    pub group: String,
    /// Permission bits.
    pub mode: u32,
    /// When the node was created (unix time), for `ls -l`.
    pub created: i64,
    /// udev events that set the node's owner, group and mode so far: a host showing real
    /// nodes gives them these values once per event, and leaves a `chmod` between events be.
    #[serde(default)]
    pub events: u64,
}

/// Name of the built-in defaults, as systemd ships them in /usr/lib/udev/rules.d.
pub const DEFAULT_FILE: &str = "50-udev-default.rules";

/// The defaults that matter here (Debian/Ubuntu build with render nodes at 0660).
const DEFAULT_RULES: &str =
    "SUBSYSTEM==\"drm\", KERNEL==\"renderD*\", GROUP=\"render\", MODE=\"0660\"
SUBSYSTEM==\"drm\", KERNEL==\"card*\", GROUP=\"video\", MODE=\"0660\"
SUBSYSTEM==\"kfd\", GROUP=\"render\", MODE=\"0660\"
";

/// A udev event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// A device appeared.
    Add,
    /// A change event (`udevadm trigger`, by default): the rules run again.
    Change,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Action::Add => "add",
            Action::Change => "change",
        }
    }
}

/// One rule: conditions to match, assignments to make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    /// The file it came from.
    pub file: String,
    /// Its line in that file.
    pub line: usize,
    /// What a node must match.
    pub conds: Vec<Cond>,
    /// What it sets.
    pub assigns: Vec<Assign>,
}

/// One `KEY==pattern` (or `!=`) condition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cond {
    /// The key (`KERNEL`, `SUBSYSTEM`, ...).
    pub key: String,
    /// `!=` rather than `==`.
    pub negate: bool,
    /// The glob pattern.
    pub pattern: String,
}

/// One `KEY=value` assignment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assign {
    /// The key (`GROUP`, `MODE`, `OWNER`, ...).
    pub key: String,
    /// `:=` makes the value final.
    pub final_: bool,
    /// The value.
    pub value: String,
}

/// Reads the default rules and the stage's `*.rules` files, in udev's order (by file name; a
/// file in /etc with the default's name replaces it).
pub fn load_rules(root: &Path) -> Vec<Rule> {
    let dir = root.join("etc/udev/rules.d");
    let mut files: Vec<(String, String)> = fsx::list_dir(&dir)
        .into_iter()
        .filter(|n| n.ends_with(".rules"))
        .filter_map(|n| fsx::read_opt(&dir.join(&n)).map(|t| (n, t)))
        .collect();
    if !files.iter().any(|(n, _)| n == DEFAULT_FILE) {
        files.push((DEFAULT_FILE.to_string(), DEFAULT_RULES.to_string()));
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
        .iter()
        .flat_map(|(name, text)| parse(name, text))
        .collect()
}

/// Parses one rules file; lines that udev would reject are skipped.
pub fn parse(file: &str, text: &str) -> Vec<Rule> {
    let mut rules = Vec::new();
    let mut pending = String::new();
    let mut start = 0;
    for (i, raw) in text.lines().enumerate() {
        if pending.is_empty() {
            start = i + 1;
        }
        if let Some(cont) = raw.strip_suffix('\\') {
            pending.push_str(cont);
            continue;
        }
        pending.push_str(raw);
        let line = std::mem::take(&mut pending);
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if let Some(r) = parse_rule(file, start, t) {
            rules.push(r);
        }
    }
    rules
}

fn parse_rule(file: &str, line: usize, text: &str) -> Option<Rule> {
    let mut conds = Vec::new();
    let mut assigns = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches([' ', '\t', ',']);
        if rest.is_empty() {
            break;
        }
        let key_end = rest.find(['=', '!', '+', '-', ':'])?;
        let key = rest[..key_end].trim();
        let after = &rest[key_end..];
        let (op, after) = ["==", "!=", "+=", "-=", ":=", "="]
            .iter()
            .find_map(|op| after.strip_prefix(op).map(|a| (*op, a)))?;
        let after = after.strip_prefix('"')?;
        let close = after.find('"')?;
        let value = &after[..close];
        rest = &after[close + 1..];
        if key.is_empty() || key.contains(char::is_whitespace) {
            return None;
        }
        // udev rejects the whole line ("Invalid operator for KERNEL") when a match-only key
        // is assigned (`KERNEL="kfd"`) or an assignment key is compared (`MODE=="0666"`).
        let is_match = op == "==" || op == "!=";
        let match_only = matches!(
            key,
            "ACTION"
                | "DEVPATH"
                | "KERNEL"
                | "KERNELS"
                | "SUBSYSTEM"
                | "SUBSYSTEMS"
                | "DRIVER"
                | "DRIVERS"
                | "TAGS"
                | "RESULT"
                | "TEST"
                | "PROGRAM"
        ) || key.starts_with("ATTRS{");
        let assign_only = matches!(
            key,
            "MODE"
                | "OWNER"
                | "GROUP"
                | "RUN"
                | "SYMLINK"
                | "NAME"
                | "OPTIONS"
                | "LABEL"
                | "GOTO"
                | "IMPORT"
        ) || key.starts_with("RUN{")
            || key.starts_with("IMPORT{");
        if (match_only && !is_match) || (assign_only && is_match) {
            return None;
        }
        match op {
            "==" | "!=" => conds.push(Cond {
                key: key.to_string(),
                negate: op == "!=",
                pattern: value.to_string(),
            }),
            _ => assigns.push(Assign {
                key: key.to_string(),
                final_: op == ":=",
                value: value.to_string(),
            }),
        }
    }
    Some(Rule {
        file: file.to_string(),
        line,
        conds,
        assigns,
    })
}

/// fnmatch-style match with `|` alternatives, as udev matches values.
pub fn glob(pattern: &str, s: &str) -> bool {
    pattern
        .split('|')
        .any(|p| glob_one(p.as_bytes(), s.as_bytes()))
}

fn glob_one(p: &[u8], s: &[u8]) -> bool {
    match (p.first(), s.first()) {
        (None, None) => true,
        (Some(b'*'), _) => glob_one(&p[1..], s) || (!s.is_empty() && glob_one(p, &s[1..])),
        (Some(b'?'), Some(_)) => glob_one(&p[1..], &s[1..]),
        (Some(b'['), Some(&c)) => {
            let Some(end) = p.iter().position(|&b| b == b']') else {
                return false;
            };
            let set = &p[1..end];
            let (neg, set) = match set.first() {
                Some(b'!') | Some(b'^') => (true, &set[1..]),
                _ => (false, set),
            };
            let mut hit = false;
            let mut i = 0;
            while i < set.len() {
                if i + 2 < set.len() && set[i + 1] == b'-' {
                    hit |= set[i] <= c && c <= set[i + 2];
                    i += 3;
                } else {
                    hit |= set[i] == c;
                    i += 1;
                }
            }
            hit != neg && glob_one(&p[end + 1..], &s[1..])
        }
        (Some(&a), Some(&b)) => a == b && glob_one(&p[1..], &s[1..]),
        _ => false,
    }
}

fn cond_holds(c: &Cond, node: &DevNode, action: Action) -> bool {
    let amd = node.driver == "amdgpu";
    let value: Option<&str> = match c.key.as_str() {
        "KERNEL" | "KERNELS" => Some(&node.kernel),
        "SUBSYSTEM" => Some(&node.subsystem),
        "SUBSYSTEMS" => {
            // The node itself or its PCI parent.
            let hit = glob(&c.pattern, &node.subsystem)
                || (node.subsystem == "drm" && glob(&c.pattern, "pci"));
            return hit != c.negate;
        }
        "DRIVERS" | "DRIVER" => Some(if node.subsystem == "drm" {
            &node.driver
        } else {
            ""
        }),
        "ACTION" => Some(action.as_str()),
        "ATTRS{vendor}" => Some(if amd && node.subsystem == "drm" {
            "0x1002"
        } else {
            ""
        }),
        _ => None,
    };
    match value {
        Some(v) => glob(&c.pattern, v) != c.negate,
        // A condition the simulator cannot evaluate does not match.
        None => false,
    }
}

/// Applies the rules to one node (later assignments win unless an earlier one was final).
pub fn apply(root: &Path, rules: &[Rule], node: &mut DevNode, action: Action) {
    let groups = Groups::load(root);
    // Every event recomputes the node's permissions from the rules (udev's own default is
    // root:root 0600 when no rule says otherwise).
    node.owner = "root".into();
    node.group = "root".into();
    node.mode = 0o600;
    node.events += 1;
    let (mut mode_final, mut group_final, mut owner_final) = (false, false, false);
    for r in rules {
        if !r.conds.iter().all(|c| cond_holds(c, node, action)) {
            continue;
        }
        for a in &r.assigns {
            match a.key.as_str() {
                "MODE" if !mode_final => {
                    if let Ok(m) = u32::from_str_radix(&a.value, 8)
                        && m <= 0o7777
                    {
                        node.mode = m;
                        mode_final = a.final_;
                    }
                }
                // An unknown group is an error udev logs; the node keeps its group.
                "GROUP"
                    if !group_final
                        && (groups.by_name(&a.value).is_some() || a.value == "root") =>
                {
                    node.group = a.value.clone();
                    group_final = a.final_;
                }
                "OWNER" if !owner_final => {
                    node.owner = a.value.clone();
                    owner_final = a.final_;
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob("renderD*", "renderD128"));
        assert!(!glob("renderD*", "card0"));
        assert!(glob("card[0-9]", "card1"));
        assert!(glob("kfd|renderD*", "kfd"));
        assert!(glob("0x1002", "0x1002"));
    }

    #[test]
    fn parses_rules_and_skips_bad_lines() {
        let r = parse(
            "70-amdgpu.rules",
            "# comment\nKERNEL==\"kfd\", MODE=\"0666\"\nSUBSYSTEM==\"drm\", KERNEL==\"renderD*\", MODE=\"0666\"\nthis is not a rule\nKERNEL=\"kfd\", MODE=\"0666\"\nKERNEL==\"kfd\", MODE==\"0666\"\n",
        );
        assert_eq!(
            r.len(),
            2,
            "lines with an invalid operator are dropped whole"
        );
        assert_eq!(r[0].conds[0].key, "KERNEL");
        assert_eq!(r[1].assigns[0].value, "0666");
    }
}
