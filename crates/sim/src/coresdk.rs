//! AMD's ROCm Core SDK (TheRock, 10.x) on the simulated machine: its repository on
//! stable.repo.amd.com (deb822 file, its own key), the amdgpu driver from its own repository
//! and version line (31.x), the `amdrocm*` packages, and what they put on disk: the tree in
//! /opt/rocm/core-10.X and the /opt/rocm links as alternatives groups. The mirror carries 10.0
//! and 10.1; the install page and the unversioned meta packages install 10.1, the current one.
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

/// One Core SDK release as the mirror carries it: its names, its tree, the driver line its
/// install page links and what `amd-smi version` says with it.
#[derive(Debug, PartialEq, Eq)]
pub struct Sdk {
    /// `10.1.0`.
    pub version: &'static str,
    /// `amdrocm10.1`, `/opt/rocm/core-10.1`.
    pub series: &'static str,
    /// Where it installs.
    pub prefix: &'static str,
    /// The minor release, for the postinst's priority.
    minor: i64,
    /// The amdgpu driver line its install page links to (repo.radeon.com/amdgpu/LINE/ubuntu).
    pub driver_line: &'static str,
    /// That driver's module version as `amd-smi version` reports it (`amdgpu version:`).
    pub dkms: &'static str,
    /// `AMDSMI Tool: ... | AMDSMI Library version: ...` of its `amd-smi version`.
    pub amdsmi: &'static str,
    /// Whether it still ships rocm-smi (deprecated on 10.0, "no longer built or installed"
    /// from 10.1.0).
    pub rocm_smi: bool,
}

/// The releases on stable.repo.amd.com, oldest first: 10.0.0 (INSTALL-10.0.0, its
/// `amd-smi version` line) and 10.1.0 (its install page's post-install line, whose
/// `amdgpu version: 7.1.9.31600000` names the 31.60 driver line).
pub const RELEASES: &[Sdk] = &[
    Sdk {
        version: "10.0.0",
        series: "10.0",
        prefix: "/opt/rocm/core-10.0",
        minor: 0,
        driver_line: "31.50",
        dkms: "7.1.3.31500000",
        amdsmi: "AMDSMI Tool: 27.0.0+6b0e43f3 | AMDSMI Library version: 27.0.0",
        rocm_smi: true,
    },
    Sdk {
        version: "10.1.0",
        series: "10.1",
        prefix: "/opt/rocm/core-10.1",
        minor: 1,
        driver_line: "31.60",
        dkms: "7.1.9.31600000",
        amdsmi: "AMDSMI Tool: 27.1.0+7da43026 | AMDSMI Library version: 27.1.0",
        rocm_smi: false,
    },
];

/// The current release: what the install page and the unversioned meta packages install.
pub const CURRENT: &Sdk = &RELEASES[RELEASES.len() - 1];
/// The current release's version, series and tree.
pub const VERSION: &str = CURRENT.version;
/// `amdrocm10.1`, `/opt/rocm/core-10.1`.
pub const SERIES: &str = CURRENT.series;
/// Where the current release installs.
pub const PREFIX: &str = CURRENT.prefix;
/// Where its extras install.
pub const EXTRAS: &str = "/opt/rocm/extras-10";

/// The release of a version (`10.0.0`) or series (`10.0`).
pub fn release(v: &str) -> Option<&'static Sdk> {
    RELEASES.iter().find(|r| r.version == v || r.series == v)
}

/// The release whose driver line is `line` (`31.50`).
pub fn by_driver_line(line: &str) -> Option<&'static Sdk> {
    RELEASES.iter().find(|r| r.driver_line == line)
}

/// The Core SDK's package server.
pub const HOST: &str = "stable.repo.amd.com";
/// Where its signing key is served.
pub const KEY_URL: &str = "https://stable.repo.amd.com/rocm/gpg/packages.gpg";
/// The long id apt names in `NO_PUBKEY` for it: the last 16 digits of the AMD ROCm signing
/// key's fingerprint, D0F004A0025A1145C7807FCD0701EAC4D5E02107, which TheRock's
/// `build_repo_package.py` pins for stable.repo.amd.com.
pub const KEY_ID: &str = "0701EAC4D5E02107";
/// Where its install page puts the keyring.
pub const KEYRING: &str = "/etc/apt/keyrings/amdrocm.gpg";
/// The deb822 sources file its install page writes.
pub const SOURCES_FILE: &str = "/etc/apt/sources.list.d/amdrocm-stable.sources";

