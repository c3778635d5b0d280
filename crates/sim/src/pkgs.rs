//! apt's world: sources and keyrings read from the stage's /etc/apt, the package lists that
//! `apt update` fetched, and what installing a package puts on disk (as real dpkg would).

use std::path::Path;

use super::catalog::{self, Origin, Package, Payload, Release};
use super::fsx;
use super::keys;
use super::state::{DkmsEntry, Installed, State};
pub use super::wrappers::{RELEASE_ENV, release_wrapper, wrapper};

/// One `deb` line (or deb822 stanza) of the stage's apt configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The archive's URI.
    pub uri: String,
    /// The suite (`noble`, `jammy`).
    pub suite: String,
    /// Components (`main`, `proprietary`).
    pub components: Vec<String>,
    /// The keyring it must be signed by, if named.
    pub signed_by: Option<String>,
    /// The sim path of the file it came from.
    pub file: String,
}

impl Source {
    /// The key `apt_lists` records a fetched index under.
    pub fn list_key(&self) -> String {
        format!("{} {}", self.uri.trim_end_matches('/'), self.suite)
    }
}

/// What a repository URI is, in a world without network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repo {
    /// Ubuntu's own archive.
    Ubuntu,
    /// stable.repo.amd.com's Core SDK packages for one OS (`ubuntu2404`).
    CoreSdk(&'static str),
    /// repo.radeon.com/amdgpu/31.x: the driver line a Core SDK release's install page links to.
    CoreDriver(&'static super::coresdk::Sdk),
    /// repo.radeon.com's amdgpu driver of a release.
    AmdGpu(&'static Release),
    /// repo.radeon.com's ROCm packages of a release.
    Rocm(&'static Release),
    /// repo.radeon.com, but no such release: the server answers 404.
    RadeonMissing,
    /// Any other host: name resolution fails.
    Unreachable,
}

/// What the repository at `uri` is.
pub fn classify(uri: &str) -> Repo {
    let u = uri.trim_end_matches('/');
    let rest = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"))
        .unwrap_or(u);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    match host {
        "archive.ubuntu.com" | "security.ubuntu.com" | "us.archive.ubuntu.com" => Repo::Ubuntu,
        "repo.radeon.com" => {
            let parts: Vec<&str> = path.split('/').collect();
            match parts.as_slice() {
                ["amdgpu", v, "ubuntu"] => super::coresdk::by_driver_line(v).map_or_else(
                    || catalog::release_by_amdgpu_dir(v).map_or(Repo::RadeonMissing, Repo::AmdGpu),
                    Repo::CoreDriver,
                ),
                ["rocm", "apt", v] => catalog::release(v).map_or(Repo::RadeonMissing, Repo::Rocm),
                _ => Repo::RadeonMissing,
            }
        }
        h => super::coresdk::repo_dir(h, path).map_or_else(
            || {
                if h == super::coresdk::HOST {
                    Repo::RadeonMissing
                } else {
                    Repo::Unreachable
                }
            },
            Repo::CoreSdk,
        ),
    }
}

/// The host name in `uri`.
pub fn host_of(uri: &str) -> String {
    let rest = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))
        .unwrap_or(uri);
    rest.split('/').next().unwrap_or(rest).to_string()
}

/// All enabled `deb` sources: /etc/apt/sources.list, then sources.list.d/*.list and *.sources.
pub fn sources(root: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    if let Some(t) = fsx::read_opt(&root.join("etc/apt/sources.list")) {
        out.extend(parse_list(&t, "/etc/apt/sources.list"));
    }
    let dir = root.join("etc/apt/sources.list.d");
    for name in fsx::list_dir(&dir) {
        let Some(text) = fsx::read_opt(&dir.join(&name)) else {
            continue;
        };
        let file = format!("/etc/apt/sources.list.d/{name}");
        if name.ends_with(".list") {
            out.extend(parse_list(&text, &file));
        } else if name.ends_with(".sources") {
            out.extend(parse_deb822(&text, &file));
        }
    }
    out
}

fn parse_list(text: &str, file: &str) -> Vec<Source> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let Some(rest) = line
            .strip_prefix("deb ")
            .or_else(|| line.strip_prefix("deb\t"))
        else {
            continue;
        };
        let rest = rest.trim();
        let (opts, rest) = if let Some(r) = rest.strip_prefix('[') {
            match r.split_once(']') {
                Some((o, r)) => (o, r),
                None => continue,
            }
        } else {
            ("", rest)
        };
        let mut words = rest.split_whitespace();
        let (Some(uri), Some(suite)) = (words.next(), words.next()) else {
            continue;
        };
        let signed_by = opts
            .split_whitespace()
            .find_map(|o| o.strip_prefix("signed-by="))
            .map(String::from);
        out.push(Source {
            uri: uri.to_string(),
            suite: suite.to_string(),
            components: words.map(String::from).collect(),
            signed_by,
            file: file.to_string(),
        });
    }
    out
}

