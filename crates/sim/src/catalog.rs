//! What the (offline) package repositories hold: ROCm releases, their packages, and the files a
//! package puts on disk when installed.
//!
//! Version strings follow the real scheme (`<component>.<build>-<n>~<os>`); HIP and clang build
//! strings are from public `hipcc --version` output where the facts sheet gives them (6.2.0,
//! 6.3.2's HIP version) and are otherwise of the same shape (marked in `RELEASES`).

use super::machine::Machine;

/// One ROCm release and the versions that come with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Release {
    /// `6.2.2`.
    pub version: &'static str,
    /// `60202` for 6.2.2.
    pub build: &'static str,
    /// HIP's version as hipcc prints it.
    pub hip_version: &'static str,
    /// The bundled clang's version.
    pub clang: &'static str,
    /// Version of the amdgpu DKMS driver shipped with this release (without the OS suffix).
    pub dkms: &'static str,
    /// amdgpu-install's package version.
    pub installer_version: &'static str,
    /// Priority rocm-core's postinst gives /opt/rocm-X.Y.Z in the `rocm` alternative. Only
    /// 6.3.1's (633299994) is attested; these follow its shape and keep newer releases higher.
    pub alt_priority: i32,
    /// The driver's own version line in `repo.radeon.com/amdgpu/<line>/ubuntu`, from 7.0 on
    /// (`30.30` for 7.2); empty for the releases whose driver repository carried their number.
    pub driver_line: &'static str,
}

/// The releases the simulator knows, oldest first.
pub const RELEASES: &[Release] = &[
    // hipcc text exactly as in the facts sheet.
    Release {
        version: "6.2.0",
        build: "60200",
        hip_version: "6.2.41133-dd7f95766",
        clang: "AMD clang version 18.0.0git (https://github.com/RadeonOpenCompute/llvm-project roc-6.2.0 24292 26466ce804ac523b398608f17388eb6d605a3f09)",
        dkms: "6.8.5-2009582",
        installer_version: "6.2.60200-1",
        alt_priority: 620299994,
        driver_line: "",
    },
    // HIP build id of 6.2.2 from public reports; the clang revision is of the same shape (UNVERIFIED).
    Release {
        version: "6.2.2",
        build: "60202",
        hip_version: "6.2.41134-65d174c3e",
        clang: "AMD clang version 18.0.0git (https://github.com/RadeonOpenCompute/llvm-project roc-6.2.2 24355 77cf9ad00e298ed06e06aec0f81009510f545714)",
        dkms: "6.8.5-2041575",
        installer_version: "6.2.60202-1",
        alt_priority: 622299994,
        driver_line: "",
    },
    // HIP version from the facts sheet; the DKMS version is the sheet's `dkms status` example.
    Release {
        version: "6.3.2",
        build: "60302",
        hip_version: "6.3.42134-a9a80e791",
        clang: "AMD clang version 18.0.0git (https://github.com/RadeonOpenCompute/llvm-project roc-6.3.2 25012 e5bf7e55c91490b07c49d8960fa7983d864936c4)",
        dkms: "6.10.5-2109964",
        installer_version: "6.3.60302-1",
        alt_priority: 632299994,
        driver_line: "",
    },
    // The last legacy release line before the Core SDK. Its driver comes from the 30.30 line
    // (facts sheet: `amdgpu_url_version` 30.30.x in the 7.2-era docs); the HIP and clang build
    // strings and the DKMS build number are of the right shape only (UNVERIFIED); 6.16.6 is
    // the ROCk module version the 10.0 install page shows for a 30.x/31.x-era driver.
    Release {
        version: "7.2.0",
        build: "70200",
        hip_version: "7.2.26015-fc0010cf6a",
        clang: "AMD clang version 22.0.0git (https://github.com/RadeonOpenCompute/llvm-project roc-7.2.0 26014 7b800a19466229b8479a78de19143dc33c3ab9b5)",
        dkms: "6.16.6-2255209",
        installer_version: "7.2.70200-1",
        alt_priority: 720299994,
        driver_line: "30.30",
    },
];

/// The release a spec gets when it names none.
pub const DEFAULT_RELEASE: &str = "6.2.2";

