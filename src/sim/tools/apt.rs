//! `apt` / `apt-get`: `update`, `install`, `list`.
//!
//! Texts follow apt 2.x as seen in public transcripts: the lock errors without root, the
//! `NO_PUBKEY 9386B48A1A693C5C` block when the repository key is missing (ROCm issue reports),
//! "Unable to locate package" without the repository, the install summary and `[Y/n]` prompt.
//! Sizes and timings are of the right shape but not measured.

use super::super::catalog::{self, Origin, Package, Payload};
use super::super::pkgs::{self, KeyCheck, Repo};
use super::super::{Ctx, keys};

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

fn help(prog: &str) -> String {
    if prog == "apt" {
        "apt 2.7.14 (amd64)
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
Configuration options and syntax is detailed in apt.conf(5).
Information about how to configure sources can be found in sources.list(5).
Package and version choices can be expressed via apt_preferences(5).
Security details are available in apt-secure(8).
                                        This APT has Super Cow Powers.
"
        .into()
    } else {
        "apt 2.7.14 (amd64)
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
Configuration options and syntax is detailed in apt.conf(5).
Information about how to configure sources can be found in sources.list(5).
Package and version choices can be expressed via apt_preferences(5).
Security details are available in apt-secure(8).
                                        This APT has Super Cow Powers.
"
        .into()
    }
}

/// apt's SI size strings (`2,615 B`, `55.8 kB`, `1,234 kB`, `63.4 MB`).
pub fn size(bytes: u64) -> String {
    let commas = |n: u64| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    let b = bytes as f64;
    if bytes < 10_000 {
        format!("{} B", commas(bytes))
    } else if bytes < 100_000 {
        format!("{:.1} kB", b / 1000.0)
    } else if bytes < 10_000_000 {
        format!("{} kB", commas((b / 1000.0).round() as u64))
    } else if bytes < 100_000_000 {
        format!("{:.1} MB", b / 1e6)
    } else {
        format!("{} MB", commas((b / 1e6).round() as u64))
    }
}

pub fn run(cx: &mut Ctx, prog: &str, args: &[String]) -> i32 {
    let mut yes = false;
    let mut words: Vec<String> = Vec::new();
    for a in super::split_short(args, "ocCt") {
        match a.as_str() {
            "-y" | "--yes" | "--assume-yes" => yes = true,
            "-q"
            | "-qq"
            | "--quiet"
            | "--no-install-recommends"
            | "--install-recommends"
            | "-f"
            | "--fix-broken"
            | "--installed"
            | "--upgradable" => words.push(a.clone()),
            "-h" | "--help" => {
                let h = help(prog);
                cx.print(&h);
                return 0;
            }
            o if o.starts_with('-') && o != "-" => {
                let opt = o.trim_start_matches('-');
                if o.starts_with("--") {
                    cx.eprintln(&format!(
                        "E: Command line option --{opt} is not understood in combination with the other options"
                    ));
                } else {
                    cx.eprintln(&format!(
                        "E: Command line option '{opt}' [from -{opt}] is not known."
                    ));
                }
                return 100;
            }
            _ => words.push(a),
        }
    }
    let Some(op) = words.iter().position(|w| !w.starts_with('-')) else {
        let h = help(prog);
        cx.print(&h);
        return 1;
    };
    let op_name = words.remove(op);
    let flags: Vec<String> = words
        .iter()
        .filter(|w| w.starts_with('-'))
        .cloned()
        .collect();
    let operands: Vec<String> = words.into_iter().filter(|w| !w.starts_with('-')).collect();
    match op_name.as_str() {
        "update" => update(cx, prog),
        "install" => install(cx, prog, &operands, yes),
        "list" if prog == "apt" => list(cx, &operands, flags.iter().any(|f| f == "--installed")),
        "remove" | "purge" | "autoremove" | "upgrade" | "full-upgrade" | "dist-upgrade"
        | "reinstall" | "search" | "show" | "policy" | "clean" | "autoclean" | "check"
        | "download" | "source" | "changelog" | "build-dep" | "satisfy" | "edit-sources"
        | "dselect-upgrade" => {
            if !cx.caller.is_root()
                && ![
                    "search",
                    "show",
                    "policy",
                    "download",
                    "source",
                    "changelog",
                ]
                .contains(&op_name.as_str())
            {
                for l in DPKG_LOCK {
                    cx.eprintln(l);
                }
                return 100;
            }
            cx.eprintln(&format!(
                "E: The simulated machine's apt does not implement '{op_name}'; this lab needs update, install and list."
            ));
            100
        }
        other => {
            cx.eprintln(&format!("E: Invalid operation {other}"));
            100
        }
    }
}

