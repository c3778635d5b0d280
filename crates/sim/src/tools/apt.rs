//! `apt` / `apt-get`: `update`, `install`, `list`.
//!
//! Texts follow apt 2.x as seen in public transcripts: the lock errors without root, the
//! `NO_PUBKEY 9386B48A1A693C5C` block when the repository key is missing (ROCm issue reports),
//! "Unable to locate package" without the repository, the install summary and `[Y/n]` prompt.
//! Sizes and timings are of the right shape but not measured.

use super::super::catalog::{self, Origin, Package, Payload};
use super::super::pkgs::{self, KeyCheck, Repo, Source};
use super::super::{Ctx, keys};
use super::apt_size::{size, wrap_list};
use super::opts;

const LISTS_LOCK: &[&str] = &[
    "E: Could not open lock file /var/lib/apt/lists/lock - open (13: Permission denied)",
    "E: Unable to lock directory /var/lib/apt/lists/",
];
const DPKG_LOCK: &[&str] = &[
    "E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)",
    "E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?",
];

/// Marker inside the .deb files the simulator serves.
pub const DEB_MARKER: &str = "rocm-learn simulated package: ";

/// What `apt --help` and `apt-get --help` print before their shared ending.
const APT_HELP: &str = "apt 2.7.14 (amd64)
Usage: apt [options] command

apt is a commandline package manager and provides commands for
searching and managing as well as querying information about packages.
It provides the same functionality as the specialized APT tools,
like apt-get and apt-cache, but enables options more suitable for
interactive use by default.

Most used commands:
  list - list packages based on package names
  search - search in package descriptions
  show - show package details
  install - install packages
  reinstall - reinstall packages
  remove - remove packages
  autoremove - automatically remove all unused packages
  update - update list of available packages
  upgrade - upgrade the system by installing/upgrading packages
  full-upgrade - upgrade the system by removing/installing/upgrading packages
  edit-sources - edit the source information file
  satisfy - satisfy dependency strings

See apt(8) for more information about the available commands.
";

const APT_GET_HELP: &str = "apt 2.7.14 (amd64)
Usage: apt-get [options] command
       apt-get [options] install|remove pkg1 [pkg2 ...]
       apt-get [options] source pkg1 [pkg2 ...]

apt-get is a command line interface for retrieval of packages
and information about them from authenticated sources and
for installation, upgrade and removal of packages together
with their dependencies.

Most used commands:
  update - Retrieve new lists of packages
  upgrade - Perform an upgrade
  install - Install new packages (pkg is libc6 not libc6.deb)
  reinstall - Reinstall packages (pkg is libc6 not libc6.deb)
  remove - Remove packages
  purge - Remove packages and config files
  autoremove - Remove automatically all unused packages
  dist-upgrade - Distribution upgrade, see apt-get(8)
  dselect-upgrade - Follow dselect selections
  build-dep - Configure build-dependencies for source packages
  satisfy - Satisfy dependency strings
  clean - Erase downloaded archive files
  autoclean - Erase old downloaded archive files
  check - Verify that there are no broken dependencies
  source - Download source archives
  download - Download the binary package into the current directory
  changelog - Download and display the changelog for the given package

See apt-get(8) for more information about the available commands.
";

/// The end both helps share.
const HELP_END: &str = "Configuration options and syntax is detailed in apt.conf(5).
Information about how to configure sources can be found in sources.list(5).
Package and version choices can be expressed via apt_preferences(5).
Security details are available in apt-secure(8).
                                        This APT has Super Cow Powers.
";

fn help(prog: &str) -> String {
    let head = if prog == "apt" {
        APT_HELP
    } else {
        APT_GET_HELP
    };
    format!("{head}{HELP_END}")
}

/// What apt's command line asks for.
#[derive(Debug, Default, PartialEq)]
struct Request {
    yes: bool,
    /// `--purge` (with remove or autoremove).
    purge: bool,
    /// `--autoremove` (with remove or purge).
    autoremove: bool,
    /// `list --installed`.
    installed: bool,
    /// `install --reinstall` (and the `reinstall` operation).
    reinstall: bool,
    /// The operation and its operands.
    words: Vec<String>,
}

/// Why apt stops before it looks at the operation.
#[derive(Debug, PartialEq)]
enum Stop {
    Help,
    /// apt's message for an option it does not know.
    Unknown(String),
}

/// Long options apt accepts and this lab has no use for.
const IGNORED: &[&str] = &[
    "quiet",
    "no-install-recommends",
    "install-recommends",
    "fix-broken",
    "upgradable",
];

/// apt's words for a long option it does not know; `word` as typed (`---x` reads `--x`).
fn not_understood(word: &str) -> Stop {
    let opt = word.trim_start_matches('-');
    Stop::Unknown(format!(
        "E: Command line option --{opt} is not understood in combination with the other options"
    ))
}

