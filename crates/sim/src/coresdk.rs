//! AMD's ROCm Core SDK (TheRock, 10.x) on the simulated machine: its repository on
//! stable.repo.amd.com (deb822 file, its own key), the amdgpu driver from its own repository
//! and version line (31.x), the `amdrocm*` packages, and what they put on disk: the tree in
//! /opt/rocm/core-10.0 and the /opt/rocm links as alternatives groups.
//!
//! Sources: `rocm-core-sdk-facts.md` (INSTALL-10.0.0, the transition guide, TheRock's
//! `amdrocm-core-postinst.j2`). What it marks unverified is kept as small as it can be here and
//! is listed under "assumed" in docs/tool-facts.md.

use std::path::Path;

use super::alternatives::Alternatives;
use super::catalog::{Origin, Package, Payload};
use super::fsx;
use super::keys;
use super::state::{DkmsEntry, Installed, State};

/// The release the mirror carries, and its parts as package and folder names use them.
pub const VERSION: &str = "10.0.0";
/// `amdrocm10.0`, `/opt/rocm/core-10.0`.
pub const SERIES: &str = "10.0";
/// Where the Core SDK installs.
pub const PREFIX: &str = "/opt/rocm/core-10.0";
/// Where its extras install.
pub const EXTRAS: &str = "/opt/rocm/extras-10";

/// The Core SDK's package server.
pub const HOST: &str = "stable.repo.amd.com";
/// Where its signing key is served.
pub const KEY_URL: &str = "https://stable.repo.amd.com/rocm/gpg/packages.gpg";
/// Where its install page puts the keyring.
pub const KEYRING: &str = "/etc/apt/keyrings/amdrocm.gpg";
/// The deb822 sources file its install page writes.
pub const SOURCES_FILE: &str = "/etc/apt/sources.list.d/amdrocm-stable.sources";

/// The amdgpu driver line the 10.0 install page links to (repo.radeon.com/amdgpu/31.50/ubuntu).
pub const DRIVER_LINE: &str = "31.50";
/// The driver's module version as `amd-smi version` on 10.0.0 reports it (`amdgpu version:`).
pub const DKMS_VERSION: &str = "7.1.3.31500000";

/// The package directories of the repository (`.../rocm/core/packages/<dir>/`).
pub const OS_DIRS: &[&str] = &[
    "ubuntu2204",
    "ubuntu2404",
    "ubuntu2604",
    "debian12",
    "debian13",
];

/// The LLVM targets INSTALL-10.0.0 offers `amdrocm10.0-<target>` for.
pub const TARGETS: &[&str] = &[
    "gfx950", "gfx942", "gfx90a", "gfx908", "gfx1201", "gfx1200", "gfx1100", "gfx1101", "gfx1102",
    "gfx1103", "gfx1030", "gfx1151", "gfx1150", "gfx1152", "gfx1153",
];

/// The package directory for an Ubuntu release (`24.04` -> `ubuntu2404`).
pub fn os_dir(version_id: &str) -> String {
    format!("ubuntu{}", version_id.replace('.', ""))
}

/// The package directory a Core SDK URI names, when it is one (`https://stable.repo.amd.com/
/// rocm/core/packages/ubuntu2404/` -> `ubuntu2404`).
pub fn repo_dir(host: &str, path: &str) -> Option<&'static str> {
    if host != HOST {
        return None;
    }
    let dir = path.strip_prefix("rocm/core/packages/")?;
    OS_DIRS.iter().copied().find(|d| *d == dir)
}

/// The Core SDK repository's signing key (a stand-in, as for repo.radeon.com's).
pub fn key_binary() -> Vec<u8> {
    let mut k = keys::amd_key_binary();
    // Another modulus and user id: a different key, so one cannot stand in for the other.
    for b in k.iter_mut().skip(11).take(256) {
        *b = b.rotate_left(3) ^ 0x5c;
    }
    k
}

/// The Core SDK's signing key, armored as served.
pub fn key_armored() -> String {
    keys::armor(&key_binary())
}

/// A usable keyring for stable.repo.amd.com (`armored_ok` for `.asc` files).
pub fn is_keyring(bytes: &[u8], armored_ok: bool) -> bool {
    keys::keyring_has(bytes, &key_binary(), armored_ok)
}

