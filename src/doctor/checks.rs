//! The checks, from the ground floor up (the verify lesson's order): the GPU on the bus, the
//! driver, the device nodes and who may open them, the groups of this login, ROCm and PATH, what
//! rocminfo and amd-smi say, and the OS and GPU against the support matrix.
//!
//! A floor that is missing makes the floors above it "cannot tell" rather than a wall of
//! problems that all have the same cause: with no AMD GPU there is nothing to drive, and without
//! the driver there is no /dev/kfd to open.

use crate::content::{Msg, Status, SupportMatrix};
use crate::unix::accounts::{self, Groups};

use super::finding::{Finding, Level};
use super::host::{Host, Node, Open, ToolRun};

/// `amd-smi`, in two pieces: a dashed string on its own would read as a message id to the test
/// that keeps the catalogues complete.
const AMD_SMI: &str = "amd-smi";

const PCI: &str = "/sys/bus/pci/devices";
const AMD_VENDOR: &str = "0x1002";

/// Runs every check against the host. The findings come in a fixed order, ground floor first.
pub fn examine(host: &Host, matrix: &SupportMatrix) -> Vec<Finding> {
    let mut out = Vec::new();
    let gpus = pci_gpus(host);
    out.push(gpu_finding(&gpus));
    // Without an AMD GPU every other floor could only say "cannot tell": one finding says it.
    if matches!(&gpus, Ok(v) if v.is_empty()) {
        return out;
    }

    let driver = driver_state(host);
    out.push(driver_finding(host, &driver));
    // Whether the floors above the driver can be looked at.
    let gate = (!driver.loaded()).then_some(Gate::NoDriver);

    let db = Groups::load(&host.root);
    let kfd = host.node("/dev/kfd");
    out.push(match gate {
        Some(g) => g.finding("kfd"),
        None => kfd_finding(&db, kfd),
    });
    out.push(match (gate, kfd) {
        (Some(g), _) => g.finding("kfd_access"),
        (None, None) => Finding::unknown("kfd_access", Msg::new("doctor-access-no-kfd")),
        (None, Some(node)) => access_finding(host, &db, "kfd_access", "/dev/kfd", node),
    });
    let render = render_nodes(host);
    out.push(match gate {
        Some(g) => g.finding("render"),
        None => render_finding(host, &db, &render),
    });
    out.push(groups_finding(host, &db, kfd, &render));

    let rocm = rocm_install(host);
    out.push(rocm_finding(rocm.as_ref()));
    out.push(path_finding(host, rocm.as_ref()));

    let (rocminfo, agents) = match gate {
        Some(g) => (g.finding("rocminfo"), Vec::new()),
        None => rocminfo_finding(host, rocm.as_ref()),
    };
    out.push(rocminfo);
    out.push(match gate {
        Some(g) => g.finding("amd_smi"),
        None => amd_smi_finding(host, rocm.as_ref()),
    });

    let os = os_release(host);
    out.push(os_finding(host, matrix, os.as_ref()));
    out.extend(support_findings(
        host,
        matrix,
        os.as_ref(),
        rocm.as_ref(),
        &agents,
    ));
    out
}

#[derive(Clone, Copy)]
enum Gate {
    NoDriver,
}

impl Gate {
    fn finding(self, check: &'static str) -> Finding {
        match self {
            Gate::NoDriver => {
                Finding::unknown(check, Msg::new("doctor-needs-driver").arg("check", check))
            }
        }
    }
}

// ---------------------------------------------------------------- 1F: the GPU on the bus

struct PciGpu {
    addr: String,
    device: String,
}

/// AMD display controllers (class 0x03) and processing accelerators (0x12, the Instinct cards).
fn pci_gpus(h: &Host) -> Result<Vec<PciGpu>, String> {
    let names = h.list(PCI).map_err(|e| e.to_string())?;
    Ok(names
        .into_iter()
        .filter_map(|n| {
            let dir = format!("{PCI}/{n}");
            let vendor = h.attr(&format!("{dir}/vendor"))?;
            let class = h.attr(&format!("{dir}/class"))?;
            let class = class.trim_start_matches("0x");
            let gpu = vendor.eq_ignore_ascii_case(AMD_VENDOR)
                && (class.starts_with("03") || class.starts_with("12"));
            gpu.then(|| PciGpu {
                device: h.attr(&format!("{dir}/device")).unwrap_or_default(),
                addr: n,
            })
        })
        .collect())
}