fn reading(cx: &mut Ctx, full: bool) {
    cx.println("Reading package lists... Done");
    if full {
        cx.println("Building dependency tree... Done");
        cx.println("Reading state information... Done");
    }
}

fn update(cx: &mut Ctx, prog: &str) -> i32 {
    if !cx.caller.is_root() {
        cx.println("Reading package lists... Done");
        for l in LISTS_LOCK {
            cx.eprintln(l);
        }
        if prog == "apt" {
            cx.eprintln("W: Problem unlinking the file /var/cache/apt/pkgcache.bin - RemoveCaches (13: Permission denied)");
            cx.eprintln("W: Problem unlinking the file /var/cache/apt/srcpkgcache.bin - RemoveCaches (13: Permission denied)");
        }
        return 100;
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut n = 0;
    let mut fetched: u64 = 0;
    let mut warnings: Vec<String> = Vec::new();
    let mut errors = false;
    for s in pkgs::sources(cx.root) {
        let key = s.list_key();
        if !seen.insert(key.clone()) {
            continue;
        }
        n += 1;
        let base = s.uri.trim_end_matches('/');
        let name = format!("{base} {}", s.suite);
        match pkgs::classify(&s.uri) {
            Repo::Ubuntu => cx.println(&format!("Hit:{n} {name} InRelease")),
            Repo::AmdGpu(_) | Repo::Rocm(_) => {
                let check = pkgs::check_key(cx.root, &s);
                if check == KeyCheck::Ok && cx.state.apt_lists.contains(&key) {
                    cx.println(&format!("Hit:{n} {name} InRelease"));
                    continue;
                }
                let release = 2_615u64;
                cx.println(&format!("Get:{n} {name} InRelease [{}]", size(release)));
                fetched += release;
                if check == KeyCheck::Ok {
                    let comp = s
                        .components
                        .first()
                        .cloned()
                        .unwrap_or_else(|| "main".into());
                    n += 1;
                    let idx = 55_812u64;
                    cx.println(&format!(
                        "Get:{n} {name}/{comp} amd64 Packages [{}]",
                        size(idx)
                    ));
                    fetched += idx;
                    cx.state.apt_lists.insert(key);
                } else {
                    let msg = format!(
                        "The following signatures couldn't be verified because the public key is not available: NO_PUBKEY {}",
                        keys::AMD_KEY_ID
                    );
                    cx.println(&format!("Err:{} {name} InRelease", n));
                    cx.println(&format!("  {msg}"));
                    if let KeyCheck::UnsupportedFiletype(f) = &check {
                        warnings.push(format!("W: {base}/dists/{}/InRelease: The key(s) in the keyring {f} are ignored as the file has an unsupported filetype.", s.suite));
                    }
                    warnings.push(format!("W: GPG error: {name} InRelease: {msg}"));
                    warnings.push(format!(
                        "E: The repository '{name} InRelease' is not signed."
                    ));
                    warnings.push("N: Updating from such a repository can't be done securely, and is therefore disabled by default.".into());
                    warnings.push("N: See apt-secure(8) manpage for repository creation and user configuration details.".into());
                    errors = true;
                    cx.state.apt_lists.remove(&key);
                }
            }
            Repo::RadeonMissing => {
                cx.println(&format!("Ign:{n} {name} InRelease"));
                n += 1;
                cx.println(&format!("Err:{n} {name} Release"));
                cx.println("  404  Not Found [IP: 23.58.229.146 443]");
                warnings.push(format!(
                    "E: The repository '{name} Release' does not have a Release file."
                ));
                if let Some(v) = catalog::upstream_only(&s.uri) {
                    // Not apt's words: the 404 is the lab mirror's, not repo.radeon.com's.
                    warnings.push(format!(
                        "N: repo.radeon.com publishes ROCm {v}, but this lab's offline mirror does not carry it (it has {}).",
                        catalog::mirrored()
                    ));
                }
                warnings.push("N: Updating from such a repository can't be done securely, and is therefore disabled by default.".into());
                warnings.push("N: See apt-secure(8) manpage for repository creation and user configuration details.".into());
                errors = true;
            }
            Repo::Unreachable => {
                let host = pkgs::host_of(&s.uri);
                cx.println(&format!("Err:{n} {name} InRelease"));
                cx.println(&format!("  Temporary failure resolving '{host}'"));
                warnings.push(format!(
                    "W: Failed to fetch {base}/dists/{}/InRelease  Temporary failure resolving '{host}'",
                    s.suite
                ));
                warnings.push("W: Some index files failed to download. They have been ignored, or old ones used instead.".into());
            }
        }
    }
    if fetched > 0 {
        cx.println(&format!(
            "Fetched {} in 1s ({}/s)",
            size(fetched),
            size(fetched)
        ));
    }
    reading(cx, prog == "apt" && !errors);
    if prog == "apt" && !errors {
        cx.println("All packages are up to date.");
    }
    warnings.dedup();
    for w in warnings {
        cx.eprintln(&w);
    }
    if errors { 100 } else { 0 }
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

fn wrap_list(names: &[String]) -> String {
    let mut s = String::new();
    let mut line = String::from(" ");
    for n in names {
        if line.len() + n.len() + 1 > 79 && line.len() > 1 {
            s.push_str(&line);
            s.push('\n');
            line = String::from(" ");
        }
        line.push(' ');
        line.push_str(n);
    }
    s.push_str(&line);
    s.push('\n');
    s
}

pub fn install(cx: &mut Ctx, _prog: &str, operands: &[String], yes: bool) -> i32 {
    if !cx.caller.is_root() {
        for l in DPKG_LOCK {
            cx.eprintln(l);
        }
        return 100;
    }
    reading(cx, true);
    if operands.is_empty() {
        cx.println("0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.");
        return 0;
    }
    let mut avail = pkgs::available(cx.state);
    let mut names = Vec::new();
    let mut local_paths = std::collections::BTreeMap::new();
    for o in operands {
        if o.ends_with(".deb") && (o.contains('/')) {
            match local_deb(cx, o) {
                Ok(p) => {
                    cx.println(&format!("Note, selecting '{}' instead of '{o}'", p.name));
                    local_paths.insert(
                        p.name.clone(),
                        super::super::fsx::normalize(o, &cx.caller.cwd),
                    );
                    names.push(p.name.clone());
                    avail.retain(|a| a.name != p.name);
                    avail.push(p);
                }
                Err(e) => {
                    cx.eprintln(&e);
                    return 100;
                }
            }
        } else {
            names.push(o.clone());
        }
    }
    let list = match pkgs::resolve(cx.state, &avail, &names) {
        Ok(l) => l,
        Err(missing) => {
            if names.contains(&missing) {
                cx.eprintln(&format!("E: Unable to locate package {missing}"));
            } else {
                cx.println("Some packages could not be installed. This may mean that you have");
                cx.println("requested an impossible situation or if you are using the unstable");
                cx.println("distribution that some required packages have not yet been created");
                cx.println("or been moved out of Incoming.");
                cx.println("The following information may help to resolve the situation:");
                cx.println("");
                cx.eprintln(&format!("E: Unable to correct problems, you have held broken packages. ({missing} is not available)"));
            }
            return 100;
        }
    };
    for n in &names {
        if cx.state.installed(n) && !list.iter().any(|p| &p.name == n) {
            let v = cx.state.packages[n].version.clone();
            cx.println(&format!("{n} is already the newest version ({v})."));
        }
    }
    if list.is_empty() {
        cx.println("0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.");
        return 0;
    }
    let extra: Vec<String> = list
        .iter()
        .filter(|p| !names.contains(&p.name))
        .map(|p| p.name.clone())
        .collect();
    let mut all: Vec<String> = list.iter().map(|p| p.name.clone()).collect();
    all.sort();
    if !extra.is_empty() {
        let mut e = extra.clone();
        e.sort();
        cx.println("The following additional packages will be installed:");
        cx.print(&wrap_list(&e));
    }
    cx.println("The following NEW packages will be installed:");
    cx.print(&wrap_list(&all));
    cx.println(&format!(
        "0 upgraded, {} newly installed, 0 to remove and 0 not upgraded.",
        list.len()
    ));
    let download: u64 = list
        .iter()
        .filter(|p| p.origin != Origin::Local)
        .map(|p| p.download_kb * 1000)
        .sum();
    let installed: u64 = list.iter().map(|p| p.installed_kb * 1000).sum();
    if download > 0 {
        cx.println(&format!("Need to get {} of archives.", size(download)));
    } else {
        cx.println(&format!(
            "Need to get 0 B/{} of archives.",
            size(list.iter().map(|p| p.download_kb * 1000).sum())
        ));
    }
    cx.println(&format!(
        "After this operation, {} of additional disk space will be used.",
        size(installed)
    ));
    if !extra.is_empty() && !yes {
        let answer = cx.ask("Do you want to continue? [Y/n] ");
        let ok = matches!(
            answer.as_deref().map(str::trim),
            Some("") | Some("y") | Some("Y") | Some("yes") | Some("Yes")
        );
        if !ok {
            if answer.is_none() {
                cx.println("");
            }
            cx.println("Abort.");
            return 1;
        }
    }
    let code = cx.state.machine.os.codename.clone();
    for (i, p) in list.iter().enumerate() {
        let from = match p.origin {
            Origin::Ubuntu => format!("http://archive.ubuntu.com/ubuntu {code}/main amd64"),
            Origin::AmdGpu => format!(
                "https://repo.radeon.com/amdgpu/{}/ubuntu {code}/main amd64",
                p.release.unwrap_or_default()
            ),
            Origin::Rocm => format!(
                "https://repo.radeon.com/rocm/apt/{} {code}/main amd64",
                p.release.unwrap_or_default()
            ),
            Origin::Local => local_paths.get(&p.name).cloned().unwrap_or_default(),
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
    if download > 0 {
        cx.println(&format!(
            "Fetched {} in 3s ({}/s)",
            size(download),
            size(download / 3)
        ));
    }
    for (i, p) in list.iter().enumerate() {
        cx.println(&format!(
            "Selecting previously unselected package {}.",
            p.name
        ));
        if i == 0 {
            cx.println("(Reading database ... 74813 files and directories currently installed.)");
        }
        let file = match p.origin {
            Origin::Local => local_paths.get(&p.name).cloned().unwrap_or_default(),
            _ => format!(
                ".../{}_{}_{}.deb",
                p.name,
                p.version.replace(':', "%3a"),
                p.arch
            ),
        };
        cx.println(&format!("Preparing to unpack {file} ..."));
        cx.println(&format!("Unpacking {} ({}) ...", p.name, p.version));
    }
    let headers = format!("linux-headers-{}", cx.state.machine.kernel);
    let mut failed: Vec<String> = Vec::new();
    let bin = cx.caller.sim_bin.clone();
    for p in &list {
        cx.println(&format!("Setting up {} ({}) ...", p.name, p.version));
        if p.payload == Payload::DkmsModule {
            let kernel = cx.state.machine.kernel.clone();
            let r = p.release.and_then(catalog::release);
            let dkv = r
                .map(|r| format!("{}.{}", r.dkms, cx.state.machine.os.version_id))
                .unwrap_or_default();
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
                failed.push(p.name.clone());
                continue;
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
    for path in local_paths.values() {
        if path.starts_with("/home/") {
            cx.eprintln(&format!("N: Download is performed unsandboxed as root as file '{path}' couldn't be accessed by user '_apt'. - pkgAcquire::Run (13: Permission denied)"));
        }
    }
    if !failed.is_empty() {
        cx.eprintln("Errors were encountered while processing:");
        for f in &failed {
            cx.eprintln(&format!(" {f}"));
        }
        cx.eprintln("E: Sub-process /usr/bin/dpkg returned an error code (1)");
        return 100;
    }
    0
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