/// ROCm releases repo.radeon.com publishes that the lab's offline mirror does not carry, as
/// they are spelled in its URLs (an x.y.0 release is `x.y`).
pub const UPSTREAM_ONLY: &[&str] = &[
    "5.7.1", "5.7.3", "6.0", "6.0.2", "6.1", "6.1.1", "6.1.2", "6.1.3", "6.2.1", "6.2.4", "6.3",
    "6.3.1", "6.3.3", "6.4", "6.4.1",
];

/// The ROCm release in a repo.radeon.com URL that exists upstream but not on the offline
/// mirror (`https://repo.radeon.com/rocm/apt/6.1.3` -> `6.1.3`).
pub fn upstream_only(uri: &str) -> Option<&'static str> {
    UPSTREAM_ONLY.iter().copied().find(|v| {
        let u = uri.trim_end_matches('/');
        u.ends_with(&format!("/rocm/apt/{v}"))
            || u.ends_with(&format!("/amdgpu/{v}/ubuntu"))
            || u.contains(&format!("/amdgpu-install/{v}/"))
    })
}

/// The releases the offline mirror carries, for messages (`6.2.0, 6.2.2, 6.3.2`).
pub fn mirrored() -> String {
    RELEASES
        .iter()
        .map(|r| r.version)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The release `version` names (`6.2.2`; an x.y.0 release also as `x.y`, as its URLs do).
pub fn release(version: &str) -> Option<&'static Release> {
    // repo.radeon.com names an x.y.0 release `x.y` in its URLs (rocm/apt/6.2).
    RELEASES
        .iter()
        .find(|r| r.version == version || r.version.strip_suffix(".0") == Some(version))
}

/// The release whose driver repository is repo.radeon.com/amdgpu/`dir`/ubuntu.
pub fn release_by_amdgpu_dir(dir: &str) -> Option<&'static Release> {
    RELEASES.iter().find(|r| {
        if r.driver_line.is_empty() {
            r.version == dir || r.version.strip_suffix(".0") == Some(dir)
        } else {
            r.driver_line == dir
        }
    })
}

/// repo.radeon.com's signing key.
pub const KEY_URL: &str = "https://repo.radeon.com/rocm/rocm.gpg.key";
/// The device plugin's DaemonSet manifest.
pub const DEVICE_PLUGIN_URL: &str =
    "https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml";
/// The README's variant with the device health exporter: the same plugin DaemonSet here.
pub const DEVICE_PLUGIN_HEALTH_URL: &str =
    "https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp-health.yaml";
/// The node labeller's DaemonSet manifest.
pub const LABELLER_URL: &str =
    "https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-labeller.yaml";

impl Release {
    /// amdgpu-install's .deb file name.
    pub fn installer_deb(&self) -> String {
        format!("amdgpu-install_{}_all.deb", self.installer_version)
    }

    /// Where amdgpu-install's .deb is served for Ubuntu `codename`.
    pub fn installer_url(&self, codename: &str) -> String {
        format!(
            "https://repo.radeon.com/amdgpu-install/{}/ubuntu/{codename}/{}",
            self.version,
            self.installer_deb()
        )
    }

    /// The folder of its driver in repo.radeon.com/amdgpu/ (`6.2.2`, `30.30`).
    pub fn amdgpu_dir(&self) -> &'static str {
        if self.driver_line.is_empty() {
            self.version
        } else {
            self.driver_line
        }
    }

    /// `/opt/rocm-X.Y.Z`.
    pub fn rocm_dir(&self) -> String {
        format!("/opt/rocm-{}", self.version)
    }
}

/// Which archive a package comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Ubuntu's archive.
    Ubuntu,
    /// repo.radeon.com's amdgpu driver.
    AmdGpu,
    /// repo.radeon.com's ROCm packages.
    Rocm,
    /// A .deb file given on the command line.
    Local,
    /// stable.repo.amd.com: the ROCm Core SDK (10.x), see [`super::coresdk`].
    CoreSdk,
    /// repo.radeon.com/amdgpu/31.50: the driver of its own version line.
    Driver,
}