fn gpu_finding(gpus: &Result<Vec<PciGpu>, String>) -> Finding {
    match gpus {
        Err(e) => Finding::unknown(
            "gpu",
            Msg::new("doctor-gpu-unreadable")
                .arg("path", PCI)
                .arg("error", e),
        )
        .teaches_lesson("verify"),
        Ok(v) if v.is_empty() => Finding::problem("gpu", Msg::new("doctor-gpu-none"))
            .fix(Msg::new("doctor-gpu-none-fix"))
            .teaches_lesson("verify"),
        Ok(v) => {
            let list: Vec<String> = v
                .iter()
                .map(|g| {
                    if g.device.is_empty() {
                        g.addr.clone()
                    } else {
                        format!("{} [1002:{}]", g.addr, g.device.trim_start_matches("0x"))
                    }
                })
                .collect();
            Finding::ok(
                "gpu",
                Msg::new("doctor-gpu-found")
                    .arg("count", v.len())
                    .arg("list", list.join(", ")),
            )
        }
    }
}

// ---------------------------------------------------------------- 2F: the driver

enum Driver {
    /// Loaded; the version is there only for AMD's DKMS build.
    Live {
        dkms: Option<String>,
    },
    /// Compiled into the kernel.
    BuiltIn,
    /// Loaded but not live (still loading, or being removed).
    State(String),
    Absent,
}

impl Driver {
    fn loaded(&self) -> bool {
        matches!(self, Driver::Live { .. } | Driver::BuiltIn)
    }
}

fn driver_state(h: &Host) -> Driver {
    if !h.exists("/sys/module/amdgpu") {
        return Driver::Absent;
    }
    match h.attr("/sys/module/amdgpu/initstate") {
        Some(s) if s == "live" => Driver::Live {
            dkms: h
                .attr("/sys/module/amdgpu/version")
                .filter(|v| !v.is_empty()),
        },
        Some(s) => Driver::State(s),
        // A built-in driver has a /sys/module entry (for its parameters) but no initstate.
        None => Driver::BuiltIn,
    }
}

fn kernel(h: &Host) -> String {
    h.kernel.clone().unwrap_or_else(|| "?".into())
}

fn driver_finding(h: &Host, d: &Driver) -> Finding {
    let k = kernel(h);
    match d {
        Driver::Live { dkms: Some(v) } => {
            Finding::ok("amdgpu", Msg::new("doctor-amdgpu-dkms").arg("version", v))
        }
        Driver::Live { dkms: None } => {
            Finding::ok("amdgpu", Msg::new("doctor-amdgpu-intree").arg("kernel", k))
        }
        Driver::BuiltIn => {
            Finding::ok("amdgpu", Msg::new("doctor-amdgpu-builtin").arg("kernel", k))
        }
        Driver::State(s) => {
            Finding::problem("amdgpu", Msg::new("doctor-amdgpu-state").arg("state", s))
                .fix(Msg::new("doctor-dmesg-fix"))
                .teaches_lab("amdgpu-not-loaded")
        }
        Driver::Absent => {
            if let Some((place, line)) = blocked(h) {
                return Finding::problem(
                    "amdgpu",
                    Msg::new("doctor-amdgpu-blocked")
                        .arg("place", place)
                        .arg("line", line),
                )
                .fix(Msg::new("doctor-amdgpu-blocked-fix"))
                .teaches_lab("amdgpu-not-loaded");
            }
            match module_available(h) {
                Some(false) => Finding::problem(
                    "amdgpu",
                    Msg::new("doctor-amdgpu-not-built").arg("kernel", &k),
                )
                .fix(Msg::new("doctor-amdgpu-not-built-fix").arg("kernel", &k))
                .teaches_lesson("verify"),
                _ => Finding::problem("amdgpu", Msg::new("doctor-amdgpu-not-loaded"))
                    .fix(Msg::new("doctor-amdgpu-not-loaded-fix").arg("kernel", &k))
                    .teaches_lab("amdgpu-not-loaded"),
            }
        }
    }
}

/// Does the running kernel have an amdgpu module to load (its own or a DKMS build)? `None` when
/// its module list cannot be read.
fn module_available(h: &Host) -> Option<bool> {
    let k = h.kernel.as_ref()?;
    let dep = h.read(&format!("/lib/modules/{k}/modules.dep")).ok()?;
    let builtin = h
        .read(&format!("/lib/modules/{k}/modules.builtin"))
        .unwrap_or_default();
    let has = |text: &str| {
        text.lines().any(|l| {
            let file = l.split(':').next().unwrap_or("");
            file.rsplit('/')
                .next()
                .unwrap_or("")
                .starts_with("amdgpu.ko")
        })
    };
    Some(has(&dep) || has(&builtin))
}

/// A blacklist line in /etc/modprobe.d or a kernel parameter that keeps amdgpu from loading.
fn blocked(h: &Host) -> Option<(String, String)> {
    if let Ok(cmdline) = h.read("/proc/cmdline") {
        for word in cmdline.split_whitespace() {
            let stops = word
                .strip_prefix("modprobe.blacklist=")
                .is_some_and(|l| l.split(',').any(|m| m == "amdgpu"))
                || word == "amdgpu.modeset=0"
                || word == "nomodeset";
            if stops {
                return Some(("/proc/cmdline".into(), word.to_string()));
            }
        }
    }
    for name in h.list("/etc/modprobe.d").unwrap_or_default() {
        if !name.ends_with(".conf") {
            continue;
        }
        let path = format!("/etc/modprobe.d/{name}");
        let text = h.read(&path).unwrap_or_default();
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let stops = matches!(words.as_slice(), ["blacklist", "amdgpu", ..])
                || matches!(words.as_slice(), ["install", "amdgpu", rest @ ..]
                    if rest.first().is_some_and(|c| c.ends_with("/false") || c.ends_with("/true")));
            if stops {
                return Some((path, line.trim().to_string()));
            }
        }
    }
    None
}

