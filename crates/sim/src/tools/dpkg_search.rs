//! `dpkg -S` / `dpkg-query -S PATTERN`: which installed package owns a path. Only the files
//! the simulator lays out from package data are known (the Core SDK's trees, a legacy
//! release's programs, a package's own program in /usr/bin or /usr/sbin such as dkms's); an
//! alternatives link (/usr/bin/rocminfo, /opt/rocm/bin) belongs to no package, so dpkg finds
//! no path for it, as on a real node.
//!
//! dpkg-query's rules (man dpkg-query, `--search`): a pattern with no `/` and no wildcard
//! matches any path containing it; otherwise it is a shell glob over the whole path (an
//! absolute path is matched whole). Each match prints `PACKAGE[, PACKAGE...]: PATH`.

use std::collections::BTreeMap;

use super::super::Ctx;
use super::super::catalog::{Package, Payload};

/// Every path an installed package owns, with its owners.
fn owners(cx: &Ctx) -> BTreeMap<String, Vec<String>> {
    let known = super::apt_remove::known(cx);
    let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (name, inst) in &cx.state.packages {
        let p = known
            .iter()
            .filter(|p| p.name == *name)
            .find(|p| inst.release.is_none() || p.release == inst.release.as_deref());
        let Some(p) = p else { continue };
        for f in files(p) {
            let o = map.entry(f).or_default();
            if !o.contains(name) {
                o.push(name.clone());
            }
        }
    }
    map
}

fn files(p: &Package) -> Vec<String> {
    let mut v = super::super::coresdk::files(p);
    if let (Payload::RocmBins(tools), Some(r)) = (&p.payload, p.release) {
        let bin = format!("/opt/rocm-{r}/bin");
        v.extend(["/opt".into(), format!("/opt/rocm-{r}"), bin.clone()]);
        v.extend(tools.iter().map(|t| format!("{bin}/{t}")));
    }
    // Ubuntu's /usr/bin/python3 is python3-minimal's, a package this machine does not list.
    if let Payload::SystemBin(_, path) = p.payload
        && path != "/usr/bin/python3"
    {
        v.push(path.to_string());
    }
    v
}

/// Whether `path` matches `pattern` by dpkg-query's rules.
fn matches(pattern: &str, path: &str) -> bool {
    let wild = pattern.contains(['*', '?', '[']);
    if !wild && !pattern.contains('/') {
        return path.contains(pattern);
    }
    if !wild {
        return path == pattern.trim_end_matches('/') || (pattern == "/" && path == "/");
    }
    // udev's matcher is fnmatch without flags (its `|` never occurs in these paths).
    super::super::udev::glob(pattern, path)
}

pub fn run(cx: &mut Ctx, patterns: &[String]) -> i32 {
    if patterns.is_empty() {
        cx.eprintln("dpkg-query: error: --search needs at least one file name pattern argument\n\nUse --help for help about querying packages.");
        return 2;
    }
    let map = owners(cx);
    let mut failed = false;
    for pat in patterns {
        let hits: Vec<(&String, &Vec<String>)> =
            map.iter().filter(|(path, _)| matches(pat, path)).collect();
        if hits.is_empty() {
            cx.eprintln(&format!("dpkg-query: no path found matching pattern {pat}"));
            failed = true;
        }
        for (path, pkgs) in hits {
            cx.println(&format!("{}: {path}", pkgs.join(", ")));
        }
    }
    i32::from(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_follow_dpkg_query() {
        assert!(matches("rocminfo", "/opt/rocm/core-10.1/bin/rocminfo"));
        assert!(matches(
            "/opt/rocm/core-10.1/bin/rocminfo",
            "/opt/rocm/core-10.1/bin/rocminfo"
        ));
        assert!(!matches(
            "/usr/bin/rocminfo",
            "/opt/rocm/core-10.1/bin/rocminfo"
        ));
        assert!(matches("*/bin/amd-smi", "/opt/rocm/core-10.1/bin/amd-smi"));
        assert!(matches(
            "/opt/rocm/core-10.[01]/bin/rocm-smi",
            "/opt/rocm/core-10.0/bin/rocm-smi"
        ));
        assert!(!matches(
            "/opt/rocm/core-10.[!0]/bin/rocm-smi",
            "/opt/rocm/core-10.0/bin/rocm-smi"
        ));
    }
}
