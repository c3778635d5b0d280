//! The managed runtimes of AMD's `rocm` command (ROCm/rocm-cli) on the simulated machine, kept
//! where rocm-cli keeps them: everything under the user's `~/.rocm` (its data and config
//! folder), a manifest per runtime in `runtimes/registry/<key>.json`, the active one named in
//! `config.json` and in the marker `runtimes/active.json`, each runtime's Python environment in
//! `runtimes/wheel/<key>`. A runtime sits beside a system ROCm and never touches it.
//!
//! Sources: rocm-cli's README ("ROCm installation", "Runtime management") and its source
//! (`runtime_key`, `managed_runtime_root`, `active_runtime_marker_path`). The folder inside the
//! environment that holds the SDK's programs is the devel root TheRock's `rocm_sdk` reports;
//! its exact name is assumed (docs/tool-facts.md).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::fsx;

/// The variable a runtime's program wrappers set: the runtime's folder, so its tools answer
/// for that runtime. Not `ROCM_SIM_*`: the lab's broker passes it on, and setting it by hand
/// changes only what a tool prints, never what a check reads.
pub const RUNTIME_ENV: &str = "ROCM_LEARN_RUNTIME";

/// The ROCm releases `rocm install sdk --version` finds in the ROCm 10 layout.
pub const TEN_RELEASES: &[&str] = &["10.0.0", "10.1.0"];
/// What the release channel resolves without `--version` (TheRock's own wheels).
pub const WHEEL_RELEASE: &str = "7.14.1";

/// The Python of the environments rocm-cli creates (its portable Python).
const PYTHON: &str = "python3.12";
/// Programs of the SDK's base and SMI parts, in every runtime.
pub const BASE_TOOLS: &[&str] = &["rocminfo", "rocm_agent_enumerator", "amd-smi"];
/// The compiler toolchain, only with `--devel` (`toolchain=included`).
pub const DEVEL_TOOLS: &[&str] = &["hipcc", "hipconfig", "amdclang", "amdclang++"];

/// One runtime's manifest, as rocm-cli writes it (the fields this machine needs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// `release-wheel-gfx942-10-1-0`.
    pub runtime_key: String,
    /// `therock-release:gfx942`.
    pub runtime_id: String,
    /// `release` or `nightly`.
    pub channel: String,
    /// `wheel` or `tarball`.
    pub format: String,
    /// The GPU family or exact target it was resolved for.
    pub family: String,
    /// The ROCm version installed.
    pub version: String,
    /// Its folder on the machine.
    pub install_root: String,
    /// The Python of its environment.
    pub python_executable: String,
    /// Installed with `--devel`: the compiler and headers.
    #[serde(default)]
    pub toolchain: bool,
    /// Registered read-only (`adopt`); never by `install`.
    #[serde(default)]
    pub read_only: bool,
    /// When it was installed (Unix ms).
    #[serde(default)]
    pub installed_at_unix_ms: i64,
}

impl Manifest {
    /// The folder of the SDK's programs inside the environment (`rocm_sdk_bin`).
    pub fn sdk_bin(&self) -> String {
        format!(
            "{}/lib/{PYTHON}/site-packages/_rocm_sdk_devel/bin",
            self.install_root
        )
    }

    /// `toolchain=included|excluded`.
    pub fn toolchain_word(&self) -> &'static str {
        if self.toolchain {
            "included"
        } else {
            "excluded"
        }
    }
}

/// rocm-cli's own settings: which runtime is the active default, and the one before it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The active runtime's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_runtime_id: Option<String>,
    /// The active runtime's key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_runtime_key: Option<String>,
    /// The runtime `rocm runtimes rollback` returns to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_runtime_key: Option<String>,
}

/// The folders of one user's rocm-cli, as paths on the machine.
#[derive(Debug, Clone)]
pub struct Paths {
    /// `~/.rocm`.
    pub data: String,
}

impl Paths {
    /// rocm-cli's folders for the user whose home is `home`.
    pub fn for_home(home: &str) -> Self {
        Paths {
            data: format!("{}/.rocm", home.trim_end_matches('/')),
        }
    }

