//! The machine facts that have no file on a real machine: one versioned JSON file in the stage,
//! written atomically, plus the read-only queries the lab's checks use.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use rocm_unix::accounts;

use super::error::SimError;
use super::fsx;
use super::host::Host;
use super::k8s::Cluster;
use super::machine::Machine;
pub use super::udev::DevNode;
use super::udev::Rule;

/// Where the state lives, relative to the stage root.
pub const STATE_PATH: &str = "var/lib/rocm-sim/state.json";

/// Bumped when the format changes incompatibly.
pub const VERSION: u32 = 1;

/// Where the machine's /proc/cmdline is kept, relative to the stage root, for the sandbox to
/// mount over /proc/cmdline.
pub const CMDLINE_PATH: &str = "var/lib/rocm-sim/cmdline";

/// Boot facts with no file on a real machine.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Boot {
    /// Boots since the stage was made. A boot ends every login session: the lab's login loop
    /// compares this number with the one it saw at login to notice that the machine rebooted.
    pub count: u32,
    /// The running kernel's command line (/proc/cmdline).
    pub cmdline: String,
    /// The command line in /boot/grub/grub.cfg: what `update-grub` last generated from
    /// /etc/default/grub. Editing /etc/default/grub alone changes nothing.
    pub grub_cmdline: String,
    /// The kernel log since boot.
    pub log: Vec<LogLine>,
    /// UEFI Secure Boot is on (`mokutil --sb-state`).
    pub secure_boot: bool,
    /// The DKMS signing key (MOK) is enrolled, so Secure Boot accepts DKMS modules.
    pub mok_enrolled: bool,
    /// `mokutil --import` queued the key: MokManager enrols it at the next boot.
    pub mok_pending: bool,
    /// A firmware file amdgpu needs that the machine lacks (`amdgpu/psp_13_0_8_toc.bin`).
    #[serde(default)]
    pub missing_firmware: Option<String>,
    /// The boot before this one, as the journal keeps it (`journalctl -b -1`): its start time
    /// and its log. None until the machine reboots in the lab.
    #[serde(default)]
    pub previous: Option<(i64, Vec<LogLine>)>,
}

/// One kernel (or early userspace) log record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogLine {
    /// Seconds since boot.
    pub t: f64,
    /// Empty for the kernel; else the journal identifier with its pid
    /// (`systemd-modules-load[252]`), which `dmesg` does not show.
    #[serde(default)]
    pub src: String,
    /// The message.
    pub msg: String,
}

/// The machine's facts that have no file on a real machine (`var/lib/rocm-sim/state.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// The hardware and OS the stage was made from.
    pub machine: Machine,
    /// Unix time of the last boot; every date a tool prints derives from it.
    pub boot_time: i64,
    /// Seconds since boot that count as "now" (kubectl advances it so ages move).
    pub uptime: i64,
    /// The amdgpu driver currently loaded, if any.
    pub driver: Option<Driver>,
    /// Whether the running kernel has the in-tree amdgpu.ko (Ubuntu's linux-modules-extra).
    pub in_tree_module: bool,
    /// Major number the kernel gave /dev/kfd (dynamic on a real machine).
    pub kfd_major: u32,
    /// Device nodes as udev last set them up.
    pub devices: Vec<DevNode>,
    /// The rules udev has loaded (at boot or at the last `udevadm control --reload-rules`).
    pub udev_rules: Vec<Rule>,
    /// Installed packages by name.
    pub packages: BTreeMap<String, Installed>,
    /// Repositories whose indexes `apt update` fetched, as `URI SUITE`.
    pub apt_lists: BTreeSet<String>,
    /// DKMS modules built and installed.
    pub dkms: Vec<DkmsEntry>,
    /// Login sessions: the credentials each one got at login.
    pub sessions: BTreeMap<String, Session>,
    /// Number of the next login session.
    pub next_session: u32,
    /// The Kubernetes cluster, on machines that have one.
    pub cluster: Option<Cluster>,
    /// Kernel command line, boot count, kernel log, Secure Boot.
    #[serde(default)]
    pub boot: Boot,
}

/// How amdgpu is loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Driver {
    /// The module that came with the kernel.
    InTree,
    /// The module DKMS built.
    Dkms {
        /// Its version.
        version: String,
    },
}

/// An installed package.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Installed {
    /// Its version.
    pub version: String,
    /// The ROCm release it belongs to, for packages of several releases side by side.
    #[serde(default)]
    pub release: Option<String>,
    /// Its architecture (`amd64`, `all`).
    #[serde(default)]
    pub arch: String,
    /// Unpacked but its post-install script failed (dpkg's `half-configured`, `iF`): apt and
    /// `dpkg --configure -a` run the script again.
    #[serde(default)]
    pub half_configured: bool,
    /// Installed only as another package's dependency (what `apt autoremove` may take).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto: bool,
}

