//! `rocm`, AMD's ROCm CLI (ROCm/rocm-cli): `examine`, `install sdk`, `runtimes`, and the
//! `diagnose`/`fix` pair, with the words and fields of its README and source. A managed runtime
//! is a folder of the user's own beside any system ROCm (`rocm_runtimes`); the tool never
//! changes the system install, and activating a runtime changes what rocm-cli uses, not the
//! user's PATH. What the docs do not show (index URLs, the download) is left out; what had to
//! be inferred is listed in docs/tool-facts.md.

use super::super::rocm_runtimes::{self as rt, Manifest, Owner, Paths};
use super::super::{Ctx, coresdk};

/// rocm-cli is built with clap: its complaints read as clap's.
fn clap_error(cx: &mut Ctx, text: &str, usage: &str) -> i32 {
    cx.eprintln(&format!(
        "error: {text}\n\nUsage: {usage}\n\nFor more information, try '--help'."
    ));
    2
}

/// Gives what the tool writes to its caller, as the real tool run by that user leaves it.
struct Caller<'a> {
    host: &'a dyn super::super::Host,
    /// Whom to give the files, when the tool runs as the machine's real root for a user.
    to: Option<(u32, u32)>,
}

impl<'a> Caller<'a> {
    fn of(cx: &Ctx<'a>) -> Self {
        let to = (cx.host.euid() == 0 && !cx.caller.is_root()).then(|| {
            let gid = cx.gids().first().copied().unwrap_or(cx.caller.uid);
            (cx.caller.uid, gid)
        });
        Caller { host: cx.host, to }
    }
}

impl Owner for Caller<'_> {
    fn own(&self, path: &std::path::Path) -> std::io::Result<()> {
        match self.to {
            Some((uid, gid)) => self.host.chown(path, uid, gid),
            None => Ok(()),
        }
    }
}

fn paths(cx: &Ctx) -> Paths {
    let home = if cx.caller.is_root() {
        "/root".to_string()
    } else {
        format!("/home/{}", cx.caller.user)
    };
    Paths::for_home(&home)
}

const HELP: &str = "ROCm CLI: set up and run local AI on AMD GPUs

Usage: rocm [COMMAND]

Commands:
  examine   Check GPU, ROCm install, engines, and managed folders
  diagnose  Match this machine against known ROCm/PyTorch/llama.cpp failure modes
  fix       Apply a fix reported by `rocm diagnose`
  install   Install a managed ROCm runtime (sdk) or the AMD kernel driver (driver)
  runtimes  Manage side-by-side ROCm runtimes
  version   Print the rocm-cli version and the ROCm SDK and GPU driver in use
  help      Print this message or the help of the given subcommand(s)

Options:
  -h, --help     Print help
  -V, --version  Print version";

/// The version this simulation follows (its README and v0.3.0's notes).
const CLI_VERSION: &str = "0.3.0";

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let rest = args.get(1..).unwrap_or_default();
    match args.first().map(String::as_str) {
        // Not on a terminal rocm prints a one-shot summary instead of its launcher; the lab's
        // terminal cannot host the launcher, so it always does.
        None => {
            let text = header(cx);
            cx.print(&text);
            0
        }
        Some("-h" | "--help" | "help") => {
            cx.println(HELP);
            0
        }
        Some("-V" | "--version") => {
            cx.println(&format!("rocm {CLI_VERSION}"));
            0
        }
        Some("version") => {
            version(cx);
            0
        }
        Some("examine") => examine(cx, rest),
        Some("install") => install(cx, rest),
        Some("runtimes") => runtimes(cx, rest),
        Some("diagnose") => diagnose(cx, rest),
        Some("fix") => fix(cx, rest),
        Some(other) => clap_error(
            cx,
            &format!("unrecognized subcommand '{other}'"),
            "rocm [COMMAND]",
        ),
    }
}

fn version(cx: &mut Ctx) {
    let p = paths(cx);
    let sdk = rt::active(cx.root, &p).map_or_else(|| "<none>".to_string(), |m| m.version);
    cx.println(&format!("rocm {CLI_VERSION}"));
    cx.println(&format!("  rocm_sdk: {sdk}"));
    let driver = match &cx.state.driver {
        Some(super::super::state::Driver::Dkms { version }) => format!("amdgpu-dkms {version}"),
        Some(super::super::state::Driver::InTree) => {
            format!("in-tree amdgpu ({})", cx.state.machine.kernel)
        }
        None => "<none>".to_string(),
    };
    cx.println(&format!("  gpu_driver: {driver}"));
}

