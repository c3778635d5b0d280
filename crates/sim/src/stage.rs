//! Writes a fresh stage: the machine's real files under `root` and its state file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::catalog::{self, Origin};
use super::error::SimError;
use super::fsx;
use super::k8s::{Cluster, DaemonSet, Node};
use super::keys;
use super::machine;
use super::pkgs;
use super::spec::{DriverKind, MachineSpec};
use super::state::{State, VERSION};
use super::udev;
use crate::host::Host;

const MODULES_HEADER: &str = "# /etc/modules: kernel modules to load at boot time.
#
# This file contains the names of kernel modules that should be loaded
# at boot time, one per line. Lines beginning with \"#\" are ignored.
";

/// Creates the stage described by `spec` under `root` of `host` (which may already hold other
/// files; the host's clock picks a cause when the spec leaves it open).
pub fn create_on(root: &Path, spec: &MachineSpec, host: &dyn Host) -> Result<State, SimError> {
    let m = machine(spec)?;
    check(spec)?;
    let bin = spec.sim_bin.clone().unwrap_or_else(|| "rocm-learn".into());
    write_etc(root, spec, &m)?;
    let mut state = fresh_state(root, spec, &m);
    let ubuntu_pkgs = catalog::ubuntu_packages(&m);
    let base = Installer {
        root,
        avail: &ubuntu_pkgs,
        bin: &bin,
    };
    base.install(&mut state, &["wget", "gnupg", "libatomic1", "libquadmath0"])?;
    let extra: Vec<&str> = spec.packages.iter().map(String::as_str).collect();
    base.install(&mut state, &extra)?;
    if spec.driver == DriverKind::InTree {
        let name = format!("linux-modules-extra-{}", m.kernel);
        base.install(&mut state, &[name.as_str()])?;
    }
    if let Some(v) = spec
        .rocm_installed
        .as_ref()
        .or(spec.repo_configured.as_ref())
    {
        one_release(root, &mut state, spec, v, &base)?;
    }
    if !spec.rocm_releases.is_empty() {
        multi_version(root, &mut state, spec, &base)?;
    }
    driver(root, &mut state, spec)?;
    if spec.k8s {
        state.cluster = Some(cluster(spec, &m, &state));
        fsx::write_executable(
            &fsx::system_bin(root, "/usr/bin/kubectl"),
            &pkgs::wrapper(&bin, "kubectl"),
        )
        .map_err(io)?;
    }
    if spec.rocm_cli {
        rocm_cli(root, spec, &m, &bin)?;
    }
    super::kernel::staged(
        root,
        &mut state,
        spec.secure_boot,
        spec.mok_enrolled,
        spec.missing_firmware.clone(),
    )
    .map_err(io)?;
    if let Some(cause) = super::wont_load::pick(&spec.wont_load, host) {
        super::wont_load::apply(root, &mut state, &cause, &bin).map_err(bad)?;
    }
    state.save(root)?;
    Ok(state)
}

/// AMD's `rocm` command in the learner's ~/.local/bin, as its installer leaves it, and the
/// managed runtime it installed earlier, if the spec names one.
fn rocm_cli(
    root: &Path,
    spec: &MachineSpec,
    m: &machine::Machine,
    bin: &str,
) -> Result<(), SimError> {
    use super::rocm_runtimes as rt;
    struct Stage;
    impl rt::Owner for Stage {
        fn own(&self, _: &Path) -> std::io::Result<()> {
            Ok(())
        }
    }
    let home = format!("/home/{}", spec.user);
    fsx::write_executable(
        &root.join(format!("home/{}/.local/bin/rocm", spec.user)),
        &pkgs::wrapper(bin, "rocm"),
    )
    .map_err(io)?;
    let Some(version) = &spec.rocm_cli_runtime else {
        return Ok(());
    };
    let gfx = m.gpus.first().map_or("gfx942", |g| g.gfx.as_str());
    let family = rt::therock_family(gfx);
    let paths = rt::Paths::for_home(&home);
    let key = rt::runtime_key("release", "wheel", &family, version);
    let install_root = paths.install_root("wheel", &key);
    let runtime = rt::Manifest {
        runtime_id: format!("therock-release:{family}"),
        channel: "release".into(),
        format: "wheel".into(),
        family,
        version: version.clone(),
        python_executable: format!("{install_root}/bin/python"),
        install_root,
        runtime_key: key,
        toolchain: false,
        read_only: false,
        installed_at_unix_ms: (spec.boot_time - 6 * 86_400) * 1000,
    };
    rt::save_runtime(root, &paths, &runtime, bin, &Stage).map_err(io)?;
    rt::activate(root, &paths, &runtime, runtime.installed_at_unix_ms, &Stage).map_err(io)?;
    Ok(())
}

