//! `ls` for the GPU device nodes: /dev/kfd, /dev/dri and /dev/dri/* come from the state (owner,
//! group and mode as udev applied them); any other path is left to the real `ls`.

use super::super::state::DevNode;
use super::super::{Ctx, Exec, accounts, fsx, udev};
use super::opts::{self, Long, Short, Value};
use super::{MONTHS, civil, pad};

#[derive(Debug, Clone)]
struct Entry {
    name: String,
    dir: bool,
    node: Option<DevNode>,
    size: u64,
    created: i64,
}

fn is_ours(p: &str) -> bool {
    p == "/dev/kfd" || p == "/dev/dri" || p.starts_with("/dev/dri/")
}

fn mode_string(e: &Entry) -> String {
    match &e.node {
        Some(n) => super::stat::mode_string('c', n.mode),
        None => super::stat::mode_string('d', 0o755),
    }
}

fn date(t: i64) -> String {
    let (_, mo, d, h, mi, _) = civil(t);
    format!("{} {:>2} {:02}:{:02}", MONTHS[(mo - 1) as usize], d, h, mi)
}

/// The listing asked for.
#[derive(Debug, Default)]
struct Listing {
    long: bool,
    dir_only: bool,
    numeric: bool,
    paths: Vec<String>,
}

/// Reads the options this `ls` draws itself; `None` for any other, which the real `ls` gets.
fn parse(args: &[String]) -> Option<Listing> {
    let mut p = opts::parser(args);
    let mut l = Listing::default();
    while let Some(arg) = p.next().ok()? {
        match arg {
            Short('l') => l.long = true,
            Short('d') => l.dir_only = true,
            Short('n') => {
                l.long = true;
                l.numeric = true;
            }
            Short('a' | 'h' | 'A' | '1' | 'F' | 'G' | 'o' | 'g')
            | Long("human-readable" | "all") => {}
            // `--color[=WHEN]`: the value only attached.
            Long("color") => {
                p.optional_value();
            }
            Value(v) => l.paths.push(opts::text(v)),
            _ => return None,
        }
    }
    Some(l)
}

/// A path given on the command line and what it names: nodes, or a directory of them.
struct Found {
    given: String,
    path: String,
    entries: Vec<Entry>,
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let Some(l) = parse(args).filter(|l| !l.paths.is_empty()) else {
        return real(cx, args);
    };
    let norm: Vec<String> = l
        .paths
        .iter()
        .map(|p| fsx::normalize(p, &cx.caller.cwd))
        .collect();
    if !norm.iter().all(|p| is_ours(p)) {
        return real(cx, args);
    }
    let dri = Dri::of(cx);
    let mut files: Vec<Entry> = Vec::new();
    let mut dirs: Vec<(String, Vec<Entry>)> = Vec::new();
    let mut code = 0;
    for (given, path) in l.paths.iter().zip(norm) {
        let found = Found {
            entries: matches(cx, &dri, given, &path),
            given: given.clone(),
            path,
        };
        if found.entries.is_empty() {
            cx.eprintln(&format!(
                "ls: cannot access '{given}': No such file or directory"
            ));
            code = 2;
            continue;
        }
        for e in found.entries {
            if e.dir && !l.dir_only {
                let inside = if found.path == "/dev/dri" {
                    dri.listing()
                } else {
                    vec![]
                };
                dirs.push((found.given.clone(), inside));
            } else {
                files.push(e);
            }
        }
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    let out = layout(cx, &l, &files, &dirs);
    cx.print(&out);
    code
}

/// /dev/dri as the machine has it: its nodes, the by-path folder's size and the folder's time.
struct Dri {
    nodes: Vec<DevNode>,
    by_path_size: u64,
    created: i64,
}

impl Dri {
    fn of(cx: &Ctx) -> Dri {
        let nodes: Vec<DevNode> = cx
            .state
            .devices
            .iter()
            .filter(|d| d.path.starts_with("/dev/dri/"))
            .cloned()
            .collect();
        Dri {
            by_path_size: 40 + 20 * nodes.len() as u64,
            created: nodes
                .iter()
                .map(|d| d.created)
                .min()
                .unwrap_or(cx.state.boot_time),
            nodes,
        }
    }

    /// A folder entry (by-path, or /dev/dri itself) named `name`.
    fn folder(&self, name: &str) -> Entry {
        Entry {
            name: name.into(),
            dir: true,
            node: None,
            size: self.by_path_size,
            created: self.created,
        }
    }