/// The GPU's LLVM target, as `examine` reports it (`detected_gfx_target`).
fn gfx(cx: &Ctx) -> Option<String> {
    cx.state.machine.gpus.first().map(|g| g.gfx.clone())
}

/// The system ROCm rocm-cli finds and leaves alone: its folders and version.
fn legacy(cx: &Ctx) -> (Vec<String>, Option<String>) {
    // Real folders only: /opt/rocm of the legacy stream is a link to one of them.
    let mut dirs: Vec<String> = std::fs::read_dir(cx.root.join("opt"))
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| n.starts_with("rocm"))
                .map(|n| format!("/opt/{n}"))
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    let version = cx
        .state
        .rocm_version()
        .map(String::from)
        .or_else(|| coresdk::running_release(cx).map(|r| r.version.to_string()));
    (dirs, version)
}

fn driver_status(cx: &Ctx) -> &'static str {
    if cx.state.is_module_loaded() {
        "loaded"
    } else {
        "not_loaded"
    }
}

/// The plain header `examine` and a bare `rocm` print first.
fn header(cx: &Ctx) -> String {
    let gpu = if gfx(cx).is_some() {
        "AMD GPU detected"
    } else {
        "AMD GPU not detected yet"
    };
    let count = rt::manifests(cx.root, &paths(cx)).len();
    let managed = match count {
        0 => None,
        1 => Some("1 ROCm install saved".to_string()),
        n => Some(format!("{n} ROCm installs saved")),
    };
    let (dirs, version) = legacy(cx);
    let existing = (!dirs.is_empty()).then(|| match version {
        Some(v) => format!("existing ROCm {v} found, left unmanaged by design"),
        None => "existing ROCm install found, left unmanaged by design".to_string(),
    });
    let runtime = match (managed, existing) {
        (Some(m), Some(e)) => format!("{m}; {e}"),
        (Some(m), None) => m,
        (None, Some(e)) => format!("No ROCm installs saved yet; {e}"),
        (None, None) => "No ROCm installs saved yet".to_string(),
    };
    format!(
        "ROCm setup check\n  {gpu}\n  {runtime}\n  Driver: {}\n",
        driver_status(cx).replace('_', " ")
    )
}