fn io(e: std::io::Error) -> SimError {
    SimError::new("sim-io", format!("creating the stage: {e}"))
}

fn bad(m: String) -> SimError {
    SimError::new("sim-spec-invalid", format!("machine spec: {m}"))
}

/// The host name the machine `spec` describes will have, without building it.
pub fn hostname(spec: &MachineSpec) -> Result<String, SimError> {
    Ok(machine(spec)?.hostname)
}

/// The preset's machine with the spec's Ubuntu release, host name and kernel.
fn machine(spec: &MachineSpec) -> Result<machine::Machine, SimError> {
    let mut m = spec.preset.machine(spec.gpu_count);
    match spec.ubuntu.as_deref() {
        None => {}
        Some("24.04") => {
            m.os = machine::Os::ubuntu_2404();
            m.kernel = "6.8.0-52-generic".into();
        }
        Some("22.04") => {
            m.os = machine::Os::ubuntu_2204();
            m.kernel = "5.15.0-125-generic".into();
        }
        Some(o) => return Err(bad(format!("unsupported ubuntu \"{o}\" (22.04 or 24.04)"))),
    }
    if let Some(h) = &spec.hostname {
        m.hostname = h.clone();
    }
    if let Some(k) = &spec.kernel {
        m.kernel = k.clone();
    }
    Ok(m)
}

