//! `dpkg -i FILE.deb` for the .deb files the offline mirror serves (amdgpu-install), and
//! `dpkg -l`/`-s`/`-S` for what is installed.

use super::super::{Ctx, pkgs};
use super::opts;

/// What dpkg adds after a usage error.
const HELP_TAIL: &str = "\n\nType dpkg --help for help about installing and deinstalling packages [*];\nUse 'apt' or 'aptitude' for user-friendly package management;\nType dpkg -Dhelp for a list of dpkg debug flag values;\nType dpkg --force-help for a list of forcing options;\nType dpkg-deb --help for help about manipulating *.deb files;\n\nOptions marked [*] produce a lot of output - pipe it through 'less' or 'more' !";

/// The action dpkg is asked for.
#[derive(Debug, PartialEq)]
enum Action {
    Install,
    Status,
    List,
    Architecture,
    /// `--configure -a` (`--pending`): the half-configured packages' scripts again.
    Configure,
    /// `-S`: dpkg hands it to dpkg-query.
    Search,
}

/// The first word is the action, whole (`-il` is not `-i -l`); what follows it is operands, as
/// typed. `Err` holds the word dpkg does not know, `None` when there is none.
fn parse(args: &[String]) -> Result<(Action, Vec<String>), Option<String>> {
    use opts::Token::{DashDash, Long, Short, Value};
    let mut p = opts::parser(args);
    let action = match opts::next_token(&mut p).ok_or(None)? {
        Short(c) => match (c, opts::rest(&mut p)) {
            ('i', None) => Action::Install,
            ('s', None) => Action::Status,
            ('l', None) => Action::List,
            ('S', None) => Action::Search,
            (c, rest) => return Err(Some(format!("-{c}{}", rest.unwrap_or_default()))),
        },
        Long(name, None) => match name.as_str() {
            "install" => Action::Install,
            "status" => Action::Status,
            "list" => Action::List,
            "search" => Action::Search,
            "print-architecture" => Action::Architecture,
            "configure" => Action::Configure,
            _ => return Err(Some(format!("--{name}"))),
        },
        Long(name, Some(v)) => return Err(Some(format!("--{name}={v}"))),
        DashDash => return Err(Some("--".into())),
        Value(w) => return Err(Some(w)),
    };
    Ok((action, opts::remaining(&mut p)))
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let (action, rest) = match parse(args) {
        Ok(a) => a,
        Err(None) => {
            cx.eprintln(&format!("dpkg: error: need an action option{HELP_TAIL}"));
            return 2;
        }
        Err(Some(o)) => {
            cx.eprintln(&format!("dpkg: error: unknown option {o}{HELP_TAIL}"));
            return 2;
        }
    };
    match action {
        Action::Install => install(cx, &rest),
        Action::Status => status(cx, &rest),
        Action::List => list(cx, &rest),
        Action::Architecture => {
            cx.println("amd64");
            0
        }
        Action::Configure => configure(cx, &rest),
        Action::Search => super::dpkg_search::run(cx, &rest),
    }
}

/// `dpkg --configure -a`: only the pending form; naming packages is not needed here.
fn configure(cx: &mut Ctx, rest: &[String]) -> i32 {
    if !rest.iter().any(|a| a == "-a" || a == "--pending") {
        cx.eprintln(&format!(
            "dpkg: error: --configure needs at least one package name argument{HELP_TAIL}"
        ));
        return 2;
    }
    if !cx.caller.is_root() {
        cx.eprintln("dpkg: error: requested operation requires superuser privilege");
        return 2;
    }
    let failed = super::apt::configure_pending(cx);
    if failed.is_empty() {
        return 0;
    }
    cx.eprintln("Errors were encountered while processing:");
    for f in failed {
        cx.eprintln(&format!(" {f}"));
    }
    1
}

fn install(cx: &mut Ctx, files: &[String]) -> i32 {
    if files.is_empty() {
        cx.eprintln(&format!(
            "dpkg: error: --install needs at least one package archive file argument{HELP_TAIL}"
        ));
        return 2;
    }
    if !cx.caller.is_root() {
        cx.eprintln("dpkg: error: requested operation requires superuser privilege");
        return 2;
    }
    let mut code = 0;
    for f in files {
        if !cx.host(f).is_file() {
            cx.eprintln(&format!(
                "dpkg: error: cannot access archive '{f}': No such file or directory"
            ));
            code = 1;
            continue;
        }
        let p = match super::apt::local_deb(cx, f) {
            Ok(p) => p,
            Err(_) => {
                cx.eprintln(&format!(
                    "dpkg-deb: error: '{f}' is not a Debian format archive"
                ));
                cx.eprintln(&format!(
                    "dpkg: error processing archive {f} (--install):\n dpkg-deb --control subprocess returned error exit status 2"
                ));
                cx.eprintln(&format!("Errors were encountered while processing:\n {f}"));
                return 1;
            }
        };
        let was = cx.state.packages.get(&p.name).map(|i| i.version.clone());
        match &was {
            None => {
                cx.println(&format!(
                    "Selecting previously unselected package {}.",
                    p.name
                ));
                cx.println(
                    "(Reading database ... 74612 files and directories currently installed.)",
                );
            }
            Some(_) => cx
                .println("(Reading database ... 74612 files and directories currently installed.)"),
        }
        let base = f.rsplit('/').next().unwrap_or(f);
        cx.println(&format!("Preparing to unpack {base} ..."));
        match &was {
            Some(v) => cx.println(&format!(
                "Unpacking {} ({}) over ({v}) ...",
                p.name, p.version
            )),
            None => cx.println(&format!("Unpacking {} ({}) ...", p.name, p.version)),
        }
        cx.println(&format!("Setting up {} ({}) ...", p.name, p.version));
        let (root, bin) = (cx.root, cx.caller.sim_bin.clone());
        if let Err(e) = pkgs::install(root, cx.state, &p, &bin) {
            cx.eprintln(&format!("dpkg: error processing package {}: {e}", p.name));
            return 1;
        }
    }
    code
}

