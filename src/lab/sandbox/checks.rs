//! Lab checks: each reads the lab's state (its files, the simulated machine, the live shell's
//! reported environment) and either passes or says why not, in words the learner can act on.
//! None of them looks at the command text, so every correct way passes.

use std::path::Path;

use crate::content::{Check, Msg};
use crate::lab::sandbox::path_dirs::on_path;
use crate::lab::sandbox::runnable::{Rights, runnable};
use crate::lab::sandbox::script_run::ScriptRun;
use crate::lab::wire::layout::resolve;
use crate::lab::wire::record::Record;
use crate::sim::pkgs::{self, KeyCheck, Repo};
use crate::sim::{State, accounts, kernel, udev};

/// What a check may look at.
pub struct Env<'a> {
    /// The stage folder (the machine's `/` as the host sees it).
    pub root: &'a Path,
    /// The simulated machine, or why it could not be read.
    pub state: Result<&'a State, &'a str>,
    /// The last record from the shell the learner types in.
    pub shell: Option<&'a Record>,
    /// PATH of a new login shell, when a check needs it (the runner asks the sandbox).
    pub login_path: Option<&'a str>,
    /// The whole environment of a new login shell, for the same checks.
    pub login_env: Option<&'a [(String, String)]>,
    /// How the script a check grades ran (`script_to_run`), from a new login.
    pub script_run: Option<&'a ScriptRun>,
}

/// The script a check grades by running it, if it is such a check (the runner runs it, from
/// a new login, so it also needs `needs_login_path`).
pub fn script_to_run(check: &Check) -> Option<&str> {
    match check {
        Check::ReplacedCommand { path, .. } => Some(path),
        _ => None,
    }
}

/// Checks that need a new login's environment (the runner computes it only for these).
pub fn needs_login_path(check: &Check) -> bool {
    matches!(
        check,
        Check::LoginCommand { .. }
            | Check::LoginGpuSelected
            | Check::LoginTorchWorks
            | Check::LoginRelease { .. }
            | Check::CoreSdkLogin { .. }
            | Check::LoginRuntime { .. }
            | Check::ReplacedCommand { .. }
    )
}