/// The amdgpu driver line the current install page links to.
pub const DRIVER_LINE: &str = CURRENT.driver_line;
/// That driver's module version.
pub const DKMS_VERSION: &str = CURRENT.dkms;

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

fn pkg(sdk: &'static Sdk, name: String, kb: u64, depends: Vec<String>, os: &str) -> Package {
    Package {
        name,
        version: format!("{}-25~{os}", sdk.version),
        arch: "amd64",
        origin: Origin::CoreSdk,
        release: Some(sdk.version),
        download_kb: kb,
        installed_kb: kb * 4,
        depends,
        payload: Payload::None,
        suite: None,
    }
}

/// Every package of the Core SDK repository, built for `os` (`24.04`): each release's, and
/// the unversioned meta packages, which follow the current one.
pub fn packages(os: &str) -> Vec<Package> {
    let mut v: Vec<Package> = RELEASES
        .iter()
        .flat_map(|r| release_packages(r, os))
        .collect();
    v.push(pkg(
        CURRENT,
        "amdrocm".into(),
        2,
        vec![format!("amdrocm{SERIES}")],
        os,
    ));
    v.push(pkg(
        CURRENT,
        "amdrocm-core-sdk".into(),
        2,
        vec![format!("amdrocm-core-sdk{SERIES}")],
        os,
    ));
    v
}

fn release_packages(sdk: &'static Sdk, os: &str) -> Vec<Package> {
    let s = sdk.series;
    let mut v: Vec<Package> = COMPONENTS
        .iter()
        .map(|c| {
            pkg(
                sdk,
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
        sdk,
        format!("amdrocm-core{s}"),
        1_900_000,
        parts.clone(),
        os,
    ));
    for t in TARGETS {
        v.push(pkg(
            sdk,
            format!("amdrocm-core{s}-{t}"),
            260_000,
            parts.clone(),
            os,
        ));
        v.push(pkg(
            sdk,
            format!("amdrocm{s}-{t}"),
            2,
            vec![format!("amdrocm-core{s}-{t}")],
            os,
        ));
    }
    v.push(pkg(
        sdk,
        format!("amdrocm{s}"),
        2,
        vec![format!("amdrocm-core{s}")],
        os,
    ));
    v.push(pkg(
        sdk,
        format!("amdrocm-core-sdk{s}"),
        2,
        vec![format!("amdrocm{s}")],
        os,
    ));
    v
}

/// The driver repository of one 31.x line: amdgpu-dkms and its firmware.
pub fn driver_packages(sdk: &'static Sdk, os: &str) -> Vec<Package> {
    let version = format!("1:{}.{os}", sdk.dkms);
    let mk = |name: &str, kb: u64, depends: &[&str], payload: Payload| Package {
        name: name.into(),
        version: version.clone(),
        arch: "all",
        origin: Origin::Driver,
        release: Some(sdk.driver_line),
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

/// The driver packages of every 31.x line, for what apt may remove.
pub fn all_driver_packages(os: &str) -> Vec<Package> {
    RELEASES
        .iter()
        .flat_map(|r| driver_packages(r, os))
        .collect()
}

/// The release and GPU target of a core package (`amdrocm-core10.1-gfx942` -> 10.1,
/// `gfx942`), the target `None` for the package of every target.
pub fn core_package(name: &str) -> Option<(&'static Sdk, Option<&str>)> {
    let rest = name.strip_prefix("amdrocm-core")?;
    RELEASES.iter().find_map(|r| {
        let t = rest.strip_prefix(r.series)?;
        match t {
            "" => Some((r, None)),
            t => t.strip_prefix('-').map(|t| (r, Some(t))),
        }
    })
}

/// The GPU target of a core package of any release (`amdrocm-core10.1-gfx942` -> `gfx942`),
/// `None` for the package of every target.
pub fn core_target(name: &str) -> Option<Option<&str>> {
    core_package(name).map(|(_, t)| t)
}

/// The release a Core SDK package belongs to.
fn of_package(p: &Package) -> &'static Sdk {
    p.release.and_then(release).unwrap_or(CURRENT)
}

/// The highest release with a core package installed.
pub fn installed_release(state: &State) -> Option<&'static Sdk> {
    state
        .packages
        .keys()
        .filter_map(|n| core_package(n).map(|(r, _)| r))
        .max_by_key(|r| r.minor)
}

/// The programs a component of `sdk` puts in its `bin`.
fn bins(sdk: &Sdk, c: &Component) -> Vec<&'static str> {
    let mut v = c.bins.to_vec();
    // rocm-smi came with AMD SMI until 10.1 dropped it.
    if c.name == "amdrocm-amdsmi" && sdk.rocm_smi {
        v.push("rocm-smi");
    }
    v
}