pub(super) fn status(cx: &mut Ctx, names: &[String]) -> i32 {
    let mut code = 0;
    for n in names {
        match cx.state.packages.get(n) {
            Some(i) => {
                let arch = if i.arch.is_empty() { "amd64" } else { &i.arch };
                cx.println(&format!(
                    "Package: {n}\nStatus: install ok installed\nArchitecture: {arch}\nVersion: {}",
                    i.version
                ));
            }
            None => {
                cx.eprintln(&format!(
                    "dpkg-query: package '{n}' is not installed and no information is available\nUse dpkg --info (= dpkg-deb --info) to examine archive files."
                ));
                code = 1;
            }
        }
    }
    code
}

pub(super) fn list(cx: &mut Ctx, pats: &[String]) -> i32 {
    let rows: Vec<(String, String, String)> = cx
        .state
        .packages
        .iter()
        .filter(|(n, _)| pats.is_empty() || pats.iter().any(|p| super::super::udev::glob(p, n)))
        .map(|(n, i)| {
            let arch = if i.arch.is_empty() {
                "amd64".into()
            } else {
                i.arch.clone()
            };
            let status = if i.half_configured { "iF" } else { "ii" };
            (format!("{status}  {n}"), i.version.clone(), arch)
        })
        .collect();
    if rows.is_empty() {
        let p = pats.first().cloned().unwrap_or_default();
        cx.eprintln(&format!("dpkg-query: no packages found matching {p}"));
        return 1;
    }
    cx.println("Desired=Unknown/Install/Remove/Purge/Hold\n| Status=Not/Inst/Conf-files/Unpacked/halF-conf/Half-inst/trig-aWait/Trig-pend\n|/ Err?=(none)/Reinst-required (Status,Err: uppercase=bad)");
    let nw = rows.iter().map(|r| r.0.len() - 4).max().unwrap_or(4).max(4);
    let vw = rows.iter().map(|r| r.1.len()).max().unwrap_or(7).max(7);
    cx.println(&format!(
        "||/ {:<nw$} {:<vw$} {:<12} Description",
        "Name", "Version", "Architecture"
    ));
    cx.println(&format!(
        "+++-{}-{}-{}-{}",
        "=".repeat(nw),
        "=".repeat(vw),
        "=".repeat(12),
        "=".repeat(40)
    ));
    for (sn, v, a) in rows {
        let (status, n) = sn.split_at(4);
        cx.println(&format!("{status}{n:<nw$} {v:<vw$} {a:<12} {n}"));
    }
    0
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{Bench, err};
    use super::HELP_TAIL;

    #[test]
    fn the_action_comes_first_and_whole() {
        let b = Bench::new(|_| {});
        let unknown = |o: &str| (2, format!("dpkg: error: unknown option {o}{HELP_TAIL}\n"));
        assert_eq!(
            err(b.run("dpkg")),
            (
                2,
                format!("dpkg: error: need an action option{HELP_TAIL}\n")
            )
        );
        for o in [
            "-il",
            "-s=wget",
            "--status=wget",
            "--",
            "foo",
            "-",
            "-é",
            "--print-architecture=1",
        ] {
            assert_eq!(err(b.run(&format!("dpkg {o} wget"))), unknown(o), "{o}");
        }
        let (code, out, _) = b.run("dpkg --status wget");
        assert_eq!(code, 0);
        assert!(out.starts_with("Package: wget\nStatus: install ok installed\n"));
        // What follows the action is operands, dashes and all.
        let (code, _, e) = b.run("dpkg -s -- wget");
        assert_eq!(code, 1);
        assert!(e.starts_with("dpkg-query: package '--' is not installed"));
        assert_eq!(b.run("dpkg --print-architecture x").1, "amd64\n");
        assert_eq!(
            err(b.root("dpkg -i -- x.deb")),
            (
                1,
                "dpkg: error: cannot access archive '--': No such file or directory\ndpkg: error: cannot access archive 'x.deb': No such file or directory\n".to_string()
            )
        );
    }
}
