//! `ls` for the GPU device nodes: /dev/kfd, /dev/dri and /dev/dri/* come from the state (owner,
//! group and mode as udev applied them); any other path is left to the real `ls`.

use super::super::state::DevNode;
use super::super::{Ctx, Exec, accounts, fsx, udev};
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
    let (t, m) = match &e.node {
        Some(n) => ('c', n.mode),
        None => ('d', 0o755),
    };
    let mut s = String::from(t);
    for shift in [6, 3, 0] {
        let b = (m >> shift) & 7;
        s.push(if b & 4 != 0 { 'r' } else { '-' });
        s.push(if b & 2 != 0 { 'w' } else { '-' });
        s.push(if b & 1 != 0 { 'x' } else { '-' });
    }
    s
}

fn date(t: i64) -> String {
    let (_, mo, d, h, mi, _) = civil(t);
    format!("{} {:>2} {:02}:{:02}", MONTHS[(mo - 1) as usize], d, h, mi)
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let (mut long, mut dir_only, mut numeric) = (false, false, false);
    let mut paths = Vec::new();
    let mut after_dashdash = false;
    for a in args {
        if !after_dashdash && a == "--" {
            after_dashdash = true;
        } else if !after_dashdash && a.starts_with("--") {
            if !(a.starts_with("--color") || a == "--human-readable" || a == "--all") {
                return real(cx, args);
            }
        } else if !after_dashdash && a.starts_with('-') && a.len() > 1 {
            for c in a[1..].chars() {
                match c {
                    'l' => long = true,
                    'd' => dir_only = true,
                    'n' => {
                        long = true;
                        numeric = true
                    }
                    'a' | 'h' | 'A' | '1' | 'F' | 'G' | 'o' | 'g' => {}
                    _ => return real(cx, args),
                }
            }
        } else {
            paths.push(a.clone());
        }
    }
    if paths.is_empty() {
        return real(cx, args);
    }
    let norm: Vec<String> = paths
        .iter()
        .map(|p| fsx::normalize(p, &cx.caller.cwd))
        .collect();
    if !norm.iter().all(|p| is_ours(p)) {
        return real(cx, args);
    }
    let devices = cx.state.devices.clone();
    let dri: Vec<DevNode> = devices
        .iter()
        .filter(|d| d.path.starts_with("/dev/dri/"))
        .cloned()
        .collect();
    let by_path_size = 40 + 20 * dri.len() as u64;
    let dri_time = dri
        .iter()
        .map(|d| d.created)
        .min()
        .unwrap_or(cx.state.boot_time);
    let mut files: Vec<(String, Entry)> = Vec::new();
    let mut dirs: Vec<(String, Vec<Entry>)> = Vec::new();
    let mut code = 0;
    for (given, p) in paths.iter().zip(&norm) {
        let matched: Vec<Entry> = if p == "/dev/dri" || p == "/dev/dri/by-path" {
            if dri.is_empty() {
                vec![]
            } else {
                vec![Entry {
                    name: given.clone(),
                    dir: true,
                    node: None,
                    size: by_path_size,
                    created: dri_time,
                }]
            }
        } else {
            devices
                .iter()
                .filter(|d| udev::glob(p, &d.path) || d.path == *p)
                .map(|d| Entry {
                    name: if p.contains(['*', '?', '[']) {
                        d.path.clone()
                    } else {
                        given.clone()
                    },
                    dir: false,
                    node: Some(d.clone()),
                    size: 0,
                    created: d.created,
                })
                .collect()
        };
        if matched.is_empty() {
            cx.eprintln(&format!(
                "ls: cannot access '{given}': No such file or directory"
            ));
            code = 2;
            continue;
        }
        for e in matched {
            if e.dir && !dir_only {
                let entries = if p == "/dev/dri" {
                    let mut v = vec![Entry {
                        name: "by-path".into(),
                        dir: true,
                        node: None,
                        size: by_path_size,
                        created: dri_time,
                    }];
                    v.extend(dri.iter().map(|d| Entry {
                        name: d.kernel.clone(),
                        dir: false,
                        node: Some(d.clone()),
                        size: 0,
                        created: d.created,
                    }));
                    v
                } else {
                    vec![]
                };
                dirs.push((given.clone(), entries));
            } else {
                files.push((e.name.clone(), e));
            }
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = String::new();
    let file_entries: Vec<Entry> = files.into_iter().map(|(_, e)| e).collect();
    let many = file_entries.len() + dirs.len() > 1;
    if !file_entries.is_empty() {
        out.push_str(&render(cx, &file_entries, long, numeric));
    }
    for (i, (name, entries)) in dirs.iter().enumerate() {
        if !out.is_empty() || i > 0 {
            out.push('\n');
        }
        if many {
            out.push_str(&format!("{name}:\n"));
        }
        if long {
            out.push_str("total 0\n");
        }
        out.push_str(&render(cx, entries, long, numeric));
    }
    cx.print(&out);
    code
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