/// What each component package puts in the tree: programs in `bin`, files in `lib`.
struct Component {
    name: &'static str,
    bins: &'static [&'static str],
    libs: &'static [&'static str],
    depends: &'static [&'static str],
    kb: u64,
}

/// The components a runtime install brings (names from the transition guide's table; what
/// each holds is the table's too: rocminfo in base, amd-smi in amdsmi, amdclang++ and hipcc
/// in llvm, HIP and ROCr in runtime).
const COMPONENTS: &[Component] = &[
    Component {
        name: "amdrocm-sysdeps",
        bins: &[],
        libs: &[],
        depends: &[],
        kb: 9_800,
    },
    Component {
        name: "amdrocm-base",
        bins: &["rocminfo", "rocm_agent_enumerator"],
        libs: &[],
        depends: &["amdrocm-sysdeps"],
        kb: 420,
    },
    Component {
        name: "amdrocm-runtime",
        bins: &[],
        libs: &["libamdhip64.so.7", "libhsa-runtime64.so.1"],
        depends: &["amdrocm-base"],
        kb: 31_000,
    },
    Component {
        name: "amdrocm-amdsmi",
        bins: &["amd-smi"],
        libs: &["libamd_smi.so"],
        depends: &["amdrocm-base"],
        kb: 3_100,
    },
    Component {
        name: "amdrocm-llvm",
        bins: &["amdclang", "amdclang++", "hipcc", "hipconfig"],
        libs: &[],
        depends: &["amdrocm-base"],
        kb: 1_020_000,
    },
];

/// The tools the core package's postinst links into /usr/bin (those present, in the
/// template's order).
pub const USR_BIN_TOOLS: &[&str] = &[
    "hipcc",
    "hipconfig",
    "rocminfo",
    "amd-smi",
    "rocm_agent_enumerator",
    "amdclang",
    "amdclang++",
];

/// The /opt/rocm links and their groups (the postinst template's table).
pub const OPT_LINKS: &[(&str, &str, &str)] = &[
    ("/opt/rocm/core", "core", ""),
    ("/opt/rocm/core-10", "core-10", ""),
    ("/opt/rocm/bin", "rocm-bin", "/bin"),
    ("/opt/rocm/lib", "rocm-lib", "/lib"),
    ("/opt/rocm/include", "rocm-include", "/include"),
    ("/opt/rocm/llvm", "rocm-llvm", "/llvm"),
    ("/opt/rocm/amdgcn", "rocm-amdgcn", "/amdgcn"),
    ("/opt/rocm/libexec", "rocm-libexec", "/libexec"),
    ("/opt/rocm/share", "rocm-share", "/share"),
];

fn pkg(name: String, kb: u64, depends: Vec<String>, os: &str) -> Package {
    Package {
        name,
        version: format!("{VERSION}-25~{os}"),
        arch: "amd64",
        origin: Origin::CoreSdk,
        release: Some(VERSION),
        download_kb: kb,
        installed_kb: kb * 4,
        depends,
        payload: Payload::None,
        suite: None,
    }
}

/// Every package of the Core SDK repository, built for `os` (`24.04`).
pub fn packages(os: &str) -> Vec<Package> {
    let s = SERIES;
    let mut v: Vec<Package> = COMPONENTS
        .iter()
        .map(|c| {
            pkg(
                format!("{}{s}", c.name),
                c.kb,
                c.depends.iter().map(|d| format!("{d}{s}")).collect(),
                os,
            )
        })
        .collect();
    let parts: Vec<String> = COMPONENTS
        .iter()
        .map(|c| format!("{}{s}", c.name))
        .collect();
    // The core package (all targets, or one) holds the device code and configures the links.
    v.push(pkg(
        format!("amdrocm-core{s}"),
        1_900_000,
        parts.clone(),
        os,
    ));
    for t in TARGETS {
        v.push(pkg(
            format!("amdrocm-core{s}-{t}"),
            260_000,
            parts.clone(),
            os,
        ));
        v.push(pkg(
            format!("amdrocm{s}-{t}"),
            2,
            vec![format!("amdrocm-core{s}-{t}")],
            os,
        ));
    }
    v.push(pkg(
        format!("amdrocm{s}"),
        2,
        vec![format!("amdrocm-core{s}")],
        os,
    ));
    v.push(pkg("amdrocm".into(), 2, vec![format!("amdrocm{s}")], os));
    v.push(pkg(
        format!("amdrocm-core-sdk{s}"),
        2,
        vec![format!("amdrocm{s}")],
        os,
    ));
    v.push(pkg(
        "amdrocm-core-sdk".into(),
        2,
        vec![format!("amdrocm-core-sdk{s}")],
        os,
    ));
    v
}