    /// What `ls /dev/dri` lists: by-path, then the nodes.
    fn listing(&self) -> Vec<Entry> {
        let mut v = vec![self.folder("by-path")];
        v.extend(self.nodes.iter().map(|d| Entry {
            name: d.kernel.clone(),
            dir: false,
            node: Some(d.clone()),
            size: 0,
            created: d.created,
        }));
        v
    }
}

/// The entries one path names: /dev/dri and its by-path folder, or the nodes a name or
/// glob matches (a glob lists them by their full path).
fn matches(cx: &Ctx, dri: &Dri, given: &str, p: &str) -> Vec<Entry> {
    if p == "/dev/dri" || p == "/dev/dri/by-path" {
        if dri.nodes.is_empty() {
            return vec![];
        }
        return vec![dri.folder(given)];
    }
    cx.state
        .devices
        .iter()
        .filter(|d| udev::glob(p, &d.path) || d.path == *p)
        .map(|d| Entry {
            name: if p.contains(['*', '?', '[']) {
                d.path.clone()
            } else {
                given.to_string()
            },
            dir: false,
            node: Some(d.clone()),
            size: 0,
            created: d.created,
        })
        .collect()
}

/// The files first, then each folder under its name (when there is more than one thing).
fn layout(cx: &Ctx, l: &Listing, files: &[Entry], dirs: &[(String, Vec<Entry>)]) -> String {
    let mut out = String::new();
    let many = files.len() + dirs.len() > 1;
    if !files.is_empty() {
        out.push_str(&render(cx, files, l.long, l.numeric));
    }
    for (i, (name, entries)) in dirs.iter().enumerate() {
        if !out.is_empty() || i > 0 {
            out.push('\n');
        }
        if many {
            out.push_str(&format!("{name}:\n"));
        }
        if l.long {
            out.push_str("total 0\n");
        }
        out.push_str(&render(cx, entries, l.long, l.numeric));
    }
    out
}

fn render(cx: &Ctx, entries: &[Entry], long: bool, numeric: bool) -> String {
    if !long {
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        return if names.is_empty() {
            String::new()
        } else {
            format!("{}\n", names.join("  "))
        };
    }
    let groups = accounts::Groups::load(cx.root);
    let owner = |e: &Entry| -> String {
        let o = e
            .node
            .as_ref()
            .map(|n| n.owner.clone())
            .unwrap_or_else(|| "root".into());
        if numeric {
            accounts::user(cx.root, &o)
                .map(|u| u.uid.to_string())
                .unwrap_or(o)
        } else {
            o
        }
    };
    let group = |e: &Entry| -> String {
        let g = e
            .node
            .as_ref()
            .map(|n| n.group.clone())
            .unwrap_or_else(|| "root".into());
        if numeric {
            groups.by_name(&g).map(|x| x.gid.to_string()).unwrap_or(g)
        } else {
            g
        }
    };
    let maj_w = entries
        .iter()
        .filter_map(|e| e.node.as_ref())
        .map(|n| n.major.to_string().len())
        .max()
        .unwrap_or(0);
    let min_w = entries
        .iter()
        .filter_map(|e| e.node.as_ref())
        .map(|n| n.minor.to_string().len())
        .max()
        .unwrap_or(0);
    let dev_w = if maj_w > 0 { maj_w + 2 + min_w } else { 0 };
    let size_w = entries
        .iter()
        .filter(|e| e.node.is_none())
        .map(|e| e.size.to_string().len())
        .max()
        .unwrap_or(0)
        .max(dev_w);
    let ow = entries.iter().map(|e| owner(e).len()).max().unwrap_or(0);
    let gw = entries.iter().map(|e| group(e).len()).max().unwrap_or(0);
    let mut s = String::new();
    for e in entries {
        let size = match &e.node {
            Some(n) => {
                let f = format!("{:>maj_w$}, {:>min_w$}", n.major, n.minor);
                format!("{f:>size_w$}")
            }
            None => format!("{:>size_w$}", e.size),
        };
        let links = if e.dir { 2 } else { 1 };
        s.push_str(&format!(
            "{} {links} {} {} {size} {} {}\n",
            mode_string(e),
            pad(&owner(e), ow),
            pad(&group(e), gw),
            date(e.created),
            e.name
        ));
    }
    s
}

fn real(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut argv = vec!["ls".to_string()];
    argv.extend(args.iter().cloned());
    cx.out.exec = Some(Exec::Program {
        argv,
        as_root: false,
        env: None,
    });
    0
}

#[cfg(test)]
mod tests {
    use super::super::super::Exec;
    use super::super::testkit::Machine;

    #[test]
    fn drawn_here_or_left_to_the_real_ls() {
        let m = Machine::stage();
        let long = m.learner("ls -l /dev/kfd");
        assert!(long.stdout.starts_with("crw-rw----"), "{long:?}");
        for line in [
            "ls /dev/kfd -l",
            "ls --color=auto -la -- /dev/kfd",
            "ls -lh --all /dev/kfd",
        ] {
            assert_eq!(m.learner(line), long, "{line}");
        }
        let learner = m.learner_caller();
        for line in [
            "ls -lt /dev/kfd",
            "ls --all=1 /dev/kfd",
            "ls -l",
            "ls -l /dev/kfd /etc",
        ] {
            let out = m.output(learner.clone(), line);
            assert!(matches!(out.exec, Some(Exec::Program { .. })), "{line}");
        }
    }
}