/// Reads options anywhere on the line, as apt does; a lone `-` is dropped like a flag.
fn parse(args: &[String]) -> Result<Request, Stop> {
    use opts::Token::{DashDash, Long, Short, Value};
    let mut p = opts::parser(args);
    let mut r = Request::default();
    while let Some(t) = opts::next_token(&mut p) {
        match t {
            Short('y') => r.yes = true,
            Short('q' | 'f') => {}
            Short('h') => return Err(Stop::Help),
            // `-y-` holds a `--`: apt refuses it like the word.
            Short('-') | DashDash => return Err(not_understood("--")),
            Short(c) => {
                return Err(Stop::Unknown(format!(
                    "E: Command line option '{c}' [from -{c}] is not known."
                )));
            }
            Long(name, None) => match name.as_str() {
                "yes" | "assume-yes" => r.yes = true,
                "installed" => r.installed = true,
                "reinstall" => r.reinstall = true,
                "purge" => r.purge = true,
                "autoremove" | "auto-remove" => r.autoremove = true,
                "help" => return Err(Stop::Help),
                n if IGNORED.contains(&n) => {}
                n => return Err(not_understood(n)),
            },
            // None of apt's options here takes a value.
            Long(name, Some(v)) => return Err(not_understood(&format!("{name}={v}"))),
            Value(w) if w == "-" => {}
            Value(w) => r.words.push(w),
        }
    }
    Ok(r)
}

pub fn run(cx: &mut Ctx, prog: &str, args: &[String]) -> i32 {
    let r = match parse(args) {
        Ok(r) => r,
        Err(Stop::Help) => {
            cx.print(&help(prog));
            return 0;
        }
        Err(Stop::Unknown(msg)) => {
            cx.eprintln(&msg);
            return 100;
        }
    };
    let Some((op, operands)) = r.words.split_first() else {
        cx.print(&help(prog));
        return 1;
    };
    // apt reads every source file before it does anything with packages: one malformed
    // stanza and it reads none.
    if matches!(
        op.as_str(),
        "update" | "install" | "reinstall" | "list" | "remove" | "purge" | "autoremove"
    ) && let Some((file, n, what)) = pkgs::malformed(cx.root)
    {
        if op == "list" || op == "install" || op == "remove" {
            cx.println("Reading package lists... Error!");
        }
        cx.eprintln(&format!(
            "E: Malformed entry {n} in sources file {file} ({what})"
        ));
        cx.eprintln("E: The list of sources could not be read.");
        return 100;
    }
    // Removing and cleaning live in their own file.
    let rop = if r.autoremove && (op == "remove" || op == "purge") {
        "autoremove"
    } else {
        op.as_str()
    };
    if let Some(code) =
        super::apt_remove::dispatch(cx, rop, operands, r.yes, r.purge || op == "purge")
    {
        return code;
    }
    match op.as_str() {
        "update" => update(cx, prog),
        "install" => install_again(cx, operands, r.yes, r.reinstall),
        "reinstall" if prog == "apt" => install_again(cx, operands, r.yes, true),
        "list" if prog == "apt" => list(cx, operands, r.installed),
        "remove" | "purge" | "autoremove" | "upgrade" | "full-upgrade" | "dist-upgrade"
        | "reinstall" | "search" | "show" | "policy" | "clean" | "autoclean" | "check"
        | "download" | "source" | "changelog" | "build-dep" | "satisfy" | "edit-sources"
        | "dselect-upgrade" => not_here(cx, op),
        other => {
            cx.eprintln(&format!("E: Invalid operation {other}"));
            100
        }
    }
}

/// An operation real apt has and this lab does not: the lock first, as apt takes it before
/// anything else, for the operations that change the system.
fn not_here(cx: &mut Ctx, op: &str) -> i32 {
    let reads_only = [
        "search",
        "show",
        "policy",
        "download",
        "source",
        "changelog",
    ];
    if !cx.caller.is_root() && !reads_only.contains(&op) {
        return locked(cx, DPKG_LOCK);
    }
    cx.eprintln(&format!(
        "E: The simulated machine's apt does not implement '{op}'; this lab needs update, install, remove and list."
    ));
    100
}

/// apt's lock errors for a caller who is not root.
fn locked(cx: &mut Ctx, lines: &[&str]) -> i32 {
    for l in lines {
        cx.eprintln(l);
    }
    100
}

fn reading(cx: &mut Ctx, full: bool) {
    cx.println("Reading package lists... Done");
    if full {
        cx.println("Building dependency tree... Done");
        cx.println("Reading state information... Done");
    }
}

