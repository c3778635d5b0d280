//! `apt remove`, `purge`, `autoremove` and `clean`: what AMD's uninstall steps run (`sudo apt
//! autoremove rocm`, `sudo apt-get clean all`) before the Core SDK goes on.
//!
//! Texts follow apt 2.x transcripts: `The following packages will be REMOVED:` (a `*` after
//! each name when purging), `N to remove`, `After this operation, … disk space will be
//! freed.`, `Removing NAME (VERSION) ...`, `Package 'x' is not installed, so not removed`, and
//! the note on automatically installed packages no longer required.

use std::collections::{BTreeMap, BTreeSet};

use super::super::catalog::{self, Origin, Package, Payload};
use super::super::{Ctx, alternatives, coresdk, fsx};

const DPKG_LOCK: &[&str] = &[
    "E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)",
    "E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?",
];

/// The operations of this file; `None` for the others.
pub fn dispatch(
    cx: &mut Ctx,
    op: &str,
    operands: &[String],
    yes: bool,
    purge: bool,
) -> Option<i32> {
    match op {
        "remove" | "purge" | "autoremove" => Some(remove(cx, op, operands, yes, purge)),
        "clean" | "autoclean" => Some(clean(cx)),
        _ => None,
    }
}

/// `clean` empties the package cache: nothing to show. (`apt-get clean all`, as AMD's
/// uninstall steps write it, ignores the extra word.)
pub fn clean(cx: &mut Ctx) -> i32 {
    if !cx.caller.is_root() {
        for l in DPKG_LOCK {
            cx.eprintln(l);
        }
        return 100;
    }
    0
}

/// Every package the machine's dpkg could know: what the catalogues hold for the releases
/// installed, so a package stays removable after its repository line is gone.
pub(super) fn known(cx: &Ctx) -> Vec<Package> {
    let m = &cx.state.machine;
    let os = m.os.version_id.clone();
    let mut all = catalog::ubuntu_packages(m);
    for r in catalog::RELEASES {
        all.extend(catalog::amd_packages(r, Origin::Rocm, &os));
        all.extend(catalog::amd_packages(r, Origin::AmdGpu, &os));
    }
    all.extend(coresdk::packages(&os));
    all.extend(coresdk::all_driver_packages(&os));
    all
}

/// The package an installed name is, in the catalogue of its release.
fn lookup<'a>(known: &'a [Package], name: &str, release: Option<&str>) -> Option<&'a Package> {
    known
        .iter()
        .filter(|p| p.name == name)
        .find(|p| release.is_none() || p.release == release)
        .or_else(|| known.iter().find(|p| p.name == name))
}

/// The installed packages that depend on `name`.
fn dependents(cx: &Ctx, known: &[Package], name: &str) -> Vec<String> {
    cx.state
        .packages
        .iter()
        .filter(|(n, i)| {
            lookup(known, n, i.release.as_deref())
                .is_some_and(|p| p.depends.iter().any(|d| d == name))
        })
        .map(|(n, _)| n.clone())
        .collect()
}

/// Automatically installed packages nothing kept needs any more.
fn unneeded(cx: &Ctx, known: &[Package], going: &BTreeSet<String>) -> BTreeSet<String> {
    let mut needed: BTreeSet<String> = BTreeSet::new();
    let mut todo: Vec<String> = cx
        .state
        .packages
        .iter()
        .filter(|(n, i)| !i.auto && !going.contains(*n))
        .map(|(n, _)| n.clone())
        .collect();
    while let Some(n) = todo.pop() {
        if !needed.insert(n.clone()) {
            continue;
        }
        let rel = cx.state.packages.get(&n).and_then(|i| i.release.clone());
        if let Some(p) = lookup(known, &n, rel.as_deref()) {
            for d in &p.depends {
                if cx.state.installed(d) && !going.contains(d) {
                    todo.push(d.clone());
                }
            }
        }
    }
    cx.state
        .packages
        .iter()
        .filter(|(n, i)| i.auto && !needed.contains(*n) && !going.contains(*n))
        .map(|(n, _)| n.clone())
        .collect()
}

fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

pub fn remove(cx: &mut Ctx, op: &str, operands: &[String], yes: bool, purge: bool) -> i32 {
    if !cx.caller.is_root() {
        for l in DPKG_LOCK {
            cx.eprintln(l);
        }
        return 100;
    }
    let purge = purge || op == "purge";
    let known = known(cx);
    cx.println("Reading package lists... Done");
    cx.println("Building dependency tree... Done");
    cx.println("Reading state information... Done");
    let mut going: BTreeSet<String> = BTreeSet::new();
    for o in operands {
        if is_glob(o) {
            let hits: Vec<String> = cx
                .state
                .packages
                .keys()
                .filter(|n| super::super::udev::glob(o, n))
                .cloned()
                .collect();
            if hits.is_empty() {
                cx.eprintln(&format!("E: Unable to locate package {o}"));
                return 100;
            }
            for h in hits {
                cx.println(&format!("Note, selecting '{h}' for glob '{o}'"));
                going.insert(h);
            }
        } else if cx.state.installed(o) {
            going.insert(o.clone());
        } else if known.iter().any(|p| &p.name == o) {
            cx.println(&format!("Package '{o}' is not installed, so not removed"));
        } else {
            cx.eprintln(&format!("E: Unable to locate package {o}"));
            return 100;
        }
    }
    // What depends on a package that goes, goes too.
    let mut todo: Vec<String> = going.iter().cloned().collect();
    while let Some(n) = todo.pop() {
        for d in dependents(cx, &known, &n) {
            if going.insert(d.clone()) {
                todo.push(d);
            }
        }
    }
    let left = unneeded(cx, &known, &going);
    if op == "autoremove" {
        going.extend(left);
    } else if !left.is_empty() {
        cx.println(
            "The following packages were automatically installed and are no longer required:",
        );
        cx.print(&super::apt_size::wrap_list(
            &left.iter().cloned().collect::<Vec<_>>(),
        ));
        cx.println("Use 'sudo apt autoremove' to remove them.");
    }
    if going.is_empty() {
        cx.println("0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.");
        return 0;
    }
    let star = if purge { "*" } else { "" };
    let names: Vec<String> = going.iter().map(|n| format!("{n}{star}")).collect();
    cx.println("The following packages will be REMOVED:");
    cx.print(&super::apt_size::wrap_list(&names));
    cx.println(&format!(
        "0 upgraded, 0 newly installed, {} to remove and 0 not upgraded.",
        going.len()
    ));
    let freed: u64 = going
        .iter()
        .filter_map(|n| {
            let rel = cx.state.packages.get(n).and_then(|i| i.release.clone());
            lookup(&known, n, rel.as_deref()).map(|p| p.installed_kb * 1000)
        })
        .sum();
    cx.println(&format!(
        "After this operation, {} disk space will be freed.",
        super::apt_size::size(freed)
    ));
    if !yes {
        let answer = cx.ask("Do you want to continue? [Y/n] ");
        if answer.is_none() {
            cx.println("");
        }
        if !matches!(
            answer.as_deref().map(str::trim),
            Some("" | "y" | "Y" | "yes" | "Yes")
        ) {
            cx.println("Abort.");
            return 1;
        }
    }
    cx.println("(Reading database ... 96113 files and directories currently installed.)");
    for n in order(cx, &known, &going) {
        let Some(inst) = cx.state.packages.get(&n).cloned() else {
            continue;
        };
        cx.println(&format!("Removing {n} ({}) ...", inst.version));
        let p = lookup(&known, &n, inst.release.as_deref()).cloned();
        if let Some(p) = p {
            let lines = take_files(cx, &p);
            lines.iter().for_each(|l| cx.println(l));
        }
        cx.state.packages.remove(&n);
        leave_tree(cx, &n, inst.release.as_deref());
    }
    // dpkg's "Purging configuration files" lines need conffiles, which these packages are not
    // known to have: purging prints what removing does.
    0
}

