//! The checks of the Core SDK labs: its repositories, its packages and links, what a new login
//! runs, and that the legacy stream is gone. Each reads the machine's files and state only.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::content::Msg;
use crate::lab::wire::layout::{host_path, resolve};
use crate::sim::pkgs::{self, KeyCheck, Repo, Source};
use crate::sim::{State, catalog, coresdk};

/// Key, then lists: the reasons apt would not install from `src` yet.
fn trusted_and_read(root: &Path, st: &State, src: &Source, key_msg: Msg) -> Result<(), Msg> {
    if pkgs::check_key(root, src) != KeyCheck::Ok {
        return Err(key_msg);
    }
    if st.apt_lists.contains(&src.list_key()) {
        Ok(())
    } else {
        Err(Msg::new("sdk-why-update").arg("file", &src.file))
    }
}

pub fn driver_repo(root: &Path, st: &State) -> Result<(), Msg> {
    let all = pkgs::sources(root);
    let Some(src) = all
        .iter()
        .find(|s| pkgs::classify(&s.uri) == Repo::CoreDriver)
    else {
        // A driver line of the legacy stream (6.x numbers, or 7.x's 30.x line).
        if let Some(old) = all
            .iter()
            .find(|s| matches!(pkgs::classify(&s.uri), Repo::AmdGpu(_)))
        {
            return Err(Msg::new("sdk-why-driver-legacy")
                .arg("file", &old.file)
                .arg("uri", &old.uri)
                .arg("line", coresdk::DRIVER_LINE));
        }
        return Err(Msg::new("sdk-why-no-driver-repo").arg("line", coresdk::DRIVER_LINE));
    };
    let os = &st.machine.os;
    if src.suite != os.codename {
        return Err(Msg::new("lab-why-repo-codename")
            .arg("file", &src.file)
            .arg("suite", &src.suite)
            .arg("os", &os.pretty)
            .arg("codename", &os.codename));
    }
    let key = Msg::new("sdk-why-driver-key").arg("file", &src.file);
    trusted_and_read(root, st, src, key)
}

pub fn sdk_repo(root: &Path, st: &State) -> Result<(), Msg> {
    let all = pkgs::sources(root);
    let want = coresdk::os_dir(&st.machine.os.version_id);
    let sdk: Vec<&Source> = all
        .iter()
        .filter(|s| matches!(pkgs::classify(&s.uri), Repo::CoreSdk(_)))
        .collect();
    if sdk.is_empty() {
        if let Some(s) = all.iter().find(|s| pkgs::host_of(&s.uri) == coresdk::HOST) {
            return Err(Msg::new("sdk-why-uri")
                .arg("file", &s.file)
                .arg("uri", &s.uri)
                .arg(
                    "want",
                    format!("https://{}/rocm/core/packages/{want}/", coresdk::HOST),
                ));
        }
        return Err(Msg::new("sdk-why-no-repo"));
    }
    if let Some(s) = sdk
        .iter()
        .find(|s| pkgs::classify(&s.uri) != Repo::CoreSdk(static_dir(&want)))
    {
        return Err(Msg::new("sdk-why-os")
            .arg("file", &s.file)
            .arg("uri", &s.uri)
            .arg("os", &st.machine.os.pretty)
            .arg("want", &want));
    }
    if let Some(s) = sdk.iter().find(|s| s.suite != "stable") {
        return Err(Msg::new("sdk-why-suite")
            .arg("file", &s.file)
            .arg("suite", &s.suite));
    }
    let src = sdk[0];
    let key = Msg::new("sdk-why-key")
        .arg("file", &src.file)
        .arg("keyring", coresdk::KEYRING)
        .arg("url", coresdk::KEY_URL);
    trusted_and_read(root, st, src, key)
}

/// The package directory names are few and static; compare against the static one.
fn static_dir(dir: &str) -> &'static str {
    coresdk::OS_DIRS
        .iter()
        .copied()
        .find(|d| *d == dir)
        .unwrap_or("")
}

pub fn installed(root: &Path, st: &State) -> Result<(), Msg> {
    let gfx: Vec<String> = st.machine.gpus.iter().map(|g| g.gfx.clone()).collect();
    let cores: Vec<Option<&str>> = st
        .packages
        .keys()
        .filter_map(|n| coresdk::core_target(n))
        .collect();
    let fits = cores
        .iter()
        .any(|t| t.is_none_or(|t| gfx.iter().any(|g| g == t)));
    if !fits {
        if let Some(Some(t)) = cores.first() {
            return Err(Msg::new("sdk-why-target")
                .arg("target", *t)
                .arg("gpu", gfx.join(", ")));
        }
        return Err(Msg::new("sdk-why-not-installed").arg("version", coresdk::SERIES));
    }
    // The packages' files must be where /opt/rocm/bin leads (a legacy /opt/rocm link catches
    // them otherwise).
    let bin = format!("{}/bin", coresdk::PREFIX);
    let leads = crate::machine_path::resolve("/opt/rocm/bin", |p| host_path(root, p));
    let tree = resolve(root, &format!("{bin}/rocminfo")).is_some_and(|h| h.is_file());
    match leads {
        Some(end) if end == bin && tree => Ok(()),
        _ => Err(Msg::new("sdk-why-links").arg("prefix", coresdk::PREFIX)),
    }
}

