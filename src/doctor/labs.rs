//! `rocm-learn doctor --labs`: can this machine run the labs? Bubblewrap on PATH, user
//! namespaces, Ubuntu's AppArmor restriction on them, Landlock, and finally a real sandbox
//! started and stopped (the same probe a lab makes), each with its fix. Read-only like the rest
//! of doctor: files are read and one throwaway sandbox runs `true`.

use super::host::Host;
use super::{Finding, Level};
use crate::content::Msg;

/// The AppArmor profile that lets bwrap create user namespaces (Ubuntu 24.04), shipped so that
/// an instructor need not lift the restriction for every program.
pub const APPARMOR_PROFILE: &str = include_str!("../../assets/apparmor/bwrap");

/// The operating system, for advice that fits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Linux,
    MacOs,
    Windows,
    Other,
}

impl Os {
    pub fn current() -> Os {
        if cfg!(target_os = "linux") {
            Os::Linux
        } else if cfg!(target_os = "macos") {
            Os::MacOs
        } else if cfg!(target_os = "windows") {
            Os::Windows
        } else {
            Os::Other
        }
    }
}

/// What only the kernel can say, asked with the probes a lab itself makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kernel {
    /// Landlock's ABI version (`lab::sandbox::confine::abi`); `None` when the kernel refuses it.
    pub landlock: Option<u32>,
}

impl Kernel {
    pub fn ask() -> Kernel {
        Kernel {
            landlock: crate::sys::landlock_abi(),
        }
    }
}

/// The checks, in the order a fix would go. `sandbox` is the real probe's verdict (`None`:
/// not tried, because something before it already fails).
pub fn examine(
    host: &Host,
    os: Os,
    kernel: Kernel,
    sandbox: &dyn Fn() -> Result<(), Msg>,
) -> Vec<Finding> {
    match os {
        Os::Linux => {}
        Os::MacOs => return vec![not_linux("doctor-labs-macos")],
        Os::Windows => return vec![not_linux("doctor-labs-windows")],
        Os::Other => return vec![not_linux("doctor-labs-other-os")],
    }
    let mut out = Vec::new();
    let bwrap = find_bwrap(host);
    out.push(match &bwrap {
        Some(path) => Finding::ok("bwrap", Msg::new("doctor-labs-bwrap-ok").arg("path", path)),
        None => Finding::problem("bwrap", Msg::new("doctor-labs-bwrap-missing"))
            .fix(Msg::new("doctor-labs-bwrap-fix")),
    });
    let sysctl = |p: &str| host.read(p).ok().map(|s| s.trim().to_string());
    let userns_off = sysctl("/proc/sys/user/max_user_namespaces").as_deref() == Some("0")
        || sysctl("/proc/sys/kernel/unprivileged_userns_clone").as_deref() == Some("0");
    out.push(if userns_off {
        Finding::problem("userns", Msg::new("doctor-labs-userns-off"))
            .fix(Msg::new("doctor-labs-userns-fix"))
    } else {
        Finding::ok("userns", Msg::new("doctor-labs-userns-ok"))
    });
    let restricted =
        sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns").as_deref() == Some("1");
    out.push(match (restricted, bwrap_profile(host)) {
        (false, _) => Finding::ok("apparmor", Msg::new("doctor-labs-apparmor-free")),
        (true, Some(file)) => Finding::ok(
            "apparmor",
            Msg::new("doctor-labs-apparmor-profile").arg("file", file),
        ),
        (true, None) => Finding::problem("apparmor", Msg::new("doctor-labs-apparmor-restricted"))
            .fix(Msg::new("doctor-labs-apparmor-fix")),
    });
    // Asked of the kernel, as the lab asks it: /sys/kernel/security/lsm may not be mounted
    // where Landlock is enforced.
    out.push(match kernel.landlock {
        Some(abi) => Finding::ok(
            "landlock",
            Msg::new("doctor-labs-landlock-ok").arg("abi", abi),
        ),
        None => Finding::unknown("landlock", Msg::new("doctor-labs-landlock-off")),
    });
    let ready = out.iter().all(|f| f.level != Level::Problem);
    out.push(if !ready {
        Finding::unknown("sandbox", Msg::new("doctor-labs-sandbox-not-tried"))
    } else {
        match sandbox() {
            Ok(()) => Finding::ok("sandbox", Msg::new("doctor-labs-sandbox-ok")),
            Err(why) => Finding::problem("sandbox", why),
        }
    });
    out
}

/// Who may map a lab's ids here, as the sandbox found it (`lab::app::bwrap::mapper`): how real
/// the machine's ownership, device nodes and /usr are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MachineIds {
    /// Started by root: the machine's accounts, real device nodes, a /usr root may change.
    Root,
    /// A user with subordinate ids and newuidmap: the machine's accounts.
    Subordinate,
    /// The learner's uid alone.
    One,
}

/// What a lab's machine will be like here; how to get its own accounts when it maps one uid.
pub fn ids(kind: MachineIds) -> Finding {
    Finding::ok(
        "ids",
        Msg::new(match kind {
            MachineIds::Root => "doctor-labs-ids-root",
            MachineIds::Subordinate => "doctor-labs-ids-subordinate",
            MachineIds::One => "doctor-labs-ids-one",
        }),
    )
}

fn not_linux(id: &'static str) -> Finding {
    Finding::problem("os", Msg::new(id)).fix(Msg::new(match id {
        "doctor-labs-windows" => "doctor-labs-windows-fix",
        _ => "doctor-labs-vm-fix",
    }))
}

fn find_bwrap(host: &Host) -> Option<String> {
    let path = host.path.as_deref().unwrap_or("/usr/bin:/bin");
    path.split(':')
        .filter(|d| d.starts_with('/'))
        .map(|d| format!("{}/bwrap", d.trim_end_matches('/')))
        .find(|f| host.is_executable(f))
}

/// An AppArmor profile for bwrap that allows user namespaces, if one is installed.
fn bwrap_profile(host: &Host) -> Option<String> {
    let dir = "/etc/apparmor.d";
    host.list(dir).ok()?.into_iter().find_map(|name| {
        let file = format!("{dir}/{name}");
        let text = host.read(&file).ok()?;
        (text.contains("bwrap") && text.lines().any(|l| l.trim() == "userns,")).then_some(file)
    })
}
