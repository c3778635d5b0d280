//! The kernel side of the machine: its command line, the boot that decides whether amdgpu
//! comes up, and the kernel log that `dmesg` and `journalctl -k` read.
//!
//! A boot follows the configuration an admin edits, in the order a real Ubuntu boot reads it:
//! the command line `update-grub` last wrote (`nomodeset`, `modprobe.blacklist=`), udev's
//! coldplug loading amdgpu by PCI modalias unless /etc/modprobe.d blacklists it,
//! systemd-modules-load for /etc/modules and /etc/modules-load.d (which honours the blacklist
//! too), a module only for the kernel it was built for, and Secure Boot refusing a DKMS module
//! whose signing key is not enrolled.

use std::path::Path;

use super::fsx;
pub use super::state::{Boot, CMDLINE_PATH, LogLine};
use super::state::{Driver, State};
use super::udev;

const MODULES_LOAD: &str = "systemd-modules-load[252]";

/// The kernel command line a fresh install boots with (Ubuntu desktop: "quiet splash"; a
/// server image: nothing).
pub fn default_cmdline(state: &State) -> String {
    let extra = grub_default_value(state);
    let mut s = format!(
        "BOOT_IMAGE=/boot/vmlinuz-{} root=UUID=3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b4c7a15 ro",
        state.machine.kernel
    );
    if !extra.is_empty() {
        s.push(' ');
        s.push_str(&extra);
    }
    s
}

fn grub_default_value(state: &State) -> String {
    if state.machine.bmc_vga {
        String::new()
    } else {
        "quiet splash".into()
    }
}

/// /etc/default/grub as Ubuntu ships it.
pub fn default_grub_file(state: &State) -> String {
    format!(
        "# If you change this file, run 'update-grub' afterwards to update
# /boot/grub/grub.cfg.
# For full documentation of the options in this file, see:
#   info -f grub -n 'Simple configuration'

GRUB_DEFAULT=0
GRUB_TIMEOUT_STYLE=hidden
GRUB_TIMEOUT=0
GRUB_DISTRIBUTOR=`( . /etc/os-release; echo ${{NAME:-Ubuntu}} ) 2>/dev/null || echo Ubuntu`
GRUB_CMDLINE_LINUX_DEFAULT=\"{}\"
GRUB_CMDLINE_LINUX=\"\"

# If your computer has multiple operating systems installed, then you
# probably want to run os-prober. However, if your computer is a host
# for guest OSes installed via LVM or raw disk devices, running
# os-prober can cause damage to those guest OSes as it mounts
# filesystems to look for things.
#GRUB_DISABLE_OS_PROBER=false
",
        grub_default_value(state)
    )
}

/// The value of `KEY="..."` (or unquoted) in a shell-style file, last assignment winning.
fn shell_value(text: &str, key: &str) -> Option<String> {
    let mut found = None;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('#') {
            continue;
        }
        let Some(v) = l
            .strip_prefix(key)
            .and_then(|r| r.strip_prefix('='))
            .map(str::trim)
        else {
            continue;
        };
        let v = v
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .or_else(|| v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
            .unwrap_or(v);
        found = Some(v.to_string());
    }
    found
}

/// The command line `update-grub` generates from /etc/default/grub now.
pub fn cmdline_from_grub(root: &Path, state: &State) -> String {
    let text = fsx::read_opt(&root.join("etc/default/grub")).unwrap_or_default();
    let linux = shell_value(&text, "GRUB_CMDLINE_LINUX").unwrap_or_default();
    let default = shell_value(&text, "GRUB_CMDLINE_LINUX_DEFAULT").unwrap_or_default();
    let mut s = format!(
        "BOOT_IMAGE=/boot/vmlinuz-{} root=UUID=3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b4c7a15 ro",
        state.machine.kernel
    );
    for part in [linux.trim(), default.trim()] {
        if !part.is_empty() {
            s.push(' ');
            s.push_str(part);
        }
    }
    s
}

