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
use super::state::{Driver, State, VERSION};
use super::udev;

const MODULES_HEADER: &str = "# /etc/modules: kernel modules to load at boot time.
#
# This file contains the names of kernel modules that should be loaded
# at boot time, one per line. Lines beginning with \"#\" are ignored.
";

/// Creates the stage described by `spec` under `root` (which may already hold other files).
pub fn create(root: &Path, spec: &MachineSpec) -> Result<State, SimError> {
    let err = |e: std::io::Error| SimError::new("sim-io", format!("creating the stage: {e}"));
    let bad = |m: String| SimError::new("sim-spec-invalid", format!("machine spec: {m}"));

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
    if spec.user.is_empty() || spec.user.contains([':', ',', '\n', '/']) || spec.user == "root" {
        return Err(bad(format!("invalid user name \"{}\"", spec.user)));
    }
    let bin = spec.sim_bin.clone().unwrap_or_else(|| "rocm-learn".into());
    let noble = m.os.codename == "noble";

    // /etc
    let w = |rel: &str, text: &str| fsx::write_atomic(&root.join(rel), text.as_bytes());
    w("etc/os-release", &m.os.os_release()).map_err(err)?;
    w("etc/hostname", &format!("{}\n", m.hostname)).map_err(err)?;
    w("etc/passwd", &passwd(&spec.user)).map_err(err)?;
    let render_gid = if noble { 992 } else { 109 };
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
    w("etc/group", &group).map_err(err)?;
    w("etc/gshadow", &gshadow).map_err(err)?;
    let mut modules = MODULES_HEADER.to_string();
    if spec.amdgpu_persisted {
        modules.push_str("amdgpu\n");
    }
    w("etc/modules", &modules).map_err(err)?;
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
        std::fs::create_dir_all(root.join(d)).map_err(err)?;
    }
    let home = root.join("home").join(&spec.user);
    std::fs::create_dir_all(&home).map_err(err)?;
    w("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n\n").map_err(err)?;
    w(
        "etc/ld.so.conf.d/libc.conf",
        "# libc default configuration\n/usr/local/lib\n",
    )
    .map_err(err)?;
    w(
        "etc/ld.so.conf.d/x86_64-linux-gnu.conf",
        "# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n",
    )
    .map_err(err)?;
    let code = &m.os.codename;
    if noble {
        w(
            "etc/apt/sources.list.d/ubuntu.sources",
            &format!(
                "Types: deb\nURIs: http://archive.ubuntu.com/ubuntu/\nSuites: {code} {code}-updates {code}-backports\nComponents: main restricted universe multiverse\nSigned-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg\n\nTypes: deb\nURIs: http://security.ubuntu.com/ubuntu/\nSuites: {code}-security\nComponents: main restricted universe multiverse\nSigned-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg\n"
            ),
        )
        .map_err(err)?;
        w(
            "etc/apt/sources.list",
            "# Ubuntu sources have moved to /etc/apt/sources.list.d/ubuntu.sources\n",
        )
        .map_err(err)?;
    } else {
        w(
            "etc/apt/sources.list",
            &format!(
                "deb http://archive.ubuntu.com/ubuntu/ {code} main restricted universe multiverse\ndeb http://archive.ubuntu.com/ubuntu/ {code}-updates main restricted universe multiverse\ndeb http://archive.ubuntu.com/ubuntu/ {code}-backports main restricted universe multiverse\ndeb http://security.ubuntu.com/ubuntu/ {code}-security main restricted universe multiverse\n"
            ),
        )
        .map_err(err)?;
    }
    for (name, text) in &spec.udev_rules {
        if name.contains('/') || name.is_empty() {
            return Err(bad(format!("invalid udev rules file name \"{name}\"")));
        }
        w(&format!("etc/udev/rules.d/{name}"), text).map_err(err)?;
    }

    let mut state = State {
        version: VERSION,
        machine: m.clone(),
        boot_time: spec.boot_time,
        uptime: 35,
        driver: None,
        in_tree_module: spec.driver == DriverKind::InTree,
        kfd_major: if noble { 509 } else { 511 },
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
    let ubuntu_pkgs = catalog::ubuntu_packages(&m);
    let install_named = |state: &mut State, avail: &[catalog::Package], names: &[&str]| {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let list = pkgs::resolve(state, avail, &names)
            .map_err(|n| SimError::new("sim-spec-invalid", format!("no package {n}")))?;
        for p in list {
            pkgs::install(root, state, &p, &bin).map_err(err)?;
        }
        Ok::<(), SimError>(())
    };
    install_named(&mut state, &ubuntu_pkgs, &["wget", "gnupg"])?;
    let extra: Vec<&str> = spec.packages.iter().map(String::as_str).collect();
    install_named(&mut state, &ubuntu_pkgs, &extra)?;
    if spec.driver == DriverKind::InTree {
        let name = format!("linux-modules-extra-{}", m.kernel);
        install_named(&mut state, &ubuntu_pkgs, &[name.as_str()])?;
    }

    let repo = spec.rocm_installed.clone().or(spec.repo_configured.clone());
    if let Some(v) = &repo {
        let r = catalog::release(v).ok_or_else(|| bad(format!("unknown release {v}")))?;
        let key = "/etc/apt/keyrings/rocm.gpg";
        std::fs::create_dir_all(root.join("etc/apt/keyrings")).map_err(err)?;
        if spec.repo_key || spec.rocm_installed.is_some() {
            fsx::write_atomic(
                &root.join(key.trim_start_matches('/')),
                &keys::amd_key_binary(),
            )
            .map_err(err)?;
        }
        w(
            "etc/apt/sources.list.d/amdgpu.list",
            &format!("deb [arch=amd64 signed-by={key}] https://repo.radeon.com/amdgpu/{v}/ubuntu {code} main\n"),
        )
        .map_err(err)?;
        w(
            "etc/apt/sources.list.d/rocm.list",
            &format!("deb [arch=amd64 signed-by={key}] https://repo.radeon.com/rocm/apt/{v} {code} main\n"),
        )
        .map_err(err)?;
        w(
            "etc/apt/preferences.d/rocm-pin-600",
            "Package: *\nPin: release o=repo.radeon.com\nPin-Priority: 600\n",
        )
        .map_err(err)?;
        if spec.rocm_installed.is_some() {
            state
                .apt_lists
                .insert(format!("https://repo.radeon.com/amdgpu/{v}/ubuntu {code}"));
            state
                .apt_lists
                .insert(format!("https://repo.radeon.com/rocm/apt/{v} {code}"));
            let mut avail = ubuntu_pkgs.clone();
            avail.extend(catalog::amd_packages(r, Origin::Rocm, &m.os.version_id));
            avail.extend(catalog::amd_packages(r, Origin::AmdGpu, &m.os.version_id));
            install_named(&mut state, &avail, &["rocm"])?;
            if spec.driver == DriverKind::Dkms {
                install_named(&mut state, &avail, &["amdgpu-dkms"])?;
            }
            w(
                "etc/ld.so.conf.d/rocm.conf",
                "/opt/rocm/lib\n/opt/rocm/lib64\n",
            )
            .map_err(err)?;
        }
    }
    if !spec.rocm_releases.is_empty() {
        multi_version(root, &mut state, spec, &ubuntu_pkgs, &bin).map_err(|e| match e {
            MultiError::Spec(m) => bad(m),
            MultiError::Io(e) => err(e),
        })?;
    }
    if spec.driver == DriverKind::Dkms && state.dkms.is_empty() {
        return Err(bad(
            "driver = \"dkms\" needs rocm_installed (the DKMS driver comes from AMD's repository)"
                .into(),
        ));
    }

    if spec.amdgpu_loaded {
        match state.loadable_driver() {
            Some(d) => state.load_driver(root, d),
            None => {
                return Err(bad(
                    "amdgpu_loaded = true needs a driver (driver = \"in-tree\" or \"dkms\")".into(),
                ));
            }
        }
        override_nodes(&mut state, spec).map_err(bad)?;
    }
    if let Some(Driver::Dkms { .. }) = state.driver {
        // nothing else: the DKMS module shadows the in-tree one
    }

    if spec.k8s {
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
        state.cluster = Some(c);
        fsx::write_executable(
            &fsx::system_bin(root, "/usr/bin/kubectl"),
            &pkgs::wrapper(&bin, "kubectl"),
        )
        .map_err(err)?;
    }
    super::kernel::staged(
        root,
        &mut state,
        spec.secure_boot,
        spec.mok_enrolled,
        spec.missing_firmware.clone(),
    )
    .map_err(err)?;
    if let Some(cause) = super::wont_load::pick(&spec.wont_load) {
        super::wont_load::apply(root, &mut state, &cause, &bin).map_err(bad)?;
    }
    state.save(root)?;
    Ok(state)
}

