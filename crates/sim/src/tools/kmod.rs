//! kmod's `insmod`, `rmmod` and `modinfo` for amdgpu. `rmmod` refuses a module in use like
//! `modprobe -r`; `insmod` of amdgpu's file fails as it does for real, since insmod does not
//! load the modules amdgpu needs first (that is modprobe's job).

use super::super::Ctx;
use super::super::state::Driver;
use super::lsmod;
use super::opts::{self, Long, Short, Value};

fn module_path(cx: &Ctx) -> Option<String> {
    let kernel = &cx.state.machine.kernel;
    let ext = if cx.state.machine.os.codename == "noble" {
        ".ko.zst"
    } else {
        ".ko"
    };
    Some(match cx.state.loadable_driver()? {
        Driver::InTree => {
            format!("/lib/modules/{kernel}/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu{ext}")
        }
        Driver::Dkms { .. } => format!("/lib/modules/{kernel}/updates/dkms/amdgpu{ext}"),
    })
}

/// The operands of a kmod tool. The simulated ones act on none of their options, so an
/// option is passed over; `--` still ends them.
fn operands(args: &[String]) -> Vec<String> {
    let mut p = opts::parser(args);
    let mut words = Vec::new();
    loop {
        match p.next() {
            Ok(Some(Value(v))) => words.push(opts::text(v)),
            Ok(Some(_)) => {}
            Ok(None) => return words,
            // `--flag=value`: the value goes with the option.
            Err(_) => {}
        }
    }
}

pub fn rmmod(cx: &mut Ctx, args: &[String]) -> i32 {
    let names = operands(args);
    if names.is_empty() {
        cx.eprintln("rmmod: ERROR: missing module name.");
        return 1;
    }
    for n in &names {
        let name = n
            .rsplit('/')
            .next()
            .unwrap_or(n)
            .trim_end_matches(".zst")
            .trim_end_matches(".ko")
            .replace('-', "_");
        let loaded = lsmod::loaded(cx.state);
        let Some(m) = loaded.iter().find(|m| m.name == name) else {
            cx.eprintln(&format!(
                "rmmod: ERROR: Module {name} is not currently loaded"
            ));
            return 1;
        };
        if !cx.caller.is_root() {
            cx.eprintln(&format!(
                "rmmod: ERROR: could not remove module {name}: Operation not permitted"
            ));
            return 1;
        }
        if !m.holders.is_empty() {
            let h = m.holders.join(",");
            cx.eprintln(&format!("rmmod: ERROR: Module {name} is in use by: {h}"));
            return 1;
        }
        if m.used > 0 {
            cx.eprintln(&format!("rmmod: ERROR: Module {name} is in use"));
            return 1;
        }
        if name == "amdgpu" {
            cx.state.unload_driver();
        }
    }
    0
}

pub fn insmod(cx: &mut Ctx, args: &[String]) -> i32 {
    let Some(file) = operands(args).into_iter().next() else {
        cx.eprintln("insmod: ERROR: missing filename.");
        return 1;
    };
    let file = file.as_str();
    let base = file.rsplit('/').next().unwrap_or(file);
    let is_amdgpu = base.starts_with("amdgpu.ko");
    let exists = cx.host(file).is_file()
        || (is_amdgpu && module_path(cx).is_some_and(|p| cx.host(&p) == cx.host(file)));
    if !exists {
        cx.eprintln(&format!(
            "insmod: ERROR: could not load module {file}: No such file or directory"
        ));
        return 1;
    }
    if !cx.caller.is_root() {
        cx.eprintln(&format!(
            "insmod: ERROR: could not insert module {file}: Operation not permitted"
        ));
        return 1;
    }
    if is_amdgpu && cx.state.driver.is_some() {
        cx.eprintln(&format!(
            "insmod: ERROR: could not insert module {file}: File exists"
        ));
        return 1;
    }
    cx.eprintln(&format!(
        "insmod: ERROR: could not insert module {file}: Unknown symbol in module"
    ));
    1
}