pub fn evaluate(check: &Check, env: &Env) -> Result<(), Msg> {
    let root = env.root;
    let state = || state(env);
    match check {
        Check::Groups { user, groups, keep } => check_groups(env, user, groups, keep),
        Check::SessionGroups { user, groups } => check_session_groups(env, user, groups),
        Check::KfdAccess => check_kfd_access(env),
        Check::CommandOnPath { command, keep } => check_command_on_path(env, command, keep),
        Check::LoginCommand { command } => check_login_command(env, command),
        Check::ModuleLoaded { module } => check_module_loaded(env, module),
        Check::ModulePersisted { module } => check_module_persisted(env, module),
        Check::UdevRule { device, mode } => check_udev_rule(env, device, *mode),
        Check::DeviceMode { device, mode } => check_device_mode(env, device, *mode),
        Check::Packages { all } => check_packages(env, all),
        Check::KernelHeaders => check_kernel_headers(env),
        Check::RocmRepo => check_rocm_repo(env),
        Check::RepoMatchesNode => check_repo_matches_node(env),
        Check::NodeLabel { label } => check_node_label(env, label),
        Check::DevicePlugin => check_device_plugin(env),
        Check::GpuPodRunning { namespace } => check_gpu_pod_running(env, namespace),
        Check::ContainerDevices | Check::ContainerRenderGroup | Check::ContainerGpu => {
            crate::lab::sandbox::modules_checks::container(check, root)
        }
        Check::BootsWithAmdgpu => crate::lab::sandbox::modules_checks::next_boot(root, state()?),
        Check::RocmDefault { release } => check_rocm_default(env, release),
        Check::LoginRelease { command, release } => check_login_release(env, command, release),
        Check::LoginGpuSelected | Check::LoginTorchWorks => {
            let login = env.login_env.ok_or_else(|| Msg::new("lab-why-no-shell"))?;
            crate::lab::sandbox::modules_checks::login_gpu(check, root, state()?, login)
        }
        Check::FileContains { path, text } => check_file_contains(env, path, text),
        Check::CoreSdkDriverRepo => {
            crate::lab::sandbox::coresdk_checks::driver_repo(root, state()?)
        }
        Check::CoreSdkRepo => crate::lab::sandbox::coresdk_checks::sdk_repo(root, state()?),
        Check::CoreSdkInstalled => crate::lab::sandbox::coresdk_checks::installed(root, state()?),
        Check::CoreSdkLogin { commands } => {
            let path = env.login_path.ok_or_else(|| Msg::new("lab-why-no-shell"))?;
            crate::lab::sandbox::coresdk_checks::login(root, path, commands)?;
            crate::lab::sandbox::coresdk_checks::login_gpu(root, state()?, commands)
        }
        Check::LegacyRemoved => crate::lab::sandbox::coresdk_checks::legacy_removed(root, state()?),
        Check::ReplacedCommand { path, old, new } => {
            crate::lab::sandbox::coresdk_checks::replaced(root, path, old, new, env.script_run)
        }
        Check::ManagedRuntime {
            version,
            family,
            toolchain,
        } => crate::lab::sandbox::runtime_checks::registered(root, version, family, *toolchain),
        Check::ActiveRuntime { version } => {
            crate::lab::sandbox::runtime_checks::active(root, version)
        }
        Check::LoginRuntime { commands } => {
            let path = env.login_path.ok_or_else(|| Msg::new("lab-why-no-shell"))?;
            let session = env.shell.map_or("", |r| r.session.as_str());
            crate::lab::sandbox::runtime_checks::login(root, path, session, commands)
        }
    }
}

/// The simulated machine, or why a check cannot read it.
fn state<'a>(env: &Env<'a>) -> Result<&'a State, Msg> {
    env.state
        .map_err(|e| Msg::new("lab-why-state-broken").arg("error", e))
}

/// The machine's Kubernetes cluster, or why a check of it cannot pass.
fn cluster(st: &State) -> Result<&crate::sim::k8s::Cluster, Msg> {
    st.cluster
        .as_ref()
        .ok_or_else(|| Msg::new("lab-why-no-cluster"))
}

fn check_groups(env: &Env, user: &str, groups: &[String], keep: &[String]) -> Result<(), Msg> {
    let root = env.root;
    let Some(db) = accounts::db_groups(root, user) else {
        return Err(Msg::new("lab-why-no-user").arg("user", user));
    };
    // Groups the learner had and lost (usermod -G without -a) first: that is the slip to fix.
    for (why, wanted) in [
        ("lab-why-groups-dropped", keep),
        ("lab-why-groups-missing", groups),
    ] {
        let absent: Vec<&String> = wanted.iter().filter(|g| !db.contains(g)).collect();
        if !absent.is_empty() {
            return Err(Msg::new(why)
                .arg("user", user)
                .arg("groups", join(&absent))
                .arg("csv", csv(&absent)));
        }
    }
    Ok(())
}