fn parse_deb822(text: &str, file: &str) -> Vec<Source> {
    deb822(text, file).unwrap_or_default()
}

/// A deb822 file's stanzas as apt's tag file reader sees them: fields by lower-case name,
/// a continuation line (leading space or tab) added to its field on a line of its own, ` .`
/// standing for an empty line; `#` lines skipped; blank lines between stanzas.
fn stanzas(text: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut out = Vec::new();
    let mut fields: std::collections::BTreeMap<String, String> = std::collections::BTreeMap::new();
    let mut last: Option<String> = None;
    for l in text.lines() {
        if l.trim().is_empty() {
            if !fields.is_empty() {
                out.push(std::mem::take(&mut fields));
            }
            last = None;
        } else if l.starts_with('#') {
        } else if l.starts_with([' ', '\t']) {
            if let Some(v) = last.as_ref().and_then(|k| fields.get_mut(k)) {
                let more = l.trim();
                v.push('\n');
                v.push_str(if more == "." { "" } else { more });
            }
        } else if let Some((k, v)) = l.split_once(':') {
            let k = k.trim().to_lowercase();
            fields.insert(k.clone(), v.trim().to_string());
            last = Some(k);
        }
    }
    if !fields.is_empty() {
        out.push(fields);
    }
    out
}

/// Where apt stops reading the sources: a stanza of a `.sources` file it finds malformed, as
/// `(file, stanza number, what is missing)`. apt then reads no source at all.
pub fn malformed(root: &Path) -> Option<(String, usize, &'static str)> {
    let dir = root.join("etc/apt/sources.list.d");
    fsx::list_dir(&dir)
        .into_iter()
        .filter(|n| n.ends_with(".sources"))
        .find_map(|name| {
            let text = fsx::read_opt(&dir.join(&name))?;
            let file = format!("/etc/apt/sources.list.d/{name}");
            deb822(&text, &file).err().map(|(n, what)| (file, n, what))
        })
}

/// The sources of one deb822 file, or the first malformed stanza (its number and what apt
/// names in its error: `URI`, `Suite`, `Component`).
fn deb822(text: &str, file: &str) -> Result<Vec<Source>, (usize, &'static str)> {
    let mut out = Vec::new();
    for (i, fields) in stanzas(text).into_iter().enumerate() {
        if fields
            .get("enabled")
            .is_some_and(|v| matches!(v.as_str(), "no" | "false" | "0"))
        {
            continue;
        }
        if !fields
            .get("types")
            .is_some_and(|t| t.split_whitespace().any(|x| x == "deb"))
        {
            continue;
        }
        let words = |k: &str| -> Vec<String> {
            fields
                .get(k)
                .map(|c| c.split_whitespace().map(String::from).collect())
                .unwrap_or_default()
        };
        let (uris, suites, comps) = (words("uris"), words("suites"), words("components"));
        if uris.is_empty() {
            return Err((i + 1, "URI"));
        }
        if suites.is_empty() {
            return Err((i + 1, "Suite"));
        }
        for suite in &suites {
            // An exact path (`./`) takes no components; a suite name needs at least one.
            if suite.ends_with('/') && !comps.is_empty() {
                return Err((i + 1, "absolute Suite Component"));
            }
            if !suite.ends_with('/') && comps.is_empty() {
                return Err((i + 1, "Component"));
            }
        }
        for uri in &uris {
            for suite in &suites {
                out.push(Source {
                    uri: uri.to_string(),
                    suite: suite.to_string(),
                    components: comps.clone(),
                    signed_by: fields.get("signed-by").cloned(),
                    file: file.to_string(),
                });
            }
        }
    }
    Ok(out)
}

/// The outcome of checking a repository's signature against the configured keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyCheck {
    /// Signed by a configured key.
    Ok,
    /// Signed by no configured key (apt's `NO_PUBKEY`).
    NoPubkey,
    /// The signed-by file is armored text but not named `.asc` (apt ignores it).
    UnsupportedFiletype(String),
    /// The signed-by file is one the `_apt` user, who checks signatures, may not read.
    NotReadable(String),
}