/// Where `command` is on `path` as the machine sees it (links followed), if anywhere.
fn found(root: &Path, path: &str, command: &str) -> Option<String> {
    path.split(':')
        .filter(|d| d.starts_with('/'))
        .find_map(|dir| {
            let inside = format!("{}/{command}", dir.trim_end_matches('/'));
            let end = crate::machine_path::resolve(&inside, |p| host_path(root, p))?;
            let host = host_path(root, &end);
            let m = std::fs::metadata(host).ok()?;
            (m.is_file() && m.permissions().mode() & 0o111 != 0).then_some(end)
        })
}

pub fn login(root: &Path, path: &str, commands: &[String]) -> Result<(), Msg> {
    for dir in path.split(':') {
        // /opt/rocm/bin and the like come back with the Core SDK: a missing one is that
        // step's to report. A versioned tree (/opt/rocm-7.2.0) does not come back.
        let legacy = dir.starts_with("/opt/rocm-");
        let gone = legacy && resolve(root, dir).is_none_or(|h| !h.is_dir());
        if gone {
            return Err(Msg::new("sdk-why-stale-path").arg("dir", dir));
        }
    }
    for c in commands {
        match found(root, path, c) {
            None => return Err(Msg::new("sdk-why-login-missing").arg("command", c)),
            Some(end) if !end.starts_with(&format!("{}/", coresdk::PREFIX)) => {
                return Err(Msg::new("sdk-why-login-other")
                    .arg("command", c)
                    .arg("found", end));
            }
            Some(_) => {}
        }
    }
    let dirs: Vec<&str> = path.split(':').collect();
    if crate::lab::sandbox::path_dirs::on_path(&dirs, "/usr/bin") {
        Ok(())
    } else {
        Err(Msg::new("machine-why-login-tools")
            .arg("command", commands.join(", "))
            .arg("lost", "ls, grep, cat"))
    }
}

/// A package of the legacy stream's ROCm repository (the driver may stay: 30.x works with
/// the Core SDK).
fn legacy_package(name: &str, release: Option<&str>) -> bool {
    release.is_some_and(|r| catalog::release(r).is_some())
        && !name.starts_with("amdgpu-")
        && name != "amdgpu-install"
}

pub fn legacy_removed(root: &Path, st: &State) -> Result<(), Msg> {
    let left: Vec<&String> = st
        .packages
        .iter()
        .filter(|(n, i)| legacy_package(n, i.release.as_deref()))
        .map(|(n, _)| n)
        .collect();
    if !left.is_empty() {
        let mut shown: Vec<&str> = left.iter().take(4).map(|s| s.as_str()).collect();
        if left.len() > 4 {
            shown.push("...");
        }
        return Err(Msg::new("sdk-why-legacy-packages")
            .arg("count", left.len())
            .arg("packages", shown.join(", ")));
    }
    if let Some(s) = pkgs::sources(root)
        .into_iter()
        .find(|s| matches!(pkgs::classify(&s.uri), Repo::Rocm(_)))
    {
        return Err(Msg::new("sdk-why-legacy-repo")
            .arg("file", &s.file)
            .arg("uri", &s.uri));
    }
    for r in catalog::RELEASES {
        let dir = r.rocm_dir();
        if resolve(root, &dir).is_some_and(|h| h.exists()) {
            return Err(Msg::new("sdk-why-legacy-tree").arg("dir", dir));
        }
    }
    Ok(())
}

/// The lines of a shell script that run something (comments and blank lines left out).
fn commands(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Whether `line` runs `cmd` as a command word (not as part of another word).
fn runs(line: &str, cmd: &str) -> bool {
    line.split(|c: char| c.is_whitespace() || ";|&()`$".contains(c))
        .any(|w| w == cmd || w.ends_with(&format!("/{cmd}")))
}

pub fn replaced(root: &Path, path: &str, old: &str, new: &str) -> Result<(), Msg> {
    let Some(text) = resolve(root, path).and_then(|h| std::fs::read_to_string(h).ok()) else {
        return Err(Msg::new("sdk-why-script-gone").arg("path", path));
    };
    let lines = commands(&text);
    if lines.iter().any(|l| runs(l, old)) {
        return Err(Msg::new("sdk-why-script-old")
            .arg("path", path)
            .arg("old", old)
            .arg("new", new));
    }
    if lines.iter().any(|l| runs(l, new)) {
        Ok(())
    } else {
        Err(Msg::new("sdk-why-script-new")
            .arg("path", path)
            .arg("new", new))
    }
}

#[cfg(test)]
mod tests {
    use super::runs;

    #[test]
    fn a_command_word_counts_and_a_longer_word_does_not() {
        assert!(runs("rocm-smi --showuse", "rocm-smi"));
        assert!(runs("out=$(rocm-smi -a)", "rocm-smi"));
        assert!(runs("/opt/rocm/bin/amd-smi list", "amd-smi"));
        assert!(!runs("echo rocm-smi-lib", "rocm-smi"));
        assert!(!runs("amd-smi-helper", "amd-smi"));
    }
}