/// What installing a package puts on the machine, beyond the dpkg record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// Wrapper scripts in `/opt/rocm-X.Y.Z/bin` (and the `/opt/rocm` link).
    RocmBins(&'static [&'static str]),
    /// Empty library files under `/opt/rocm-X.Y.Z/lib`, so the tree looks installed.
    RocmLibs(&'static [&'static str]),
    /// A wrapper at an absolute path (e.g. `/usr/sbin/dkms`).
    SystemBin(&'static str, &'static str),
    /// Builds and installs the amdgpu DKMS module for the running kernel.
    DkmsModule,
    /// linux-modules-extra: the in-tree amdgpu.ko for its kernel.
    InTreeModule,
    /// amdgpu-install: the script plus the repository definitions and key.
    Installer,
    /// Nothing beyond the record.
    None,
}

/// A package apt can install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// Its name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Its architecture.
    pub arch: &'static str,
    /// Where it comes from.
    pub origin: Origin,
    /// Release of an AMD package.
    pub release: Option<&'static str>,
    /// Download size.
    pub download_kb: u64,
    /// Installed size.
    pub installed_kb: u64,
    /// Packages it depends on.
    pub depends: Vec<String>,
    /// What installing it does.
    pub payload: Payload,
    /// The Ubuntu release a package was built for, when it matters: amdgpu-install writes
    /// repository lines for its own release, not for the machine's.
    pub suite: Option<String>,
}

fn pkg(
    name: &str,
    version: String,
    origin: Origin,
    kb: u64,
    depends: &[&str],
    payload: Payload,
) -> Package {
    Package {
        name: name.into(),
        version,
        arch: "amd64",
        origin,
        release: None,
        download_kb: kb,
        installed_kb: kb * 4,
        depends: depends.iter().map(|s| s.to_string()).collect(),
        payload,
        suite: None,
    }
}

/// The version of GCC's runtime libraries in an Ubuntu release's updates.
fn gcc_libs(os: &str) -> String {
    if os == "24.04" {
        "14.2.0-4ubuntu2~24.04".into()
    } else {
        "12.3.0-1ubuntu1~22.04".into()
    }
}

/// Packages of the Ubuntu archive that matter to the labs.
pub fn ubuntu_packages(m: &Machine) -> Vec<Package> {
    let k = &m.kernel;
    let os = &m.os.version_id;
    let kver = k.trim_end_matches("-generic");
    let kpkg = format!("{kver}.{}", if os == "24.04" { "53" } else { "135" });
    let mut v = vec![
        pkg(
            &format!("linux-headers-{k}"),
            kpkg.clone(),
            Origin::Ubuntu,
            3_400,
            &[],
            Payload::None,
        ),
        // The metapackage that follows the newest kernel (this machine runs it).
        pkg(
            "linux-headers-generic",
            format!(
                "{}.{}",
                kver.replace('-', "."),
                if os == "24.04" { "53" } else { "135" }
            ),
            Origin::Ubuntu,
            10,
            &[&format!("linux-headers-{k}")],
            Payload::None,
        ),
        pkg(
            &format!("linux-modules-extra-{k}"),
            kpkg,
            Origin::Ubuntu,
            98_000,
            &[],
            Payload::InTreeModule,
        ),
        pkg(
            "dkms",
            if os == "24.04" {
                "3.0.11-1ubuntu13".into()
            } else {
                "2.8.7-2ubuntu2.2".into()
            },
            Origin::Ubuntu,
            50,
            &[],
            Payload::SystemBin("dkms", "/usr/sbin/dkms"),
        ),
        pkg(
            "wget",
            "1.21.4-1ubuntu4.1".into(),
            Origin::Ubuntu,
            334,
            &[],
            Payload::None,
        ),
        pkg(
            "gnupg",
            "2.4.4-2ubuntu17".into(),
            Origin::Ubuntu,
            359,
            &[],
            Payload::None,
        ),
        // Runtime libraries of GCC that AMD's install page asks for first; Ubuntu has both
        // installed (`apt install` says "already the newest version").
        pkg(
            "libatomic1",
            gcc_libs(os),
            Origin::Ubuntu,
            47,
            &[],
            Payload::None,
        ),
        pkg(
            "libquadmath0",
            gcc_libs(os),
            Origin::Ubuntu,
            308,
            &[],
            Payload::None,
        ),
        pkg(
            "libnuma-dev",
            "2.0.18-1build1".into(),
            Origin::Ubuntu,
            35,
            &[],
            Payload::None,
        ),
        // The container runtimes and Python of the container and PyTorch labs.
        pkg(
            "docker.io",
            "24.0.7-0ubuntu4.1".into(),
            Origin::Ubuntu,
            104_000,
            &[],
            Payload::SystemBin("docker", "/usr/bin/docker"),
        ),
        pkg(
            "podman",
            "4.9.3+ds1-1ubuntu0.2".into(),
            Origin::Ubuntu,
            45_000,
            &[],
            Payload::SystemBin("podman", "/usr/bin/podman"),
        ),
        pkg(
            "python3",
            "3.12.3-0ubuntu2".into(),
            Origin::Ubuntu,
            100,
            &[],
            Payload::SystemBin("python3", "/usr/bin/python3"),
        ),
    ];
    for p in &mut v {
        if p.name == "dkms" || p.name == "wget" || p.name == "gnupg" {
            p.arch = "all";
        }
    }
    v
}

