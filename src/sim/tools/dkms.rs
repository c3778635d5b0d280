//! `dkms status` (and the usage errors of other verbs).

use super::super::Ctx;

pub fn run(cx: &mut Ctx, args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("status") => {
            let module = args.get(1).filter(|a| !a.starts_with('-')).cloned();
            let lines: Vec<String> = cx
                .state
                .dkms
                .iter()
                .filter(|d| {
                    module
                        .as_ref()
                        .is_none_or(|m| m.split('/').next() == Some(d.module.as_str()))
                })
                .map(|d| {
                    format!(
                        "{}/{}, {}, {}: installed",
                        d.module, d.version, d.kernel, d.arch
                    )
                })
                .collect();
            for l in lines {
                cx.println(&l);
            }
            0
        }
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
        Some(
            v @ ("add" | "build" | "install" | "uninstall" | "remove" | "autoinstall" | "unbuild"
            | "match" | "mktarball" | "ldtarball" | "generate_mok"),
        ) => {
            cx.eprintln(&format!(
                "Error! The action {v} is not needed in this lab: amdgpu-dkms builds and installs the module when the package is installed."
            ));
            1
        }
        Some(other) => {
            cx.eprintln(&format!("Error! Unknown action specified: \"{other}\""));
            cx.eprintln("Usage: dkms [action] [options]");
            cx.eprintln(
                "  [action]  = { add | remove | build | unbuild | install | uninstall | match |",
            );
            cx.eprintln(
                "                autoinstall | mktarball | ldtarball | generate_mok | status }",
            );
            1
        }
        None => {
            cx.eprintln("Error! No action was specified.");
            cx.eprintln("Usage: dkms [action] [options]");
            cx.eprintln(
                "  [action]  = { add | remove | build | unbuild | install | uninstall | match |",
            );
            cx.eprintln(
                "                autoinstall | mktarball | ldtarball | generate_mok | status }",
            );
            1
        }
    }
}
