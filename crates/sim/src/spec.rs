//! What a lab scenario says about its machine (TOML), so a lab can start from a broken one.
//!
//! ```toml
//! preset = "mi300x-server"     # or "vega64-workstation"
//! gpu_count = 1
//! amdgpu_loaded = false
//! rocm_installed = "6.2.2"     # omit: no ROCm, no AMD repositories
//! user_groups = ["adm", "sudo"]
//! kfd_mode = "0660"
//! k8s = true
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;

use super::error::SimError;
pub use super::machine::Preset;

/// The sizes `[machine] disk_mib` may take, and the one a lab gets without it.
pub const DISK_MIB: std::ops::RangeInclusive<u64> = 64..=4096;
/// What a lab may write in all when its machine does not say (1 GiB).
pub const DEFAULT_DISK_MIB: u64 = 1024;
/// `DEFAULT_DISK_MIB` in bytes.
pub const DEFAULT_DISK_BYTES: u64 = DEFAULT_DISK_MIB << 20;

/// A lab's machine, as its TOML describes it (see the crate's docs for the keys).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MachineSpec {
    /// The machine it starts from (`vega64-workstation`, `mi300x-server`, ...).
    #[serde(default)]
    pub preset: Preset,
    /// MI300X servers: how many OAM modules (1-8).
    #[serde(default)]
    pub gpu_count: Option<u32>,
    /// The host name, when not the preset's.
    #[serde(default)]
    pub hostname: Option<String>,
    /// `"22.04"` or `"24.04"`: overrides the preset's Ubuntu release.
    #[serde(default)]
    pub ubuntu: Option<String>,
    /// The running kernel (`6.8.0-52-generic`), when not the preset's.
    #[serde(default)]
    pub kernel: Option<String>,
    /// Which amdgpu module the machine has: `"in-tree"` (linux-modules-extra installed),
    /// `"dkms"` (amdgpu-dkms of `rocm_installed` installed), `"none"`.
    #[serde(default)]
    pub driver: DriverKind,
    /// Whether amdgpu is loaded right now.
    #[serde(default = "yes")]
    pub amdgpu_loaded: bool,
    /// Whether /etc/modules lists amdgpu.
    #[serde(default)]
    pub amdgpu_persisted: bool,
    /// ROCm release installed under /opt/rocm-X.Y.Z, with its repositories configured.
    #[serde(default)]
    pub rocm_installed: Option<String>,
    /// ROCm releases installed side by side with the multi-version packages (`rocm6.2.2`),
    /// each with its repository line; /opt/rocm follows the alternatives (the newest, in auto
    /// mode). Not with `rocm_installed`: single- and multi-version packages do not mix.
    #[serde(default)]
    pub rocm_releases: Vec<String>,
    /// ROCm release whose repositories are configured (sources + pin) without installing it.
    #[serde(default)]
    pub repo_configured: Option<String>,
    /// Whether the repository key is in /etc/apt/keyrings/rocm.gpg (with `repo_configured`).
    #[serde(default = "yes")]
    pub repo_key: bool,
    /// What the lab may write in all, in MiB (`DISK_MIB`): past it the learner meets "No
    /// space left on device". The machine lives in memory, so this is memory of the host.
    #[serde(default)]
    pub disk_mib: Option<u64>,
    /// The learner's login name.
    #[serde(default = "default_user")]
    pub user: String,
    /// The learner's supplementary groups in /etc/group.
    #[serde(default = "default_groups")]
    pub user_groups: Vec<String>,
    /// Applied owner group and mode of /dev/kfd and the render nodes (as if set earlier).
    #[serde(default)]
    pub kfd_mode: Option<String>,
    /// Group of /dev/kfd, as if set earlier.
    #[serde(default)]
    pub kfd_group: Option<String>,
    /// Mode of the render nodes (`"0660"`), as if set earlier.
    #[serde(default)]
    pub render_mode: Option<String>,
    /// Group of the render nodes, as if set earlier.
    #[serde(default)]
    pub render_group: Option<String>,
    /// Extra files under /etc/udev/rules.d (name -> content), loaded at "boot".
    #[serde(default)]
    pub udev_rules: BTreeMap<String, String>,
    /// A Kubernetes cluster whose only node is this machine.
    #[serde(default)]
    pub k8s: bool,
    /// Node labels to add to the cluster's node.
    #[serde(default)]
    pub node_labels: BTreeMap<String, String>,
    /// Whether the AMD device plugin DaemonSet already runs.
    #[serde(default)]
    pub device_plugin: bool,
    /// Extra Ubuntu packages installed when the machine is built (`docker.io`, `podman`,
    /// `python3`): each brings its simulated tool.
    #[serde(default)]
    pub packages: Vec<String>,
    /// Causes (`wont_load::CAUSES`) one of which keeps amdgpu from loading at boot, picked
    /// at each stage.
    #[serde(default)]
    pub wont_load: Vec<String>,
    /// UEFI Secure Boot is on: a DKMS module loads only once its signing key is enrolled.
    #[serde(default)]
    pub secure_boot: bool,
    /// Whether the DKMS signing key (MOK) is already enrolled.
    #[serde(default = "yes")]
    pub mok_enrolled: bool,
    /// A firmware file amdgpu needs that the machine lacks (`amdgpu/psp_13_0_8_toc.bin`): the
    /// probe fails at every load.
    #[serde(default)]
    pub missing_firmware: Option<String>,
    /// AMD's `rocm` command (ROCm/rocm-cli) is installed for the learner, where its installer
    /// puts it (`~/.local/bin/rocm`).
    #[serde(default)]
    pub rocm_cli: bool,
    /// A managed runtime of this TheRock release that rocm-cli installed earlier and keeps as
    /// the active default (with `rocm_cli`).
    #[serde(default)]
    pub rocm_cli_runtime: Option<String>,
    /// Unix time of boot; every printed date derives from it.
    #[serde(default = "default_boot")]
    pub boot_time: i64,
    /// Absolute path of the rocm-learn binary written into tool wrappers (not from TOML: the
    /// lab fills it in from `ROCM_SIM_BIN`).
    #[serde(skip)]
    pub sim_bin: Option<String>,
}