fn examine(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut json = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--framework" => {
                if it.next().is_none() {
                    return clap_error(
                        cx,
                        "a value is required for '--framework <FRAMEWORK>' but none was supplied",
                        "rocm examine [OPTIONS]",
                    );
                }
            }
            f if f.starts_with("--framework=") => {}
            other => {
                return clap_error(
                    cx,
                    &format!("unexpected argument '{other}' found"),
                    "rocm examine [OPTIONS]",
                );
            }
        }
    }
    let p = paths(cx);
    let cfg = rt::config(cx.root, &p);
    let active = rt::active(cx.root, &p);
    let (dirs, version) = legacy(cx);
    let gfx = gfx(cx);
    let legacy_status = if dirs.is_empty() {
        "not_detected"
    } else {
        "detected_unmanaged"
    };
    let active_status = match (&active, &cfg.active_runtime_key) {
        (Some(m), _) if rt::usable(cx.root, m) => "ready",
        (Some(_), _) => "broken",
        (None, Some(_)) => "missing_manifest",
        (None, None) => "unset",
    };
    if json {
        let doc = serde_json::json!({
            "status": if gfx.is_some() { "ready" } else { "no_gpu" },
            "detected_gfx_target": gfx,
            "compatible_therock_family": gfx.as_deref().map(rt::therock_family),
            "driver_status": driver_status(cx),
            "legacy_rocm": {
                "status": legacy_status,
                "paths": dirs,
                "version": version,
            },
            "managed_runtimes": rt::manifests(cx.root, &p).len(),
            "active_runtime_id": cfg.default_runtime_id,
            "active_runtime_key": cfg.active_runtime_key,
            "previous_runtime_key": cfg.previous_runtime_key,
            "active_runtime_status": active_status,
            "active_runtime_root": active.as_ref().map(|m| m.install_root.clone()),
            "active_runtime_version": active.as_ref().map(|m| m.version.clone()),
            "active_runtime_toolchain": active.as_ref().map(Manifest::toolchain_word),
        });
        cx.println(&serde_json::to_string_pretty(&doc).unwrap_or_default());
        return 0;
    }
    let unset = |v: &Option<String>| v.clone().unwrap_or_else(|| "<unset>".into());
    let mut s = header(cx);
    s.push_str("\nDetails\n");
    s.push_str("rocm examine\n");
    let os = &cx.state.machine.os;
    s.push_str(&format!(
        "  os: linux\n  kernel: {}\n  distro: {}\n",
        cx.state.machine.kernel, os.pretty
    ));
    s.push_str(&format!(
        "  detected_gfx_target: {}\n  compatible_therock_family: {}\n",
        gfx.clone().unwrap_or_else(|| "<none>".into()),
        gfx.as_deref()
            .map_or_else(|| "<none>".into(), rt::therock_family)
    ));
    s.push_str(&format!("  driver_status: {}\n", driver_status(cx)));
    s.push_str(&format!("  legacy_rocm_status: {legacy_status}\n"));
    s.push_str(&format!(
        "  legacy_rocm_paths: {}\n",
        if dirs.is_empty() {
            "<none>".into()
        } else {
            dirs.join(", ")
        }
    ));
    s.push_str(&format!("  legacy_rocm_version: {}\n", unset(&version)));
    if !dirs.is_empty() {
        s.push_str("  legacy_rocm_detail: legacy ROCm installs are reported for compatibility only; rocm-cli manages TheRock runtimes separately\n");
    }
    s.push_str(&format!(
        "  managed_runtimes: {}\n  config_dir: {}\n  data_dir: {}\n",
        rt::manifests(cx.root, &p).len(),
        p.data,
        p.data
    ));
    s.push_str("runtime_state:\n");
    s.push_str(&format!(
        "  active_runtime_id: {}\n",
        unset(&cfg.default_runtime_id)
    ));
    s.push_str(&format!(
        "  active_runtime_key: {}\n",
        unset(&cfg.active_runtime_key)
    ));
    s.push_str(&format!(
        "  previous_runtime_key: {}\n",
        unset(&cfg.previous_runtime_key)
    ));
    s.push_str(&format!("  active_runtime_status: {active_status}\n"));
    if let Some(m) = &active {
        s.push_str(&format!("  active_runtime_root: {}\n", m.install_root));
        s.push_str(&format!("  active_runtime_version: {}\n", m.version));
        s.push_str(&format!("  active_runtime_family: {}\n", m.family));
        s.push_str(&format!(
            "  active_runtime_toolchain: {}\n",
            m.toolchain_word()
        ));
    }
    cx.print(&s);
    0
}

/// What `install sdk` was asked for.
struct SdkRequest {
    channel: String,
    format: String,
    version: Option<String>,
    family: Option<String>,
    prefix: Option<String>,
    devel: bool,
    dry_run: bool,
    approved: bool,
}

const SDK_USAGE: &str = "rocm install sdk [OPTIONS]";

fn parse_sdk(cx: &mut Ctx, args: &[String]) -> Result<SdkRequest, i32> {
    let mut r = SdkRequest {
        channel: "release".into(),
        format: "wheel".into(),
        version: None,
        family: None,
        prefix: None,
        devel: false,
        dry_run: false,
        approved: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let mut value = |cx: &mut Ctx| {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| {
                    clap_error(
                        cx,
                        &format!("a value is required for '{name}' but none was supplied"),
                        SDK_USAGE,
                    )
                })
        };
        match name {
            "--channel" => r.channel = value(cx)?,
            "--format" => r.format = value(cx)?,
            "--version" => r.version = Some(value(cx)?),
            "--family" => r.family = Some(value(cx)?),
            "--prefix" => r.prefix = Some(value(cx)?),
            "--build-date" => {
                value(cx)?;
                cx.eprintln("rocm-learn: nightly builds by date are not simulated on this machine");
                return Err(1);
            }
            "--devel" => r.devel = true,
            "--dry-run" => r.dry_run = true,
            "--approve-replacing-active-default" | "--yes" | "-y" => r.approved = true,
            other => {
                return Err(clap_error(
                    cx,
                    &format!("unexpected argument '{other}' found"),
                    SDK_USAGE,
                ));
            }
        }
    }
    for (what, v, ok) in [
        ("--channel", &r.channel, &["release", "nightly"][..]),
        ("--format", &r.format, &["wheel", "tarball"][..]),
    ] {
        if !ok.contains(&v.as_str()) {
            return Err(clap_error(
                cx,
                &format!(
                    "invalid value '{v}' for '{what}'\n  [possible values: {}]",
                    ok.join(", ")
                ),
                SDK_USAGE,
            ));
        }
    }
    Ok(r)
}