/// What `apt update` has gathered so far: the number of its last `Hit:`/`Get:` line, the bytes
/// fetched, and the warnings and errors it prints once every source is done.
#[derive(Default)]
struct Update {
    n: usize,
    fetched: u64,
    warnings: Vec<String>,
    errors: bool,
}

/// apt's closing notes on a repository it will not use.
const INSECURE: [&str; 2] = [
    "N: Updating from such a repository can't be done securely, and is therefore disabled by default.",
    "N: See apt-secure(8) manpage for repository creation and user configuration details.",
];

/// A source as apt names it in its progress lines: `URI SUITE`.
fn source_name(s: &Source) -> String {
    format!("{} {}", s.uri.trim_end_matches('/'), s.suite)
}

fn update(cx: &mut Ctx, prog: &str) -> i32 {
    if !cx.caller.is_root() {
        return lists_locked(cx, prog);
    }
    let mut u = Update::default();
    let mut seen = std::collections::BTreeSet::new();
    // A source listed twice is fetched once.
    for s in pkgs::sources(cx.root) {
        if seen.insert(s.list_key()) {
            u.n += 1;
            fetch(cx, &s, &mut u);
        }
    }
    if u.fetched > 0 {
        cx.println(&format!(
            "Fetched {} in 1s ({}/s)",
            size(u.fetched),
            size(u.fetched)
        ));
    }
    let clean = prog == "apt" && !u.errors;
    reading(cx, clean);
    if clean {
        cx.println("All packages are up to date.");
    }
    u.warnings.dedup();
    for w in &u.warnings {
        cx.eprintln(w);
    }
    if u.errors { 100 } else { 0 }
}

/// `update` without root: apt reads the lists, then cannot lock them.
fn lists_locked(cx: &mut Ctx, prog: &str) -> i32 {
    cx.println("Reading package lists... Done");
    locked(cx, LISTS_LOCK);
    if prog == "apt" {
        cx.eprintln("W: Problem unlinking the file /var/cache/apt/pkgcache.bin - RemoveCaches (13: Permission denied)");
        cx.eprintln("W: Problem unlinking the file /var/cache/apt/srcpkgcache.bin - RemoveCaches (13: Permission denied)");
    }
    100
}

/// One source's lines, by what the offline mirror has for it.
fn fetch(cx: &mut Ctx, s: &Source, u: &mut Update) {
    match pkgs::classify(&s.uri) {
        Repo::Ubuntu => cx.println(&format!("Hit:{} {} InRelease", u.n, source_name(s))),
        // stable.repo.amd.com has one suite: another has no Release file there.
        Repo::CoreSdk(_) if s.suite != "stable" => no_release(cx, s, u),
        Repo::AmdGpu(_) | Repo::Rocm(_) | Repo::CoreDriver(_) | Repo::CoreSdk(_) => {
            fetch_amd(cx, s, u)
        }
        Repo::RadeonMissing => no_release(cx, s, u),
        Repo::Unreachable => unresolved(cx, s, u),
    }
}

/// An AMD repository: a hit when its index is current, else its Release and index, or the
/// missing-key error when its signature cannot be checked.
fn fetch_amd(cx: &mut Ctx, s: &Source, u: &mut Update) {
    let (key, name) = (s.list_key(), source_name(s));
    let check = pkgs::check_key(cx.root, s);
    if check == KeyCheck::Ok && cx.state.apt_lists.contains(&key) {
        cx.println(&format!("Hit:{} {name} InRelease", u.n));
        return;
    }
    let release = 2_615u64;
    cx.println(&format!("Get:{} {name} InRelease [{}]", u.n, size(release)));
    u.fetched += release;
    if check != KeyCheck::Ok {
        return unsigned(cx, s, &check, u);
    }
    let comp = s.components.first().map_or("main", String::as_str);
    u.n += 1;
    let idx = 55_812u64;
    cx.println(&format!(
        "Get:{} {name}/{comp} amd64 Packages [{}]",
        u.n,
        size(idx)
    ));
    u.fetched += idx;
    cx.state.apt_lists.insert(key);
}

/// The NO_PUBKEY error: the repository's lists are dropped until its key is there.
fn unsigned(cx: &mut Ctx, s: &Source, check: &KeyCheck, u: &mut Update) {
    let name = source_name(s);
    // Each repository names the key it is signed with.
    let id = if matches!(pkgs::classify(&s.uri), Repo::CoreSdk(_)) {
        super::super::coresdk::KEY_ID
    } else {
        keys::AMD_KEY_ID
    };
    let msg = format!(
        "The following signatures couldn't be verified because the public key is not available: NO_PUBKEY {id}"
    );
    cx.println(&format!("Err:{} {name} InRelease", u.n));
    cx.println(&format!("  {msg}"));
    if let Some(w) = super::apt_coresdk::ignored_keyring(s, check) {
        u.warnings.push(w);
    }
    u.warnings
        .push(format!("W: GPG error: {name} InRelease: {msg}"));
    u.warnings.push(format!(
        "E: The repository '{name} InRelease' is not signed."
    ));
    u.warnings.extend(INSECURE.map(String::from));
    u.errors = true;
    cx.state.apt_lists.remove(&s.list_key());
}

