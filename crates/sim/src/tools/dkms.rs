//! `dkms`: `status`, and building amdgpu for a kernel with `autoinstall` or `install` (also run
//! by the kernel headers' post-install hook), in dkms 3.0's words. A build needs the kernel's
//! headers; the module's source is there while amdgpu-dkms is installed.

use super::super::Ctx;
use super::super::state::DkmsEntry;

const ACTIONS: &str = "add | remove | build | unbuild | install | uninstall | match |";

fn usage(cx: &mut Ctx) {
    cx.eprintln("Usage: dkms [action] [options]");
    cx.eprintln(&format!("  [action]  = {{ {ACTIONS}"));
    cx.eprintln("                autoinstall | mktarball | ldtarball | generate_mok | status }");
}

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("status") => status(cx, args.get(1)),
        Some("--version") | Some("-V") => {
            let v = if cx.state.machine.os.codename == "noble" {
                "3.0.11"
            } else {
                "2.8.7"
            };
            cx.println(&format!("dkms-{v}"));
            0
        }
        Some(
            "add" | "build" | "install" | "uninstall" | "remove" | "autoinstall" | "unbuild"
            | "match" | "mktarball" | "ldtarball" | "generate_mok",
        ) if !cx.caller.is_root() => {
            cx.eprintln("Error! You must be root to use this command.");
            1
        }
        Some("autoinstall") => match kernel_arg(cx, &args[1..]) {
            Ok(k) => autoinstall(cx, &k),
            Err(code) => code,
        },
        Some(v @ ("install" | "build")) => install(cx, v, &args[1..]),
        Some(
            v @ ("add" | "uninstall" | "remove" | "unbuild" | "match" | "mktarball" | "ldtarball"
            | "generate_mok"),
        ) => {
            cx.eprintln(&format!(
                "Error! The action {v} is not needed in this lab: amdgpu-dkms adds its source when the package is installed; build it for a kernel with dkms install or dkms autoinstall."
            ));
            1
        }
        Some(other) => {
            cx.eprintln(&format!("Error! Unknown action specified: \"{other}\""));
            usage(cx);
            1
        }
        None => {
            cx.eprintln("Error! No action was specified.");
            usage(cx);
            1
        }
    }
}

fn status(cx: &mut Ctx, module: Option<&String>) -> i32 {
    let module = module.filter(|a| !a.starts_with('-'));
    let lines: Vec<String> = cx
        .state
        .dkms
        .iter()
        .filter(|d| module.is_none_or(|m| m.split('/').next() == Some(d.module.as_str())))
        .map(|d| {
            if d.kernel.is_empty() {
                format!("{}/{}: added", d.module, d.version)
            } else {
                format!(
                    "{}/{}, {}, {}: installed",
                    d.module, d.version, d.kernel, d.arch
                )
            }
        })
        .collect();
    for l in lines {
        cx.println(&l);
    }
    0
}

/// `-k KERNEL` (also `-k=KERNEL`, `--kernelver`); the running kernel without it.
fn kernel_arg(cx: &mut Ctx, args: &[String]) -> Result<String, i32> {
    let mut it = args.iter();
    let mut kernel = None;
    while let Some(a) = it.next() {
        match a.as_str() {
            "-k" | "--kernelver" => match it.next() {
                Some(k) => kernel = Some(k.clone()),
                None => {
                    cx.eprintln(&format!("Error! Option {a} requires an argument."));
                    return Err(1);
                }
            },
            _ => {
                if let Some(k) = a
                    .strip_prefix("-k=")
                    .or_else(|| a.strip_prefix("--kernelver="))
                {
                    kernel = Some(k.to_string());
                }
            }
        }
    }
    Ok(kernel.unwrap_or_else(|| cx.state.machine.kernel.clone()))
}

/// The amdgpu source DKMS holds: the version of the installed amdgpu-dkms package.
fn source_version(cx: &Ctx) -> Option<String> {
    if !cx.state.installed("amdgpu-dkms") {
        return None;
    }
    cx.state
        .dkms
        .iter()
        .find(|d| d.module == "amdgpu")
        .map(|d| d.version.clone())
        .or_else(|| {
            cx.state.packages.get("amdgpu-dkms").map(|p| {
                let v = p
                    .version
                    .split_once(':')
                    .map_or(p.version.as_str(), |x| x.1);
                v.to_string()
            })
        })
}

fn built_for(cx: &Ctx, kernel: &str) -> bool {
    cx.state
        .dkms
        .iter()
        .any(|d| d.module == "amdgpu" && d.kernel == kernel)
}

/// Prints dkms's refusal to build without the kernel's headers; false when they are there.
fn headers_missing(cx: &mut Ctx, kernel: &str) -> bool {
    if cx.state.installed(&format!("linux-headers-{kernel}")) {
        return false;
    }
    cx.eprintln("");
    cx.eprintln(&format!("Error! Your kernel headers for kernel {kernel} cannot be found at /lib/modules/{kernel}/build or /lib/modules/{kernel}/source."));
    cx.eprintln(&format!("Please install the linux-headers-{kernel} package or use the --kernelsourcedir option to tell DKMS where it's located."));
    true
}