fn install(cx: &mut Ctx, args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("sdk") => install_sdk(cx, &args[1..]),
        Some("driver") => {
            // The lab machines come with their driver; installing one is not what they teach.
            cx.eprintln("rocm-learn: `rocm install driver` is not simulated; this machine's amdgpu driver is installed already (see `rocm examine`, driver_status)");
            1
        }
        Some(other) => clap_error(
            cx,
            &format!("unrecognized subcommand '{other}'"),
            "rocm install <COMMAND>",
        ),
        None => clap_error(
            cx,
            "'rocm install' requires a subcommand but one was not provided\n  [subcommands: sdk, driver]",
            "rocm install <COMMAND>",
        ),
    }
}

/// Resolves what `install sdk` would install: version and family, or why not.
fn resolve(cx: &Ctx, r: &SdkRequest) -> Result<(String, String, &'static str), String> {
    let gfx = gfx(cx).ok_or("no AMD GPU was detected; run `rocm examine`")?;
    if r.channel == "nightly" {
        return Err(
            "nightly builds are not simulated on this machine; use --channel release".into(),
        );
    }
    if r.format == "tarball" {
        return Err(
            "tarball runtimes are not simulated on this machine; use --format wheel".into(),
        );
    }
    let ten = r
        .version
        .as_deref()
        .is_some_and(|v| v.split('.').next().and_then(|m| m.parse::<u32>().ok()) >= Some(10));
    if ten {
        let v = r.version.clone().unwrap_or_default();
        let Some(family) = r.family.clone() else {
            return Err(format!(
                "ROCm {v} ships one payload per exact GPU arch: pass --family with the raw gfx code (this machine reports {gfx}; see `rocm examine`)"
            ));
        };
        if !coresdk::TARGETS.contains(&family.as_str()) {
            return Err(format!(
                "--family {family} is not an exact GPU arch: ROCm {v} has no bucket payload to fall back to; pass the raw gfx code, such as {gfx}"
            ));
        }
        if !rt::TEN_RELEASES.contains(&v.as_str()) {
            return Err(format!(
                "no ROCm {v} packages were found for {family}; available: {}",
                rt::TEN_RELEASES.join(", ")
            ));
        }
        return Ok((v, family, "requested"));
    }
    if let Some(v) = r.version.as_deref().filter(|v| *v != rt::WHEEL_RELEASE) {
        return Err(format!(
            "no TheRock release packages {v} were found; the release channel has {}",
            rt::WHEEL_RELEASE
        ));
    }
    match &r.family {
        Some(f) => Ok((rt::WHEEL_RELEASE.into(), f.clone(), "requested")),
        None => Ok((
            rt::WHEEL_RELEASE.into(),
            rt::therock_family(&gfx),
            "detected",
        )),
    }
}