/// A repo.radeon.com path the mirror does not have: a 404 on its Release file.
fn no_release(cx: &mut Ctx, s: &Source, u: &mut Update) {
    let name = source_name(s);
    cx.println(&format!("Ign:{} {name} InRelease", u.n));
    u.n += 1;
    cx.println(&format!("Err:{} {name} Release", u.n));
    cx.println("  404  Not Found [IP: 23.58.229.146 443]");
    u.warnings.push(format!(
        "E: The repository '{name} Release' does not have a Release file."
    ));
    if let Some(v) = catalog::upstream_only(&s.uri) {
        // Not apt's words: the 404 is the lab mirror's, not repo.radeon.com's.
        u.warnings.push(format!(
            "N: repo.radeon.com publishes ROCm {v}, but this lab's offline mirror does not carry it (it has {}).",
            catalog::mirrored()
        ));
    }
    u.warnings.extend(INSECURE.map(String::from));
    u.errors = true;
}

/// Any other host: there is no network in a lab. Only a warning, as for apt.
fn unresolved(cx: &mut Ctx, s: &Source, u: &mut Update) {
    let host = pkgs::host_of(&s.uri);
    cx.println(&format!("Err:{} {} InRelease", u.n, source_name(s)));
    cx.println(&format!("  Temporary failure resolving '{host}'"));
    u.warnings.push(format!(
        "W: Failed to fetch {}/dists/{}/InRelease  Temporary failure resolving '{host}'",
        s.uri.trim_end_matches('/'),
        s.suite
    ));
    u.warnings.push(
        "W: Some index files failed to download. They have been ignored, or old ones used instead."
            .into(),
    );
}

/// A `./file.deb` operand: the package it holds, or the apt error.
pub fn local_deb(cx: &Ctx, path: &str) -> Result<Package, String> {
    let bytes = std::fs::read(cx.host(path))
        .map_err(|_| format!("E: Unsupported file {path} given on commandline"))?;
    let text = String::from_utf8_lossy(&bytes);
    let meta = text
        .lines()
        .find_map(|l| l.strip_prefix(DEB_MARKER))
        .and_then(|rest| rest.strip_prefix("amdgpu-install "));
    // "VERSION CODENAME": the Ubuntu release the installer was built for.
    let mut words = meta.unwrap_or("").split_whitespace();
    let (version, suite) = (words.next(), words.next());
    let release = version
        .and_then(catalog::release)
        .ok_or_else(|| format!("E: Invalid archive signature\nE: Could not read meta data from {}\nE: The package lists or status file could not be parsed or opened.", super::super::fsx::normalize(path, &cx.caller.cwd)))?;
    Ok(catalog::installer_package(release, suite))
}

/// The packages an `install` line names: by name, or `.deb` files whose paths the download
/// and unpack lines show instead of the mirror's.
struct Wanted {
    names: Vec<String>,
    /// Package name -> the .deb's absolute path.
    local: std::collections::BTreeMap<String, String>,
    avail: Vec<Package>,
}

pub fn install(cx: &mut Ctx, _prog: &str, operands: &[String], yes: bool) -> i32 {
    install_again(cx, operands, yes, false)
}