/// The driver repository of the 31.50 line: amdgpu-dkms and its firmware.
pub fn driver_packages(os: &str) -> Vec<Package> {
    let version = format!("1:{DKMS_VERSION}.{os}");
    let mk = |name: &str, kb: u64, depends: &[&str], payload: Payload| Package {
        name: name.into(),
        version: version.clone(),
        arch: "all",
        origin: Origin::Driver,
        release: Some(DRIVER_LINE),
        download_kb: kb,
        installed_kb: kb * 4,
        depends: depends.iter().map(|d| d.to_string()).collect(),
        payload,
        suite: None,
    };
    vec![
        mk(
            "amdgpu-dkms",
            11_900,
            &["amdgpu-dkms-firmware", "dkms"],
            Payload::DkmsModule,
        ),
        mk("amdgpu-dkms-firmware", 41_000, &[], Payload::None),
    ]
}

/// The GPU target a core package is for (`amdrocm-core10.0-gfx942` -> `gfx942`), `None` for
/// the package of every target.
pub fn core_target(name: &str) -> Option<Option<&str>> {
    let rest = name.strip_prefix("amdrocm-core")?.strip_prefix(SERIES)?;
    match rest {
        "" => Some(None),
        r => r.strip_prefix('-').map(Some),
    }
}

/// Installs a Core SDK or 31.x driver package: its files, the postinst of a core package, the
/// dpkg record. Returns what its maintainer scripts print.
pub fn install(
    root: &Path,
    state: &mut State,
    p: &Package,
    bin: &str,
) -> std::io::Result<Vec<String>> {
    if p.payload == Payload::DkmsModule {
        state.dkms.retain(|d| d.module != "amdgpu");
        state.dkms.push(DkmsEntry {
            module: "amdgpu".into(),
            version: DKMS_VERSION.into(),
            kernel: state.machine.kernel.clone(),
            arch: "x86_64".into(),
        });
    }
    if p.origin == Origin::CoreSdk {
        let dir = |sub: &str| fsx::host(root, &format!("{PREFIX}/{sub}"), "/");
        if let Some(c) = COMPONENTS
            .iter()
            .find(|c| p.name == format!("{}{SERIES}", c.name))
        {
            std::fs::create_dir_all(dir("bin"))?;
            for t in c.bins {
                fsx::write_executable(
                    &dir("bin").join(t),
                    &super::wrappers::release_wrapper(bin, t, VERSION),
                )?;
            }
            for l in c.libs {
                fsx::write_atomic(&dir("lib").join(l), b"")?;
            }
        }
        if core_target(&p.name).is_some() {
            for sub in ["include", "llvm", "amdgcn", "libexec", "share", "lib"] {
                std::fs::create_dir_all(dir(sub))?;
            }
            register(root, state.now());
        }
    }
    state.packages.insert(
        p.name.clone(),
        Installed {
            version: p.version.clone(),
            release: p.release.map(String::from),
            arch: p.arch.to_string(),
            ..Default::default()
        },
    );
    Ok(Vec::new())
}

/// The postinst's priority: the release's score in millions plus the minutes since
/// 2020-09-13, so a newer release wins and, for the same release, the newest install.
pub fn priority(now: i64) -> i32 {
    let (major, minor, patch) = (10i64, 0i64, 0i64);
    let score = ((major - 3) * 14 + minor) * 14 + patch;
    (score * 1_000_000 + (now - 1_600_000_000).max(0) / 60) as i32
}