/// The releases the spec names exist; the learner's name is one /etc/passwd can hold.
fn check(spec: &MachineSpec) -> Result<(), SimError> {
    for v in [&spec.rocm_installed, &spec.repo_configured]
        .into_iter()
        .flatten()
    {
        if catalog::release(v).is_none() {
            return Err(bad(format!(
                "unknown ROCm release \"{v}\" (known: {})",
                catalog::RELEASES
                    .iter()
                    .map(|r| r.version)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    if let Some(mib) = spec.disk_mib
        && !super::spec::DISK_MIB.contains(&mib)
    {
        return Err(bad(format!(
            "`disk_mib` must be between {} and {} (MiB), not {mib}",
            super::spec::DISK_MIB.start(),
            super::spec::DISK_MIB.end()
        )));
    }
    if spec.user.is_empty() || spec.user.contains([':', ',', '\n', '/']) || spec.user == "root" {
        return Err(bad(format!("invalid user name \"{}\"", spec.user)));
    }
    Ok(())
}

/// Writes `text` at `rel` under the stage.
fn write(root: &Path, rel: &str, text: &str) -> Result<(), SimError> {
    fsx::write_atomic(&root.join(rel), text.as_bytes()).map_err(io)
}

/// /etc as a fresh Ubuntu image has it, with the learner's account and the spec's udev rules.
fn write_etc(root: &Path, spec: &MachineSpec, m: &machine::Machine) -> Result<(), SimError> {
    write(root, "etc/os-release", &m.os.os_release())?;
    write(root, "etc/hostname", &format!("{}\n", m.hostname))?;
    write(root, "etc/passwd", &passwd(&spec.user))?;
    let render_gid = if m.os.codename == "noble" { 992 } else { 109 };
    let (group, gshadow) = group_files(&spec.user, &spec.user_groups, render_gid);
    for g in &spec.user_groups {
        if !group
            .lines()
            .any(|l| l.split(':').next() == Some(g.as_str()))
        {
            return Err(bad(format!(
                "user_groups: no group \"{g}\" on an Ubuntu image"
            )));
        }
    }
    write(root, "etc/group", &group)?;
    write(root, "etc/gshadow", &gshadow)?;
    let mut modules = MODULES_HEADER.to_string();
    if spec.amdgpu_persisted {
        modules.push_str("amdgpu\n");
    }
    write(root, "etc/modules", &modules)?;
    for d in [
        "etc/modules-load.d",
        "etc/modprobe.d",
        "etc/udev/rules.d",
        "etc/apt/sources.list.d",
        "etc/apt/preferences.d",
        "etc/apt/trusted.gpg.d",
        // apt ships it from 2.4 on: Ubuntu 22.04 and later have it.
        "etc/apt/keyrings",
        "etc/ld.so.conf.d",
        "opt",
        "usr/bin",
        "usr/sbin",
        "usr/local/bin",
    ] {
        std::fs::create_dir_all(root.join(d)).map_err(io)?;
    }
    std::fs::create_dir_all(root.join("home").join(&spec.user)).map_err(io)?;
    write_ld_conf(root)?;
    write_ubuntu_sources(root, &m.os.codename)?;
    for (name, text) in &spec.udev_rules {
        if name.contains('/') || name.is_empty() {
            return Err(bad(format!("invalid udev rules file name \"{name}\"")));
        }
        write(root, &format!("etc/udev/rules.d/{name}"), text)?;
    }
    Ok(())
}

fn write_ld_conf(root: &Path) -> Result<(), SimError> {
    write(
        root,
        "etc/ld.so.conf",
        "include /etc/ld.so.conf.d/*.conf\n\n",
    )?;
    write(
        root,
        "etc/ld.so.conf.d/libc.conf",
        "# libc default configuration\n/usr/local/lib\n",
    )?;
    write(
        root,
        "etc/ld.so.conf.d/x86_64-linux-gnu.conf",
        "# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n",
    )
}

/// Ubuntu's own repositories: deb822 in ubuntu.sources from 24.04 on, sources.list before.
fn write_ubuntu_sources(root: &Path, code: &str) -> Result<(), SimError> {
    if code == "noble" {
        write(
            root,
            "etc/apt/sources.list.d/ubuntu.sources",
            &format!(
                "Types: deb\nURIs: http://archive.ubuntu.com/ubuntu/\nSuites: {code} {code}-updates {code}-backports\nComponents: main restricted universe multiverse\nSigned-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg\n\nTypes: deb\nURIs: http://security.ubuntu.com/ubuntu/\nSuites: {code}-security\nComponents: main restricted universe multiverse\nSigned-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg\n"
            ),
        )?;
        write(
            root,
            "etc/apt/sources.list",
            "# Ubuntu sources have moved to /etc/apt/sources.list.d/ubuntu.sources\n",
        )
    } else {
        write(
            root,
            "etc/apt/sources.list",
            &format!(
                "deb http://archive.ubuntu.com/ubuntu/ {code} main restricted universe multiverse\ndeb http://archive.ubuntu.com/ubuntu/ {code}-updates main restricted universe multiverse\ndeb http://archive.ubuntu.com/ubuntu/ {code}-backports main restricted universe multiverse\ndeb http://security.ubuntu.com/ubuntu/ {code}-security main restricted universe multiverse\n"
            ),
        )
    }
}

/// The state of a machine just booted with nothing installed: the BMC's display node and
/// Ubuntu's package indexes.
fn fresh_state(root: &Path, spec: &MachineSpec, m: &machine::Machine) -> State {
    let mut state = State {
        version: VERSION,
        machine: m.clone(),
        boot_time: spec.boot_time,
        uptime: 35,
        driver: None,
        in_tree_module: spec.driver == DriverKind::InTree,
        kfd_major: if m.os.codename == "noble" { 509 } else { 511 },
        devices: Vec::new(),
        udev_rules: udev::load_rules(root),
        packages: BTreeMap::new(),
        apt_lists: BTreeSet::new(),
        dkms: Vec::new(),
        sessions: BTreeMap::new(),
        next_session: 0,
        cluster: None,
        boot: Default::default(),
    };
    // The BMC display's card0 exists whatever amdgpu does.
    if m.bmc_vga {
        let mut n = super::state::DevNode {
            path: "/dev/dri/card0".into(),
            kernel: "card0".into(),
            subsystem: "drm".into(),
            driver: "ast".into(),
            major: 226,
            minor: 0,
            owner: "root".into(),
            group: "root".into(),
            mode: 0o600,
            created: spec.boot_time,
            events: 0,
        };
        udev::apply(root, &state.udev_rules, &mut n, udev::Action::Add);
        state.devices.push(n);
    }
    // Ubuntu's own indexes were fetched when the image was built.
    for s in pkgs::sources(root) {
        if pkgs::classify(&s.uri) == pkgs::Repo::Ubuntu {
            state.apt_lists.insert(s.list_key());
        }
    }
    state
}

/// Installs packages while the stage is built, from what `avail` offers.
struct Installer<'a> {
    root: &'a Path,
    avail: &'a [catalog::Package],
    bin: &'a str,
}

impl Installer<'_> {
    fn install(&self, state: &mut State, names: &[&str]) -> Result<(), SimError> {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let list = pkgs::resolve(state, self.avail, &names)
            .map_err(|n| SimError::new("sim-spec-invalid", format!("no package {n}")))?;
        for p in list {
            pkgs::install(self.root, state, &p, self.bin).map_err(io)?;
            // A dependency is apt's to take back (`autoremove`), as on a real machine.
            if !names.contains(&p.name)
                && let Some(i) = state.packages.get_mut(&p.name)
            {
                i.auto = true;
            }
        }
        Ok(())
    }
}

const KEYRING: &str = "/etc/apt/keyrings/rocm.gpg";
const PIN: &str = "Package: *\nPin: release o=repo.radeon.com\nPin-Priority: 600\n";
const ROCM_LD_CONF: &str = "/opt/rocm/lib\n/opt/rocm/lib64\n";

/// One release's repositories (`repo_configured`), and the release itself with
/// `rocm_installed` (and its DKMS driver when the spec asks for it).
fn one_release(
    root: &Path,
    state: &mut State,
    spec: &MachineSpec,
    v: &str,
    base: &Installer,
) -> Result<(), SimError> {
    let r = catalog::release(v).ok_or_else(|| bad(format!("unknown release {v}")))?;
    let code = state.machine.os.codename.clone();
    std::fs::create_dir_all(root.join("etc/apt/keyrings")).map_err(io)?;
    if spec.repo_key || spec.rocm_installed.is_some() {
        fsx::write_atomic(
            &root.join(KEYRING.trim_start_matches('/')),
            &keys::amd_key_binary(),
        )
        .map_err(io)?;
    }
    write(
        root,
        "etc/apt/sources.list.d/amdgpu.list",
        &format!(
            "deb [arch=amd64 signed-by={KEYRING}] https://repo.radeon.com/amdgpu/{}/ubuntu {code} main\n",
            r.amdgpu_dir()
        ),
    )?;
    write(
        root,
        "etc/apt/sources.list.d/rocm.list",
        &format!(
            "deb [arch=amd64 signed-by={KEYRING}] https://repo.radeon.com/rocm/apt/{v} {code} main\n"
        ),
    )?;
    write(root, "etc/apt/preferences.d/rocm-pin-600", PIN)?;
    if spec.rocm_installed.is_none() {
        return Ok(());
    }
    state.apt_lists.insert(format!(
        "https://repo.radeon.com/amdgpu/{}/ubuntu {code}",
        r.amdgpu_dir()
    ));
    state
        .apt_lists
        .insert(format!("https://repo.radeon.com/rocm/apt/{v} {code}"));
    let version_id = state.machine.os.version_id.clone();
    let mut avail = base.avail.to_vec();
    avail.extend(catalog::amd_packages(r, Origin::Rocm, &version_id));
    avail.extend(catalog::amd_packages(r, Origin::AmdGpu, &version_id));
    let amd = Installer {
        avail: &avail,
        ..*base
    };
    amd.install(state, &["rocm"])?;
    if spec.driver == DriverKind::Dkms {
        amd.install(state, &["amdgpu-dkms"])?;
    }
    write(root, "etc/ld.so.conf.d/rocm.conf", ROCM_LD_CONF)
}

/// The driver the spec asks for: there (DKMS needs an installed release) and loaded.
fn driver(root: &Path, state: &mut State, spec: &MachineSpec) -> Result<(), SimError> {
    if spec.driver == DriverKind::Dkms && state.dkms.is_empty() {
        return Err(bad(
            "driver = \"dkms\" needs rocm_installed (the DKMS driver comes from AMD's repository)"
                .into(),
        ));
    }
    if !spec.amdgpu_loaded {
        return Ok(());
    }
    // A DKMS module, when there is one, shadows the in-tree one.
    let Some(d) = state.loadable_driver() else {
        return Err(bad(
            "amdgpu_loaded = true needs a driver (driver = \"in-tree\" or \"dkms\")".into(),
        ));
    };
    state.load_driver(root, d);
    override_nodes(state, spec).map_err(bad)
}

/// A one-node cluster on this machine, with AMD's device plugin when the spec says so.
fn cluster(spec: &MachineSpec, m: &machine::Machine, state: &State) -> Cluster {
    let mut labels: BTreeMap<String, String> = [
        ("beta.kubernetes.io/arch", "amd64"),
        ("beta.kubernetes.io/os", "linux"),
        ("kubernetes.io/arch", "amd64"),
        ("kubernetes.io/os", "linux"),
        ("node-role.kubernetes.io/control-plane", ""),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    labels.insert("kubernetes.io/hostname".into(), m.hostname.clone());
    labels.extend(spec.node_labels.clone());
    let created = spec.boot_time - 12 * 86400;
    let mut c = Cluster {
        version: "v1.30.4".into(),
        nodes: vec![Node {
            name: m.hostname.clone(),
            labels,
            created,
            internal_ip: "10.0.0.10".into(),
            roles: vec!["control-plane".into()],
            local: true,
            gpus: m.gpus.len() as u32,
            cpu: m.cpu.threads,
            memory_ki: m.cpu.memory_kb,
            os_image: m.os.pretty.clone(),
            kernel: m.kernel.clone(),
        }],
        daemonsets: Vec::new(),
        pods: Vec::new(),
        next_ip: 1,
        namespaces: Vec::new(),
    };
    if spec.device_plugin {
        c.daemonsets.push(DaemonSet {
            namespace: "kube-system".into(),
            name: super::k8s::DEVICE_PLUGIN_DS.into(),
            image: "rocm/k8s-device-plugin".into(),
            created,
            spec: String::new(),
            manifest: None,
        });
    }
    c.reconcile(state.now(), state.driver.is_some(), &[]);
    c
}

/// Several releases with the multi-version packages, as AMD's multi-version guide installs
/// them: one repository line per release (no trailing .0 in its path), `rocmX.Y.Z` for each,
/// and the newest release's DKMS driver when the machine uses one.
fn multi_version(
    root: &Path,
    state: &mut State,
    spec: &MachineSpec,
    base: &Installer,
) -> Result<(), SimError> {
    if spec.rocm_installed.is_some() || spec.repo_configured.is_some() {
        return Err(bad(
            "rocm_releases cannot be combined with rocm_installed or repo_configured (single- and multi-version packages do not mix)".into(),
        ));
    }
    let releases = multi_releases(spec)?;
    let newest = *releases
        .last()
        .ok_or_else(|| bad("rocm_releases is empty".into()))?;
    write_multi_sources(root, &state.machine.os.codename, &releases, newest)?;
    let avail = multi_lists(state, base.avail, &releases, newest);
    let mut names: Vec<String> = releases
        .iter()
        .map(|r| format!("rocm{}", r.version))
        .collect();
    if spec.driver == DriverKind::Dkms {
        names.push("amdgpu-dkms".into());
    }
    // One at a time: each release's meta package resolves on its own.
    for n in names {
        let list = pkgs::resolve(state, &avail, std::slice::from_ref(&n))
            .map_err(|n| bad(format!("no package {n}")))?;
        for p in list {
            pkgs::install(root, state, &p, base.bin).map_err(io)?;
            if p.name != n
                && let Some(i) = state.packages.get_mut(&p.name)
            {
                i.auto = true;
            }
        }
    }
    write(root, "etc/ld.so.conf.d/rocm.conf", ROCM_LD_CONF)
}

/// The spec's releases, known and each once, oldest first.
fn multi_releases(spec: &MachineSpec) -> Result<Vec<&'static catalog::Release>, SimError> {
    let mut releases = Vec::new();
    for v in &spec.rocm_releases {
        let r = catalog::release(v).ok_or_else(|| {
            bad(format!(
                "rocm_releases: unknown release {v} (known: {})",
                catalog::mirrored()
            ))
        })?;
        if !releases.contains(&r) {
            releases.push(r);
        }
    }
    releases.sort_by_key(|r| r.alt_priority);
    Ok(releases)
}

/// A release's directory in repository paths: no trailing `.0`.
fn repo_dir(r: &catalog::Release) -> &str {
    r.version.strip_suffix(".0").unwrap_or(r.version)
}

/// The key, one rocm line per release, the newest release's amdgpu line, the pin.
fn write_multi_sources(
    root: &Path,
    code: &str,
    releases: &[&catalog::Release],
    newest: &catalog::Release,
) -> Result<(), SimError> {
    fsx::write_atomic(
        &root.join(KEYRING.trim_start_matches('/')),
        &keys::amd_key_binary(),
    )
    .map_err(io)?;
    let rocm_list: String = releases
        .iter()
        .map(|r| format!("deb [arch=amd64 signed-by={KEYRING}] https://repo.radeon.com/rocm/apt/{} {code} main\n", repo_dir(r)))
        .collect();
    write(root, "etc/apt/sources.list.d/rocm.list", &rocm_list)?;
    write(
        root,
        "etc/apt/sources.list.d/amdgpu.list",
        &format!(
            "deb [arch=amd64 signed-by={KEYRING}] https://repo.radeon.com/amdgpu/{}/ubuntu {code} main\n",
            repo_dir(newest)
        ),
    )?;
    write(root, "etc/apt/preferences.d/rocm-pin-600", PIN)
}

/// Marks the repositories' indexes fetched; the packages they offer, Ubuntu's included.
fn multi_lists(
    state: &mut State,
    ubuntu_pkgs: &[catalog::Package],
    releases: &[&'static catalog::Release],
    newest: &'static catalog::Release,
) -> Vec<catalog::Package> {
    let code = state.machine.os.codename.clone();
    let version_id = state.machine.os.version_id.clone();
    let mut avail = ubuntu_pkgs.to_vec();
    for r in releases {
        state.apt_lists.insert(format!(
            "https://repo.radeon.com/rocm/apt/{} {code}",
            repo_dir(r)
        ));
        avail.extend(catalog::amd_packages(r, Origin::Rocm, &version_id));
    }
    state.apt_lists.insert(format!(
        "https://repo.radeon.com/amdgpu/{} {code}",
        repo_dir(newest)
    ));
    avail.extend(catalog::amd_packages(newest, Origin::AmdGpu, &version_id));
    avail
}

fn override_nodes(state: &mut State, spec: &MachineSpec) -> Result<(), String> {
    let mode = |s: &Option<String>| -> Result<Option<u32>, String> {
        match s {
            None => Ok(None),
            Some(v) => u32::from_str_radix(v, 8)
                .ok()
                .filter(|m| *m <= 0o7777)
                .map(Some)
                .ok_or_else(|| format!("invalid mode \"{v}\" (octal, e.g. \"0660\")")),
        }
    };
    let (km, rm) = (mode(&spec.kfd_mode)?, mode(&spec.render_mode)?);
    for d in &mut state.devices {
        if d.driver != "amdgpu" {
            continue;
        }
        let (m, g) = if d.kernel == "kfd" {
            (km, &spec.kfd_group)
        } else if d.kernel.starts_with("renderD") {
            (rm, &spec.render_group)
        } else {
            (None, &None)
        };
        if let Some(m) = m {
            d.mode = m;
        }
        if let Some(g) = g {
            d.group = g.clone();
        }
    }
    Ok(())
}

fn passwd(user: &str) -> String {
    format!(
        "root:x:0:0:root:/root:/bin/bash
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
bin:x:2:2:bin:/bin:/usr/sbin/nologin
sys:x:3:3:sys:/dev:/usr/sbin/nologin
sync:x:4:65534:sync:/bin:/bin/sync
man:x:6:12:man:/var/cache/man:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
systemd-network:x:998:998:systemd Network Management:/:/usr/sbin/nologin
syslog:x:104:111::/nonexistent:/usr/sbin/nologin
_apt:x:105:65534::/nonexistent:/usr/sbin/nologin
{user}:x:1000:1000:{user}:/home/{user}:/bin/bash
"
    )
}

/// /etc/group and /etc/gshadow of a fresh Ubuntu cloud image with the learner added.
fn group_files(user: &str, groups: &[String], render_gid: u32) -> (String, String) {
    let base: Vec<(&str, u32, Vec<&str>)> = vec![
        ("root", 0, vec![]),
        ("daemon", 1, vec![]),
        ("bin", 2, vec![]),
        ("sys", 3, vec![]),
        ("adm", 4, vec!["syslog"]),
        ("tty", 5, vec![]),
        ("disk", 6, vec![]),
        ("lp", 7, vec![]),
        ("mail", 8, vec![]),
        ("news", 9, vec![]),
        ("uucp", 10, vec![]),
        ("man", 12, vec![]),
        ("proxy", 13, vec![]),
        ("kmem", 15, vec![]),
        ("dialout", 20, vec![]),
        ("fax", 21, vec![]),
        ("voice", 22, vec![]),
        ("cdrom", 24, vec![]),
        ("floppy", 25, vec![]),
        ("tape", 26, vec![]),
        ("sudo", 27, vec![]),
        ("audio", 29, vec![]),
        ("dip", 30, vec![]),
        ("www-data", 33, vec![]),
        ("backup", 34, vec![]),
        ("operator", 37, vec![]),
        ("list", 38, vec![]),
        ("irc", 39, vec![]),
        ("src", 40, vec![]),
        ("shadow", 42, vec![]),
        ("utmp", 43, vec![]),
        ("video", 44, vec![]),
        ("sasl", 45, vec![]),
        ("plugdev", 46, vec![]),
        ("staff", 50, vec![]),
        ("games", 60, vec![]),
        ("users", 100, vec![]),
        ("nogroup", 65534, vec![]),
        ("systemd-journal", 999, vec![]),
        ("systemd-network", 998, vec![]),
        ("syslog", 111, vec![]),
        ("render", render_gid, vec![]),
        ("lxd", 110, vec![]),
    ];
    let mut group = String::new();
    let mut gshadow = String::new();
    for (name, gid, members) in &base {
        let mut m: Vec<String> = members.iter().map(|s| s.to_string()).collect();
        if groups.iter().any(|g| g == name) {
            m.push(user.to_string());
        }
        group.push_str(&format!("{name}:x:{gid}:{}\n", m.join(",")));
        let pw = if *name == "root" { "*" } else { "!" };
        gshadow.push_str(&format!("{name}:{pw}::{}\n", m.join(",")));
    }
    group.push_str(&format!("{user}:x:1000:\n"));
    gshadow.push_str(&format!("{user}:!::\n"));
    (group, gshadow)
}