/// Modules the command line blacklists (`modprobe.blacklist=a,b`, as often as given).
pub fn cmdline_blacklist(cmdline: &str) -> Vec<String> {
    cmdline
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("modprobe.blacklist="))
        .flat_map(|v| v.split(','))
        .filter(|m| !m.is_empty())
        .map(|m| m.replace('-', "_"))
        .collect()
}

/// Whether the command line turns kernel modesetting off.
pub fn nomodeset(cmdline: &str) -> bool {
    cmdline.split_whitespace().any(|w| w == "nomodeset")
}

/// Modules blacklisted by /etc/modprobe.d/*.conf (kmod reads only `.conf` files there).
pub fn modprobe_d_blacklist(root: &Path) -> Vec<String> {
    let dir = root.join("etc/modprobe.d");
    let mut v = Vec::new();
    for name in fsx::list_dir(&dir) {
        if !name.ends_with(".conf") {
            continue;
        }
        let Some(text) = fsx::read_opt(&dir.join(&name)) else {
            continue;
        };
        for line in text.lines() {
            let mut w = line.split('#').next().unwrap_or("").split_whitespace();
            if w.next() == Some("blacklist")
                && let Some(m) = w.next()
            {
                v.push(m.replace('-', "_"));
            }
        }
    }
    v
}

/// Whether a boot now would skip amdgpu's modalias autoload and systemd-modules-load.
pub fn blacklisted(root: &Path, cmdline: &str, module: &str) -> bool {
    cmdline_blacklist(cmdline).iter().any(|m| m == module)
        || modprobe_d_blacklist(root).iter().any(|m| m == module)
}

/// What the kernel does with a request to insert amdgpu, whoever asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Insert {
    /// amdgpu is now loaded, in this form.
    Loaded(Driver),
    /// No module for the running kernel.
    NotFound,
    /// `nomodeset`: amdgpu_init returns -EINVAL.
    Invalid,
    /// Secure Boot and an unenrolled DKMS key: -EKEYREJECTED.
    KeyRejected,
    /// The probe failed (missing firmware): the module stays loaded without devices.
    ProbeFailed(Driver),
}

/// Tries to insert amdgpu now, logging what the kernel logs. Does not touch `state.driver`
/// for failures; the caller loads the driver on `Loaded`.
pub fn insert_amdgpu(state: &mut State) -> Insert {
    let Some(driver) = state.loadable_driver() else {
        return Insert::NotFound;
    };
    if nomodeset(&state.boot.cmdline) {
        return Insert::Invalid;
    }
    if matches!(driver, Driver::Dkms { .. }) && state.boot.secure_boot && !state.boot.mok_enrolled {
        log(
            state,
            "",
            "Loading of module with unavailable key is rejected",
        );
        return Insert::KeyRejected;
    }
    log_amdgpu_init(state, &driver);
    if state.boot.missing_firmware.is_some() {
        return Insert::ProbeFailed(driver);
    }
    Insert::Loaded(driver)
}

/// Appends a record at the current uptime.
pub fn log(state: &mut State, src: &str, msg: &str) {
    let last = state.boot.log.last().map(|l| l.t).unwrap_or(0.0);
    let t = (state.uptime as f64).max(last + 0.000_137);
    state.boot.log.push(LogLine {
        t,
        src: src.into(),
        msg: msg.into(),
    });
}

fn log_at(state: &mut State, t: f64, src: &str, msg: String) {
    // Records stay in order even when two are logged "at the same time".
    let t = match state.boot.log.last() {
        Some(l) => t.max(l.t + 0.000_013),
        None => t,
    };
    state.boot.log.push(LogLine {
        t,
        src: src.into(),
        msg,
    });
}

/// KMS driver version amdgpu reports: the kernel's in-tree driver, or the DKMS build's.
fn kms_version(state: &State, driver: &Driver) -> &'static str {
    match driver {
        Driver::Dkms { .. } => "3.59.0",
        Driver::InTree if state.machine.kernel.starts_with("5.15.") => "3.42.0",
        Driver::InTree => "3.57.0",
    }
}