/// `install`, and with `reinstall` the named packages that are installed already are
/// downloaded, unpacked over themselves and configured again (apt-get(8) `--reinstall`).
fn install_again(cx: &mut Ctx, operands: &[String], yes: bool, reinstall: bool) -> i32 {
    if !cx.caller.is_root() {
        return locked(cx, DPKG_LOCK);
    }
    reading(cx, true);
    if operands.is_empty() {
        cx.println(NOTHING);
        return 0;
    }
    let w = match wanted(cx, operands) {
        Ok(w) => w,
        Err(code) => return code,
    };
    let list = match resolve(cx, &w) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let again: Vec<Package> = if reinstall {
        w.avail
            .iter()
            .filter(|p| w.names.contains(&p.name) && cx.state.installed(&p.name))
            .cloned()
            .collect()
    } else {
        Vec::new()
    };
    for n in &w.names {
        if again.iter().any(|p| &p.name == n) {
            continue;
        }
        if cx.state.installed(n) && !list.iter().any(|p| &p.name == n) {
            let v = cx.state.packages[n].version.clone();
            cx.println(&format!("{n} is already the newest version ({v})."));
        }
    }
    let broken = pending(cx).len();
    if list.is_empty() && again.is_empty() && broken == 0 {
        cx.println(NOTHING);
        return 0;
    }
    if list.is_empty() && again.is_empty() {
        cx.println(NOTHING);
        not_fully_installed(cx, broken);
        cx.println("After this operation, 0 B of additional disk space will be used.");
        let failed = configure_pending(cx);
        return finish_install(cx, &list, &w.local, &failed);
    }
    let extra = plan(cx, &list, &w.names, broken, &again);
    let list: Vec<Package> = list.into_iter().chain(again).collect();
    if extra && !yes && !confirmed(cx) {
        cx.println("Abort.");
        return 1;
    }
    let earlier: Vec<Package> = pending(cx)
        .into_iter()
        .filter(|p| !list.iter().any(|l| l.name == p.name))
        .collect();
    download(cx, &list, &w.local);
    unpack(cx, &list, &w.local);
    let mut failed = configure(cx, &list);
    // What came only as a dependency is apt's to take back (`autoremove`).
    for p in &list {
        if !w.names.contains(&p.name)
            && let Some(i) = cx.state.packages.get_mut(&p.name)
        {
            i.auto = true;
        }
    }
    // apt hands dpkg the half-configured packages of earlier runs as well.
    for f in configure_again(cx, earlier) {
        if !failed.contains(&f) {
            failed.push(f);
        }
    }
    finish_install(cx, &list, &w.local, &failed)
}

/// apt's count of packages a failed run left unconfigured.
fn not_fully_installed(cx: &mut Ctx, n: usize) {
    if n > 0 {
        cx.println(&format!("{n} not fully installed or removed."));
    }
}

const NOTHING: &str = "0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.";

/// Reads the operands: names as they are, `./x.deb` into the package it holds.
fn wanted(cx: &mut Ctx, operands: &[String]) -> Result<Wanted, i32> {
    let mut w = Wanted {
        names: Vec::new(),
        local: Default::default(),
        avail: pkgs::available(cx.state),
    };
    for o in operands {
        if !(o.ends_with(".deb") && o.contains('/')) {
            w.names.push(o.clone());
            continue;
        }
        let p = local_deb(cx, o).map_err(|e| {
            cx.eprintln(&e);
            100
        })?;
        cx.println(&format!("Note, selecting '{}' instead of '{o}'", p.name));
        let path = super::super::fsx::normalize(o, &cx.caller.cwd);
        w.local.insert(p.name.clone(), path);
        w.names.push(p.name.clone());
        w.avail.retain(|a| a.name != p.name);
        w.avail.push(p);
    }
    Ok(w)
}

/// What must be installed, or apt's error for a package nowhere to be found: named on the
/// line, or needed by one that is (then apt blames held packages).
fn resolve(cx: &mut Ctx, w: &Wanted) -> Result<Vec<Package>, i32> {
    let missing = match pkgs::resolve(cx.state, &w.avail, &w.names) {
        Ok(l) => return Ok(l),
        Err(m) => m,
    };
    if w.names.contains(&missing) {
        cx.eprintln(&format!("E: Unable to locate package {missing}"));
    } else {
        for l in [
            "Some packages could not be installed. This may mean that you have",
            "requested an impossible situation or if you are using the unstable",
            "distribution that some required packages have not yet been created",
            "or been moved out of Incoming.",
            "The following information may help to resolve the situation:",
            "",
        ] {
            cx.println(l);
        }
        cx.eprintln(&format!("E: Unable to correct problems, you have held broken packages. ({missing} is not available)"));
    }
    Err(100)
}

/// The summary before the prompt; true when more is installed than was asked for.
fn plan(
    cx: &mut Ctx,
    list: &[Package],
    names: &[String],
    broken: usize,
    again: &[Package],
) -> bool {
    let mut extra: Vec<String> = list
        .iter()
        .filter(|p| !names.contains(&p.name))
        .map(|p| p.name.clone())
        .collect();
    extra.sort();
    let mut all: Vec<String> = list.iter().map(|p| p.name.clone()).collect();
    all.sort();
    if !extra.is_empty() {
        cx.println("The following additional packages will be installed:");
        cx.print(&wrap_list(&extra));
    }
    if !all.is_empty() {
        cx.println("The following NEW packages will be installed:");
        cx.print(&wrap_list(&all));
    }
    let reinstalled = if !again.is_empty() {
        format!("{} reinstalled, ", again.len())
    } else {
        String::new()
    };
    cx.println(&format!(
        "0 upgraded, {} newly installed, {reinstalled}0 to remove and 0 not upgraded.",
        list.len()
    ));
    not_fully_installed(cx, broken);
    let fetched: Vec<Package> = list.iter().chain(again).cloned().collect();
    let total = fetched.iter().map(|p| p.download_kb * 1000).sum();
    let download = remote_bytes(&fetched);
    if download > 0 {
        cx.println(&format!("Need to get {} of archives.", size(download)));
    } else {
        cx.println(&format!("Need to get 0 B/{} of archives.", size(total)));
    }
    let installed: u64 = list.iter().map(|p| p.installed_kb * 1000).sum();
    cx.println(&format!(
        "After this operation, {} of additional disk space will be used.",
        size(installed)
    ));
    !extra.is_empty()
}

