//! `dpkg-query -l`, `-s`, `-S`, `-W [-f FORMAT]`: the same package database `dpkg -l` reads (the
//! simulated machine's), not the host's.

use super::super::Ctx;

const HELP_TAIL: &str = "\n\nUse --help for help about querying packages.";

/// dpkg-query's default `--showformat`.
const SHOW_FORMAT: &str = "${binary:Package}\\t${Version}\\n";

enum Action {
    List,
    Status,
    Show,
    Search,
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut action = None;
    let mut format = SHOW_FORMAT.to_string();
    let mut names = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let next = match a.as_str() {
            "-l" | "--list" => Some(Action::List),
            "-s" | "--status" => Some(Action::Status),
            "-W" | "--show" => Some(Action::Show),
            "-S" | "--search" => Some(Action::Search),
            "-f" | "--showformat" => {
                match it.next() {
                    Some(f) => format = f.clone(),
                    None => {
                        cx.eprintln(&format!(
                            "dpkg-query: error: --showformat takes a value{HELP_TAIL}"
                        ));
                        return 2;
                    }
                }
                None
            }
            f if f.starts_with("--showformat=") => {
                format = f["--showformat=".len()..].to_string();
                None
            }
            // `-f='${Status}'`, as it is usually typed: dpkg takes the `=` as a separator.
            f if f.starts_with("-f") && f.len() > 2 => {
                format = f[2..].trim_start_matches('=').to_string();
                None
            }
            o if o.starts_with('-') && o.len() > 1 => {
                cx.eprintln(&format!("dpkg-query: error: unknown option {o}{HELP_TAIL}"));
                return 2;
            }
            _ => {
                names.push(a.clone());
                None
            }
        };
        if next.is_some() {
            action = next;
        }
    }
    match action {
        None => {
            cx.eprintln(&format!(
                "dpkg-query: error: need an action option{HELP_TAIL}"
            ));
            2
        }
        Some(Action::List) => super::dpkg::list(cx, &names),
        Some(Action::Status) => super::dpkg::status(cx, &names),
        Some(Action::Show) => show(cx, &names, &format),
        Some(Action::Search) => super::dpkg_search::run(cx, &names),
    }
}

/// `-W`: one formatted entry per installed package matching `pats` (all without any).
fn show(cx: &mut Ctx, pats: &[String], format: &str) -> i32 {
    let rows: Vec<String> = cx
        .state
        .packages
        .iter()
        .filter(|(n, _)| pats.is_empty() || pats.iter().any(|p| super::super::udev::glob(p, n)))
        .map(|(n, i)| {
            let arch = if i.arch.is_empty() { "amd64" } else { &i.arch };
            let status = if i.half_configured {
                "install ok half-configured"
            } else {
                "install ok installed"
            };
            fill(
                format,
                &[
                    ("binary:Package", n),
                    ("Package", n),
                    ("Version", &i.version),
                    ("Architecture", arch),
                    ("Status", status),
                    (
                        "db:Status-Abbrev",
                        if i.half_configured { "iF " } else { "ii " },
                    ),
                ],
            )
        })
        .collect();
    let mut code = 0;
    for p in pats {
        if !cx
            .state
            .packages
            .keys()
            .any(|n| super::super::udev::glob(p, n))
        {
            cx.eprintln(&format!("dpkg-query: no packages found matching {p}"));
            code = 1;
        }
    }
    for r in rows {
        cx.print(&r);
    }
    code
}

/// `format` with its `${Field}`s filled and `\n`, `\t` and `\\` escapes read.
fn fill(format: &str, fields: &[(&str, &str)]) -> String {
    let mut out = String::new();
    let mut rest = format;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("${")
            && let Some(end) = after.find('}')
        {
            // A width (`${Package;-20}`) is kept to the name only.
            let name = after[..end].split(';').next().unwrap_or("");
            let value = fields
                .iter()
                .find(|(k, _)| *k == name)
                .map_or("", |(_, v)| v);
            out.push_str(value);
            rest = &after[end + 1..];
            continue;
        }
        if let Some(after) = rest.strip_prefix('\\') {
            match after.chars().next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some(o) => {
                    out.push('\\');
                    out.push(o);
                }
                None => out.push('\\'),
            }
            rest = &after[after.chars().next().map_or(0, char::len_utf8)..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn dpkg_query_reads_the_machines_database_as_dpkg_does() {
        let m = Machine::stage();
        assert_eq!(
            m.learner("dpkg-query -l").stdout,
            m.learner("dpkg -l").stdout
        );
        assert_eq!(
            m.learner("dpkg-query -s wget").stdout,
            m.learner("dpkg -s wget").stdout
        );
        let w = m.learner("dpkg-query -W wget");
        assert_eq!(w.stdout, "wget\t1.21.4-1ubuntu4.1\n");
        let f = m.learner("dpkg-query -W -f=${Package}=${Version}\\n gnupg");
        assert_eq!(f.stdout, "gnupg=2.4.4-2ubuntu17\n");
        assert_eq!(
            m.learner("dpkg-query -W rocm-core").complaint(),
            ("dpkg-query: no packages found matching rocm-core", 1)
        );
    }
}