fn log_amdgpu_init(state: &mut State, driver: &Driver) {
    let t0 = state.uptime as f64 + 0.929856;
    log_at(
        state,
        t0,
        "",
        "[drm] amdgpu kernel modesetting enabled.".into(),
    );
    if let Driver::Dkms { version } = driver {
        let os = state
            .machine
            .kernel
            .split('-')
            .next()
            .unwrap_or("")
            .to_string();
        log_at(state, t0, "", format!("[drm] amdgpu version: {version}"));
        log_at(state, t0, "", format!("[drm] OS DRM version: {os}"));
    }
    log_at(
        state,
        t0,
        "",
        "amdgpu: Virtual CRAT table created for CPU".into(),
    );
    log_at(state, t0, "", "amdgpu: Topology: Add CPU node".into());
    let gpus = state.machine.gpus.clone();
    let kms = kms_version(state, driver);
    for (i, g) in gpus.iter().enumerate() {
        let t = t0 + 0.02 + i as f64 * 0.31;
        let bdf = g.bdf.clone();
        let (vendor, device) = g.pci.ids.split_once(':').unwrap_or(("1002", ""));
        log_at(
            state,
            t,
            "",
            format!(
                "amdgpu {bdf}: amdgpu: initializing kernel modesetting ({} 0x{}:0x{} 0x{}:0x{} 0x{}).",
                if g.gfx == "gfx900" {
                    "VEGA10"
                } else {
                    "IP DISCOVERY"
                },
                vendor.to_uppercase(),
                device.to_uppercase(),
                vendor.to_uppercase(),
                g.subsystem_id.trim_start_matches("0x").to_uppercase(),
                g.pci.rev.as_deref().unwrap_or("00").to_uppercase()
            ),
        );
        if let Some(fw) = state.boot.missing_firmware.clone() {
            for msg in [
                format!("amdgpu {bdf}: Direct firmware load for {fw} failed with error -2"),
                format!("amdgpu {bdf}: amdgpu: fail to request/validate toc microcode"),
                "[drm:psp_sw_init [amdgpu]] *ERROR* Failed to load psp firmware!".to_string(),
                "[drm:amdgpu_device_ip_init [amdgpu]] *ERROR* sw_init of IP block <psp> failed -2"
                    .to_string(),
                format!("amdgpu {bdf}: amdgpu: amdgpu_device_ip_init failed"),
                format!("amdgpu {bdf}: amdgpu: Fatal error during GPU init"),
                format!("amdgpu: probe of {bdf} failed with error -2"),
            ] {
                log_at(state, t + 0.01, "", msg);
            }
            continue;
        }
        log_at(
            state,
            t + 0.3,
            "",
            format!("kfd kfd: amdgpu: added device {vendor}:{device}"),
        );
        log_at(
            state,
            t + 0.31,
            "",
            format!(
                "[drm] Initialized amdgpu {kms} 20150101 for {bdf} on minor {}",
                g.card_minor
            ),
        );
    }
}

/// The kernel's first log line: the Ubuntu build of the machine's kernel.
fn linux_version(state: &State) -> String {
    let k = &state.machine.kernel;
    if state.machine.os.codename == "jammy" {
        format!(
            "Linux version {k} (buildd@lcy02-amd64-016) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #135-Ubuntu SMP Fri Sep 27 13:53:58 UTC 2024"
        )
    } else {
        format!(
            "Linux version {k} (buildd@lcy02-amd64-046) (x86_64-linux-gnu-gcc-13 (Ubuntu 13.3.0-6ubuntu2~24.04) 13.3.0, GNU ld (GNU Binutils for Ubuntu) 2.42) #53-Ubuntu SMP PREEMPT_DYNAMIC Sat Jan 11 00:06:25 UTC 2025"
        )
    }
}

/// The first records of every boot: the kernel, its command line, Secure Boot, nomodeset.
fn log_start(state: &mut State) {
    let cmdline = state.boot.cmdline.clone();
    log_at(state, 0.0, "", linux_version(state));
    log_at(state, 0.0, "", format!("Command line: {cmdline}"));
    if state.boot.secure_boot {
        log_at(state, 0.0, "", "secureboot: Secure boot enabled".into());
    }
    log_at(state, 0.031, "", format!("Kernel command line: {cmdline}"));
    if nomodeset(&cmdline) {
        log_at(
            state,
            0.038824,
            "",
            "Booted with the nomodeset parameter. Only the system framebuffer will be available"
                .into(),
        );
    }
}