/// A DKMS module, added or built.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DkmsEntry {
    /// Module name (`amdgpu`).
    pub module: String,
    /// Module version.
    pub version: String,
    /// Empty while the module is only added (its source is there, nothing is built).
    pub kernel: String,
    /// Architecture it was built for.
    pub arch: String,
}

/// A login session and the credentials it got at login.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// Who logged in.
    pub user: String,
    /// Their uid.
    pub uid: u32,
    /// Primary group first, then the supplementary groups, as the kernel holds them.
    pub gids: Vec<u32>,
}

impl State {
    /// Where the state of the stage at `root` lives.
    pub fn path(root: &Path) -> PathBuf {
        root.join(STATE_PATH)
    }

    /// Loads the state of the stage at `root` of `host`. Every failure is a `SimError` with a
    /// message a learner (or lab author) can act on; nothing here panics on bad input. Device
    /// nodes that exist for real on the machine's own root give their owner, group and mode
    /// ([`State::read_back_nodes`]).
    pub fn load_on(root: &Path, host: &dyn Host) -> Result<State, SimError> {
        let mut state = State::load_recorded(root)?;
        state.read_back_nodes(root, host);
        Ok(state)
    }

    /// Takes owner, group and mode from `host`'s real nodes, when `root` is its `/`.
    pub fn read_back_nodes(&mut self, root: &Path, host: &dyn Host) {
        if root != Path::new("/") {
            return;
        }
        let mut names: Option<(Vec<accounts::PasswdEntry>, accounts::Groups)> = None;
        for d in &mut self.devices {
            let Some(st) = host.device_node(&d.path, d.major, d.minor) else {
                continue;
            };
            let (users, groups) =
                names.get_or_insert_with(|| (accounts::users(root), accounts::Groups::load(root)));
            d.mode = st.mode;
            d.owner = users
                .iter()
                .find(|u| u.uid == st.uid)
                .map_or_else(|| st.uid.to_string(), |u| u.name.clone());
            d.group = groups.name_of(st.gid);
        }
    }