// ---------------------------------------------------------------- 2F: the device nodes

fn mode(n: &Node) -> String {
    format!("{:04o}", n.mode)
}

fn owner_name(h: &Host, uid: u32) -> String {
    accounts::user_by_uid(&h.root, uid)
        .map(|u| u.name)
        .unwrap_or_else(|| uid.to_string())
}

fn kfd_finding(db: &Groups, kfd: Option<Node>) -> Finding {
    match kfd {
        Some(n) => Finding::ok(
            "kfd",
            Msg::new("doctor-kfd-present")
                .arg("group", db.name_of(n.gid))
                .arg("mode", mode(&n)),
        ),
        None => Finding::problem("kfd", Msg::new("doctor-kfd-missing"))
            .fix(Msg::new("doctor-dmesg-fix"))
            .teaches_lesson("verify"),
    }
}

/// Opens the node read-write; when the kernel refuses, says why as rocminfo does: the group
/// that owns the node, and whether /etc/group lists this user in it.
fn access_finding(h: &Host, db: &Groups, id: &'static str, device: &str, n: Node) -> Finding {
    match h.open_rw(device) {
        Open::Ok => Finding::ok(
            id,
            Msg::new("doctor-open-ok")
                .arg("user", &h.user)
                .arg("device", device),
        ),
        Open::Denied => denied(h, db, id, device, n),
        Open::Missing => {
            Finding::problem(id, Msg::new("doctor-open-missing").arg("device", device))
                .teaches_lesson("verify")
        }
        Open::Error(e) => Finding::problem(
            id,
            Msg::new("doctor-open-error")
                .arg("device", device)
                .arg("error", e),
        )
        .fix(Msg::new("doctor-dmesg-fix"))
        .teaches_lesson("verify"),
    }
}

fn denied(h: &Host, db: &Groups, id: &'static str, device: &str, n: Node) -> Finding {
    let group = db.name_of(n.gid);
    let msg = |key: &'static str| {
        Msg::new(key)
            .arg("user", &h.user)
            .arg("device", device)
            .arg("group", &group)
            .arg("owner", owner_name(h, n.uid))
            .arg("mode", mode(&n))
    };
    if (n.mode >> 3) & 6 != 6 {
        // No group could get in: the lock, not the key, is wrong.
        return Finding::problem(id, msg("doctor-denied-closed"))
            .fix(Msg::new("doctor-denied-closed-fix"))
            .teaches_lab("kfd-udev-rules");
    }
    if h.gids.contains(&n.gid) {
        return Finding::problem(id, msg("doctor-denied-other"))
            .fix(Msg::new("doctor-denied-other-fix").arg("device", device))
            .teaches_lesson("permissions");
    }
    if accounts::is_member(&h.root, &h.user, &group) {
        return Finding::problem(id, msg("doctor-denied-relogin"))
            .fix(relogin_fix(h, &group))
            .teaches_lab("hsa-init-failed");
    }
    // The usual pair: render for the compute and render nodes, video on older systems.
    let groups = if group == "render" || group == "video" {
        "render,video".to_string()
    } else {
        group.clone()
    };
    Finding::problem(id, msg("doctor-denied-not-member"))
        .fix(
            Msg::new("doctor-denied-not-member-fix")
                .arg("user", &h.user)
                .arg("groups", groups),
        )
        .teaches_lab("hsa-init-failed")
}

fn relogin_fix(h: &Host, group: &str) -> Msg {
    Msg::new("doctor-relogin-fix")
        .arg("user", &h.user)
        .arg("group", group)
}

/// `/dev/dri/renderD*` of AMD GPUs (a node whose vendor cannot be read counts as AMD's).
fn render_nodes(h: &Host) -> Vec<(String, Option<Node>)> {
    h.list("/dev/dri")
        .unwrap_or_default()
        .into_iter()
        .filter(|n| n.starts_with("renderD"))
        .filter(|n| {
            h.attr(&format!("/sys/class/drm/{n}/device/vendor"))
                .is_none_or(|v| v.eq_ignore_ascii_case(AMD_VENDOR))
        })
        .map(|n| {
            let path = format!("/dev/dri/{n}");
            let node = h.node(&path);
            (path, node)
        })
        .collect()
}

