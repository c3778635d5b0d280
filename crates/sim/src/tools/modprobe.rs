//! `modprobe` (kmod): loads amdgpu when its module exists for the running kernel (in-tree from
//! linux-modules-extra, or the DKMS build); needs root to insert; `-r` removes an unused module.

use super::super::Ctx;
use super::super::kernel::{self, Insert};
use super::super::state::Driver;
use super::lsmod;
use super::opts::{self, Error, Long, Parsed, Short, Value};

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

/// What the command line asks for.
#[derive(Debug, Default)]
struct Request {
    remove: bool,
    verbose: bool,
    dry: bool,
    quiet: bool,
    all: bool,
    names: Vec<String>,
}

/// Reads the options as kmod's getopt_long does (`-rv`, options after the module name). The
/// options that name other files or kernels are refused, as before: the machine has one of each.
fn parse(args: &[String]) -> Result<Parsed<Request>, Error> {
    let mut p = opts::parser(args);
    let mut r = Request::default();
    while let Some(arg) = p.next()? {
        match arg {
            Short('r') | Long("remove") => r.remove = true,
            Short('v') | Long("verbose") => r.verbose = true,
            Short('n') | Long("dry-run" | "show") => r.dry = true,
            Short('q') | Long("quiet") => r.quiet = true,
            Short('a') | Long("all") => r.all = true,
            Short('b' | 'i' | 'f') | Long("use-blacklist" | "first-time" | "force") => {}
            Short('h') | Long("help") => return Ok(Parsed::Help),
            Short('V') | Long("version") => return Ok(Parsed::Version),
            Value(n) => r.names.push(opts::text(n).replace('-', "_")),
            other => return Err(opts::unknown(other.unexpected(), &mut p)),
        }
    }
    Ok(Parsed::Request(r))
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut r = match parse(args) {
        Ok(Parsed::Request(r)) => r,
        Ok(Parsed::Help) => {
            let u = usage();
            cx.print(&u);
            return 0;
        }
        Ok(Parsed::Version) => {
            cx.println("kmod version 31");
            cx.println("+ZSTD +XZ -ZLIB +LIBCRYPTO -EXPERIMENTAL");
            return 0;
        }
        Err(e) => {
            cx.eprintln(&format!("modprobe: {}", opts::getopt_message(&e)));
            cx.eprintln("modprobe: ERROR: unexpected getopt_long() value '?'.");
            return 1;
        }
    };
    if r.names.is_empty() {
        cx.eprintln("modprobe: ERROR: missing parameters. See -h.");
        return 1;
    }
    // Without -a, the words after the module name are module parameters.
    if !r.all {
        r.names.truncate(1);
    }
    for name in &r.names {
        let done = if r.remove {
            remove(cx, &r, name)
        } else {
            insert(cx, &r, name)
        };
        if let Err(code) = done {
            return code;
        }
    }
    0
}

/// `modprobe -r NAME`; `Err` carries the exit code after the complaint.
fn remove(cx: &mut Ctx, r: &Request, name: &str) -> Result<(), i32> {
    let loaded = lsmod::loaded(cx.state);
    let Some(m) = loaded.iter().find(|m| m.name == name) else {
        if !r.quiet {
            cx.eprintln(&format!("modprobe: FATAL: Module {name} is not in kernel."));
        }
        return Err(1);
    };
    // Only the module's own use count matters: the modules it uses (its "holders" in lsmod's
    // last column of *other* rows) are removed after it.
    if m.used > 0 {
        cx.eprintln(&format!("modprobe: FATAL: Module {name} is in use."));
        return Err(1);
    }
    if name != "amdgpu" {
        // Only amdgpu's presence matters to the machine; other modules stay.
        return Ok(());
    }
    if r.verbose || r.dry {
        cx.println(&format!("rmmod {name}"));
    }
    if r.dry {
        return Ok(());
    }
    if !cx.caller.is_root() {
        cx.eprintln(&format!(
            "modprobe: ERROR: could not remove '{name}': Operation not permitted"
        ));
        return Err(1);
    }
    cx.state.unload_driver();
    Ok(())
}

/// `modprobe NAME`: only amdgpu exists beyond what is loaded; `Err` carries the exit code.
fn insert(cx: &mut Ctx, r: &Request, name: &str) -> Result<(), i32> {
    if lsmod::loaded(cx.state).iter().any(|m| m.name == name) {
        return Ok(());
    }
    let kernel = cx.state.machine.kernel.clone();
    let driver = (name == "amdgpu")
        .then(|| cx.state.loadable_driver())
        .flatten();
    let Some(driver) = driver else {
        if !r.quiet {
            cx.eprintln(&format!(
                "modprobe: FATAL: Module {name} not found in directory /lib/modules/{kernel}"
            ));
        }
        return Err(1);
    };
    // An explicit modprobe ignores the blacklist (only aliases honour it).
    let ext = if cx.state.machine.os.codename == "noble" {
        ".ko.zst"
    } else {
        ".ko"
    };
    let path = match &driver {
        Driver::InTree => {
            format!("/lib/modules/{kernel}/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu{ext}")
        }
        Driver::Dkms { .. } => format!("/lib/modules/{kernel}/updates/dkms/amdgpu{ext}"),
    };
    if r.verbose || r.dry {
        cx.println(&format!("insmod {path} "));
    }
    if r.dry {
        return Ok(());
    }
    if !cx.caller.is_root() {
        cx.eprintln("modprobe: ERROR: could not insert 'amdgpu': Operation not permitted");
        return Err(1);
    }
    load_amdgpu(cx)
}

/// Inserts amdgpu as root: the kernel decides whether it loads and probes.
fn load_amdgpu(cx: &mut Ctx) -> Result<(), i32> {
    let root = cx.root;
    let refused = match kernel::insert_amdgpu(cx.state) {
        Insert::Loaded(d) => {
            cx.state.load_driver(root, d);
            return Ok(());
        }
        Insert::ProbeFailed(d) => {
            // The probe fails but the module stays loaded: no devices, no error here.
            cx.state.driver = Some(d);
            return Ok(());
        }
        Insert::NotFound => return Ok(()),
        Insert::Invalid => "Invalid argument",
        Insert::KeyRejected => "Key was rejected by service",
    };
    cx.eprintln(&format!(
        "modprobe: ERROR: could not insert 'amdgpu': {refused}"
    ));
    Err(1)
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn option_forms_and_complaints() {
        let m = Machine::stage();
        let not_in = "modprobe: FATAL: Module no_such is not in kernel.";
        for line in [
            "modprobe -r -n no-such",
            "modprobe no-such -rn",
            "modprobe --remove --dry-run no-such",
        ] {
            assert_eq!(m.root_runs(line).complaint(), (not_in, 1), "{line}");
        }
        assert_eq!(m.root_runs("modprobe -rq no-such").stderr, "");
        let unknown = m.root_runs("modprobe --bogus=1 amdgpu");
        assert_eq!(
            unknown.stderr,
            "modprobe: unrecognized option '--bogus=1'\nmodprobe: ERROR: unexpected getopt_long() value '?'.\n"
        );
        assert_eq!(
            m.root_runs("modprobe -rx amdgpu").complaint(),
            ("modprobe: invalid option -- 'x'", 1)
        );
    }
}