fn install_sdk(cx: &mut Ctx, args: &[String]) -> i32 {
    let r = match parse_sdk(cx, args) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let (version, family, family_source) = match resolve(cx, &r) {
        Ok(v) => v,
        Err(why) => {
            cx.eprintln(&format!("error: {why}"));
            return 1;
        }
    };
    let p = paths(cx);
    let key = rt::runtime_key(&r.channel, &r.format, &family, &version);
    let key = if r.devel { format!("{key}-devel") } else { key };
    let root_dir = r
        .prefix
        .clone()
        .map(|d| super::super::fsx::normalize(&d, &cx.caller.cwd))
        .unwrap_or_else(|| p.install_root(&r.format, &key));
    let m = Manifest {
        runtime_key: key.clone(),
        runtime_id: format!("therock-{}:{family}", r.channel),
        channel: r.channel.clone(),
        format: r.format.clone(),
        family: family.clone(),
        version: version.clone(),
        python_executable: format!("{root_dir}/bin/python"),
        install_root: root_dir.clone(),
        toolchain: r.devel,
        read_only: false,
        installed_at_unix_ms: cx.state.now() * 1000,
    };
    let mut out = String::from("sdk install\n");
    out.push_str("  summary: rocm-cli will install the ROCm SDK and matching PyTorch packages for this Python and operating system\n");
    out.push_str(&format!(
        "  channel: {}\n  format: {}\n",
        r.channel, r.format
    ));
    if let Some(v) = &r.version {
        out.push_str(&format!("  requested: version {v}\n"));
    }
    out.push_str(&format!(
        "  family: {family}\n  family_source: {family_source}\n"
    ));
    out.push_str(&format!("  latest_compatible_version: {version}\n"));
    out.push_str(&format!("  target: {root_dir}\n  runtime_key: {key}\n"));
    out.push_str(&format!("  toolchain: {}\n", m.toolchain_word()));
    if r.dry_run {
        out.push_str("  dry_run: nothing was installed\n");
        cx.print(&out);
        return 0;
    }
    // Once a managed runtime is the active default, every install asks first: the new one
    // takes over as the active default.
    let current = rt::active(cx.root, &p).filter(|a| a.runtime_key != key);
    if let Some(a) = &current
        && !r.approved
    {
        cx.print(&out);
        let q = format!(
            "This install replaces the active default runtime {} (ROCm {}). Continue? [y/N] ",
            a.runtime_key, a.version
        );
        let yes = cx
            .ask(&q)
            .is_some_and(|s| matches!(s.trim(), "y" | "Y" | "yes"));
        if !yes {
            cx.eprintln("install cancelled: the active default runtime was not changed (pass --approve-replacing-active-default to approve without a prompt)");
            return 1;
        }
        out.clear();
    }
    let owner = Caller::of(cx);
    let saved = rt::save_runtime(cx.root, &p, &m, &cx.caller.sim_bin, &owner)
        .and_then(|()| rt::activate(cx.root, &p, &m, cx.state.now() * 1000, &owner));
    if let Err(e) = saved {
        cx.print(&out);
        cx.eprintln(&format!("error: failed to write {}: {e}", p.data));
        return 1;
    }
    out.push_str(&format!("  installed_version: {version}\n"));
    out.push_str(&format!("  python_executable: {}\n", m.python_executable));
    out.push_str(&format!("  rocm_sdk_bin: {}\n", m.sdk_bin()));
    out.push_str(&format!("  rocm_sdk_version: {version}\n"));
    out.push_str(&format!("  active_runtime_key: {key}\n"));
    cx.print(&out);
    0
}

const RUNTIMES_USAGE: &str = "rocm runtimes [COMMAND]";

fn runtimes(cx: &mut Ctx, args: &[String]) -> i32 {
    let p = paths(cx);
    match args.first().map(String::as_str) {
        None | Some("list") => {
            let text = list(cx, &p);
            cx.print(&text);
            0
        }
        Some("activate") => {
            let Some(sel) = args.get(1) else {
                return clap_error(
                    cx,
                    "the following required arguments were not provided:\n  <RUNTIME>",
                    "rocm runtimes activate <RUNTIME>",
                );
            };
            let all = rt::manifests(cx.root, &p);
            let found: Vec<&Manifest> = all
                .iter()
                .filter(|m| m.runtime_key == *sel || m.runtime_id == *sel)
                .collect();
            let m = match found.as_slice() {
                [m] => (*m).clone(),
                [] => {
                    cx.eprintln(&format!(
                        "error: no registered runtime matches {sel}; run `rocm runtimes list`"
                    ));
                    return 1;
                }
                _ => {
                    let keys: Vec<&str> = found.iter().map(|m| m.runtime_key.as_str()).collect();
                    cx.eprintln(&format!(
                        "error: runtime_id={sel} is ambiguous; activate one runtime_key: {}",
                        keys.join(", ")
                    ));
                    return 1;
                }
            };
            if !rt::usable(cx.root, &m) {
                cx.eprintln(&format!(
                    "error: runtime {} cannot be activated: {} no longer holds its environment",
                    m.runtime_key, m.install_root
                ));
                return 1;
            }
            let owner = Caller::of(cx);
            let prev = match rt::activate(cx.root, &p, &m, cx.state.now() * 1000, &owner) {
                Ok(prev) => prev,
                Err(e) => {
                    cx.eprintln(&format!("error: failed to write {}: {e}", p.config()));
                    return 1;
                }
            };
            cx.println("runtime activated");
            cx.println(&format!("  runtime_id: {}", m.runtime_id));
            cx.println(&format!("  runtime_key: {}", m.runtime_key));
            cx.println(&format!(
                "  changed_from_runtime_key: {}",
                prev.as_deref().unwrap_or("<unset>")
            ));
            cx.println(
                "  note: running services keep their recorded runtime until they are restarted",
            );
            cx.println(&format!("  marker: {}", p.marker()));
            cx.println(&format!("  config: {}", p.config()));
            0
        }
        Some("rollback") => {
            let cfg = rt::config(cx.root, &p);
            let target = cfg.previous_runtime_key.and_then(|k| {
                rt::manifests(cx.root, &p)
                    .into_iter()
                    .find(|m| m.runtime_key == k)
            });
            let Some(m) = target else {
                cx.eprintln("error: there is no previous runtime to roll back to");
                return 1;
            };
            let owner = Caller::of(cx);
            let prev = rt::activate(cx.root, &p, &m, cx.state.now() * 1000, &owner);
            cx.println("runtime rolled back");
            cx.println(&format!("  runtime_id: {}", m.runtime_id));
            cx.println(&format!("  runtime_key: {}", m.runtime_key));
            cx.println(&format!(
                "  changed_from_runtime_key: {}",
                prev.ok().flatten().as_deref().unwrap_or("<unset>")
            ));
            0
        }
        Some(other) => clap_error(
            cx,
            &format!("unrecognized subcommand '{other}'"),
            RUNTIMES_USAGE,
        ),
    }
}