fn render_finding(h: &Host, db: &Groups, nodes: &[(String, Option<Node>)]) -> Finding {
    if nodes.is_empty() {
        return Finding::problem("render", Msg::new("doctor-render-none"))
            .fix(Msg::new("doctor-dmesg-fix"))
            .teaches_lesson("verify");
    }
    for (path, node) in nodes {
        let Some(n) = node else { continue };
        let f = access_finding(h, db, "render", path, *n);
        if f.level != Level::Ok {
            return f;
        }
    }
    let names: Vec<&str> = nodes
        .iter()
        .map(|(p, _)| p.rsplit('/').next().unwrap_or(p))
        .collect();
    Finding::ok(
        "render",
        Msg::new("doctor-render-ok")
            .arg("user", &h.user)
            .arg("count", nodes.len())
            .arg("list", names.join(", ")),
    )
}

// ---------------------------------------------------------------- groups: database vs session

/// The GPU groups (render, video, and whichever groups own the nodes) that /etc/group gives this
/// user, against the groups this process really has. A difference means the login is older than
/// the change: only a new login picks it up.
fn groups_finding(
    h: &Host,
    db: &Groups,
    kfd: Option<Node>,
    render: &[(String, Option<Node>)],
) -> Finding {
    if db.entries.is_empty() {
        return Finding::unknown("groups", Msg::new("doctor-groups-unreadable"));
    }
    let mut names: Vec<String> = vec!["render".into(), "video".into()];
    for n in kfd
        .iter()
        .chain(render.iter().filter_map(|(_, n)| n.as_ref()))
    {
        if let Some(g) = db.by_gid(n.gid)
            && !names.contains(&g.name)
        {
            names.push(g.name.clone());
        }
    }
    let relevant: Vec<(&str, u32)> = names
        .iter()
        .filter_map(|n| db.by_name(n).map(|g| (g.name.as_str(), g.gid)))
        .filter(|(name, _)| *name != "root")
        .collect();
    let pending: Vec<&str> = relevant
        .iter()
        .filter(|(name, gid)| accounts::is_member(&h.root, &h.user, name) && !h.gids.contains(gid))
        .map(|(name, _)| *name)
        .collect();
    if let Some(first) = pending.first() {
        return Finding::problem(
            "groups",
            Msg::new("doctor-groups-relogin")
                .arg("user", &h.user)
                .arg("groups", pending.join(", "))
                .arg("count", pending.len()),
        )
        .fix(relogin_fix(h, first))
        .teaches_lab("hsa-init-failed");
    }
    let have: Vec<&str> = relevant
        .iter()
        .filter(|(_, gid)| h.gids.contains(gid))
        .map(|(name, _)| *name)
        .collect();
    Finding::ok(
        "groups",
        Msg::new("doctor-groups-match").arg("user", &h.user).arg(
            "groups",
            if have.is_empty() {
                "none".to_string()
            } else {
                have.join(", ")
            },
        ),
    )
}

// ---------------------------------------------------------------- ROCm and PATH

struct Rocm {
    /// The real folder (`/opt/rocm-6.3.0`), links followed.
    dir: String,
    /// `6.3.0`, when it can be read.
    version: Option<String>,
    /// Other versioned installs beside it.
    others: Vec<String>,
    /// A ROCm Core SDK install (10.x), whose packages link the tools into `/usr/bin`.
    core_sdk: bool,
}

impl Rocm {
    /// `6.3`, as the support matrix names releases.
    fn release(&self) -> Option<String> {
        let v = self.version.as_ref()?;
        let mut parts = v.split('.');
        Some(format!("{}.{}", parts.next()?, parts.next()?))
    }
}

/// `6.3.0` from `rocm-6.3.0`, or `None` for other names.
fn version_of_dir(name: &str) -> Option<String> {
    let v = name.strip_prefix("rocm-")?;
    let ok = v.split('.').count() >= 2
        && v.split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    ok.then(|| v.to_string())
}