/// modinfo's `-F FIELD` and its operands. `-k` and `-b` take a value the simulation does not
/// use; other options are passed over.
fn modinfo_options(args: &[String]) -> (Option<String>, Vec<String>) {
    let mut p = opts::parser(args);
    let mut field = None;
    let mut names = Vec::new();
    loop {
        match p.next() {
            Ok(Some(Short('F') | Long("field"))) => field = p.value().ok().map(opts::text),
            Ok(Some(Short('k' | 'b') | Long("set-version" | "basedir"))) => {
                let _ = p.value();
            }
            Ok(Some(Value(v))) => names.push(opts::text(v)),
            Ok(Some(_)) | Err(_) => {}
            Ok(None) => return (field, names),
        }
    }
}

pub fn modinfo(cx: &mut Ctx, args: &[String]) -> i32 {
    let (field, names) = modinfo_options(args);
    if names.is_empty() {
        cx.eprintln("modinfo: ERROR: missing module or filename.");
        return 1;
    }
    let mut code = 0;
    for n in names {
        let name = n.replace('-', "_");
        let path = (name == "amdgpu").then(|| module_path(cx)).flatten();
        let Some(path) = path else {
            cx.eprintln(&format!("modinfo: ERROR: Module {n} not found."));
            code = 1;
            continue;
        };
        let kernel = cx.state.machine.kernel.clone();
        let dkms = matches!(cx.state.loadable_driver(), Some(Driver::Dkms { .. }));
        let mut rows: Vec<(&str, String)> = vec![("filename", path)];
        if let Some(Driver::Dkms { version }) = cx.state.loadable_driver() {
            rows.push(("version", version));
        }
        rows.extend([
            ("license", "GPL and additional rights".to_string()),
            ("description", "AMD GPU".to_string()),
            ("author", "AMD linux driver team".to_string()),
        ]);
        for g in &cx.state.machine.gpus {
            let (_, dev) = g.pci.ids.split_once(':').unwrap_or(("", ""));
            rows.push((
                "alias",
                format!("pci:v00001002d0000{}sv*sd*bc*sc*i*", dev.to_uppercase()),
            ));
        }
        rows.push(("depends", if dkms {
            "amddrm_ttm_helper,amdttm,amdxcp,amddrm_buddy,amd-sched,amdkcl,i2c-algo-bit,drm_display_helper,video".to_string()
        } else {
            "drm_exec,amdxcp,drm_buddy,gpu-sched,drm_suballoc_helper,drm_ttm_helper,ttm,i2c-algo-bit,drm_display_helper,video".to_string()
        }));
        rows.push(("retpoline", "Y".into()));
        if !dkms {
            rows.push(("intree", "Y".into()));
        }
        rows.push(("name", "amdgpu".into()));
        rows.push((
            "vermagic",
            format!("{kernel} SMP preempt mod_unload modversions "),
        ));
        if let Some(f) = &field {
            for (k, v) in &rows {
                if k == f {
                    cx.println(v);
                }
            }
        } else {
            for (k, v) in &rows {
                cx.println(&format!("{:<16}{v}", format!("{k}:")));
            }
        }
    }
    code
}

#[cfg(test)]
mod tests {
    use super::super::testkit::Machine;

    #[test]
    fn modinfo_options_take_their_values() {
        let m = Machine::stage();
        let name = m.learner("modinfo -F name amdgpu");
        assert_eq!((name.stdout.as_str(), name.code), ("amdgpu\n", 0));
        for line in [
            "modinfo -Fname amdgpu",
            "modinfo --field=name amdgpu",
            "modinfo amdgpu --field name",
            "modinfo -k 6.8.0-52-generic -F name amdgpu",
        ] {
            assert_eq!(m.learner(line), name, "{line}");
        }
    }
}