/// Which amdgpu module a machine starts with. An unknown word in a spec is a parse error that
/// names the three (and the line it is on).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DriverKind {
    /// Ubuntu's own amdgpu from linux-modules-extra.
    #[default]
    InTree,
    /// amdgpu-dkms of the installed ROCm release.
    Dkms,
    /// No amdgpu module at all.
    None,
}
fn yes() -> bool {
    true
}
fn default_user() -> String {
    "learner".into()
}
fn default_groups() -> Vec<String> {
    vec!["adm".into(), "sudo".into()]
}
fn default_boot() -> i64 {
    // Tue 2024-11-05 09:00:00 UTC.
    1_730_797_200
}

impl Default for MachineSpec {
    fn default() -> Self {
        MachineSpec::preset(Preset::default())
    }
}

impl MachineSpec {
    /// What the lab may write in all, in bytes (`disk_mib`, else `DEFAULT_DISK_MIB`).
    pub fn disk_bytes(&self) -> u64 {
        self.disk_mib.unwrap_or(DEFAULT_DISK_MIB) << 20
    }

    /// The defaults for a preset: a healthy machine with the driver loaded and no ROCm.
    pub fn preset(preset: Preset) -> Self {
        MachineSpec {
            preset,
            gpu_count: None,
            hostname: None,
            ubuntu: None,
            kernel: None,
            driver: DriverKind::default(),
            amdgpu_loaded: true,
            amdgpu_persisted: false,
            rocm_installed: None,
            rocm_releases: Vec::new(),
            repo_configured: None,
            repo_key: true,
            disk_mib: None,
            user: default_user(),
            user_groups: default_groups(),
            kfd_mode: None,
            kfd_group: None,
            render_mode: None,
            render_group: None,
            udev_rules: BTreeMap::new(),
            k8s: false,
            node_labels: BTreeMap::new(),
            device_plugin: false,
            packages: Vec::new(),
            wont_load: Vec::new(),
            secure_boot: false,
            mok_enrolled: true,
            missing_firmware: None,
            rocm_cli: false,
            rocm_cli_runtime: None,
            boot_time: default_boot(),
            sim_bin: None,
        }
    }

    /// Reads a spec from TOML; unknown keys and bad values are errors naming them.
    pub fn from_toml(text: &str) -> Result<Self, SimError> {
        toml::from_str(text).map_err(|e| {
            SimError::new("sim-spec-invalid", format!("machine spec: {}", e.message()))
        })
    }
}
