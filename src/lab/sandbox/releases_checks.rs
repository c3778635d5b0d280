//! Checks of the several-releases lab: which ROCm release /opt/rocm means, through Debian's
//! alternatives, and whether that choice survives the next package update; and which release
//! a new login's tools come from.

use std::path::Path;

use crate::content::Msg;
use crate::lab::sandbox::path_dirs::on_path;
use crate::lab::sandbox::runnable::{Rights, runnable};
use crate::sim::State;
use crate::sim::alternatives::{ADMINDIR, ALTDIR, Choice, Group, Status};
use crate::sim::catalog;
use crate::sim::fsx;

/// /opt/rocm leads to `release` through /etc/alternatives/rocm, and a reinstall of any
/// release's rocm-core (what an update does) would leave it there.
pub fn rocm_default(root: &Path, state: &State, release: &str) -> Result<(), Msg> {
    // Every release the machine has installed keeps its tree: others still need them.
    for (name, p) in &state.packages {
        let Some(v) = p.release.as_deref() else {
            continue;
        };
        if name.starts_with("rocm-core") && !root.join(format!("opt/rocm-{v}")).is_dir() {
            return Err(Msg::new("alt-why-tree-removed").arg("release", v));
        }
    }
    let want = format!("/opt/rocm-{release}");
    let Some(group) = fsx::read_opt(&root.join(ADMINDIR.trim_start_matches('/')).join("rocm"))
        .and_then(|t| Group::parse("rocm", &t, |_| true, &mut Vec::new()).ok())
    else {
        return Err(Msg::new("alt-why-no-group"));
    };
    let on_host = |p: &str| crate::lab::wire::layout::host_path(root, p);
    let end = crate::machine_path::resolve("/opt/rocm", on_host);
    if end.as_deref() != Some(want.as_str()) {
        return Err(Msg::new("alt-why-points-elsewhere")
            .arg("now", end.unwrap_or_else(|| "-".into()))
            .arg("release", release));
    }
    let link = std::fs::read_link(root.join("opt/rocm"))
        .map(|t| t.to_string_lossy().into_owned())
        .unwrap_or_default();
    if link != format!("{ALTDIR}/rocm") {
        return Err(Msg::new("alt-why-link-bypassed")
            .arg("target", link)
            .arg("release", release));
    }
    if group.choice(&want).is_none() {
        return Err(Msg::new("alt-why-not-registered").arg("release", release));
    }
    if group.status() == Status::Auto {
        let best = after_update(&group, state, &want);
        if best != want {
            return Err(Msg::new("alt-why-auto-moves-back")
                .arg("release", release)
                .arg("best", best));
        }
    }
    Ok(())
}

/// Where an auto-mode group points once every installed release's rocm-core has run its
/// postinst again (an update): each registers its tree with its own priority, and the highest
/// wins (the current choice on a tie).
fn after_update(group: &Group, state: &State, current: &str) -> String {
    let mut g = group.clone();
    for (name, p) in &state.packages {
        let Some(r) = p.release.as_deref().and_then(catalog::release) else {
            continue;
        };
        if name == "rocm-core" || *name == format!("rocm-core{}", r.version) {
            g.add_choice(Choice {
                path: r.rocm_dir(),
                priority: r.alt_priority,
                slaves: Vec::new(),
            });
        }
    }
    g.best(Some(current))
        .map(|b| b.path.clone())
        .unwrap_or_default()
}

/// The first `command` on a new login's PATH (as bash finds it) is `release`'s, and the
/// login keeps the everyday commands.
pub fn login_release(root: &Path, path: &str, command: &str, release: &str) -> Result<(), Msg> {
    let home = "/home/learner";
    let who = Rights::new_login(root);
    let found = path.split(':').find_map(|dir| {
        let dir = match dir {
            "" | "." => home.to_string(),
            d if d.starts_with('/') => d.trim_end_matches('/').to_string(),
            d => format!("{home}/{d}"),
        };
        let end = runnable(root, &format!("{dir}/{command}"), &who)?;
        Some((dir, end))
    });
    let Some((dir, inside)) = found else {
        return Err(Msg::new("lab-why-login-path").arg("command", command));
    };
    let have = inside
        .strip_prefix("/opt/rocm-")
        .and_then(|r| r.split('/').next())
        .unwrap_or("-")
        .to_string();
    if have != release {
        let id = if dir == "/opt/rocm/bin" {
            "alt-why-login-via-rocm"
        } else {
            "alt-why-login-pinned"
        };
        return Err(Msg::new(id)
            .arg("command", command)
            .arg("dir", dir)
            .arg("have", have)
            .arg("release", release));
    }
    let dirs: Vec<&str> = path.split(':').collect();
    if !on_path(&dirs, "/usr/bin") {
        return Err(Msg::new("machine-why-login-tools")
            .arg("command", command)
            .arg("lost", "ls, grep, cat"));
    }
    Ok(())
}