    /// `~/.rocm/config.json`.
    pub fn config(&self) -> String {
        format!("{}/config.json", self.data)
    }

    /// `~/.rocm/runtimes/registry`.
    pub fn registry(&self) -> String {
        format!("{}/runtimes/registry", self.data)
    }

    /// `~/.rocm/runtimes/active.json`.
    pub fn marker(&self) -> String {
        format!("{}/runtimes/active.json", self.data)
    }

    /// Where `install sdk` puts a runtime of this format and key.
    pub fn install_root(&self, format: &str, key: &str) -> String {
        format!("{}/runtimes/{format}/{key}", self.data)
    }
}

/// TheRock's package family for a target (`compatible_therock_family`).
pub fn therock_family(gfx: &str) -> String {
    match gfx {
        "gfx942" | "gfx950" => "gfx94X-dcgpu".into(),
        "gfx90a" | "gfx908" => "gfx90X-dcgpu".into(),
        g if g.starts_with("gfx110") => "gfx110X-all".into(),
        g if g.starts_with("gfx120") => "gfx120X-all".into(),
        g => g.into(),
    }
}

/// A file of the machine on the host.
fn on_host(root: &Path, path: &str) -> PathBuf {
    root.join(path.trim_start_matches('/'))
}

/// rocm-cli's key for a runtime: `channel-format-family-version`, lower case, every other
/// character a dash.
pub fn runtime_key(channel: &str, format: &str, family: &str, version: &str) -> String {
    format!("{channel}-{format}-{family}-{version}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// Every registered runtime, oldest install first. A manifest that does not parse is left out,
/// as rocm-cli skips it.
pub fn manifests(root: &Path, paths: &Paths) -> Vec<Manifest> {
    let dir = on_host(root, &paths.registry());
    let mut v: Vec<Manifest> = fsx::list_dir(&dir)
        .iter()
        .filter(|n| n.ends_with(".json"))
        .filter_map(|n| fsx::read_opt(&dir.join(n)))
        .filter_map(|t| serde_json::from_str(&t).ok())
        .collect();
    v.sort_by_key(|m| (m.installed_at_unix_ms, m.runtime_key.clone()));
    v
}

/// rocm-cli's settings; defaults when absent or unreadable.
pub fn config(root: &Path, paths: &Paths) -> Config {
    fsx::read_opt(&on_host(root, &paths.config()))
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// The active runtime's manifest, when the settings name one that is registered.
pub fn active(root: &Path, paths: &Paths) -> Option<Manifest> {
    let key = config(root, paths).active_runtime_key?;
    manifests(root, paths)
        .into_iter()
        .find(|m| m.runtime_key == key)
}

/// The manifest a runtime keeps in its own folder (`.rocm-cli-runtime.json`).
pub fn local_manifest(root: &Path, install_root: &str) -> Option<Manifest> {
    let p = on_host(root, &format!("{install_root}/.rocm-cli-runtime.json"));
    fsx::read_opt(&p).and_then(|t| serde_json::from_str(&t).ok())
}

/// A runtime is usable when its folder still holds its manifest and its Python.
pub fn usable(root: &Path, m: &Manifest) -> bool {
    local_manifest(root, &m.install_root).is_some_and(|l| l.runtime_key == m.runtime_key)
        && on_host(root, &m.python_executable).is_file()
}

/// What a write does for its caller: the file or folder is the caller's (a tool running as the
/// machine's real root writes for a user).
pub trait Owner {
    /// Gives `path` (on the host) to the caller.
    fn own(&self, path: &Path) -> std::io::Result<()>;
}

/// Writes `text` at `path` of the machine, its folders created, all of them the caller's.
pub fn write(
    root: &Path,
    path: &str,
    text: &str,
    exec: bool,
    owner: &dyn Owner,
) -> std::io::Result<()> {
    let host = on_host(root, path);
    let mut missing = Vec::new();
    let mut dir = host.parent();
    while let Some(d) = dir.filter(|d| !d.exists() && d.starts_with(root)) {
        missing.push(d.to_path_buf());
        dir = d.parent();
    }
    for d in missing.iter().rev() {
        std::fs::create_dir(d)?;
        owner.own(d)?;
    }
    if exec {
        fsx::write_executable(&host, text)?;
    } else {
        fsx::write_atomic(&host, text.as_bytes())?;
    }
    owner.own(&host)
}

/// Saves a runtime: its folder with the programs' wrappers, its manifest twice (registry and
/// folder), as `install sdk` leaves it.
pub fn save_runtime(
    root: &Path,
    paths: &Paths,
    m: &Manifest,
    sim_bin: &str,
    owner: &dyn Owner,
) -> std::io::Result<()> {
    let json = serde_json::to_string_pretty(m).unwrap_or_default() + "\n";
    let wrapper = |tool: &str| {
        format!(
            "#!/bin/sh\nexport {RUNTIME_ENV}=\"{}\"\nexec \"{sim_bin}\" sim {tool} \"$@\"\n",
            m.install_root
        )
    };
    let venv_bin = format!("{}/bin", m.install_root);
    write(
        root,
        &format!("{venv_bin}/rocm-sdk"),
        &wrapper("rocm-sdk"),
        true,
        owner,
    )?;
    write(
        root,
        &format!("{venv_bin}/python"),
        &wrapper("python3"),
        true,
        owner,
    )?;
    // Python's venv writes an activate script: `. bin/activate` puts the environment first.
    write(
        root,
        &format!("{venv_bin}/activate"),
        &format!(
            "# This file must be used with \"source bin/activate\" *from bash*\nVIRTUAL_ENV=\"{}\"\nexport VIRTUAL_ENV\nPATH=\"$VIRTUAL_ENV/bin:$PATH\"\nexport PATH\n",
            m.install_root
        ),
        false,
        owner,
    )?;
    write(
        root,
        &format!("{}/pyvenv.cfg", m.install_root),
        &format!(
            "home = {}\ninclude-system-site-packages = false\nversion = 3.12.12\n",
            paths.data
        ),
        false,
        owner,
    )?;
    let tools = BASE_TOOLS
        .iter()
        .chain(if m.toolchain { DEVEL_TOOLS } else { &[] });
    for tool in tools {
        write(
            root,
            &format!("{}/{tool}", m.sdk_bin()),
            &wrapper(tool),
            true,
            owner,
        )?;
    }
    write(
        root,
        &format!("{}/.rocm-cli-runtime.json", m.install_root),
        &json,
        false,
        owner,
    )?;
    write(
        root,
        &format!("{}/{}.json", paths.registry(), m.runtime_key),
        &json,
        false,
        owner,
    )
}

/// Makes `m` the active default: the settings and the marker, the active one before it kept
/// as the rollback target. Returns the key it replaced.
pub fn activate(
    root: &Path,
    paths: &Paths,
    m: &Manifest,
    now_ms: i64,
    owner: &dyn Owner,
) -> std::io::Result<Option<String>> {
    let mut cfg = config(root, paths);
    let previous = cfg
        .active_runtime_key
        .clone()
        .filter(|k| *k != m.runtime_key);
    cfg.default_runtime_id = Some(m.runtime_id.clone());
    cfg.active_runtime_key = Some(m.runtime_key.clone());
    cfg.previous_runtime_key.clone_from(&previous);
    let text = serde_json::to_string_pretty(&cfg).unwrap_or_default() + "\n";
    write(root, &paths.config(), &text, false, owner)?;
    let marker = serde_json::json!({
        "runtime_id": m.runtime_id,
        "runtime_key": m.runtime_key,
        "manifest_path": format!("{}/{}.json", paths.registry(), m.runtime_key),
        "install_root": m.install_root,
        "previous_runtime_key": previous,
        "activated_at_unix_ms": now_ms,
    });
    let text = serde_json::to_string_pretty(&marker).unwrap_or_default() + "\n";
    write(root, &paths.marker(), &text, false, owner)?;
    Ok(previous)
}

/// The runtime whose folder a program wrapper named, when it is still there.
pub fn of_wrapper(root: &Path, env: &[(String, String)]) -> Option<Manifest> {
    let dir = env.iter().find(|(k, _)| k == RUNTIME_ENV)?.1.as_str();
    local_manifest(root, dir)
}

/// Where the last `rocm-sdk version` of each login session was run from, for the lab's proof.
pub const PROOF_RECORD: &str = "var/lib/rocm-sim/rocm-sdk-version";

/// Records that `session` ran `rocm-sdk version` of the runtime in `install_root`, and whether
/// that shell's PATH led to the runtime's programs (`uses`).
pub fn record_proof(root: &Path, session: &str, install_root: &str, uses: bool) {
    let _ = fsx::write_atomic(
        &root.join(PROOF_RECORD),
        format!(
            "{session}\t{install_root}\t{}\n",
            if uses { "uses" } else { "other" }
        )
        .as_bytes(),
    );
}

/// The session, runtime folder and whether that shell used the runtime, of the last
/// `rocm-sdk version`, if one ran.
pub fn last_proof(root: &Path) -> Option<(String, String, bool)> {
    let t = fsx::read_opt(&root.join(PROOF_RECORD))?;
    let mut f = t.trim_end().split('\t');
    let (s, r, u) = (f.next()?, f.next()?, f.next()?);
    Some((s.to_string(), r.to_string(), u == "uses"))
}

/// Whether a shell with this PATH runs the SDK's programs (rocminfo, in every runtime) from
/// the runtime in `install_root`, every link on the way followed.
pub fn path_uses(root: &Path, path: &str, install_root: &str) -> bool {
    let inside = format!("{}/", install_root.trim_end_matches('/'));
    for dir in path.split(':').filter(|d| d.starts_with('/')) {
        let full = format!("{}/rocminfo", dir.trim_end_matches('/'));
        let Some(end) = rocm_unix::machine_path::resolve(&full, |p| on_host(root, p)) else {
            continue;
        };
        if on_host(root, &end).is_file() {
            return end.starts_with(&inside);
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Nobody;
    impl Owner for Nobody {
        fn own(&self, _: &Path) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn runtime(paths: &Paths, version: &str, toolchain: bool, at: i64) -> Manifest {
        let key = runtime_key("release", "wheel", "gfx942", version);
        Manifest {
            install_root: paths.install_root("wheel", &key),
            python_executable: format!("{}/bin/python", paths.install_root("wheel", &key)),
            runtime_key: key,
            runtime_id: "therock-release:gfx942".into(),
            channel: "release".into(),
            format: "wheel".into(),
            family: "gfx942".into(),
            version: version.into(),
            toolchain,
            read_only: false,
            installed_at_unix_ms: at,
        }
    }

    #[test]
    fn keys_follow_rocm_clis_slug() {
        assert_eq!(
            runtime_key("release", "wheel", "gfx120X-all", "7.13.0a20260416"),
            "release-wheel-gfx120x-all-7-13-0a20260416"
        );
    }

    #[test]
    fn a_saved_runtime_is_listed_usable_and_activation_keeps_the_rollback_target() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let paths = Paths::for_home("/home/learner");
        let old = runtime(&paths, "7.14.1", false, 1);
        let new = runtime(&paths, "10.1.0", true, 2);
        for m in [&old, &new] {
            save_runtime(root, &paths, m, "/bin/rocm-learn", &Nobody).unwrap();
        }
        assert_eq!(manifests(root, &paths), vec![old.clone(), new.clone()]);
        assert!(usable(root, &new));
        assert!(on_host(root, &format!("{}/hipcc", new.sdk_bin())).is_file());
        assert!(!on_host(root, &format!("{}/hipcc", old.sdk_bin())).exists());
        assert_eq!(active(root, &paths), None);

        activate(root, &paths, &old, 5, &Nobody).unwrap();
        let replaced = activate(root, &paths, &new, 6, &Nobody).unwrap();
        assert_eq!(replaced.as_deref(), Some(old.runtime_key.as_str()));
        assert_eq!(active(root, &paths), Some(new.clone()));
        std::fs::remove_file(on_host(root, &new.python_executable)).unwrap();
        assert!(!usable(root, &new));
    }
}
