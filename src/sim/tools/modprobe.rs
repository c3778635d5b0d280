//! `modprobe` (kmod): loads amdgpu when its module exists for the running kernel (in-tree from
//! linux-modules-extra, or the DKMS build); needs root to insert; `-r` removes an unused module.

use super::super::Ctx;
use super::super::kernel::{self, Insert};
use super::super::state::Driver;
use super::lsmod;
use super::split_short;

fn usage() -> String {
    "Usage:
\tmodprobe [options] [-i] [-b] modulename
\tmodprobe [options] -a [-i] [-b] modulename [modulename...]
\tmodprobe [options] -r [-i] modulename
\tmodprobe [options] -r -a [-i] modulename [modulename...]
\tmodprobe [options] -c
\tmodprobe [options] --dump-modversions filename
Management Options:
\t-a, --all                   Consider every non-argument to
\t                            be a module name to be inserted
\t                            or removed (-r)
\t-r, --remove                Remove modules instead of inserting
\t    --remove-dependencies   Deprecated: use --remove-holders
\t    --remove-holders        Also remove module holders (use together with -r)
\t-w, --wait <MSEC>           When removing a module, wait up to MSEC for
\t                            module's refcount to become 0 so it can be
\t                            safely removed (use together with -r)
\t    --first-time            Fail if module already inserted or removed
\t-i, --ignore-install        Ignore install commands
\t-i, --ignore-remove         Ignore remove commands
\t-b, --use-blacklist         Apply blacklist to resolved alias.
\t-f, --force                 Force module insertion or removal.
\t                            implies --force-modversions and
\t                            --force-vermagic
\t    --force-modversion      Ignore module's version
\t    --force-vermagic        Ignore module's version magic

Query Options:
\t-R, --resolve-alias         Only lookup and print alias and exit
\t-D, --show-depends          Only print module dependencies and exit
\t-c, --showconfig            Print out known configuration and exit
\t-c, --show-config           Same as --showconfig
\t    --show-modversions      Dump module symbol version and exit
\t    --dump-modversions      Same as --show-modversions
\t    --show-exports          Only print module exported symbol versions and exit

General Options:
\t-n, --dry-run               Do not execute operations, just print out
\t-n, --show                  Same as --dry-run
\t-C, --config=FILE           Use FILE instead of default search paths
\t-d, --dirname=DIR           Use DIR as filesystem root for /lib/modules
\t-S, --set-version=VERSION   Use VERSION instead of `uname -r`
\t-s, --syslog                print to syslog, not stderr
\t-q, --quiet                 disable messages
\t-v, --verbose               enables more messages
\t-V, --version               show version
\t-h, --help                  show this help
"
    .to_string()
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let args = split_short(args, "wCdS");
    let (mut remove, mut verbose, mut dry, mut quiet, mut all) =
        (false, false, false, false, false);
    let mut names = Vec::new();
    for a in &args {
        match a.as_str() {
            "-r" | "--remove" => remove = true,
            "-v" | "--verbose" => verbose = true,
            "-n" | "--dry-run" | "--show" => dry = true,
            "-q" | "--quiet" => quiet = true,
            "-a" | "--all" => all = true,
            "-b" | "--use-blacklist" | "-i" | "--first-time" | "-f" | "--force" => {}
            "-h" | "--help" => {
                let u = usage();
                cx.print(&u);
                return 0;
            }
            "-V" | "--version" => {
                cx.println("kmod version 31");
                cx.println("+ZSTD +XZ -ZLIB +LIBCRYPTO -EXPERIMENTAL");
                return 0;
            }
            o if o.starts_with("--") => {
                cx.eprintln(&format!("modprobe: unrecognized option '{o}'"));
                cx.eprintln("modprobe: ERROR: unexpected getopt_long() value '?'.");
                return 1;
            }
            o if o.starts_with('-') && o.len() > 1 => {
                cx.eprintln(&format!("modprobe: invalid option -- '{}'", &o[1..]));
                cx.eprintln("modprobe: ERROR: unexpected getopt_long() value '?'.");
                return 1;
            }
            n => names.push(n.replace('-', "_")),
        }
    }
    if names.is_empty() {
        cx.eprintln("modprobe: ERROR: missing parameters. See -h.");
        return 1;
    }
    // Without -a, the words after the module name are module parameters.
    if !all {
        names.truncate(1);
    }
    let kernel = cx.state.machine.kernel.clone();
    let noble = cx.state.machine.os.codename == "noble";
    for name in names {
        let loaded = lsmod::loaded(cx.state);
        let is_loaded = loaded.iter().any(|m| m.name == name);
        if remove {
            let Some(m) = loaded.iter().find(|m| m.name == name) else {
                if !quiet {
                    cx.eprintln(&format!("modprobe: FATAL: Module {name} is not in kernel."));
                }
                return 1;
            };
            // Only the module's own use count matters: the modules it uses (its "holders" in
            // lsmod's last column of *other* rows) are removed after it.
            if m.used > 0 {
                cx.eprintln(&format!("modprobe: FATAL: Module {name} is in use."));
                return 1;
            }
            if name != "amdgpu" {
                // Only amdgpu's presence matters to the machine; other modules stay.
                continue;
            }
            if verbose || dry {
                cx.println(&format!("rmmod {name}"));
            }
            if dry {
                continue;
            }
            if !cx.caller.is_root() {
                cx.eprintln(&format!(
                    "modprobe: ERROR: could not remove '{name}': Operation not permitted"
                ));
                return 1;
            }
            cx.state.unload_driver();
            continue;
        }
        if is_loaded {
            continue;
        }
        if name != "amdgpu" {
            if !quiet {
                cx.eprintln(&format!(
                    "modprobe: FATAL: Module {name} not found in directory /lib/modules/{kernel}"
                ));
            }
            return 1;
        }
        let Some(driver) = cx.state.loadable_driver() else {
            if !quiet {
                cx.eprintln(&format!(
                    "modprobe: FATAL: Module amdgpu not found in directory /lib/modules/{kernel}"
                ));
            }
            return 1;
        };
        // An explicit modprobe ignores the blacklist (only aliases honour it).
        let ext = if noble { ".ko.zst" } else { ".ko" };
        let path = match &driver {
            Driver::InTree => {
                format!("/lib/modules/{kernel}/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu{ext}")
            }
            Driver::Dkms { .. } => format!("/lib/modules/{kernel}/updates/dkms/amdgpu{ext}"),
        };
        if verbose || dry {
            cx.println(&format!("insmod {path} "));
        }
        if dry {
            continue;
        }
        if !cx.caller.is_root() {
            cx.eprintln("modprobe: ERROR: could not insert 'amdgpu': Operation not permitted");
            return 1;
        }
        let root = cx.root;
        match kernel::insert_amdgpu(cx.state) {
            Insert::Loaded(d) => cx.state.load_driver(root, d),
            Insert::ProbeFailed(d) => {
                // The probe fails but the module stays loaded: no devices, no error here.
                cx.state.driver = Some(d);
            }
            Insert::NotFound => {}
            Insert::Invalid => {
                cx.eprintln("modprobe: ERROR: could not insert 'amdgpu': Invalid argument");
                return 1;
            }
            Insert::KeyRejected => {
                cx.eprintln(
                    "modprobe: ERROR: could not insert 'amdgpu': Key was rejected by service",
                );
                return 1;
            }
        }
    }
    0
}
