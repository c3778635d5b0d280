//! Checks of the managed-runtime lab: what AMD's `rocm` command has registered in the
//! learner's ~/.rocm, which runtime it keeps as the active default, and which runtime a new
//! login's programs come from. They read rocm-cli's own files and the login's PATH, never the
//! commands typed, so `install sdk` with approval, a later `runtimes activate`, a `--prefix`
//! folder or any startup file that puts the runtime first all pass alike.

use std::path::Path;

use crate::content::Msg;
use crate::lab::sandbox::path_dirs::on_path;
use crate::lab::wire::layout::host_path;
use crate::sim::rocm_runtimes::{self as rt, Manifest, Paths};

/// The learner's home, where rocm-cli keeps its folders.
const HOME: &str = "/home/learner";

fn paths() -> Paths {
    Paths::for_home(HOME)
}

/// A runtime of ROCm `version` for `family` is registered, whole, and with the compiler
/// toolchain when `toolchain`.
pub fn registered(root: &Path, version: &str, family: &str, toolchain: bool) -> Result<(), Msg> {
    let all = rt::manifests(root, &paths());
    if all.is_empty() {
        return Err(Msg::new("rt-why-none").arg("version", version));
    }
    let of_version: Vec<&Manifest> = all.iter().filter(|m| m.version == version).collect();
    if of_version.is_empty() {
        let mut have: Vec<&str> = all.iter().map(|m| m.version.as_str()).collect();
        have.dedup();
        return Err(Msg::new("rt-why-version")
            .arg("have", have.join(", "))
            .arg("version", version));
    }
    let Some(first) = of_version.first() else {
        return Err(Msg::new("rt-why-none").arg("version", version));
    };
    let fits: Vec<&&Manifest> = of_version.iter().filter(|m| m.family == family).collect();
    if fits.is_empty() {
        return Err(Msg::new("rt-why-family")
            .arg("have", first.family.as_str())
            .arg("family", family));
    }
    let whole: Vec<&&&Manifest> = fits.iter().filter(|m| rt::usable(root, m)).collect();
    let Some(any) = whole.first() else {
        return Err(Msg::new("rt-why-broken").arg("root", fits[0].install_root.as_str()));
    };
    if toolchain && !whole.iter().any(|m| m.toolchain) {
        return Err(Msg::new("rt-why-toolchain").arg("key", any.runtime_key.as_str()));
    }
    Ok(())
}

/// rocm-cli's active default is a whole runtime of ROCm `version`.
pub fn active(root: &Path, version: &str) -> Result<(), Msg> {
    let p = paths();
    let Some(key) = rt::config(root, &p).active_runtime_key else {
        return Err(Msg::new("rt-why-no-active"));
    };
    let Some(m) = rt::active(root, &p) else {
        return Err(Msg::new("rt-why-active-missing").arg("key", key));
    };
    if !rt::usable(root, &m) {
        return Err(Msg::new("rt-why-broken").arg("root", m.install_root));
    }
    if m.version != version {
        return Err(Msg::new("rt-why-active-other")
            .arg("key", m.runtime_key)
            .arg("have", m.version)
            .arg("version", version));
    }
    Ok(())
}

/// Where a login with `path` finds `command` first, as a path of the machine with every link
/// followed, and the PATH entry it was found through.
fn first_on_path(root: &Path, path: &str, command: &str) -> Option<(String, String)> {
    use std::os::unix::fs::PermissionsExt;
    path.split(':').find_map(|dir| {
        let dir = match dir {
            "" | "." => HOME.to_string(),
            d if d.starts_with('/') => d.trim_end_matches('/').to_string(),
            d => format!("{HOME}/{d}"),
        };
        let inside =
            crate::machine_path::resolve(&format!("{dir}/{command}"), |p| host_path(root, p))?;
        let m = std::fs::metadata(host_path(root, &inside)).ok()?;
        (m.is_file() && m.permissions().mode() & 0o111 != 0).then_some((inside, dir))
    })
}

/// A new login (PATH `path`) runs each of `commands` from the active runtime, keeps the
/// everyday programs, and the learner's own login (`session`) ran the runtime's
/// `rocm-sdk version`.
pub fn login(root: &Path, path: &str, session: &str, commands: &[String]) -> Result<(), Msg> {
    let p = paths();
    let Some(m) = rt::active(root, &p) else {
        return Err(Msg::new("rt-why-no-active"));
    };
    let inside_runtime = format!("{}/", m.install_root.trim_end_matches('/'));
    for command in commands {
        let Some((found, dir)) = first_on_path(root, path, command) else {
            return Err(Msg::new("rt-why-login-none")
                .arg("command", command.as_str())
                .arg("bin", m.sdk_bin()));
        };
        if found.starts_with(&inside_runtime) {
            continue;
        }
        let id = if found.starts_with("/opt/rocm") {
            "rt-why-login-system"
        } else {
            "rt-why-login-elsewhere"
        };
        return Err(Msg::new(id)
            .arg("command", command.as_str())
            .arg("dir", dir)
            .arg("bin", m.sdk_bin()));
    }
    let dirs: Vec<&str> = path.split(':').collect();
    if !on_path(&dirs, "/usr/bin") {
        return Err(Msg::new("machine-why-login-tools")
            .arg("command", commands.first().map_or("", String::as_str))
            .arg("lost", "ls, grep, cat"));
    }
    match rt::last_proof(root) {
        Some((s, dir, true)) if s == session && dir == m.install_root => Ok(()),
        Some((s, dir, false)) if s == session && dir == m.install_root => {
            Err(Msg::new("rt-why-proof-shell"))
        }
        _ => Err(Msg::new("rt-why-proof").arg("version", m.version)),
    }
}