/// `rocm runtimes list`: the registry, the active one marked `*`, the rollback target `-`.
fn list(cx: &Ctx, p: &Paths) -> String {
    let cfg = rt::config(cx.root, p);
    let all = rt::manifests(cx.root, p);
    let unset = |v: &Option<String>| v.clone().unwrap_or_else(|| "<unset>".into());
    let mut s = String::from("registered ROCm runtimes\n");
    s.push_str(&format!(
        "  active_runtime_id: {}\n",
        unset(&cfg.default_runtime_id)
    ));
    s.push_str(&format!(
        "  active_runtime_key: {}\n",
        unset(&cfg.active_runtime_key)
    ));
    s.push_str(&format!(
        "  previous_runtime_key: {}\n",
        unset(&cfg.previous_runtime_key)
    ));
    s.push_str(&format!("  registry: {}\n", p.registry()));
    s.push_str(&format!("  marker: {}\n", p.marker()));
    if all.is_empty() {
        s.push_str(
            "  installed: none\n  next step: rocm install sdk --channel release --format wheel\n",
        );
        return s;
    }
    s.push_str("  installed:\n");
    for m in &all {
        let mark = if cfg.active_runtime_key.as_deref() == Some(m.runtime_key.as_str()) {
            "*"
        } else if cfg.previous_runtime_key.as_deref() == Some(m.runtime_key.as_str()) {
            "-"
        } else {
            " "
        };
        let status = if rt::usable(cx.root, m) {
            "ready"
        } else {
            "broken"
        };
        s.push_str(&format!(
            "  {mark} {} runtime_id={} version={} format={} family={} mode={} toolchain={} status={status}\n",
            m.runtime_key,
            m.runtime_id,
            m.version,
            m.format,
            m.family,
            if m.read_only { "read-only" } else { "managed" },
            m.toolchain_word(),
        ));
        s.push_str(&format!("      install_root: {}\n", m.install_root));
    }
    s
}

/// `rocm diagnose`: the catalogue entry this machine matches, if any. The simulated catalogue
/// holds one entry, the one a system install beside a managed runtime meets: a shell whose
/// PATH reaches the system ROCm before the active runtime.
fn diagnose(cx: &mut Ctx, args: &[String]) -> i32 {
    let json = args.iter().any(|a| a == "--json");
    let p = paths(cx);
    let shadowed = rt::active(cx.root, &p).filter(|m| {
        let path = cx
            .env
            .iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.as_str())
            .unwrap_or("");
        let dirs: Vec<&str> = path.split(':').collect();
        let runtime = dirs
            .iter()
            .position(|d| d.trim_end_matches('/') == m.sdk_bin());
        let system = dirs.iter().position(|d| d.starts_with("/opt/rocm"));
        matches!((system, runtime), (Some(_), None))
            || matches!((system, runtime), (Some(s), Some(r)) if s < r)
    });
    if json {
        let doc = serde_json::json!({
            "has_match": shadowed.is_some(),
            "matches": shadowed.as_ref().map(|_| vec!["fix-path-system-rocm-first"]).unwrap_or_default(),
        });
        cx.println(&serde_json::to_string_pretty(&doc).unwrap_or_default());
        return 0;
    }
    match shadowed {
        Some(m) => {
            cx.println(
                "#1 This shell finds the system ROCm's programs before the active runtime's",
            );
            cx.println("  id: fix-path-system-rocm-first");
            cx.println(&format!(
                "  detail: PATH has /opt/rocm before {}",
                m.sdk_bin()
            ));
            cx.println("  apply with: rocm fix fix-path-system-rocm-first");
        }
        None => {
            cx.println("No known failure mode matched. Not recognised does not mean nothing is wrong: report the symptom (rocm diagnose --report shows what a report would hold).");
        }
    }
    0
}

