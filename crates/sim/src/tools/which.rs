//! `which` (debianutils): the first program of each name on PATH. The simulated tools are
//! shown where Ubuntu keeps them (`/usr/bin/ls`), not where the lab mounts their wrappers
//! (`/usr/local/bin`), as `ls` and friends are those programs on the machine.

use std::os::unix::fs::PermissionsExt;

use super::super::Ctx;

const USAGE: &str = "Usage: /usr/bin/which [-as] args";

/// Where the lab mounts the wrappers of the simulated tools.
const WRAPPERS: [&str; 2] = ["/usr/local/bin", "/usr/local/sbin"];

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut all = false;
    let mut names: Vec<&String> = Vec::new();
    let mut options = true;
    for a in args {
        if options && a == "--" {
            options = false;
        } else if options && a.starts_with('-') && a.len() > 1 {
            for c in a[1..].chars() {
                match c {
                    'a' => all = true,
                    's' => {}
                    other => {
                        cx.eprintln(&format!("Illegal option -{other}"));
                        cx.eprintln(USAGE);
                        return 2;
                    }
                }
            }
        } else {
            names.push(a);
        }
    }
    if names.is_empty() {
        return 1;
    }
    let path = cx
        .env
        .iter()
        .rev()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| super::super::entry::DEFAULT_PATH.to_string());
    let tools = super::system_tools(cx.state);
    let mut code = 0;
    for name in names {
        let found = lookup(cx, &path, name, &tools);
        if found.is_empty() {
            code = 1;
        }
        let shown = if all { found.len() } else { found.len().min(1) };
        for f in &found[..shown] {
            cx.println(f);
        }
    }
    code
}

/// Every executable named `name` on `path`, as the machine would show it.
fn lookup(cx: &Ctx, path: &str, name: &str, tools: &[super::SystemTool]) -> Vec<String> {
    if name.contains('/') {
        return executable(cx, name)
            .then(|| name.to_string())
            .into_iter()
            .collect();
    }
    let mut found: Vec<String> = Vec::new();
    for dir in path.split(':') {
        let dir = if dir.is_empty() { "." } else { dir };
        let full = format!("{}/{name}", dir.trim_end_matches('/'));
        if !executable(cx, &full) {
            continue;
        }
        let shown = if WRAPPERS.contains(&dir.trim_end_matches('/')) {
            tools
                .iter()
                .find(|t| t.name == name)
                .map(|t| t.path.to_string())
                .or_else(|| {
                    ["ls", "stat", "which"]
                        .contains(&name)
                        .then(|| format!("/usr/bin/{name}"))
                })
                .unwrap_or(full)
        } else {
            full
        };
        if !found.contains(&shown) {
            found.push(shown);
        }
    }
    found
}

fn executable(cx: &Ctx, path: &str) -> bool {
    std::fs::metadata(cx.host(path))
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn complains_like_debianutils() {
        let m = Machine::stage();
        assert_eq!(
            m.learner("which -x ls").complaint(),
            ("Illegal option -x", 2)
        );
        assert_eq!(m.learner("which").code, 1);
        assert_eq!(m.learner("which no-such-program").stdout, "");
        assert_eq!(m.learner("which no-such-program").code, 1);
    }
}