/// What comes from the mirror (a local .deb is not downloaded).
fn remote_bytes(list: &[Package]) -> u64 {
    list.iter()
        .filter(|p| p.origin != Origin::Local)
        .map(|p| p.download_kb * 1000)
        .sum()
}

/// The `[Y/n]` prompt: Enter means yes; end of input means no, on a line of its own.
fn confirmed(cx: &mut Ctx) -> bool {
    let answer = cx.ask("Do you want to continue? [Y/n] ");
    let ok = matches!(
        answer.as_deref().map(str::trim),
        Some("" | "y" | "Y" | "yes" | "Yes")
    );
    if answer.is_none() {
        cx.println("");
    }
    ok
}

/// The `Get:` lines, from the repository each package comes from.
fn download(cx: &mut Ctx, list: &[Package], local: &std::collections::BTreeMap<String, String>) {
    let code = cx.state.machine.os.codename.clone();
    for (i, p) in list.iter().enumerate() {
        let release = p.release.unwrap_or_default();
        let from = match p.origin {
            Origin::Ubuntu => format!("http://archive.ubuntu.com/ubuntu {code}/main amd64"),
            Origin::AmdGpu => {
                format!("https://repo.radeon.com/amdgpu/{release}/ubuntu {code}/main amd64")
            }
            Origin::Rocm => format!("https://repo.radeon.com/rocm/apt/{release} {code}/main amd64"),
            Origin::Driver => {
                format!("https://repo.radeon.com/amdgpu/{release}/ubuntu {code}/main amd64")
            }
            Origin::CoreSdk => super::apt_coresdk::origin(cx),
            Origin::Local => local.get(&p.name).cloned().unwrap_or_default(),
        };
        cx.println(&format!(
            "Get:{} {from} {} {} {} [{}]",
            i + 1,
            p.name,
            p.arch,
            p.version,
            size(p.download_kb * 1000)
        ));
    }
    let download = remote_bytes(list);
    if download > 0 {
        cx.println(&format!(
            "Fetched {} in 3s ({}/s)",
            size(download),
            size(download / 3)
        ));
    }
}

/// dpkg's unpack lines, one package after the other.
fn unpack(cx: &mut Ctx, list: &[Package], local: &std::collections::BTreeMap<String, String>) {
    for (i, p) in list.iter().enumerate() {
        let was = cx.state.packages.get(&p.name).map(|i| i.version.clone());
        if was.is_none() {
            cx.println(&format!(
                "Selecting previously unselected package {}.",
                p.name
            ));
        }
        if i == 0 {
            cx.println("(Reading database ... 74813 files and directories currently installed.)");
        }
        let file = match p.origin {
            Origin::Local => local.get(&p.name).cloned().unwrap_or_default(),
            _ => format!(
                ".../{}_{}_{}.deb",
                p.name,
                p.version.replace(':', "%3a"),
                p.arch
            ),
        };
        cx.println(&format!("Preparing to unpack {file} ..."));
        match was {
            Some(v) => cx.println(&format!(
                "Unpacking {} ({}) over ({v}) ...",
                p.name, p.version
            )),
            None => cx.println(&format!("Unpacking {} ({}) ...", p.name, p.version)),
        }
    }
}

/// `Setting up` each package: the DKMS build for the driver, then its files. Returns the
/// packages whose setup failed.
fn configure(cx: &mut Ctx, list: &[Package]) -> Vec<String> {
    let mut failed = Vec::new();
    let bin = cx.caller.sim_bin.clone();
    for p in list {
        cx.println(&format!("Setting up {} ({}) ...", p.name, p.version));
        if p.payload == Payload::DkmsModule && !dkms_build(cx, p) {
            failed.push(p.name.clone());
            half_configure(cx, p, &bin);
            continue;
        }
        let root = cx.root;
        match pkgs::install(root, cx.state, p, &bin) {
            Ok(lines) => lines.iter().for_each(|l| cx.println(l)),
            Err(e) => {
                cx.eprintln(&format!(
                    "dpkg: error processing archive {} (--unpack):\n {e}",
                    p.name
                ));
                failed.push(p.name.clone());
            }
        }
        super::dkms::header_postinst(cx, &p.name);
    }
    failed
}