/// Packages of the repo.radeon.com archives for one release.
pub fn amd_packages(r: &'static Release, origin: Origin, os_version: &str) -> Vec<Package> {
    let v = |base: &str| format!("{base}.{}-116~{os_version}", r.build);
    let mut list = match origin {
        Origin::AmdGpu => vec![
            pkg(
                "amdgpu-dkms",
                format!("1:{}.{}", r.dkms, os_version),
                Origin::AmdGpu,
                11_200,
                &["amdgpu-dkms-firmware", "dkms"],
                Payload::DkmsModule,
            ),
            pkg(
                "amdgpu-dkms-firmware",
                format!("1:{}.{}", r.dkms, os_version),
                Origin::AmdGpu,
                38_000,
                &[],
                Payload::None,
            ),
        ],
        Origin::Rocm => {
            let hip = r.hip_version.split('-').next().unwrap_or(r.version);
            vec![
                pkg(
                    "rocm-core",
                    v(r.version),
                    Origin::Rocm,
                    10,
                    &[],
                    Payload::None,
                ),
                pkg(
                    "rocminfo",
                    v("1.0.0"),
                    Origin::Rocm,
                    30,
                    &["rocm-core"],
                    Payload::RocmBins(&["rocminfo"]),
                ),
                pkg(
                    "rocm-smi-lib",
                    v("7.3.0"),
                    Origin::Rocm,
                    1_100,
                    &["rocm-core"],
                    Payload::RocmBins(&["rocm-smi"]),
                ),
                pkg(
                    "amd-smi-lib",
                    v("24.6.3"),
                    Origin::Rocm,
                    2_600,
                    &["rocm-core"],
                    Payload::RocmBins(&["amd-smi"]),
                ),
                pkg(
                    "hsa-rocr",
                    v("1.14.0"),
                    Origin::Rocm,
                    1_500,
                    &["rocm-core"],
                    Payload::RocmLibs(&["libhsa-runtime64.so.1"]),
                ),
                pkg(
                    "rocm-llvm",
                    v("18.0.0.24355"),
                    Origin::Rocm,
                    960_000,
                    &["rocm-core"],
                    Payload::None,
                ),
                pkg(
                    "hipcc",
                    v("1.1.1"),
                    Origin::Rocm,
                    300,
                    &["rocm-llvm", "rocm-core"],
                    Payload::RocmBins(&["hipcc"]),
                ),
                pkg(
                    "hip-runtime-amd",
                    v(hip),
                    Origin::Rocm,
                    23_000,
                    &["hsa-rocr", "rocminfo", "hipcc", "rocm-core"],
                    Payload::RocmLibs(&["libamdhip64.so.6"]),
                ),
                pkg(
                    "hip-dev",
                    v(hip),
                    Origin::Rocm,
                    300,
                    &["hip-runtime-amd"],
                    Payload::None,
                ),
                pkg(
                    "rocm-opencl-runtime",
                    v(r.version),
                    Origin::Rocm,
                    10,
                    &["rocm-core"],
                    Payload::None,
                ),
                pkg(
                    "rocm-language-runtime",
                    v(r.version),
                    Origin::Rocm,
                    10,
                    &["rocm-core", "hsa-rocr"],
                    Payload::None,
                ),
                pkg(
                    "rocm-hip-runtime",
                    v(r.version),
                    Origin::Rocm,
                    10,
                    &["rocm-language-runtime", "hip-runtime-amd", "rocminfo"],
                    Payload::None,
                ),
                pkg(
                    "rocm-utils",
                    v(r.version),
                    Origin::Rocm,
                    10,
                    &["rocminfo", "rocm-core"],
                    Payload::None,
                ),
                pkg(
                    "rocm-developer-tools",
                    v(r.version),
                    Origin::Rocm,
                    10,
                    &["rocm-smi-lib", "amd-smi-lib", "rocm-core"],
                    Payload::None,
                ),
                pkg(
                    "rocm-hip-sdk",
                    v(r.version),
                    Origin::Rocm,
                    10,
                    &["rocm-hip-runtime", "hip-dev", "hipcc"],
                    Payload::None,
                ),
                pkg(
                    "rocm",
                    v(r.version),
                    Origin::Rocm,
                    10,
                    &[
                        "rocm-utils",
                        "rocm-developer-tools",
                        "rocm-hip-sdk",
                        "rocm-opencl-runtime",
                    ],
                    Payload::None,
                ),
            ]
        }
        _ => vec![],
    };
    for p in &mut list {
        p.release = Some(r.version);
    }
    if origin == Origin::Rocm {
        // The multi-version packages: the same set, each name (and dependency) carrying the
        // release (`rocm6.2.2`, `rocm-core6.2.2`), so several releases install side by side.
        let versioned: Vec<Package> = list
            .iter()
            .map(|p| {
                let mut q = p.clone();
                q.name = format!("{}{}", p.name, r.version);
                q.depends = p
                    .depends
                    .iter()
                    .map(|d| format!("{d}{}", r.version))
                    .collect();
                q
            })
            .collect();
        list.extend(versioned);
    }
    list
}

