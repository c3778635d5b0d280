//! `amdgpu-install`: AMD's installer script. It picks packages by use case and runs
//! `apt-get install` through sudo itself (passwordless on a cloud image), so it works for a
//! normal user too, like the real script.

use super::super::{Ctx, catalog};
use super::apt;

const HELP: &str = "Usage: amdgpu-install [options...]

Options:
  -h|--help                Display this help message.
  --dryrun                 Print list of commands to run and exit.
  --usecase=USECASE,...    Install a set of libraries for a specific use case.
  --list-usecase           Show all available usecases and descriptions.
  --opencl=ROCR,LEGACY     Install a specific OpenCL implementation.
                           This option implies the addition of the opencl
                           usecase.
  --vulkan=AMDVLK,PRO      Install a specific vulkan implementation.
                           This option implies the addition of the graphics
                           usecase.
  --no-dkms                Do not install dkms and use built-in kernel driver.
  --no-32                  Do not install 32 bit graphics runtime support.
  --rocmrelease=REL        Install a specific ROCm release.
  --uninstall              Uninstall the amdgpu driver and ROCm stack.
  --accept-eula            Accept EULA for this run only.
  -y                       Assume yes to all prompts.

  Options --list-usecase and --uninstall are exclusive with --usecase.

  Unless the -h|--help option is given, 'apt-get' options may be present.
";

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    let mut usecases = vec!["graphics".to_string(), "opencl".into(), "hip".into()];
    let (mut dkms, mut yes) = (true, false);
    let mut implied: Vec<&str> = Vec::new();
    for a in args {
        // --opencl and --vulkan add the use case their runtime belongs to.
        if let Some(v) = a.strip_prefix("--opencl=") {
            if !v.is_empty() {
                implied.push("opencl");
            }
            continue;
        }
        if let Some(v) = a.strip_prefix("--vulkan=") {
            if !v.is_empty() {
                implied.push("graphics");
            }
            continue;
        }
        // The machine has no 32-bit packages, one release per installer and no EULA to
        // accept: these change nothing here.
        if a.starts_with("--rocmrelease=") {
            continue;
        }
        if let Some(list) = a.strip_prefix("--usecase=") {
            usecases = list
                .split(',')
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            continue;
        }
        match a.as_str() {
            "-h" | "--help" => {
                cx.print(HELP);
                return 0;
            }
            "--list-usecase" => {
                cx.println("If --usecase option is not present, the default selection is \"dkms,graphics,opencl,hip\"");
                cx.println("Available use cases:");
                for u in catalog::USECASES {
                    cx.println(u);
                }
                return 0;
            }
            "--no-dkms" => dkms = false,
            "--no-32" | "--accept-eula" => {}
            "-y" | "--yes" => yes = true,
            "--uninstall" => {
                cx.eprintln("amdgpu-install: --uninstall is not part of this lab");
                return 1;
            }
            o => {
                cx.eprintln(&format!("Unsupported option : {o}"));
                cx.eprint(HELP);
                return 1;
            }
        }
    }
    for u in implied {
        if !usecases.iter().any(|x| x == u) {
            usecases.push(u.to_string());
        }
    }
    let mut packages: Vec<String> = Vec::new();
    if dkms {
        packages.push("amdgpu-dkms".into());
    }
    for u in &usecases {
        match catalog::usecase_packages(u) {
            Some(p) => packages.extend(p.iter().map(|s| s.to_string())),
            None => {
                cx.eprintln(&format!("ERROR: Unsupported use case: {u}"));
                return 1;
            }
        }
    }
    packages.dedup();
    // The script elevates itself with sudo.
    let saved = cx.caller.clone();
    cx.caller = saved.as_root();
    let code = apt::install(cx, "apt-get", &packages, yes);
    cx.caller = saved;
    code
}