fn version_key(v: &str) -> Vec<u64> {
    v.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

/// `10.0` from `core-10.0`: the ROCm Core SDK's folders under a plain `/opt/rocm` directory.
fn version_of_core(name: &str) -> Option<String> {
    version_of_dir(&format!("rocm-{}", name.strip_prefix("core-")?))
}

/// The ROCm Core SDK (10.x): `/opt/rocm` is a folder holding one `core-X.Y` per minor release
/// (there is no `/opt/rocm-X.Y.Z`); the newest is the one its links lead to in auto mode.
fn core_sdk_install(h: &Host) -> Option<Rocm> {
    let mut cores: Vec<String> = h
        .list("/opt/rocm")
        .ok()?
        .into_iter()
        .filter(|n| version_of_core(n).is_some())
        .filter(|n| std::fs::metadata(h.file(&format!("/opt/rocm/{n}"))).is_ok_and(|m| m.is_dir()))
        .collect();
    cores.sort_by_key(|n| version_key(&version_of_core(n).unwrap_or_default()));
    let name = cores.pop()?;
    let dir = format!("/opt/rocm/{name}");
    // `.info/version` holds `X.Y.Z-BUILD` when the packages ship it; else the folder's X.Y.
    let version = h
        .attr(&format!("{dir}/.info/version"))
        .and_then(|v| v.split('-').next().map(str::to_string))
        .filter(|v| !v.is_empty())
        .or_else(|| version_of_core(&name));
    Some(Rocm {
        dir,
        version,
        others: cores
            .into_iter()
            .map(|n| format!("/opt/rocm/{n}"))
            .collect(),
        core_sdk: true,
    })
}

fn rocm_install(h: &Host) -> Option<Rocm> {
    if let Some(core) = core_sdk_install(h) {
        return Some(core);
    }
    let mut versioned: Vec<String> = h
        .list("/opt")
        .unwrap_or_default()
        .into_iter()
        .filter(|n| version_of_dir(n).is_some())
        .filter(|n| std::fs::metadata(h.file(&format!("/opt/{n}"))).is_ok_and(|m| m.is_dir()))
        .collect();
    versioned.sort_by_key(|n| version_key(&version_of_dir(n).unwrap_or_default()));
    let (dir, from_link) = match h.resolve("/opt/rocm") {
        Some(d) if std::fs::metadata(h.file(&d)).is_ok_and(|m| m.is_dir()) => (d, true),
        _ => (format!("/opt/{}", versioned.last()?), false),
    };
    let info = if from_link {
        h.attr("/opt/rocm/.info/version")
    } else {
        h.attr(&format!("{dir}/.info/version"))
    };
    // `.info/version` holds `6.3.0-39`: the release, then the build.
    let version = info
        .and_then(|v| v.split('-').next().map(str::to_string))
        .filter(|v| !v.is_empty())
        .or_else(|| version_of_dir(dir.rsplit('/').next().unwrap_or("")));
    let name = dir.rsplit('/').next().unwrap_or("").to_string();
    let others = versioned
        .into_iter()
        .filter(|n| *n != name)
        .map(|n| format!("/opt/{n}"))
        .collect();
    Some(Rocm {
        dir,
        version,
        others,
        core_sdk: false,
    })
}

fn rocm_finding(rocm: Option<&Rocm>) -> Finding {
    let Some(r) = rocm else {
        return Finding::problem("rocm", Msg::new("doctor-rocm-none"))
            .fix(Msg::new("doctor-rocm-none-fix"))
            .teaches_lab("fresh-node-install");
    };
    let others = if r.others.is_empty() {
        "none".to_string()
    } else {
        r.others.join(", ")
    };
    match &r.version {
        Some(v) => Finding::ok(
            "rocm",
            Msg::new("doctor-rocm-found")
                .arg("version", v)
                .arg("dir", &r.dir)
                .arg("others", others),
        ),
        None => Finding::ok(
            "rocm",
            Msg::new("doctor-rocm-noversion")
                .arg("dir", &r.dir)
                .arg("others", others),
        ),
    }
}

/// The absolute folders of PATH, in order (empty and relative entries are left out: they
/// depend on the folder the user happens to be in).
fn path_dirs(h: &Host) -> Vec<String> {
    h.path
        .as_deref()
        .unwrap_or("")
        .split(':')
        .filter(|d| d.starts_with('/'))
        .map(|d| {
            let t = d.trim_end_matches('/');
            if t.is_empty() { "/" } else { t }.to_string()
        })
        .collect()
}

fn path_finding(h: &Host, rocm: Option<&Rocm>) -> Finding {
    let Some(r) = rocm else {
        return Finding::unknown("path", Msg::new("doctor-path-no-rocm"));
    };
    if h.path.is_none() {
        return Finding::unknown("path", Msg::new("doctor-path-unset"));
    }
    let bin = format!("{}/bin", r.dir);
    let want = h.resolve(&bin).unwrap_or_else(|| bin.clone());
    // The Core SDK's packages link each tool into /usr/bin (through /etc/alternatives): a
    // folder on PATH whose rocminfo leads into this install counts as ROCm on PATH.
    let linked = |d: &String| {
        r.core_sdk
            && h.resolve(&format!("{d}/rocminfo"))
                .is_some_and(|x| x.starts_with(&format!("{want}/")))
    };
    match path_dirs(h)
        .into_iter()
        .find(|d| h.resolve(d).is_some_and(|x| x == want) || linked(d))
    {
        Some(d) => Finding::ok("path", Msg::new("doctor-path-ok").arg("dir", d)),
        None => {
            let shown = if h.exists("/opt/rocm") {
                "/opt/rocm/bin".to_string()
            } else {
                bin
            };
            Finding::problem("path", Msg::new("doctor-path-missing").arg("dir", &shown))
                .fix(Msg::new("doctor-path-missing-fix").arg("dir", shown))
                .teaches_lab("hipcc-not-found")
        }
    }
}

/// A tool by name: on PATH first (what typing its name runs), else in ROCm's bin.
fn find_tool(h: &Host, name: &str, rocm: Option<&Rocm>) -> Option<String> {
    let mut dirs = path_dirs(h);
    if let Some(r) = rocm {
        dirs.push("/opt/rocm/bin".into());
        dirs.push(format!("{}/bin", r.dir));
    }
    dirs.into_iter()
        .map(|d| format!("{}/{name}", d.trim_end_matches('/')))
        .find(|p| h.is_executable(p))
}

// ---------------------------------------------------------------- 3F: rocminfo and amd-smi

/// The text of a tool's output without the colour codes rocminfo puts around its start-up lines.
fn strip_ansi(s: &str) -> String {
    crate::term_text::plain(s.as_bytes())
}

/// The line most worth quoting from a failed tool: one that names an error, else the last.
fn telling_line(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines
        .iter()
        .find(|l| {
            let low = l.to_lowercase();
            low.contains("error") || low.contains("fail") || low.contains("unable")
        })
        .or(lines.last())
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// Runs a tool; `Err` says why it gave no answer (it hung or could not start), which makes
/// its finding "cannot tell".
fn run_tool(
    h: &Host,
    tool: &str,
    path: &str,
    args: &[&str],
) -> Result<(Option<i32>, String, String), Msg> {
    let msg = match h.tools.run(path, args) {
        ToolRun::Done {
            code,
            stdout,
            stderr,
        } => return Ok((code, stdout, stderr)),
        ToolRun::TimedOut(secs) => Msg::new("doctor-tool-timeout").arg("secs", secs),
        ToolRun::Failed(e) => Msg::new("doctor-tool-failed").arg("error", e),
    };
    Err(msg.arg("tool", tool))
}

/// rocminfo's verdict, and the GPU agents' names (their ISA) when it lists any.
fn rocminfo_finding(h: &Host, rocm: Option<&Rocm>) -> (Finding, Vec<String>) {
    let id = "rocminfo";
    let Some(path) = find_tool(h, "rocminfo", rocm) else {
        return match rocm {
            None => (
                Finding::unknown(id, Msg::new("doctor-tool-no-rocm").arg("tool", "rocminfo")),
                Vec::new(),
            ),
            Some(_) => (
                Finding::problem(id, Msg::new("doctor-rocminfo-missing"))
                    .fix(Msg::new("doctor-rocminfo-missing-fix"))
                    .teaches_lesson("finding-tools"),
                Vec::new(),
            ),
        };
    };
    let (code, stdout, stderr) = match run_tool(h, "rocminfo", &path, &[]) {
        Ok(done) => done,
        Err(why) => return (Finding::unknown(id, why), Vec::new()),
    };
    let text = strip_ansi(&format!("{stdout}\n{stderr}"));
    let line_with = |needle: &str| {
        text.lines()
            .map(str::trim)
            .find(|l| l.contains(needle))
            .map(str::to_string)
    };
    if let Some(l) = line_with("ROCk module is NOT loaded") {
        return (
            Finding::problem(id, Msg::new("doctor-rocminfo-no-module").arg("line", l))
                .fix(Msg::new("doctor-amdgpu-not-loaded-fix").arg("kernel", kernel(h)))
                .teaches_lab("amdgpu-not-loaded"),
            Vec::new(),
        );
    }
    if let Some(l) = line_with("Unable to open /dev/kfd") {
        // rocminfo's next line names the group and the user's membership of it.
        let next = text
            .lines()
            .map(str::trim)
            .skip_while(|x| *x != l)
            .nth(1)
            .unwrap_or("")
            .to_string();
        let quoted = if next.is_empty() {
            l
        } else {
            format!("{l} / {next}")
        };
        return (
            Finding::problem(id, Msg::new("doctor-rocminfo-kfd").arg("line", quoted))
                .teaches_lab("hsa-init-failed"),
            Vec::new(),
        );
    }
    let agents = gpu_agents(&text);
    if !agents.is_empty() {
        let mut names: Vec<&str> = Vec::new();
        for a in &agents {
            if !names.contains(&a.as_str()) {
                names.push(a);
            }
        }
        let f = Finding::ok(
            id,
            Msg::new("doctor-rocminfo-ok")
                .arg("path", &path)
                .arg("count", agents.len())
                .arg("names", names.join(", ")),
        );
        return (f, agents);
    }
    let f = if code != Some(0) {
        Finding::problem(
            id,
            Msg::new("doctor-rocminfo-failed")
                .arg("code", code.map_or("?".to_string(), |c| c.to_string()))
                .arg("line", telling_line(&text)),
        )
    } else {
        Finding::problem(id, Msg::new("doctor-rocminfo-no-agent"))
    };
    (f.teaches_lesson("verify"), Vec::new())
}

/// `Name:` of every agent whose `Device Type:` is GPU.
fn gpu_agents(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut name = None;
    for line in text.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("Name:") {
            name = Some(v.trim().to_string());
        } else if let Some(v) = line.strip_prefix("Device Type:")
            && v.trim() == "GPU"
            && let Some(n) = name.take()
        {
            names.push(n);
        }
    }
    names
}

fn amd_smi_finding(h: &Host, rocm: Option<&Rocm>) -> Finding {
    let id = "amd_smi";
    let Some(path) = find_tool(h, AMD_SMI, rocm) else {
        return match rocm {
            None => Finding::unknown(id, Msg::new("doctor-tool-no-rocm").arg("tool", AMD_SMI)),
            Some(_) => {
                Finding::unknown(id, Msg::new("doctor-amdsmi-missing")).teaches_lesson("verify")
            }
        };
    };
    let (code, stdout, stderr) = match run_tool(h, AMD_SMI, &path, &["list"]) {
        Ok(done) => done,
        Err(why) => return Finding::unknown(id, why),
    };
    let count = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("GPU:"))
        .count();
    if count > 0 {
        return Finding::ok(
            id,
            Msg::new("doctor-amdsmi-ok")
                .arg("path", &path)
                .arg("count", count),
        );
    }
    let text = strip_ansi(&format!("{stderr}\n{stdout}"));
    let line = telling_line(&text);
    let line = if line.is_empty() {
        format!(
            "exit status {}",
            code.map_or("?".to_string(), |c| c.to_string())
        )
    } else {
        line
    };
    Finding::problem(id, Msg::new("doctor-amdsmi-none").arg("line", line)).teaches_lesson("verify")
}