/// The files a Core SDK package owns, as `dpkg -L` would list them (its folders first). The
/// meta and core packages own no program here; the alternatives links in /usr/bin and
/// /opt/rocm belong to no package, as on a real node.
pub fn files(p: &Package) -> Vec<String> {
    if p.origin != Origin::CoreSdk {
        return Vec::new();
    }
    let sdk = of_package(p);
    let Some(c) = COMPONENTS
        .iter()
        .find(|c| p.name == format!("{}{}", c.name, sdk.series))
    else {
        return Vec::new();
    };
    let prefix = sdk.prefix;
    let mut v = vec!["/opt".to_string(), "/opt/rocm".into(), prefix.to_string()];
    let bins = bins(sdk, c);
    if !bins.is_empty() {
        v.push(format!("{prefix}/bin"));
        v.extend(bins.iter().map(|t| format!("{prefix}/bin/{t}")));
    }
    if !c.libs.is_empty() {
        v.push(format!("{prefix}/lib"));
        v.extend(c.libs.iter().map(|l| format!("{prefix}/lib/{l}")));
    }
    v
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
        let dkms = p
            .release
            .and_then(by_driver_line)
            .map_or(DKMS_VERSION, |r| r.dkms);
        state.dkms.retain(|d| d.module != "amdgpu");
        state.dkms.push(DkmsEntry {
            module: "amdgpu".into(),
            version: dkms.into(),
            kernel: state.machine.kernel.clone(),
            arch: "x86_64".into(),
        });
    }
    if p.origin == Origin::CoreSdk {
        let sdk = of_package(p);
        let dir = |sub: &str| fsx::host(root, &format!("{}/{sub}", sdk.prefix), "/");
        if let Some(c) = COMPONENTS
            .iter()
            .find(|c| p.name == format!("{}{}", c.name, sdk.series))
        {
            std::fs::create_dir_all(dir("bin"))?;
            for t in bins(sdk, c) {
                fsx::write_executable(
                    &dir("bin").join(t),
                    &super::wrappers::release_wrapper(bin, t, sdk.version),
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
            register(root, sdk, state.now());
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
pub fn priority(sdk: &Sdk, now: i64) -> i32 {
    let (major, minor, patch) = (10i64, sdk.minor, 0i64);
    let score = ((major - 3) * 14 + minor) * 14 + patch;
    (score * 1_000_000 + (now - 1_600_000_000).max(0) / 60) as i32
}

/// What the core package's postinst does: one alternatives group per /opt/rocm link and per
/// program in /usr/bin. Its output is not documented; it prints nothing here.
pub fn register(root: &Path, sdk: &Sdk, now: i64) {
    let prio = priority(sdk, now);
    let prefix = sdk.prefix;
    let mut a = Alternatives::new(root, true, now);
    a.verbose = -1;
    for (link, name, sub) in OPT_LINKS {
        let path = format!("{prefix}{sub}");
        a.log(format!("run with --install {link} {name} {path} {prio}"));
        let _ = a.install(link, name, &path, prio, Vec::new());
    }
    for t in USR_BIN_TOOLS {
        let path = format!("{prefix}/bin/{t}");
        if a.exists(&path) {
            let link = format!("/usr/bin/{t}");
            a.log(format!("run with --install {link} {t} {path} {prio}"));
            let _ = a.install(&link, t, &path, prio, Vec::new());
        }
    }
    a.flush_log();
}

/// Removing a Core SDK package: its programs and libraries; the release's last core package's
/// postrm takes its choices out of the groups (the links go with the last choice).
pub fn remove(root: &Path, now: i64, state: &State, p: &Package) {
    let sdk = of_package(p);
    let file = |sub: &str, f: &str| fsx::host(root, &format!("{}/{sub}/{f}", sdk.prefix), "/");
    if let Some(c) = COMPONENTS
        .iter()
        .find(|c| p.name == format!("{}{}", c.name, sdk.series))
    {
        for t in bins(sdk, c) {
            let _ = std::fs::remove_file(file("bin", t));
        }
        for l in c.libs {
            let _ = std::fs::remove_file(file("lib", l));
        }
    }
    let other_core = state
        .packages
        .keys()
        .any(|n| *n != p.name && core_package(n).is_some_and(|(r, _)| r == sdk));
    if core_target(&p.name).is_some() && !other_core {
        for (_, name, sub) in OPT_LINKS {
            super::alternatives::unregister(root, now, name, &format!("{}{sub}", sdk.prefix));
        }
        for t in USR_BIN_TOOLS {
            super::alternatives::unregister(root, now, t, &format!("{}/bin/{t}", sdk.prefix));
        }
    }
}

/// Whether a ROCm tool run now is the Core SDK's: its wrapper names the release, or (where the
/// wrapper's variable does not reach the tool, as in the lab's sandbox) the Core SDK is the
/// only ROCm installed.
pub fn running(cx: &super::Ctx) -> bool {
    running_release(cx).is_some()
}

/// The Core SDK release of the tool run now: the managed runtime's, the one its wrapper names,
/// or (where the wrapper's variable does not reach the tool) the newest installed when no
/// legacy ROCm is.
pub fn running_release(cx: &super::Ctx) -> Option<&'static Sdk> {
    // A managed runtime of rocm-cli in the ROCm 10 layout is the Core SDK's programs too.
    let managed = super::rocm_runtimes::of_wrapper(cx.root, cx.env);
    if let Some(r) = managed.and_then(|m| release(&m.version)) {
        return Some(r);
    }
    // The caller may set the variable by hand: a release it names counts only if installed.
    let named = cx
        .env
        .iter()
        .find(|(k, _)| k == super::wrappers::RELEASE_ENV)
        .and_then(|(_, v)| release(v))
        .filter(|r| {
            cx.state
                .packages
                .keys()
                .any(|n| core_package(n).is_some_and(|(p, _)| p.version == r.version))
        });
    if named.is_some() {
        return named;
    }
    if cx.state.rocm_version().is_none() {
        return installed_release(cx.state);
    }
    None
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
            "amdrocm10.1",
            "amdrocm10.1-gfx942",
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
        assert_eq!(
            core_package("amdrocm-core10.1-gfx942").map(|(r, t)| (r.version, t)),
            Some(("10.1.0", Some("gfx942")))
        );
        let meta = packages("24.04").into_iter().find(|p| p.name == "amdrocm");
        assert_eq!(
            meta.map(|p| p.depends),
            Some(vec!["amdrocm10.1".to_string()])
        );
        assert_eq!(core_target("amdrocm-core10.0"), Some(None));
        assert_eq!(core_target("amdrocm-core-sdk10.0"), None);
    }

    #[test]
    fn priority_grows_with_time_from_the_release_score() {
        let p = priority(&RELEASES[0], 1_795_000_000);
        assert!(p > 1_372_000_000 && p < 1_380_000_000, "{p}");
        assert!(priority(&RELEASES[0], 1_795_000_600) > p);
        // A newer release wins over an older one installed later.
        assert!(priority(CURRENT, 1_795_000_000) > priority(&RELEASES[0], 1_799_000_000));
    }
}