fn check_session_groups(env: &Env, user: &str, groups: &[String]) -> Result<(), Msg> {
    let root = env.root;
    let state = || state(env);
    let st = state()?;
    let rec = env.shell.ok_or_else(|| Msg::new("lab-why-no-shell"))?;
    let have = st.session_groups(root, &rec.session).unwrap_or_default();
    let missing: Vec<&String> = groups.iter().filter(|g| !have.contains(g)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let db = accounts::db_groups(root, user).unwrap_or_default();
    if missing.iter().all(|g| db.contains(g)) {
        Err(Msg::new("lab-why-session-old")
            .arg("user", user)
            .arg("groups", join(&missing))
            .arg("first", missing[0]))
    } else {
        Err(Msg::new("lab-why-groups-missing")
            .arg("user", user)
            .arg("groups", join(&missing))
            .arg("csv", csv(&missing)))
    }
}

fn check_kfd_access(env: &Env) -> Result<(), Msg> {
    let root = env.root;
    let state = || state(env);
    let st = state()?;
    if !st.is_module_loaded() {
        return Err(Msg::new("lab-why-module-not-loaded").arg("module", "amdgpu"));
    }
    let Some(kfd) = st.device("/dev/kfd") else {
        return Err(Msg::new("lab-why-no-device").arg("device", "/dev/kfd"));
    };
    let rec = env.shell.ok_or_else(|| Msg::new("lab-why-no-shell"))?;
    let session = st.session(&rec.session);
    let uid = session.map(|s| s.uid).unwrap_or(rec.uid);
    let gids: Vec<u32> = session.map(|s| s.gids.clone()).unwrap_or_default();
    let node = (kfd.owner.as_str(), kfd.group.as_str(), kfd.mode);
    if accounts::may_read_write_named(root, node, uid, &gids) {
        Ok(())
    } else {
        Err(Msg::new("lab-why-kfd-denied")
            .arg("owner", &kfd.owner)
            .arg("group", &kfd.group)
            .arg("mode", format!("{:04o}", kfd.mode)))
    }
}

fn check_command_on_path(env: &Env, command: &str, keep: &[String]) -> Result<(), Msg> {
    let root = env.root;
    let rec = env.shell.ok_or_else(|| Msg::new("lab-why-no-shell"))?;
    let dirs = rec.path_dirs();
    let lost: Vec<&String> = keep.iter().filter(|k| !on_path(&dirs, k)).collect();
    if !lost.is_empty() {
        return Err(Msg::new("lab-why-path-lost").arg("dirs", join(&lost)));
    }
    let st = env.state.ok();
    let session = st.and_then(|s| s.session(&rec.session));
    let who = match session {
        Some(s) => Rights::of(s.uid, s.gids.clone()),
        None => Rights::new_login(root),
    };
    if find_on_path(root, &rec.path, &rec.cwd, command, &who) {
        Ok(())
    } else {
        Err(Msg::new("lab-why-not-on-path")
            .arg("command", command)
            .arg("where", where_is(root, command)))
    }
}

fn check_login_command(env: &Env, command: &str) -> Result<(), Msg> {
    let root = env.root;
    let path = env.login_path.ok_or_else(|| Msg::new("lab-why-no-shell"))?;
    if !find_on_path(
        root,
        path,
        "/home/learner",
        command,
        &Rights::new_login(root),
    ) {
        // Nothing to find yet: the PATH may be right and ROCm simply not installed.
        if where_is(root, command) == "-" {
            return Err(Msg::new("lab-why-login-not-installed").arg("command", command));
        }
        return Err(Msg::new("lab-why-login-path").arg("command", command));
    }
    // The login must keep the everyday commands (ls, grep, ...), which live in /usr/bin.
    let dirs: Vec<&str> = path.split(':').collect();
    if on_path(&dirs, "/usr/bin") {
        Ok(())
    } else {
        Err(Msg::new("machine-why-login-tools")
            .arg("command", command)
            .arg("lost", "ls, grep, cat"))
    }
}

fn check_module_loaded(env: &Env, module: &str) -> Result<(), Msg> {
    let state = || state(env);
    if state()?.is_module_loaded() {
        Ok(())
    } else {
        Err(Msg::new("lab-why-module-not-loaded").arg("module", module))
    }
}

fn check_module_persisted(env: &Env, module: &str) -> Result<(), Msg> {
    let root = env.root;
    let state = || state(env);
    // Boot a copy of the machine from its configuration as it is now.
    let st = state()?;
    if kernel::next_boot_loads_amdgpu(st, root) {
        return Ok(());
    }
    Err(boot_problem(root, st, module))
}

fn check_udev_rule(env: &Env, device: &str, mode: u32) -> Result<(), Msg> {
    let root = env.root;
    let state = || state(env);
    let st = state()?;
    // A rule counts when it gives the mode to the node's "add" event (every boot and
    // every driver load) or to a "change" event (`udevadm trigger`).
    let add = rule_mode(root, st, device, udev::Action::Add);
    match rule_mode(root, st, device, udev::Action::Change) {
        Some(m) if m == mode => Ok(()),
        _ if add == Some(mode) => Ok(()),
        _ => Err(rule_problem(root, st, device, mode)),
    }
}

fn check_device_mode(env: &Env, device: &str, mode: u32) -> Result<(), Msg> {
    let root = env.root;
    let state = || state(env);
    let st = state()?;
    let Some(node) = st.device(device) else {
        return Err(Msg::new("lab-why-no-device").arg("device", device));
    };
    if node.mode == mode {
        return Ok(());
    }
    if rule_mode(root, st, device, udev::Action::Change) == Some(mode) {
        Err(Msg::new("lab-why-rule-not-applied").arg("device", device))
    } else if rule_mode(root, st, device, udev::Action::Add) == Some(mode) {
        Err(Msg::new("machine-why-rule-add-only").arg("device", device))
    } else {
        Err(Msg::new("lab-why-device-mode")
            .arg("device", device)
            .arg("mode", format!("{:04o}", node.mode))
            .arg("want", format!("{mode:04o}")))
    }
}

fn check_packages(env: &Env, all: &[String]) -> Result<(), Msg> {
    let state = || state(env);
    let st = state()?;
    let missing: Vec<&String> = all.iter().filter(|p| !st.installed(p)).collect();
    let half = all
        .iter()
        .find(|p| st.packages.get(*p).is_some_and(|i| i.half_configured));
    if let (true, Some(p)) = (missing.is_empty(), half) {
        let headers = format!("linux-headers-{}", st.machine.kernel);
        Err(Msg::new("lab-why-packages-half")
            .arg("package", p)
            .arg("headers", headers))
    } else if missing.is_empty() {
        Ok(())
    } else {
        Err(Msg::new("lab-why-packages").arg("packages", join(&missing)))
    }
}

fn check_kernel_headers(env: &Env) -> Result<(), Msg> {
    let state = || state(env);
    let st = state()?;
    let pkg = format!("linux-headers-{}", st.machine.kernel);
    if st.installed(&pkg) {
        Ok(())
    } else {
        Err(Msg::new("lab-why-headers").arg("package", pkg))
    }
}

/// The machine's apt sources whose repository `keep` takes.
fn sources_of(root: &Path, keep: impl Fn(&Repo) -> bool) -> Vec<pkgs::Source> {
    pkgs::sources(root)
        .into_iter()
        .filter(|s| keep(&pkgs::classify(&s.uri)))
        .collect()
}

fn check_rocm_repo(env: &Env) -> Result<(), Msg> {
    let root = env.root;
    let state = || state(env);
    let st = state()?;
    crate::lab::sandbox::coresdk_checks::readable_sources(root)?;
    let rocm = sources_of(root, |r| matches!(r, Repo::Rocm(_)));
    if rocm.is_empty() {
        // A repo.radeon.com line for a release that does not exist: apt gets a 404.
        if let Some(bad) = pkgs::sources(root)
            .into_iter()
            .find(|s| pkgs::classify(&s.uri) == Repo::RadeonMissing)
        {
            if let Some(v) = crate::sim::catalog::upstream_only(&bad.uri) {
                return Err(Msg::new("machine-why-repo-not-mirrored")
                    .arg("file", bad.file)
                    .arg("version", v)
                    .arg("have", crate::sim::catalog::mirrored()));
            }
            return Err(Msg::new("lab-why-repo-missing")
                .arg("uri", bad.uri)
                .arg("file", bad.file));
        }
        return Err(Msg::new("lab-why-no-repo"));
    }
    if rocm.iter().any(|s| st.apt_lists.contains(&s.list_key())) {
        return Ok(());
    }
    match rocm
        .iter()
        .map(|s| pkgs::check_key(root, s))
        .find(|k| *k != KeyCheck::Ok)
    {
        Some(_) => Err(Msg::new("lab-why-repo-key")),
        None => Err(Msg::new("lab-why-repo-update")),
    }
}

fn check_repo_matches_node(env: &Env) -> Result<(), Msg> {
    let root = env.root;
    let state = || state(env);
    let st = state()?;
    // The driver's repository as well as ROCm's: amdgpu-dkms built for another
    // release of Ubuntu is as wrong as the libraries.
    let amd = sources_of(root, |r| matches!(r, Repo::Rocm(_) | Repo::AmdGpu(_)));
    if !amd
        .iter()
        .any(|s| matches!(pkgs::classify(&s.uri), Repo::Rocm(_)))
    {
        return Err(Msg::new("lab-why-no-repo"));
    }
    let codename = &st.machine.os.codename;
    match amd.iter().find(|s| &s.suite != codename) {
        None => Ok(()),
        // The lines came from an amdgpu-install built for another release.
        Some(src)
            if st.installed("amdgpu-install")
                && ["amdgpu.list", "rocm.list"]
                    .iter()
                    .any(|f| src.file.ends_with(f)) =>
        {
            Err(Msg::new("machine-why-installer-codename")
                .arg("found", &src.suite)
                .arg("codename", codename)
                .arg(
                    "version",
                    st.packages["amdgpu-install"]
                        .release
                        .clone()
                        .unwrap_or_default(),
                ))
        }
        Some(src) => Err(Msg::new("lab-why-repo-codename")
            .arg("file", &src.file)
            .arg("suite", &src.suite)
            .arg("os", &st.machine.os.pretty)
            .arg("codename", codename)),
    }
}

fn check_node_label(env: &Env, label: &str) -> Result<(), Msg> {
    let state = || state(env);
    let st = state()?;
    let (k, v) = label.split_once('=').unwrap_or((label, ""));
    let cluster = cluster(st)?;
    let labelled = cluster
        .nodes
        .iter()
        .filter(|n| n.gpus > 0)
        .any(|n| n.labels.get(k).is_some_and(|x| x == v));
    if labelled {
        return Ok(());
    }
    // The key is there with another value: `kubectl label` refused without --overwrite.
    let existing = cluster
        .nodes
        .iter()
        .filter(|n| n.gpus > 0)
        .find_map(|n| n.labels.get(k).map(|x| (n.name.clone(), x.clone())));
    match existing {
        // `gpu=True`: the slip is the letter case, not a missing --overwrite.
        Some((node, value)) if value.eq_ignore_ascii_case(v) => {
            Err(Msg::new("machine-why-label-case")
                .arg("node", node)
                .arg("key", k)
                .arg("value", value)
                .arg("want", v)
                .arg("label", label))
        }
        Some((node, value)) => Err(Msg::new("machine-why-label-overwrite")
            .arg("node", node)
            .arg("key", k)
            .arg("value", value)
            .arg("label", label)),
        None => Err(Msg::new("lab-why-node-label").arg("label", label)),
    }
}

fn check_device_plugin(env: &Env) -> Result<(), Msg> {
    let state = || state(env);
    let st = state()?;
    if st.device_plugin_running() {
        return Ok(());
    }
    // Someone else's device plugin (NVIDIA's has the same name) advertises no AMD GPU.
    let other = st.cluster.as_ref().and_then(|c| {
        c.daemonsets
            .iter()
            .find(|d| d.image.contains("device-plugin") && !d.image.contains("labeller"))
    });
    match other {
        Some(d) => Err(Msg::new("machine-why-device-plugin-image").arg("image", &d.image)),
        None => Err(Msg::new("lab-why-device-plugin")),
    }
}

fn check_gpu_pod_running(env: &Env, namespace: &str) -> Result<(), Msg> {
    let state = || state(env);
    let st = state()?;
    let cluster = cluster(st)?;
    let all_gpu_pods = cluster
        .pods
        .iter()
        .filter(|p| p.owner.is_none())
        .filter(|p| {
            p.containers.iter().any(|c| {
                c.limits.contains_key("amd.com/gpu") || c.requests.contains_key("amd.com/gpu")
            })
        });
    let (gpu_pods, elsewhere): (Vec<_>, Vec<_>) =
        all_gpu_pods.partition(|p| p.namespace == namespace);
    if let (true, Some(p)) = (gpu_pods.is_empty(), elsewhere.first()) {
        return Err(Msg::new("lab-why-gpu-pod-elsewhere")
            .arg("pod", &p.name)
            .arg("other", &p.namespace)
            .arg("namespace", namespace));
    }
    if gpu_pods.is_empty() {
        return Err(Msg::new("lab-why-no-gpu-pod").arg("namespace", namespace));
    }
    match gpu_pods
        .iter()
        .find(|p| p.phase == crate::sim::k8s::Phase::Running)
    {
        Some(_) => Ok(()),
        None => Err(Msg::new("lab-why-pod-pending").arg("pod", &gpu_pods[0].name)),
    }
}

fn check_rocm_default(env: &Env, release: &str) -> Result<(), Msg> {
    let root = env.root;
    let state = || state(env);
    crate::lab::sandbox::releases_checks::rocm_default(root, state()?, release)
}

fn check_login_release(env: &Env, command: &str, release: &str) -> Result<(), Msg> {
    let root = env.root;
    let path = env.login_path.ok_or_else(|| Msg::new("lab-why-no-shell"))?;
    crate::lab::sandbox::releases_checks::login_release(root, path, command, release)?;
    // The briefing asks for proof: hipcc --version run in the learner's own login.
    let session = env.shell.map(|r| r.session.as_str()).unwrap_or("");
    match crate::sim::tools::hipcc::last_version(root) {
        Some((s, r)) if s == session && r == release => Ok(()),
        Some((s, r)) if s == session => Err(Msg::new("alt-why-login-proof-old")
            .arg("have", r)
            .arg("release", release)),
        _ => Err(Msg::new("alt-why-login-proof").arg("release", release)),
    }
}

fn check_file_contains(
    env: &Env,
    path: &crate::content::lab::LabPath,
    text: &str,
) -> Result<(), Msg> {
    let root = env.root;
    let found = resolve(root, path)
        .and_then(|h| std::fs::read_to_string(h).ok())
        .is_some_and(|t| t.contains(text));
    if found {
        Ok(())
    } else {
        Err(Msg::new("lab-why-file").arg("path", path).arg("text", text))
    }
}

/// As a command wants it: `render,video`.
fn csv(items: &[&String]) -> String {
    joined(items, ",")
}

/// As a sentence lists them: `render, video`.
fn join(items: &[&String]) -> String {
    joined(items, ", ")
}

fn joined(items: &[&String], sep: &str) -> String {
    items
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(sep)
}

/// Does PATH (as the shell has it) lead to a `command` that `who` may run? Empty entries and
/// relative ones count from `cwd`, as bash treats them.
pub fn find_on_path(root: &Path, path: &str, cwd: &str, command: &str, who: &Rights) -> bool {
    path.split(':').any(|dir| {
        let dir = if dir.is_empty() || dir == "." {
            cwd.to_string()
        } else if dir.starts_with('/') {
            dir.to_string()
        } else {
            format!("{cwd}/{dir}")
        };
        runnable(
            root,
            &format!("{}/{command}", dir.trim_end_matches('/')),
            who,
        )
        .is_some()
    })
}

/// Where `command` is installed in the machine (/opt/rocm-X.Y.Z/bin), for the reason text.
fn where_is(root: &Path, command: &str) -> String {
    // Real folders only: /opt/rocm is a link to the versioned one and is named in the advice.
    let mut found: Vec<String> = std::fs::read_dir(root.join("opt"))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            e.path()
                .join("bin")
                .join(command)
                .is_file()
                .then(|| format!("/opt/{name}/bin"))
        })
        .collect();
    found.sort();
    if found.is_empty() {
        "-".into()
    } else {
        found.join(", ")
    }
}

