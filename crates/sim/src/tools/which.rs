//! `which` (debianutils): the first program of each name on PATH. The machine's programs are
//! in /usr/bin and /usr/sbin, where their packages put them; in a lab whose kernel refused to
//! lay them there they are seen in /usr/local (`fsx::programs_elsewhere`), and are still shown
//! where Ubuntu keeps them (`/usr/bin/rocminfo`), as `ls` and friends are those programs on the
//! machine.

use std::os::unix::fs::PermissionsExt;

use super::super::{Ctx, fsx};

const USAGE: &str = "Usage: /usr/bin/which [-as] args";

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
    let mut code = 0;
    for name in names {
        let found = lookup(cx, &path, name);
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
fn lookup(cx: &Ctx, path: &str, name: &str) -> Vec<String> {
    if name.contains('/') {
        return executable(cx, name)
            .then(|| name.to_string())
            .into_iter()
            .collect();
    }
    let elsewhere = fsx::programs_elsewhere();
    let mut found: Vec<String> = Vec::new();
    for dir in path.split(':') {
        let dir = if dir.is_empty() { "." } else { dir };
        let full = format!("{}/{name}", dir.trim_end_matches('/'));
        if !executable(cx, &full) {
            continue;
        }
        let shown = elsewhere
            .as_deref()
            .and_then(|e| Some(format!("/usr{}", full.strip_prefix(e.to_str()?)?)))
            .filter(|usr| usr.starts_with("/usr/bin/") || usr.starts_with("/usr/sbin/"))
            .unwrap_or(full);
        if !found.contains(&shown) {
            found.push(shown);
        }
    }
    found
}

/// Whether `path` is an executable file, its links followed as the machine follows them (an
/// absolute target counts from the machine's root: /usr/bin/rocminfo -> /etc/alternatives/...).
fn executable(cx: &Ctx, path: &str) -> bool {
    let clean = fsx::normalize(path, &cx.caller.cwd);
    let Some(end) = rocm_unix::machine_path::resolve(&clean, |p| cx.host(p)) else {
        return false;
    };
    std::fs::metadata(cx.host(&end))
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