/// Builds and installs amdgpu for `kernel`, printing what dkms prints.
fn build_and_install(cx: &mut Ctx, version: &str, kernel: &str) {
    let ext = if cx.state.machine.os.codename == "noble" {
        ".ko.zst"
    } else {
        ".ko"
    };
    for l in [
        "",
        "Cleaning build area... done.",
        "Building module(s)... done.",
        "Cleaning build area... done.",
        "",
    ] {
        cx.println(l);
    }
    cx.println(&format!(
        "Installing /lib/modules/{kernel}/updates/dkms/amdgpu{ext}"
    ));
    cx.println("");
    cx.println("Running depmod... done.");
    // Built once, the module is no longer only added.
    cx.state
        .dkms
        .retain(|d| !(d.module == "amdgpu" && d.kernel.is_empty()));
    cx.state.dkms.push(DkmsEntry {
        module: "amdgpu".into(),
        version: version.into(),
        kernel: kernel.into(),
        arch: "x86_64".into(),
    });
}

/// `dkms autoinstall [-k KERNEL]`: every added module not yet installed for the kernel.
pub fn autoinstall(cx: &mut Ctx, kernel: &str) -> i32 {
    let Some(version) = source_version(cx) else {
        return 0;
    };
    if built_for(cx, kernel) {
        return 0;
    }
    if headers_missing(cx, kernel) {
        cx.eprintln(&format!(
            "dkms autoinstall on {kernel}/x86_64 failed for amdgpu(1)"
        ));
        cx.eprintln("");
        cx.eprintln("Error! One or more modules failed to install during autoinstall.");
        cx.eprintln("Refer to previous errors for more information.");
        return 11;
    }
    build_and_install(cx, &version, kernel);
    cx.println(&format!(
        "dkms autoinstall on {kernel}/x86_64 succeeded for amdgpu"
    ));
    0
}

/// `dkms install|build amdgpu/VERSION [-k KERNEL]` (or `-m amdgpu -v VERSION`).
fn install(cx: &mut Ctx, verb: &str, args: &[String]) -> i32 {
    let kernel = match kernel_arg(cx, args) {
        Ok(k) => k,
        Err(code) => return code,
    };
    let (mut module, mut version) = (None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-m" => module = it.next().cloned(),
            "-v" => version = it.next().cloned(),
            "-k" | "--kernelver" => {
                it.next();
            }
            w if !w.starts_with('-') => {
                let (m, v) = w.split_once('/').unwrap_or((w, ""));
                module = Some(m.to_string());
                version = Some(v.to_string()).filter(|v| !v.is_empty());
            }
            _ => {}
        }
    }
    let (Some(module), Some(version)) = (module, version) else {
        cx.eprintln("");
        cx.eprintln("Error! Arguments <module> and <module-version> are not specified.");
        cx.eprintln(&format!("Usage: {verb} <module>/<module-version> or"));
        cx.eprintln(&format!("       {verb} -m <module>/<module-version> or"));
        cx.eprintln(&format!("       {verb} -m <module> -v <module-version>"));
        return 1;
    };
    if module != "amdgpu" || source_version(cx).as_deref() != Some(version.as_str()) {
        cx.eprintln("");
        cx.eprintln("Error! Could not find module source directory.");
        cx.eprintln(&format!(
            "Directory: /usr/src/{module}-{version} does not exist."
        ));
        return 2;
    }
    if built_for(cx, &kernel) {
        cx.println(&format!("Module {module}/{version} already installed on kernel {kernel} (x86_64), skip. You may override by specifying --force."));
        return 0;
    }
    if headers_missing(cx, &kernel) {
        return 21;
    }
    build_and_install(cx, &version, &kernel);
    0
}

/// What /etc/kernel/header_postinst.d/dkms does when a kernel's headers are installed: runs
/// autoinstall for that kernel (Ubuntu's dkms, reported through run-parts).
pub fn header_postinst(cx: &mut Ctx, package: &str) {
    let Some(kernel) = package.strip_prefix("linux-headers-") else {
        return;
    };
    // Only a versioned headers package has a kernel (linux-headers-generic is a metapackage).
    if !kernel.ends_with("-generic") || kernel == "generic" || source_version(cx).is_none() {
        return;
    }
    cx.println("/etc/kernel/header_postinst.d/dkms:");
    let code = autoinstall(cx, kernel);
    cx.println(&format!(" * dkms: autoinstall for kernel {kernel}"));
    cx.println(if code == 0 {
        "   ...done."
    } else {
        "   ...fail!"
    });
}

/// amdgpu-dkms's post-install script built the module for the running kernel (apt or dpkg
/// configuring it again once the headers are there): the added source is now installed.
pub fn built_by_postinst(cx: &mut Ctx) {
    let kernel = cx.state.machine.kernel.clone();
    if built_for(cx, &kernel) {
        cx.state
            .dkms
            .retain(|d| !(d.module == "amdgpu" && d.kernel.is_empty()));
        return;
    }
    if let Some(d) = cx
        .state
        .dkms
        .iter_mut()
        .find(|d| d.module == "amdgpu" && d.kernel.is_empty())
    {
        d.kernel = kernel;
    }
}
