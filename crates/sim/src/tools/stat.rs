//! `stat` for the GPU device nodes where they exist only in the simulator (a lab not started
//! by root has no real nodes): the same node `ls -l` shows, with `-c`/`--format`/`--printf`
//! and the default layout of GNU coreutils. Any other path, option, or a node that is real,
//! goes to the real `stat`.

use super::super::state::DevNode;
use super::super::{Ctx, Exec, accounts, fsx};
use super::civil;

/// What this `stat` draws: the format (`None` for the default layout), whether `--printf`
/// (no newline added, escapes read), and the paths.
struct Ask {
    format: Option<String>,
    printf: bool,
    paths: Vec<String>,
}

fn parse(args: &[String]) -> Option<Ask> {
    let mut a = Ask {
        format: None,
        printf: false,
        paths: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(w) = it.next() {
        if let Some(f) = w.strip_prefix("--format=") {
            a.format = Some(f.to_string());
        } else if let Some(f) = w.strip_prefix("--printf=") {
            a.format = Some(f.to_string());
            a.printf = true;
        } else if w == "-c" || w == "--format" || w == "--printf" {
            a.printf = w == "--printf";
            a.format = Some(it.next()?.clone());
        } else if let Some(f) = w.strip_prefix("-c").filter(|f| !f.is_empty()) {
            a.format = Some(f.to_string());
        } else if w == "-L" || w == "--dereference" {
        } else if w == "--" {
            a.paths.extend(it.by_ref().cloned());
        } else if w.starts_with('-') {
            return None;
        } else {
            a.paths.push(w.clone());
        }
    }
    Some(a)
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let ask = parse(args).filter(|a| !a.paths.is_empty());
    let nodes: Option<Vec<DevNode>> = ask.as_ref().and_then(|a| {
        a.paths
            .iter()
            .map(|p| {
                let path = fsx::normalize(p, &cx.caller.cwd);
                cx.state.device(&path).cloned()
            })
            .collect()
    });
    // Only simulated nodes are drawn here; a real node is the real stat's to show.
    match (ask, nodes) {
        (Some(ask), Some(nodes))
            if cx.root != std::path::Path::new("/")
                || nodes
                    .iter()
                    .all(|n| cx.host.device_node(&n.path, n.major, n.minor).is_none()) =>
        {
            for (given, n) in ask.paths.iter().zip(&nodes) {
                let text = match &ask.format {
                    Some(f) => {
                        let mut s = expand(cx, f, given, n, ask.printf);
                        if !ask.printf {
                            s.push('\n');
                        }
                        s
                    }
                    None => default_layout(cx, given, n),
                };
                cx.print(&text);
            }
            0
        }
        _ => real(cx, args),
    }
}

fn real(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut argv = vec!["stat".to_string()];
    argv.extend(args.iter().cloned());
    cx.out.exec = Some(Exec::Program {
        argv,
        as_root: false,
        env: None,
    });
    0
}

fn uid(cx: &Ctx, n: &DevNode) -> u32 {
    accounts::users(cx.root)
        .iter()
        .find(|u| u.name == n.owner)
        .map_or(0, |u| u.uid)
}

fn gid(cx: &Ctx, n: &DevNode) -> u32 {
    accounts::Groups::load(cx.root)
        .by_name(&n.group)
        .map_or(0, |g| g.gid)
}

/// `crw-rw----`: the kind of file (`c`, `d`) and the permission bits, as ls and stat show them.
pub(super) fn mode_string(kind: char, mode: u32) -> String {
    let mut s = String::from(kind);
    for shift in [6, 3, 0] {
        let b = (mode >> shift) & 7;
        s.push(if b & 4 != 0 { 'r' } else { '-' });
        s.push(if b & 2 != 0 { 'w' } else { '-' });
        s.push(if b & 1 != 0 { 'x' } else { '-' });
    }
    s
}

fn time(t: i64) -> String {
    let (y, mo, d, h, mi, s) = civil(t);
    format!("{y}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}.000000000 +0000")
}

/// GNU stat's `%` directives for a character device (the ones scripts use on /dev nodes).
fn expand(cx: &Ctx, f: &str, given: &str, n: &DevNode, printf: bool) -> String {
    let mut out = String::new();
    let mut chars = f.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && printf {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some(o) => {
                    out.push('\\');
                    out.push(o);
                }
                None => out.push('\\'),
            }
            continue;
        }
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(d) = chars.next() else {
            out.push('%');
            break;
        };
        match d {
            '%' => out.push('%'),
            'a' => out.push_str(&format!("{:o}", n.mode)),
            'A' => out.push_str(&mode_string('c', n.mode)),
            'f' => out.push_str(&format!("{:x}", 0o020000 | n.mode)),
            'F' => out.push_str("character special file"),
            'g' => out.push_str(&gid(cx, n).to_string()),
            'G' => out.push_str(&n.group),
            'u' => out.push_str(&uid(cx, n).to_string()),
            'U' => out.push_str(&n.owner),
            'n' | 'N' => out.push_str(given),
            'h' => out.push('1'),
            's' | 'b' => out.push('0'),
            't' => out.push_str(&format!("{:x}", n.major)),
            'T' => out.push_str(&format!("{:x}", n.minor)),
            'x' | 'y' | 'z' => out.push_str(&time(n.created)),
            'X' | 'Y' | 'Z' => out.push_str(&n.created.to_string()),
            _ => out.push('?'),
        }
    }
    out
}

/// `stat FILE` as coreutils 8.32/9.4 lays it out for a character device.
fn default_layout(cx: &Ctx, given: &str, n: &DevNode) -> String {
    let (u, g) = (uid(cx, n), gid(cx, n));
    let t = time(n.created);
    format!(
        "  File: {given}\n  Size: 0         \tBlocks: 0          IO Block: 4096   character special file\nDevice: 0,5\tInode: {}        Links: 1     Device type: {},{}\nAccess: ({:04o}/{})  Uid: ({u:>5}/{:>8})   Gid: ({g:>5}/{:>8})\nAccess: {t}\nModify: {t}\nChange: {t}\n Birth: -\n",
        1000 + n.minor,
        n.major,
        n.minor,
        n.mode,
        mode_string('c', n.mode),
        n.owner,
        n.group
    )
}

#[cfg(test)]
mod tests {
    use super::super::super::Exec;
    use super::super::testkit::Machine;

    #[test]
    fn sees_the_nodes_ls_shows() {
        let m = Machine::stage();
        // `--group-add "$(stat -c %g /dev/kfd)"`: the render group's number.
        assert_eq!(m.learner("stat -c %g /dev/kfd").stdout, "992\n");
        assert_eq!(
            m.learner("stat --format=%a:%G:%U /dev/kfd").stdout,
            "660:render:root\n"
        );
        assert_eq!(
            m.learner("stat --printf=%F\\n -L /dev/dri/renderD128")
                .stdout,
            "character special file\n"
        );
        let long = m.learner("stat /dev/kfd").stdout;
        assert!(long.starts_with("  File: /dev/kfd\n"), "{long}");
        assert!(long.contains("Access: (0660/crw-rw----)"), "{long}");
        for line in ["stat /etc/passwd", "stat -t /dev/kfd", "stat /dev/kfd /etc"] {
            let out = m.output(m.learner_caller(), line);
            assert!(matches!(out.exec, Some(Exec::Program { .. })), "{line}");
        }
    }
}