/// A package whose post-install script failed stays unpacked and half-configured; for
/// amdgpu-dkms that leaves its source added to DKMS and built for no kernel.
fn half_configure(cx: &mut Ctx, p: &Package, bin: &str) {
    if pkgs::install(cx.root, cx.state, p, bin).is_err() {
        return;
    }
    for d in cx.state.dkms.iter_mut().filter(|d| d.module == "amdgpu") {
        d.kernel.clear();
    }
    if let Some(i) = cx.state.packages.get_mut(&p.name) {
        i.half_configured = true;
    }
}

/// The installed packages whose configuration failed, which apt's next run configures again.
fn pending(cx: &Ctx) -> Vec<Package> {
    let names: Vec<&String> = cx
        .state
        .packages
        .iter()
        .filter(|(_, i)| i.half_configured)
        .map(|(n, _)| n)
        .collect();
    pkgs::available(cx.state)
        .into_iter()
        .filter(|p| names.contains(&&p.name))
        .collect()
}

/// Runs the post-install scripts of half-configured packages again (apt after its own
/// packages, `dpkg --configure -a`); returns the ones that failed again.
pub fn configure_pending(cx: &mut Ctx) -> Vec<String> {
    let list = pending(cx);
    configure_again(cx, list)
}

fn configure_again(cx: &mut Ctx, list: Vec<Package>) -> Vec<String> {
    let mut failed = Vec::new();
    for p in list {
        cx.println(&format!("Setting up {} ({}) ...", p.name, p.version));
        if p.payload == Payload::DkmsModule && !dkms_build(cx, &p) {
            failed.push(p.name.clone());
            continue;
        }
        if p.payload == Payload::DkmsModule {
            super::dkms::built_by_postinst(cx);
        }
        if let Some(i) = cx.state.packages.get_mut(&p.name) {
            i.half_configured = false;
        }
    }
    failed
}

/// amdgpu-dkms's post-install script: the module built for the running kernel, or DKMS's
/// error when that kernel's headers are missing (false).
fn dkms_build(cx: &mut Ctx, p: &Package) -> bool {
    let kernel = cx.state.machine.kernel.clone();
    let headers = format!("linux-headers-{kernel}");
    let dkv = p
        .release
        .and_then(catalog::release)
        .map(|r| format!("{}.{}", r.dkms, cx.state.machine.os.version_id))
        .or_else(|| {
            let r = p.release.and_then(super::super::coresdk::by_driver_line)?;
            Some(r.dkms.to_string())
        })
        .unwrap_or_else(|| super::super::coresdk::DKMS_VERSION.to_string());
    cx.println(&format!("Loading new amdgpu-{dkv} DKMS files..."));
    cx.println(&format!("Building for {kernel}"));
    if !cx.state.installed(&headers) {
        cx.println(&format!(
            "Error! Your kernel headers for kernel {kernel} cannot be found."
        ));
        cx.println(&format!("Please install the {headers} package,"));
        cx.println("or use the --kernelsourcedir option to tell DKMS where it's located");
        cx.eprintln(&format!(
            "dpkg: error processing package {} (--configure):",
            p.name
        ));
        cx.eprintln(" installed amdgpu-dkms package post-installation script subprocess returned error exit status 1");
        return false;
    }
    cx.println(&format!("Building initial module for {kernel}"));
    cx.println("Done.");
    cx.println("");
    // Ubuntu compresses modules with zstd from 23.10 on, as modprobe -v shows.
    let ext = if cx.state.machine.os.codename == "noble" {
        ".ko.zst"
    } else {
        ".ko"
    };
    cx.println(&format!("amdgpu{ext}:"));
    cx.println("Running module version sanity check.");
    cx.println(&format!(
        " - Installation\n   - Installing to /lib/modules/{kernel}/updates/dkms/"
    ));
    cx.println("");
    cx.println("depmod...");
    true
}