// ---------------------------------------------------------------- the OS and the support matrix

struct OsRelease {
    /// The support matrix's id (`ubuntu-22.04`).
    id: String,
    pretty: String,
}

fn os_release(h: &Host) -> Option<OsRelease> {
    let text = h
        .read("/etc/os-release")
        .or_else(|_| h.read("/usr/lib/os-release"))
        .ok()?;
    let field = |key: &str| {
        text.lines().find_map(|l| {
            let v = l.strip_prefix(key)?.strip_prefix('=')?;
            Some(v.trim().trim_matches('"').trim_matches('\'').to_string())
        })
    };
    let id = field("ID")?;
    let version = field("VERSION_ID").unwrap_or_default();
    let major = version.split('.').next().unwrap_or("").to_string();
    let matrix_id = match id.as_str() {
        "sles" | "sled" => match version.split_once('.') {
            Some((m, sp)) => format!("sles-{m}-sp{sp}"),
            None => format!("sles-{version}"),
        },
        "ol" => format!("oracle-linux-{major}"),
        "rocky" => format!("rocky-linux-{major}"),
        "azurelinux" => format!("azure-linux-{version}"),
        "debian" => format!("debian-{major}"),
        _ => format!("{id}-{version}"),
    };
    let pretty = field("PRETTY_NAME").unwrap_or_else(|| format!("{id} {version}"));
    Some(OsRelease {
        id: matrix_id,
        pretty,
    })
}