/// The `_apt` user's uid and gid on Ubuntu (nogroup), when /etc/passwd does not say.
const APT_IDS: (u32, u32) = (42, 65534);

/// Whether the `_apt` user may read `inside` (and pass through the folders to it).
fn apt_may_read(root: &Path, inside: &str) -> bool {
    use std::os::unix::fs::MetadataExt;
    let (uid, gid) = rocm_unix::accounts::user(root, "_apt").map_or(APT_IDS, |pw| (pw.uid, pw.gid));
    let may = |m: &std::fs::Metadata, bit: u32| {
        let shift = if m.uid() == uid {
            6
        } else if m.gid() == gid {
            3
        } else {
            0
        };
        (m.mode() >> shift) & bit != 0
    };
    let mut dir = Path::new(inside).parent();
    while let Some(d) = dir {
        let Some(ds) = d.to_str() else { return false };
        if std::fs::metadata(fsx::host(root, ds, "/")).is_ok_and(|m| !may(&m, 1)) {
            return false;
        }
        dir = d.parent();
    }
    std::fs::metadata(fsx::host(root, inside, "/")).is_ok_and(|m| may(&m, 4))
}

/// How `src`'s signature checks against the keys configured on the machine at `root`.
pub fn check_key(root: &Path, src: &Source) -> KeyCheck {
    // stable.repo.amd.com signs with its own key; repo.radeon.com (driver too) with the old one.
    let key = if matches!(classify(&src.uri), Repo::CoreSdk(_)) {
        super::coresdk::key_binary()
    } else {
        keys::amd_key_binary()
    };
    // Signed-By holds keyring files (several, in a list) or, in a .sources file, the key
    // itself as an armored block.
    let candidates: Vec<String> = match &src.signed_by {
        Some(v) if v.contains("-----BEGIN PGP PUBLIC KEY BLOCK-----") => {
            return if keys::keyring_has(v.as_bytes(), &key, true) {
                KeyCheck::Ok
            } else {
                KeyCheck::NoPubkey
            };
        }
        Some(v) => v
            .split([',', ' ', '\n', '\t'])
            .filter(|p| p.starts_with('/'))
            .map(String::from)
            .collect(),
        None => {
            let dir = root.join("etc/apt/trusted.gpg.d");
            fsx::list_dir(&dir)
                .into_iter()
                .map(|n| format!("/etc/apt/trusted.gpg.d/{n}"))
                .collect()
        }
    };
    let mut problem = None;
    for c in candidates {
        let Ok(bytes) = std::fs::read(fsx::host(root, &c, "/")) else {
            continue;
        };
        let asc = c.ends_with(".asc");
        let has = keys::keyring_has(&bytes, &key, asc);
        if has && !apt_may_read(root, &c) {
            problem = Some(KeyCheck::NotReadable(c));
        } else if has {
            return KeyCheck::Ok;
        } else if !asc && keys::dearmor(&bytes).is_some() && problem.is_none() {
            problem = Some(KeyCheck::UnsupportedFiletype(c));
        }
    }
    problem.unwrap_or(KeyCheck::NoPubkey)
}

/// Every package apt can see now: Ubuntu's, plus those of fetched AMD indexes.
pub fn available(state: &State) -> Vec<Package> {
    let mut all = catalog::ubuntu_packages(&state.machine);
    let osv = state.machine.os.version_id.clone();
    for key in &state.apt_lists {
        let uri = key.split(' ').next().unwrap_or("");
        match classify(uri) {
            Repo::AmdGpu(r) => all.extend(catalog::amd_packages(r, Origin::AmdGpu, &osv)),
            Repo::Rocm(r) => all.extend(catalog::amd_packages(r, Origin::Rocm, &osv)),
            Repo::CoreSdk(_) => all.extend(super::coresdk::packages(&osv)),
            Repo::CoreDriver(r) => all.extend(super::coresdk::driver_packages(r, &osv)),
            _ => {}
        }
    }
    all
}