/// The triggers, apt's note on .deb files it read as root, and dpkg's failures.
fn finish_install(
    cx: &mut Ctx,
    list: &[Package],
    local: &std::collections::BTreeMap<String, String>,
    failed: &[String],
) -> i32 {
    if list
        .iter()
        .any(|p| matches!(p.payload, Payload::RocmLibs(_)))
    {
        let libc = if cx.state.machine.os.codename == "noble" {
            "2.39-0ubuntu8.3"
        } else {
            "2.35-0ubuntu3.8"
        };
        cx.println(&format!("Processing triggers for libc-bin ({libc}) ..."));
    }
    // apt's sandbox user cannot read a .deb in a private home directory.
    for path in local.values() {
        if path.starts_with("/home/") {
            cx.eprintln(&format!("N: Download is performed unsandboxed as root as file '{path}' couldn't be accessed by user '_apt'. - pkgAcquire::Run (13: Permission denied)"));
        }
    }
    if failed.is_empty() {
        return 0;
    }
    cx.eprintln("Errors were encountered while processing:");
    for f in failed {
        cx.eprintln(&format!(" {f}"));
    }
    cx.eprintln("E: Sub-process /usr/bin/dpkg returned an error code (1)");
    100
}

fn list(cx: &mut Ctx, patterns: &[String], installed_only: bool) -> i32 {
    cx.println("Listing... Done");
    let code = cx.state.machine.os.codename.clone();
    let mut rows: Vec<(String, String)> = Vec::new();
    let avail = pkgs::available(cx.state);
    let matches = |name: &str| {
        patterns.is_empty() || patterns.iter().any(|p| super::super::udev::glob(p, name))
    };
    for (name, inst) in &cx.state.packages {
        if !matches(name) {
            continue;
        }
        let arch = if inst.arch.is_empty() {
            "amd64"
        } else {
            &inst.arch
        };
        let suite = if name == "amdgpu-install" {
            "now".to_string()
        } else {
            format!("{code},now")
        };
        rows.push((
            name.clone(),
            format!("{name}/{suite} {} {arch} [installed]", inst.version),
        ));
    }
    if !installed_only {
        for p in &avail {
            if cx.state.installed(&p.name)
                || !matches(&p.name)
                || rows.iter().any(|r| r.0 == p.name)
            {
                continue;
            }
            rows.push((
                p.name.clone(),
                format!("{}/{code} {} {}", p.name, p.version, p.arch),
            ));
        }
    }
    rows.sort();
    for (_, l) in rows {
        cx.println(&l);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{Bench, err};

    fn not_known(opt: &str) -> (i32, String) {
        (
            100,
            format!("E: Command line option '{opt}' [from -{opt}] is not known.\n"),
        )
    }

    fn not_understood(opt: &str) -> (i32, String) {
        (
            100,
            format!(
                "E: Command line option {opt} is not understood in combination with the other options\n"
            ),
        )
    }

    #[test]
    fn unknown_options_read_like_apt() {
        let b = Bench::new(|_| {});
        assert_eq!(err(b.run("apt -z")), not_known("z"));
        assert_eq!(err(b.run("apt -yz install x")), not_known("z"));
        assert_eq!(err(b.run("apt-get -o Foo=bar install x")), not_known("o"));
        assert_eq!(err(b.run("apt -yé install x")), not_known("é"));
        assert_eq!(err(b.run("apt --bogus")), not_understood("--bogus"));
        assert_eq!(
            err(b.run("apt --yes=1 install x")),
            not_understood("--yes=1")
        );
        assert_eq!(err(b.run("apt --help=x")), not_understood("--help=x"));
        assert_eq!(err(b.run("apt ---yes install")), not_understood("--yes"));
        // `--` ends nothing for apt: it is an option it does not know, also inside a cluster.
        assert_eq!(err(b.run("apt -- install")), not_understood("--"));
        assert_eq!(err(b.run("apt -y- install")), not_understood("--"));
    }

    #[test]
    fn options_anywhere_and_clustered() {
        let b = Bench::new(|_| {});
        // Options alone: the usage, exit 1; -h first wins over a later unknown option.
        let (code, out, _) = b.run("apt -y");
        assert_eq!(code, 1);
        assert!(out.starts_with("apt 2.7.14 (amd64)\nUsage: apt [options]"));
        let (code, out, _) = b.run("apt-get -hz");
        assert_eq!(code, 0);
        assert!(out.contains("Usage: apt-get [options] command"));
        let lock = "E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)\nE: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?\n";
        for line in [
            "apt-get -y install x",
            "apt install -qy x",
            "apt --assume-yes install x",
        ] {
            assert_eq!(err(b.run(line)), (100, lock.to_string()), "{line}");
        }
        let (code, out, e) = b.root("apt -qy - install --no-install-recommends nosuch");
        assert_eq!(
            (code, e.as_str()),
            (100, "E: Unable to locate package nosuch\n")
        );
        assert!(out.starts_with("Reading package lists... Done\n"));
        let (code, out, _) = b.run("apt --installed list");
        assert_eq!(code, 0);
        assert!(out.starts_with("Listing... Done\n") && out.contains("[installed]"));
        assert_eq!(
            err(b.run("apt-get list")),
            (100, "E: Invalid operation list\n".to_string())
        );
    }
}