/// The mode udev would give `device` on an `action` event, from the rule files as they are on
/// disk now.
fn rule_mode(root: &Path, state: &State, device: &str, action: udev::Action) -> Option<u32> {
    let mut node = state.device(device)?.clone();
    udev::apply(root, &udev::load_rules(root), &mut node, action);
    Some(node.mode)
}

/// Why the next boot would not bring `module` up: a blacklist (where), nomodeset, or nothing
/// that loads it.
fn boot_problem(root: &Path, state: &State, module: &str) -> Msg {
    let next = &state.boot.grub_cmdline;
    if kernel::cmdline_blacklist(next).iter().any(|m| m == module) {
        return Msg::new("machine-why-blacklist-cmdline").arg("module", module);
    }
    if kernel::nomodeset(next) {
        return Msg::new("machine-why-nomodeset");
    }
    let dir = root.join("etc/modprobe.d");
    let file = crate::sim::fsx::list_dir(&dir).into_iter().find(|n| {
        n.ends_with(".conf")
            && std::fs::read_to_string(dir.join(n)).is_ok_and(|t| {
                t.lines().any(|l| {
                    let mut w = l.split('#').next().unwrap_or("").split_whitespace();
                    w.next() == Some("blacklist") && w.next() == Some(module)
                })
            })
    });
    match file {
        Some(f) => Msg::new("machine-why-blacklisted")
            .arg("module", module)
            .arg("file", format!("/etc/modprobe.d/{f}")),
        None => Msg::new("lab-why-module-not-persisted").arg("module", module),
    }
}