/// `rocm fix [ID]`: with no id the catalogue; the one simulated entry is PRINT-ONLY (which
/// startup file to change is the user's choice).
fn fix(cx: &mut Ctx, args: &[String]) -> i32 {
    let id = args.iter().find(|a| !a.starts_with('-'));
    match id.map(String::as_str) {
        None => {
            cx.println("fix-path-system-rocm-first  PRINT-ONLY  put the active runtime's rocm_sdk_bin before /opt/rocm on PATH");
            0
        }
        Some("fix-path-system-rocm-first") => {
            let p = paths(cx);
            let Some(m) = rt::active(cx.root, &p) else {
                cx.eprintln("error: no managed runtime is active; nothing to fix");
                return 1;
            };
            cx.println("PRINT-ONLY: run these yourself (which startup file is your choice):");
            cx.println(&format!(
                "  echo 'export PATH=\"{}:$PATH\"' >> ~/.profile",
                m.sdk_bin()
            ));
            cx.println("  then log in again and check with: which hipcc; rocm-sdk version");
            0
        }
        Some(other) => {
            cx.eprintln(&format!(
                "error: unknown fix id {other}; run `rocm fix` to list them"
            ));
            1
        }
    }
}

/// `rocm-sdk` (TheRock's Python package): `version`, `path`, `targets` of the runtime it
/// belongs to. `version` is remembered per login session for the lab's proof.
pub fn rocm_sdk(cx: &mut Ctx, args: &[String]) -> i32 {
    let Some(m) = rt::of_wrapper(cx.root, cx.env) else {
        cx.eprintln("rocm-sdk: this environment holds no ROCm SDK");
        return 1;
    };
    match args.first().map(String::as_str) {
        Some("version") => {
            cx.println(&m.version);
            if let Some(s) = cx.caller.session.clone() {
                let path = cx
                    .env
                    .iter()
                    .rev()
                    .find(|(k, _)| k == "PATH")
                    .map_or("", |(_, v)| v.as_str());
                let uses = rt::path_uses(cx.root, path, &m.install_root);
                rt::record_proof(cx.root, &s, &m.install_root, uses);
            }
            0
        }
        Some("path") => match args.get(1).map(String::as_str) {
            Some("--bin") => {
                cx.println(&m.sdk_bin());
                0
            }
            Some("--root") => {
                cx.println(m.sdk_bin().trim_end_matches("/bin"));
                0
            }
            Some("--cmake") => {
                cx.println(&format!(
                    "{}/lib/cmake",
                    m.sdk_bin().trim_end_matches("/bin")
                ));
                0
            }
            _ => {
                cx.eprintln("usage: rocm-sdk path [--bin | --root | --cmake]");
                2
            }
        },
        Some("targets") => {
            cx.println(&m.family);
            0
        }
        _ => {
            cx.eprintln("usage: rocm-sdk {path,test,version,targets,init} ...");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::rocm_runtimes as rt;
    use super::super::testkit::Machine;
    use crate::spec::Preset;

    /// The lab's node: MI300X on Ubuntu 24.04, ROCm 7.2.0 installed with apt, rocm-cli in
    /// ~/.local/bin and a colleague's TheRock 7.14.1 runtime active.
    fn node() -> Machine {
        Machine::with(|s| {
            s.preset = Preset::Mi300xServer;
            s.ubuntu = Some("24.04".into());
            s.rocm_installed = Some("7.2.0".into());
            s.rocm_cli = true;
            s.rocm_cli_runtime = Some("7.14.1".into());
        })
    }

    fn learner_paths() -> rt::Paths {
        rt::Paths::for_home("/home/learner")
    }

    #[test]
    fn examine_reports_the_system_install_as_unmanaged_beside_the_saved_runtime() {
        let m = node();
        assert!(m.root().join("home/learner/.local/bin/rocm").is_file());
        let r = m.learner("rocm examine");
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stdout.contains(
                "1 ROCm install saved; existing ROCm 7.2.0 found, left unmanaged by design"
            )
        );
        assert!(r.stdout.contains("legacy_rocm_status: detected_unmanaged"));
        assert!(r.stdout.contains("detected_gfx_target: gfx942"));
        assert!(
            r.stdout
                .contains("active_runtime_key: release-wheel-gfx94x-dcgpu-7-14-1")
        );

        let j = m.learner("rocm examine --json");
        let v: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
        assert_eq!(v["legacy_rocm"]["status"], "detected_unmanaged");
        assert_eq!(v["active_runtime_version"], "7.14.1");
        assert!(
            v["active_runtime_root"]
                .as_str()
                .unwrap()
                .starts_with("/home/learner/.rocm/runtimes/wheel/")
        );
    }

    #[test]
    fn rocm_10_needs_an_exact_arch_and_a_replaced_default_needs_approval() {
        let m = node();
        let before = rt::config(m.root(), &learner_paths());
        for line in [
            "rocm install sdk --version 10.1.0",
            "rocm install sdk --version 10.1.0 --family gfx94X-dcgpu",
            "rocm install sdk --version 10.9.0 --family gfx942",
        ] {
            let r = m.learner(line);
            assert_eq!(r.code, 1, "{line}");
            assert!(r.stderr.starts_with("error: "), "{line}: {}", r.stderr);
        }
        // No one answers the prompt: nothing changes.
        let r = m.learner("rocm install sdk --version 10.1.0 --family gfx942 --devel");
        assert_eq!(r.code, 1);
        assert!(r.stdout.contains("Continue? [y/N]"));
        assert!(r.stderr.contains("--approve-replacing-active-default"));
        assert_eq!(rt::config(m.root(), &learner_paths()), before);
        assert_eq!(rt::manifests(m.root(), &learner_paths()).len(), 1);

        let r = m.learner(
            "rocm install sdk --version 10.1.0 --family gfx942 --devel --approve-replacing-active-default",
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let active = rt::active(m.root(), &learner_paths()).unwrap();
        assert_eq!(
            (active.version.as_str(), active.toolchain),
            ("10.1.0", true)
        );
        assert!(rt::usable(m.root(), &active));
        assert!(
            r.stdout
                .contains(&format!("rocm_sdk_bin: {}", active.sdk_bin()))
        );

        let list = m.learner("rocm runtimes list").stdout;
        assert!(
            list.contains(&format!("* {} ", active.runtime_key)),
            "{list}"
        );
        assert!(
            list.contains("- release-wheel-gfx94x-dcgpu-7-14-1 "),
            "{list}"
        );
        assert!(list.contains("toolchain=included"));
    }

    #[test]
    fn activate_and_rollback_move_the_default_between_registered_runtimes() {
        let m = node();
        let r = m.learner("rocm install sdk --version 10.1.0 --family gfx942 --yes");
        assert_eq!(r.code, 0, "{}", r.stderr);
        let r = m.learner("rocm runtimes activate release-wheel-gfx94x-dcgpu-7-14-1");
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout.starts_with("runtime activated\n"));
        assert!(
            r.stdout
                .contains("changed_from_runtime_key: release-wheel-gfx942-10-1-0")
        );
        assert_eq!(
            rt::active(m.root(), &learner_paths()).unwrap().version,
            "7.14.1"
        );
        assert_eq!(m.learner("rocm runtimes rollback").code, 0);
        assert_eq!(
            rt::active(m.root(), &learner_paths()).unwrap().version,
            "10.1.0"
        );
        let r = m.learner("rocm runtimes activate nothing-like-this");
        assert_eq!(r.complaint().1, 1);
        assert!(r.stderr.contains("rocm runtimes list"));
    }

    #[test]
    fn unknown_words_get_claps_complaint() {
        let m = node();
        let r = m.learner("rocm frobnicate");
        assert_eq!(
            r.complaint(),
            ("error: unrecognized subcommand 'frobnicate'", 2)
        );
        let r = m.learner("rocm install sdk --channel beta");
        assert_eq!(r.code, 2);
        assert!(r.stderr.contains("[possible values: release, nightly]"));
    }
}