/// Dependents first, as dpkg removes them.
fn order(cx: &Ctx, known: &[Package], going: &BTreeSet<String>) -> Vec<String> {
    let deps: BTreeMap<String, Vec<String>> = going
        .iter()
        .map(|n| {
            let rel = cx.state.packages.get(n).and_then(|i| i.release.clone());
            let d = lookup(known, n, rel.as_deref())
                .map(|p| p.depends.clone())
                .unwrap_or_default();
            (n.clone(), d)
        })
        .collect();
    let mut left: Vec<String> = going.iter().cloned().collect();
    let mut out = Vec::new();
    while !left.is_empty() {
        // A package nothing left to remove depends on.
        let i = left
            .iter()
            .position(|n| !left.iter().any(|m| deps[m].contains(n)))
            .unwrap_or(0);
        out.push(left.remove(i));
    }
    out
}

/// What removing a package takes off the disk, and what its postrm prints.
fn take_files(cx: &mut Ctx, p: &Package) -> Vec<String> {
    let root = cx.root;
    let now = cx.state.now();
    match (&p.payload, p.origin) {
        (_, Origin::CoreSdk) => {
            coresdk::remove(root, now, cx.state, p);
            Vec::new()
        }
        (Payload::RocmBins(tools), _) => {
            let dir = format!("/opt/rocm-{}/bin", p.release.unwrap_or_default());
            for t in *tools {
                let _ = std::fs::remove_file(fsx::host(root, &format!("{dir}/{t}"), "/"));
            }
            Vec::new()
        }
        (Payload::RocmLibs(libs), _) => {
            let dir = format!("/opt/rocm-{}/lib", p.release.unwrap_or_default());
            for l in *libs {
                let _ = std::fs::remove_file(fsx::host(root, &format!("{dir}/{l}"), "/"));
            }
            Vec::new()
        }
        (Payload::SystemBin(_, path), _) => {
            let _ = std::fs::remove_file(fsx::system_bin(root, path));
            Vec::new()
        }
        (Payload::DkmsModule, _) => {
            cx.state.dkms.retain(|d| d.module != "amdgpu");
            Vec::new()
        }
        _ if catalog::is_rocm_core(p) => {
            let path = format!("/opt/rocm-{}", p.release.unwrap_or_default());
            alternatives::unregister(root, now, "rocm", &path)
        }
        _ => Vec::new(),
    }
}

/// When the last package of a legacy release is gone, dpkg removes its folders if they are
/// empty, and warns about the one that is not.
fn leave_tree(cx: &mut Ctx, name: &str, release: Option<&str>) {
    let Some(v) = release.filter(|v| catalog::release(v).is_some()) else {
        return;
    };
    let still = cx.state.packages.values().any(|i| {
        i.release.as_deref() == Some(v) && i.version.contains(&format!("{}-", release_build(v)))
    });
    if still {
        return;
    }
    let dir = format!("/opt/rocm-{v}");
    let host = fsx::host(cx.root, &dir, "/");
    if !host.is_dir() {
        return;
    }
    prune(&host);
    if host.exists() {
        cx.println(&format!(
            "dpkg: warning: while removing {name}, directory '{dir}' not empty so not removed"
        ));
    }
}

/// `70200` for 7.2.0: what the ROCm packages' versions carry (the driver's do not).
fn release_build(v: &str) -> &'static str {
    catalog::release(v).map_or("", |r| r.build)
}

/// Removes empty folders from the bottom up (never a file).
fn prune(dir: &std::path::Path) {
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                prune(&e.path());
            }
        }
    }
    let _ = std::fs::remove_dir(dir);
}