enum MultiError {
    Spec(String),
    Io(std::io::Error),
}

/// Several releases with the multi-version packages, as AMD's multi-version guide installs
/// them: one repository line per release (no trailing .0 in its path), `rocmX.Y.Z` for each,
/// and the newest release's DKMS driver when the machine uses one.
fn multi_version(
    root: &Path,
    state: &mut State,
    spec: &MachineSpec,
    ubuntu_pkgs: &[catalog::Package],
    bin: &str,
) -> Result<(), MultiError> {
    if spec.rocm_installed.is_some() || spec.repo_configured.is_some() {
        return Err(MultiError::Spec(
            "rocm_releases cannot be combined with rocm_installed or repo_configured (single- and multi-version packages do not mix)".into(),
        ));
    }
    let mut releases = Vec::new();
    for v in &spec.rocm_releases {
        let r = catalog::release(v).ok_or_else(|| {
            MultiError::Spec(format!(
                "rocm_releases: unknown release {v} (known: {})",
                catalog::mirrored()
            ))
        })?;
        if !releases.contains(&r) {
            releases.push(r);
        }
    }
    releases.sort_by_key(|r| r.alt_priority);
    let code = state.machine.os.codename.clone();
    let key = "/etc/apt/keyrings/rocm.gpg";
    let io = MultiError::Io;
    fsx::write_atomic(
        &root.join("etc/apt/keyrings/rocm.gpg"),
        &keys::amd_key_binary(),
    )
    .map_err(io)?;
    let url = |r: &catalog::Release| {
        r.version
            .strip_suffix(".0")
            .unwrap_or(r.version)
            .to_string()
    };
    let rocm_list: String = releases
        .iter()
        .map(|r| format!("deb [arch=amd64 signed-by={key}] https://repo.radeon.com/rocm/apt/{} {code} main\n", url(r)))
        .collect();
    fsx::write_atomic(
        &root.join("etc/apt/sources.list.d/rocm.list"),
        rocm_list.as_bytes(),
    )
    .map_err(io)?;
    let newest = releases
        .last()
        .copied()
        .ok_or_else(|| MultiError::Spec("rocm_releases is empty".into()))?;
    fsx::write_atomic(
        &root.join("etc/apt/sources.list.d/amdgpu.list"),
        format!("deb [arch=amd64 signed-by={key}] https://repo.radeon.com/amdgpu/{}/ubuntu {code} main\n", url(newest)).as_bytes(),
    )
    .map_err(io)?;
    fsx::write_atomic(
        &root.join("etc/apt/preferences.d/rocm-pin-600"),
        b"Package: *\nPin: release o=repo.radeon.com\nPin-Priority: 600\n",
    )
    .map_err(io)?;
    let mut avail = ubuntu_pkgs.to_vec();
    for r in &releases {
        state.apt_lists.insert(format!(
            "https://repo.radeon.com/rocm/apt/{} {code}",
            url(r)
        ));
        avail.extend(catalog::amd_packages(
            r,
            Origin::Rocm,
            &state.machine.os.version_id,
        ));
    }
    state.apt_lists.insert(format!(
        "https://repo.radeon.com/amdgpu/{} {code}",
        url(newest)
    ));
    avail.extend(catalog::amd_packages(
        newest,
        Origin::AmdGpu,
        &state.machine.os.version_id,
    ));
    let mut names: Vec<String> = releases
        .iter()
        .map(|r| format!("rocm{}", r.version))
        .collect();
    if spec.driver == DriverKind::Dkms {
        names.push("amdgpu-dkms".into());
    }
    for n in names {
        let list = pkgs::resolve(state, &avail, std::slice::from_ref(&n))
            .map_err(|n| MultiError::Spec(format!("no package {n}")))?;
        for p in list {
            pkgs::install(root, state, &p, bin).map_err(io)?;
        }
    }
    fsx::write_atomic(
        &root.join("etc/ld.so.conf.d/rocm.conf"),
        b"/opt/rocm/lib\n/opt/rocm/lib64\n",
    )
    .map_err(io)?;
    Ok(())
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