    /// [`State::load_on`] as the simulator last wrote it, whatever the real nodes say.
    pub fn load_recorded(root: &Path) -> Result<State, SimError> {
        if !root.is_dir() {
            return Err(SimError::new(
                "sim-root-missing",
                format!(
                    "rocm-learn sim: the machine root {} does not exist",
                    root.display()
                ),
            ));
        }
        let path = State::path(root);
        let bytes = match fsx::read_capped(&path, fsx::READ_CAP) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(SimError::new(
                    "sim-state-missing",
                    format!(
                        "rocm-learn sim: no machine state at {} (the lab stage was not created)",
                        path.display()
                    ),
                ));
            }
            Err(e) => return Err(SimError::io("rocm-learn sim: cannot read", &path, &e)),
        };
        // Every simulated tool starts here: read the state in one pass when it is what this
        // program writes; only a state that is not gets the slower look that says why.
        if let Ok(state) = serde_json::from_slice::<State>(&bytes)
            && state.version == VERSION
        {
            return Ok(state);
        }
        let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
            SimError::new(
                "sim-state-corrupt",
                format!(
                    "rocm-learn sim: the machine state {} is damaged ({e}); reset the lab",
                    path.display()
                ),
            )
        })?;
        let version = value.get("version").and_then(|v| v.as_u64());
        if version != Some(u64::from(VERSION)) {
            return Err(SimError::new(
                "sim-state-version",
                format!(
                    "rocm-learn sim: the machine state {} has format version {}, this program reads {VERSION}; reset the lab",
                    path.display(),
                    version
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| "none".into())
                ),
            ));
        }
        serde_json::from_value(value).map_err(|e| {
            SimError::new(
                "sim-state-corrupt",
                format!(
                    "rocm-learn sim: the machine state {} is damaged ({e}); reset the lab",
                    path.display()
                ),
            )
        })
    }

    /// Writes the state (and /proc/cmdline's file) atomically.
    pub fn save(&self, root: &Path) -> Result<(), SimError> {
        let path = State::path(root);
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| SimError::new("sim-io", format!("rocm-learn sim: {e}")))?;
        text.push('\n');
        fsx::write_atomic(&path, text.as_bytes())
            .map_err(|e| SimError::io("rocm-learn sim: cannot write", &path, &e))?;
        // The machine's /proc/cmdline, as a file the sandbox can mount.
        let cmdline = root.join(CMDLINE_PATH);
        let want = format!("{}\n", self.boot.cmdline);
        if fsx::read_opt(&cmdline).as_deref() != Some(want.as_str()) {
            fsx::write_atomic(&cmdline, want.as_bytes())
                .map_err(|e| SimError::io("rocm-learn sim: cannot write", &cmdline, &e))?;
        }
        Ok(())
    }

    /// Unix time that counts as "now".
    pub fn now(&self) -> i64 {
        self.boot_time + self.uptime
    }

    // ---- queries for the grader -------------------------------------------------------------

    /// Whether amdgpu is loaded.
    pub fn is_module_loaded(&self) -> bool {
        self.driver.is_some()
    }

    /// The device node at `path`, if it exists.
    pub fn device(&self, path: &str) -> Option<&DevNode> {
        self.devices.iter().find(|d| d.path == path)
    }

    /// Applied permission bits of a device node (`0o660`), `None` when it does not exist.
    pub fn device_mode(&self, path: &str) -> Option<u32> {
        self.device(path).map(|d| d.mode)
    }

    /// Applied group of a device node, `None` when it does not exist.
    pub fn device_group(&self, path: &str) -> Option<&str> {
        self.device(path).map(|d| d.group.as_str())
    }

    /// Whether package `pkg` is installed.
    pub fn installed(&self, pkg: &str) -> bool {
        self.packages.contains_key(pkg)
    }

    /// The ROCm release whose `rocm-core` is installed (the newest one of a multi-version
    /// install, whose `rocm-coreX.Y.Z` names sort by release).
    pub fn rocm_version(&self) -> Option<&str> {
        self.packages
            .get("rocm-core")
            .or_else(|| {
                self.packages
                    .range("rocm-core0".to_string()..="rocm-core9".to_string())
                    .map(|(_, p)| p)
                    .next_back()
            })
            .and_then(|p| p.release.as_deref())
    }

    /// The login session `id`, if it exists.
    pub fn session(&self, id: &str) -> Option<&Session> {
        self.sessions.get(id)
    }

    /// Group names of a login session, resolved through the stage's /etc/group.
    pub fn session_groups(&self, root: &Path, id: &str) -> Option<Vec<String>> {
        let s = self.sessions.get(id)?;
        let groups = accounts::Groups::load(root);
        Some(s.gids.iter().map(|g| groups.name_of(*g)).collect())
    }

    /// `Running`, `Pending`, or `None` when there is no such pod.
    pub fn pod_phase(&self, namespace: &str, name: &str) -> Option<&'static str> {
        let c = self.cluster.as_ref()?;
        c.pods
            .iter()
            .find(|p| p.namespace == namespace && p.name == name)
            .map(|p| p.phase.as_str())
    }

    /// Whether a DaemonSet runs the AMD device plugin (whatever it is named): what makes nodes
    /// advertise `amd.com/gpu` to the scheduler.
    pub fn device_plugin_running(&self) -> bool {
        self.cluster
            .as_ref()
            .is_some_and(|c| c.daemonsets.iter().any(super::k8s::is_device_plugin))
    }

    // ---- transitions ------------------------------------------------------------------------

    /// Records a new login session of `user` with the groups /etc/group gives it right now.
    pub fn login(&mut self, root: &Path, user: &str) -> Result<String, SimError> {
        let Some(pw) = accounts::user(root, user) else {
            return Err(SimError::new(
                "sim-no-user",
                format!("rocm-learn sim login: no such user '{user}'"),
            ));
        };
        let gids = accounts::db_gids(root, &pw);
        Ok(self.open_session(Session {
            user: pw.name,
            uid: pw.uid,
            gids,
        }))
    }

    /// Records `session` under the next free id (a login, newgrp's new shell) and returns it.
    pub fn open_session(&mut self, session: Session) -> String {
        self.next_session += 1;
        let id = self.next_session.to_string();
        self.sessions.insert(id.clone(), session);
        id
    }

    /// Whether a modules file (`/etc/modules`, `/etc/modules-load.d/*.conf`) lists amdgpu.
    pub fn amdgpu_persisted(root: &Path) -> bool {
        let lists = |text: &str| {
            text.lines()
                .map(|l| l.split('#').next().unwrap_or("").trim())
                .any(|l| l.split_whitespace().next() == Some("amdgpu"))
        };
        if fsx::read_opt(&root.join("etc/modules")).is_some_and(|t| lists(&t)) {
            return true;
        }
        let dir = root.join("etc/modules-load.d");
        fsx::list_dir(&dir)
            .iter()
            .filter(|n| n.ends_with(".conf"))
            .any(|n| fsx::read_opt(&dir.join(n)).is_some_and(|t| lists(&t)))
    }

    /// The driver `modprobe amdgpu` would load now: DKMS build for the running kernel first
    /// (it lives in updates/dkms), else the in-tree module.
    pub fn loadable_driver(&self) -> Option<Driver> {
        if let Some(d) = self
            .dkms
            .iter()
            .find(|d| d.module == "amdgpu" && d.kernel == self.machine.kernel)
        {
            let version = d
                .version
                .split('-')
                .next()
                .unwrap_or(&d.version)
                .to_string();
            return Some(Driver::Dkms { version });
        }
        self.in_tree_module.then_some(Driver::InTree)
    }
}