/// Why no rule gives `device` the mode: a file udev ignores, a file that runs before the
/// defaults (which set the mode again), or no such rule.
fn rule_problem(root: &Path, state: &State, device: &str, mode: u32) -> Msg {
    if let Some(file) = overridden_by_defaults(root, state, device, mode) {
        return Msg::new("machine-why-rule-overridden")
            .arg("file", file)
            .arg("default", udev::DEFAULT_FILE);
    }
    rule_problem_files(root, device, mode)
}

/// A rules file sorting before the defaults that would give the mode if it ran last.
fn overridden_by_defaults(root: &Path, state: &State, device: &str, mode: u32) -> Option<String> {
    let node = state.device(device)?;
    let rules = udev::load_rules(root);
    rules
        .iter()
        .filter(|r| r.file.as_str() < udev::DEFAULT_FILE)
        .find(|r| {
            let mut n = node.clone();
            udev::apply(root, std::slice::from_ref(*r), &mut n, udev::Action::Add);
            n.mode == mode
        })
        .map(|r| r.file.clone())
}

fn rule_problem_files(root: &Path, device: &str, mode: u32) -> Msg {
    let dir = root.join("etc/udev/rules.d");
    let name = device.rsplit('/').next().unwrap_or(device);
    let ignored = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .find(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            !n.ends_with(".rules")
                && std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains(name))
        });
    match ignored {
        Some(e) => Msg::new("lab-why-rule-ignored").arg("file", e.file_name().to_string_lossy()),
        None => Msg::new("lab-why-no-rule")
            .arg("device", device)
            .arg("mode", format!("{mode:04o}")),
    }
}