/// Sets up the boot facts of a freshly made stage (it booted once, with the spec's driver
/// state) and writes /etc/default/grub.
pub fn staged(
    root: &Path,
    state: &mut State,
    secure_boot: bool,
    mok_enrolled: bool,
    missing_firmware: Option<String>,
) -> std::io::Result<()> {
    state.boot.count = 1;
    state.boot.secure_boot = secure_boot;
    state.boot.mok_enrolled = mok_enrolled;
    state.boot.missing_firmware = missing_firmware;
    state.boot.grub_cmdline = default_cmdline(state);
    state.boot.cmdline = state.boot.grub_cmdline.clone();
    let uptime = state.uptime;
    log_start(state);
    if let Some(d) = state.driver.clone() {
        state.uptime = 3;
        log_amdgpu_init(state, &d);
        state.uptime = uptime;
    }
    let grub = root.join("etc/default/grub");
    if !grub.exists() {
        std::fs::create_dir_all(root.join("etc/default"))?;
        fsx::write_atomic(&grub, default_grub_file(state).as_bytes())?;
    }
    Ok(())
}

/// Boots the machine from its configuration: the command line update-grub wrote, udev rules,
/// module blacklists, modules files, DKMS builds for this kernel, Secure Boot and the MOK.
pub fn boot(state: &mut State, root: &Path) {
    state.boot.count += 1;
    // The journal is persistent on Ubuntu: the boot that ends stays readable (`-b -1`).
    let mut ended = std::mem::take(&mut state.boot.log);
    ended.push(LogLine {
        t: state.uptime as f64,
        src: String::new(),
        msg: "reboot: Restarting system".into(),
    });
    state.boot.previous = Some((state.boot_time, ended));
    state.boot_time += state.uptime + 120;
    state.uptime = 0;
    state.sessions.clear();
    if state.boot.grub_cmdline.is_empty() {
        state.boot.grub_cmdline = default_cmdline(state);
    }
    state.boot.cmdline = state.boot.grub_cmdline.clone();
    if state.boot.mok_pending {
        // MokManager's blue screen asked for the password at this boot and enrolled the key.
        state.boot.mok_pending = false;
        state.boot.mok_enrolled = true;
    }
    state.boot.log.clear();
    let cmdline = state.boot.cmdline.clone();
    log_start(state);
    state.uptime = 3;
    state.udev_rules = super::udev::load_rules(root);
    // Each node this boot creates is a new udev event after every earlier one on its path,
    // so a host showing real nodes gives it the mode this boot's rules set.
    let before: Vec<(String, u64)> = state
        .devices
        .iter()
        .map(|d| (d.path.clone(), d.events))
        .collect();
    state.unload_driver();
    let now = state.now();
    let rules = state.udev_rules.clone();
    for d in &mut state.devices {
        d.created = now;
        super::udev::apply(root, &rules, d, super::udev::Action::Add);
    }
    let black = blacklisted(root, &cmdline, "amdgpu");
    let has_gpu = !state.machine.gpus.is_empty();
    // udev coldplug: the GPU's modalias names amdgpu; the kmod builtin applies the blacklist.
    if has_gpu && !black {
        match insert_amdgpu(state) {
            Insert::Loaded(d) | Insert::ProbeFailed(d) => {
                let failed = state.boot.missing_firmware.is_some();
                state.driver = Some(d.clone());
                if !failed {
                    state.create_gpu_nodes(root);
                }
            }
            Insert::KeyRejected | Insert::Invalid | Insert::NotFound => {}
        }
    }
    // systemd-modules-load: /etc/modules and /etc/modules-load.d, honouring the blacklist.
    state.uptime = 4;
    modules_load(state, root, MODULES_LOAD);
    state.uptime = 35;
    for d in &mut state.devices {
        if let Some((_, n)) = before.iter().find(|(p, _)| *p == d.path) {
            d.events += n;
        }
    }
}