/// Whether a package is a release's `rocm-core`, single- or multi-version: its postinst
/// registers /opt/rocm-X.Y.Z as a choice of the `rocm` alternative.
pub fn is_rocm_core(p: &Package) -> bool {
    p.release
        .is_some_and(|v| p.name == "rocm-core" || p.name == format!("rocm-core{v}"))
}

/// The amdgpu-install package, as a local .deb built for Ubuntu `suite` (`None`: the machine's).
pub fn installer_package(r: &'static Release, suite: Option<&str>) -> Package {
    let mut p = pkg(
        "amdgpu-install",
        r.installer_version.to_string(),
        Origin::Local,
        15,
        &[],
        Payload::Installer,
    );
    p.arch = "all";
    p.release = Some(r.version);
    p.suite = suite.map(String::from);
    p
}

/// Package lists of amdgpu-install use cases (a subset; `graphics` and `multimedia` bring Mesa
/// packages the simulator does not model, so they add nothing here).
pub fn usecase_packages(usecase: &str) -> Option<&'static [&'static str]> {
    Some(match usecase {
        "dkms" => &["amdgpu-dkms"],
        "rocm" => &["rocm"],
        "rocmdev" | "rocmdevtools" => &["rocm", "rocm-developer-tools"],
        "hip" | "lrt" => &["rocm-hip-runtime"],
        "hiplibsdk" => &["rocm-hip-sdk"],
        "opencl" | "openclsdk" => &["rocm-opencl-runtime"],
        "graphics" | "multimedia" | "multimediasdk" | "workstation" | "amf" | "openmpsdk"
        | "mllib" | "mlsdk" | "asan" => &[],
        _ => return None,
    })
}

/// The use cases `amdgpu-install --usecase` accepts.
pub const USECASES: &[&str] = &[
    "dkms",
    "graphics",
    "multimedia",
    "multimediasdk",
    "workstation",
    "rocm",
    "rocmdev",
    "rocmdevtools",
    "amf",
    "lrt",
    "opencl",
    "openclsdk",
    "hip",
    "hiplibsdk",
    "openmpsdk",
    "mllib",
    "mlsdk",
    "asan",
];