fn os_finding(h: &Host, matrix: &SupportMatrix, os: Option<&OsRelease>) -> Finding {
    let k = kernel(h);
    let Some(os) = os else {
        return Finding::unknown("os", Msg::new("doctor-os-unreadable").arg("kernel", k));
    };
    let listed: Vec<&str> = matrix
        .releases
        .iter()
        .filter(|r| r.os.contains(&os.id) || r.gpus.iter().any(|g| g.os.contains(&os.id)))
        .map(|r| r.version.as_str())
        .collect();
    let msg = |id: &'static str, releases: &[&str]| {
        Msg::new(id)
            .arg("pretty", &os.pretty)
            .arg("kernel", k)
            .arg("releases", releases.join(", "))
    };
    if listed.is_empty() {
        let known: Vec<&str> = matrix.releases.iter().map(|r| r.version.as_str()).collect();
        Finding::problem("os", msg("doctor-os-unlisted", &known))
            .fix(Msg::new("doctor-os-unlisted-fix"))
            .teaches_lesson("supported")
    } else {
        Finding::ok("os", msg("doctor-os-listed", &listed))
    }
}

/// `gfx942` from the KFD's `gfx_target_version 90402` (major, minor and stepping; the last two
/// are hex digits in the name, so 90010 is gfx90a).
pub fn isa_name(target_version: u32) -> Option<String> {
    if target_version == 0 {
        return None;
    }
    let major = target_version / 10000;
    let minor = (target_version / 100) % 100;
    let step = target_version % 100;
    (minor < 16 && step < 16).then(|| format!("gfx{major}{minor:x}{step:x}"))
}

