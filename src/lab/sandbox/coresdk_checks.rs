//! The checks of the Core SDK labs: its repositories, its packages and links, what a new login
//! runs, and that the legacy stream is gone. Each reads the machine's files and state only.

use std::path::Path;

use crate::content::Msg;
use crate::lab::sandbox::runnable::{Rights, runnable};
use crate::lab::sandbox::script_run::ScriptRun;
use crate::lab::wire::layout::{host_path, resolve};
use crate::sim::pkgs::{self, KeyCheck, Repo, Source};
use crate::sim::{State, catalog, coresdk};

/// Key, then lists: the reasons apt would not install from `src` yet.
fn trusted_and_read(root: &Path, st: &State, src: &Source, key_msg: Msg) -> Result<(), Msg> {
    match pkgs::check_key(root, src) {
        KeyCheck::Ok => {}
        KeyCheck::NotReadable(f) => {
            return Err(Msg::new("sdk-why-key-unreadable")
                .arg("file", &src.file)
                .arg("keyring", f));
        }
        _ => return Err(key_msg),
    }
    if st.apt_lists.contains(&src.list_key()) {
        Ok(())
    } else {
        Err(Msg::new("sdk-why-update").arg("file", &src.file))
    }
}

/// A `.sources` stanza apt finds malformed: apt then reads no source at all.
pub fn readable_sources(root: &Path) -> Result<(), Msg> {
    match pkgs::malformed(root) {
        Some((file, n, what)) => Err(Msg::new("sdk-why-malformed")
            .arg("file", file)
            .arg("entry", n)
            .arg("field", what)),
        None => Ok(()),
    }
}

pub fn driver_repo(root: &Path, st: &State) -> Result<(), Msg> {
    readable_sources(root)?;
    let all = pkgs::sources(root);
    let current = |s: &&Source| pkgs::classify(&s.uri) == Repo::CoreDriver(coresdk::CURRENT);
    let Some(src) = all.iter().find(current) else {
        // The driver line of an older Core SDK release (31.50 for 10.0).
        if let Some(old) = all
            .iter()
            .find(|s| matches!(pkgs::classify(&s.uri), Repo::CoreDriver(_)))
        {
            return Err(Msg::new("sdk-why-driver-older")
                .arg("file", &old.file)
                .arg("uri", &old.uri)
                .arg("version", coresdk::VERSION)
                .arg("line", coresdk::DRIVER_LINE));
        }
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
    readable_sources(root)?;
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
        .filter_map(|n| coresdk::core_package(n))
        .filter(|(r, _)| *r == coresdk::CURRENT)
        .map(|(_, t)| t)
        .collect();
    let fits = cores
        .iter()
        .any(|t| t.is_none_or(|t| gfx.iter().any(|g| g == t)));
    if !fits {
        // Only an older release (a page or a paste for 10.0) for this node's GPU.
        if let Some(old) = older_release(st, &gfx) {
            return Err(Msg::new("sdk-why-older-release")
                .arg("installed", old)
                .arg("version", coresdk::SERIES));
        }
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

/// The series of an older Core SDK installed for this node's GPU, if one is.
fn older_release(st: &State, gfx: &[String]) -> Option<&'static str> {
    st.packages
        .keys()
        .filter_map(|n| coresdk::core_package(n))
        .find(|(r, t)| *r != coresdk::CURRENT && t.is_none_or(|t| gfx.iter().any(|g| g == t)))
        .map(|(r, _)| r.series)
}

/// Where `command` is on `path` as the machine sees it (links followed), if a new login of
/// the learner finds it there and may run it.
fn found(root: &Path, path: &str, command: &str) -> Option<String> {
    let who = Rights::new_login(root);
    path.split(':')
        .filter(|d| d.starts_with('/'))
        .find_map(|dir| {
            runnable(
                root,
                &format!("{}/{command}", dir.trim_end_matches('/')),
                &who,
            )
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

/// Runs `command` in a new login as the learner: rocminfo needs the driver loaded and
/// /dev/kfd open to the groups a new login gets.
pub fn login_gpu(root: &Path, st: &State, commands: &[String]) -> Result<(), Msg> {
    let Some(c) = commands.iter().find(|c| *c == "rocminfo") else {
        return Ok(());
    };
    if !st.is_module_loaded() {
        return Err(Msg::new("sdk-why-login-no-driver").arg("command", c));
    }
    let Some(kfd) = st.device("/dev/kfd") else {
        return Err(Msg::new("sdk-why-login-no-driver").arg("command", c));
    };
    let Some(pw) = crate::sim::accounts::user_by_uid(root, crate::lab::wire::layout::LEARNER_UID)
    else {
        return Ok(());
    };
    let gids = crate::sim::accounts::db_gids(root, &pw);
    let node = (kfd.owner.as_str(), kfd.group.as_str(), kfd.mode);
    if crate::sim::accounts::may_read_write_named(root, node, pw.uid, &gids) {
        Ok(())
    } else {
        Err(Msg::new("sdk-why-login-kfd")
            .arg("command", c)
            .arg("owner", &kfd.owner)
            .arg("group", &kfd.group)
            .arg("mode", format!("{:04o}", kfd.mode)))
    }
}

/// Whether the script's run tried `tool`: it ran (`ran`, the tools of its session), or the
/// shell could not find it.
fn tried(run: &ScriptRun, ran: &[(String, i32)], tool: &str) -> bool {
    ran.iter().any(|(t, _)| t == tool)
        || run.stderr.lines().any(|l| {
            l.ends_with(&format!("{tool}: not found"))
                || l.ends_with(&format!("{tool}: command not found"))
        })
}

/// The script at `path`, run from a new login as the learner runs it, calls `new` and no
/// longer `old`, and ends well.
pub fn replaced(
    root: &Path,
    path: &str,
    old: &str,
    new: &str,
    run: Option<&ScriptRun>,
) -> Result<(), Msg> {
    if !resolve(root, path).is_some_and(|h| h.is_file()) {
        return Err(Msg::new("sdk-why-script-gone").arg("path", path));
    }
    let run = run.ok_or_else(|| Msg::new("lab-why-no-shell"))?;
    let ran = crate::sim::ran::in_session(root, &run.session);
    if run.hung {
        return Err(Msg::new("sdk-why-script-hung").arg("path", path).arg(
            "seconds",
            crate::lab::sandbox::script_run::TIME_LIMIT.as_secs(),
        ));
    }
    if tried(run, &ran, old) {
        return Err(Msg::new("sdk-why-script-old")
            .arg("path", path)
            .arg("old", old)
            .arg("new", new));
    }
    let failed = ran.iter().any(|(t, c)| t == new && *c != 0);
    match run.status {
        Some(0) if !failed => {}
        status => {
            return Err(Msg::new("sdk-why-script-fails")
                .arg("path", path)
                .arg("status", status.unwrap_or(1))
                .arg("error", run.first_error()));
        }
    }
    if ran.iter().any(|(t, _)| t == new) {
        Ok(())
    } else {
        Err(Msg::new("sdk-why-script-new")
            .arg("path", path)
            .arg("new", new))
    }
}