/// What the core package's postinst does: one alternatives group per /opt/rocm link and per
/// program in /usr/bin. Its output is not documented; it prints nothing here.
pub fn register(root: &Path, now: i64) {
    let prio = priority(now);
    let mut a = Alternatives::new(root, true, now);
    a.verbose = -1;
    for (link, name, sub) in OPT_LINKS {
        let path = format!("{PREFIX}{sub}");
        a.log(format!("run with --install {link} {name} {path} {prio}"));
        let _ = a.install(link, name, &path, prio, Vec::new());
    }
    for t in USR_BIN_TOOLS {
        let path = format!("{PREFIX}/bin/{t}");
        if a.exists(&path) {
            let link = format!("/usr/bin/{t}");
            a.log(format!("run with --install {link} {t} {path} {prio}"));
            let _ = a.install(&link, t, &path, prio, Vec::new());
        }
    }
    a.flush_log();
}

/// Removing a Core SDK package: its programs and libraries; the last core package's postrm
/// takes its choices out of the groups (the links go with the last choice).
pub fn remove(root: &Path, now: i64, state: &State, p: &Package) {
    let file = |sub: &str, f: &str| fsx::host(root, &format!("{PREFIX}/{sub}/{f}"), "/");
    if let Some(c) = COMPONENTS
        .iter()
        .find(|c| p.name == format!("{}{SERIES}", c.name))
    {
        for t in c.bins {
            let _ = std::fs::remove_file(file("bin", t));
        }
        for l in c.libs {
            let _ = std::fs::remove_file(file("lib", l));
        }
    }
    let other_core = state
        .packages
        .keys()
        .any(|n| *n != p.name && core_target(n).is_some());
    if core_target(&p.name).is_some() && !other_core {
        for (_, name, sub) in OPT_LINKS {
            super::alternatives::unregister(root, now, name, &format!("{PREFIX}{sub}"));
        }
        for t in USR_BIN_TOOLS {
            super::alternatives::unregister(root, now, t, &format!("{PREFIX}/bin/{t}"));
        }
    }
}

/// Whether a ROCm tool run now is the Core SDK's: its wrapper names the release, or (where the
/// wrapper's variable does not reach the tool, as in the lab's sandbox) the Core SDK is the
/// only ROCm installed.
pub fn running(cx: &super::Ctx) -> bool {
    // A managed runtime of rocm-cli in the ROCm 10 layout is the Core SDK's programs too.
    let managed = super::rocm_runtimes::of_wrapper(cx.root, cx.env)
        .is_some_and(|m| m.version.starts_with("10."));
    managed
        || cx
            .env
            .iter()
            .any(|(k, v)| k == super::wrappers::RELEASE_ENV && v == VERSION)
        || (cx.state.rocm_version().is_none()
            && cx.state.packages.keys().any(|n| core_target(n).is_some()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_keys_differ_and_dearmor_to_themselves() {
        assert_ne!(key_binary(), keys::amd_key_binary());
        assert_eq!(keys::dearmor(key_armored().as_bytes()), Some(key_binary()));
        assert!(is_keyring(&key_binary(), false));
        assert!(!is_keyring(&keys::amd_key_binary(), false));
        assert!(!keys::is_amd_keyring(&key_binary(), false));
    }

    #[test]
    fn names_follow_the_install_page() {
        let names: Vec<String> = packages("24.04").into_iter().map(|p| p.name).collect();
        for n in [
            "amdrocm",
            "amdrocm10.0",
            "amdrocm10.0-gfx942",
            "amdrocm10.0-gfx1100",
            "amdrocm-core-sdk10.0",
            "amdrocm-base10.0",
            "amdrocm-llvm10.0",
        ] {
            assert!(names.iter().any(|x| x == n), "{n}");
        }
        assert!(!names.iter().any(|x| x.contains("rocm-smi")));
        assert_eq!(core_target("amdrocm-core10.0-gfx942"), Some(Some("gfx942")));
        assert_eq!(core_target("amdrocm-core10.0"), Some(None));
        assert_eq!(core_target("amdrocm-core-sdk10.0"), None);
    }

    #[test]
    fn priority_grows_with_time_from_the_release_score() {
        let p = priority(1_795_000_000);
        assert!(p > 1_372_000_000 && p < 1_380_000_000, "{p}");
        assert!(priority(1_795_000_600) > p);
    }
}