/// The GPUs' ISAs from the driver's topology (CPU nodes have version 0 and are skipped).
fn topology_isas(h: &Host) -> Vec<String> {
    let dir = "/sys/class/kfd/kfd/topology/nodes";
    let mut nodes = h.list(dir).unwrap_or_default();
    nodes.sort_by_key(|n| n.parse::<u32>().unwrap_or(u32::MAX));
    let mut isas = Vec::new();
    for n in nodes {
        let props = h.read(&format!("{dir}/{n}/properties")).unwrap_or_default();
        let v = props.lines().find_map(|l| {
            l.strip_prefix("gfx_target_version")
                .and_then(|v| v.trim().parse::<u32>().ok())
        });
        if let Some(isa) = v.and_then(isa_name)
            && !isas.contains(&isa)
        {
            isas.push(isa);
        }
    }
    isas
}

fn support_findings(
    h: &Host,
    matrix: &SupportMatrix,
    os: Option<&OsRelease>,
    rocm: Option<&Rocm>,
    agents: &[String],
) -> Vec<Finding> {
    let id = "support";
    let mut isas = topology_isas(h);
    if isas.is_empty() {
        for a in agents {
            if a.starts_with("gfx") && !isas.contains(a) {
                isas.push(a.clone());
            }
        }
    }
    if isas.is_empty() {
        return vec![
            Finding::unknown(id, Msg::new("doctor-support-no-isa")).teaches_lesson("verify"),
        ];
    }
    let Some(os) = os else {
        return vec![Finding::unknown(id, Msg::new("doctor-support-no-os"))];
    };
    let known: Vec<&str> = matrix.releases.iter().map(|r| r.version.as_str()).collect();
    // Without ROCm (or its version), judge the newest release the course knows: the one a
    // fresh install would get.
    let (release, planned) = match rocm.and_then(Rocm::release) {
        Some(r) => (r, false),
        None => match known.last() {
            Some(r) => (r.to_string(), true),
            None => return vec![Finding::unknown(id, Msg::new("doctor-support-no-data"))],
        },
    };
    if !known.contains(&release.as_str()) {
        return vec![
            Finding::unknown(
                id,
                Msg::new("doctor-support-no-release")
                    .arg("release", &release)
                    .arg("known", known.join(", ")),
            )
            .teaches_lesson("supported"),
        ];
    }
    let os_name = matrix
        .oses
        .iter()
        .find(|o| o.id == os.id)
        .map(|o| o.name.clone())
        .unwrap_or_else(|| os.pretty.clone());
    isas.iter()
        .map(|isa| {
            let v = matrix.verdict(isa, &os.id, &release);
            let gpu_name = matrix
                .gpus
                .iter()
                .find(|g| &g.id == isa)
                .map(|g| g.name.clone())
                .unwrap_or_else(|| "?".into());
            let msg = |key: &'static str| {
                Msg::new(key)
                    .arg("gpu", isa)
                    .arg("name", &gpu_name)
                    .arg("os", &os_name)
                    .arg("release", &release)
                    .arg("planned", if planned { "yes" } else { "no" })
            };
            let mut f = match v.status {
                Status::Supported => Finding::ok(id, msg("doctor-support-ok")),
                Status::Deprecated => Finding::ok(id, msg("doctor-support-deprecated")),
                Status::Unsupported => {
                    let why = if v.unlisted {
                        "unlisted"
                    } else if v.wrong_os {
                        "os"
                    } else {
                        "marked"
                    };
                    Finding::problem(id, msg("doctor-support-unsupported").arg("why", why))
                        .fix(Msg::new("doctor-support-fix"))
                }
            }
            .teaches_lesson("supported");
            f.note = v.note;
            f
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isa_names_follow_the_kfd_encoding() {
        assert_eq!(isa_name(90402).as_deref(), Some("gfx942"));
        assert_eq!(isa_name(90000).as_deref(), Some("gfx900"));
        assert_eq!(isa_name(90010).as_deref(), Some("gfx90a"));
        assert_eq!(isa_name(100300).as_deref(), Some("gfx1030"));
        assert_eq!(isa_name(110000).as_deref(), Some("gfx1100"));
        assert_eq!(isa_name(0), None);
    }

    #[test]
    fn rocminfo_agents_are_the_gpu_ones() {
        let text = "Agent 1\n  Name:                    AMD EPYC 9654\n  Device Type:             CPU\nAgent 2\n  Name:                    gfx942\n  Marketing Name:          AMD Instinct MI300X\n  Device Type:             GPU\n  ISA 1\n    Name:                    amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-\n";
        assert_eq!(gpu_agents(text), vec!["gfx942".to_string()]);
    }

    #[test]
    fn colour_codes_are_removed() {
        assert_eq!(
            strip_ansi("\x1b[31mROCk module is NOT loaded\x1b[0m"),
            "ROCk module is NOT loaded"
        );
    }

    #[test]
    fn versioned_folders_only() {
        assert_eq!(version_of_dir("rocm-6.3.0").as_deref(), Some("6.3.0"));
        assert_eq!(version_of_dir("rocm-6.3.0.bak"), None);
        assert_eq!(version_of_dir("rocm"), None);
    }
}