/// What systemd-modules-load does (at boot, or when restarted): loads amdgpu if a modules
/// file lists it and no blacklist forbids it, logging failures to the journal as `src`.
pub fn modules_load(state: &mut State, root: &Path, src: &str) {
    if !State::amdgpu_persisted(root) || state.driver.is_some() {
        return;
    }
    let cmdline = state.boot.cmdline.clone();
    if blacklisted(root, &cmdline, "amdgpu") {
        log(state, src, "Module 'amdgpu' is deny-listed (by kmod)");
        return;
    }
    match insert_amdgpu(state) {
        Insert::Loaded(d) => state.load_driver(root, d),
        Insert::ProbeFailed(d) => state.driver = Some(d),
        Insert::NotFound => log(state, src, "Failed to find module 'amdgpu'"),
        Insert::Invalid => log(
            state,
            src,
            "Failed to insert module 'amdgpu': Invalid argument",
        ),
        Insert::KeyRejected => log(
            state,
            src,
            "Failed to insert module 'amdgpu': Key was rejected by service",
        ),
    }
}

/// Would a boot from the configuration as it is now bring amdgpu up with its devices? (The
/// grader's question for "amdgpu will load at the next boot".)
pub fn next_boot_loads_amdgpu(state: &State, root: &Path) -> bool {
    let mut s = state.clone();
    boot(&mut s, root);
    s.driver.is_some() && s.device("/dev/kfd").is_some()
}

/// dmesg's `[    3.929856] ` prefix.
pub fn dmesg_stamp(t: f64) -> String {
    format!("[{t:>12.6}] ")
}

/// The driver's side of the machine's state: loading amdgpu creates its nodes, a reboot boots.
impl State {
    /// Loads amdgpu (no permission checks: the caller did them) and lets udev create its nodes.
    pub fn load_driver(&mut self, root: &Path, driver: Driver) {
        self.driver = Some(driver);
        self.create_gpu_nodes(root);
    }

    /// Unloads amdgpu: its device nodes go with it.
    pub fn unload_driver(&mut self) {
        self.driver = None;
        self.devices.retain(|d| d.driver != "amdgpu");
    }

    /// Creates /dev/kfd and the DRM nodes of every GPU, applying the loaded udev rules.
    pub fn create_gpu_nodes(&mut self, root: &Path) {
        // The "add" events: udevd reads rule files that changed since its last event first.
        self.udev_rules = udev::load_rules(root);
        self.devices.retain(|d| d.driver != "amdgpu");
        let now = self.now();
        let mut nodes = vec![udev::DevNode {
            path: "/dev/kfd".into(),
            kernel: "kfd".into(),
            subsystem: "kfd".into(),
            driver: "amdgpu".into(),
            major: self.kfd_major,
            minor: 0,
            owner: "root".into(),
            group: "root".into(),
            mode: 0o600,
            created: now,
            events: 0,
        }];
        for g in &self.machine.gpus {
            for (name, minor) in [
                (format!("card{}", g.card_minor), g.card_minor),
                (format!("renderD{}", g.render_minor), g.render_minor),
            ] {
                nodes.push(udev::DevNode {
                    path: format!("/dev/dri/{name}"),
                    kernel: name,
                    subsystem: "drm".into(),
                    driver: "amdgpu".into(),
                    major: 226,
                    minor,
                    owner: "root".into(),
                    group: "root".into(),
                    mode: 0o600,
                    created: now,
                    events: 0,
                });
            }
        }
        for n in &mut nodes {
            udev::apply(root, &self.udev_rules, n, udev::Action::Add);
        }
        self.devices.extend(nodes);
        self.devices.sort_by(|a, b| a.path.cmp(&b.path));
    }

    /// Reboots: the machine boots again from its configuration ([`boot`]); every
    /// login session ends and `boot.count` grows.
    pub fn reboot(&mut self, root: &Path) {
        boot(self, root);
    }
}