/// Installs one package: writes its files into the stage and records it. Returns what its
/// maintainer scripts print (rocm-core's registration of /opt/rocm).
pub fn install(
    root: &Path,
    state: &mut State,
    p: &Package,
    bin: &str,
) -> std::io::Result<Vec<String>> {
    if matches!(p.origin, Origin::CoreSdk | Origin::Driver) {
        return super::coresdk::install(root, state, p, bin);
    }
    let rocm_dir = p.release.map(|v| format!("opt/rocm-{v}"));
    match &p.payload {
        Payload::RocmBins(tools) => {
            if let Some(dir) = &rocm_dir {
                let release = p.release.unwrap_or_default();
                for t in *tools {
                    fsx::write_executable(
                        &root.join(dir).join("bin").join(t),
                        &release_wrapper(bin, t, release),
                    )?;
                }
            }
        }
        Payload::RocmLibs(libs) => {
            if let Some(dir) = &rocm_dir {
                for l in *libs {
                    fsx::write_atomic(&root.join(dir).join("lib").join(l), b"")?;
                }
            }
        }
        Payload::SystemBin(tool, path) => {
            fsx::write_executable(&fsx::system_bin(root, path), &wrapper(bin, tool))?;
        }
        Payload::DkmsModule => {
            if let Some(r) = p.release.and_then(catalog::release) {
                let version = format!("{}.{}", r.dkms, state.machine.os.version_id);
                state.dkms.retain(|d| d.module != "amdgpu");
                state.dkms.push(DkmsEntry {
                    module: "amdgpu".into(),
                    version,
                    kernel: state.machine.kernel.clone(),
                    arch: "x86_64".into(),
                });
            }
        }
        Payload::InTreeModule => {
            if p.name.ends_with(&state.machine.kernel) {
                state.in_tree_module = true;
            }
        }
        Payload::Installer => {
            fsx::write_executable(
                &fsx::system_bin(root, "/usr/bin/amdgpu-install"),
                &wrapper(bin, "amdgpu-install"),
            )?;
            if let Some(v) = p.release {
                // The installer writes the lines of the release it was built for.
                let code = p
                    .suite
                    .clone()
                    .unwrap_or_else(|| state.machine.os.codename.clone());
                let key = "/etc/apt/keyrings/rocm.gpg";
                fsx::write_atomic(
                    &root.join("etc/apt/sources.list.d/amdgpu.list"),
                    format!("deb [arch=amd64 signed-by={key}] https://repo.radeon.com/amdgpu/{d}/ubuntu {code} main\n#deb-src [arch=amd64 signed-by={key}] https://repo.radeon.com/amdgpu/{d}/ubuntu {code} main\n", d = catalog::release(v).map_or(v, |r| r.amdgpu_dir())).as_bytes(),
                )?;
                fsx::write_atomic(
                    &root.join("etc/apt/sources.list.d/rocm.list"),
                    format!("deb [arch=amd64 signed-by={key}] https://repo.radeon.com/rocm/apt/{v} {code} main\n").as_bytes(),
                )?;
                fsx::write_atomic(
                    &root.join("etc/apt/keyrings/rocm.gpg"),
                    &keys::amd_key_binary(),
                )?;
            }
        }
        Payload::None => {}
    }
    let mut printed = Vec::new();
    if let Some(dir) = &rocm_dir {
        std::fs::create_dir_all(root.join(dir).join("bin"))?;
        if catalog::is_rocm_core(p)
            && let Some(r) = p.release.and_then(catalog::release)
        {
            printed =
                super::alternatives::register_rocm(root, state.now(), r.version, r.alt_priority);
        }
    }
    state.packages.insert(
        p.name.clone(),
        Installed {
            version: p.version.clone(),
            release: p.release.map(String::from),
            arch: p.arch.to_string(),
            half_configured: false,
            auto: false,
        },
    );
    Ok(printed)
}

/// Resolves `names` plus their dependencies against `avail`, in install order (dependencies
/// first); packages already installed are left out. `Err(name)` for an unknown name.
pub fn resolve(state: &State, avail: &[Package], names: &[String]) -> Result<Vec<Package>, String> {
    let mut order: Vec<Package> = Vec::new();
    fn visit(
        state: &State,
        avail: &[Package],
        name: &str,
        order: &mut Vec<Package>,
        depth: usize,
    ) -> Result<(), String> {
        if depth > 32 || order.iter().any(|p| p.name == name) || state.installed(name) {
            return Ok(());
        }
        let p = avail
            .iter()
            .find(|p| p.name == name)
            .ok_or_else(|| name.to_string())?;
        for d in &p.depends {
            visit(state, avail, d, order, depth + 1)?;
        }
        order.push(p.clone());
        Ok(())
    }
    for n in names {
        visit(state, avail, n, &mut order, 0)?;
    }
    Ok(order)
}
